"""Where the chunks of a batch job run.

- `LocalEngine`: this machine. One worker runs the chunks in this process; more run them in a
  process pool (the kernel releases the GIL, but parsing, world drawing and result data are
  Python: separate processes scale where threads would queue on the GIL). Each process keeps
  its searchers and tables across its chunks (the kernel's searcher pool is per process).
- `DaskEngine`: a `dask.distributed` cluster, at `scheduler` or a `LocalCluster` started for
  the run (one single-threaded worker process per worker); each chunk is one task, a worker
  process's searchers are reused across its tasks, a chunk lost with a worker is run again.

Both hand out futures with ``result()``; `wait_any` blocks until one is done (or a timeout).
"""
from __future__ import annotations

import concurrent.futures as cf
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from ..errors import ScopaError, excerpt
from ..text import plural
from .jobs import Item, JobOptions, run_chunk

__all__ = ["ENGINES", "EngineOptions", "LocalEngine", "DaskEngine", "make_engine", "cap_workers", "WORKERS_PER_CORE", "lost",
           "BatchEngineError"]

ENGINES = ("local", "dask")


class BatchEngineError(ScopaError):
    """An engine that cannot start: no dask installed, a scheduler address that does not answer."""


_PR_SET_PDEATHSIG = 1          # linux/prctl.h
_PARENT_POLL_SECONDS = 1.0


def _pool_worker(parent: int) -> None:
    """The start of each pool worker process. Ctrl-C reaches every process of the terminal: the
    workers leave it to the parent, which stops them. A parent killed outright (SIGKILL, the
    out-of-memory killer) cannot stop them: they watch it and exit with it, by the kernel's
    parent-death signal on Linux, else by polling who their parent is."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _exit_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()
    if os.getppid() != parent:          # the parent died before the watch began
        os._exit(1)


def _exit_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where that is not to be had.
    (The signal follows the thread that started the process: the pool's are started by the
    thread that submits, the caller's.)"""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_SECONDS)
    os._exit(1)


class LocalEngine:
    """This machine: `workers` processes (1: this process)."""

    name = "local"
    dashboard: Optional[str] = None

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Optional[cf.ProcessPoolExecutor] = None

    def start(self) -> None:
        if self.workers > 1:
            # fork is fast to start, but only safe from a process without other threads
            method = "fork" if threading.active_count() == 1 and hasattr(os, "fork") else "spawn"
            self._pool = cf.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method),
                                                initializer=_pool_worker, initargs=(os.getpid(),))

    def submit(self, job: str, chunk: Sequence[Item], options: JobOptions) -> Any:
        if self._pool is None:
            future: cf.Future = cf.Future()
            future.set_result(run_chunk(job, chunk, options))   # Ctrl-C raises here
            return future
        try:
            return self._pool.submit(run_chunk, job, list(chunk), options)
        except cf.BrokenExecutor as exc:
            # a worker died since the last result: fail this chunk like the ones the pool held,
            # so the caller's one path for a dead worker (restart, run again) takes it
            future = cf.Future()
            future.set_exception(exc)
            return future

    def wait_any(self, futures: set, timeout: Optional[float] = None) -> set:
        return cf.wait(futures, timeout, return_when=cf.FIRST_COMPLETED)[0]

    def restart(self) -> None:
        """A new pool after a worker process died (a broken pool takes no more work). Its other
        workers are ended, not awaited: one may wait forever on the work queue's lock that the
        dead one held (CPython's queue lock dies with no owner)."""
        self.close(cancel=True)
        self.start()

    def close(self, cancel: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if cancel:      # stop now: the chunks running are lost (their items are not written)
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=cancel)


class DaskEngine:
    """A `dask.distributed` cluster: the one at `scheduler` (an address), the `client` given, or
    a `LocalCluster` of `workers` single-threaded processes started for the run."""

    name = "dask"

    def __init__(self, workers: int, scheduler: Optional[str] = None, client: Any = None) -> None:
        self.workers = workers
        self.scheduler = scheduler
        self.client = client
        self._own: list = []        # what this engine started, closed with it
        self._cluster = False       # a LocalCluster of its own: its workers are ours to quiet
        self.dashboard: Optional[str] = None

    def start(self) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise BatchEngineError("the dask engine needs dask.distributed: pip install 'scopa-solver[batch]'") from None
        if self.client is None:
            if self.scheduler is not None:
                try:
                    self.client = Client(self.scheduler, timeout="10s")
                except (OSError, TimeoutError, ValueError) as exc:
                    raise BatchEngineError(f"no Dask scheduler answers at {excerpt(self.scheduler)}: "
                                           f"{' '.join(str(exc).split())[:160]}") from None
                self._own = [self.client]
            else:
                # on this machine only; each worker runs this module's `dask_setup`
                cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0", preload=[__name__])
                self.client = Client(cluster)
                self._own = [self.client, cluster]
                self._cluster = True
        self.workers = len(self.client.scheduler_info().get("workers", {})) or self.workers
        self.dashboard = getattr(self.client, "dashboard_link", None)

    def submit(self, job: str, chunk: Sequence[Item], options: JobOptions) -> Any:
        return self.client.submit(run_chunk, job, list(chunk), options, pure=False)

    def wait_any(self, futures: set, timeout: Optional[float] = None) -> set:
        from distributed import wait
        try:
            return set(wait(list(futures), timeout=timeout, return_when="FIRST_COMPLETED").done)
        except TimeoutError:        # none finished within `timeout`
            return set()

    def restart(self) -> None:
        pass        # the scheduler replaces lost workers and reruns their tasks itself

    def close(self, cancel: bool = False) -> None:
        """Close what this engine started, the client before its cluster; their last words
        (comms closed under them, tasks cancelled by Ctrl-C) are noise, not news."""
        levels = _quiet_dask_logs() if self._own else {}
        try:
            if self._cluster:       # our workers too, before closing the client cancels their tasks
                try:
                    self.client.run(_quiet_dask_logs, on_error="ignore")
                except Exception:   # a worker that is gone has nothing more to say
                    pass
            for thing in self._own:
                try:
                    thing.close()
                except Exception:   # closing a cluster that is going away anyway
                    pass
        finally:
            self._own, self._cluster = [], False
            for name, level in levels.items():
                logging.getLogger(name).setLevel(level)


def lost(future: Any) -> bool:
    """A local future that a broken pool has failed (Dask futures never are: their chunks rerun)."""
    return getattr(future, "done", lambda: False)() and not hasattr(future, "key") and future.exception() is not None


def _quiet_dask_logs() -> dict:
    """Only critical messages from distributed's loggers from now on; returns their levels."""
    names = ["distributed"] + [n for n in logging.root.manager.loggerDict if n.startswith("distributed.")]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return levels


def dask_setup(worker: Any) -> None:
    """The preload of each worker of a LocalCluster started for a run: Ctrl-C reaches every
    process of the terminal, but the run stops the cluster (as the local pool's workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


WORKERS_PER_CORE = 2
"""At most this many local workers a core: more only share the cores, each with its own table."""


def cap_workers(runner: Any, asked: Optional[int], items: int, say: Callable[[str], None]) -> None:
    """No more workers than items to solve, nor than `WORKERS_PER_CORE` a core, on the pools a
    run starts itself (a cluster given or at an address has the workers it has)."""
    if not isinstance(runner, LocalEngine) and not (isinstance(runner, DaskEngine) and runner.client is None
                                                     and runner.scheduler is None):
        return
    cores = os.cpu_count() or 1
    cap = max(1, min(runner.workers, items, WORKERS_PER_CORE * cores))
    if cap < runner.workers and asked:
        why = "one per item to solve" if cap == max(1, items) else f"at most {WORKERS_PER_CORE} per core of {cores}"
        say(f"{plural(asked, 'worker')} asked, {cap} started ({why})")
    runner.workers = cap


def make_engine(name: str, workers: Optional[int] = None, scheduler: Optional[str] = None,
                client: Any = None) -> Any:
    """The engine `name` with `workers` workers (None or 0: this machine's cores)."""
    if name not in ENGINES:
        raise BatchEngineError(f"engine must be one of {', '.join(ENGINES)}, not {excerpt(name)}")
    if workers is not None and (type(workers) is not int or workers < 0):
        raise BatchEngineError(f"workers must be a whole number, 0 or more, not {excerpt(workers)}")
    count = workers or os.cpu_count() or 1
    if name == "local":
        if scheduler is not None or client is not None:
            raise BatchEngineError("a scheduler address is for the dask engine (--engine dask)")
        return LocalEngine(count)
    if client is not None:
        _check_client(client)
    return DaskEngine(count, scheduler, client)


@dataclass(frozen=True)
class EngineOptions:
    """Where a batch job or a solve job runs: the engine `name` ("local": this machine's
    processes; "dask": a cluster), its `workers` (None or 0: every core; a run starts at most
    one an item and `WORKERS_PER_CORE` a core), and for Dask the `scheduler`'s address or the
    `client` given (neither: a LocalCluster of `workers` processes).

    >>> EngineOptions(workers=2).make().workers
    2
    """

    name: str = "local"
    workers: Optional[int] = None
    scheduler: Optional[str] = None
    client: Any = None

    def make(self) -> Any:
        """The engine (not started yet); a `BatchEngineError` for options it cannot take."""
        return make_engine(self.name, self.workers, self.scheduler, self.client)


def _check_client(client: Any) -> None:
    """A `client` that is not a `distributed.Client` is a clear error now, not an
    AttributeError when the run starts."""
    try:
        from distributed import Client
    except ImportError:
        raise BatchEngineError("the dask engine needs dask.distributed: pip install 'scopa-solver[batch]'") from None
    if not isinstance(client, Client):
        raise BatchEngineError(f"client must be a distributed.Client, not {excerpt(type(client).__name__)}")
