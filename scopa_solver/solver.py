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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from . import _kernel
from .position import Move, Position, RoundScore

DEFAULT_TT_MB = 64.0
_WANT_BEST, _WANT_PV, _WANT_ALL, _FULL_WINDOW = 1, 2, 4, 8
_STOP_REASONS = {0: None, 1: "nodes", 2: "time", 3: "interrupt"}
_VALUE_INF = 127


@dataclass(frozen=True)
class MoveValue:
    """A legal move and its exact value for the side to move (None if a limit stopped the search)."""

    move: Move
    value: Optional[int]
    lower: int
    upper: int

    def __str__(self) -> str:
        return f"{self.move} {self.value if self.value is not None else '?'}"


@dataclass
class SearchResult:
    """The outcome of `solve`. With complete=False, `value` is None and lower..upper bound it."""

    value: Optional[int]
    lower: Optional[int]
    upper: Optional[int]
    best_moves: list[Move]
    pv: list[Move]
    outcome: Optional[RoundScore]
    nodes: int
    seconds: float
    complete: bool
    stopped: Optional[str]
    tt_probes: int = 0
    tt_hits: int = 0
    tt_stores: int = 0
    tt_fill: float = 0.0
    position: Optional[Position] = field(default=None, repr=False)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def tt_hit_rate(self) -> float:
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0


_local = threading.local()


def searcher(tt_mb: Optional[float] = None) -> "_kernel.Searcher":
    """This thread's search context for a table of `tt_mb` MiB (made once, then reused)."""
    size = DEFAULT_TT_MB if tt_mb is None else float(tt_mb)
    if size < 0:
        raise ValueError(f"tt_mb must be 0 (no table) or more, not {tt_mb!r}")
    cache = getattr(_local, "searchers", None)
    if cache is None:
        cache = _local.searchers = {}
    if size not in cache:
        cache.clear()  # keep one table per thread: tables are large
        cache[size] = _kernel.Searcher(size)
    return cache[size]


def _limits(max_nodes: Optional[int], time_limit: Optional[float]) -> tuple[int, float]:
    if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive whole number, not {max_nodes!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    return (max_nodes or 0, float(time_limit or 0.0))


def _bound(x: int) -> Optional[int]:
    return None if abs(x) >= _VALUE_INF else x


def _result(position: Position, raw: dict, before: dict, after: dict) -> SearchResult:
    complete = raw["stop"] == 0
    best = [Move.from_packed(m) for m in raw.get("best", [])]
    pv = [Move.from_packed(m) for m in raw["pv"]]
    outcome = None
    if complete:
        end = position
        for move in pv:
            end = end.play(move)
        outcome = end.round_score()
    return SearchResult(
        value=raw["lower"] if complete else None, lower=_bound(raw["lower"]), upper=_bound(raw["upper"]),
        best_moves=best, pv=pv, outcome=outcome, nodes=raw["nodes"], seconds=raw["seconds"],
        complete=complete, stopped=_STOP_REASONS[raw["stop"]],
        tt_probes=after["probes"] - before["probes"], tt_hits=after["hits"] - before["hits"],
        tt_stores=after["stores"] - before["stores"], tt_fill=after["fill"], position=position)


def _check(position: Position) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    return position


def _run(positions: Sequence[Position], want: int, max_nodes: Optional[int],
         time_limit: Optional[float], tt_mb: Optional[float], threads: Optional[int],
         use_table: bool = True) -> list[tuple[dict, dict, dict]]:
    """Search every position (chunks per thread); (raw result, table stats before, after) each."""
    nodes, seconds = _limits(max_nodes, time_limit)
    tuples = [_check(p)._kernel_tuple() for p in positions]
    workers = max(1, min(os.cpu_count() or 1 if threads == 0 else (threads or 1), len(tuples)))

    def work(chunk: list, main: bool) -> list:
        s = searcher(0 if not use_table else tt_mb)
        out = []
        for t in chunk:   # one kernel call per position keeps per-search table figures honest
            before = s.table_stats()
            raw = s.search_many([t], want, nodes, seconds, main)[0]
            out.append((raw, before, s.table_stats()))
            if raw["stop"] == 3:
                raise KeyboardInterrupt
        return out

    if workers == 1:
        return work(tuples, threading.current_thread() is threading.main_thread())
    chunks = [tuples[i::workers] for i in range(workers)]
    with ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(work, c, False) for c in chunks]
        parts = [f.result() for f in futures]
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
    raw, before, after = _run([position], want, max_nodes, time_limit, tt_mb, 1)[0]
    return _result(position, raw, before, after)


def _move_values(position: Position, raw: dict) -> list[MoveValue]:
    rows = []
    for packed, (lower, upper) in zip(raw["moves"], raw.get("move_bounds", [])):
        rows.append(MoveValue(Move.from_packed(packed), lower if lower == upper else None,
                              lower, upper))
    rows.sort(key=lambda mv: (-(mv.lower), -(mv.upper)))
    return rows


def analyze(position: Position, *, max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
            tt_mb: Optional[float] = None) -> list[MoveValue]:
    """Every legal move with its exact value for the side to move, best first."""
    raw = _run([position], _WANT_ALL, max_nodes, time_limit, tt_mb, 1)[0][0]
    return _move_values(position, raw)


def solve_many(positions: Iterable[Position], *, threads: Optional[int] = None,
               max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
               tt_mb: Optional[float] = None) -> list[SearchResult]:
    """`solve` for many positions in one call, the GIL released; `threads` workers (0: all cores).
    Limits apply to each position. Results are identical to single calls."""
    positions = list(positions)
    runs = _run(positions, _WANT_BEST | _WANT_PV, max_nodes, time_limit, tt_mb, threads)
    return [_result(p, *run) for p, run in zip(positions, runs)]


def analyze_many(positions: Iterable[Position], *, threads: Optional[int] = None,
                 max_nodes: Optional[int] = None, time_limit: Optional[float] = None,
                 tt_mb: Optional[float] = None) -> list[list[MoveValue]]:
    """`analyze` for many positions in one call, the GIL released, `threads` workers."""
    positions = list(positions)
    runs = _run(positions, _WANT_ALL, max_nodes, time_limit, tt_mb, threads)
    return [_move_values(p, run[0]) for p, run in zip(positions, runs)]


def solve_values(positions: Iterable[Position], *, threads: Optional[int] = None,
                 tt_mb: Optional[float] = None) -> list[int]:
    """Only the exact values (no best moves, no pv): the fastest batch call."""
    runs = _run(list(positions), 0, None, None, tt_mb, threads)
    return [raw["lower"] for raw, _, _ in runs]
