"""The worker threads every multi-threaded batch runs on: one lasting pool of them, started with
Ctrl-C held back so that an interrupt cannot leave a thread the pool does not know of; and a
Ctrl-C that Python would drop in a finalizer passed on to the main thread."""
from __future__ import annotations

import _thread
import os
import signal
import sys
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



class _Interrupt:
    """Trips Ctrl-C for the main thread as it is freed: `_thread.interrupt_main` is a built-in,
    so Python calls it as the finalizer with no arguments and runs no code of ours after it."""
    __del__ = _thread.interrupt_main


def _pass_on_lost_interrupts(previous):
    """An unraisable-exception hook that gives a lost Ctrl-C back to the main thread. Python runs
    a signal's handler in whatever code the main thread runs next, finalizers included (a
    `__del__`, a weak reference's callback such as the import system's module locks have): a
    KeyboardInterrupt raised there is only printed ("Exception ignored in ..."), and a long
    arena or batch runs on. So it is tripped again once this hook has returned (tripped here,
    it would land in the hook): the hook returns an `_Interrupt`, which Python frees at once.
    Every other unraisable exception goes to the hook before."""
    def hook(unraisable):
        if (isinstance(unraisable.exc_type, type) and issubclass(unraisable.exc_type, KeyboardInterrupt)
                and threading.current_thread() is threading.main_thread()):
            return _Interrupt()
        return previous(unraisable)
    hook.scopa_solver = True
    return hook


if not getattr(sys.unraisablehook, "scopa_solver", False):     # once, chained to the hook before
    sys.unraisablehook = _pass_on_lost_interrupts(sys.unraisablehook)
