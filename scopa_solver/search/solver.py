"""Exact values of perfectly known positions: solve, analyze and their batch versions.

Values are round margins for the side to move: its points at the end of the round minus the
opponent's, scopas already made included, with both sides playing perfectly.

>>> from scopa_solver import Position
>>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
>>> result = solve(pos)
>>> result.value, [str(m) for m in result.best_moves], result.complete
(5, ['7dx3s+4s'], True)
>>> [(str(mv.move), mv.value) for mv in analyze(pos)]
[('7dx3s+4s', 5), ('2c', -4)]

Family positions (docs/FAMILY.md: more players, Scopone, Scopa a 15) are searched by the family
kernel. With two sides the value is the margin as above; with three or more sides the default
objective "value" is the paranoid value: the mover's side's points minus the best other side's,
every other seat minimising it. ``objective="maxn"`` searches max^n instead: every seat maximises
its own side's points, `value` is the mover's side's points and `points` every side's. max^n
is accepted for every position, two-player Scopa included (then through the family kernel: with
points not zero-sum because of scopas, it can differ from the margin's play).

>>> from scopa_solver import Rules
>>> three = Position(hands=("7d", "3c", "Rb"), table="4s 3s", dealer=2, rules=Rules(players=3))
>>> r = solve(three)
>>> r.value, r.objective, r.points, [str(m) for m in r.pv]
(5, 'value', (5, 0, 0), ['7dx3s+4s', '3c', 'Rb'])
>>> solve(three, objective="maxn").value
5
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from .. import kernel
from ..core.position import Move, Position, RoundScore
from ..errors import RulesError, excerpt

_VALUE_INF = kernel.VALUE_INF


@dataclass(frozen=True)
class MoveValue:
    """A legal move and its exact value for the side to move. If a limit stopped the search,
    value is None and lower..upper bound it (None: unbounded on that side)."""

    move: Move
    value: Optional[int]
    lower: Optional[int]
    upper: Optional[int]

    def __str__(self) -> str:
        return f"{self.move} {self.value if self.value is not None else '?'}"

    def to_dict(self) -> dict:
        return {"move": str(self.move), "value": self.value, "lower": self.lower, "upper": self.upper}

    @classmethod
    def from_dict(cls, data: dict) -> "MoveValue":
        return cls(Move.parse(data["move"]), data["value"], data["lower"], data["upper"])


class SearchResult:
    """The outcome of `solve`: exact value, optimal moves, principal variation, effort.

    With complete=False (a limit stopped the search) `value` is None and `lower`..`upper` bound
    it (None: unbounded on that side). Moves and the outcome are decoded from the kernel's
    packed result on first use, which keeps batch calls fast."""

    __slots__ = ("position", "_raw", "_best", "_pv")

    def __init__(self, position: Position, raw: "kernel.KernelResult") -> None:
        self.position = position
        self._raw = raw
        self._best: Optional[list[Move]] = None
        self._pv: Optional[list[Move]] = None

    @property
    def complete(self) -> bool:
        return self._raw.stop == 0

    @property
    def stopped(self) -> Optional[str]:
        """None when complete, else what stopped it: 'nodes', 'time' or 'interrupt'."""
        return kernel.STOP_REASONS[self._raw.stop]

    @property
    def value(self) -> Optional[int]:
        """Round margin for the side to move with perfect play (scopas already made included)."""
        return self._raw.lower if self._raw.stop == 0 else None

    @property
    def lower(self) -> Optional[int]:
        return _bound(self._raw.lower)

    @property
    def upper(self) -> Optional[int]:
        return _bound(self._raw.upper)

    @property
    def best_moves(self) -> list[Move]:
        """Every optimal move (empty when the search was stopped)."""
        if self._best is None:
            self._best = [Move.from_packed(m) for m in self._raw.best or ()]
        return list(self._best)

    @property
    def pv(self) -> list[Move]:
        """A principal variation: optimal play by both sides to the end of the round."""
        if self._pv is None:
            self._pv = [Move.from_packed(m) for m in self._raw.pv]
        return list(self._pv)

    @property
    def horizon(self) -> Optional[int]:
        """None for an exact search; else the plies below the position where a horizon search
        scored the positions by the static evaluation (docs/family.md): `value` and the moves
        are then estimates, and the pv ends at the horizon."""
        return getattr(self._raw, "horizon", None)

    @property
    def objective(self) -> str:
        """What was searched: "value" (the margin; paranoid with three or more sides) or "maxn"."""
        return getattr(self._raw, "objective", "value")

    @property
    def points(self) -> Optional[tuple[int, ...]]:
        """Every side's round points at the end of the principal variation (the max^n vector
        under "maxn"); None when the search was stopped."""
        points = getattr(self._raw, "points", None)
        if points is not None or not self.complete:
            return points
        outcome = self.outcome
        return None if outcome is None else outcome.total

    @property
    def outcome(self) -> Optional[RoundScore]:
        """The round score at the end of the principal variation (per side for the family)."""
        end = self._raw.end
        rules = self.position.rules
        if end is None:
            return self.position.round_score() if self.complete and self.position.is_round_over() else None
        if isinstance(self._raw, kernel.FamilyResult):
            piles, scopas = end
            if rules.is_family:
                return RoundScore.of_seats(piles, scopas, rules)
            return RoundScore.of(piles[0], piles[1], tuple(scopas), rules)  # type: ignore[arg-type]
        return RoundScore.of(end[0], end[1], (end[2], end[3]), rules)

    @property
    def nodes(self) -> int:
        return self._raw.nodes

    @property
    def seconds(self) -> float:
        return self._raw.seconds

    @property
    def tt_probes(self) -> int:
        return self._raw.probes

    @property
    def tt_hits(self) -> int:
        return self._raw.hits

    @property
    def tt_stores(self) -> int:
        return self._raw.stores

    @property
    def tt_fill(self) -> float:
        """Share of the table's entries in use after the search."""
        return self._raw.fill

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def tt_hit_rate(self) -> float:
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0

    def to_dict(self) -> dict:
        """Plain data (JSON-ready): the position, the value or its bounds, the moves, the effort."""
        outcome = self.outcome
        out = {"position": self.position.to_string(), "complete": self.complete, "stopped": self.stopped,
               "value": self.value, "lower": self.lower, "upper": self.upper,
               "best_moves": [str(m) for m in self.best_moves], "pv": [str(m) for m in self.pv],
               "outcome": outcome.to_dict() if outcome is not None else None,
               "nodes": self.nodes, "seconds": self.seconds, "tt_probes": self.tt_probes,
               "tt_hits": self.tt_hits, "tt_stores": self.tt_stores, "tt_fill": self.tt_fill}
        if isinstance(self._raw, kernel.FamilyResult):     # the two-player data stays as it was
            points = self.points
            out.update(objective=self.objective, points=None if points is None else list(points),
                       horizon=self.horizon)
        return out

    def __repr__(self) -> str:
        if not self.complete:
            return (f"SearchResult(stopped={self.stopped!r}, lower={self.lower}, upper={self.upper}, "
                    f"nodes={self.nodes})")
        maxn = ", objective='maxn'" if self.objective == "maxn" else ""
        horizon = f", horizon={self.horizon}" if self.horizon is not None else ""
        return (f"SearchResult(value={self.value}, best_moves=[{', '.join(map(str, self.best_moves))}], "
                f"pv=[{' '.join(map(str, self.pv))}], nodes={self.nodes}{maxn}{horizon})")


def _bound(x: int) -> Optional[int]:
    return None if abs(x) >= _VALUE_INF else x


def _check(position: Position) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    return position


def _check_objective(objective: str) -> str:
    if not isinstance(objective, str) or objective not in kernel.OBJECTIVES:
        raise RulesError(f"objective must be 'value' or 'maxn', not {excerpt(objective)}")
    return objective


def _run(positions: Sequence[Position], want: int, max_nodes: Optional[int],
         time_limit: Optional[float], tt_mb: Optional[float], threads: Optional[int],
         objective: str = "value", horizon: Optional[int] = None) -> list:
    """Search every position through the kernel face's scheduler; KernelResults in order.
    Two-player Scopa under "value" goes to the two-player kernel, everything else (the family
    games, max^n, horizon searches) to the family kernel; a batch that mixes them runs as two
    batches."""
    _check_objective(objective)
    depth = kernel.check_horizon(horizon)
    positions = [_check(p) for p in positions]
    if objective == "value" and not depth:
        states = [p.kernel_state() for p in positions]
        if {type(state) for state in states} <= {kernel.KernelState}:     # the common case
            return kernel.run_batch(states, want=want, max_nodes=max_nodes, time_limit=time_limit,
                                    tt_mb=tt_mb, threads=kernel.worker_count(threads, len(states)))
    family = [objective == "maxn" or bool(depth) or p.rules.is_family for p in positions]
    results: list = [None] * len(positions)
    for kind in (True, False):
        index = [i for i, f in enumerate(family) if f == kind]
        if not index and (kind or any(family)):    # an empty batch still checks its limits
            continue
        states = [positions[i].family_state() if kind else positions[i].kernel_state() for i in index]
        workers = kernel.worker_count(threads, len(states))
        raws = kernel.run_batch(states, want=want, max_nodes=max_nodes, time_limit=time_limit, tt_mb=tt_mb,
                                threads=workers, family=kind, objective=objective if kind else "value",
                                horizon=depth if kind else None)
        for i, raw in zip(index, raws):
            results[i] = raw
    return results


def solve(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
          tt_mb: Optional[float] = None, full_window: bool = False, objective: str = "value",
          horizon: Optional[int] = None) -> SearchResult:
    """The exact value, every optimal move and a principal variation of a known position.

    `max_nodes` / `time_limit` bound the work (then complete=False and lower/upper bound the
    value); `tt_mb` sizes the transposition table (0 switches it off); `full_window` replaces
    the zero-window driver by one full-window alpha-beta (for comparison); `objective` "value"
    (the margin, paranoid with three or more sides) or "maxn" (see the module docstring);
    `horizon` plies (None: exact) searches that deep and scores there by the static evaluation
    (through the family kernel, every game; `SearchResult.horizon` says whether it cut).
    Ctrl-C interrupts.

    >>> from scopa_solver import Rules
    >>> early = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))
    >>> r = solve(early, horizon=4)
    >>> r.horizon, len(r.pv), r.value is not None
    (4, 4, True)
    """
    want = kernel.WANT_BEST | kernel.WANT_PV | (kernel.FULL_WINDOW if full_window else 0)
    return SearchResult(position, _run([position], want, max_nodes, time_limit, tt_mb, 1, objective,
                                       horizon)[0])


def _move_values(raw: "kernel.KernelResult") -> list[MoveValue]:
    rows = []
    for packed, (lower, upper) in zip(raw.moves, raw.move_bounds or [(-_VALUE_INF, _VALUE_INF)] * len(raw.moves)):
        rows.append(MoveValue(Move.from_packed(packed), lower if lower == upper else None,
                              _bound(lower), _bound(upper)))
    rows.sort(key=lambda mv: (_VALUE_INF if mv.lower is None else -mv.lower,
                              _VALUE_INF if mv.upper is None else -mv.upper))
    return rows


def analyze(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
            tt_mb: Optional[float] = None, objective: str = "value",
            horizon: Optional[int] = None) -> list[MoveValue]:
    """Every legal move with its exact value for the side to move, best first (under "maxn":
    the mover's side's points after the move, every seat then maximising its own); with a
    `horizon`, the values are the horizon search's estimates."""
    return _move_values(_run([position], kernel.WANT_ALL, max_nodes, time_limit, tt_mb, 1, objective,
                             horizon)[0])


def solve_many(positions: Iterable[Position], *, threads: Optional[int] = None,
               max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
               tt_mb: Optional[float] = None, objective: str = "value",
               horizon: Optional[int] = None) -> list[SearchResult]:
    """`solve` for many positions in one call, the GIL released; `threads` workers (0: all cores).
    Limits (and `horizon`) apply to each position. Results are identical to single calls."""
    positions = list(positions)
    runs = _run(positions, kernel.WANT_BEST | kernel.WANT_PV, max_nodes, time_limit, tt_mb, threads, objective,
                horizon)
    return [SearchResult(p, raw) for p, raw in zip(positions, runs)]


def analyze_many(positions: Iterable[Position], *, threads: Optional[int] = None,
                 max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
                 tt_mb: Optional[float] = None, objective: str = "value",
                 horizon: Optional[int] = None) -> list[list[MoveValue]]:
    """`analyze` for many positions in one call, the GIL released, `threads` workers."""
    positions = list(positions)
    runs = _run(positions, kernel.WANT_ALL, max_nodes, time_limit, tt_mb, threads, objective, horizon)
    return [_move_values(raw) for raw in runs]


def solve_values(positions: Iterable[Position], *, threads: Optional[int] = None,
                 tt_mb: Optional[float] = None, objective: str = "value") -> list[int]:
    """Only the exact values (no best moves, no pv): the fastest batch call."""
    return [raw.lower for raw in _run(list(positions), 0, None, None, tt_mb, threads, objective)]
