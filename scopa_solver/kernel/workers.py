"""The worker threads every multi-threaded batch runs on: one lasting pool of them, started with
Ctrl-C held back so that an interrupt cannot leave a thread the pool does not know of."""
from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Iterator, Optional

__all__: list[str] = []         # for the scheduler only

_lock = threading.Lock()        # the executor is made once, by the first batch on threads
_pool: Optional[ThreadPoolExecutor] = None


def worker_pool() -> ThreadPoolExecutor:
    """The lasting worker threads of every batch: one per core, made once, never replaced."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max(2, os.cpu_count() or 1), thread_name_prefix="scopa-search")
        return _pool


@contextmanager
def sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back while worker threads start: a KeyboardInterrupt inside
    `ThreadPoolExecutor.submit` (in `Thread.start`) leaves a started thread the executor does not
    know of, which the interpreter then waits for at exit for ever. Blocking the signal in this
    thread is not enough: the system hands it to any thread that does not block it (tqdm's
    monitor, a library's), and Python runs the handler in the main thread all the same. So the
    handler itself is swapped for one that only notes the signal, which is raised again once
    the threads run. The mask is still set so that the threads started here never take it."""
    if threading.current_thread() is not threading.main_thread():
        yield                       # a thread Ctrl-C is never raised in
        return
    caught: list = []
    old = signal.getsignal(signal.SIGINT)   # None: set outside Python, which could not restore it
    if old is not None:
        signal.signal(signal.SIGINT, lambda *_: caught.append(True))
    block = getattr(signal, "pthread_sigmask", None)
    mask = block(signal.SIG_BLOCK, {signal.SIGINT}) if block is not None else None
    try:
        yield
    finally:
        if block is not None:
            block(signal.SIG_SETMASK, mask)
        if old is not None:
            signal.signal(signal.SIGINT, old)
            if caught:
                signal.raise_signal(signal.SIGINT)      # the usual handler: KeyboardInterrupt here
