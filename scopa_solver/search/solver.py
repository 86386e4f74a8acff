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

``objective=Match(score)`` (search.match) searches to win the match: the value is the chance
that the side to move's side wins it, in 1/10,000ths, read at the round's end in a leaf table of
the sides' final round points (docs/search.md, "The match objective").
"""
from __future__ import annotations

from dataclasses import dataclass
import math
import threading
import time
from typing import Any, Callable, Generic, Iterable, Iterator, Literal, Optional, TypeVar, Union, overload

from .. import kernel
from ..core.position import Move, Position, RoundScore
from ..errors import LimitError
from ..kernel import Limit, StopReason
from ..kernel.timebox import nearest_box, open_boxes, raise_if_cancelled
from .match import MATCH_ONE, Match, kernel_objective, match_text

_VALUE_INF = kernel.VALUE_INF
_NONE_LAST = 1 << 30         # sorts after every value

Objective = Union[str, Match]
"""What a search maximises: "value", "maxn" or a `Match` (the chance to win the match)."""


def _objective(objective: Any) -> Objective:
    """A checked objective: a `Match` as it is, else `kernel.check_objective`'s."""
    return objective if isinstance(objective, Match) else kernel.check_objective(objective)


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

    def to_dict(self) -> dict[str, Any]:
        return {"move": str(self.move), "value": self.value, "lower": self.lower, "upper": self.upper,
                "horizon": self.horizon, "exact": self.exact}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "MoveValue":
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
        self._stop = raw.stop if stop is None else stop     # the whole search's
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
        return self._raw.stop == StopReason.NONE and self.horizon is None

    @property
    def stopped(self) -> Optional[str]:
        """What cut the search short (`kernel.StopReason`'s label): 'nodes', 'time' (the time
        limit or the deadline) or 'request' (the handle's `stop()`); None when nothing did
        (complete, a horizon search that went as deep as asked, or a depth of `analysis` that a
        deeper one follows)."""
        return kernel.StopReason(self._stop).label

    @property
    def value(self) -> Optional[int]:
        """Round margin for the side to move with perfect play (scopas already made included)
        when `exact`; else the horizon search's estimate, within `lower`..`upper`."""
        if self._raw.stop != StopReason.NONE:
            return None
        return self._raw.lower if self.exact else _within(self._raw.lower, self.lower, self.upper)

    @property
    def lower(self) -> Optional[int]:
        """The least the exact value can be, as proved (None: nothing proved): `value` when
        exact; when the exact try was stopped and depths took over, the bound it proved."""
        return None if self._bounds is None else _bound(self._bounds.lower, self._bounds)

    @property
    def upper(self) -> Optional[int]:
        """The most the exact value can be, as proved (None: nothing proved)."""
        return None if self._bounds is None else _bound(self._bounds.upper, self._bounds)

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
        """What was searched: "value" (the margin; paranoid with three or more sides), "maxn" or
        "match" (a `Match`: `value` is the side to move's chance to win the match, 1/10,000ths)."""
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

    def to_dict(self) -> dict[str, Any]:
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
        if self.objective == "match":
            maxn = f", objective='match' ({match_text(self.value)})"
        return (f"SearchResult(value={self.value}, best_moves=[{', '.join(map(str, self.best_moves))}], "
                f"pv=[{' '.join(map(str, self.pv))}], nodes={self.nodes}{maxn}{horizon}{stopped})")


def _bound(x: int, raw: Any = None) -> Optional[int]:
    """A kernel bound as a proved bound (None: unbounded); a match value's (0..10000) is always one."""
    if raw is not None and getattr(raw, "objective", None) == "match":
        return x
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


def _limit(limit: Optional[Limit]) -> Limit:
    if limit is None:
        return kernel.NO_LIMIT
    if not isinstance(limit, Limit):
        raise LimitError(f"limit must be a Limit (e.g. Limit(time=2)), not {type(limit).__name__}")
    return limit


# The exact try before depth-limited search: a position it solves is exact at once (the whole
# two-player round takes a few thousand nodes, the family games' last deals tens of thousands).
EXACT_TRY_NODES = 500_000
# A stop that came before any depth completed still gets an estimate: this many plies (ms).
_SETTLE_PLIES = kernel.DEEPEN_STEP

_SOLVE = kernel.WANT_BEST | kernel.WANT_PV
_ANALYZE = kernel.WANT_ALL | kernel.WANT_BEST | kernel.WANT_PV


def _analyze_want(limit: Limit) -> int:
    """Every move's value; with a limit (depths may follow) the best moves and a pv too (an
    iterated `analysis` adds them too). Without one the exact analysis stays as lean as it was
    (the pv cost the last deal 11% more nodes)."""
    return _ANALYZE if limit.limited else kernel.WANT_ALL


class Analysis(list[MoveValue]):
    """`analyze`'s answer: the `MoveValue` of every legal move, best first (a list), and the
    search beside it: `horizon` (the depth of the values, None: exact), `exact`, `complete`
    (proved, as `SearchResult.complete`), `stopped`, `value`, `lower`..`upper` (the bounds
    proved on the position's exact value), `best_moves`, `pv`, `nodes`, `seconds`; `result` is
    the `SearchResult` they come from. Never changed once made."""

    def __init__(self, rows: Iterable[MoveValue], result: SearchResult) -> None:
        super().__init__(rows)
        self.result = result

    horizon = property(lambda self: self.result.horizon, doc="None: exact; else the plies searched")
    exact = property(lambda self: self.result.exact, doc="the values are the exact ones")
    complete = property(lambda self: self.result.complete, doc="the exact values are proved")
    lower = property(lambda self: self.result.lower, doc="the least the exact value can be (None: unbounded)")
    upper = property(lambda self: self.result.upper, doc="the most the exact value can be (None: unbounded)")
    stopped = property(lambda self: self.result.stopped, doc="what ended the search early (None: nothing)")
    nodes = property(lambda self: self.result.nodes, doc="nodes of the whole search")
    seconds = property(lambda self: self.result.seconds, doc="seconds of the whole search")
    pv = property(lambda self: self.result.pv, doc="a principal variation (to the horizon)")

    @property
    def value(self) -> Optional[int]:
        """The best move's value (None: no legal move); an estimate is kept within the
        position's proved `lower`..`upper`."""
        return _within(self[0].value, self.lower, self.upper) if self else None

    def __repr__(self) -> str:
        if self.result.objective != "match":
            return list.__repr__(self)
        moves = ", ".join(f"{mv.move} {'?' if mv.value is None else f'{mv.value / 100:.2f}%'}" for mv in self)
        return f"Analysis({match_text(self.value)}: {moves})"

    __str__ = __repr__

    @property
    def best_moves(self) -> list[Move]:
        """Every move of the best value (under a horizon, the kernel's: of its finer values)."""
        if self.result._raw.best is None:       # not asked of the kernel (analyze without a limit)
            return [mv.move for mv in self if mv.value is not None and mv.value == self.value]
        return self.result.best_moves

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {"position": r.position.to_string(), "horizon": self.horizon, "exact": self.exact,
                "complete": self.complete, "stopped": self.stopped, "value": self.value,
                "lower": self.lower, "upper": self.upper, "best_moves": [str(m) for m in self.best_moves],
                "pv": [str(m) for m in self.pv], "nodes": self.nodes, "seconds": self.seconds,
                "moves": [mv.to_dict() for mv in self]}


def _move_values(raw: "kernel.KernelResult", bounds: Optional["kernel.KernelResult"] = None) -> list[MoveValue]:
    """The rows of a kernel result, best first. Each move's lower..upper are what `bounds` (an
    exact search: `raw` itself, or the stopped exact try before a horizon search) proved, else
    unbounded; no move is worth more than the position, so its proved upper bound bounds every
    move. A horizon search's values are estimates kept within them."""
    horizon = getattr(raw, "horizon", None)
    match = getattr(raw, "objective", None) == "match"
    unknown = (0, MATCH_ONE) if match else (-_VALUE_INF, _VALUE_INF)
    proved = dict(zip(bounds.moves, bounds.move_bounds or [])) if bounds is not None else {}
    most = bounds.upper if bounds is not None else unknown[1]
    rows = []
    for packed, (lower, upper) in zip(raw.moves, raw.move_bounds or [unknown] * len(raw.moves)):
        proved_low, proved_high = proved.get(packed, unknown)
        low, high = _bound(proved_low, raw), _bound(min(proved_high, most), raw)
        value = lower if lower == upper else None
        rows.append(MoveValue(Move.from_packed(packed), value if horizon is None else _within(value, low, high),
                              low, high, horizon))
    rows.sort(key=lambda mv: (_NONE_LAST if mv.value is None else -mv.value,
                              _NONE_LAST if mv.lower is None else -mv.lower,
                              _NONE_LAST if mv.upper is None else -mv.upper))
    return rows


def _analysis(result: SearchResult) -> Analysis:
    return Analysis(_move_values(result._raw, result._bounds), result)


@dataclass(frozen=True)
class SearchInfo:
    """What a running search has done so far (`AnalysisHandle.info`, readable from any thread,
    like an engine's ``info`` line): the horizon being searched now (`depth`; None: the exact
    search), the nodes of every search so far (the running one's live), the seconds since the
    start, and the deepest completed depth's `value` and `pv` (None / [] before the first)."""

    depth: Optional[int]
    nodes: int
    seconds: float
    value: Optional[int]
    pv: tuple[Move, ...]
    done: bool

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


T = TypeVar("T", SearchResult, Analysis)


class _Live:
    """What a running search shares with its handle's other threads (`info`): kept apart from
    the search's generator so that the handle and the generator hold no cycle (a handle let go
    of frees its searcher at once)."""

    __slots__ = ("searcher", "base", "depth", "last", "start", "before", "live")

    def __init__(self, before: int) -> None:
        self.searcher: Any = None       # lent while searching
        self.base = 0                   # its nodes_total when this search began
        self.depth: Optional[int] = None
        self.last: Any = None           # the latest snapshot
        self.start = time.monotonic()
        self.before = before            # nodes spent before (a batch's exact try)
        self.live = False               # iterated: deepens even without a limit


class AnalysisHandle(Generic[T]):
    """A search under way (`analysis`): iterate it for one snapshot per completed depth (each an
    `Analysis`, never changed afterwards), the last one the answer; `wait()` runs it to the end
    and returns that answer; `stop()` (from any thread, or between two snapshots) ends it with
    the deepest answer it has (`stopped` 'request'); `info` says live what it is doing; a `with`
    block (or `close()`) stops it and frees its searcher. The search runs in the thread that
    iterates or waits (no thread of its own: `analyze` is `analysis(...).wait()` at no extra
    cost); `stop()` and `info` are for the others.

    Iterated, or with a node, time or deadline limit, it goes depth by depth: an exact try
    (EXACT_TRY_NODES nodes and half the time), then horizons 4, 8, 12, ... plies (up to
    `horizon` if set), the last exact if the budget reaches the round's end; the first depth
    always completes (milliseconds). Waited for at once without such a limit (`analyze`), one
    search gives the answer (exact, or at `horizon`), as fast as it can be had. `horizon` 0: the
    exact search alone. A stop before any depth completed still gets a 4-ply estimate."""

    def __init__(self, position: Position, limit: Limit, objective: Objective, want: int,
                 wrap: Callable[[SearchResult], T], tried: Optional["kernel.KernelResult"] = None) -> None:
        self.position, self.limit, self.objective = position, limit, objective
        self._token = kernel.StopToken()
        self._live = _Live(tried.nodes if tried is not None else 0)
        searched = kernel_objective(position, objective)      # a Match's leaf table, made once
        self._steps: Iterator[T] = _searches(position, limit, searched, want, wrap, tried, self._token, self._live)

    def __iter__(self) -> "AnalysisHandle[T]":
        return self

    def __next__(self) -> T:
        if self._live.last is None:
            self._live.live = True
        return next(self._steps)

    def stop(self) -> None:
        """End the search soon (any thread): the answer is the deepest one it has."""
        self._token.stop()

    def wait(self) -> T:
        """Run the search to its end (or its limit, or `stop()`); the answer."""
        for _ in self._steps:
            pass
        answer: T = self._live.last
        return answer

    def close(self) -> None:
        """Stop the search and free its searcher (the answer so far stays in `info`)."""
        self.stop()
        self._steps.close()     # type: ignore[attr-defined]

    @property
    def info(self) -> SearchInfo:
        """What it has done so far (a new value each time; any thread)."""
        live = self._live
        s, last = live.searcher, live.last
        result = last.result if isinstance(last, Analysis) else last
        if s is not None:
            nodes, seconds = s.nodes_total - live.base + live.before, time.monotonic() - live.start
        elif result is not None:
            nodes, seconds = result.nodes, result.seconds
        else:
            nodes, seconds = live.before, time.monotonic() - live.start
        return SearchInfo(live.depth, nodes, seconds, None if last is None else last.value,
                          tuple(result.pv) if result is not None else (), s is None and last is not None)

    def __enter__(self) -> "AnalysisHandle[T]":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _searches(position: Position, limit: Limit, objective: Any, want: int, wrap: Callable[[SearchResult], T],
              tried: Optional["kernel.KernelResult"], token: "kernel.StopToken", live: _Live) -> Iterator[T]:
    """The searches of a handle, on one searcher from the pool (its table kept for the next call)."""
    state = position.kernel_state()
    signals = threading.current_thread() is threading.main_thread()
    threads = limit.workers
    # a time box around the caller (a request's, a decision's) cuts every search as a deadline;
    # a strict one that cut the answer raises its TimeLimitError, a cancelled one too
    boxes, box = open_boxes(), nearest_box()
    if box is not None and box.expired() and not box.anytime:
        raise box.error()
    end = min(limit.end(live.start), kernel.budget_deadline() or math.inf)
    def give(result: SearchResult) -> T:
        raise_if_cancelled(boxes)
        if box is not None and not box.anytime and box.expired() and result.stopped:
            raise box.error()
        answer = wrap(result)
        live.last = answer
        return answer

    def settle(stopped: SearchResult) -> SearchResult:
        """A stop before any value: a `_SETTLE_PLIES` horizon search (milliseconds, no limit)
        gives an estimate within what the stopped search proved."""
        searcher: Any = live.searcher
        raw = searcher.search_many([state], want, 0, 0.0, signals, objective, _SETTLE_PLIES, threads)[0]
        return SearchResult(position, raw, stopped._stop, stopped.nodes + raw.nodes,
                            time.monotonic() - live.start, stopped._bounds)

    try:
        with kernel.borrow_searcher(limit) as searcher, kernel.watching(token):
            live.base = searcher.nodes_total
            live.searcher = searcher
            if limit.horizon == 0 or not (limit.limited or live.live):
                live.depth = limit.horizon or None
                seconds = 0.0 if end == math.inf else max(end - time.monotonic(), 1e-6)
                raw = searcher.search_many([state], want, limit.nodes or 0, seconds, signals, objective,
                                           limit.horizon or 0, threads, token)[0]
                result = SearchResult(position, raw)
                if result.value is None and raw.stop == StopReason.REQUEST and limit.horizon != 0:
                    result = settle(result)
                yield give(result)
                return
            if want & kernel.WANT_ALL:
                want = _ANALYZE     # depths follow: the best moves and a pv too
            last = limit.horizon or 0
            if tried is None and not last:
                seconds = 0.0 if end == math.inf else max((end - time.monotonic()) / 2, 1e-6)
                tried = searcher.search_many([state], want, min(limit.nodes or EXACT_TRY_NODES, EXACT_TRY_NODES),
                                             seconds, signals, objective, 0, threads, token)[0]
                if tried.stop in (StopReason.NONE, StopReason.REQUEST):
                    result = SearchResult(position, tried)
                    yield give(settle(result) if result.value is None else result)
                    return
            spent = tried.nodes if tried is not None else 0
            best: Optional[SearchResult] = None
            stop = StopReason.NONE
            used = spent
            live.depth = kernel.DEEPEN_STEP if not last else min(kernel.DEEPEN_STEP, last)
            for raw, done in kernel.deepen(searcher, state, want, token, nodes=max(1, limit.nodes - spent)
                                           if limit.nodes else 0, end=end, signals=signals, objective=objective,
                                           last=last, near=2 * kernel.DEEPEN_STEP, settle=True, threads=threads):
                used = spent + done
                if raw.stop:            # cut by the budget or the token: the last depth stands
                    stop = StopReason(raw.stop)
                    break
                best = SearchResult(position, raw, 0, used, time.monotonic() - live.start,
                                    tried if raw.horizon is not None else None)
                live.depth = None if raw.horizon is None else raw.horizon + kernel.DEEPEN_STEP
                if raw.horizon is None or raw.horizon == last:
                    break               # exact, or as deep as asked: the answer, given below
                yield give(best)
            else:   # the budget was spent between two depths
                stop = StopReason.NODES if limit.nodes and used >= limit.nodes else StopReason.TIME
            if best is None:            # stopped before the first depth completed (the token)
                best = settle(SearchResult(position, tried if tried is not None else raw, stop, used,
                                           time.monotonic() - live.start))
            elif stop:
                best = SearchResult(position, best._raw, stop, used, time.monotonic() - live.start, best._bounds)
            yield give(best)
    except KeyboardInterrupt:
        raise_if_cancelled(boxes)
        raise kernel.SearchInterrupted from None
    finally:
        live.searcher = None


@overload
def analysis(position: Position, limit: Optional[Limit] = None, *, objective: Objective = "value",
             moves: Literal[True] = True) -> AnalysisHandle[Analysis]: ...


@overload
def analysis(position: Position, limit: Optional[Limit] = None, *, objective: Objective = "value",
             moves: Literal[False]) -> AnalysisHandle[SearchResult]: ...


@overload
def analysis(position: Position, limit: Optional[Limit] = None, *, objective: Objective = "value",
             moves: bool = True) -> Union[AnalysisHandle[Analysis], AnalysisHandle[SearchResult]]: ...


def analysis(position: Position, limit: Optional[Limit] = None, *, objective: Objective = "value",
             moves: bool = True) -> Union[AnalysisHandle[Analysis], AnalysisHandle[SearchResult]]:
    """A search of `position` under `limit` that you iterate, stop or wait for (python-chess's
    ``engine.analysis``): one `Analysis` per completed depth, the last the answer; `analyze` is
    ``analysis(...).wait()``. `objective` "value" (the margin, paranoid with three or more sides)
    or "maxn" (see the module docstring). `moves` False: `solve`'s search (no value for every
    move, so fewer nodes), one `SearchResult` per depth.

    >>> from scopa_solver import Limit, Rules
    >>> early = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))
    >>> with analysis(early, Limit(nodes=2_000_000, horizon=8)) as search:
    ...     [(a.horizon, len(a)) for a in search]
    [(4, 10), (8, 10)]
    """
    limit = _limit(limit)
    objective = _objective(objective)
    if not moves:
        return AnalysisHandle(_check(position), limit, objective, _SOLVE, _same)
    return AnalysisHandle(_check(position), limit, objective, _analyze_want(limit), _analysis)


def analyze(position: Position, limit: Optional[Limit] = None, *, objective: Objective = "value") -> Analysis:
    """Every legal move with its exact value for the side to move, best first (under "maxn":
    the mover's side's points after the move, every seat then maximising its own); with a
    `horizon`, or a limit the exact search does not finish in, the deepest depth-limited
    search's estimates (`MoveValue.horizon`, `Analysis.horizon`). An `Analysis`: a list.
    `analysis(position, limit).wait()`."""
    return analysis(position, limit, objective=objective).wait()


def solve(position: Position, limit: Optional[Limit] = None, *, objective: Objective = "value",
          full_window: bool = False) -> SearchResult:
    """The exact value, every optimal move and a principal variation of a known position.

    A `limit` bounds the work (`Limit`: nodes, time, horizon, deadline, table size, threads): a
    position the exact search does not finish in it gets the deepest depth-limited search that
    completed (`horizon` says how deep, `exact` False; docs/search.md#depth-limited-search).
    `objective` "value" (the margin, paranoid with three or more sides) or "maxn" (see the
    module docstring); `full_window` replaces the zero-window driver by one full-window
    alpha-beta (for comparison). `Limit.threads` search a position of three or more seats
    together, sharing one table (docs/family.md, "One position on every core"). Ctrl-C
    interrupts. The same search as `analyze`, without every move's value.

    >>> from scopa_solver import Limit, Rules
    >>> early = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))
    >>> r = solve(early, Limit(horizon=4))
    >>> r.horizon, len(r.pv), r.value is not None
    (4, 4, True)
    """
    limit = _limit(limit)
    want = _SOLVE | (kernel.FULL_WINDOW if full_window else 0)
    return AnalysisHandle(_check(position), limit, _objective(objective), want, _same).wait()


def _same(result: SearchResult) -> SearchResult:
    return result


def _batch(positions: Iterable[Position], limit: Optional[Limit], objective: Objective, want: int,
           wrap: Callable[[SearchResult], T]) -> list[T]:
    """solve_many / analyze_many: one batch on `limit.threads` workers; with a node or time
    limit, the exact tries of every position in one batch, then each position they do not
    finish deepened (`AnalysisHandle`), one after another in this thread."""
    limit = _limit(limit)
    objective = _objective(objective)
    positions = [_check(p) for p in positions]
    searched = _kernel_objectives(positions, objective)
    if not limit.limited or limit.horizon == 0:
        raws = kernel.run_batch([p.kernel_state() for p in positions], want=want, limit=limit,
                                objective=searched, together=len(positions) == 1)
        return [wrap(SearchResult(p, raw)) for p, raw in zip(positions, raws)]
    if limit.horizon:
        return [AnalysisHandle(p, limit, objective, want, wrap).wait() for p in positions]
    tries = limit.derived(nodes=min(limit.nodes or EXACT_TRY_NODES, EXACT_TRY_NODES),
                          time=limit.time / 2 if limit.time else None)
    raws = kernel.run_batch([p.kernel_state() for p in positions], want=want, limit=tries, objective=searched,
                            together=len(positions) == 1)
    single = limit.derived(threads=None)
    return [wrap(SearchResult(p, raw)) if raw.stop == StopReason.NONE else
            AnalysisHandle(p, single, objective, want, wrap, tried=raw).wait() for p, raw in zip(positions, raws)]


def _kernel_objectives(positions: list[Position], objective: Objective) -> Any:
    """run_batch's objective: the name, or under a `Match` one leaf table a position."""
    if isinstance(objective, Match):
        return [kernel_objective(p, objective) for p in positions]
    return objective


def solve_many(positions: Iterable[Position], limit: Optional[Limit] = None, *,
               objective: Objective = "value") -> list[SearchResult]:
    """`solve` for many positions in one call, the GIL released, on `limit.threads` workers (0:
    every core); the node and time limits (and `horizon`) apply to each position. Results are
    identical to single calls; positions the exact search does not finish within a limit are
    deepened one after another."""
    return _batch(positions, limit, objective, _SOLVE, _same)


def analyze_many(positions: Iterable[Position], limit: Optional[Limit] = None, *,
                 objective: Objective = "value") -> list[Analysis]:
    """`analyze` for many positions in one call, the GIL released, on `limit.threads` workers."""
    limit = _limit(limit)
    return _batch(positions, limit, objective, _analyze_want(limit), _analysis)


def solve_values(positions: Iterable[Position], limit: Optional[Limit] = None, *,
                 objective: Objective = "value") -> list[int]:
    """Only the exact values (no best moves, no pv): the fastest batch call (`limit`: its
    `threads` and `tt_mb`; a node or time limit is refused, as a value it cut would be no value)."""
    limit = _limit(limit)
    if limit.limited or limit.horizon:
        raise LimitError("solve_values gives exact values only: use solve_many for a limited search")
    checked = [_check(p) for p in positions]
    raws = kernel.run_batch([p.kernel_state() for p in checked], want=0, limit=limit,
                            objective=_kernel_objectives(checked, _objective(objective)))
    return [raw.lower for raw in raws]
