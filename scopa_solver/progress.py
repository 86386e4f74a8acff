"""The progress bar of every long call: tqdm (imported only when a bar is shown), on a terminal
after a second by default, always or never on request."""
from __future__ import annotations

import sys
import time
from typing import Any, Optional


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
    class DeadlineBar(tqdm):  # type: ignore[misc, valid-type]
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
