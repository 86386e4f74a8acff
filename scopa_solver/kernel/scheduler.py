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

from .deepening import deepest_complete
from .face import StopReason, StopToken
from .limit import NO_LIMIT, Limit
from .pool import SearchInterrupted, borrow_searcher, exiting, watching
from .timebox import nearest_box, open_boxes, raise_if_cancelled
from .workers import sigint_held, worker_pool

__all__ = ["run_batch"]


def run_batch(states: Iterable[Any], *, want: int, limit: Limit = NO_LIMIT, objective: Any = "value",
              total: Optional[int] = None, batch: Optional[int] = None, progress: Any = None,
              deepen: bool = False, together: bool = False, stop: Optional[StopToken] = None) -> list:
    """Search every state; the `KernelResult`s in order (None for a state never searched).

    `states` may be a lazy iterator: it is drawn from in batches, under a lock, only as workers
    get free, so nothing is made that the deadline will not reach. The `limit` (checked by its
    maker): `nodes`/`time` bound each search; `deadline` stops handing out batches and cuts the
    running ones, whose results then say so (stop TIME; the states of a batch not started by
    then are None); `threads` workers (default 1) share the work in batches of `batch` states
    (default: one kernel call for a single worker without a deadline, else small enough for
    eight batches a worker, at most 64), or with `together` search each state together (one
    table: ext/parallel.pxi; the same results, `nodes` of every thread); `total` helps size them for an
    iterator; `tt_mb` each worker's table; `horizon` plies (None/0: exact) stops each search
    that deep and scores there statically (`KernelResult.horizon`). `deepen` searches each state
    at horizons `horizon` (default `DEEPEN_STEP`), then deeper, until exact or its limits are
    spent; its result is the deepest complete search. `progress.update(n)` is called from the
    calling thread. The states (`KernelState`s of any game) are searched under `objective`: "value",
    "maxn", a `MatchTable` (the match objective) or a list of them, one per state.

    One stop token (`stop`, or a new one) reaches every search of the batch: set by the caller,
    by Ctrl-C or by the interpreter's exit (which raise `SearchInterrupted`), or by a cancelled
    time box. Inside a `time_box` its deadline is also the batch's, and a batch a strict box cut
    (or any box cancelled) raises the box's `TimeLimitError` instead of returning unfinished
    results."""
    boxes, box = open_boxes(), nearest_box()
    if box is not None:
        if box.expired() and not box.anytime:
            raise box.error()
        if box.deadline < math.inf:
            limit = limit.derived(deadline=box.deadline if limit.deadline is None
                                  else min(limit.deadline, box.deadline))
    try:
        with watching(stop, boxes) as token:
            results = _run_batch(states, want, limit, objective, total, batch, progress, deepen, together, token)
    except SearchInterrupted:
        raise_if_cancelled(boxes)
        raise
    raise_if_cancelled(boxes)
    box = nearest_box()
    if box is not None and not box.anytime and box.expired() and any(
            r is None or r.stop == StopReason.TIME for r in results):
        raise box.error()
    return results


def _run_batch(states: Iterable[Any], want: int, limit: Limit, objective: Any, total: Optional[int],
               batch: Optional[int], progress: Any, deepen: bool, together: bool, token: StopToken) -> list:
    if isinstance(states, (list, tuple)):
        total = len(states)
    paired = isinstance(objective, list)    # one objective a state (match tables): drawn together
    if paired:
        states = zip(states, objective)
    nodes, seconds, depth, deadline = limit.nodes or 0, limit.time or 0.0, limit.horizon or 0, limit.deadline
    threads = limit.workers if together else 1      # for each search
    workers = 1 if together else max(1, min(limit.workers, total or limit.workers))
    source = iter(states)
    if batch is None:
        if workers == 1 and deadline is None and total is not None:
            batch = max(1, total)       # one kernel call: a stop reaches it all the same
        else:
            batch = max(1, min(64, (total or 64 * workers * 8) // (workers * 8)))
    results: list = []
    lock = threading.Lock()
    shared = {"next": 0, "closed": False, "done": 0, "exhausted": False}
    main = threading.current_thread() is threading.main_thread()

    def take() -> Optional[tuple[int, list]]:
        with lock:
            if exiting():
                shared["closed"] = True
                token.stop()
            if token.stopped or shared["exhausted"]:
                return None
            if deadline is not None and time.monotonic() >= deadline and shared["next"]:
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

    def call(s: Any, part: list, limit_s: float, signals: bool) -> list:
        if paired:
            return s.search_many([state for state, _ in part], want, nodes, limit_s, signals,
                                 [searched for _, searched in part], depth, threads, token)
        return s.search_many(part, want, nodes, limit_s, signals, objective, depth, threads, token)

    def paced(s: Any, chunk: list, signals: bool) -> list:
        """A deadline's chunk, one state a kernel call (a call costs microseconds): a call gives
        each of its states the time left when that state starts, so one call of slow states
        would run past the deadline by all but one state's time. The states left once the
        deadline has passed are not searched (no result); a chunk begun past it (the first,
        which always runs) is one call."""
        assert deadline is not None
        out: list = []
        for state in chunk:
            left = deadline - time.monotonic()
            limit_s = max(1e-6, left) if not seconds else min(seconds, max(1e-6, left))
            if left <= 0:
                return out if out else call(s, chunk, limit_s, signals)
            out += call(s, [state], limit_s, signals)
            if out[-1].stop in (StopReason.TIME, StopReason.REQUEST):
                break
        return out

    def work(signals: bool, bar: Any) -> None:
        with borrow_searcher(limit) as s:
            while True:
                job = take()
                if job is None:
                    return
                first, chunk = job
                try:    # Ctrl-C raises (the kernel never returns a stop-INTERRUPT result)
                    if deepen:
                        raws = [deepest_complete(s, item[0] if paired else item, want, nodes, seconds, deadline,
                                                 signals, item[1] if paired else objective, depth, threads, token)
                                for item in chunk]
                    elif deadline is not None:
                        raws = paced(s, chunk, signals)
                    else:
                        raws = call(s, chunk, seconds, signals)
                except KeyboardInterrupt:
                    token.stop()
                    raise SearchInterrupted from None
                with lock:
                    results[first:first + len(raws)] = raws
                    shared["done"] += len(raws)
                if bar is not None:
                    bar.update(len(raws))

    if workers == 1:
        work(main, progress)
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
        # one stop reaches every worker of this call, running or about to start (the token
        # stays set); a queued one is cancelled; then they are waited for
        token.stop()
        for f in futures:
            f.cancel()
        wait(futures)
        raise
    return results
