"""Iterative deepening of one state towards exact on one searcher: horizon searches
`DEEPEN_STEP` plies deeper each time, under one budget for all of them."""
from __future__ import annotations

import math
import time
from typing import Any, Iterator, Optional

from .face import KernelState
from .timebox import budget_deadline, open_boxes, raise_if_cancelled, searching_in

__all__ = ["DEEPEN_STEP", "deepen"]

DEEPEN_STEP = 4              # run_batch(deepen=True): horizons 4, 8, 12, ... plies


def deepen(searcher: Any, state: KernelState, want: int, nodes: int = 0, seconds: float = 0.0,
           deadline: Optional[float] = None, signals: bool = False, objective: str = "value",
           first: int = 0, settle: bool = False, last: int = 0, near: int = 0,
           threads: int = 1) -> Iterator[Any]:
    """Iterative deepening of one state towards exact on one searcher: yields every complete
    search, at horizons `first` (default `DEEPEN_STEP`), then `DEEPEN_STEP` plies deeper each
    time up to `last` plies (0: on to exact, `horizon` None, if the budget reaches the round's
    end). The budget, `nodes` and `seconds` (0: none) for all the searches together and the
    `deadline`, is checked before each search and cuts the running one, which is then yielded
    last (stopped: its nodes count, its values do not); with `settle` the first search has no
    budget (only Ctrl-C stops it: a few plies take milliseconds), so one always completes.
    `near` plies: once the next horizon would stop that close to the round's end, the exact
    search is tried first, on twice the nodes of the depth just done (the horizon searches near
    the end cost more than the exact one, which the points still possible cut); it is yielded
    if it completes (or the budget cut it), else deepening goes on (its nodes count).
    The searcher's table keys carry the horizon, so a depth's values never meet another's.
    Yields (result, nodes of every search so far). The `time_box`es around it cut it too (a
    cancelled one raises its `TimeLimitError`). `threads` search each depth together (one
    position on every core: `run_batch`'s `search_threads`)."""
    boxes = open_boxes()
    with searching_in(searcher, boxes):
        try:
            yield from _deepen_steps(searcher, state, want, nodes, seconds, deadline, signals, objective,
                                     first, settle, last, near, threads)
        except KeyboardInterrupt:
            raise_if_cancelled(boxes)
            raise


def _deepen_steps(searcher: Any, state: KernelState, want: int, nodes: int, seconds: float,
                  deadline: Optional[float], signals: bool, objective: str, first: int, settle: bool,
                  last: int, near: int, threads: int = 1) -> Iterator[Any]:
    start = time.monotonic()
    end = start + seconds if seconds else math.inf
    deadline = budget_deadline(deadline)
    if deadline is not None:
        end = min(end, deadline)
    depth = first or DEEPEN_STEP
    if last:
        depth = min(depth, last)
    used = 0
    done = retry = False
    plies = sum(bin(m).count("1") for m in state.hands) + sum(bin(m).count("1") for deal in state.deals
                                                              for m in deal)
    while True:
        left = end - time.monotonic()
        if done and (left <= 0 or (nodes and used >= nodes)):
            return
        if retry:
            retry = False
            cap = 2 * raw.nodes if not nodes else min(2 * raw.nodes, nodes - used)
            exact = searcher.search_many([state], want, max(1, cap), 0.0 if end == math.inf else max(left, 1e-6),
                                         signals, objective, 0, threads)[0]
            used += exact.nodes
            if exact.stop == 3:
                raise KeyboardInterrupt
            if not exact.stop or (nodes and used >= nodes) or end <= time.monotonic():
                yield exact, used       # exact, or cut by the budget: the last search
                return
            continue                    # cut by its own cap: the next horizon
        free = settle and not done
        raw = searcher.search_many([state], want, 0 if free or not nodes else nodes - used,
                                   0.0 if free or end == math.inf else max(left, 1e-6), signals, objective,
                                   depth, threads)[0]
        used += raw.nodes
        if raw.stop == 3:
            raise KeyboardInterrupt
        yield raw, used
        if raw.stop or raw.horizon is None or depth == last:
            return
        done = True
        depth += DEEPEN_STEP
        if last:
            depth = min(depth, last)
        retry = bool(near) and plies - depth <= near and (not last or last >= plies)


def deepest_complete(searcher: Any, state: KernelState, want: int, nodes: int, seconds: float,
                     deadline: Optional[float], signals: bool, objective: str, first: int,
                     threads: int = 1) -> Any:
    """run_batch's `deepen`: the deepest complete search of `deepen` (the first, stopped, if none)."""
    best = None
    for raw, _ in deepen(searcher, state, want, nodes, seconds, deadline, signals, objective, first,
                         threads=threads):
        if best is None or not raw.stop:
            best = raw
    return best
