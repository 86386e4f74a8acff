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
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, Sequence

from . import _kernel
from .position import Move, Position, RoundScore

DEFAULT_TT_MB = 64.0
_WANT_BEST, _WANT_PV, _WANT_ALL, _FULL_WINDOW = _kernel.WANT_FLAGS
_STOP_REASONS = {0: None, 1: "nodes", 2: "time", 3: "interrupt"}
_VALUE_INF = 127


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


class SearchResult:
    """The outcome of `solve`: exact value, optimal moves, principal variation, effort.

    With complete=False (a limit stopped the search) `value` is None and `lower`..`upper` bound
    it (None: unbounded on that side). Moves and the outcome are decoded from the kernel's
    packed result on first use, which keeps batch calls fast."""

    __slots__ = ("position", "_raw", "_best", "_pv")

    def __init__(self, position: Position, raw: "_kernel.KernelResult") -> None:
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
        return _STOP_REASONS[self._raw.stop]

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
    def outcome(self) -> Optional[RoundScore]:
        """The round score at the end of the principal variation."""
        end = self._raw.end
        if end is None:
            return self.position.round_score() if self.complete and self.position.is_round_over() else None
        return RoundScore.of(end[0], end[1], (end[2], end[3]), self.position.rules)

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

    def __repr__(self) -> str:
        if not self.complete:
            return (f"SearchResult(stopped={self.stopped!r}, lower={self.lower}, upper={self.upper}, "
                    f"nodes={self.nodes})")
        return (f"SearchResult(value={self.value}, best_moves=[{', '.join(map(str, self.best_moves))}], "
                f"pv=[{' '.join(map(str, self.pv))}], nodes={self.nodes})")


_pool_lock = threading.Lock()
_free_searchers: dict[float, list] = {}
_executor: Optional[ThreadPoolExecutor] = None
_executor_size = 0


def _table_size(tt_mb: Optional[float]) -> float:
    size = DEFAULT_TT_MB if tt_mb is None else float(tt_mb)
    if not size >= 0:
        raise ValueError(f"tt_mb must be 0 (no table) or more, not {tt_mb!r}")
    return size


@contextmanager
def borrow_searcher(tt_mb: Optional[float] = None) -> Iterator["_kernel.Searcher"]:
    """A search context (table + buffers) for one call; contexts are kept and reused, since a
    large table is slow to allocate. Only one table size is kept at a time."""
    size = _table_size(tt_mb)
    with _pool_lock:
        if size not in _free_searchers:
            _free_searchers.clear()
            _free_searchers[size] = []
        free = _free_searchers[size]
        s = free.pop() if free else None
    if s is None:
        s = _kernel.Searcher(size)
    try:
        yield s
    finally:
        with _pool_lock:
            _free_searchers.setdefault(size, []).append(s)


def executor(workers: int) -> ThreadPoolExecutor:
    """The lasting thread pool of batch searches (at least `workers` threads)."""
    global _executor, _executor_size
    with _pool_lock:
        if _executor is None or _executor_size < workers:
            if _executor is not None:
                _executor.shutdown(wait=False)
            _executor_size = max(workers, os.cpu_count() or 1)
            _executor = ThreadPoolExecutor(_executor_size, thread_name_prefix="scopa-search")
        return _executor


def worker_count(threads: Optional[int], jobs: int) -> int:
    """Threads for `jobs` searches: `threads` of them, every core for 0 or None, never more
    than there are jobs."""
    if threads is None or threads == 0:
        n = os.cpu_count() or 1
    elif isinstance(threads, int) and not isinstance(threads, bool) and threads > 0:
        n = threads
    else:
        raise ValueError(f"threads must be a positive whole number, 0 or None (all cores), not {threads!r}")
    return max(1, min(n, jobs))


def clear_tables() -> None:
    """Empty every kept transposition table (for measurements that must start cold)."""
    with _pool_lock:
        for free in _free_searchers.values():
            for s in free:
                s.clear()


def _limits(max_nodes: Optional[int], time_limit: Optional[float]) -> tuple[int, float]:
    if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive whole number, not {max_nodes!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    return (max_nodes or 0, float(time_limit or 0.0))


def _bound(x: int) -> Optional[int]:
    return None if abs(x) >= _VALUE_INF else x


def _check(position: Position) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    return position


def _run(positions: Sequence[Position], want: int, max_nodes: Optional[int],
         time_limit: Optional[float], tt_mb: Optional[float], threads: Optional[int]) -> list:
    """Search every position (one kernel call per thread, GIL released); KernelResults in order.

    Ctrl-C stops every worker; a search interrupted in the main thread raises KeyboardInterrupt."""
    nodes, seconds = _limits(max_nodes, time_limit)
    tuples = [_check(p)._kernel_tuple() for p in positions]
    workers = worker_count(1 if threads is None else threads, len(tuples))
    if workers == 1:
        main = threading.current_thread() is threading.main_thread()
        with borrow_searcher(tt_mb) as s:
            return s.search_many(tuples, want, nodes, seconds, main)   # raises KeyboardInterrupt
    pool = executor(workers)
    chunks = [tuples[i::workers] for i in range(workers)]
    running: list = []

    def work(chunk: list) -> list:
        with borrow_searcher(tt_mb) as s:
            running.append(s)
            return s.search_many(chunk, want, nodes, seconds, False)

    futures = [pool.submit(work, c) for c in chunks]
    try:
        parts = [f.result() for f in futures]
    except KeyboardInterrupt:
        for s in running:
            s.request_stop()
        raise
    out: list = [None] * len(tuples)
    for i, part in enumerate(parts):
        out[i::workers] = part
    return out


def solve(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
          tt_mb: Optional[float] = None, full_window: bool = False) -> SearchResult:
    """The exact value, every optimal move and a principal variation of a known position.

    `max_nodes` / `time_limit` bound the work (then complete=False and lower/upper bound the
    value); `tt_mb` sizes the transposition table (0 switches it off); `full_window` replaces
    the zero-window driver by one full-window alpha-beta (for comparison). Ctrl-C interrupts."""
    want = _WANT_BEST | _WANT_PV | (_FULL_WINDOW if full_window else 0)
    return SearchResult(position, _run([position], want, max_nodes, time_limit, tt_mb, 1)[0])


def _move_values(raw: "_kernel.KernelResult") -> list[MoveValue]:
    rows = []
    for packed, (lower, upper) in zip(raw.moves, raw.move_bounds or [(-_VALUE_INF, _VALUE_INF)] * len(raw.moves)):
        rows.append(MoveValue(Move.from_packed(packed), lower if lower == upper else None,
                              _bound(lower), _bound(upper)))
    rows.sort(key=lambda mv: (_VALUE_INF if mv.lower is None else -mv.lower,
                              _VALUE_INF if mv.upper is None else -mv.upper))
    return rows


def analyze(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
            tt_mb: Optional[float] = None) -> list[MoveValue]:
    """Every legal move with its exact value for the side to move, best first."""
    return _move_values(_run([position], _WANT_ALL, max_nodes, time_limit, tt_mb, 1)[0])


def solve_many(positions: Iterable[Position], *, threads: Optional[int] = None,
               max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
               tt_mb: Optional[float] = None) -> list[SearchResult]:
    """`solve` for many positions in one call, the GIL released; `threads` workers (0: all cores).
    Limits apply to each position. Results are identical to single calls."""
    positions = list(positions)
    runs = _run(positions, _WANT_BEST | _WANT_PV, max_nodes, time_limit, tt_mb, threads)
    return [SearchResult(p, raw) for p, raw in zip(positions, runs)]


def analyze_many(positions: Iterable[Position], *, threads: Optional[int] = None,
                 max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
                 tt_mb: Optional[float] = None) -> list[list[MoveValue]]:
    """`analyze` for many positions in one call, the GIL released, `threads` workers."""
    positions = list(positions)
    return [_move_values(raw) for raw in _run(positions, _WANT_ALL, max_nodes, time_limit, tt_mb, threads)]


def solve_values(positions: Iterable[Position], *, threads: Optional[int] = None,
                 tt_mb: Optional[float] = None) -> list[int]:
    """Only the exact values (no best moves, no pv): the fastest batch call."""
    return [raw.lower for raw in _run(list(positions), 0, None, None, tt_mb, threads)]
