"""The progress bar of every long call: tqdm (imported only when a bar is shown), on a terminal
after a second by default, always or never on request."""
from __future__ import annotations

import sys
from typing import Any, Optional


class NoBar:
    """A bar that shows nothing (progress off, or not a terminal)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, s: str) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: Optional[int], desc: str, progress: Optional[bool], unit: str = "it") -> Any:
    """A tqdm bar: shown on a terminal after a second (progress=None), always (True) or never
    (False); a do-nothing bar without tqdm or without a usable standard error."""
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
    return tqdm(total=total, desc=desc, unit=unit, leave=False, delay=1.0 if progress is None else 0.0)
