"""Match equity: the chance that a side wins the match from a match score.

`MatchEquity.of(rules)` is the table of a game of the family (`EQUITY_GAMES`) played to any
target from 2 to 61 (`MIN_TARGET`, `MAX_TARGET`), from the game's shipped round outcomes;
`eq.chance(score, dealer, side)` is the chance that `side` wins the match when
the sides have `score` match points and seat `dealer` deals the next round, and
`eq.after_round(score, round_points, dealer, side)` the chance after a round dealt by `dealer`
that scored `round_points` (the next seat in playing order deals next).

>>> coin = Distribution({(1, 0): 1, (0, 1): 1})        # a round: one point, to either side
>>> eq = MatchEquity.from_distribution(coin, 2)
>>> eq.chance((1, 0), dealer=1), eq.chance((1, 1), dealer=0), eq.chance((2, 1), dealer=0)
(0.75, 0.5, 1.0)
>>> eq.after_round((0, 0), (1, 0), dealer=1, side=1)
0.25

The method (docs/play.md, "Match equity"):

- A `Distribution` counts round outcomes: the points of each side in one round, the dealer's
  side first, then the sides in playing order from it. Seen from dealer seat d, the k-th number
  goes to side ``(sides[d] + k) % side_count``. Every round of play is an outcome seen from its
  dealer, so the dealer's effect costs no sample: the same counts serve every seat.
- The table: for every score below the target (every side under it) and every dealer, the
  chance of every side, by backward induction over the scores by decreasing sum (a round's
  points only raise the sum). A round of no points (none in the shipped data: the settebello
  is always somebody's) keeps the score and passes the deal; the cycle of dealers is solved in
  closed form. When every seat is its own side (two or three players, four or six alone) the
  table keeps seat 0 dealing alone: seat d dealing at a score is seat 0 dealing at the score
  turned d seats on (the distribution is the same from every dealer), a table 1/n the size.
  The score after a round, if a side is at or over the target: the rules of
  `flow.match_winner` (FAMILY.md, "Scoring and the match"): the highest total alone wins (1 or
  0); a highest total shared plays another round.
- The shared top (the tail): from then on only how far each side is behind the top counts
  (every later top is over the target too), so the chances are a function of those deficits
  and the dealer: x = b + A x, b the rounds that leave one side alone on top, A those that keep
  the top shared. It is iterated from x = 0 until the chance still undecided is below
  `TAIL_MASS` (1e-13) from every tie: exact to that. Two sides have one tie (level); with
  three, a side more than `TAIL_SPREADS` rounds' worth of points behind a shared top counts as
  that far behind (to come back it needs that many rounds in a row of ties on top); with four,
  as many rounds' worth as keep the ties to `TAIL_STATES` (about 4: a comeback through four
  rounds of ties on top in a row is far below the sampling error).
- Six sides (six players alone: 11^6 scores times 6 dealers to 11, and far more to 21) are
  approximated (`APPROXIMATE_SIDES`; `MatchEquity.exact` is False): for each side, the exact
  table of its match against the leader and the runner-up of the other sides alone (three
  sides, the other players' points dropped; one table per pair of seats, counted from the
  side's, made when first needed), the least over the choices when others tie for those
  places (the side must beat them all: the hardest pair binds); then the chances of all sides
  scaled to add up to 1. Against Monte Carlo matches
  played from the measured distribution its error is a few points at most, under one on
  average (docs/play.md, "Match equity"). A finished match is exact (1 or 0).
- The shipped distributions (`PLANS`, package data equity_tables/GAME.json: the counts, not
  the table) are measured by self-play of `PIMCBot` (a fair player, the same bot in every
  seat, maximising the round margin), one thread and no time budget, so that
  ``python -m scopa_solver.play.equity --rebuild`` writes the same files on every machine. The
  table is computed from the counts when first asked for (a second or less) and kept.
- The scoring options (napola, re bello, ...) use their game's table, measured without them.
"""
from __future__ import annotations

import functools
import itertools
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence, Union

import numpy as np

from ..core.flow import match_winner
from ..core.position import Position
from ..core.rules import Rules
from ..errors import LimitError, ScopaError, excerpt
from ..kernel import Limit
from .bots import PIMCBot
from .game import play_round
from .puzzles import GAMES

__all__ = ["MatchEquity", "EquityError", "Distribution", "Plan", "PLANS", "TARGETS", "MIN_TARGET", "MAX_TARGET",
           "EQUITY_GAMES", "game_name", "measure", "rebuild",
           "distribution", "read_distribution", "TABLE_FOLDER",
           "summary", "table_text", "bootstrap", "play_matches"]


class EquityError(ScopaError, ValueError):
    """No match equity for a game or target, a bad score, dealer or side, or a round-outcome
    distribution that cannot be read."""


TARGETS = (11, 21)
"""The targets the summaries show (`summary`); `MatchEquity.of` takes any from `MIN_TARGET` to
`MAX_TARGET`."""
MIN_TARGET = 2
MAX_TARGET = 61
"""The targets `MatchEquity.of` takes: 2 to 61 (the family plays to 11, 16, 21 or 31; a target of
1 is decided by the first round that scores, no match to speak of). The table of a target is
computed when first asked for: the build times are in docs/play.md, "Match equity"."""

EQUITY_GAMES: dict[str, Rules] = {
    **GAMES,
    "scopa-4-alone": Rules(players=4, partnerships=False),
    "scopa-6-alone": Rules(players=6, partnerships=False),
}
"""The games with a match equity, by name: the puzzle set's (`GAMES`) and 4 and 6 players each
playing alone (4 and 6 sides), which have no puzzle set."""

TABLE_FOLDER = Path(__file__).with_name("equity_tables")
EQUITY_SEED = 42


def game_name(rules: Rules) -> str:
    """The name of `rules`' game in `EQUITY_GAMES` (its scoring options and target aside), else
    `rules.name`."""
    family = (rules.players, rules.game, rules.partnerships, rules.capture)
    for name, r in EQUITY_GAMES.items():
        if (r.players, r.game, r.partnerships, r.capture) == family:
            return name
    return rules.name


# -- the round-outcome distribution and the table -------------------------------------------------

Points = tuple[int, ...]


@dataclass(frozen=True)
class Distribution:
    """How often each round outcome happens: `counts` maps the points of each side in one round
    (the dealer's side first, then the sides in playing order from it) to a count (a dict, or
    pairs). `players` and `sides` (the side of each seat) are the game's, as in
    `Rules`: the outcome seen from dealer seat d gives side ``(sides[d] + k) % side_count`` the
    k-th number. `game` names it (free text; `EQUITY_GAMES` for the shipped ones)."""

    counts: tuple[tuple[Points, int], ...]
    players: int = 2
    sides: tuple[int, ...] = (0, 1)
    game: str = ""

    def __post_init__(self) -> None:
        counts = self.counts.items() if isinstance(self.counts, dict) else self.counts
        if not isinstance(self.players, int) or isinstance(self.players, bool) or self.players < 2:
            raise EquityError(f"players must be a whole number, 2 or more, not {excerpt(self.players)}")
        sides = tuple(self.sides) if isinstance(self.sides, (tuple, list)) else ()
        count = max(sides) + 1 if sides and all(_whole(x) for x in sides) else 0
        if len(sides) != self.players or count < 2 or sorted(set(sides)) != list(range(count)):
            raise EquityError(f"sides must give each of the {self.players} seats a side, 0 to the sides "
                              f"less one (two sides or more), not {excerpt(self.sides)}")
        rows: dict[Points, int] = {}
        for row in counts:
            try:
                points, n = row
                points = tuple(points)
            except (TypeError, ValueError):
                raise EquityError(f"an outcome is (points per side, count), not {excerpt(row)}") from None
            if len(points) != count or not all(_whole(p) and p >= 0 for p in points):
                raise EquityError(f"an outcome gives each of the {count} sides its points (whole numbers, "
                                  f"0 or more), not {excerpt(points)}")
            if not _whole(n) or n < 0:
                raise EquityError(f"the count of outcome {points} is a whole number, 0 or more, not {excerpt(n)}")
            rows[points] = rows.get(points, 0) + n
        rows = {k: v for k, v in rows.items() if v}
        if not rows:
            raise EquityError("a distribution needs at least one outcome with a count")
        if all(not any(k) for k in rows):
            raise EquityError("every round of the distribution scores no points: the match would never end")
        object.__setattr__(self, "counts", tuple(sorted(rows.items())))
        object.__setattr__(self, "sides", sides)

    @property
    def side_count(self) -> int:
        return max(self.sides) + 1

    @property
    def rounds(self) -> int:
        """The rounds (the total count) measured."""
        return sum(n for _, n in self.counts)

    @classmethod
    def of_rules(cls, rules: Rules, counts: Any, game: str = "") -> "Distribution":
        """The distribution of a game given by its `Rules` (players and sides) and the counts."""
        return cls(tuple(counts.items()) if isinstance(counts, dict) else tuple(counts), rules.players,
                   rules.sides, game or game_name(rules))

    def probabilities(self, dealer: int) -> list[tuple[Points, float]]:
        """The outcomes with their probability when seat `dealer` deals: points per side (side 0
        first)."""
        count, total, first = self.side_count, self.rounds, self.sides[dealer]
        out = []
        for rel, n in self.counts:
            points = [0] * count
            for k, p in enumerate(rel):
                points[(first + k) % count] = p
            out.append((tuple(points), n / total))
        return out

    def mean(self) -> tuple[float, ...]:
        """The mean points of each side, the dealer's first (as `counts`)."""
        total = self.rounds
        return tuple(sum(rel[k] * n for rel, n in self.counts) / total for k in range(self.side_count))

    def stderr(self) -> tuple[float, ...]:
        """The standard error of each `mean` (the sample's spread over the square root of its size)."""
        total, means = self.rounds, self.mean()
        out = []
        for k, m in enumerate(means):
            var = sum(n * (rel[k] - m) ** 2 for rel, n in self.counts) / max(total - 1, 1)
            out.append(math.sqrt(var / total))
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "sides": list(self.sides), "game": self.game,
                "outcomes": [[list(k), n] for k, n in self.counts]}


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


MAX_STATES = 2_000_000
"""The most match scores (times dealers) `MatchEquity.from_distribution` tabulates."""
APPROXIMATE_SIDES = 5
"""From this many sides (each seat its own: six players alone) the table is approximate: each
side's chance from the exact table of its match against the two best others alone, scaled so
that the chances add up to 1 (`MatchEquity.exact` is False; docs/play.md, "Match equity")."""


@dataclass(frozen=True, eq=False)
class MatchEquity:
    """The chance that each side wins the match from each match score, for one game and target:
    `chance(score, dealer, side)`, `after_round(score, round_points, dealer, side)`. Made by
    `MatchEquity.of(rules)` (the shipped table of the game and target) or
    `MatchEquity.from_distribution(distribution, target)` (any measured or made-up round
    outcomes). See the module docstring for the method."""

    distribution: Distribution
    target: int

    def __post_init__(self) -> None:
        if not isinstance(self.distribution, Distribution):
            raise EquityError(f"a MatchEquity is made from a Distribution, not {excerpt(self.distribution)}")
        if not _whole(self.target) or self.target < 1:
            raise EquityError(f"target must be a whole number of points, 1 or more, not {excerpt(self.target)}")
        dist = self.distribution
        alone = dist.sides == tuple(range(dist.players))
        if alone and dist.side_count >= APPROXIMATE_SIDES:
            table: Union[_Table, _Reduced] = _Reduced(dist, self.target)
        else:
            table = _Table([dist.probabilities(d) for d in range(dist.players)], dist.side_count, self.target,
                           turn=alone)
        object.__setattr__(self, "_table", table)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MatchEquity) and (self.distribution, self.target)
                == (other.distribution, other.target))

    def __hash__(self) -> int:
        return hash((self.distribution, self.target))

    def __repr__(self) -> str:
        game = self.distribution.game or "a distribution"
        return f"<MatchEquity {game} to {self.target}, {self.distribution.rounds:,} rounds measured>"

    @classmethod
    def from_distribution(cls, distribution: Distribution, target: int) -> "MatchEquity":
        return cls(distribution, target)

    @classmethod
    def of(cls, rules: Rules) -> "MatchEquity":
        """The table of `rules`' game (`EQUITY_GAMES`; the scoring options aside) from its
        shipped round outcomes, to `rules.target` (`MIN_TARGET` to `MAX_TARGET`), computed when
        first asked for and kept."""
        if not isinstance(rules, Rules):
            raise EquityError(f"MatchEquity.of takes a Rules value, not {excerpt(rules)}")
        game = game_name(rules)
        if game not in EQUITY_GAMES:
            raise EquityError(f"no match equity table for {game}; games: {', '.join(EQUITY_GAMES)}")
        if not MIN_TARGET <= rules.target <= MAX_TARGET:
            raise EquityError(f"no match equity for a target of {rules.target}: the match equity takes a "
                              f"target from {MIN_TARGET} to {MAX_TARGET} points")
        return _shipped(game, rules.target)

    @property
    def game(self) -> str:
        return self.distribution.game

    @property
    def exact(self) -> bool:
        """True for the exact table; False for the approximation of five sides or more
        (`APPROXIMATE_SIDES`)."""
        return isinstance(self._table, _Table)  # type: ignore[attr-defined]

    def chance(self, score: Sequence[int], dealer: int, side: int = 0) -> float:
        """The chance that `side` wins the match from the match score `score` (points per side
        before the next round), seat `dealer` dealing the next round. A finished match (a side
        at or over the target with the highest total alone) is 1.0 or 0.0; a highest total
        shared at or over the target plays on."""
        table: _Table = self._table  # type: ignore[attr-defined]
        return table.chance(table.score(score, "score"), table.seat(dealer), table.side(side))

    def after_round(self, score: Sequence[int], round_points: Sequence[int], dealer: int, side: int = 0) -> float:
        """The chance that `side` wins the match after a round dealt by `dealer` from match
        score `score` scored `round_points` (per side): the next seat in playing order deals next."""
        table: _Table = self._table  # type: ignore[attr-defined]
        before, points = table.score(score, "score"), table.score(round_points, "round_points")
        seat = table.seat(dealer)
        return table.chance(tuple(a + b for a, b in zip(before, points)), (seat + 1) % table.players,
                            table.side(side))

    def after_round_many(self, score: Sequence[int], round_points: Any, dealer: int, side: int = 0) -> Any:
        """`after_round` for every row of `round_points` (an array of rows of points per side):
        a numpy array of the chances, the same numbers, at once (the match objective's leaf
        table asks one for every combination of the sides' round points)."""
        table: _Table = self._table  # type: ignore[attr-defined]
        before, seat, side = table.score(score, "score"), table.seat(dealer), table.side(side)
        try:
            points = np.asarray(round_points, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise EquityError(f"round_points is an array of rows of points per side, not "
                              f"{excerpt(round_points)}") from None
        if points.ndim != 2 or points.shape[1] != table.count or (points < 0).any():
            raise EquityError(f"round_points is an array of rows of {table.count} points per side (whole "
                              f"numbers, 0 or more), not one of shape {points.shape}")
        return table.chance_many(points + np.array(before, dtype=np.int64), (seat + 1) % table.players, side)


class _Table:
    """The numbers behind a `MatchEquity` (see the module docstring: the method): `outs[d]` the
    round outcomes (points per side, side 0 first, and their probability) when seat d deals,
    `count` sides, to `target`. `turn`: every seat is its own side, seat d side d, and `outs[d]`
    is `outs[0]` turned d seats on; the table then keeps dealer 0 alone and reads the others
    by turning the score (the dealer's seat becomes seat 0), a table 1/n the size."""

    def __init__(self, outs: list[list[tuple[Points, float]]], count: int, target: int, turn: bool = False) -> None:
        n, k, t = len(outs), count, target
        self.players, self.count, self.target, self.turn = n, k, t, turn
        top = max(max(p) for out in outs for p, _ in out)
        spread = max(max(p) - min(p) for out in outs for p, _ in out)
        self.base = base = t + top              # the box of scores: 0 .. t - 1 + top per side
        dealers = 1 if turn else n
        if base ** k * dealers > MAX_STATES:
            raise EquityError(f"{k} sides to {t} with rounds of up to {top} points: {base ** k * dealers:,} "
                              f"scores{'' if turn else ' and dealers'} to tabulate, over the {MAX_STATES:,} allowed")
        self.cap = _tail_cap(k, max(spread, 1))  # a deficit in the tail counts as at most this
        self.strides = strides = np.array([base ** (k - 1 - i) for i in range(k)], dtype=np.int64)
        self._solve_tail(outs)
        grid = np.indices((base,) * k).reshape(k, -1).T        # every score in the box, row = flat index
        values = np.zeros((dealers, base ** k, k))
        over = grid.max(axis=1) >= t
        for d in range(dealers):
            values[d, over] = self._finals(grid[over], d)
        # the score turned one seat on (side j gets side j + 1's points): seat 1 dealing, as seat 0
        turned = np.roll(grid, -1, axis=1) @ strides if turn else None
        del grid
        # the scores below the target, by decreasing sum: a round's points lead to a higher sum
        below = np.flatnonzero(~over)
        sums = below_sums = np.zeros(len(below), dtype=np.int64)
        for i in range(k):
            below_sums += (below // strides[i]) % base
        offsets, probs, zero = [], [], []
        for d in range(dealers):
            nonzero = [(p, q) for p, q in outs[d] if any(p)]
            offsets.append(np.array([p for p, _ in nonzero], dtype=np.int64) @ strides)
            probs.append(np.array([q for _, q in nonzero]))
            zero.append(sum(q for p, q in outs[d] if not any(p)))
        where = np.full(base ** k, -1, dtype=np.int64) if turn and zero[0] > 0 else None
        for level in range(int(sums.max()), -1, -1):
            idx = below[sums == level]
            if turned is not None:     # (turn) the next dealer is seat 1: its chances are seat 0's at the
                # turned score, turned back
                rest = np.roll(_expect(values[0], turned, idx, offsets[0], probs[0]), 1, axis=1)
                if where is None:
                    values[0, idx] = rest
                    continue
                # a round of no points: the same score, the next dealer, i.e. the turned score
                # one side on (a cycle of k turns)
                where[idx] = np.arange(len(idx))
                acc, weight, at = np.zeros_like(rest), 1.0, idx
                for j in range(k):
                    acc += weight * np.roll(rest[where[at]], j, axis=1)
                    at, weight = turned[at], weight * zero[0]
                values[0, idx] = acc / (1.0 - weight)
                continue
            rest = [_expect(values[(d + 1) % n], None, idx, offsets[d], probs[d]) for d in range(n)]
            for d in range(n):      # a round of no points: the same score, the next dealer (a cycle)
                acc, weight = np.zeros_like(rest[d]), 1.0
                for j in range(n):
                    acc += weight * rest[(d + j) % n]
                    weight *= zero[(d + j) % n]
                values[d, idx] = acc / (1.0 - weight)
        self.values = values

    # -- input -----------------------------------------------------------------------------------
    def score(self, score: Sequence[int], what: str) -> Points:
        try:
            out = tuple(score)
        except TypeError:
            raise EquityError(f"{what} is a tuple of points per side, not {excerpt(score)}") from None
        if len(out) != self.count or not all(_whole(x) and x >= 0 for x in out):
            raise EquityError(f"{what} gives each of the {self.count} sides its points (whole numbers, 0 or "
                              f"more), not {excerpt(score)}")
        return out

    def seat(self, dealer: int) -> int:
        if not _whole(dealer) or not 0 <= dealer < self.players:
            raise EquityError(f"dealer is a seat, 0 to {self.players - 1}, not {excerpt(dealer)}")
        return dealer

    def side(self, side: int) -> int:
        if not _whole(side) or not 0 <= side < self.count:
            raise EquityError(f"side is 0 to {self.count - 1}, not {excerpt(side)}")
        return side

    # -- the numbers -----------------------------------------------------------------------------
    def chance(self, score: Points, dealer: int, side: int) -> float:
        if max(score) >= self.target:
            return float(self._final(score, dealer)[side])
        if self.turn:       # seat `dealer` dealing is seat 0 dealing with the score turned `dealer` seats on
            k = self.count
            idx = sum(score[(dealer + j) % k] * int(s) for j, s in enumerate(self.strides))
            return float(self.values[0, idx, (side - dealer) % k])
        idx = sum(a * int(s) for a, s in zip(score, self.strides))
        return float(self.values[dealer, idx, side])

    def chance_many(self, scores: Any, dealer: int, side: int) -> Any:
        """`chance` of every row of `scores` (an int array, one row per score)."""
        out = np.empty(len(scores))
        over = scores.max(axis=1) >= self.target
        if over.any():
            out[over] = self._finals(scores[over], dealer)[:, side]
        below = scores[~over]
        if self.turn:
            k = self.count
            out[~over] = self.values[0, np.roll(below, -dealer, axis=1) @ self.strides, (side - dealer) % k]
        else:
            out[~over] = self.values[dealer, below @ self.strides, side]
        return out

    def _final(self, score: Points, dealer: int) -> Any:
        """The chances of every side at a score at or over the target: won, or a tie on top."""
        winner = match_winner(score, self.target)
        if winner is not None:
            out = np.zeros(self.count)
            out[winner] = 1.0
            return out
        best = max(score)
        if self.turn:       # seat `dealer` dealing: seat 0 dealing, the deficits turned, the chances back
            k = self.count
            code = sum(min(best - score[(dealer + j) % k], self.cap) * int(w) for j, w in enumerate(self.tail_weights))
            return np.roll(self.tail_x[self.tail_index[code]], dealer)
        code = sum(min(best - x, self.cap) * int(w) for x, w in zip(score, self.tail_weights))
        return self.tail_x[self.tail_index[code] * self.players + dealer]

    def _finals(self, scores: Any, dealer: int) -> Any:
        """`_final` of every row of `scores` (each at or over the target), seat `dealer` dealing."""
        best = scores.max(axis=1)
        out = np.zeros(scores.shape, dtype=float)
        alone = (scores == best[:, None]).sum(axis=1) == 1
        rows = np.flatnonzero(alone)
        out[rows, scores[rows].argmax(axis=1)] = 1.0
        tie = np.flatnonzero(~alone)
        deficits = np.minimum(best[tie, None] - scores[tie], self.cap)
        if self.turn:
            codes = np.roll(deficits, -dealer, axis=1) @ self.tail_weights
            out[tie] = np.roll(self.tail_x[self.tail_order[np.searchsorted(self.tail_codes, codes)]], dealer, axis=1)
        else:
            codes = deficits @ self.tail_weights
            out[tie] = self.tail_x[self.tail_order[np.searchsorted(self.tail_codes, codes)] * self.players + dealer]
        return out

    def _solve_tail(self, outs: list[list[tuple[Points, float]]]) -> None:
        """The chances from a highest total shared at or over the target, by how far each side
        is behind the top (at most `cap`) and the dealer: x = b + A x (b: the rounds that leave
        one side on top, A: those that leave a tie on top), iterated from x = 0 until what is
        still undecided (1 - the sum of the chances) is below `TAIL_MASS` in every state. With
        `turn`, dealer 0 alone: a tie after its round is the next dealer's, read turned."""
        n, k, cap = self.players, self.count, self.cap
        dealers = 1 if self.turn else n
        states = sorted(_spread_out(zeros, values, k) for z in range(2, k + 1)
                        for zeros in itertools.combinations(range(k), z)
                        for values in itertools.product(range(1, cap + 1), repeat=k - z))
        if len(states) * dealers > MAX_STATES:
            raise EquityError(f"{k} sides: {len(states) * dealers:,} ties on top to tabulate, over the "
                              f"{MAX_STATES:,} allowed")
        weights = (cap + 1) ** np.arange(k, dtype=np.int64)
        deficits = np.array(states, dtype=np.int64)
        codes = deficits @ weights                      # sorted like states (the last side counts most)
        order = np.argsort(codes)
        codes = codes[order]
        rows, cols, probs, b = [], [], [], np.zeros((len(states) * dealers, k))
        for d in range(dealers):
            points = np.array([p for p, _ in outs[d]], dtype=np.int64)
            q = np.array([q for _, q in outs[d]])
            totals = points[None, :, :] - deficits[:, None, :]          # state, outcome, side
            best = totals.max(axis=2)
            alone = (totals == best[:, :, None]).sum(axis=2) == 1
            row = np.arange(len(states))[:, None] * dealers + d
            won = np.nonzero(alone)
            np.add.at(b, (np.broadcast_to(row, alone.shape)[won], totals[won].argmax(axis=1)), q[won[1]])
            tie = np.nonzero(~alone)
            after = np.minimum(best[:, :, None] - totals, cap)[tie]
            rows.append(np.broadcast_to(row, alone.shape)[tie])
            if self.turn:       # seat 1 deals next: seat 0 dealing with the deficits turned one seat on
                cols.append(order[np.searchsorted(codes, np.roll(after, -1, axis=1) @ weights)])
            else:
                cols.append(order[np.searchsorted(codes, after @ weights)] * n + (d + 1) % n)
            probs.append(q[tie[1]])
            del totals, best, alone
        row_all, col_all, prob_all = np.concatenate(rows), np.concatenate(cols), np.concatenate(probs)
        x = np.zeros_like(b)
        back = 1 if self.turn else 0        # turned back: side j's chance is the turned table's j - 1
        for _ in range(TAIL_ROUNDS):
            x = b + np.stack([np.bincount(row_all, prob_all * x[col_all, (j - back) % k], minlength=len(b))
                              for j in range(k)], axis=1)
            if 1.0 - x.sum(axis=1).min() < TAIL_MASS:
                break
        else:
            raise EquityError("the rounds of the distribution never break a tie on top: the match would never end")
        self.tail_x, self.tail_weights, self.tail_codes, self.tail_order = x, weights, codes, order
        self.tail_index = {int(c): int(i) for c, i in zip(codes, order)}


class _Reduced:
    """The approximate numbers behind a `MatchEquity` of five sides or more, every seat its own
    side (six players alone; see the module docstring): for each side, the exact table of the
    match it plays against the leader and the runner-up of the others alone (three sides, the
    other players' points dropped), the least over the choices when others tie for those
    places; then the chances of all sides scaled to add up to 1. The reduced tables (one per pair of
    seats of the leader and the runner-up, counted from the side's seat) are made when first
    needed and kept."""

    def __init__(self, dist: Distribution, target: int) -> None:
        self.players = self.count = dist.players
        self.target, self.dist = target, dist
        self.outs = [dist.probabilities(d) for d in range(dist.players)]
        self.tables: dict[tuple[int, int], _Table] = {}
        for pair in ((1, 2),):     # one now: a target too large for the reduced tables fails here
            self._reduced(*pair)

    # the same checks as `_Table`
    score = _Table.score
    seat = _Table.seat
    side = _Table.side

    def _reduced(self, a: int, b: int) -> "_Table":
        """The three-sided table of seat 0 against seats a and b (a < b) of the others."""
        table = self.tables.get((a, b))
        if table is None:
            outs = []
            for d in range(self.players):
                rows: dict[Points, float] = {}
                for points, q in self.outs[d]:
                    key = (points[0], points[a], points[b])
                    rows[key] = rows.get(key, 0.0) + q
                outs.append(sorted(rows.items()))
            table = self.tables[(a, b)] = _Table(outs, 3, self.target)
        return table

    def chance(self, score: Points, dealer: int, side: int) -> float:
        winner = match_winner(score, self.target)
        if winner is not None:
            return float(winner == side)
        weights = self._weights(tuple(score), dealer)
        return float(weights[side] / weights.sum())

    @functools.lru_cache(maxsize=1 << 16)
    def _weights(self, score: Points, dealer: int) -> Any:
        """Every side's chance in its reduced match, at one score (kept)."""
        return self.weights_many(np.array([score], dtype=np.int64), dealer)[0]

    def chance_many(self, scores: Any, dealer: int, side: int) -> Any:
        """`chance` of every row of `scores` (an int array, one row per score)."""
        weights = self.weights_many(scores, dealer)
        out = weights[:, side] / weights.sum(axis=1)
        best = scores.max(axis=1)
        won = (best >= self.target) & ((scores == best[:, None]).sum(axis=1) == 1)
        out[won] = scores[won, side] == best[won]
        return out

    def weights_many(self, scores: Any, dealer: int) -> Any:
        """Every side's chance in its reduced match (a row per score): the side against the
        leader and the runner-up of the others; when others tie for those places, the least
        of its chances against the pairs of them that can be (others tied for the lead: every
        two of them; else the leader and each tied runner-up): the side must beat them all,
        and the hardest pair (the dealer's seat, the next ones) binds. A pair's chance is the
        table of their seats counted from the side's."""
        k, n = self.count, len(scores)
        out = np.zeros((n, k))
        for s in range(k):
            others = np.delete(scores, s, axis=1)
            ranked = -np.sort(-others, axis=1)
            first, second = ranked[:, 0], ranked[:, 1]
            least = np.full(n, np.inf)
            for a, b in itertools.combinations(range(1, k), 2):
                x, y = scores[:, (s + a) % k], scores[:, (s + b) % k]
                rows = np.flatnonzero(((x == first) & (y == second)) | ((x == second) & (y == first)))
                if len(rows):
                    three = np.stack([scores[rows, s], x[rows], y[rows]], axis=1)
                    least[rows] = np.minimum(least[rows], self._reduced(a, b).chance_many(three, (dealer - s) % k, 0))
            out[:, s] = least
        return out


def _expect(table: Any, turned: Any, idx: Any, offsets: Any, probs: Any) -> Any:
    """For every flat score of `idx`: the expectation over the outcomes (`offsets` in the flat
    index, `probs`) of `table` at the score after the round (turned by `turned` when given); in
    slices, so that a level of many scores and outcomes stays small in memory."""
    out = np.empty((len(idx), table.shape[1]))
    step = max(1, _SLICE // max(len(offsets), 1))
    for a in range(0, len(idx), step):
        at = idx[a:a + step, None] + offsets[None, :]
        out[a:a + step] = np.einsum("o,soj->sj", probs, table[turned[at] if turned is not None else at])
    return out


_SLICE = 1 << 18
"""Scores times outcomes gathered at once by `_expect`."""


def _tail_cap(k: int, spread: int) -> int:
    """How far behind a shared top the tail keeps a side apart: `TAIL_SPREADS` rounds' worth of
    points (`spread`, the largest margin of one round), fewer with four sides or more, as many
    as keep the ties on top to `TAIL_STATES` (four sides: about 4 rounds' worth)."""
    for spreads in range(TAIL_SPREADS, 1, -1):
        cap = spreads * spread
        if sum(math.comb(k, z) * cap ** (k - z) for z in range(2, k + 1)) <= TAIL_STATES:
            return cap
    return spread


def _spread_out(zeros: tuple[int, ...], values: tuple[int, ...], k: int) -> Points:
    """The k numbers with 0 at `zeros` and `values` elsewhere, in order."""
    rest = iter(values)
    return tuple(0 if i in zeros else next(rest) for i in range(k))


TAIL_MASS = 1e-13
"""Where the tail's iteration stops: the chance still undecided from any tie on top."""
TAIL_ROUNDS = 100_000
"""The most rounds the tail's iteration follows (a tie that nearly never breaks is an error)."""
TAIL_SPREADS = 40
"""How far behind a shared top the tail keeps a side apart: this many times the largest margin
of one round; a side further behind counts as that far (it needs this many rounds of ties)."""
TAIL_STATES = 10_000
"""The most ties on top (by each side's deficit, per dealer) the tail keeps: with four sides the
tail keeps a side apart up to fewer rounds' worth of points than `TAIL_SPREADS` (`_tail_cap`)."""


# -- the shipped tables ----------------------------------------------------------------------------

def read_distribution(data: Any, where: str = "distribution") -> Distribution:
    """A `Distribution` from the plain data of a shipped file (GAME.json: `game`, `outcomes`;
    the players and sides from the game of `EQUITY_GAMES`)."""
    if not isinstance(data, dict) or not isinstance(data.get("outcomes"), list):
        raise EquityError(f"{where}: a distribution is an object with an outcomes list")
    game = data.get("game")
    if game not in EQUITY_GAMES:
        raise EquityError(f"{where}: no game {excerpt(game)}; games: {', '.join(EQUITY_GAMES)}")
    try:
        return Distribution.of_rules(EQUITY_GAMES[game], [tuple(row) for row in data["outcomes"]], game)
    except (TypeError, ValueError) as exc:
        raise EquityError(f"{where}: {exc}") from None


@functools.lru_cache(maxsize=None)
def distribution(game: str) -> Distribution:
    """The shipped round-outcome distribution of `game` (a name of `EQUITY_GAMES`)."""
    if game not in EQUITY_GAMES:
        raise EquityError(f"no game {excerpt(game)}; games: {', '.join(EQUITY_GAMES)}")
    path = TABLE_FOLDER / f"{game}.json"
    if not path.is_file():
        raise EquityError(f"no match equity data for {game} ({path.name} is not shipped)")
    return read_distribution(json.loads(path.read_text(encoding="utf-8")), path.name)


@functools.lru_cache(maxsize=None)
def _shipped(game: str, target: int) -> MatchEquity:
    return MatchEquity(distribution(game), target)


# -- the measured distributions --------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """How a game's round outcomes are measured: `rounds` rounds of self-play by `PIMCBot`
    (one per seat, `worlds` worlds a decision, `nodes` nodes a world: None is the bot's default
    for the game), from `seed`, one thread, no time budget (so the same on every machine)."""

    rounds: int
    worlds: int = 10
    nodes: Optional[int] = None
    seed: int = EQUITY_SEED

    def bot(self) -> PIMCBot:
        return PIMCBot(Limit(threads=1, nodes=self.nodes), worlds=self.worlds, seed=self.seed)

    def describe(self) -> str:
        nodes = "" if self.nodes is None else f", {self.nodes:,} nodes a world"
        return f"PIMC self-play, {self.worlds} worlds a decision{nodes}"


PLANS: dict[str, Plan] = {
    "scopa": Plan(rounds=4000),
    "scopa-3": Plan(rounds=600),
    "scopa-4": Plan(rounds=800),
    "scopone": Plan(rounds=300, nodes=20_000),
    "scientifico": Plan(rounds=300, nodes=20_000),
    "scopa-6": Plan(rounds=500),
    "scopa-15": Plan(rounds=1000),
    "scopa-4-alone": Plan(rounds=800),
    "scopa-6-alone": Plan(rounds=480),
}
"""The measurement of each game of `EQUITY_GAMES` (see docs/play.md, "Match equity")."""


def measure(game: str, plan: Optional[Plan] = None, rounds: Optional[int] = None,
            progress: bool = False) -> dict[tuple[int, ...], int]:
    """Play `plan.rounds` (or `rounds`) rounds of `game` by `plan`'s bot in every seat and count
    the outcomes: the points of each side, the dealer's side first, then the sides in playing
    order from it. Round i is dealt from the i-th 64 bits of ``random.Random(plan.seed)`` by seat
    ``(players - 1 + i) % players`` (as `arena` deals). A deal on which the bot stops with a
    `LimitError` (PIMC: a world of a decision needs more than 20 times the node budget that
    the first world's search set; seen once in six players alone) is not counted: the next 64
    bits deal that round again, the same every time (at most a twentieth of the rounds)."""
    if game not in EQUITY_GAMES:
        raise EquityError(f"no game {excerpt(game)}; games: {', '.join(EQUITY_GAMES)}")
    plan = PLANS[game] if plan is None else plan
    rules = EQUITY_GAMES[game]
    n, sides, count = rules.players, rules.sides, rules.side_count
    bots = [plan.bot() for _ in range(n)]
    rng = random.Random(plan.seed)
    counts: dict[tuple[int, ...], int] = {}
    total = plan.rounds if rounds is None else rounds
    start = time.perf_counter()
    i = redealt = 0
    while i < total:
        dealer = (n - 1 + i) % n
        deal = Position.new_round(seed=rng.getrandbits(64), rules=rules, dealer=dealer)
        try:
            points = play_round(deal, *bots).points
        except LimitError as exc:   # a world of a decision over PIMC's node budget: the next deal instead
            redealt += 1
            if progress:
                print(f"{game}: round {i + 1} dealt again ({exc})", file=sys.stderr, flush=True)
            if redealt > max(10, total // 20):
                raise
            continue
        key = tuple(points[(sides[dealer] + k) % count] for k in range(count))
        counts[key] = counts.get(key, 0) + 1
        i += 1
        if progress and i % 50 == 0:
            print(f"{game}: {i}/{total} rounds, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    return counts


def _data(game: str, plan: Plan, counts: dict[tuple[int, ...], int]) -> dict[str, Any]:
    rules = EQUITY_GAMES[game]
    return {"game": game, "name": rules.name, "rules": rules.tokens(), "method": plan.describe(),
            "worlds": plan.worlds, "nodes": plan.nodes, "seed": plan.seed, "rounds": sum(counts.values()),
            "order": "points per side: the dealer's side first, then the sides in playing order",
            "outcomes": [[list(k), c] for k, c in sorted(counts.items())]}


def rebuild(folder: Union[str, Path] = TABLE_FOLDER, games: Optional[Sequence[str]] = None,
            progress: bool = False) -> dict[str, int]:
    """Measure every game of `games` (None: all of `PLANS`) and write GAME.json into `folder`
    (compact JSON: the plan and the outcome counts). Deterministic: the same plan writes the
    same file. Returns the rounds per game."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for game in games or list(PLANS):
        if game not in PLANS:
            raise EquityError(f"no game {excerpt(game)}; games: {', '.join(PLANS)}")
        counts = measure(game, PLANS[game], progress=progress)
        text = json.dumps(_data(game, PLANS[game], counts), separators=(",", ":")) + "\n"
        (folder / f"{game}.json").write_text(text, encoding="utf-8")
        out[game] = sum(counts.values())
    return out


def play_matches(dist: Distribution, target: int, score: Sequence[int], dealer: int, matches: int,
                 seed: int) -> Any:
    """Monte Carlo of `matches` whole matches from `score`, seat `dealer` dealing first, each
    round drawn from `dist` (seeded numpy, every match in step; a highest total alone at or over
    `target` wins, as `flow.match_winner` says): the wins of each side, a numpy array. The check
    of a table by another method (tests, `benchmarks/bench_equity.py --check`)."""
    rng = np.random.default_rng(seed)
    tables = [dist.probabilities(d) for d in range(dist.players)]
    points = [np.array([p for p, _ in t]) for t in tables]
    probs = [np.array([q for _, q in t]) for t in tables]
    totals = np.tile(np.array(score), (matches, 1))
    live, wins, d = np.arange(matches), np.zeros(dist.side_count, dtype=np.int64), dealer
    while len(live):
        totals[live] += points[d][rng.choice(len(probs[d]), size=len(live), p=probs[d])]
        now = totals[live]
        best = now.max(axis=1)
        over = (best >= target) & ((now == best[:, None]).sum(axis=1) == 1)
        np.add.at(wins, now[over].argmax(axis=1), 1)
        live, d = live[~over], (d + 1) % dist.players
    return wins


def bootstrap(dist: Distribution, target: int, scores: Sequence[tuple[Points, int]], side: int = 0,
              reps: int = 100, seed: int = 1) -> list[float]:
    """The sampling error of the table: the standard deviation of `side`'s chance at each
    (score, dealer) of `scores` over `reps` tables made from resampled counts (as many rounds as
    measured, drawn with replacement; seeded). About 10 ms a table with two sides."""
    if not _whole(reps) or reps < 2:
        raise EquityError(f"reps must be a whole number, 2 or more, not {excerpt(reps)}")
    rng = np.random.default_rng(seed)
    keys = [k for k, _ in dist.counts]
    weights = np.array([n for _, n in dist.counts], dtype=float)
    samples: list[list[float]] = [[] for _ in scores]
    for _ in range(reps):
        drawn = rng.multinomial(dist.rounds, weights / weights.sum())
        counts = tuple((k, int(n)) for k, n in zip(keys, drawn) if n)
        try:
            eq = MatchEquity(Distribution(counts, dist.players, dist.sides, dist.game), target)
        except EquityError:
            continue        # a resample of rounds that never end a match (tiny samples only)
        for row, (score, dealer) in zip(samples, scores):
            row.append(eq.chance(score, dealer, side))
    return [float(np.std(row, ddof=1)) if len(row) > 1 else math.nan for row in samples]


def summary(game: str) -> str:
    """A game's measured distribution in a few lines: the rounds, each side's mean points (the
    dealer's side first) with their standard errors, and the chance at 0-0 to each target."""
    dist = distribution(game)
    plan = PLANS[game]
    means = ", ".join(f"{m:.3f} +- {e:.3f}" for m, e in zip(dist.mean(), dist.stderr()))
    lines = [f"{game} ({EQUITY_GAMES[game].name}): {dist.rounds:,} rounds, {plan.describe()}, seed {plan.seed}",
             f"  mean points a round (the dealer's side first): {means}"]
    for target in TARGETS:
        eq = _shipped(game, target)
        dealer = EQUITY_GAMES[game].players - 1
        start = ", ".join(f"{eq.chance((0,) * dist.side_count, dealer, side):.4f}" for side in range(dist.side_count))
        rough = "" if eq.exact else ", approximate"
        lines.append(f"  to {target}, 0-0, seat {dealer} dealing: {start} (side 0 first{rough})")
    return "\n".join(lines)


def table_text(eq: MatchEquity, dealer: int, top: Optional[int] = None) -> str:
    """A two-sided table as text: side 0's chance (percent), its score down the rows, side 1's
    across, seat `dealer` dealing next."""
    if eq.distribution.side_count != 2:
        raise EquityError("table_text shows two sides; ask chance() for more")
    top = eq.target if top is None else top
    rows = ["     " + "".join(f"{b:>6}" for b in range(top))]
    for a in range(top):
        rows.append(f"{a:>5}" + "".join(f"{100 * eq.chance((a, b), dealer):6.1f}" for b in range(top)))
    return "\n".join(rows)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m scopa_solver.play.equity --rebuild [DIR] [GAME ...]``: measure the round
    outcomes again into DIR (default: the shipped folder). ``python -m scopa_solver.play.equity
    [GAME [TARGET [DEALER]]]``: the summary of every game, or a two-sided game's table."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE)
        print("Match equity: the summary of every game, one game's table to TARGET with DEALER dealing "
              "next, or --rebuild: measure the round outcomes again (docs/play.md, \"Match equity\").")
        return 0
    try:
        if args[:1] == ["--rebuild"]:
            rest = args[1:]
            folder = rest.pop(0) if rest and rest[0] not in PLANS else TABLE_FOLDER
            for game, n in rebuild(folder, rest or None, progress=True).items():
                print(f"{game}: {n} rounds")
            return 0
        if not args:
            print("\n".join(summary(game) for game in EQUITY_GAMES))
            return 0
        game, target, dealer = args[0], int(args[1]) if len(args) > 1 else 11, int(args[2]) if len(args) > 2 else 1
        if game not in EQUITY_GAMES:
            raise EquityError(f"no game {excerpt(game)}; games: {', '.join(EQUITY_GAMES)}")
        eq = MatchEquity.of(Rules(**{**EQUITY_GAMES[game].changes(), "target": target}))
        print(summary(game))
        print(table_text(eq, dealer))
        return 0
    except (EquityError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        print(USAGE, file=sys.stderr)
        return 2


USAGE = "usage: python -m scopa_solver.play.equity [--rebuild [DIR] [GAME ...] | GAME [TARGET [DEALER]]]"


if __name__ == "__main__":
    raise SystemExit(main())
