"""Iterative deepening of one state towards exact on one searcher: an exact try, then horizon
searches `DEEPEN_STEP` plies deeper each time, under one budget for all of them."""
from __future__ import annotations

import math
import time
from typing import Any, Iterator, Optional

from .face import KernelState, StopReason, StopToken
from .timebox import budget_deadline

__all__ = ["DEEPEN_STEP", "deepen"]

DEEPEN_STEP = 4              # horizons 4, 8, 12, ... plies


def deepen(searcher: Any, state: KernelState, want: int, token: Optional[StopToken], *, nodes: int = 0,
           end: float = math.inf, signals: bool = False, objective: Any = "value", first: int = 0,
           last: int = 0, near: int = 0, settle: bool = False, threads: int = 1,
           exact_try: int = 0) -> Iterator[tuple[Any, int]]:
    """Iterative deepening of one state on one searcher; yields (kernel result, nodes of every
    search so far) for every search that counts, the last one's `stop` saying what ended it.

    With `exact_try` nodes, first the exact search within them (and half the time left): yielded
    alone if it completes; else its nodes count and its bounds stand (the caller keeps it).
    Then horizons `first` (default `DEEPEN_STEP`), `DEEPEN_STEP` plies deeper each time up to
    `last` plies (0: on to exact, `horizon` None, if the budget reaches the round's end). The
    budget, `nodes` (0: none) for all the searches together and the monotonic `end` (and the
    time boxes around the caller), is checked before each search and cuts the running one,
    which is then yielded last (stopped: its nodes count, its values do not); with `settle`
    the first horizon has no budget (only `token` and Ctrl-C stop it: a few plies take
    milliseconds), so one always completes. `near` plies: once the next horizon would stop that
    close to the round's end, the exact search is tried first, on twice the nodes of the depth
    just done (near the end the horizon searches cost more than the exact one); yielded if it
    completes or the budget cut it, else deepening goes on. `token` stops the whole deepening:
    the stopped search is yielded last (stop REQUEST). The searcher's table keys carry the
    horizon, so a depth's values never meet another's. `threads` search each one together."""
    start = time.monotonic()
    box_end = budget_deadline()
    if box_end is not None:
        end = min(end, box_end)
    plies = sum(bin(m).count("1") for m in state.hands) + sum(bin(m).count("1") for d in state.deals for m in d)

    used = 0
    if exact_try:
        half = start + (end - start) / 2 if end < math.inf else math.inf
        seconds = 0.0 if half == math.inf else max(half - time.monotonic(), 1e-6)
        raw = searcher.search_many([state], want, min(exact_try, nodes or exact_try), seconds, signals,
                                   objective, 0, threads, token)[0]
        used = raw.nodes
        if raw.stop in (StopReason.NONE, StopReason.REQUEST):
            yield raw, used
            return
    depth = min(first or DEEPEN_STEP, last) if last else first or DEEPEN_STEP
    done = False
    while True:
        if done and (end <= time.monotonic() or (nodes and used >= nodes)):
            return
        free = settle and not done      # (the kernel's call inline: one frame fewer to it)
        raw = searcher.search_many([state], want, 0 if free or not nodes else nodes - used,
                                   0.0 if free or end == math.inf else max(end - time.monotonic(), 1e-6),
                                   signals, objective, depth, threads, token)[0]
        used += raw.nodes
        yield raw, used
        if raw.stop or raw.horizon is None or depth == last:
            return
        done = True
        depth = min(depth + DEEPEN_STEP, last) if last else depth + DEEPEN_STEP
        if near and plies - depth <= near and (not last or last >= plies):
            if end <= time.monotonic() or (nodes and used >= nodes):
                return
            exact = searcher.search_many([state], want, 2 * raw.nodes if not nodes else min(2 * raw.nodes, nodes - used),
                                         0.0 if end == math.inf else max(end - time.monotonic(), 1e-6),
                                         signals, objective, 0, threads, token)[0]
            used += exact.nodes
            if exact.stop in (StopReason.NONE, StopReason.REQUEST) or (nodes and used >= nodes) \
                    or end <= time.monotonic():
                yield exact, used       # exact, or cut by the budget: the last search
                return


def deepest_complete(searcher: Any, state: KernelState, want: int, nodes: int, seconds: float,
                     deadline: Optional[float], signals: bool, objective: Any, first: int,
                     threads: int = 1, token: Optional[StopToken] = None) -> Any:
    """run_batch's `deepen`: the deepest complete search of `deepen` (the first, stopped, if none)."""
    end = time.monotonic() + seconds if seconds else math.inf
    if deadline is not None:
        end = min(end, deadline)
    best = None
    for raw, _ in deepen(searcher, state, want, token, nodes=nodes, end=end, signals=signals,
                         objective=objective, first=first, threads=threads):
        if best is None or not raw.stop:
            best = raw
    return best
