"""`Limit`: how far a search may go and what it may use, one frozen value checked once when it
is made; and the checks behind it (each gives the value the kernel takes, or raises a
`LimitError` that quotes at most a short excerpt of the argument; `RulesError` for the
objective, which is what is asked, not how much).

>>> Limit(nodes=10**6, time=2)
Limit(nodes=1000000, time=2.0)
>>> Limit(time=-1)
Traceback (most recent call last):
scopa_solver.errors.LimitError: time must be a positive number of seconds, not -1
"""
from __future__ import annotations

import math
import os
import time as _time
from dataclasses import dataclass, fields
from typing import Any, Mapping, Optional

from ..errors import LimitError, RulesError, excerpt
from .face import MAX_TT_MB, OBJECTIVES

__all__ = ["Limit", "DEFAULT_TT_MB", "check_tt_mb", "check_threads", "worker_count", "check_horizon",
           "check_limits", "check_objective"]

DEFAULT_TT_MB = 64.0         # a table's MiB when the caller names none


def _physical_mb() -> float:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1048576.0
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 2.0 * MAX_TT_MB


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check_tt_mb(tt_mb: Optional[float]) -> float:
    """A table size in MiB: None for the default, 0 for no table, else a finite size up to half
    the machine's memory (and the kernel's cap); a `LimitError` otherwise."""
    if tt_mb is None:
        return DEFAULT_TT_MB
    if not _is_number(tt_mb):
        raise LimitError(f"tt_mb must be a number of MiB, not {type(tt_mb).__name__}")
    try:
        size = float(tt_mb)
    except OverflowError:       # an int beyond floats: more than any machine has
        size = math.inf if tt_mb > 0 else -math.inf
    if math.isnan(size) or size < 0:
        raise LimitError(f"tt_mb must be 0 (no table) or a finite number of MiB, not {excerpt(tt_mb)}")
    cap = min(MAX_TT_MB, _physical_mb() / 2)
    if size > cap:
        raise LimitError(f"tt_mb={excerpt(tt_mb)} is more than this machine can give a table "
                         f"(at most {cap:,.0f} MiB: half its memory)")
    return size


def check_threads(threads: Optional[int], default: int = 1) -> int:
    """Worker threads: `default` for None, every core for 0, else at most the machine's cores
    (more would only share the cores and multiply the tables)."""
    cores = os.cpu_count() or 1
    if threads is None:
        threads = default
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 0:
        raise LimitError(f"threads must be a whole number, 0 (every core) or more, not {excerpt(threads)}")
    return cores if threads == 0 else min(threads, cores)


def worker_count(threads: Optional[int], jobs: int, default: int = 1) -> int:
    """Threads for `jobs` searches: `check_threads`, never more than there are jobs."""
    return max(1, min(check_threads(threads, default), jobs))


_MAX_NODES = 2 ** 64 - 1     # the kernel counts nodes in 64 bits
_MAX_HORIZON = 64            # more plies than any round has: exact


def check_horizon(horizon: Optional[int]) -> int:
    """A horizon in plies as the kernel takes it: 0 for None or 0 (exact search), else a
    positive whole number (one beyond the round's plies left is exact too); `LimitError`
    otherwise."""
    if horizon is None:
        return 0
    if not isinstance(horizon, int) or isinstance(horizon, bool) or horizon < 0:
        raise LimitError(f"horizon must be None (exact) or a whole number of plies, 0 or more, "
                         f"not {excerpt(horizon)}")
    return min(horizon, _MAX_HORIZON)


def check_limits(max_nodes: Optional[int], time_limit: Optional[float], what: str = "time_limit",
                 nodes_name: str = "max_nodes") -> tuple[int, float]:
    """The kernel's (max_nodes, seconds): 0 for no limit; huge limits mean no limit."""
    if max_nodes is not None:
        if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1:
            raise LimitError(f"{nodes_name} must be a positive whole number, not {excerpt(max_nodes)}")
        max_nodes = min(max_nodes, _MAX_NODES)
    if time_limit is not None:
        if not _is_number(time_limit):
            raise LimitError(f"{what} must be a number of seconds, not {type(time_limit).__name__}")
        try:
            seconds = float(time_limit)
        except OverflowError:   # an int beyond floats: no limit if positive, refused if not
            seconds = math.inf if time_limit > 0 else -math.inf
        if math.isnan(seconds) or not seconds > 0:
            raise LimitError(f"{what} must be a positive number of seconds, not {excerpt(time_limit)}")
        time_limit = 0.0 if seconds > 1e9 else seconds     # beyond 30 years: no limit
    return (max_nodes or 0, time_limit or 0.0)


def check_objective(objective: Any) -> str:
    """What a family search maximises: 'value' (the margin, paranoid with three or more sides)
    or 'maxn' (every side its own points); `RulesError` otherwise."""
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise RulesError(f"objective must be one of {', '.join(map(repr, OBJECTIVES))}, not {excerpt(objective)}")
    return objective


@dataclass(frozen=True)
class Limit:
    """How far a search may go (python-chess's `Limit`, for a solver): every field None means
    "no limit" or "the default". Checked once, here; every search entry point takes one.

    - `nodes`: nodes of the whole search (every depth and thread together);
    - `time`: seconds from the search's start;
    - `horizon`: plies. None: exact (with a limit, an exact try and then deepening 4, 8, ...
      plies towards exact); 0: the exact search alone, even when a limit cuts it; h > 0: no
      deeper than h plies, scored there by the static evaluation (docs/family.md);
    - `deadline`: a `time.monotonic()` instant to stop at (a request's or a turn's end);
    - `tt_mb`: the transposition table's MiB (None: 64; 0: no table);
    - `threads`: threads (None: 1, 0: every core): a batch's workers, or the threads that search
      one family position together.

    A limit that a search reaches gives the deepest answer it completed, never None
    (docs/search.md#what-a-result-proves). `repr` can be pasted back; `to_dict`/`from_dict`
    carry it through JSON.

    >>> Limit(horizon=8, threads=0).threads > 0
    True
    >>> Limit.from_dict(Limit(nodes=5000, tt_mb=16).to_dict())
    Limit(nodes=5000, tt_mb=16.0)
    """

    nodes: Optional[int] = None
    time: Optional[float] = None
    horizon: Optional[int] = None
    deadline: Optional[float] = None
    tt_mb: Optional[float] = None
    threads: Optional[int] = None

    def __post_init__(self) -> None:
        self._check(*(f.name for f in fields(self)))

    def _check(self, *names: str) -> None:
        """Check and normalise the fields `names` (each field once: `replace` checks only what
        it changes)."""
        set_ = object.__setattr__
        if "nodes" in names or "time" in names:
            nodes, seconds = check_limits(self.nodes, self.time, "time", "nodes")
            set_(self, "nodes", nodes or None)
            set_(self, "time", seconds or None)
        if "horizon" in names and self.horizon is not None:
            set_(self, "horizon", check_horizon(self.horizon))
        if "deadline" in names and self.deadline is not None:
            if not _is_number(self.deadline) or not math.isfinite(self.deadline):
                raise LimitError(f"deadline must be a time.monotonic() instant, not {excerpt(self.deadline)}")
            set_(self, "deadline", float(self.deadline))
        if "tt_mb" in names and self.tt_mb is not None:
            set_(self, "tt_mb", check_tt_mb(self.tt_mb))
        if "threads" in names and self.threads is not None:
            set_(self, "threads", check_threads(self.threads))

    @property
    def limited(self) -> bool:
        """A node, time or deadline limit is set (the search may end before the exact value)."""
        return self.nodes is not None or self.time is not None or self.deadline is not None

    @property
    def table_mb(self) -> float:
        """The table's MiB (the default when `tt_mb` is None)."""
        return DEFAULT_TT_MB if self.tt_mb is None else self.tt_mb

    @property
    def workers(self) -> int:
        """The threads asked for (1 when None)."""
        return 1 if self.threads is None else self.threads

    def end(self, start: float) -> float:
        """The monotonic instant a search started at `start` must end by (inf: none): the
        earlier of `start` + `time` and `deadline`."""
        end = math.inf if self.time is None else start + self.time
        return end if self.deadline is None else min(end, self.deadline)

    def replace(self, **changes: Any) -> "Limit":
        """A copy with some fields changed (those are checked; the others were)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise LimitError(f"unknown limit field {excerpt(sorted(unknown)[0])}")
        copy = self.derived(**changes)
        copy._check(*changes)
        return copy

    def derived(self, **changes: Any) -> "Limit":
        """A copy with fields changed to values derived from checked ones (half the time, the
        sooner of two deadlines...), not checked again: for the search's own use."""
        copy = object.__new__(Limit)
        for f in fields(self):
            object.__setattr__(copy, f.name, changes.get(f.name, getattr(self, f.name)))
        return copy

    def with_deadline(self, seconds: Optional[float]) -> "Limit":
        """This limit, also ending `seconds` from now (None: unchanged)."""
        if seconds is None:
            return self
        end = _time.monotonic() + check_limits(None, seconds, "seconds")[1]
        return self.replace(deadline=end if self.deadline is None else min(end, self.deadline))

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set (JSON-ready; `deadline` is this process's clock and is left out)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "deadline" and getattr(self, f.name) is not None}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Limit":
        """A Limit from `to_dict`'s form; an unknown key is a `LimitError` naming it."""
        if not isinstance(data, Mapping):
            raise LimitError(f"a limit must be a mapping of its fields, not {type(data).__name__}")
        known = {f.name for f in fields(cls)} - {"deadline"}
        unknown = sorted(map(str, set(data) - known))
        if unknown:
            raise LimitError(f"unknown limit field {excerpt(unknown[0])} (known: {', '.join(sorted(known))})")
        return cls(**dict(data))

    def __repr__(self) -> str:
        set_fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                               if getattr(self, f.name) is not None)
        return f"Limit({set_fields})"


NO_LIMIT = Limit()
