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
is accepted for every position, two-player Scopa included (with points not zero-sum because of
scopas, it can differ from the margin's play).

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
import threading
import time
from typing import Iterable, Iterator, Optional, Sequence

from .. import kernel
from ..core.position import Move, Position, RoundScore

_VALUE_INF = kernel.VALUE_INF


@dataclass(frozen=True)
class MoveValue:
    """A legal move and its value for the side to move. `lower`..`upper` are proved bounds on
    the move's exact value (None: unbounded on that side); `value` is the exact value when
    `exact`, else with `horizon` the estimate of a search that deep, kept within the proved
    bounds (docs/search.md#what-a-result-proves); None if a limit stopped an exact search
    before any depth completed."""

    move: Move
    value: Optional[int]
    lower: Optional[int]
    upper: Optional[int]
    horizon: Optional[int] = None

    @property
    def exact(self) -> bool:
        """The value is the exact one (not a horizon estimate, not missing)."""
        return self.value is not None and self.horizon is None

    def __str__(self) -> str:
        return f"{self.move} {self.value if self.value is not None else '?'}"

    def to_dict(self) -> dict:
        return {"move": str(self.move), "value": self.value, "lower": self.lower, "upper": self.upper,
                "horizon": self.horizon, "exact": self.exact}

    @classmethod
    def from_dict(cls, data: dict) -> "MoveValue":
        return cls(Move.parse(data["move"]), data["value"], data["lower"], data["upper"], data.get("horizon"))


class SearchResult:
    """The outcome of `solve`: value, optimal moves, principal variation, effort.

    What is proved and what is estimated are kept apart (docs/search.md#what-a-result-proves):
    `lower`..`upper` always bound the exact value (None: unbounded on that side); `complete`
    (the same as `exact`) says the search proved it: `value` == `lower` == `upper` is the exact
    value, `best_moves` every optimal move and `pv` optimal play. Otherwise `value`,
    `best_moves` and `pv` are those of the deepest horizon search that completed (`horizon`
    says how deep; `value` kept within `lower`..`upper`), and `stopped` names the limit that
    cut the search (None: it went as deep as asked); `value` is None only in a stopped exact
    search that completed nothing (`horizon=0`). Moves and the outcome are decoded from the
    kernel's packed result on first use, which keeps batch calls fast."""

    __slots__ = ("position", "_raw", "_best", "_pv", "_stop", "_nodes", "_seconds", "_bounds")

    def __init__(self, position: Position, raw: "kernel.KernelResult", stop: Optional[int] = None,
                 nodes: Optional[int] = None, seconds: Optional[float] = None,
                 bounds: Optional["kernel.KernelResult"] = None) -> None:
        self.position = position
        self._raw = raw          # the deepest search that completed (or the one that stopped)
        self._best: Optional[list[Move]] = None
        self._pv: Optional[list[Move]] = None
        self._stop = raw.stop if stop is None else stop     # the whole search's; -1: deepening on
        self._nodes = raw.nodes if nodes is None else nodes
        self._seconds = raw.seconds if seconds is None else seconds
        # what an exact search proved (a horizon search proves nothing: its values are estimates)
        self._bounds = bounds if bounds is not None else raw if _proves(raw) else None

    @property
    def complete(self) -> bool:
        """The exact value is proved: `value` == `lower` == `upper`, and `best_moves` and `pv`
        are exact. False for a horizon search (an estimate), even one that went as deep as
        asked, and for a search a limit stopped."""
        return self.exact

    @property
    def exact(self) -> bool:
        """`value`, `best_moves` and `pv` are exact (not a horizon search's estimates)."""
        return self._raw.stop == 0 and self.horizon is None

    @property
    def stopped(self) -> Optional[str]:
        """What cut the search short: 'nodes', 'time' or 'interrupt'; None when nothing did
        (complete, a horizon search that went as deep as asked, or in `solve_iter` a depth that
        a deeper one follows)."""
        return kernel.STOP_REASONS.get(self._stop)

    @property
    def value(self) -> Optional[int]:
        """Round margin for the side to move with perfect play (scopas already made included)
        when `exact`; else the horizon search's estimate, within `lower`..`upper`."""
        if self._raw.stop != 0:
            return None
        return self._raw.lower if self.exact else _within(self._raw.lower, self.lower, self.upper)

    @property
    def lower(self) -> Optional[int]:
        """The least the exact value can be, as proved (None: nothing proved): `value` when
        exact; when the exact try was stopped and depths took over, the bound it proved."""
        return None if self._bounds is None else _bound(self._bounds.lower)

    @property
    def upper(self) -> Optional[int]:
        """The most the exact value can be, as proved (None: nothing proved)."""
        return None if self._bounds is None else _bound(self._bounds.upper)

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
        if points is not None or not self.exact:
            return points
        outcome = self.outcome
        return None if outcome is None else outcome.total

    @property
    def outcome(self) -> Optional[RoundScore]:
        """The round score at the end of the principal variation (per side for the family)."""
        end = self._raw.end
        rules = self.position.rules
        if end is None:
            return self.position.round_score() if self.exact and self.position.is_round_over() else None
        return RoundScore.of_piles(end[0], end[1], rules)

    @property
    def nodes(self) -> int:
        """Nodes of the whole search (an exact try and shallower depths included)."""
        return self._nodes

    @property
    def seconds(self) -> float:
        return self._seconds

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
        out.update(exact=self.exact, horizon=self.horizon)
        points = self.points
        out.update(objective=self.objective, points=None if points is None else list(points))
        return out

    def __repr__(self) -> str:
        if self.value is None:
            return (f"SearchResult(stopped={self.stopped!r}, lower={self.lower}, upper={self.upper}, "
                    f"nodes={self.nodes})")
        maxn = ", objective='maxn'" if self.objective == "maxn" else ""
        horizon = f", horizon={self.horizon}" if self.horizon is not None else ""
        stopped = f", stopped={self.stopped!r}" if self.stopped else ""
        return (f"SearchResult(value={self.value}, best_moves=[{', '.join(map(str, self.best_moves))}], "
                f"pv=[{' '.join(map(str, self.pv))}], nodes={self.nodes}{maxn}{horizon}{stopped})")


def _bound(x: int) -> Optional[int]:
    return None if abs(x) >= _VALUE_INF else x


def _proves(raw: "kernel.KernelResult") -> bool:
    """A kernel result whose bounds are proved: an exact search's (complete or stopped), never
    a horizon search's (its bounds are the estimate)."""
    return getattr(raw, "horizon", None) is None


def _within(estimate: Optional[int], lower: Optional[int], upper: Optional[int]) -> Optional[int]:
    """An estimate moved into the proved lower..upper: a value outside them is known wrong, and
    the nearest bound is nearer the exact value."""
    if estimate is None:
        return None
    if lower is not None and estimate < lower:
        return lower
    if upper is not None and estimate > upper:
        return upper
    return estimate


def _check(position: Position) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    return position


def _run(positions: Sequence[Position], want: int, max_nodes: Optional[int],
         time_limit: Optional[float], tt_mb: Optional[float], threads: Optional[int],
         objective: str = "value", horizon: Optional[int] = None) -> list:
    """Search every position through the kernel face's scheduler; KernelResults in order. A
    single position with `threads` > 1 is searched by that many threads together (the parallel
    search: ext/parallel.pxi)."""
    kernel.check_objective(objective)
    depth = kernel.check_horizon(horizon)
    states = [_check(p).kernel_state() for p in positions]
    together = kernel.check_threads(threads) if len(states) == 1 else 1
    return kernel.run_batch(states, want=want, max_nodes=max_nodes, time_limit=time_limit, tt_mb=tt_mb,
                            threads=kernel.worker_count(threads, len(states)), objective=objective,
                            horizon=depth, search_threads=together)


# The exact try before depth-limited search: a position it solves is exact at once (the whole
# two-player round takes a few thousand nodes, the family games' last deals tens of thousands).
EXACT_TRY_NODES = 500_000

_SOLVE = kernel.WANT_BEST | kernel.WANT_PV
_ANALYZE = kernel.WANT_ALL | kernel.WANT_BEST | kernel.WANT_PV


def _analyze_want(max_nodes: Optional[int], time_limit: Optional[float]) -> int:
    """Every move's value; with a limit (depths may follow) the best moves and a pv too. Without
    one the exact analysis stays as lean as it was (the pv cost the last deal 11% more nodes)."""
    return kernel.WANT_ALL if max_nodes is None and time_limit is None else _ANALYZE


class Analysis(list):
    """`analyze`'s answer: the `MoveValue` of every legal move, best first (a list, as before),
    and the search beside it: `horizon` (the depth of the values, None: exact), `exact`,
    `complete` (proved, as `SearchResult.complete`), `stopped`, `value`, `lower`..`upper` (the
    bounds proved on the position's exact value), `best_moves`, `pv`, `nodes`, `seconds`;
    `result` is the `SearchResult` they come from."""

    def __init__(self, rows: Iterable[MoveValue], result: SearchResult) -> None:
        super().__init__(rows)
        self.result = result

    horizon = property(lambda self: self.result.horizon, doc="None: exact; else the plies searched")
    exact = property(lambda self: self.result.exact, doc="the values are the exact ones")
    complete = property(lambda self: self.result.complete, doc="the exact values are proved")
    lower = property(lambda self: self.result.lower, doc="the least the exact value can be (None: unbounded)")
    upper = property(lambda self: self.result.upper, doc="the most the exact value can be (None: unbounded)")
    stopped = property(lambda self: self.result.stopped, doc="'nodes' or 'time' when a limit ended it")
    nodes = property(lambda self: self.result.nodes, doc="nodes of the whole search")
    seconds = property(lambda self: self.result.seconds, doc="seconds of the whole search")
    pv = property(lambda self: self.result.pv, doc="a principal variation (to the horizon)")

    @property
    def value(self) -> Optional[int]:
        """The best move's value (None: no legal move, or nothing completed); an estimate is
        kept within the position's proved `lower`..`upper`."""
        return _within(self[0].value, self.lower, self.upper) if self else None

    @property
    def best_moves(self) -> list[Move]:
        """Every move of the best value (under a horizon, the kernel's: of its finer values)."""
        if self.result._raw.best is None:       # not asked of the kernel (analyze without a limit)
            return [mv.move for mv in self if mv.value is not None and mv.value == self.value]
        return self.result.best_moves

    def to_dict(self) -> dict:
        r = self.result
        return {"position": r.position.to_string(), "horizon": self.horizon, "exact": self.exact,
                "complete": self.complete, "stopped": self.stopped, "value": self.value,
                "lower": self.lower, "upper": self.upper, "best_moves": [str(m) for m in self.best_moves], "pv": [str(m) for m in self.pv],
                "nodes": self.nodes, "seconds": self.seconds, "moves": [mv.to_dict() for mv in self]}


def _move_values(raw: "kernel.KernelResult", bounds: Optional["kernel.KernelResult"] = None) -> list[MoveValue]:
    """The rows of a kernel result, best first. Each move's lower..upper are what `bounds` (an
    exact search: `raw` itself, or the stopped exact try before a horizon search) proved, else
    unbounded; no move is worth more than the position, so its proved upper bound bounds every
    move. A horizon search's values are estimates kept within them."""
    horizon = getattr(raw, "horizon", None)
    unknown = (-_VALUE_INF, _VALUE_INF)
    proved = dict(zip(bounds.moves, bounds.move_bounds or [])) if bounds is not None else {}
    most = bounds.upper if bounds is not None else _VALUE_INF
    rows = []
    for packed, (lower, upper) in zip(raw.moves, raw.move_bounds or [unknown] * len(raw.moves)):
        low, high = proved.get(packed, unknown)
        low, high = _bound(low), _bound(min(high, most))
        value = lower if lower == upper else None
        rows.append(MoveValue(Move.from_packed(packed), value if horizon is None else _within(value, low, high),
                              low, high, horizon))
    rows.sort(key=lambda mv: (_VALUE_INF if mv.value is None else -mv.value,
                              _VALUE_INF if mv.lower is None else -mv.lower,
                              _VALUE_INF if mv.upper is None else -mv.upper))
    return rows


def _analysis(result: SearchResult) -> Analysis:
    return Analysis(_move_values(result._raw, result._bounds), result)


def _deepening(position: Position, want: int, nodes: int, seconds: float, tt_mb: Optional[float],
               objective: str, last: int, tried: Optional["kernel.KernelResult"] = None,
               threads: int = 1) -> Iterator[SearchResult]:
    """Iterative deepening of one position on one searcher (`kernel.deepen`): a
    SearchResult per completed depth, every one but the last stop -1 (a deeper search follows);
    the last one's stop says what ended the deepening. The exact try `tried` (stopped) counts
    towards the budget and gives the bounds; the first depth always completes."""
    spent, elapsed = (tried.nodes, tried.seconds) if tried is not None else (0, 0.0)
    used = spent
    start = time.monotonic() - elapsed
    signals = threading.current_thread() is threading.main_thread()
    result: Optional[SearchResult] = None
    stop = 0
    with kernel.borrow_searcher(tt_mb) as searcher:
        steps = kernel.deepen(searcher, position.kernel_state(), want, max(1, nodes - used) if nodes else 0,
                              max(1e-6, seconds - elapsed) if seconds else 0.0, None, signals, objective,
                              settle=True, last=last, near=2 * kernel.DEEPEN_STEP, threads=threads)
        try:
            for raw, done in steps:
                used = spent + done
                if raw.stop:                # the budget cut this one: the last depth stands
                    stop = raw.stop
                    break
                finished = raw.horizon is None or raw.horizon == last
                result = SearchResult(position, raw, 0 if finished else -1, used, time.monotonic() - start,
                                      tried if raw.horizon is not None else None)
                yield result
        except KeyboardInterrupt:
            raise kernel.SearchInterrupted from None
    if result is not None and result._stop == -1:   # a limit ended the deepening before its end
        result._stop = stop or (1 if nodes and used >= nodes else 2)
        result._nodes, result._seconds = used, time.monotonic() - start


def _searches(position: Position, want: int, max_nodes: Optional[int], time_limit: Optional[float],
              tt_mb: Optional[float], objective: str, horizon: Optional[int],
              threads: Optional[int] = None) -> Iterator[SearchResult]:
    """`solve_iter` / `analyze_iter`: an exact try, then depth by depth (docs/search.md); with a
    `horizon` asked for, depth by depth up to it (no exact try); with `horizon` 0 the exact
    search alone. `threads` search the position together (family positions)."""
    together = kernel.check_threads(threads)
    nodes, seconds = kernel.check_limits(max_nodes, time_limit)
    last = kernel.check_horizon(horizon)
    _check(position)
    kernel.check_objective(objective)
    if horizon == 0:        # the exact search alone
        yield SearchResult(position, _run([position], want, max_nodes, time_limit, tt_mb, together, objective)[0])
        return
    tried = None
    if not last:
        tried = _exact_try([position], want, nodes, seconds, tt_mb, together, objective)[0]
        if tried.stop == 0:
            yield SearchResult(position, tried)
            return
    yield from _deepening(position, want, nodes, seconds, tt_mb, objective, last, tried, together)


def _exact_try(positions: Sequence[Position], want: int, nodes: int, seconds: float, tt_mb: Optional[float],
               threads: Optional[int], objective: str) -> list:
    """The exact search of every position within EXACT_TRY_NODES nodes (or `nodes`, if fewer)
    and half of `seconds`: the kernel's results, in one batch."""
    return _run(positions, want, min(nodes or EXACT_TRY_NODES, EXACT_TRY_NODES), seconds / 2 if seconds else None,
                tt_mb, threads, objective)


def _final(searches: Iterator[SearchResult]) -> SearchResult:
    result = None
    for result in searches:
        pass
    assert result is not None      # the first depth always completes
    return result


def _limited(positions: Sequence[Position], want: int, max_nodes: Optional[int],
             time_limit: Optional[float], tt_mb: Optional[float], threads: Optional[int],
             objective: str, horizon: Optional[int]) -> list[SearchResult]:
    """The searches of solve(_many) / analyze(_many). Without a limit, or with `horizon` 0, one
    exact (or `horizon`) search each, as the kernel gives it. With one, the exact tries of all
    positions in one batch (`threads` workers); a position they do not finish is deepened (4,
    8, ... plies), one after another in this thread, within what is left of its budget, and
    gets its deepest complete depth (its searches on `threads` threads together). With a limit
    and a `horizon`, each is deepened up to it."""
    if (max_nodes is None and time_limit is None) or horizon == 0:
        return [SearchResult(p, raw) for p, raw in
                zip(positions, _run(positions, want, max_nodes, time_limit, tt_mb, threads, objective, horizon))]
    nodes, seconds = kernel.check_limits(max_nodes, time_limit)
    last = kernel.check_horizon(horizon)
    if last:
        return [_final(_searches(p, want, max_nodes, time_limit, tt_mb, objective, horizon, threads))
                for p in positions]
    raws = _exact_try(positions, want, nodes, seconds, tt_mb, threads, objective)
    return [SearchResult(p, raw) if raw.stop == 0 else
            _final(_deepening(p, want, nodes, seconds, tt_mb, objective, 0, raw, kernel.check_threads(threads)))
            for p, raw in zip(positions, raws)]


def solve(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
          tt_mb: Optional[float] = None, full_window: bool = False, objective: str = "value",
          horizon: Optional[int] = None, threads: Optional[int] = None) -> SearchResult:
    """The exact value, every optimal move and a principal variation of a known position.

    `max_nodes` / `time_limit` bound the work: a position the exact search does not finish in
    them gets the deepest depth-limited search that completed (`horizon` says how deep, `exact`
    False, `complete` False; docs/search.md#depth-limited-search). `tt_mb` sizes the
    transposition table (0 switches it off); `full_window` replaces the zero-window driver by
    one full-window alpha-beta (for comparison); `objective` "value" (the margin, paranoid with
    three or more sides) or "maxn" (see the module docstring); `horizon` plies (None: exact)
    searches that deep and scores there by the static evaluation (every game; with a limit,
    deepening 4, 8, ... plies up to it). `threads` (default 1, 0: every core) search a position
    of three or more seats together, sharing one table (docs/family.md, "One position on every
    core"): the same answer sooner, `nodes` counting every thread's, `max_nodes` for all of
    them; two-player Scopa and max^n search on one. Ctrl-C interrupts.

    >>> from scopa_solver import Rules
    >>> early = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))
    >>> r = solve(early, horizon=4)
    >>> r.horizon, len(r.pv), r.value is not None
    (4, 4, True)
    """
    want = _SOLVE | (kernel.FULL_WINDOW if full_window else 0)
    return _limited([position], want, max_nodes, time_limit, tt_mb, kernel.check_threads(threads), objective,
                    horizon)[0]


def solve_iter(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
               tt_mb: Optional[float] = None, objective: str = "value",
               horizon: Optional[int] = None, threads: Optional[int] = None) -> Iterator[SearchResult]:
    """`solve` depth by depth: see `analyze_iter` (the same, without every move's value)."""
    return _searches(position, _SOLVE, max_nodes, time_limit, tt_mb, objective, horizon, threads)


def analyze(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
            tt_mb: Optional[float] = None, objective: str = "value",
            horizon: Optional[int] = None, threads: Optional[int] = None) -> Analysis:
    """Every legal move with its exact value for the side to move, best first (under "maxn":
    the mover's side's points after the move, every seat then maximising its own); with a
    `horizon`, or a limit the exact search does not finish in, the deepest depth-limited
    search's estimates (`MoveValue.horizon`, `Analysis.horizon`). An `Analysis`: a list.
    `threads` as for `solve`: a family position searched by that many threads together."""
    return _analysis(_limited([position], _analyze_want(max_nodes, time_limit), max_nodes, time_limit, tt_mb,
                              kernel.check_threads(threads), objective, horizon)[0])


def analyze_iter(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
                 tt_mb: Optional[float] = None, objective: str = "value",
                 horizon: Optional[int] = None, threads: Optional[int] = None) -> Iterator[Analysis]:
    """`analyze` depth by depth, as a chess engine's lines: an `Analysis` for every depth that
    completes, deepest last. First an exact try (at most EXACT_TRY_NODES nodes and half the
    time limit): a position it solves gives one exact Analysis. Otherwise horizons 4, 8, 12, ...
    plies (`DEEPEN_STEP`; up to `horizon` if given), the last exact if the budget reaches the
    round's end. The first depth always completes (milliseconds), whatever the limits. The
    limits are for the whole iteration; without any it goes on to exact (break out to stop:
    the searcher is freed). Every result but the last has complete=False and stopped=None;
    the last is complete, or its `stopped` says which limit ended it.

    >>> from scopa_solver import Rules
    >>> early = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))
    >>> [(a.horizon, len(a)) for a in analyze_iter(early, horizon=8)]
    [(4, 10), (8, 10)]
    """
    return (_analysis(r) for r in _searches(position, _ANALYZE, max_nodes, time_limit, tt_mb, objective, horizon,
                                            threads))


def solve_many(positions: Iterable[Position], *, threads: Optional[int] = None,
               max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
               tt_mb: Optional[float] = None, objective: str = "value",
               horizon: Optional[int] = None) -> list[SearchResult]:
    """`solve` for many positions in one call, the GIL released; `threads` workers (0: all cores).
    Limits (and `horizon`) apply to each position. Results are identical to single calls; the
    positions the exact search does not finish within a limit are deepened one after another."""
    return _limited(list(positions), _SOLVE, max_nodes, time_limit, tt_mb, threads, objective, horizon)


def analyze_many(positions: Iterable[Position], *, threads: Optional[int] = None,
                 max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
                 tt_mb: Optional[float] = None, objective: str = "value",
                 horizon: Optional[int] = None) -> list[Analysis]:
    """`analyze` for many positions in one call, the GIL released, `threads` workers."""
    return [_analysis(r) for r in _limited(list(positions), _analyze_want(max_nodes, time_limit), max_nodes,
                                           time_limit, tt_mb, threads, objective, horizon)]


def solve_values(positions: Iterable[Position], *, threads: Optional[int] = None,
                 tt_mb: Optional[float] = None, objective: str = "value") -> list[int]:
    """Only the exact values (no best moves, no pv): the fastest batch call."""
    return [raw.lower for raw in _run(list(positions), 0, None, None, tt_mb, threads, objective)]
