"""Time boxes: one deadline for every search of a piece of work (a tree, a review, a web request,
a bot's decision), carried by a context variable so that it reaches the searches of callees
without being passed down, and that another thread can cancel."""
from __future__ import annotations

import math
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Optional

from ..errors import TimeLimitError
from .limit import check_limits

__all__ = ["TimeBox", "time_box", "time_budget", "BudgetSpent", "budget_deadline", "budget_left", "check_time"]

_lock = threading.Lock()        # guards every box's `searchers` against a cancel from another thread


class BudgetSpent(Exception):
    """A search a decision needs whole was cut by the decision's time budget (`time_budget`):
    the bot that set the budget catches it and falls back to the best answer it has."""


class TimeBox:
    """The deadline of a piece of work (`time_box`): every search started inside it is cut
    there. A strict box then raises `error()` (`TimeLimitError`) if the cut left a search
    unfinished; an `anytime` one (`time_budget`) lets the caller keep what was done, and its
    `error()` for Python loops is `BudgetSpent`."""

    def __init__(self, seconds: float, what: str, anytime: bool = False) -> None:
        self.seconds, self.what, self.anytime = seconds, what, anytime
        self.deadline = time.monotonic() + seconds
        self.reason: Optional[str] = None     # why it was cancelled
        self.tokens: set = set()              # the stop tokens of its searches running now, for `cancel`

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline

    def error(self) -> Exception:
        if self.anytime and self.reason is None:
            return BudgetSpent()
        return TimeLimitError(self.reason or f"{self.what} needs more than {self.seconds:g} s")

    def cancel(self, reason: str) -> None:
        """End the work now, from any thread: its searches stop within milliseconds and raise
        `TimeLimitError` (with `reason`); one started later stops at once (the deadline is past)."""
        with _lock:
            self.reason = self.reason or reason
            self.deadline = -math.inf
            for token in self.tokens:
                token.stop()


_boxes: ContextVar[tuple] = ContextVar("scopa_time_boxes", default=())


def nearest_box() -> Optional[TimeBox]:
    """The box of the nearest deadline around the caller (boxes nest)."""
    boxes = _boxes.get()
    return min(boxes, key=lambda b: b.deadline) if boxes else None


@contextmanager
def time_box(seconds: Optional[float], what: str = "the work", anytime: bool = False) -> Iterator[Optional[TimeBox]]:
    """Every search started in this block (in this thread or context, nested boxes: the nearest
    deadline) ends within `seconds` from now; a search the deadline cut raises `TimeLimitError`
    ("`what` needs more than `seconds` s"), or with `anytime` returns what it has (stopped
    results, as a time limit gives). None: no box. Python loops between searches call
    `check_time`. A context variable carries the box, so it reaches the searches of callees and
    of threads started with the context (asyncio's and anyio's worker threads) unasked.

    >>> from scopa_solver import Position, solve
    >>> with time_box(1e-9, "this solve"):
    ...     solve(Position.new_round(seed=1))
    Traceback (most recent call last):
    scopa_solver.errors.TimeLimitError: this solve needs more than 1e-09 s
    """
    if seconds is None:
        yield None
        return
    box = TimeBox(check_limits(None, seconds)[1] or math.inf, what, anytime)
    token = _boxes.set(_boxes.get() + (box,))
    try:
        yield box
    finally:
        _boxes.reset(token)


@contextmanager
def time_budget(seconds: Optional[float]) -> Iterator[Optional[float]]:
    """A decision's budget: an `anytime` `time_box`, so every search inside (whatever limits
    its caller gave) stops `seconds` from now and returns what it has, and the Python loops that
    call `check_time` raise `BudgetSpent`. None: no budget of its own; nested boxes end at the
    earliest end. Yields that end (a `time.monotonic()` value, or None).

    >>> with time_budget(5.0) as end, time_budget(60.0) as inner:
    ...     inner == end and 0 < budget_left() <= 5.0
    True
    """
    with time_box(seconds, "the decision", anytime=True):
        yield budget_deadline()


def budget_deadline(deadline: Optional[float] = None) -> Optional[float]:
    """The earlier of `deadline` and the nearest time box's end (None: neither)."""
    box = nearest_box()
    end = None if box is None or box.deadline == math.inf else box.deadline
    return deadline if end is None else end if deadline is None else min(end, deadline)


def budget_left() -> Optional[float]:
    """Seconds left in the nearest time box (0 once spent; None: no box)."""
    end = budget_deadline()
    return None if end is None else max(0.0, end - time.monotonic())


def raise_if_cancelled(boxes: tuple) -> None:
    """An interrupt that `TimeBox.cancel` made is that box's `TimeLimitError` (a Ctrl-C stays one)."""
    for box in boxes:
        if box.reason is not None:
            raise box.error() from None


def open_boxes() -> tuple:
    """The time boxes around the caller (for work handed to threads the context does not reach)."""
    return _boxes.get()


@contextmanager
def searching_in(token: Any, boxes: tuple) -> Iterator[None]:
    """A search's stop `token` in each of `boxes` for the while, so that a cancel sets it (at
    once if one of them is cancelled already)."""
    with _lock:
        for b in boxes:
            b.tokens.add(token)
            if b.reason is not None:
                token.stop()
    try:
        yield
    finally:
        with _lock:
            for b in boxes:
                b.tokens.discard(token)


def check_time() -> None:
    """Raise the nearest time box's `error()` if its deadline has passed (for work between
    searches, which the kernel's limits do not reach): `BudgetSpent` in a decision's budget."""
    box = nearest_box()
    if box is not None and box.expired():
        raise box.error()
