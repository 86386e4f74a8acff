"""The checks of the arguments every caller passes on to the kernel (`tt_mb`, `threads`,
`horizon`, `max_nodes`, `time_limit`, `objective`), once for all of them: each gives the value the
kernel takes, or raises a `LimitError` (a `RulesError` for the objective) that quotes at most a
short excerpt of the argument."""
from __future__ import annotations

import math
import os
from typing import Any, Optional

from ..errors import LimitError, RulesError, excerpt
from .face import MAX_TT_MB, OBJECTIVES

__all__ = ["DEFAULT_TT_MB", "check_tt_mb", "check_threads", "worker_count", "check_horizon", "check_limits",
           "check_objective"]

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


def check_limits(max_nodes: Optional[int], time_limit: Optional[float]) -> tuple[int, float]:
    """The kernel's (max_nodes, seconds): 0 for no limit; huge limits mean no limit."""
    if max_nodes is not None:
        if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1:
            raise LimitError(f"max_nodes must be a positive whole number, not {excerpt(max_nodes)}")
        max_nodes = min(max_nodes, _MAX_NODES)
    if time_limit is not None:
        if not _is_number(time_limit):
            raise LimitError(f"time_limit must be a number of seconds, not {type(time_limit).__name__}")
        try:
            seconds = float(time_limit)
        except OverflowError:   # an int beyond floats: no limit if positive, refused if not
            seconds = math.inf if time_limit > 0 else -math.inf
        if math.isnan(seconds) or not seconds > 0:
            raise LimitError(f"time_limit must be a positive number of seconds, not {excerpt(time_limit)}")
        time_limit = 0.0 if seconds > 1e9 else seconds     # beyond 30 years: no limit
    return (max_nodes or 0, time_limit or 0.0)


def check_objective(objective: Any) -> str:
    """What a family search maximises: 'value' (the margin, paranoid with three or more sides)
    or 'maxn' (every side its own points); `RulesError` otherwise."""
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise RulesError(f"objective must be one of {', '.join(map(repr, OBJECTIVES))}, not {excerpt(objective)}")
    return objective
