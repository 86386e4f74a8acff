"""Suggested plays from a player's view: determinization (perfect-information Monte Carlo).

`suggest` solves every world consistent with a `View` exactly (when there are few enough) or a
uniform sample of them, and reports, for each legal move, its mean exact value over the worlds
with its spread: standard deviation, standard error, the share of worlds where the move is
optimal and the share where the round margin after it is positive.

Averaging perfect-information values has a known weakness, *strategy fusion*: each world's value
assumes that the player will know the hidden cards from the next move on, so a move that is
good only if one later guesses right looks better than it is. The figures are therefore the value
of the move for a clairvoyant continuation, an optimistic estimate of what a real player gets.

>>> from scopa_solver import View
>>> view = View.from_string("?/7sCs 5dAc6b 2dFd2c4c3sFsRsAb2b4bRb/Ad4dCdRd5c6c7cCcRc4s5s6s3b5b7bFbCb ?6 0/1 1 1 1")
>>> s = suggest(view, progress=False)
>>> s.exact, s.worlds, str(s.best)
(True, 140, '7sxAc+6b')
>>> [(str(m.move), round(m.mean, 3), m.optimal, m.positive) for m in s.moves]  # doctest: +ELLIPSIS
[('7sxAc+6b', 3.757, 0.957..., 0.885...), ('Cs', 3.271, 0.721..., 0.857...)]
"""
from __future__ import annotations

import math
import random
import sys
import threading
import time
from concurrent.futures import wait
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import numpy as np

from .errors import ViewError
from .position import Move, Position
from .solver import _WANT_ALL, borrow_searcher, clear_tables, executor, worker_count
from .view import View

__all__ = ["suggest", "Suggestion", "MoveStats", "solve_worlds", "clear_tables", "DEFAULT_SAMPLES",
           "EXACT_LIMIT"]

DEFAULT_SAMPLES = 1000
"""Worlds sampled by default when there are too many to enumerate."""

EXACT_LIMIT = 2000
"""`suggest` enumerates every world when there are at most this many (the start of the
last-but-one deal has at most 84 x 20 = 1,680)."""

_ALL_LIMIT = 10_000_000
_FIRST_CHUNK = 32


@dataclass(frozen=True)
class MoveStats:
    """One legal move's figures over the solved worlds (values are round margins for the player).

    `stderr` is the standard error of `mean` (0 when every world was solved: the mean is then
    exact); `delta` is ``mean`` minus the best move's mean and `delta_stderr` its paired standard
    error (the same worlds judge both moves); `optimal` is the share of worlds where the move is
    optimal, `positive` the share where the margin is positive."""

    move: Move
    mean: float
    std: float
    stderr: float
    optimal: float
    positive: float
    worlds: int
    min: int
    max: int
    delta: float
    delta_stderr: float

    def __str__(self) -> str:
        return (f"{str(self.move):<12} {self.mean:+7.3f} {self.std:6.2f} {self.stderr:7.3f} "
                f"{100 * self.optimal:7.1f}% {100 * self.positive:7.1f}%")


@dataclass
class Suggestion:
    """The outcome of `suggest`: a row per legal move, best first."""

    view: View
    moves: list[MoveStats]
    exact: bool                 # every world consistent with the view was solved
    worlds: int                 # worlds solved (the figures' base)
    total_worlds: int           # worlds consistent with the view
    seed: Optional[int]         # the seed that drew the worlds (None when enumerated in order)
    seconds: float
    nodes: int
    stopped: Optional[str] = None   # "time" (time_limit) or "confidence" when a run stopped early
    values: Optional[np.ndarray] = field(default=None, repr=False)  # worlds x moves, as `moves`

    @property
    def best(self) -> Move:
        """The move with the highest mean value."""
        return self.moves[0].move

    @property
    def best_stats(self) -> MoveStats:
        return self.moves[0]

    def __str__(self) -> str:
        head = f"{'move':<12} {'mean':>7} {'std':>6} {'stderr':>7} {'optimal':>8} {'margin>0':>8}"
        kind = "all worlds, exact" if self.exact else "sampled"
        tail = (f"{self.worlds:,} of {self.total_worlds:,} worlds ({kind}), {self.nodes:,} nodes, "
                f"{self.seconds:.2f} s" + {None: "", "time": ", stopped by the time limit",
                   "confidence": ", stopped once the best move was clear"}.get(self.stopped, ""))
        return "\n".join([head] + [str(m) for m in self.moves] + [tail])


# -- progress bars ------------------------------------------------------------------------------

class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, s: str) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, desc: str, progress: Optional[bool], unit: str = "it") -> Any:
    """A tqdm bar: shown on a terminal after a second (progress=None), always (True) or never
    (False); a do-nothing bar without tqdm."""
    if progress is False:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return _NoBar()
    if progress is None:
        stream = sys.stderr
        if not (hasattr(stream, "isatty") and stream.isatty()):
            return _NoBar()
        return tqdm(total=total, desc=desc, unit=unit, delay=1.0, leave=False)
    return tqdm(total=total, desc=desc, unit=unit, leave=False)


# -- solving many worlds --------------------------------------------------------------------------

def solve_worlds(tuples: list[tuple], *, threads: Optional[int] = None, time_limit: Optional[float] = None,
                 progress: Any = None, tt_mb: Optional[float] = None) -> list[Optional[dict]]:
    """Every root move's exact value in each kernel position of `tuples` (raw kernel results;
    None for a position left unsolved when `time_limit` ran out). Batches go to `threads`
    workers, each with its own transposition table, the GIL released while they search."""
    n = len(tuples)
    results: list[Optional[dict]] = [None] * n
    if not n:
        return results
    workers = worker_count(threads, n)
    size = max(1, min(64 if time_limit is None else 8, n // (workers * 8)))
    batches = [range(i, min(i + size, n)) for i in range(0, n, size)]
    deadline = time.monotonic() + time_limit if time_limit else None
    lock = threading.Lock()
    state = {"next": 0, "stop": False, "done": 0}
    searchers: list = []
    bar = progress if progress is not None else _NoBar()

    def work(main: bool, report: bool) -> None:
        with borrow_searcher(tt_mb) as s:
            with lock:
                searchers.append(s)
            solve_batches(s, main, report)

    def solve_batches(s: Any, main: bool, report: bool) -> None:
        first = True    # each worker solves its first batch whatever the time: a result is due
        while True:
            with lock:
                if state["stop"] or state["next"] >= len(batches):
                    return
                left = 0.0
                if deadline is not None and not first:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        state["stop"] = True
                        return
                first = False
                batch = batches[state["next"]]
                state["next"] += 1
            raws = s.search_many([tuples[i] for i in batch], _WANT_ALL, 0, left, main)
            for i, raw in zip(batch, raws):
                if raw.stop == 0:
                    results[i] = raw
            with lock:
                state["done"] += len(batch)
            if report:
                bar.update(len(batch))

    if workers == 1:
        work(threading.current_thread() is threading.main_thread(), True)
        return results
    futures = [executor(workers).submit(work, False, False) for _ in range(workers)]
    shown = 0
    try:
        while True:
            finished, pending = wait(futures, timeout=0.1)
            done = state["done"]
            if done > shown:
                bar.update(done - shown)
                shown = done
            if not pending:
                break
    except KeyboardInterrupt:
        with lock:
            state["stop"] = True
            for s in searchers:
                s.request_stop()
        wait(futures)
        raise
    for f in futures:
        try:
            f.result()
        except KeyboardInterrupt:  # pragma: no cover - a stop requested above
            pass
    return results


# -- suggest --------------------------------------------------------------------------------------

def _plan(view: View, worlds: Union[None, int, str]) -> tuple[bool, int]:
    total = view.count_worlds()
    if worlds is None:
        return (True, total) if total <= EXACT_LIMIT else (False, DEFAULT_SAMPLES)
    if worlds == "all":
        if total > _ALL_LIMIT:
            raise ValueError(f"worlds='all' would solve {total:,} worlds; ask for a sample instead")
        return True, total
    if not isinstance(worlds, int) or isinstance(worlds, bool) or worlds < 1:
        raise ValueError(f"worlds must be a positive number of worlds, 'all' or None, not {worlds!r}")
    return (True, total) if total <= worlds else (False, worlds)


def suggest(view: View, *, worlds: Union[None, int, str] = None, seed: Optional[int] = None,
            time_limit: Optional[float] = None, threads: Optional[int] = None,
            progress: Optional[bool] = None, tt_mb: Optional[float] = None,
            confidence: Optional[float] = None) -> Suggestion:
    """Every legal move of the view's player with its exact value averaged over the worlds.

    `worlds`: None enumerates every world when there are at most `EXACT_LIMIT` of them and
    otherwise samples `DEFAULT_SAMPLES`; a number N enumerates when there are at most N worlds
    and otherwise samples N (uniformly, with replacement); ``"all"`` always enumerates. The same
    `seed` draws the same worlds, hence gives the same answer, on every machine (None: a fresh
    seed, reported in `Suggestion.seed`). `time_limit` (seconds) stops early and reports the
    worlds solved by then (a uniform subset; `exact` is then False). `threads`: workers (None or
    0: every core). `progress`: a progress bar (None: on a terminal, for runs over a second).
    `confidence` (sampling only): solve 32 worlds, then double, and stop as soon as the best
    move leads every other by more than `confidence` paired standard errors (then `stopped` is
    "confidence" and `worlds` tells how many were solved; `worlds` is the most that are solved).

    >>> view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    >>> s = suggest(view, progress=False)
    >>> s.exact, s.worlds, s.total_worlds, [str(m.move) for m in s.moves]
    (True, 1680, 1680, ['FbxFd', '6d', 'RsxRc'])
    >>> print(s)  # doctest: +ELLIPSIS
    move            mean    std  stderr  optimal margin>0
    FbxFd         -2.418   0.80   0.000   100.0%     0.0%
    6d            -2.554   0.74   0.000    88.4%     0.0%
    RsxRc         -3.099   0.91   0.000    45.5%     0.0%
    1,680 of 1,680 worlds (all worlds, exact), ... nodes, ... s
    """
    if not isinstance(view, View):
        if isinstance(view, Position):
            raise TypeError("suggest takes a View: what one player knows (position.view(player))")
        raise TypeError(f"expected a View, not {type(view).__name__}")
    if view.is_round_over():
        raise ViewError("the round is over: there is no move to suggest")
    if view.to_move != view.player:
        raise ViewError(f"player {view.to_move} is to move, not player {view.player}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if confidence is not None and not confidence > 0:
        raise ValueError(f"confidence must be a positive number of standard errors, not {confidence!r}")
    start = time.perf_counter()
    exact, count = _plan(view, worlds)
    moves = view.legal_moves()
    if exact:
        groups = list(view._enumerate_groups())
        if time_limit is not None:  # a cut run then solves a uniform subset, not a prefix
            if seed is None:
                seed = random.SystemRandom().getrandbits(63)
            random.Random(seed).shuffle(groups)
        else:
            seed = None
    else:
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        groups = list(view._sample_groups(count, seed))
    tuples = [view._tuple(g) for g in groups]
    bar = progress_bar(len(tuples), "worlds", progress, unit="world")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    raws: list[Optional[dict]] = []
    reason = None
    try:
        while True:
            if confidence is None or exact:
                chunk = len(tuples) - len(raws)
            else:
                chunk = max(_FIRST_CHUNK, len(raws))   # 32, then doubling the worlds solved
            part = tuples[len(raws):len(raws) + chunk]
            left = None if deadline is None else max(1e-9, deadline - time.monotonic())
            raws += solve_worlds(part, threads=threads, time_limit=left, progress=bar, tt_mb=tt_mb)
            if len(raws) >= len(tuples) or any(r is None for r in raws[-len(part):]):
                break
            if deadline is not None and time.monotonic() >= deadline:
                reason = "time"
                break
            if _confident(moves, raws, confidence):  # type: ignore[arg-type]
                reason = "confidence"
                break
    finally:
        bar.close()
    result = _summarize(view, moves, raws, exact and len(raws) == len(tuples), seed, start)
    result.stopped = result.stopped or reason
    return result


def _values(moves: list[Move], solved: list) -> tuple[np.ndarray, int]:
    """The worlds x moves matrix of exact values (columns in the order of `moves`), and nodes."""
    column = {m.packed: j for j, m in enumerate(moves)}
    values = np.empty((len(solved), len(moves)), dtype=np.int32)
    nodes = 0
    for r, raw in enumerate(solved):
        nodes += raw.nodes
        row = values[r]
        for packed, (lower, upper) in zip(raw.moves, raw.move_bounds):
            row[column[packed]] = lower
    return values, nodes


def _confident(moves: list[Move], raws: list, z: float) -> bool:
    """Does the best move lead every other by more than `z` paired standard errors?"""
    if len(moves) < 2:
        return True
    values, _ = _values(moves, [r for r in raws if r is not None])
    k = values.shape[0]
    means = values.mean(axis=0)
    best = int(np.argmax(means))
    for j in range(len(moves)):
        if j == best:
            continue
        diff = values[:, best] - values[:, j]
        lead = float(diff.mean())
        se = float(diff.std(ddof=1) / math.sqrt(k)) if k > 1 else math.inf
        if lead <= z * se and not (se == 0.0 and lead > 0):
            return False
    return True


def _summarize(view: View, moves: list[Move], raws: list, exact: bool, seed: Optional[int],
               start: float) -> Suggestion:
    solved = [raw for raw in raws if raw is not None]
    if not solved:
        raise RuntimeError("the time limit ran out before a single world was solved")
    values, nodes = _values(moves, solved)
    complete = exact and len(solved) == len(raws)
    stats = _aggregate(moves, values, complete)
    order = sorted(range(len(moves)), key=lambda j: (-stats[j][0], -stats[j][3], str(moves[j])))
    best = order[0]
    k = len(solved)
    rows = []
    for j in order:
        mean, std, stderr, optimal, positive = stats[j]
        diff = values[:, j] - values[:, best]
        dse = 0.0 if complete or k < 2 else float(diff.std(ddof=1) / math.sqrt(k))
        rows.append(MoveStats(move=moves[j], mean=mean, std=std, stderr=stderr, optimal=optimal,
                              positive=positive, worlds=k, min=int(values[:, j].min()),
                              max=int(values[:, j].max()), delta=float(mean - stats[best][0]),
                              delta_stderr=dse))
    return Suggestion(view=view, moves=rows, exact=complete, worlds=k, total_worlds=view.count_worlds(),
                      seed=seed, seconds=time.perf_counter() - start, nodes=nodes,
                      stopped="time" if len(solved) < len(raws) else None,
                      values=values[:, order])


def _aggregate(moves: list[Move], values: np.ndarray, complete: bool) -> list[tuple]:
    k = values.shape[0]
    best = values.max(axis=1)
    out = []
    for j in range(len(moves)):
        col = values[:, j]
        std = float(col.std())
        stderr = 0.0 if complete else (float(col.std(ddof=1) / math.sqrt(k)) if k > 1 else math.inf)
        out.append((float(col.mean()), std, stderr, float((col == best).mean()), float((col > 0).mean())))
    return out
