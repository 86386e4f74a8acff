"""A whole-game review, like a chess engine's game report, for every game of the family.

For every decision of every seat in a `GameRecord` the review sets the move played against

- the *hindsight* best: `analyze` of the full position, every card seen (what a clairvoyant
  player would have played), within a budget per decision (the `Limit`'s `nodes` and `time`), and
- the *fair* best: `suggest` (PIMC) on the player's own view, with `worlds` sampled worlds (or
  all of them when there are fewer; `FairReview`), which is what the player could have known.

and, on request (`equilibrium=True`, two-player Scopa), each decision of the last two deals
against the *equilibrium* of the real imperfect-information game from the player's view
(`scopa_solver.imperfect.equilibrium`): the played move's probability in it and its loss (the
best move's equilibrium value minus the played move's), bounded by an iteration and time budget
per decision.

Points lost are the best move's value minus the played move's value: the value of `analyze`
(objective "value"): the round margin of the mover's side with two sides, the paranoid value
(own side's points minus the best other side's) with three or more; for the fair figures, means
over the worlds. A decision that lost at least `INACCURACY` points is marked ``?!``, at least
`MISTAKE` ``?``, at least `BLUNDER` ``??``. The decision's mark (`Decision.mark`) is the *fair*
verdict's, from the loss the player could have known (`fair_loss`); only a decision not judged
fairly (no fair review, or its view not searched) falls back to the hindsight mark, and says so
(`Decision.verdict`). The hindsight mark stays beside it (`hindsight_mark`). Forced moves (one
legal move) are not judged.

Each finished round's margin splits per side into a *skill* part, from the decisions (the
points lost by the other sides, their mean with three or more, minus the side's own) and a
*cards* part, the rest (`Review.splits`; docs/play.md has the definition and an example).

A decision can stay unjudged, with the reason in `Decision.hindsight_reason` or `fair_reason`:
by hindsight when the exact search needs more than the budget (Scopone and scientifico early in
the deal need millions of nodes and more); each round is judged from its end backwards, and once
a position exceeds the budget the earlier ones of the round, with more cards in play, are not
searched. Fairly when the player's view cannot be searched within the limits (a `LimitError`;
in Scopone and scientifico early in the deal the worlds are searched to a horizon, see `suggest`). A summary per player (by name: in an arena the seats swap; or per seat)
adds up the judged decisions.

>>> from scopa_solver import Position
>>> from scopa_solver import GameRecord, RoundRecord
>>> start = Position.new_round(seed=5)
>>> first = lambda pos: pos.legal_moves()[0]
>>> from scopa_solver import play_round
>>> rec = GameRecord(players=("Ann", "Bob"))
>>> _ = rec.add_round(RoundRecord.from_play(start, play_round(start, first, first).moves))
>>> from scopa_solver import Limit
>>> r = review(rec, Limit(threads=1), fair=FairReview(worlds=4, seed=1), progress=False)
>>> len(r.decisions), sorted(r.summaries())
(36, ['Ann', 'Bob'])
>>> all(d.loss >= 0 for d in r.decisions)
True

Three players, a small hindsight budget: the first play is not judged (the budget counts
nodes, so how many early plays it leaves out can depend on what the searchers learnt before).

>>> from scopa_solver import Rules
>>> three = Rules(players=3)
>>> start = pos = Position.new_round(seed=3, rules=three)
>>> moves = []
>>> while not pos.is_round_over():
...     moves.append(pos.legal_moves()[0]); pos = pos.play(moves[-1])
>>> rec = GameRecord(rules=three, players=("Ann", "Bob", "Cid"), kind="rounds")
>>> _ = rec.add_round(RoundRecord.from_play(start, moves))
>>> r = review(rec, Limit(nodes=20_000), fair=None, progress=False)
>>> list(r.summaries()), r.decisions[0].judged, r.decisions[-1].judged
(['Ann', 'Bob', 'Cid'], False, True)
>>> r.decisions[0].hindsight_reason  # doctest: +ELLIPSIS
'...more than 20,000 nodes'
>>> r.format().splitlines()[0]
'round 1: Cid deals; Ann 1, Bob 3, Cid 0'
"""
from __future__ import annotations

import time
import zlib
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Sequence, Union

from .. import kernel
from ..errors import LimitError, MatchError, TimeLimitError, ViewError, excerpt
from ..imperfect.pimc import suggest
from ..progress import progress_bar
from ..text import plural as _plural
from ..core.position import Move, Position
from .record import GameRecord, ReplayedRound
from ..kernel.limit import Limit
from ..search.match import Match
from ..search.solver import analyze

__all__ = ["review", "Review", "FairReview", "Decision", "PlayerSummary", "SideSplit", "INACCURACY", "MISTAKE",
           "BLUNDER", "HINDSIGHT_NODES", "mark", "EQUILIBRIUM_ITERATIONS", "MATCH_INACCURACY", "MATCH_MISTAKE",
           "MATCH_BLUNDER"]

INACCURACY = 0.5
"""Points lost from which a decision is marked ``?!`` (only fair losses, means over worlds, can
fall between 0 and 1: a hindsight loss is a whole number)."""
MISTAKE = 1.0
"""Points lost from which a decision is marked ``?``."""
BLUNDER = 2.0
"""Points lost from which a decision is marked ``??``."""
MATCH_INACCURACY = 2.0
"""In a match review (``review(..., match=True)``): percentage points of the chance to win the
match lost from which a decision is marked ``?!``."""
MATCH_MISTAKE = 5.0
"""... from which a decision is marked ``?`` (a match review)."""
MATCH_BLUNDER = 10.0
"""... from which a decision is marked ``??`` (a match review)."""
HINDSIGHT_NODES = 10_000_000
"""The default budget of the hindsight search, per decision (about half a second; two-player
rounds need at most a few hundred thousand, Scopone's first plays far more)."""
_HINDSIGHT = Limit(nodes=HINDSIGHT_NODES)       # `review`'s limit when none is given


@dataclass(frozen=True)
class FairReview:
    """The fair judge of `review`, checked once when made: `suggest` (PIMC) on each decision's
    view with `worlds` worlds (all of them when there are fewer), drawn from `seed` (each
    decision its own seed from it), within `limit` per decision (its `time`, `nodes`,
    `horizon`, `tt_mb`, `threads` as `suggest` takes them; None: the review's `tt_mb` and
    `threads`, no time bound: not `suggest`'s own default).

    >>> FairReview(worlds=8)
    FairReview(worlds=8, seed=0, limit=None)
    >>> FairReview(worlds=0)
    Traceback (most recent call last):
    scopa_solver.errors.LimitError: worlds must be a positive whole number, not 0
    """

    worlds: int = 50
    seed: int = 0
    limit: Optional[Limit] = None

    def __post_init__(self) -> None:
        if not isinstance(self.worlds, int) or isinstance(self.worlds, bool) or self.worlds < 1:
            raise LimitError(f"worlds must be a positive whole number, not {excerpt(self.worlds)}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise LimitError(f"seed must be a whole number, not {excerpt(self.seed)}")
        if self.limit is not None and not isinstance(self.limit, Limit):
            raise LimitError(f"limit must be a Limit (e.g. Limit(time=2)), not {type(self.limit).__name__}")


def mark(loss: Optional[float], match: bool = False) -> str:
    """``??`` for a blunder, ``?`` for a mistake, ``?!`` for an inaccuracy, empty otherwise: by
    the points lost, or with `match` by the percentage points of the chance to win the match
    lost (`MATCH_INACCURACY`, `MATCH_MISTAKE`, `MATCH_BLUNDER`)."""
    if loss is None:
        return ""
    inaccuracy, mistake, blunder = ((MATCH_INACCURACY, MATCH_MISTAKE, MATCH_BLUNDER) if match
                                    else (INACCURACY, MISTAKE, BLUNDER))
    if loss >= blunder - 1e-9:
        return "??"
    if loss >= mistake - 1e-9:
        return "?"
    if loss >= inaccuracy - 1e-9:
        return "?!"
    return ""


def _dyadic(x: float) -> float:
    """`x` to the nearest 1/1024 of a point: such numbers (of a sane size) add and subtract
    exactly in binary floating point, so that a split's parts sum to its margin exactly."""
    return round(x * 1024) / 1024


@dataclass
class Decision:
    """One move of the game and what the solver thinks of it."""

    round: int                       # 1-based
    number: int                      # move number in the round, 1-based
    player: int                      # the seat
    name: str
    position: Position
    played: Move
    legal: int                       # legal moves in the position
    best: list[Move] = field(default_factory=list)   # hindsight: every optimal move
    best_value: Optional[int] = None                 # hindsight: the position's exact value
    played_value: Optional[int] = None               # hindsight: the played move's exact value
    fair_best: Optional[Move] = None                 # PIMC's best move from the player's view
    fair_best_mean: Optional[float] = None
    fair_played_mean: Optional[float] = None
    fair_worlds: int = 0
    fair_exact: bool = False
    hindsight_reason: Optional[str] = None           # why it was not judged by hindsight
    fair_reason: Optional[str] = None                # why it was not judged fairly
    eq_best: Optional[Move] = None                   # the equilibrium's most probable move
    eq_loss: Optional[float] = None                  # the played move's loss against the equilibrium
    eq_probability: Optional[float] = None           # the played move's equilibrium probability
    eq_exploitability: Optional[float] = None
    eq_reason: Optional[str] = None                  # why it was not judged against the equilibrium
    fair_means: dict[Move, float] = field(default_factory=dict)   # every legal move's fair mean
    comment: Optional[str] = None                    # the player's comment on the move (the record's)
    match: Optional[Match] = None                    # a match review: the score before the round; the
                                                     # values are chances (1/10,000ths), losses percentage points

    @property
    def forced(self) -> bool:
        return self.legal == 1

    @property
    def side(self) -> int:
        """The side of the player's seat (the seat itself with two players)."""
        return self.position.rules.sides[self.player]

    @property
    def judged(self) -> bool:
        """Judged by hindsight (forced moves count as judged: nothing was lost)."""
        return self.forced or (self.best_value is not None and self.played_value is not None)

    @property
    def loss(self) -> Optional[float]:
        """Points lost by hindsight: the best value minus the played move's (0 when forced;
        None when not judged, see `hindsight_reason`); in a match review (`match`) the
        percentage points of the chance to win the match lost."""
        if self.forced:
            return 0
        if self.best_value is None or self.played_value is None:
            return None
        lost = self.best_value - self.played_value
        return lost if self.match is None else lost / 100

    @property
    def fair_loss(self) -> Optional[float]:
        """Points lost by PIMC's estimate (None when the fair review was not run)."""
        if self.forced:
            return 0.0
        if self.fair_best_mean is None or self.fair_played_mean is None:
            return None
        lost = max(0.0, self.fair_best_mean - self.fair_played_mean)
        return lost if self.match is None else lost / 100

    @property
    def eq_mark(self) -> str:
        return mark(0.0 if self.forced else self.eq_loss)       # round points: the equilibrium is the margin's

    @property
    def verdict(self) -> Optional[str]:
        """What the decision's mark follows: ``"fair"`` (the player's view), ``"hindsight"``
        (no fair verdict: the fair review off, or the view not searched), ``"forced"``, or None
        (judged neither way)."""
        if self.forced:
            return "forced"
        if self.fair_loss is not None:
            return "fair"
        return "hindsight" if self.loss is not None else None

    @property
    def verdict_loss(self) -> Optional[float]:
        """The points lost by the verdict: `fair_loss`, else the hindsight `loss`."""
        if self.fair_loss is not None:
            return self.fair_loss
        return None if self.loss is None else float(self.loss)

    @property
    def mark(self) -> str:
        """``?!``, ``?`` or ``??`` by the verdict's points lost (fair, else hindsight: see `verdict`)."""
        return mark(self.verdict_loss, self.match is not None)

    @property
    def hindsight_mark(self) -> str:
        return mark(self.loss, self.match is not None)

    @property
    def fair_mark(self) -> str:
        return mark(self.fair_loss, self.match is not None)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready). ``fair`` is None when no fair review was run; a decision
        not judged has None figures and its ``reason``."""
        if self.fair_reason is not None:
            fair: Optional[dict[str, Any]] = {"best": None, "best_mean": None, "played_mean": None, "loss": None,
                                    "worlds": 0, "exact": False, "mark": "", "reason": self.fair_reason}
        elif self.fair_best is None and not self.forced:
            fair = None
        else:
            fair = {"best": str(self.fair_best) if self.fair_best else str(self.played),
                    "best_mean": self.fair_best_mean, "played_mean": self.fair_played_mean,
                    "loss": self.fair_loss, "worlds": self.fair_worlds, "exact": self.fair_exact,
                    "mark": self.fair_mark, "reason": None,
                    "means": {str(m): v for m, v in self.fair_means.items()}}
        return {
            "round": self.round, "move": self.number, "player": self.player, "side": self.side,
            "name": self.name, "position": self.position.to_string(), "played": str(self.played),
            "legal_moves": self.legal, "forced": self.forced, "mark": self.mark, "verdict": self.verdict,
            "comment": self.comment,
            "match": None if self.match is None else {"score": list(self.match.score), "target": self.match.target},
            "hindsight": {"best": [str(m) for m in self.best], "best_value": self.best_value,
                          "played_value": self.played_value, "loss": self.loss, "judged": self.judged,
                          "mark": self.hindsight_mark, "reason": self.hindsight_reason},
            "fair": fair,
            "equilibrium": None if self.eq_loss is None and self.eq_reason is None else
            {"best": str(self.eq_best) if self.eq_best else None, "loss": self.eq_loss,
             "probability": self.eq_probability, "exploitability": self.eq_exploitability,
             "mark": self.eq_mark, "reason": self.eq_reason},
        }


@dataclass(frozen=True)
class SideSplit:
    """One side's margin in one finished round, split into what its decisions and its
    opponents' made of it (`skill`) and what the cards did (`cards`): margin = skill + cards,
    exactly. The losses are the decisions' verdict losses (`Decision.verdict_loss`)."""

    round: int                       # 1-based
    side: int
    name: str                        # the side's name in that round ("Ann", "Ann & Cid")
    margin: int                      # its points minus the other's (the best other's, 3+ sides)
    lost: float                      # points lost by its own decisions
    others_lost: float               # points lost by the other sides' decisions (their mean, 3+ sides)
    skill: float                     # others_lost - lost (to 1/1024 of a point)
    cards: float                     # margin - skill
    by_hindsight: int = 0            # decisions (of every side) judged by hindsight only
    not_judged: int = 0              # decisions (of every side, not forced) judged neither way

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "side": self.side, "name": self.name, "margin": self.margin,
                "lost": self.lost, "others_lost": self.others_lost, "skill": self.skill, "cards": self.cards,
                "by_hindsight": self.by_hindsight, "not_judged": self.not_judged}


@dataclass
class PlayerSummary:
    """One player's figures over the reviewed decisions (forced moves excluded). The marks
    follow each decision's verdict (fair, else hindsight); ``hindsight_*`` are the hindsight
    marks alone."""

    name: str
    decisions: int = 0               # not forced
    forced: int = 0
    loss: float = 0                  # hindsight points lost in all (a match review: percentage points)
    best: int = 0                    # decisions that played a hindsight-optimal move
    inaccuracies: int = 0            # marked ?! (the verdict's mark)
    mistakes: int = 0                # marked ?
    blunders: int = 0                # marked ??
    by_hindsight: int = 0            # decisions whose mark is hindsight's (no fair verdict)
    hindsight_mistakes: int = 0      # hindsight mark ?
    hindsight_blunders: int = 0      # hindsight mark ??
    rounds: int = 0                  # finished rounds in the luck/skill split
    margin: int = 0                  # the sum of their side's margins over those rounds
    skill: float = 0.0               # ... of its skill parts
    cards: float = 0.0               # ... of its cards parts (margin = skill + cards exactly)
    fair_loss: float = 0.0
    fair_best: int = 0               # decisions that played PIMC's best move
    fair_mistakes: int = 0           # fair loss marked ? or ??
    fair_judged: int = 0
    not_judged: int = 0              # decisions (not forced) not judged by hindsight
    eq_loss: float = 0.0             # points lost against the endgame equilibrium
    eq_judged: int = 0

    @property
    def judged(self) -> int:
        """Decisions (not forced) judged by hindsight."""
        return self.decisions - self.not_judged

    @property
    def loss_per_decision(self) -> float:
        """Hindsight points lost per judged decision."""
        return self.loss / self.judged if self.judged else 0.0

    @property
    def accuracy(self) -> float:
        """Share of the judged decisions that played a hindsight-optimal move."""
        return self.best / self.judged if self.judged else 1.0

    @property
    def fair_loss_per_decision(self) -> Optional[float]:
        return self.fair_loss / self.fair_judged if self.fair_judged else None

    @property
    def agreement(self) -> Optional[float]:
        """Share of decisions that played PIMC's best move."""
        return self.fair_best / self.fair_judged if self.fair_judged else None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "decisions": self.decisions, "forced": self.forced,
                "fair_loss": self.fair_loss if self.fair_judged else None,
                "fair_loss_per_decision": self.fair_loss_per_decision, "agreement": self.agreement,
                "fair_judged": self.fair_judged,
                "fair_mistakes": self.fair_mistakes if self.fair_judged else None,
                "inaccuracies": self.inaccuracies, "mistakes": self.mistakes, "blunders": self.blunders,
                "by_hindsight": self.by_hindsight,
                "judged": self.judged, "loss": self.loss, "loss_per_decision": self.loss_per_decision,
                "accuracy": self.accuracy,
                "hindsight_mistakes": self.hindsight_mistakes, "hindsight_blunders": self.hindsight_blunders,
                "split": {"rounds": self.rounds, "margin": self.margin, "skill": self.skill, "cards": self.cards},
                "eq_loss": self.eq_loss if self.eq_judged else None, "eq_judged": self.eq_judged}


@dataclass
class Review:
    """The outcome of `review`: every decision in play order and a summary per player."""

    record: GameRecord
    decisions: list[Decision]
    worlds: Optional[int]            # PIMC worlds per decision (None: no fair review)
    seed: int
    seconds: float
    scores: list[Optional[tuple[int, ...]]]   # each round's points per side (None: unfinished)
    round_players: list[tuple[str, ...]]       # each round's name per seat
    limit: Limit = _HINDSIGHT        # the hindsight budget per decision (its nodes and time)
    budget: Optional[float] = None   # seconds for the whole review
    complete: bool = True            # False: the budget ran out before every decision was judged
    equilibrium: bool = False        # the last two deals judged against the endgame equilibrium
    match: bool = False              # judged by the chance to win the match (losses: percentage points)

    @property
    def max_nodes(self) -> Optional[int]:
        """The hindsight search's nodes per decision (None: no bound)."""
        return self.limit.nodes

    @property
    def time_limit(self) -> Optional[float]:
        """The hindsight search's seconds per decision (None: no bound)."""
        return self.limit.time

    def summaries(self, by: str = "name") -> dict[str, PlayerSummary]:
        """Per player name (`by="name"`, in order of appearance) or per seat (`by="seat"`:
        "seat 0", "seat 1", ...)."""
        if by not in ("name", "seat"):
            raise ValueError(f"summaries are by 'name' or 'seat', not {by!r}")
        out: dict[str, PlayerSummary] = {}
        for names in self.round_players:
            for seat, n in enumerate(names):
                key = n if by == "name" else f"seat {seat}"
                out.setdefault(key, PlayerSummary(key))
        for d in self.decisions:
            key = d.name if by == "name" else f"seat {d.player}"
            s = out.setdefault(key, PlayerSummary(key))
            if d.forced:
                s.forced += 1
                continue
            s.decisions += 1
            m = d.mark
            s.inaccuracies += m == "?!"
            s.mistakes += m == "?"
            s.blunders += m == "??"
            s.by_hindsight += d.verdict == "hindsight"
            loss = d.loss
            if loss is None:
                s.not_judged += 1
            else:
                s.loss += loss
                s.best += loss == 0
                s.hindsight_mistakes += d.hindsight_mark == "?"
                s.hindsight_blunders += d.hindsight_mark == "??"
            if d.eq_loss is not None:
                s.eq_judged += 1
                s.eq_loss += d.eq_loss
            if d.fair_loss is not None:
                s.fair_judged += 1
                s.fair_loss += d.fair_loss
                s.fair_best += d.fair_best == d.played
                s.fair_mistakes += d.fair_mark in ("?", "??")
        for sp in self.splits():
            names = self.round_players[sp.round - 1]
            sides = self.record.rules.sides
            keys = {n if by == "name" else f"seat {seat}" for seat, n in enumerate(names) if sides[seat] == sp.side}
            for key in keys:
                s = out[key]
                s.rounds += 1
                s.margin += sp.margin
                s.skill += sp.skill
                s.cards += sp.cards
        return out

    def splits(self) -> list[SideSplit]:
        """The luck/skill split of every finished round reviewed whole (every player's
        decisions), per side: margin = skill + cards, where skill = the points lost by the other
        sides' decisions (their mean with three or more sides) minus those lost by the side's
        own, by each decision's verdict (fair, else hindsight; not judged counts 0, and the split
        says how many). A match review has none: its losses are chances to win the match."""
        if self.match:
            return []
        sides = self.record.rules.sides
        count = max(sides) + 1
        out = []
        for number in sorted({d.round for d in self.decisions}):
            score = self.scores[number - 1]
            ours = [d for d in self.decisions if d.round == number]
            if score is None or len(ours) < len(self.record.rounds[number - 1].moves):
                continue            # unfinished, or only some players reviewed: no split
            lost = [0.0] * count
            by_hindsight = not_judged = 0
            for d in ours:
                if d.forced:
                    continue
                loss = d.verdict_loss
                if loss is None:
                    not_judged += 1
                    continue
                lost[d.side] += loss
                by_hindsight += d.verdict == "hindsight"
            names = self.record.side_names(number - 1)
            for side in range(count):
                others = [t for t in range(count) if t != side]
                others_lost = sum(lost[t] for t in others) / len(others)
                margin = score[side] - max(score[t] for t in others)
                skill = _dyadic(others_lost - lost[side])
                out.append(SideSplit(round=number, side=side, name=names[side], margin=margin, lost=lost[side],
                                     others_lost=others_lost, skill=skill, cards=margin - skill,
                                     by_hindsight=by_hindsight, not_judged=not_judged))
        return out

    def mistakes(self) -> list[Decision]:
        """The decisions marked ``?!``, ``?`` or ``??`` (by their verdict, see `Decision.mark`)."""
        return [d for d in self.decisions if d.mark]

    def not_judged(self) -> dict[str, list[Decision]]:
        """The decisions not judged, by hindsight (``"hindsight"``) and fairly (``"fair"``)."""
        return {"hindsight": [d for d in self.decisions if not d.judged],
                "fair": [d for d in self.decisions if d.fair_reason is not None]}

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the record's players and rules, every decision, the summaries
        (per name, and per seat)."""
        rules = self.record.rules
        return {"players": list(self.record.players), "kind": self.record.kind, "rules": rules.tokens(),
                "seat_sides": list(rules.sides),
                "worlds": self.worlds, "seed": self.seed, "seconds": self.seconds,
                "max_nodes": self.max_nodes, "time_limit": self.time_limit, "equilibrium": self.equilibrium,
                "budget": self.budget, "complete": self.complete, "match": self.match,
                "loss_unit": "percentage points of the chance to win the match" if self.match else "points",
                "thresholds": ({"inaccuracy": MATCH_INACCURACY, "mistake": MATCH_MISTAKE, "blunder": MATCH_BLUNDER}
                               if self.match else {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER}),
                "splits": [sp.to_dict() for sp in self.splits()],
                "rounds": [{"round": i + 1, "players": list(names), "sides": list(self.record.side_names(i)),
                            "dealer": self.record.rounds[i].dealer,
                            "score": list(score) if score else None}
                           for i, (names, score) in enumerate(zip(self.round_players, self.scores))],
                "decisions": [d.to_dict() for d in self.decisions],
                "summary": [s.to_dict() for s in self.summaries().values()],
                "seat_summary": [s.to_dict() for s in self.summaries("seat").values()],
                "hints": self.record.hints_used()}

    def format(self, all_moves: bool = True) -> str:
        """The report as aligned text: each round's decisions (all of them, or only the marked
        ones) with the round's luck/skill split, and the summary per player. The mark beside
        the move played is the verdict's (fair, else hindsight, starred); the hindsight
        columns carry their own."""
        fair = self.worlds is not None
        width = max([len(n) for names in self.round_players for n in names] + [6])
        lines = []
        reviewed = {d.round for d in self.decisions}
        splits = self.splits()
        for i, (names, score) in enumerate(zip(self.round_players, self.scores)):
            if i + 1 not in reviewed:
                continue
            rec = self.record.rounds[i]
            sides = self.record.side_names(i)
            result = ", ".join(f"{n} {p}" for n, p in zip(sides, score)) if score else "unfinished"
            lines.append(f"round {i + 1}: {names[rec.dealer]} deals; {result}")
            head = f"  {'#':>3}  {'player':<{width}}  {'played':<13} {'':3}"
            if fair:
                head += f"  {'best (fair)':<13} {'lost':>5}"
            head += f"   {'best (hindsight)':<16} {'value':>6} {'lost':>4}" + ("    " if fair else "")
            if self.equilibrium:
                base = len(head) + 2
                head += f"  {'best (equilibrium)':<18} {'prob':>5} {'lost':>5}"
            lines.append(head.rstrip())
            rows = [d for d in self.decisions if d.round == i + 1 and (all_moves or d.mark or d.hindsight_mark or d.comment)]
            for d in rows:
                shown = d.mark + ("*" if d.mark and d.verdict == "hindsight" else "")
                line = f"  {d.number:>3}  {d.name:<{width}}  {str(d.played):<13} {shown:<3}"
                if fair:
                    if d.forced:
                        line += f"  {'':<13} {'':>5}"
                    elif d.fair_loss is None:
                        line += f"  {'n/a' if d.fair_reason else '?':<13} {'':>5}"
                    else:
                        fl = f"{d.fair_loss:.2f}" if d.fair_loss >= 0.005 else "-"      # points, or percentage points
                        fb = d.played if d.fair_loss < 0.005 else d.fair_best
                        line += f"  {str(fb):<13} {fl:>5}"
                if d.forced:
                    best, value, lost = "(forced)", "", ""
                elif not d.judged:
                    best, value, lost = "(not judged)", "", ""
                else:
                    best = str(d.played if d.played in d.best else d.best[0]) if d.best else "?"
                    value = ("" if d.best_value is None else f"{d.best_value:+d}" if d.match is None
                             else f"{d.best_value / 100:.1f}%")
                    lost = "-" if not d.loss else str(d.loss) if d.match is None else f"{d.loss:.2f}"
                line += f"   {best:<16} {value:>6} {lost:>4}" + (f" {d.hindsight_mark:<3}" if fair else "")
                if self.equilibrium and d.eq_loss is not None and not d.forced:
                    el = f"{d.eq_loss:.2f}" if d.eq_loss >= 0.005 else "-"
                    line = f"{line:<{base}}{str(d.eq_best):<18} {d.eq_probability:>5.2f} {el:>5} {d.eq_mark}"
                lines.append(line.rstrip())
                if d.comment:
                    lines.append(f"  {'':>3}  {'':<{width}}  comment: {_one_line(d.comment)}")
            if not rows:
                lines.append("  (no marked moves)")
            parts = [sp for sp in splits if sp.round == i + 1]
            if parts:
                lines.append("  margin = skill + cards: " + "; ".join(
                    f"{sp.name} {sp.margin:+d} = {sp.skill:+.2f} {'+' if sp.cards >= 0 else '-'} {abs(sp.cards):.2f}"
                    for sp in parts) + _split_note(parts[0]))
            lines.append("")
        if self.match:
            lines.append(f"judged by the chance to win the match (to {self.record.rules.target}) from the score "
                         "before each round: values are chances, losses percentage points of it")
        lines.append(f"summary ({'marks by the fair verdict' if fair else 'no fair review: marks by hindsight'}: "
                     + (f"?! lost {MATCH_INACCURACY:g} percentage points or more, ? {MATCH_MISTAKE:g} or more, "
                        f"?? {MATCH_BLUNDER:g} or more; " if self.match else
                        f"?! lost {INACCURACY:g} point or more, ? {MISTAKE:g} or more, ?? {BLUNDER:g} or more; ")
                     + (f"* by hindsight, no fair verdict; fair: PIMC with {_plural(self.worlds, 'world')} per "
                        f"decision, seed {self.seed}; margin = skill + cards)" if self.worlds is not None
                        else "margin = skill + cards)"))
        head = f"  {'player':<{width}}  {'moves':>5} {'forced':>6}"
        if fair:
            head += f"  {'fair lost':>9} {'per move':>8} {'agree':>5}"
        head += (f" {'?!':>3} {'?':>3} {'??':>3}   {'hindsight lost':>14} {'per move':>8} {'best':>5} {'?':>3} {'??':>3}"
                 f"   {'margin':>6} {'skill':>6} {'cards':>6}")
        lines.append(head)
        for s in self.summaries().values():
            line = f"  {s.name:<{width}}  {s.decisions:>5} {s.forced:>6}"
            if fair:
                line += (f"  {s.fair_loss:>9.2f} {s.fair_loss_per_decision:>8.2f} {100 * (s.agreement or 0):>4.0f}%"
                         if s.fair_judged else f"  {'':>9} {'':>8} {'':>5}")
            line += (f" {s.inaccuracies:>3} {s.mistakes:>3} {s.blunders:>3}   {s.loss:>14.4g} {s.loss_per_decision:>8.2f} "
                     f"{100 * s.accuracy:>4.0f}% {s.hindsight_mistakes:>3} {s.hindsight_blunders:>3}")
            if s.rounds:
                line += f"   {s.margin:>+6d} {s.skill:>+6.2f} {s.cards:>+6.2f}"
            lines.append(line.rstrip())
        skipped = self.not_judged()
        if skipped["hindsight"]:
            lines.append(f"not judged by hindsight: {_plural(len(skipped['hindsight']), 'decision')} over the "
                         f"budget of {_budget(self.limit)} (the latest of a round "
                         "searched, the earlier ones, with more cards in play, skipped)")
        if skipped["fair"]:
            reasons = sorted({d.fair_reason or "" for d in skipped["fair"]})
            lines.append(f"not judged fairly: {_plural(len(skipped['fair']), 'decision')} ({reasons[0]}"
                         + (f"; {_plural(len(reasons) - 1, 'other reason')}" if len(reasons) > 1 else "") + ")")
        if self.equilibrium:
            for s in self.summaries().values():
                if s.eq_judged:
                    lines.append(f"  {s.name}: {s.eq_loss:.2f} points lost against the endgame equilibrium over "
                                 f"{_plural(s.eq_judged, 'decision')} of the last two deals")
        hints = self.record.hints_used()
        if hints:       # the help asked for in play (`record.Hint`)
            lines.append("hints asked for: " + ", ".join(f"{name} {count}" for name, count in hints.items()))
        lines.append(f"{_plural(len(self.decisions), 'decision')} reviewed in {self.seconds:.1f} s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _one_line(text: str, width: int = 200) -> str:
    """A comment on one line: its line breaks as spaces, cut at `width` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def _split_note(sp: SideSplit) -> str:
    """What a round's split leaves out: the decisions judged by hindsight only or not at all."""
    notes = ([f"{_plural(sp.by_hindsight, 'decision')} by hindsight"] if sp.by_hindsight else []) + \
            ([f"{_plural(sp.not_judged, 'decision')} not judged"] if sp.not_judged else [])
    return f" ({', '.join(notes)})" if notes else ""


def _decision_seed(seed: int, round_number: int, move_number: int) -> int:
    return zlib.crc32(f"{seed}:{round_number}:{move_number}".encode()) | (seed & 0xFFFFFFFF) << 32


def _budget(limit: Limit) -> str:
    parts = ([_plural(limit.nodes, "node")] if limit.nodes is not None else []) + \
            ([f"{limit.time:g} s"] if limit.time is not None else [])
    return " and ".join(parts)


def _judge_hindsight(d: Decision, limit: Limit) -> bool:
    """Set `d`'s hindsight figures by `analyze` within `limit` (exact only: horizon 0); False
    when the search did not finish (then `d.hindsight_reason` says so)."""
    rows = analyze(d.position, limit, objective="value" if d.match is None else d.match)
    if any(row.value is None for row in rows):
        d.hindsight_reason = f"the exact search needs more than {_budget(limit)}"
        return False
    d.best_value = rows[0].value
    d.best = [row.move for row in rows if row.value == d.best_value]
    d.played_value = next(row.value for row in rows if row.move == d.played)
    return True


def _suggest(d: Decision, fair: FairReview, limit: Limit) -> Any:
    """`suggest` on `d`'s view within `limit` (the fair judge's searches)."""
    return suggest(d.position.view(d.player), limit, worlds=fair.worlds,
                   seed=_decision_seed(fair.seed, d.round, d.number), progress=False,   # no time: none
                   objective="value" if d.match is None else d.match)


def _judge_fair(d: Decision, fair: FairReview, limit: Limit) -> None:
    """Set `d`'s fair figures by `suggest` on the player's view; a view or search that the
    game does not support (yet) leaves them None with `d.fair_reason`."""
    try:
        s = _suggest(d, fair, limit)
        played = next(m.mean for m in s.moves if m.move == d.played)
    except TimeLimitError:
        raise                       # the review's budget: `review` stops
    except (ViewError, LimitError) as exc:
        d.fair_reason = str(exc)
        return
    d.fair_best = s.best
    d.fair_best_mean = s.moves[0].mean
    d.fair_played_mean = played
    d.fair_worlds = s.worlds
    d.fair_exact = s.exact
    d.fair_means = {m.move: m.mean for m in s.moves}


EQUILIBRIUM_ITERATIONS = 1000
"""The CFR+ iterations at most of one decision's equilibrium in `review` (the exploitability
target, 0.01 round points, is reached in far fewer: tens)."""


def _judge_equilibrium(d: Decision, limit: Limit) -> None:
    """Set `d`'s equilibrium figures (two-player Scopa, the last two deals) within `limit` (its
    time, threads and nodes); other decisions are left alone, a limit reached leaves
    `d.eq_reason`."""
    from ..imperfect.equilibrium import equilibrium
    pos = d.position
    if not pos.rules.is_standard or pos.deals_left > 1 or d.forced or d.match is not None:
        return
    try:
        eq = equilibrium(pos.view(d.player), limit, max_iterations=EQUILIBRIUM_ITERATIONS)
    except TimeLimitError:
        raise
    except (ViewError, LimitError) as exc:
        d.eq_reason = str(exc)
        return
    d.eq_best = eq.best
    d.eq_loss = eq.losses[d.played]
    d.eq_probability = eq.strategy[d.played]
    d.eq_exploitability = eq.exploitability


def _review_limits(limit: Optional[Limit], fair: Optional[FairReview],
                   equilibrium: Union[bool, Limit]) -> tuple[Limit, Optional[Limit], Optional[Limit]]:
    """The limits of the three judges' searches: hindsight (exact), fair, equilibrium (None:
    that judge does not run)."""
    if limit is None:
        limit = _HINDSIGHT
    if not isinstance(limit, Limit):
        raise LimitError(f"limit must be a Limit (e.g. Limit(nodes=10**6)), not {type(limit).__name__}")
    if limit.horizon:
        raise LimitError("the hindsight search is exact: Limit.horizon does not apply to a review "
                         "(a fair search's horizon goes in FairReview(limit=...))")
    if fair is not None and not isinstance(fair, FairReview):
        raise LimitError(f"fair must be a FairReview or None, not {type(fair).__name__}")
    if not isinstance(equilibrium, (bool, Limit)):
        raise LimitError(f"equilibrium must be True, False or a Limit, not {type(equilibrium).__name__}")
    shared = Limit(tt_mb=limit.tt_mb, threads=limit.threads)     # a judge's searches with no limit of their own
    nodes = HINDSIGHT_NODES if limit.nodes is None else limit.nodes        # None: the default
    hindsight = Limit(nodes=nodes, time=limit.time, tt_mb=limit.tt_mb, horizon=0)   # exact only
    fair_limit = None if fair is None else shared if fair.limit is None else fair.limit
    eq_limit = equilibrium if isinstance(equilibrium, Limit) else Limit(threads=limit.threads) if equilibrium \
        else None
    return hindsight, fair_limit, eq_limit


def review(record: GameRecord, limit: Optional[Limit] = None, *, fair: Optional[FairReview] = FairReview(),
           equilibrium: Union[bool, Limit] = False, rounds: Optional[Sequence[int]] = None,
           players: Optional[Sequence[str]] = None, budget: Optional[float] = None,
           progress: Optional[bool] = None, match: Any = False) -> Review:
    """Review every decision of `record` (see the module docstring).

    `limit` (a `Limit`; None: the defaults) is each decision's budget: its `nodes` (None:
    `HINDSIGHT_NODES`; no bound: a number no search reaches, e.g. 2**63) and `time` (seconds;
    None: none) bound the hindsight search of each decision (a decision over them is not judged
    by hindsight), always exact (a `horizon` is refused); `tt_mb` the tables; `threads`
    the workers of the fair and equilibrium searches (None: every core; the hindsight search
    runs on one thread, so that its node budget judges alike on every machine). `deadline`
    ends the whole review, as `budget` does.

    `fair` (a `FairReview`; None skips the fair review): the PIMC worlds per decision, their
    seed (the same seed, the same worlds) and the limit of each fair `suggest`.
    `equilibrium`: True (or a `Limit` for each decision's search: its `time`, `threads` and
    `nodes`) also judges the two-player decisions of the last two deals against the endgame
    equilibrium (`equilibrium`, at most `EQUILIBRIUM_ITERATIONS` CFR+ iterations each: the first
    play of the last-but-one deal takes about 10 s). `rounds` (1-based numbers) and `players`
    (names) restrict the review. `progress`: a progress bar over the decisions (None: on a
    terminal, after a second).

    `budget` (seconds, None: none) bounds the whole review, every search in it included
    (`kernel.time_box`): when it (or `limit.deadline`) runs out the review stops and returns
    what it has, with `complete` False; the decisions it did not judge give the reason
    (`hindsight_reason`, `fair_reason`). It is a keyword of its own, not the `Limit`'s `time`:
    that is each decision's, this the whole review's.

    `match` (True, or a match equity: any object with ``after_round(score, round_points, dealer,
    side)``; False: the round margin) judges every decision by the chance to win the match
    instead: the score before each round from the record's running totals
    (`GameRecord.running_totals`), the target the rules', each search under `Match(score, target,
    equity)` (True: the shipped equity), hindsight and fair alike. Values are then chances in
    1/10,000ths, the losses (`Decision.loss`, `fair_loss`) percentage points of the chance to win
    the match, marked by `MATCH_INACCURACY`, `MATCH_MISTAKE` and `MATCH_BLUNDER`; there is no
    luck/skill split, and the equilibrium (a round's margin) is not run."""
    hindsight, fair_limit, eq_limit = _review_limits(limit, fair, equilibrium)
    kernel.check_limits(None, budget)
    end = None if limit is None or limit.deadline is None else limit.deadline
    start = time.perf_counter()
    box = budget
    if end is not None:
        left = max(end - time.monotonic(), 1e-9)
        box = left if budget is None else min(budget, left)
    replayed = record.replay()       # checked once; each round's positions are replayed below
    chosen = [r for r in replayed if rounds is None or r.number in rounds]
    befores = _scores_before(record, match)
    by_match = not (match is False or match is None)

    def wanted(r: ReplayedRound) -> Iterator[tuple[int, Position, Move]]:
        """(move index, position, move) of the decisions of round `r` to review."""
        for k, (pos, move) in enumerate(zip(r.iter_positions(), r.moves)):
            if players is None or r.players[pos.to_move] in players:
                yield k, pos, move

    total = (sum(len(r.moves) for r in chosen) if players is None
             else sum(1 for r in chosen for _ in wanted(r)))

    def decisions_of(r: ReplayedRound) -> list[Decision]:
        return [Decision(round=r.number, number=k + 1, player=pos.to_move, name=r.players[pos.to_move],
                         position=pos, played=move, legal=len(pos.legal_moves()),
                         comment=r.record.comments.get(k + 1), match=befores[r.number - 1])
                for k, pos, move in wanted(r)]

    decisions: list[Decision] = []
    complete, reviewed = True, 0      # rounds reviewed to the end
    bar = progress_bar(total, "review", progress, unit="move")
    scope = ExitStack()
    try:
        scope.enter_context(kernel.time_box(box, "the review"))
        for r in chosen:
            found = decisions_of(r)
            # From the end of the round backwards: once a position is over the budget, the
            # earlier ones (more cards in play) would be too, and are not searched.
            over: Optional[Decision] = None
            for d in reversed(found):
                if not d.forced:
                    if over is not None:
                        d.hindsight_reason = (f"not searched: a later position of the round (move "
                                              f"{over.number}) already needed more than "
                                              f"{_budget(hindsight)}")
                    elif not _judge_hindsight(d, hindsight):
                        over = d
                    if fair is not None and fair_limit is not None:
                        _judge_fair(d, fair, fair_limit)
                    if eq_limit is not None:
                        _judge_equilibrium(d, eq_limit)
                bar.update(1)
            decisions.extend(found)
            reviewed += 1
    except TimeLimitError as exc:   # the budget ran out: what is judged stays, the rest says why
        complete = False
        decisions.extend(found)     # the round it stopped in, then those not started
        decisions.extend(d for r in chosen[reviewed + 1:] for d in decisions_of(r))
        for d in decisions:
            if not d.judged and d.hindsight_reason is None:
                d.hindsight_reason = f"not judged: {exc}"
            if fair is not None and not d.forced and d.fair_best is None and d.fair_reason is None:
                d.fair_reason = f"not judged: {exc}"
    finally:
        scope.close()
        bar.close()
    return Review(record=record, decisions=decisions, worlds=None if fair is None else fair.worlds,
                  seed=0 if fair is None else fair.seed, seconds=time.perf_counter() - start,
                  scores=[r.points for r in replayed], round_players=[r.players for r in replayed],
                  limit=Limit(nodes=hindsight.nodes, time=hindsight.time),
                  equilibrium=eq_limit is not None and not by_match, budget=budget, complete=complete,
                  match=by_match)


def _scores_before(record: GameRecord, match: Any) -> list[Optional[Match]]:
    """Each round's `Match` (the sides' totals before it, the rules' target, the equity of
    `match`: True the shipped one), or None for every round when `match` is False."""
    count = len(record.rounds)
    if match is False or match is None:
        return [None] * count
    if match is not True and not callable(getattr(match, "after_round", None)):
        raise MatchError(f"match must be True, False or a match equity (with after_round), not {excerpt(match)}")
    equity = None if match is True else match
    totals = [tuple([0] * record.rules.side_count)] + [tuple(t) for t in record.running_totals()]
    return [Match(totals[i], record.rules.target, equity) for i in range(count)]
