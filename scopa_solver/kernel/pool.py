"""The searcher pool: the searchers (a transposition table and buffers each) kept for reuse in
one bounded pool, lent out one call at a time; and the stop tokens of the searches running now
(`watching`), which the interpreter's exit and a cancelled time box set."""
from __future__ import annotations

# Before `_at_exit` is registered: the interpreter runs the threading exit hooks last registered
# first, and the executor's joins the batches' worker threads, so ours must run before it to stop
# their searches (else an exit waits for every running search to end).
import concurrent.futures.thread  # noqa: F401
import os
import threading
from contextlib import contextmanager
from typing import Iterator, Optional

from ..errors import LimitError
from .face import Searcher, StopToken
from .limit import NO_LIMIT, Limit, check_tt_mb
from .timebox import open_boxes, searching_in

__all__ = ["SearchInterrupted", "new_searcher", "borrow_searcher", "pool_stats", "clear_tables", "watching"]

_lock = threading.Lock()
_idle: list = []                 # searchers kept for reuse: one table size at a time, at most
_KEEP = max(2, os.cpu_count() or 1)    # as many as there are cores
_busy: set = set()               # searchers in use (pool_stats)
_live: set = set()               # the stop tokens of the work running now, for the exit's stop
_closing = False                 # the interpreter is exiting: no new search starts


class SearchInterrupted(KeyboardInterrupt):
    """A search stopped by Ctrl-C, or by the interpreter's exit while it ran in a thread."""


def new_searcher(tt_mb: Optional[float] = None) -> Searcher:
    """A fresh searcher of its own (an empty table, for traces and cold measurements)."""
    return _made(check_tt_mb(tt_mb))


def _made(size: float) -> Searcher:
    try:
        return Searcher(size)
    except MemoryError:
        raise LimitError(f"cannot allocate a {size:g} MiB transposition table: not enough "
                         "memory (use a smaller tt_mb)") from None


@contextmanager
def borrow_searcher(limit: Limit = NO_LIMIT) -> Iterator[Searcher]:
    """A searcher with `limit`'s table (checked when the limit was made) for one call; kept
    afterwards for reuse (a large table is slow to allocate), at most one per core and one
    table size at a time."""
    size = limit.table_mb
    with _lock:
        if _closing:
            raise SearchInterrupted
        found = next((s for s in _idle if s.tt_mb == size), None)
        if found is not None:
            _idle.remove(found)
    s = found if found is not None else _made(size)
    with _lock:
        _busy.add(s)
    try:
        yield s
    finally:
        with _lock:
            _busy.discard(s)
            if not _closing:
                if _idle and _idle[0].tt_mb != size:
                    _idle.clear()
                if len(_idle) < _KEEP:
                    _idle.append(s)


@contextmanager
def watching(token: Optional[StopToken] = None, boxes: Optional[tuple] = None) -> Iterator[StopToken]:
    """A stop token for a piece of work (`token`, or a new one), set for the while when the
    interpreter exits and when one of `boxes` (default: the time boxes around the caller) is
    cancelled: every search given it then stops. A token stays set once set, so one `stop()`
    each is enough."""
    token = StopToken() if token is None else token
    with _lock:
        _live.add(token)
        if _closing:
            token.stop()
    try:
        with searching_in(token, open_boxes() if boxes is None else boxes):
            yield token
    finally:
        with _lock:
            _live.discard(token)


def exiting() -> bool:
    """The interpreter is exiting: no new search may start (batches stop handing out work)."""
    return _closing


def pool_stats() -> dict:
    """The searchers kept for reuse after the calls (at most one per core) and their tables'
    MiB, and the searchers in use right now.

    >>> stats = pool_stats()
    >>> stats["kept"] <= max(2, os.cpu_count() or 1), sorted(stats)
    (True, ['busy', 'kept', 'kept_mb'])
    """
    with _lock:
        return {"kept": len(_idle), "kept_mb": sum(s.tt_mb for s in _idle), "busy": len(_busy)}


def clear_tables() -> None:
    """Empty every kept transposition table (for measurements that must start cold)."""
    with _lock:
        for s in _idle:
            s.clear()


def _at_exit() -> None:
    """Before the interpreter joins its threads: stop every search still running in one (each
    watches a token; a token set stays set) and let no new one start."""
    global _closing
    with _lock:
        _closing = True
        for token in _live:
            token.stop()


try:    # run before the interpreter joins threads (where atexit would be too late)
    threading._register_atexit(_at_exit)      # type: ignore[attr-defined]
except (AttributeError, RuntimeError):  # pragma: no cover - Python < 3.9 or already exiting
    pass
