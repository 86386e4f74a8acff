"""The kernel face: the one module that talks to the compiled kernel (``_kernel``, see ``ext/``).

Everything the Python layer asks of the kernel goes through here:

- `KernelState`, the named state a position crosses the boundary as (card sets as 40-bit masks);
- `legal_moves`, `play` (the next state and its `PlayEvents`), `score_piles`;
- the searchers (a transposition table and buffers each) kept in one bounded pool;
- `run_batch`, the one scheduler of every batch of searches (solver batches and PIMC worlds):
  dynamic batches over worker threads with the GIL released, per-search limits, an overall
  deadline, progress, and a stop that reaches every worker on Ctrl-C or interpreter exit;
- the checks of `tt_mb`, `threads`, `max_nodes` and `time_limit`, once for every caller;
- `time_box`, a deadline that reaches every search of a piece of work (a tree, a review, a web
  request) without passing it down, and that another thread can cancel.

>>> from scopa_solver import Position
>>> state = Position(hands=("7d", "3c"), table="4s 3s", dealer=1).kernel_state()
>>> after, events = play(state, legal_moves(state)[0])
>>> events.scopa, after.hand0, after.to_move
(True, 0, 1)
"""
from __future__ import annotations

import itertools
import math
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterable, Iterator, NamedTuple, Optional, Sequence

from .. import _kernel
from ..errors import LimitError, RulesError, TimeLimitError

__all__ = ["KernelState", "PlayEvents", "legal_moves", "play", "score_piles", "random_playouts",
           "Searcher", "KernelResult", "RULE_BITS", "WANT_BEST", "WANT_PV", "WANT_ALL", "FULL_WINDOW",
           "STOP_REASONS", "VALUE_INF", "DEFAULT_TT_MB", "MAX_TT_MB", "check_tt_mb", "check_threads",
           "check_limits", "worker_count", "new_searcher", "borrow_searcher", "clear_tables", "pool_stats",
           "run_batch", "SearchInterrupted", "FamilyState", "family_legal_moves", "family_play", "family_score",
           "FamilySearcher", "FamilyResult", "OBJECTIVES", "FAMILY_RULE_ALL", "family_evaluate",
           "check_horizon", "DEEPEN_STEP", "deepen", "family_side_bounds", "TimeBox", "time_box", "time_budget",
           "BudgetSpent", "budget_deadline", "budget_left", "check_time"]

Searcher = _kernel.Searcher
KernelResult = _kernel.KernelResult
FamilySearcher = _kernel.FamilySearcher
FamilyResult = _kernel.FamilyResult
OBJECTIVES: tuple = tuple(_kernel.OBJECTIVES)
FAMILY_RULE_ALL: int = _kernel.FAMILY_RULE_ALL
WANT_BEST, WANT_PV, WANT_ALL, FULL_WINDOW = _kernel.WANT_FLAGS
RULE_BITS: dict = dict(_kernel.RULE_BITS)
"""The kernel's rule switches by option name (``primiera_zero`` for ``primiera_missing_suit="zero"``);
``fifteen`` (capture="fifteen"), ``optional_capture`` and ``last_sweep_counts`` only in the family
kernel (a two-player `KernelState` takes the bits of ``RULE_ALL``)."""
STOP_REASONS = {0: None, 1: "nodes", 2: "time", 3: "interrupt"}
VALUE_INF = 127
DEFAULT_TT_MB = 64.0
MAX_TT_MB = float(_kernel.MAX_TT_MB)


class KernelState(NamedTuple):
    """A fully known round state as the kernel reads it: card sets are 40-bit masks (bit =
    suit * 10 + rank - 1), `deals` the stock's deals next first, each a (non-dealer's 3 cards,
    dealer's 3 cards) pair of masks, `rules` the kernel's rule bits (`RULE_BITS`)."""

    hand0: int
    hand1: int
    table: int
    pile0: int
    pile1: int
    scopas0: int
    scopas1: int
    to_move: int
    dealer: int
    last_capturer: int     # -1: nobody has captured yet
    deals: tuple
    rules: int


class PlayEvents(NamedTuple):
    """What a move did besides moving cards: a scopa, a fresh deal from the stock, and at the end
    of the round the leftover table cards (mask) and the seat that took them (-1: none)."""

    scopa: bool
    dealt: bool
    leftovers: int
    leftovers_to: int


def legal_moves(state: "KernelState | FamilyState") -> list[int]:
    """The legal moves of the side to move, packed (card index << 40 | captured mask); a
    `FamilyState` goes to `family_legal_moves`."""
    if type(state) is FamilyState:
        return _kernel.family_legal_moves(state)
    return _kernel.legal_moves(state)


def play(state: "KernelState | FamilyState", packed_move: int) -> tuple[Any, PlayEvents]:
    """The state after a legal packed move and its events; ValueError if the move is illegal
    (a `FamilyState` goes to `family_play`)."""
    if type(state) is FamilyState:
        return family_play(state, packed_move)
    after, scopa, dealt, leftovers, leftovers_to = _kernel.play(state, packed_move)
    return KernelState._make(after), PlayEvents(bool(scopa), bool(dealt), leftovers, leftovers_to)


def score_piles(pile0: int, pile1: int, rules: int) -> dict:
    """The end-of-round breakdown of two capture piles (scopas excluded)."""
    return _kernel.score_piles_detail(pile0, pile1, rules)


def random_playouts(state: KernelState, playouts: int, seed: int = 1) -> int:
    """Play `playouts` uniformly random rounds from `state` in C; the number of moves made."""
    return _kernel.random_playouts(state, playouts, seed)


# -- the family: 3, 4 and 6 players, partnerships, Scopone, scientifico, Scopa a 15 -------------

class FamilyState(NamedTuple):
    """A fully known family round state as the family kernel reads it: seats 0..players-1 in
    playing order, one 40-bit mask per seat in `hands` and `piles`, `deals` the stock's future
    deals next first (each one 3-card mask per seat), `rules` the `RULE_BITS` (with ``fifteen``,
    ``optional_capture``, ``last_sweep_counts``), `sides` each seat's side, numbered 0.. in
    order of first seat: (0, 1, 0, 1) for partnerships, (0, 1, 2) for three players."""

    players: int
    hands: tuple
    table: int
    piles: tuple
    scopas: tuple
    to_move: int
    dealer: int
    last_capturer: int     # -1: nobody has captured yet
    deals: tuple
    rules: int
    sides: tuple


def family_legal_moves(state: FamilyState) -> list[int]:
    """The legal moves of the seat to move, packed (card index << 40 | captured mask), in the
    canonical order: cards by index; for each, single captures, then sums, then the lay-down."""
    return _kernel.family_legal_moves(state)


def family_play(state: FamilyState, packed_move: int) -> tuple[FamilyState, PlayEvents]:
    """The family state after a legal packed move and its events; ValueError if it is illegal."""
    after, scopa, dealt, leftovers, leftovers_to = _kernel.family_play(state, packed_move)
    return FamilyState._make(after), PlayEvents(bool(scopa), bool(dealt), leftovers, leftovers_to)


def family_score(piles: Sequence[int], scopas: Sequence[int], sides: Sequence[int], rules: int) -> dict:
    """The end-of-round breakdown per side: lists (one entry per side) `cards`, `coins`,
    `primiera` (None when disqualified), `napola`, `scopas`, `points` (round points, scopas
    included); the category winners `carte`, `denari`, `settebello`, `primiera_winner`,
    `re_bello` as a side or None (a shared top scores for nobody)."""
    return _kernel.family_score(piles, scopas, sides, rules)


def family_evaluate(state: FamilyState, root_seat: Optional[int] = None) -> tuple[tuple[float, ...], float]:
    """The horizon search's static evaluation (ext/family_eval.pxi; docs/family.md): every
    side's expected round points from its pile and the cards still in play (scopas made not
    included), and the value a "value" search rooted at `root_seat` (default: the seat to move)
    gives the position at its horizon, for the seat to move: with two sides the expected margin
    of points to come, with more the paranoid value (scopas made included). The search counts
    quarter points (this value's resolution) and reports its results rounded to whole points;
    its best moves are those of the finer values."""
    return _kernel.family_evaluate(state, root_seat)


def family_side_bounds(state: FamilyState) -> list[tuple[int, int]]:
    """Every side's (low, high): its final round points, scopas included, lie between them
    whatever is played from `state`; the bounds the family search cuts on (for tests)."""
    return _kernel.family_side_bounds(state)


# -- checks shared by every caller ----------------------------------------------------------------

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
        raise LimitError(f"tt_mb must be 0 (no table) or a finite number of MiB, not {_short(tt_mb)}")
    cap = min(MAX_TT_MB, _physical_mb() / 2)
    if size > cap:
        raise LimitError(f"tt_mb={_short(tt_mb)} is more than this machine can give a table "
                         f"(at most {cap:,.0f} MiB: half its memory)")
    return size


def check_threads(threads: Optional[int], default: int = 1) -> int:
    """Worker threads: `default` for None, every core for 0, else at most the machine's cores
    (more would only share the cores and multiply the tables)."""
    cores = os.cpu_count() or 1
    if threads is None:
        threads = default
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 0:
        raise LimitError(f"threads must be a whole number, 0 (every core) or more, not {_short(threads)}")
    return cores if threads == 0 else min(threads, cores)


def worker_count(threads: Optional[int], jobs: int, default: int = 1) -> int:
    """Threads for `jobs` searches: `check_threads`, never more than there are jobs."""
    return max(1, min(check_threads(threads, default), jobs))


_MAX_NODES = 2 ** 64 - 1
_MAX_HORIZON = 64            # more plies than any round has: exact
DEEPEN_STEP = 4              # run_batch(deepen=True): horizons 4, 8, 12, ... plies


def check_horizon(horizon: Optional[int]) -> int:
    """A horizon in plies as the kernel takes it: 0 for None or 0 (exact search), else a
    positive whole number (one beyond the round's plies left is exact too); `LimitError`
    otherwise."""
    if horizon is None:
        return 0
    if not isinstance(horizon, int) or isinstance(horizon, bool) or horizon < 0:
        raise LimitError(f"horizon must be None (exact) or a whole number of plies, 0 or more, "
                         f"not {_short(horizon)}")
    return min(horizon, _MAX_HORIZON)


def check_limits(max_nodes: Optional[int], time_limit: Optional[float]) -> tuple[int, float]:
    """The kernel's (max_nodes, seconds): 0 for no limit; huge limits mean no limit."""
    if max_nodes is not None:
        if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1:
            raise LimitError(f"max_nodes must be a positive whole number, not {_short(max_nodes)}")
        max_nodes = min(max_nodes, _MAX_NODES)
    if time_limit is not None:
        if not _is_number(time_limit):
            raise LimitError(f"time_limit must be a number of seconds, not {type(time_limit).__name__}")
        try:
            seconds = float(time_limit)
        except OverflowError:
            seconds = math.inf
        if math.isnan(seconds) or not seconds > 0:
            raise LimitError(f"time_limit must be a positive number of seconds, not {_short(time_limit)}")
        time_limit = 0.0 if seconds > 1e9 else seconds     # beyond 30 years: no limit
    return (max_nodes or 0, time_limit or 0.0)


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


# -- the searcher pool ----------------------------------------------------------------------------

_lock = threading.Lock()
_idle: list = []                 # searchers kept for reuse: one table size at a time, at most
_KEEP = max(2, os.cpu_count() or 1)    # as many as there are cores
_busy: set = set()               # searchers in use, so a stop reaches every one of them
_closing = False                 # the interpreter is exiting: no new search starts


class SearchInterrupted(KeyboardInterrupt):
    """A search stopped by Ctrl-C, or by the interpreter's exit while it ran in a thread."""


def new_searcher(tt_mb: Optional[float] = None,
                 family: bool = False) -> "_kernel.Searcher | _kernel.FamilySearcher":
    """A fresh searcher of its own (an empty table, for traces and cold measurements); a
    `FamilySearcher` for `FamilyState`s when `family`."""
    size = check_tt_mb(tt_mb)
    try:
        return (_kernel.FamilySearcher if family else _kernel.Searcher)(size)
    except MemoryError:
        raise LimitError(f"cannot allocate a {size:g} MiB transposition table: not enough "
                         "memory (use a smaller tt_mb)") from None


@contextmanager
def borrow_searcher(tt_mb: Optional[float] = None,
                    family: bool = False) -> Iterator["_kernel.Searcher | _kernel.FamilySearcher"]:
    """A searcher for one call (a `FamilySearcher` when `family`); kept afterwards for reuse (a
    large table is slow to allocate), at most one per core and one table size at a time."""
    size = check_tt_mb(tt_mb)
    kind = _kernel.FamilySearcher if family else _kernel.Searcher
    with _lock:
        if _closing:
            raise SearchInterrupted
        found = next((s for s in _idle if s.tt_mb == size and type(s) is kind), None)
        if found is not None:
            _idle.remove(found)
    s = found if found is not None else new_searcher(size, family)
    with _lock:
        _busy.add(s)
        if _closing:
            s.request_stop()
    try:
        yield s
    finally:
        with _lock:
            _busy.discard(s)
            if not _closing:
                if _idle and _idle[0].tt_mb != size:
                    _idle.clear()
                if sum(type(x) is type(s) for x in _idle) < _KEEP:
                    _idle.append(s)


def pool_stats() -> dict:
    """The searchers kept for reuse after the calls (at most one per core of each kind) and their tables'
    MiB, and the searchers in use right now.

    >>> stats = pool_stats()
    >>> stats["kept"] <= 2 * max(2, os.cpu_count() or 1), sorted(stats)   # per kind of searcher
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
    """Before the interpreter joins its threads: stop every search still running in one. The
    request is repeated until no searcher is busy (a searcher starting a batch clears its stop
    flag, so a single request can be lost); no new batch starts once `_closing` is set."""
    global _closing
    with _lock:
        _closing = True
    give_up = time.monotonic() + 5.0
    while time.monotonic() < give_up:
        with _lock:
            if not _busy:
                return
            for s in _busy:
                s.request_stop()
        time.sleep(0.005)


try:    # run before the interpreter joins threads (where atexit would be too late)
    threading._register_atexit(_at_exit)      # type: ignore[attr-defined]
except (AttributeError, RuntimeError):  # pragma: no cover - Python < 3.9 or already exiting
    pass

_pool: Optional[ThreadPoolExecutor] = None


def _executor() -> ThreadPoolExecutor:
    """The lasting worker threads of every batch: one per core, made once, never replaced."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max(2, os.cpu_count() or 1), thread_name_prefix="scopa-search")
        return _pool


@contextmanager
def _sigint_held() -> Iterator[None]:
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


def deepen(searcher: Any, state: FamilyState, want: int, nodes: int = 0, seconds: float = 0.0,
           deadline: Optional[float] = None, signals: bool = False, objective: str = "value",
           first: int = 0, settle: bool = False, last: int = 0, near: int = 0,
           threads: int = 1) -> Iterator[Any]:
    """Iterative deepening of one state towards exact on one searcher: yields every complete
    search, at horizons `first` (default `DEEPEN_STEP`), then `DEEPEN_STEP` plies deeper each
    time up to `last` plies (0: on to exact, `horizon` None, if the budget reaches the round's
    end). The budget, `nodes` and `seconds` (0: none) for all the searches together and the
    `deadline`, is checked before each search and cuts the running one, which is then yielded
    last (stopped: its nodes count, its values do not); with `settle` the first search has no
    budget (only Ctrl-C stops it: a few plies take milliseconds), so one always completes.
    `near` plies: once the next horizon would stop that close to the round's end, the exact
    search is tried first, on twice the nodes of the depth just done (the horizon searches near
    the end cost more than the exact one, which the points still possible cut); it is yielded
    if it completes (or the budget cut it), else deepening goes on (its nodes count).
    The searcher's table keys carry the horizon, so a depth's values never meet another's.
    Yields (result, nodes of every search so far). The `time_box`es around it cut it too (a
    cancelled one raises its `TimeLimitError`). `threads` search each depth together (one
    position on every core: `run_batch`'s `search_threads`)."""
    with _boxed(searcher) as boxes:
        try:
            yield from _deepen_steps(searcher, state, want, nodes, seconds, deadline, signals, objective,
                                     first, settle, last, near, threads)
        except KeyboardInterrupt:
            _raise_cancelled(boxes)
            raise


def _deepen_steps(searcher: Any, state: FamilyState, want: int, nodes: int, seconds: float,
                  deadline: Optional[float], signals: bool, objective: str, first: int, settle: bool,
                  last: int, near: int, threads: int = 1) -> Iterator[Any]:
    start = time.monotonic()
    end = start + seconds if seconds else math.inf
    deadline = budget_deadline(deadline)
    if deadline is not None:
        end = min(end, deadline)
    depth = first or DEEPEN_STEP
    if last:
        depth = min(depth, last)
    used = 0
    done = retry = False
    plies = sum(bin(m).count("1") for m in state.hands) + sum(bin(m).count("1") for deal in state.deals
                                                              for m in deal)
    while True:
        left = end - time.monotonic()
        if done and (left <= 0 or (nodes and used >= nodes)):
            return
        if retry:
            retry = False
            cap = 2 * raw.nodes if not nodes else min(2 * raw.nodes, nodes - used)
            exact = searcher.search_many([state], want, max(1, cap), 0.0 if end == math.inf else max(left, 1e-6),
                                         signals, objective, 0, threads)[0]
            used += exact.nodes
            if exact.stop == 3:
                raise KeyboardInterrupt
            if not exact.stop or (nodes and used >= nodes) or end <= time.monotonic():
                yield exact, used       # exact, or cut by the budget: the last search
                return
            continue                    # cut by its own cap: the next horizon
        free = settle and not done
        raw = searcher.search_many([state], want, 0 if free or not nodes else nodes - used,
                                   0.0 if free or end == math.inf else max(left, 1e-6), signals, objective,
                                   depth, threads)[0]
        used += raw.nodes
        if raw.stop == 3:
            raise KeyboardInterrupt
        yield raw, used
        if raw.stop or raw.horizon is None or depth == last:
            return
        done = True
        depth += DEEPEN_STEP
        if last:
            depth = min(depth, last)
        retry = bool(near) and plies - depth <= near and (not last or last >= plies)


def _deepen(searcher: Any, state: FamilyState, want: int, nodes: int, seconds: float,
            deadline: Optional[float], signals: bool, objective: str, first: int, threads: int = 1) -> Any:
    """run_batch's `deepen`: the deepest complete search of `deepen` (the first, stopped, if none)."""
    best = None
    for raw, _ in deepen(searcher, state, want, nodes, seconds, deadline, signals, objective, first,
                         threads=threads):
        if best is None or not raw.stop:
            best = raw
    return best


# -- time boxes: one deadline for every search of a piece of work ----------------------------------

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
        self.searchers: set = set()           # searching for it now, for `cancel`
        self.closed = False                   # its block has ended

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline

    def error(self) -> Exception:
        if self.anytime and self.reason is None:
            return BudgetSpent()
        return TimeLimitError(self.reason or f"{self.what} needs more than {self.seconds:g} s")

    def cancel(self, reason: str) -> None:
        """End the work now, from any thread: its searches stop within milliseconds and raise
        `TimeLimitError` (with `reason`). A search starting at that very moment clears its stop
        flag: repeat the call until `closed`, as `_at_exit` does."""
        with _lock:
            self.reason = self.reason or reason
            self.deadline = -math.inf
            for s in self.searchers:
                s.request_stop()


_boxes: ContextVar[tuple] = ContextVar("scopa_time_boxes", default=())


def _current_box() -> Optional[TimeBox]:
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
        box.closed = True
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
    box = _current_box()
    end = None if box is None or box.deadline == math.inf else box.deadline
    return deadline if end is None else end if deadline is None else min(end, deadline)


def budget_left() -> Optional[float]:
    """Seconds left in the nearest time box (0 once spent; None: no box)."""
    end = budget_deadline()
    return None if end is None else max(0.0, end - time.monotonic())


def _raise_cancelled(boxes: tuple) -> None:
    """An interrupt that `TimeBox.cancel` made is that box's `TimeLimitError` (a Ctrl-C stays one)."""
    for box in boxes:
        if box.reason is not None:
            raise box.error() from None


@contextmanager
def _boxed(searcher: Any) -> Iterator[tuple]:
    """The time boxes around the caller, with `searcher` in each for the while (so that a
    cancel reaches its search); yields the boxes."""
    boxes = _boxes.get()
    with _lock:
        for b in boxes:
            b.searchers.add(searcher)
    try:
        yield boxes
    finally:
        with _lock:
            for b in boxes:
                b.searchers.discard(searcher)


def check_time() -> None:
    """Raise the nearest time box's `error()` if its deadline has passed (for work between
    searches, which the kernel's limits do not reach): `BudgetSpent` in a decision's budget."""
    box = _current_box()
    if box is not None and box.expired():
        raise box.error()


# -- the one batch scheduler ----------------------------------------------------------------------

def run_batch(states: Iterable[Any], *, want: int, max_nodes: Optional[int] = None,
              time_limit: Optional[float] = None, deadline: Optional[float] = None,
              tt_mb: Optional[float] = None, threads: int = 1, total: Optional[int] = None,
              batch: Optional[int] = None, progress: Any = None,
              family: bool = False, objective: str = "value", horizon: Optional[int] = None,
              deepen: bool = False, search_threads: int = 1) -> list:
    """Search every state; the `KernelResult`s in order (None for a state never searched).

    `states` may be a lazy iterator: it is drawn from in batches, under a lock, only as workers
    get free, so nothing is made that the deadline will not reach. `max_nodes`/`time_limit` bound
    each search; `deadline` (a `time.monotonic()` value) stops handing out batches and cuts the
    running ones, whose results then say so (stop 2; the states of a batch not started by then
    are None). `threads` workers share the work in batches
    of `batch` states (default: one kernel call for a single worker without a deadline, else
    small enough for eight batches a worker, at most 64); `total` helps size them for an
    iterator. `progress.update(n)` is called from the calling thread.
    Ctrl-C, or the interpreter's exit, stops every worker within milliseconds and raises
    `SearchInterrupted`. `family`: the states are `FamilyState`s, searched by `FamilySearcher`s
    under `objective` ("value": the margin with two sides, the paranoid value with more;
    "maxn"); the results are `FamilyResult`s.

    Family only: `horizon` plies (None/0: exact) stops each search that deep and scores the
    positions there statically (`FamilyResult.horizon` says where; None: exact). `deepen`
    searches each state at horizons `horizon` (default `DEEPEN_STEP`), then `DEEPEN_STEP` plies
    deeper each time, until a search is exact or the state's `time_limit` / `max_nodes` (both
    for all its searches together) or the `deadline` is spent; its result is the deepest
    complete search (the first, stopped, if none completed). `search_threads` > 1: each state
    is searched by that many threads together, sharing one table (ext/family_parallel.pxi; the
    same results, `nodes` of every thread, `max_nodes` for all of them; max^n on one thread):
    for a single position, `threads` 1.

    Inside a `time_box` its deadline is also the batch's (a decision's `time_budget` too), and
    a batch a strict box cut (or any box cancelled) raises the box's `TimeLimitError` instead of
    returning unfinished results."""
    nodes, seconds = check_limits(max_nodes, time_limit)
    boxes, box = _boxes.get(), _current_box()
    if box is not None:
        if box.expired() and not box.anytime:
            raise box.error()
        if box.deadline < math.inf:
            deadline = box.deadline if deadline is None else min(deadline, box.deadline)
    try:
        results = _run_batch(states, want, nodes, seconds, deadline, tt_mb, threads, total, batch, progress,
                             family, objective, horizon, deepen, boxes, max(1, search_threads))
    except SearchInterrupted:
        _raise_cancelled(boxes)
        raise
    box = _current_box()
    if box is not None and not box.anytime and box.expired() and any(r is None or r.stop == 2 for r in results):
        raise box.error()
    return results


def _run_batch(states: Iterable[Any], want: int, nodes: int, seconds: float, deadline: Optional[float],
               tt_mb: Optional[float], threads: int, total: Optional[int], batch: Optional[int], progress: Any,
               family: bool, objective: str, horizon: Optional[int], deepen: bool, boxes: tuple,
               search_threads: int = 1) -> list:
    depth = check_horizon(horizon)
    if (depth or deepen) and not family:
        raise RulesError("horizon search is for family states (family=True)")
    if objective not in OBJECTIVES:
        raise RulesError(f"objective must be one of {OBJECTIVES}, not {_short(objective)}")
    if not family and objective != "value":
        raise RulesError("objective 'maxn' is for family states (family=True)")
    if isinstance(states, (list, tuple)):
        total = len(states)
    source = iter(states)
    workers = max(1, threads)
    if batch is None:
        if workers == 1 and deadline is None and total is not None:
            batch = max(1, total)       # one kernel call: a stop reaches it all the same
        else:
            batch = max(1, min(64, (total or 64 * workers * 8) // (workers * 8)))
    results: list = []
    lock = threading.Lock()
    shared = {"next": 0, "stop": False, "closed": False, "done": 0, "exhausted": False, "active": 0}
    mine: list = []      # this call's searchers, for its stop
    main = threading.current_thread() is threading.main_thread()

    def take() -> Optional[tuple[int, list]]:
        with lock:
            if _closing:                  # the interpreter is exiting
                shared["stop"] = shared["closed"] = True
            if shared["stop"] or shared["exhausted"]:
                return None
            if deadline is not None and time.monotonic() >= deadline and shared["next"]:
                shared["stop"] = True
                return None
            chunk = list(itertools.islice(source, batch))
            if len(chunk) < batch:
                shared["exhausted"] = True
            if not chunk:
                return None
            first = shared["next"]
            shared["next"] += len(chunk)
            results.extend([None] * len(chunk))
            return first, chunk

    def work(signals: bool, bar: Any) -> None:
        with borrow_searcher(tt_mb, family) as s:
            with lock:
                if shared["stop"]:
                    return
                mine.append(s)
                shared["active"] += 1
            with _lock:         # so that a cancelled time box reaches this search
                for b in boxes:
                    b.searchers.add(s)
            try:
                search(s, signals, bar)
            finally:
                with _lock:
                    for b in boxes:
                        b.searchers.discard(s)
                with lock:
                    shared["active"] -= 1

    def call(s: Any, part: list, limit: float, signals: bool) -> list:
        if family:
            return s.search_many(part, want, nodes, limit, signals, objective, depth, search_threads)
        return s.search_many(part, want, nodes, limit, signals)

    def paced(s: Any, chunk: list, signals: bool) -> list:
        """A deadline's chunk, one state a kernel call (a call costs microseconds): a call gives
        each of its states the time left when that state starts, so one call of slow states
        would run past the deadline by all but one state's time. The states left once the
        deadline has passed are not searched (no result); a chunk begun past it (the first,
        which always runs) is one call."""
        out: list = []
        for state in chunk:
            left = deadline - time.monotonic()
            limit = max(1e-6, left) if not seconds else min(seconds, max(1e-6, left))
            if left <= 0:
                return out if out else call(s, chunk, limit, signals)
            out += call(s, [state], limit, signals)
            if out[-1].stop == 2:
                break
        return out

    def search(s: Any, signals: bool, bar: Any) -> None:
        while True:
            job = take()
            if job is None:
                return
            first, chunk = job
            try:    # an interrupted batch raises (the kernel never returns a stop-3 result)
                if deepen:
                    raws = [_deepen(s, state, want, nodes, seconds, deadline, signals, objective, depth,
                                    search_threads)
                            for state in chunk]
                elif deadline is not None:
                    raws = paced(s, chunk, signals)
                else:
                    raws = call(s, chunk, seconds, signals)
            except KeyboardInterrupt:
                raise SearchInterrupted from None
            with lock:
                results[first:first + len(raws)] = raws
                shared["done"] += len(raws)
                if shared["stop"]:
                    return
            if bar is not None:
                bar.update(len(raws))

    if workers == 1:
        try:
            work(main, progress)
        except KeyboardInterrupt:
            raise SearchInterrupted from None
        if shared["closed"]:
            raise SearchInterrupted
        return results
    futures: list = []
    shown = 0
    try:
        pool = _executor()
        with _sigint_held():
            for _ in range(workers):
                futures.append(pool.submit(work, False, None))
        while True:
            done, pending = wait(futures, timeout=0.05)
            if progress is not None and shared["done"] > shown:
                progress.update(shared["done"] - shown)
                shown = shared["done"]
            if not pending:
                break
            if _closing:
                raise SearchInterrupted
        for f in futures:
            f.result()
        if shared["closed"]:
            raise SearchInterrupted
    except BaseException:
        # Stop every worker of this call, also one whose future Ctrl-C kept from `futures` (an
        # interrupted submit) and one that has just started a batch (which clears its stop
        # flag): repeat the request until no worker is searching. A worker that starts later
        # sees the stop and returns at once; a queued one is cancelled.
        with lock:
            shared["stop"] = True
        for f in futures:
            f.cancel()
        while True:
            with lock:
                if not shared["active"]:
                    break
                for s in mine:
                    s.request_stop()
            time.sleep(0.005)
        raise
    return results
