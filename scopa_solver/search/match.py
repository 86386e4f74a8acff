"""The match objective: search to win the match, not the round (issue 42).

`Match(score)` says where the match stands (every side's match points before this round); given
as the `objective` of `solve`, `analyze`, `analysis`, `solve_many` or `analyze_many`, the value of
a position becomes the chance that the side to move's side wins the match, in 1/10,000ths (an int
0..10000), exact where the search is exact. The kernel reads it at the round's end in a leaf
table, one entry for every combination of the sides' final round points the position can still
reach (`leaf_table`), built here from a function of those points: the `equity` a `Match` is
given (any object with an ``after_round(score, round_points, dealer, side)``), or by default the
one `set_default_equity` installed (the shipped match equity, `scopa_solver.play.equity`, which
sits above this layer and so installs itself). docs/search.md, "The match objective".

>>> Match((9, 10))
Match((9, 10))
>>> Match([9, 10], target=11).score
(9, 10)
>>> match_text(6235)
'62.35% to win the match'
"""
from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

from .. import kernel
from ..core.position import Position
from ..errors import MatchError, excerpt

__all__ = ["Match", "MatchError", "ChanceAfter", "MATCH_ONE", "leaf_table", "equity_chance", "match_text",
           "set_default_equity", "default_equity"]

MATCH_ONE = 10000        # a match value's unit: 1/10,000 of a sure win
LEAF_CELLS = 1 << 20     # the most leaf entries one position's table may need
SHARED_CELLS = 1 << 16   # a table from 0 points up to a multiple of SHARED_STEP, if no larger
SHARED_STEP = 8
MAX_TARGET = 1000

ChanceAfter = Callable[[tuple[int, ...]], float]
"""The chance (0..1) that the side to move wins the match after the round ends with the given
final round points per side (scopas included), sides in their order."""


_default_equity: Optional[Callable[[Any], Any]] = None


def set_default_equity(factory: Optional[Callable[[Any], Any]]) -> Optional[Callable[[Any], Any]]:
    """Install what a `Match` without an `equity` uses: `factory(rules)` (rules with the match's
    target) gives an object with ``after_round``; None removes it. Returns the one it replaces.
    The shipped match equity (`scopa_solver.play.equity.MatchEquity.of`) installs itself when
    imported: search sits below play and never imports it."""
    global _default_equity
    previous, _default_equity = _default_equity, factory
    _equity_table.cache_clear()
    return previous


def default_equity(rules: Any) -> Any:
    """The equity a `Match` without one uses for `rules` (their game and target): what
    `set_default_equity` installed (the shipped `MatchEquity`); `MatchError` when there is none.
    The board asks it the chance to win the match at a score (its ``chance``, when it has one)."""
    if _default_equity is None:
        raise MatchError("no match equity is installed: give Match an equity (or import "
                         "scopa_solver.play.equity, which installs the shipped one)")
    return _default_equity(rules)


def _equity_for(match: "Match", rules: Any) -> Any:
    if match.equity is not None:
        return match.equity
    if _default_equity is None:
        raise MatchError("no match equity is installed: give Match an equity (or import "
                         "scopa_solver.play.equity, which installs the shipped one)")
    return _default_equity(rules if match.target is None or match.target == rules.target
                           else replace(rules, target=match.target))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Match:
    """Where the match stands: `score` every side's match points before the round being
    searched (sides in their order: seat 0's side first), `target` the points to reach (None:
    the rules' `target`). `equity`: what turns a round's points into the chance to win, any
    object with ``after_round(score, round_points, dealer, side) -> float`` (None: the one
    `set_default_equity` installed for the rules and target, the shipped `MatchEquity`). Checked once, here
    (`MatchError` naming the field)."""

    score: tuple[int, ...]
    target: Optional[int] = None
    equity: Any = None

    def __post_init__(self) -> None:
        score = self.score
        if not isinstance(score, (tuple, list)):
            raise MatchError(f"score must be a tuple of match points, one per side, not {excerpt(score)}")
        score = tuple(score)
        if not 2 <= len(score) <= 6:
            raise MatchError(f"score must give 2 to 6 sides' match points, not {len(score)}")
        for points in score:
            if not _whole(points) or points < 0:
                raise MatchError(f"score must hold whole match points, 0 or more, not {excerpt(points)}")
        object.__setattr__(self, "score", score)
        if self.target is not None and (not _whole(self.target) or not 1 <= self.target <= MAX_TARGET):
            raise MatchError(f"target must be a whole number of points, 1 to {MAX_TARGET}, or None, "
                             f"not {excerpt(self.target)}")
        if self.equity is not None and not callable(getattr(self.equity, "after_round", None)):
            raise MatchError(f"equity must have an after_round(score, round_points, dealer, side) method, "
                             f"not {excerpt(self.equity)}")

    def __repr__(self) -> str:
        target = f", target={self.target}" if self.target is not None else ""
        equity = f", equity={self.equity!r}" if self.equity is not None else ""
        return f"Match({self.score!r}{target}{equity})"


def match_text(value: Optional[int]) -> str:
    """A match value (1/10,000ths) as text: '62.35% to win the match'."""
    if value is None:
        return "no value"
    return f"{value / 100:.2f}% to win the match"


def equity_chance(position: Position, match: Match) -> ChanceAfter:
    """`ChanceAfter` for the side to move at `position` from `match.equity`, else the installed
    default's for the rules and target (`set_default_equity`); `MatchError` when there is none."""
    equity = _equity_for(match, position.rules)
    side = position.rules.sides[position.to_move]
    score, dealer = match.score, position.dealer

    def chance(points: tuple[int, ...]) -> float:
        return float(equity.after_round(score, points, dealer, side))
    return chance


def leaf_table(position: Position, match: Match, chance_after: Optional[ChanceAfter] = None) -> Any:
    """The kernel's leaf table (`_kernel.MatchTable`) for a search of `position` under `match`:
    for every combination of the sides' final round points the position can still reach (each
    side's `kernel.side_bounds`), `chance_after(points)` (default `equity_chance`) in
    1/10,000ths, rounded. `MatchError` if the score does not give one entry per side, a chance
    is not a number from 0 to 1, or the table would be too large.

    From the equity (no `chance_after`) the table spans every side's points from 0 up to the next
    multiple of 8 past its bound when that stays small (two and three sides), and is kept (the
    last 64): every position of one round at one match score then shares a few tables, built once
    (a two-player round's takes about a millisecond of Python, as long as its search)."""
    if not isinstance(match, Match):
        raise MatchError(f"expected a Match, not {type(match).__name__}")
    state = position.kernel_state()
    nsides = max(state.sides) + 1
    if len(match.score) != nsides:
        raise MatchError(f"score gives {len(match.score)} sides' match points; this game has {nsides} sides")
    bounds = kernel.side_bounds(state)
    lows = tuple(low for low, _ in bounds)
    dims = tuple(high - low + 1 for low, high in bounds)
    side = state.sides[state.to_move]
    if chance_after is not None:
        return _table(chance_after, lows, dims, side)
    shared = tuple(-(-(high + 1) // SHARED_STEP) * SHARED_STEP for _, high in bounds)
    if math.prod(shared) <= SHARED_CELLS:
        lows, dims = (0,) * nsides, shared
    try:
        return _equity_table(match, position.rules, position.dealer, side, lows, dims)
    except TypeError:       # an equity that cannot be a key: made each time
        return _table(equity_chance(position, match), lows, dims, side)


@functools.lru_cache(maxsize=64)
def _equity_table(match: Match, rules: Any, dealer: int, side: int, lows: tuple[int, ...],
                  dims: tuple[int, ...]) -> Any:
    score = match.score
    equity = _equity_for(match, rules)
    many = getattr(equity, "after_round_many", None)
    if many is not None and math.prod(dims) <= LEAF_CELLS:
        return _table_at_once(many, score, dealer, lows, dims, side)

    def chance(points: tuple[int, ...]) -> float:
        return float(equity.after_round(score, points, dealer, side))
    return _table(chance, lows, dims, side)


def _table_at_once(many: Callable[..., Any], score: tuple[int, ...], dealer: int, lows: tuple[int, ...],
                   dims: tuple[int, ...], side: int) -> Any:
    """`_table` from an equity's ``after_round_many(score, rows of round points, dealer, side)``
    (the shipped `MatchEquity`'s: every entry at once, with numpy), the same entries."""
    import numpy as np
    points = (np.indices(dims).reshape(len(dims), -1).T + np.array(lows)).astype(np.int64)  # side 0 slowest
    chances = np.asarray(many(score, points, dealer, side), dtype=float)
    bad = np.flatnonzero(~((chances >= 0.0) & (chances <= 1.0)))
    if chances.shape != (len(points),) or len(bad):
        at = tuple(int(x) for x in points[bad[0]]) if len(bad) else "every row"
        raise MatchError(f"after_round_many at {at} must give a chance from 0 to 1 a row, not "
                         f"{excerpt(chances[bad[0]] if len(bad) else chances)}")
    values = np.rint(chances * MATCH_ONE).astype(np.int64).tolist()
    return kernel.MatchTable(values, lows, dims, side)


def _table(chance_after: ChanceAfter, lows: tuple[int, ...], dims: tuple[int, ...], side: int) -> Any:
    if math.prod(dims) > LEAF_CELLS:
        raise MatchError(f"the match objective needs {math.prod(dims)} leaf entries here (every side's "
                         f"possible points), more than {LEAF_CELLS}: search a later position")
    values = []
    for points in itertools.product(*(range(low, low + dim) for low, dim in zip(lows, dims))):
        chance = chance_after(points)
        if not isinstance(chance, (int, float)) or isinstance(chance, bool) or not 0.0 <= chance <= 1.0:
            raise MatchError(f"chance_after{points} must be a chance from 0 to 1, not {excerpt(chance)}")
        values.append(int(round(chance * MATCH_ONE)))
    return kernel.MatchTable(values, lows, dims, side)


def kernel_objective(position: Position, objective: Any) -> Any:
    """What the kernel searches `position` under: the objective's name, or a Match's leaf table."""
    return leaf_table(position, objective) if isinstance(objective, Match) else objective
