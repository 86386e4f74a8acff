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

import itertools
import math
import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Union

from .. import kernel
from ..core.flow import check_seed
from ..core.position import Move, Position
from ..errors import LimitError, MatchError, ViewError, excerpt
from ..kernel import NO_LIMIT, Limit, StopReason
from ..kernel.timebox import open_boxes, raise_if_cancelled
from ..progress import progress_bar
from ..text import plural
from ..core.view import MAX_SAMPLES, View
from ..search.match import Match, leaf_table, match_text

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["suggest", "Suggestion", "MoveStats", "solve_worlds", "value_matrix", "DEFAULT_SAMPLES",
           "EXACT_LIMIT", "WORLD_NODES", "SUGGEST_SECONDS"]

SUGGEST_SECONDS = 10.0
"""`suggest`'s default time limit, in seconds: a wait a player accepts for advice. A two-player
suggestion finishes within it (1,000 worlds of a first play: 1 to 4 s on 2 cores); a family
deal's 1,000 worlds (85 s of CPU in scientifico) are cut to the worlds solved by then."""

DEFAULT_SAMPLES = 1000
"""Worlds sampled by default when there are too many to enumerate."""

EXACT_LIMIT = 2000
"""`suggest` enumerates every world when there are at most this many (the start of the
last-but-one deal has at most 84 x 20 = 1,680)."""

WORLD_NODES = 1_000_000
"""The node budget of one world's search (the default of `suggest`'s `Limit.nodes`; two-player worlds, at
most tens of thousands of nodes, are all exact). The first world is searched to a horizon, deeper and
deeper (4, 8, 12, ... plies), until the search is exact or the budget is spent, on a fresh
table so that the depth reached is the same on every run; every world is then searched to that
horizon (exact if the first was).
Measured (docs/imperfect.md, 50 worlds, 2 threads): a first-play
scientifico or Scopone world is scored at a horizon of 8 plies (about 1 s for the 50), a
4-player partnership world is mostly exact, a 3- or 6-player one at 24 to 32 plies, and from 5
cards a hand on every scientifico world is exact (0.8 s). Raise it for deeper, slower worlds."""

_WORLD_SAFETY = 20     # a world may take this many times the budget at the probe's horizon
_PROBE_TT_MB = 16.0    # the probe's own fresh table: its node counts, hence its horizon, reproducible
_PROBE_EXACT_NODES = 50_000     # the probe first tries the world exactly, with no time limit (a
                                # two-player world, or a late one: a few ms; else 5-10 ms lost, measured)
_EXACT_TRY_TT_MB = 0.25         # its table (16 MiB took 1-4 ms to allocate: a small suggest's time)

_FIRST_CHUNK = 32
MATCH_HALF = 5000       # a match value of an even chance (1/10,000ths): `positive` counts those above
_SHUFFLE_LIMIT = 1_000_000


@dataclass(frozen=True)
class MoveStats:
    """One legal move's figures over the solved worlds (values are round margins for the player).

    `stderr` is the standard error of `mean` (0 when every world was solved: the mean is then
    exact); `delta` is ``mean`` minus the best move's mean and `delta_stderr` its paired standard
    error (the same worlds judge both moves); `optimal` is the share of worlds where the move is
    optimal, `positive` the share where the margin is positive. Under a `Match` (`objective`
    "match") every value is the chance to win the match in 1/10,000ths (`match_text`) and
    `positive` the share of worlds where that chance is over one half."""

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
    objective: str = "value"    # "match": the values are chances to win the match, 1/10,000ths

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready; an unknown standard error, from a single world, is None)."""
        return {"move": str(self.move), "mean": self.mean, "std": self.std, "stderr": _finite(self.stderr),
                "optimal": self.optimal, "positive": self.positive, "worlds": self.worlds, "min": self.min,
                "max": self.max, "delta": self.delta, "delta_stderr": _finite(self.delta_stderr)}

    def __str__(self) -> str:
        if self.objective == "match":       # chances in 1/10,000ths, shown as percents
            return (f"{str(self.move):<12} {self.mean / 100:6.2f}% {self.std / 100:5.2f}% {self.stderr / 100:6.2f}% "
                    f"{100 * self.optimal:7.1f}% {100 * self.positive:7.1f}%")
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
    stopped: Optional[str] = None   # "time" (the limit's time) or "confidence" when a run stopped early
    values: Optional["np.ndarray"] = field(default=None, repr=False)  # worlds x moves, as `moves`
    exact_worlds: Optional[int] = None  # worlds searched to the end of the round (the rest: to a horizon)
    horizon: Optional[int] = None       # the shallowest horizon (plies) of a world not searched exactly
    world_horizons: Optional[list[Any]] = field(default=None, repr=False)  # per row of `values`: None (exact) or plies
    sampled: bool = True                # the worlds are a sample drawn with `seed` (else every world, listed)
    horizon_cut: bool = False           # the time limit stopped the first world's deepening (a rerun may go deeper)
    match: Optional[Match] = None       # the Match searched under (values: chances, 1/10,000ths), else None

    @property
    def objective(self) -> str:
        """"value" (round margins) or "match" (chances to win the match, 1/10,000ths)."""
        return "value" if self.match is None else "match"

    @property
    def best(self) -> Move:
        """The move with the highest mean value."""
        return self.moves[0].move

    @property
    def best_stats(self) -> MoveStats:
        return self.moves[0]

    @property
    def ties(self) -> str:
        """How moves of the best fair mean were ordered, and which the sample cannot tell from the
        best, in words ('' when the best stands alone): equal means by the share of worlds where
        each move is optimal, then by name."""
        return fair_ties(self.moves, self.exact)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the view, a row per move, how the worlds were solved."""
        return {"view": self.view.to_string(), "best": str(self.best), "moves": [m.to_dict() for m in self.moves],
                "exact": self.exact, "worlds": self.worlds, "total_worlds": self.total_worlds,
                "seed": self.seed, "seconds": self.seconds, "nodes": self.nodes, "stopped": self.stopped,
                "exact_worlds": self.exact_worlds, "horizon": self.horizon, "ties": self.ties,
                "objective": self.objective,
                "match": None if self.match is None else {"score": list(self.match.score), "target": self.match.target},
                "best_text": match_text(round(self.moves[0].mean)) if self.match is not None else None}

    def __str__(self) -> str:
        head = (f"{'move':<12} {'mean':>7} {'std':>6} {'stderr':>7} {'optimal':>8} {'margin>0':>8}"
                if self.match is None else
                f"{'move':<12} {'win %':>7} {'std':>6} {'stderr':>7} {'optimal':>8} {'over 50%':>8}")
        kind = "all worlds, exact" if self.exact else "sampled"
        if self.horizon is not None:
            kind = ("all worlds" if self.worlds == self.total_worlds else "sampled") + \
                f"; {self.exact_worlds:,} exact, the rest to a horizon of {self.horizon}+ plies"
        tail = (f"{self.worlds:,} of {plural(self.total_worlds, 'world')} ({kind}), {plural(self.nodes, 'node')}, "
                f"{self.seconds:.2f} s" + {None: "", "time": ", stopped by the time limit",
                   "confidence": ", stopped once the best move was clear"}.get(self.stopped, ""))
        if self.match is not None:
            tail += f"; the best: {match_text(round(self.moves[0].mean))} from {self.match!r}"
        return "\n".join([head] + [str(m) for m in self.moves] + [tail])


def fair_ties(rows: list[MoveStats], exact: bool) -> str:
    """`Suggestion.ties` of rows in `suggest`'s order (best first)."""
    if len(rows) < 2:
        return ""
    best = rows[0]
    tied = [m for m in rows if abs(m.mean - best.mean) < 1e-9]
    parts = []
    if len(tied) > 1:
        shares = ", ".join(f"{m.move} {100 * m.optimal:.1f}%" for m in tied)
        parts.append(f"{len(tied)} moves share the best fair mean {best.mean:+.3f}; ordered by the share of "
                     f"worlds where each is optimal, more first ({shares})")
        same = [str(m.move) for m in tied if abs(m.optimal - tied[0].optimal) < 1e-12]
        if len(same) > 1:
            parts.append(f"{' and '.join(same)} are equal on that too (listed by name): any of them")
    if not exact:
        close = [m for m in rows if m not in tied and math.isfinite(m.delta_stderr) and m.delta_stderr > 0
                 and -m.delta <= m.delta_stderr]
        if close:
            parts.append("within one standard error of the best, which the worlds drawn do not tell apart: " +
                         ", ".join(f"{m.move} ({m.delta:+.3f} ± {m.delta_stderr:.3f})" for m in close))
    return "; ".join(parts)


def _finite(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


# -- solving many worlds --------------------------------------------------------------------------

def _kept(states: Iterable[kernel.KernelState], drawn: list[kernel.KernelState]) -> Iterator[kernel.KernelState]:
    """`states`, each added to `drawn` as it is drawn."""
    for state in states:
        drawn.append(state)
        yield state


def solve_worlds(states: Iterable[kernel.KernelState], limit: Optional[Limit] = None, *, progress: Any = None,
                 total: Optional[int] = None, deepen: bool = False, objective: Any = "value",
                 anytime: bool = False) -> list[Optional[kernel.KernelResult]]:
    """Every root move's exact value in each world (kernel states; a lazy iterator is drawn from
    only as the workers get to it): the kernel's results in order, None for a world the time
    left unsolved. Runs on the kernel face's one scheduler. Values: the margin of the mover's
    side with two sides, the paranoid value with more.

    The `limit` (None: none): `threads` workers (None: every core, unlike a `solve`);
    `time` (seconds from now) and `deadline` bound the whole run (the worlds unsolved by then
    are None); `nodes` bounds each world: a world it cuts is a `LimitError` naming the budget,
    or with `anytime` is searched again, deepened from `kernel.DEEPEN_STEP` plies within the
    same budget: its deepest complete horizon (`KernelResult.horizon` says which);
    `horizon`, `deepen`: each world searched to that horizon, or deepened from it towards
    exact within its budget (see `kernel.run_batch`; `KernelResult.horizon` says where each
    world's search stopped); `tt_mb` each worker's table.
    Without a time or deadline every world is needed: a decision's `kernel.time_budget` that
    cuts one is `kernel.BudgetSpent`. `objective`: "value", or a list of match leaf tables
    (`search.match.leaf_table`), one per state (the values are then chances, 1/10,000ths)."""
    limit = NO_LIMIT if limit is None else limit
    if isinstance(states, (list, tuple)):
        total = len(states)
    timed = limit.time is not None or limit.deadline is not None
    cores = os.cpu_count() or 1     # Limit checked `threads`: 0 is every core already
    workers = max(1, min(cores if limit.threads is None else limit.threads, total or cores))
    run = limit.replace(time=None, threads=workers).with_deadline(limit.time)
    drawn: list[kernel.KernelState] = []
    if anytime:         # the states as the workers draw them (in order), to search a cut one again
        states = _kept(states, drawn)
    raws = kernel.run_batch(states, want=kernel.WANT_ALL, limit=run, total=total,
                            batch=None if run.deadline is None else 8, progress=progress, deepen=deepen,
                            objective=objective)
    cut = [i for i, raw in enumerate(raws) if raw is not None and raw.stop == StopReason.NODES]
    if anytime and cut:
        # a world far harder than the others (rare: one deal of six alone in hundreds) is scored at
        # the deepest horizon its budget reaches, as suggest's first world is, not refused
        again = kernel.run_batch([drawn[i] for i in cut], want=kernel.WANT_ALL,
                                 limit=run.replace(horizon=kernel.DEEPEN_STEP), deepen=True,
                                 objective=[objective[i] for i in cut] if isinstance(objective, list) else objective)
        for i, raw in zip(cut, again):
            raws[i] = raw
    if any(raw is not None and raw.stop == StopReason.NODES for raw in raws):
        how = f"to a horizon of {plural(limit.horizon, 'ply', 'plies')}" if limit.horizon else "of exact search"
        raise LimitError(f"a world needs more than nodes={limit.nodes:,} nodes {how}: too many cards "
                         "are still in play (raise the limit's nodes, or ask again later in the round)")
    out = [raw if raw is not None and raw.stop == StopReason.NONE else None for raw in raws]
    if not timed and (any(raw is None for raw in out) or (total is not None and len(out) < total)):
        raise kernel.BudgetSpent
    return out


# -- suggest --------------------------------------------------------------------------------------

def _plan(view: View, worlds: Union[None, int, str]) -> tuple[bool, int]:
    total = view.count_worlds()
    if worlds is None:
        return (True, total) if total <= EXACT_LIMIT else (False, DEFAULT_SAMPLES)
    if worlds == "all":
        if total > MAX_SAMPLES:
            raise LimitError(f"worlds='all' would solve {total:,} worlds (at most {MAX_SAMPLES:,} a call); "
                             "ask for a sample instead")
        return True, total
    if not isinstance(worlds, int) or isinstance(worlds, bool) or worlds < 1:
        raise LimitError(f"worlds must be a positive number of worlds, 'all' or None, not {excerpt(worlds)}")
    if worlds > MAX_SAMPLES:
        raise LimitError(f"worlds={excerpt(worlds)} is more than one call solves (at most {MAX_SAMPLES:,})")
    return (True, total) if total <= worlds else (False, worlds)


def suggest(view: View, limit: Optional[Limit] = None, *, worlds: Union[None, int, str] = None,
            seed: Optional[int] = None, confidence: Optional[float] = None,
            progress: Optional[bool] = None, objective: Union[str, Match] = "value") -> Suggestion:
    """Every legal move of the view's player with its exact value averaged over the worlds.

    `worlds`: None enumerates every world when there are at most `EXACT_LIMIT` of them and
    otherwise samples `DEFAULT_SAMPLES`; a number N enumerates when there are at most N worlds
    and otherwise samples N (uniformly, with replacement); ``"all"`` always enumerates. The same
    `seed` draws the same worlds, hence gives the same answer, on every machine (None: a fresh
    seed, reported in `Suggestion.seed`).

    `limit` (None: `Limit(time=SUGGEST_SECONDS)`; a `Limit` given is taken as it is, so
    `Limit()` has no time limit): its `time` (seconds) or `deadline` stops early and reports the first worlds of the seed's order solved by then (a uniform
    subset; `exact` is then False, `stopped` "time"), at least the first world at the horizon its
    deepening completed; so does a bot's decision budget it runs in (`kernel.time_budget`).
    Its `threads`: workers
    (None or 0: every core); `tt_mb`: each worker's table; `nodes`: one world's node budget
    (None: `WORLD_NODES`); `horizon`: the first horizon (below). `progress`: a progress bar (None: on a terminal, for runs over a second).
    `confidence` (sampling only): solve 32 worlds, then double, and stop as soon as the best
    move leads every other by more than `confidence` paired standard errors (then `stopped` is
    "confidence" and `worlds` tells how many were solved; `worlds` is the most that are solved).

    Every game of the family (docs/FAMILY.md) is suggested the same way, each world a
    `KernelState`, its value the margin of the player's side with
    two sides (partnerships, Scopone, scientifico) and the paranoid value (own side's points
    minus the best other side's) with three or more. Where a world cannot be solved exactly
    within the limit's `nodes` (the node budget of one world, default `WORLD_NODES`) it is searched to
    a horizon and scored there by the kernel's static evaluation (docs/family.md): the first world is deepened from the
    limit's `horizon` plies (default 4)
    by 4 at a time until exact or the budget is spent, and every world is then searched to the
    horizon it reached (a fixed horizon gives the same values whatever the tables hold, so the
    same seed still gives the same answer). `Suggestion.exact_worlds` counts the worlds solved
    exactly (the round ends before the horizon) and `Suggestion.horizon` is the horizon of the
    others. A first world whose first horizon does not fit the budget is a `LimitError`; a later
    world that does not fit the first's horizon within 20 times the budget (a deal far harder
    than the first's) is deepened on its own within that budget, to the horizon it reaches
    (`Suggestion.world_horizons`), not refused.

    `objective`: "value" (the round margin, above) or a `Match` (where the match stands: the
    sides' match points before this round): each world is then searched under the match
    objective (its own leaf table, `search.match.leaf_table`), every value is the chance that the
    player's side wins the match in 1/10,000ths, and a move's mean is its mean chance over the
    worlds (`Suggestion.match`; the text reads as `match_text`: "62.35% to win the match").
    Anything else is a `MatchError`.

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
    if not (isinstance(objective, Match) or objective == "value"):
        raise MatchError(f"suggest's objective must be 'value' or a Match, not {excerpt(objective)}")
    match = objective if isinstance(objective, Match) else None
    tables = None if match is None else _WorldTables(view, match)
    limit = Limit(time=SUGGEST_SECONDS) if limit is None else limit
    # a decision's budget (a bot's) ends the run too: the worlds solved by then answer
    deadline = kernel.budget_deadline(None if limit.time is None and limit.deadline is None
                                      else limit.end(time.monotonic()))
    if confidence is not None and not (isinstance(confidence, (int, float)) and confidence > 0):
        raise LimitError(f"confidence must be a positive number of standard errors, not {excerpt(confidence)}")
    seed = check_seed(seed)
    max_nodes = WORLD_NODES if limit.nodes is None else limit.nodes
    start = time.perf_counter()
    exact, count = _plan(view, worlds)
    moves = view.legal_moves()
    if exact and deadline is not None:      # a cut run then solves a uniform subset, not a prefix
        if count > _SHUFFLE_LIMIT:
            raise LimitError(f"a time limit over {count:,} enumerated worlds: ask for a sample instead "
                             f"(at most {_SHUFFLE_LIMIT:,} are shuffled), or for no time limit (None)")
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        listed = list(view.enumerate_states())
        random.Random(seed).shuffle(listed)
        states: Any = iter(listed)
    elif exact:
        seed = None
        states = view.enumerate_states()
    else:
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        states = view.sample_states(count, seed)      # lazy: drawn as the workers get to them
    first = next(states)
    depth, solved, fallback, cut = _probe_horizon(first, max_nodes, limit.horizon, deadline,
                                                  "value" if tables is None else tables(first))
    if solved is None:
        states = itertools.chain([first], states)
    # every world: a node budget with room to spare at the probe's horizon, the time left
    world_limit = Limit(nodes=max_nodes * _WORLD_SAFETY, horizon=depth, tt_mb=limit.tt_mb, threads=limit.threads)
    bar = progress_bar(count, "worlds", progress, unit="world", deadline=deadline)
    raws: list[Any] = [] if solved is None else [solved]     # the probe's exact search is the first world's
    bar.update(len(raws))
    reason = None
    try:
        while len(raws) < count:
            # with a confidence: 32 worlds (the probe's among them), then twice as many each time
            chunk = (count - len(raws) if confidence is None or exact
                     else max(_FIRST_CHUNK - len(raws), len(raws)))
            chunk = min(chunk, count - len(raws))
            if tables is None:
                part = solve_worlds(itertools.islice(states, chunk), world_limit.replace(deadline=deadline),
                                    progress=bar, total=chunk, anytime=True)
            else:       # each world its leaf table (most share one: kept by leaf_table)
                listed_part = list(itertools.islice(states, chunk))
                part = solve_worlds(listed_part, world_limit.replace(deadline=deadline), progress=bar,
                                    objective=[tables(s) for s in listed_part], anytime=True)
            raws += part
            if len(part) < chunk or any(r is None for r in part):
                reason = "time"
                break
            if len(raws) >= count:
                break
            if deadline is not None and time.monotonic() >= deadline:
                reason = "time"
                break
            if confidence is not None and _confident(moves, raws, confidence):
                reason = "confidence"
                break
    finally:
        bar.close()
    # the answer uses the worlds solved before the first one the time limit left unsolved: the
    # first N of the seed's order, so that the same seed and N worlds give the same answer
    solved_prefix = next((i for i, raw in enumerate(raws) if raw is None), len(raws))
    if solved_prefix < len(raws):
        raws, reason = raws[:solved_prefix], "time"
    if not raws:        # anytime: the first world at the horizon its deepening completed
        raws, reason = [fallback], "time"
    complete = exact and len(raws) == count
    result = _summarize(view, moves, raws, complete, None if complete else seed, start, count,
                        "value" if match is None else "match")
    result.stopped = result.stopped or reason
    result.match = match
    result.sampled, result.horizon_cut = not exact, cut
    return result


class _WorldTables:
    """A world's leaf table under `match` (its kernel state -> `leaf_table` of its Position)."""

    def __init__(self, view: View, match: Match) -> None:
        self.view, self.match = view, match

    def __call__(self, state: kernel.KernelState) -> Any:
        return leaf_table(self.view.world_position(state), self.match)


def _probe_horizon(state: kernel.KernelState, max_nodes: int, first: Optional[int],
                   deadline: Optional[float], objective: Any = "value") -> tuple[int, Any, Any, bool]:
    """The horizon for every world of a view: the first world deepened from `first` plies (by
    `kernel.DEEPEN_STEP`) until exact (0) or `max_nodes` (for all its searches) is spent, on a
    fresh table of its own, so that the same world always reaches the same horizon. With no
    `first`, it is tried exactly first, within `_PROBE_EXACT_NODES` (besides `max_nodes`) and no
    time limit, on a small table: a two-player world or a late one is exact at once, and so are
    all the worlds. The first horizon is searched whatever the time limit (within `max_nodes`):
    an answer at some depth is always there. Returns the horizon (0: exact), that exact search's
    result (else None), which is the first world's, the first world's result at the horizon
    (the answer when the time limit leaves no other world solved), and whether the time limit
    stopped the deepening."""
    depth = first or kernel.DEEPEN_STEP         # a Limit's horizon: checked already
    signals = threading.current_thread() is threading.main_thread()
    boxes = open_boxes()
    with kernel.watching(None, boxes) as token:     # the interpreter's exit and a cancelled box stop it
        if first is None:       # exact if cheap: then every world is solved exactly, as before a deadline
            raw = kernel.new_searcher(_EXACT_TRY_TT_MB).search_many(
                [state], kernel.WANT_ALL, min(max_nodes, _PROBE_EXACT_NODES), 0.0, signals, objective, 0, 1, token)[0]
            _raise_if_stopped(raw, boxes)
            if raw.stop == StopReason.NONE:
                return 0, raw, raw, False
        searcher = kernel.new_searcher(_PROBE_TT_MB)
        used, reached, kept, cut = 0, None, None, False
        while True:
            left = 0.0 if deadline is None or reached is None else max(1e-6, deadline - time.monotonic())
            raw = searcher.search_many([state], kernel.WANT_ALL, max_nodes - used, left, signals, objective, depth,
                                       1, token)[0]
            _raise_if_stopped(raw, boxes)
            used += raw.nodes
            if raw.stop != StopReason.NONE:
                cut = raw.stop == StopReason.TIME
                break
            if raw.horizon is None:
                return 0, None, raw, False
            reached, kept = depth, raw
            depth += kernel.DEEPEN_STEP
            if used >= max_nodes:
                break
            if deadline is not None and time.monotonic() >= deadline:
                cut = True
                break
    if reached is None:
        if raw.stop == StopReason.TIME:       # only a decision's budget (kernel.time_budget) cuts the first horizon
            raise LimitError("the time limit ran out before a single world was searched: allow more time")
        raise LimitError(f"a world needs more than nodes={max_nodes:,} nodes even to a horizon of "
                         f"{depth} plies (raise the limit's nodes)")
    return reached, None, kept, cut


def _raise_if_stopped(raw: kernel.KernelResult, boxes: tuple[Any, ...]) -> None:
    """A probe search the stop token ended: a cancelled time box's error, else the
    interpreter's exit (`kernel.SearchInterrupted`)."""
    if raw.stop == StopReason.REQUEST:
        raise_if_cancelled(boxes)
        raise kernel.SearchInterrupted


def value_matrix(moves: list[Move], solved: list[Any]) -> tuple["np.ndarray", int]:
    """The worlds x moves matrix of exact values (columns in the order of `moves`) of the
    kernel's results `solved`, and their nodes."""
    import numpy as np
    column = {m.packed: j for j, m in enumerate(moves)}
    values = np.empty((len(solved), len(moves)), dtype=np.int32)
    nodes = 0
    for r, raw in enumerate(solved):
        nodes += raw.nodes
        row = values[r]
        for packed, (lower, upper) in zip(raw.moves, raw.move_bounds):
            row[column[packed]] = lower
    return values, nodes


def _confident(moves: list[Move], raws: list[Any], z: float) -> bool:
    """Does the best move lead every other by more than `z` paired standard errors?"""
    if len(moves) < 2:
        return True
    import numpy as np
    values, _ = value_matrix(moves, [r for r in raws if r is not None])
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


def _summarize(view: View, moves: list[Move], raws: list[Any], exact: bool, seed: Optional[int],
               start: float, planned: int, objective: str = "value") -> Suggestion:
    solved = [raw for raw in raws if raw is not None]
    if not solved:
        raise LimitError("the time limit ran out before a single world was solved: allow more time")
    values, nodes = value_matrix(moves, solved)
    per_world = [getattr(raw, "horizon", None) for raw in solved]
    depths = [h for h in per_world if h is not None]
    complete = exact and len(solved) == planned and not depths
    stats = _aggregate(moves, values, complete, MATCH_HALF if objective == "match" else 0)
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
                              delta_stderr=dse, objective=objective))
    return Suggestion(view=view, moves=rows, exact=complete, worlds=k, total_worlds=view.count_worlds(),
                      seed=seed, seconds=time.perf_counter() - start, nodes=nodes,
                      stopped="time" if len(solved) < len(raws) else None,
                      values=values[:, order], exact_worlds=k - len(depths),
                      horizon=min(depths) if depths else None, world_horizons=per_world)


def _aggregate(moves: list[Move], values: "np.ndarray", complete: bool, even: int = 0) -> list[tuple[Any, ...]]:
    k = values.shape[0]
    best = values.max(axis=1)
    out = []
    for j in range(len(moves)):
        col = values[:, j]
        std = float(col.std())
        stderr = 0.0 if complete else (float(col.std(ddof=1) / math.sqrt(k)) if k > 1 else math.inf)
        out.append((float(col.mean()), std, stderr, float((col == best).mean()), float((col > even).mean())))
    return out
