"""The one batch scheduler (`run_batch`) of every batch of searches, solver batches and PIMC
worlds: dynamic batches over worker threads with the GIL released, per-search limits, an overall
deadline, progress, the time boxes around the caller, and a stop that reaches every worker on
Ctrl-C or interpreter exit."""
from __future__ import annotations

import itertools
import math
import threading
import time
from concurrent.futures import wait
from typing import Any, Iterable, Optional

from .checks import check_horizon, check_limits, check_objective
from .deepening import deepest_complete
from .pool import SearchInterrupted, borrow_searcher, exiting
from .timebox import nearest_box, open_boxes, raise_if_cancelled, searching_in
from .workers import sigint_held, worker_pool

__all__ = ["run_batch"]


def run_batch(states: Iterable[Any], *, want: int, max_nodes: Optional[int] = None,
              time_limit: Optional[float] = None, deadline: Optional[float] = None,
              tt_mb: Optional[float] = None, threads: int = 1, total: Optional[int] = None,
              batch: Optional[int] = None, progress: Any = None,
              objective: str = "value", horizon: Optional[int] = None,
              deepen: bool = False, search_threads: int = 1) -> list:
    """Search every state; the `KernelResult`s in order (None for a state never searched).

    `states` may be a lazy iterator: it is drawn from in batches, under a lock, only as workers
    get free, so nothing is made that the deadline will not reach. `max_nodes`/`time_limit` bound
    each search; `deadline` (a `time.monotonic()` value) stops handing out batches and cuts the
    running ones, whose results then say so (stop 2; the states of a batch not started by then
    are None). `threads` workers share the work in batches
    of `batch` states (default: one kernel call for a single worker without a deadline, else
    small enough for eight batches a worker, at most 64); `total` helps size them for an
    iterator. `progress.update(n)` is called from the calling thread.
    Ctrl-C, or the interpreter's exit, stops every worker within milliseconds and raises
    `SearchInterrupted`. The states (`KernelState`s of any game) are searched under `objective`
    ("value": the margin with two sides, the paranoid value with more; "maxn").

    `horizon` plies (None/0: exact) stops each search that deep and scores the
    positions there statically (`KernelResult.horizon` says where; None: exact). `deepen`
    searches each state at horizons `horizon` (default `DEEPEN_STEP`), then `DEEPEN_STEP` plies
    deeper each time, until a search is exact or the state's `time_limit` / `max_nodes` (both
    for all its searches together) or the `deadline` is spent; its result is the deepest
    complete search (the first, stopped, if none completed). `search_threads` > 1: each state
    is searched by that many threads together, sharing one table (ext/parallel.pxi; the
    same results, `nodes` of every thread, `max_nodes` for all of them; max^n on one thread):
    for a single position, `threads` 1.

    Inside a `time_box` its deadline is also the batch's (a decision's `time_budget` too), and
    a batch a strict box cut (or any box cancelled) raises the box's `TimeLimitError` instead of
    returning unfinished results."""
    nodes, seconds = check_limits(max_nodes, time_limit)
    boxes, box = open_boxes(), nearest_box()
    if box is not None:
        if box.expired() and not box.anytime:
            raise box.error()
        if box.deadline < math.inf:
            deadline = box.deadline if deadline is None else min(deadline, box.deadline)
    try:
        results = _run_batch(states, want, nodes, seconds, deadline, tt_mb, threads, total, batch, progress,
                             objective, horizon, deepen, boxes, max(1, search_threads))
    except SearchInterrupted:
        raise_if_cancelled(boxes)
        raise
    box = nearest_box()
    if box is not None and not box.anytime and box.expired() and any(r is None or r.stop == 2 for r in results):
        raise box.error()
    return results


def _run_batch(states: Iterable[Any], want: int, nodes: int, seconds: float, deadline: Optional[float],
               tt_mb: Optional[float], threads: int, total: Optional[int], batch: Optional[int], progress: Any,
               objective: str, horizon: Optional[int], deepen: bool, boxes: tuple,
               search_threads: int = 1) -> list:
    depth = check_horizon(horizon)
    check_objective(objective)
    if isinstance(states, (list, tuple)):
        total = len(states)
    source = iter(states)
    workers = max(1, threads)
    if batch is None:
        if workers == 1 and deadline is None and total is not None:
            batch = max(1, total)       # one kernel call: a stop reaches it all the same
        else:
            batch = max(1, min(64, (total or 64 * workers * 8) // (workers * 8)))
    results: list = []
    lock = threading.Lock()
    shared = {"next": 0, "stop": False, "closed": False, "done": 0, "exhausted": False, "active": 0}
    mine: list = []      # this call's searchers, for its stop
    main = threading.current_thread() is threading.main_thread()

    def take() -> Optional[tuple[int, list]]:
        with lock:
            if exiting():
                shared["stop"] = shared["closed"] = True
            if shared["stop"] or shared["exhausted"]:
                return None
            if deadline is not None and time.monotonic() >= deadline and shared["next"]:
                shared["stop"] = True
                return None
            chunk = list(itertools.islice(source, batch))
            if len(chunk) < batch:
                shared["exhausted"] = True
            if not chunk:
                return None
            first = shared["next"]
            shared["next"] += len(chunk)
            results.extend([None] * len(chunk))
            return first, chunk

    def work(signals: bool, bar: Any) -> None:
        with borrow_searcher(tt_mb) as s:
            with lock:
                if shared["stop"]:
                    return
                mine.append(s)
                shared["active"] += 1
            try:
                with searching_in(s, boxes):        # so that a cancelled time box reaches this search
                    search(s, signals, bar)
            finally:
                with lock:
                    shared["active"] -= 1

    def call(s: Any, part: list, limit: float, signals: bool) -> list:
        return s.search_many(part, want, nodes, limit, signals, objective, depth, search_threads)

    def paced(s: Any, chunk: list, signals: bool) -> list:
        """A deadline's chunk, one state a kernel call (a call costs microseconds): a call gives
        each of its states the time left when that state starts, so one call of slow states
        would run past the deadline by all but one state's time. The states left once the
        deadline has passed are not searched (no result); a chunk begun past it (the first,
        which always runs) is one call."""
        out: list = []
        for state in chunk:
            left = deadline - time.monotonic()
            limit = max(1e-6, left) if not seconds else min(seconds, max(1e-6, left))
            if left <= 0:
                return out if out else call(s, chunk, limit, signals)
            out += call(s, [state], limit, signals)
            if out[-1].stop == 2:
                break
        return out

    def search(s: Any, signals: bool, bar: Any) -> None:
        while True:
            job = take()
            if job is None:
                return
            first, chunk = job
            try:    # an interrupted batch raises (the kernel never returns a stop-3 result)
                if deepen:
                    raws = [deepest_complete(s, state, want, nodes, seconds, deadline, signals, objective, depth,
                                             search_threads)
                            for state in chunk]
                elif deadline is not None:
                    raws = paced(s, chunk, signals)
                else:
                    raws = call(s, chunk, seconds, signals)
            except KeyboardInterrupt:
                raise SearchInterrupted from None
            with lock:
                results[first:first + len(raws)] = raws
                shared["done"] += len(raws)
                if shared["stop"]:
                    return
            if bar is not None:
                bar.update(len(raws))

    if workers == 1:
        try:
            work(main, progress)
        except KeyboardInterrupt:
            raise SearchInterrupted from None
        if shared["closed"]:
            raise SearchInterrupted
        return results
    futures: list = []
    shown = 0
    try:
        pool = worker_pool()
        with sigint_held():
            for _ in range(workers):
                futures.append(pool.submit(work, False, None))
        while True:
            done, pending = wait(futures, timeout=0.05)
            if progress is not None and shared["done"] > shown:
                progress.update(shared["done"] - shown)
                shown = shared["done"]
            if not pending:
                break
            if exiting():
                raise SearchInterrupted
        for f in futures:
            f.result()
        if shared["closed"]:
            raise SearchInterrupted
    except BaseException:
        # Stop every worker of this call, also one whose future Ctrl-C kept from `futures` (an
        # interrupted submit) and one that has just started a batch (which clears its stop
        # flag): repeat the request until no worker is searching. A worker that starts later
        # sees the stop and returns at once; a queued one is cancelled.
        with lock:
            shared["stop"] = True
        for f in futures:
            f.cancel()
        while True:
            with lock:
                if not shared["active"]:
                    break
                for s in mine:
                    s.request_stop()
            time.sleep(0.005)
        raise
    return results
