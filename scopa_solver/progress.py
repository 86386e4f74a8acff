"""The progress bar of every long call: tqdm (imported only when a bar is shown), on a terminal
after a second by default, always or never on request; and the heartbeat of a long search, a
status line redrawn every second (an engine's "info" line: depth, nodes, nodes/s, time)."""
from __future__ import annotations

import contextlib
import shutil
import sys
import threading
import time
from typing import Any, Callable, Iterator, Optional


class NoBar:
    """A bar that shows nothing (progress off, or not a terminal)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, s: str) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: Optional[int], desc: str, progress: Optional[bool], unit: str = "it",
                 deadline: Optional[float] = None) -> Any:
    """A tqdm bar: shown on a terminal after a second (progress=None), always (True) or never
    (False); a do-nothing bar without tqdm or without a usable standard error. With a
    `deadline` (a `time.monotonic()` value) the ETA is at most the time left before it: the
    work stops there, whatever the rate says the rest would take."""
    if progress is False:
        return NoBar()
    stream = sys.stderr
    if stream is None or getattr(stream, "closed", False):
        return NoBar()
    if progress is None and not (hasattr(stream, "isatty") and stream.isatty()):
        return NoBar()
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return NoBar()
    options = dict(total=total, desc=desc, unit=unit, leave=False, delay=1.0 if progress is None else 0.0)
    if deadline is None:
        return tqdm(**options)
    return _deadline_bar(tqdm)(deadline, bar_format=DEADLINE_FORMAT, **options)


# tqdm's own layout, its {remaining} (the ETA) replaced by `_deadline_bar`'s
DEADLINE_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"


def _deadline_bar(tqdm: type) -> type:
    """A tqdm class whose ETA is capped by a deadline."""
    class DeadlineBar(tqdm):
        def __init__(self, deadline: float, **options: Any) -> None:
            self.deadline = deadline
            super().__init__(**options)

        @property
        def format_dict(self) -> dict:
            d = super().format_dict
            left = max(0.0, self.deadline - time.monotonic())
            n, total, elapsed = d["n"], d["total"], d["elapsed"]
            rate = d["rate"] or (n / elapsed if n and elapsed else None)
            eta = left if not (rate and total) else min((total - n) / rate, left)
            d["remaining"] = self.format_interval(eta)
            return d
    return DeadlineBar


class Heartbeat:
    """A status line on standard error, redrawn every `every` seconds from `status()` while the
    ``with`` block runs: on a terminal after `delay` seconds (show=None), always (True: on
    other than a terminal, a line a beat) or never (False). `clear()` erases it before other
    output reaches the terminal (`paused()` while writing it); the end of the block erases it. `status` runs in the
    heartbeat's thread: it reads figures the work updates, and may not raise."""

    def __init__(self, status: Callable[[], str], show: Optional[bool] = None, every: float = 1.0,
                 delay: float = 1.0) -> None:
        stream = sys.stderr
        usable = stream is not None and not getattr(stream, "closed", False)
        self.terminal = usable and hasattr(stream, "isatty") and stream.isatty()
        self.on = usable and show is not False and (show is True or self.terminal)
        self.status, self.every, self.delay, self.stream = status, every, delay, stream
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._lock = threading.RLock()
        self._shown = False
        self._thread: Optional[threading.Thread] = None

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def __enter__(self) -> "Heartbeat":
        self.start = time.monotonic()
        if self.on:
            self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.clear()

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while True:
            self.beat()
            if self._stop.wait(self.every):
                return

    def beat(self) -> None:
        """Draw the line now."""
        try:
            line = self.status()
        except Exception:       # a figure read mid-update: the next beat draws it
            return
        with self._lock:
            try:
                if self.terminal:
                    width = max(20, shutil.get_terminal_size().columns - 1)
                    self.stream.write("\r" + line[:width] + "\x1b[K")
                    self._shown = True
                else:
                    self.stream.write(line + "\n")
                self.stream.flush()
            except (OSError, ValueError):    # the terminal went away: stop drawing
                self._stop.set()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The line erased and not redrawn while the block writes to the terminal."""
        with self._lock:
            self.clear()
            yield

    def clear(self) -> None:
        """Erase the line (before other output goes to the terminal)."""
        with self._lock:
            if self._shown:
                try:
                    self.stream.write("\r\x1b[K")
                    self.stream.flush()
                except (OSError, ValueError):
                    pass
                self._shown = False


def rate(count: float, seconds: float) -> str:
    """`count` a second, short: '2.8 M' (an engine's nodes/s)."""
    per = count / seconds if seconds > 0 else 0.0
    for size, unit in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if per >= size:
            return f"{per / size:.1f}{unit}"
    return f"{per:.0f}"
