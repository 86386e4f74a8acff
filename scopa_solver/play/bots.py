"""Move choosers for `play_round`, `play_match` and `arena`.

A bot is called with the full `Position` (the game loop knows every card) but, except for the
`OracleBot`, decides from ``position.view(position.to_move)`` only: what that player knows. Its
`choose(view)` is a pure function of the view and the bot's seed, so two positions that look the
same to the player get the same move, and no hidden card can leak into a decision.

- `RandomBot`: a uniformly random legal move.
- `GreedyBot`: a one-ply heuristic (see its docstring for the weights).
- `PIMCBot`: the best move of `suggest` (determinization over the worlds of the view).
- `OracleBot`: sees every card and plays the exact solver's move: the upper reference.

A searching bot decides within a time budget (its `limit`'s `time`, seconds a decision:
default `Limit(time=DECISION_SECONDS)`; `Limit()`: no budget, the search runs to its end): the budget reaches every
search the decision runs (`kernel.time_budget`), and a decision it cuts falls back to the best
answer the bot has by then (docs/play.md, "Time budgets"). A budget only binds where the search
would take longer, and there the move depends on the machine's speed; give None for
reproducible experiments (`Limit()`). The `OracleBot`, the exact reference, has none by default. In the
family games several bots move between two of a player's turns: `PIMCBot` there searches fewer
worlds of fewer nodes (`FAMILY_WORLDS`, `FAMILY_WORLD_NODES`: the same on every machine), and
`decision_seconds(rules)` is the game's share of a player's wait (`TURN_SECONDS`).

To win the match rather than the round: `OracleBot` and `PIMCBot` with ``objective="match"``
search under `Match(score, target)` once told the match score by `Bot.start_round`, which
`play_match`, `arena` and the terminal's play call before every round (docs/play.md, "Playing
to win the match").

Every bot plays every game of the family (docs/FAMILY.md), each seat deciding from its own
view (partners do not see each other's hands); the opponent model (`InferenceBot`) is
two-player only.

>>> from scopa_solver import Position, play_round
>>> result = play_round(Position.new_round(seed=4), GreedyBot(), RandomBot(seed=1))
>>> result.final.is_round_over()
True
"""
from __future__ import annotations

import random
from typing import Any, Callable, Optional, TypeVar, Union

from .. import kernel
from ..core.cards import COINS_MASK, DECK, SETTEBELLO_MASK, iter_cards, popcount
from ..core.rules import Rules
from ..imperfect.pimc import EXACT_LIMIT, WORLD_NODES, suggest
from ..core.position import Move, Position
from ..kernel.limit import NO_LIMIT, Limit
from ..search.solver import analyze, solve
from ..core.view import View, view_seed
from ..errors import LimitError, MatchError, excerpt
from ..search.match import Match

__all__ = ["BOT_OBJECTIVES", "Bot", "RandomBot", "GreedyBot", "PIMCBot", "OracleBot", "PhaseBot", "DECISION_SECONDS", "within",
           "is_exact", "TURN_SECONDS", "FAMILY_WORLDS", "FAMILY_WORLD_NODES", "decision_seconds"]

DECISION_SECONDS = 2.0
"""The default time budget of a searching bot's decision, in seconds: a wait a player accepts
from an opponent at the table (docs/play.md, "Time budgets")."""

TURN_SECONDS = 4.0
"""What a player may wait between two of their turns, all the bots' moves together: the time
budgets of a game with more players are shares of it (`decision_seconds`)."""

FAMILY_WORLDS = 30
"""`PIMCBot`'s default worlds a decision in the family games (more than two players; 100 with two)."""

FAMILY_WORLD_NODES = 200_000
"""`PIMCBot`'s default node budget of one world in the family games (`suggest`'s `Limit.nodes`;
`WORLD_NODES` with two players): early in a deal it keeps the horizon at 8 plies where a million
nodes reach 12 (8 times the time), and it makes the decision's length a node count, the same on
every machine, so the time budget seldom binds and the bots stay reproducible (docs/play.md)."""


def decision_seconds(rules: Optional[Rules] = None) -> float:
    """The default time budget of one bot's decision in the game of `rules` (None: two-player
    Scopa): `DECISION_SECONDS`, or less where more bots play between two of a player's turns,
    so that all of them fit in `TURN_SECONDS` (1.33 s each with four players, 0.8 s with six)."""
    players = 2 if rules is None else rules.players
    return min(DECISION_SECONDS, TURN_SECONDS / (players - 1))

T = TypeVar("T")


def within(share: float, search: Callable[[], T]) -> T:
    """`search()` under a budget of `share` of what is left of the decision's (all of it
    without one): the stages of a decision that falls back to a cheaper answer get the rest."""
    left = kernel.budget_left()
    with kernel.time_budget(None if left is None else max(share * left, 1e-6)):
        return search()

_SETTEBELLO = SETTEBELLO_MASK
_SEVENS = sum(DECK[s * 10 + 6].mask for s in range(4))


BOT_OBJECTIVES = ("value", "match")
"""What a searching bot plays for: "value" (the round's margin) or "match" (the chance to win the
match, `Match(score, target)`, once `Bot.start_round` told it the score; the margin before)."""


def _check_bot_objective(objective: Any) -> str:
    if not isinstance(objective, str) or objective not in BOT_OBJECTIVES:
        raise MatchError(f"a bot's objective must be 'value' or 'match', not {excerpt(objective)}")
    return objective


class Bot:
    """Base class: `__call__(position)` decides from the side to move's view with `choose`."""

    name = "bot"
    objective = "value"     # a searching bot's goal (`BOT_OBJECTIVES`)
    equity: Any = None      # its match equity under "match" (None: the shipped one)
    match: Optional[Match] = None    # what it searches under, once told the score

    def __call__(self, position: Position) -> Move:
        return self.choose(position.view(position.to_move))

    def choose(self, view: View) -> Move:  # pragma: no cover - abstract
        raise NotImplementedError

    def start_round(self, score: Optional[tuple[int, ...]], target: Optional[int]) -> None:
        """Told before each round of a match (`play_match`, `arena`, the terminal's play): the
        sides' match points so far (side 0 first) and the target; None for both before a round
        played alone. A bot with ``objective="match"`` searches under `Match(score, target,
        equity)` from then on (the margin again after ``(None, None)``); the others ignore it."""
        if self.objective == "match":
            self.match = None if score is None else Match(score, target, self.equity)

    def __repr__(self) -> str:
        return self.name


class RandomBot(Bot):
    """A uniformly random legal move; the same seed and view give the same move.

    >>> view = Position.new_round(seed=11).view(0)
    >>> RandomBot(seed=3).choose(view) == RandomBot(seed=3).choose(view)
    True
    """

    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = random.SystemRandom().getrandbits(32) if seed is None else seed
        self.name = "Random"

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        return random.Random(view_seed(self.seed, view)).choice(moves)


class GreedyBot(Bot):
    """A one-ply heuristic: the move with the highest score, where

    - a capture scores `card` per card taken (the played card included), plus `coin` per coin,
      `settebello` for the 7d, `seven` per seven and `scopa` for a sweep that scores;
    - a lay-down costs what it offers the opponent: `settebello` / 2 for the 7d, `seven` / 2 for a
      seven, `coin` / 2 for a coin, and `primiera` per primiera point (keep sevens, sixes and aces);
    - leaving a table that one card can sweep (its values add up to 10 or less) costs
      `sweepable` times the chance that the next hand to play holds such a card (from the
      unseen cards; nothing when the round ends first). In the family games the next hand is
      the next seat's: an opponent's sweep chance costs, a partner's gains (with partnerships
      the next seat is always an opponent, but a game may seat partners side by side). In
      Scopa a 15 a table is sweepable by the card that brings it to 15.

    Ties go to the first move in text order. The ace sweep of `asso_piglia_tutto` is not
    foreseen (the moves themselves always follow the rules).

    >>> view = Position.new_round(seed=11).view(0)
    >>> [(str(m), round(score, 2)) for m, score in GreedyBot().scores(view)]
    [('Fdx7d+Ac', 18.5), ('FdxAc+7s', 7.0), ('Cc', -0.2), ('4s', -0.28)]
    """

    def __init__(self, card: float = 1.0, coin: float = 1.5, settebello: float = 10.0,
                 seven: float = 2.5, scopa: float = 12.0, sweepable: float = 8.0, primiera: float = 0.02) -> None:
        self.weights = dict(card=card, coin=coin, settebello=settebello, seven=seven, scopa=scopa,
                            sweepable=sweepable, primiera=primiera)
        defaults = GreedyBot.__init__.__defaults__ or ()      # in the order of the weights
        changed = [f"{k}={v:g}" for (k, v), d in zip(self.weights.items(), defaults) if v != d]
        self.name = f"Greedy({', '.join(changed)})" if changed else "Greedy"

    def scores(self, view: View) -> list[tuple[Move, float]]:
        """Every legal move with its heuristic score, best first."""
        # the next seat plays next: with the cards it holds, or a fresh hand of 3 after a deal
        n = view.rules.players
        after = (view.player + 1) % n
        next_hand = view.hidden_hands[after] or (3 if view.stock_cards else 0)
        partner = view.rules.sides[after] == view.rules.sides[view.player]
        fifteen = view.rules.capture == "fifteen"
        out = [(move, self.move_score(move, view.table, view.is_scopa(move), view.unseen, next_hand, partner,
                                      fifteen)) for move in view.legal_moves()]
        out.sort(key=lambda ms: (-ms[1], str(ms[0])))
        return out

    def move_score(self, move: Move, table: int, scopa: bool, unseen: int, next_hand: int,
                   next_is_partner: bool = False, fifteen: bool = False) -> float:
        """The score of `move` played on `table` (a card mask): `scopa` tells whether it sweeps,
        `unseen` is the mask of the cards the mover cannot see and `next_hand` how many cards
        the next hand to play will hold (0 when the round ends first); `next_is_partner` turns
        its sweep chance from a cost into a gain, `fifteen` (Scopa a 15) makes a table sweepable
        by the card that brings it to 15. What `scores` adds up for each legal move; the
        opponent model of `InferenceBot` scores hypothetical hands with it."""
        w = self.weights
        card = move.card
        taken = sum(c.mask for c in move.captures)
        score = 0.0
        if taken:
            pile = taken | card.mask
            score += w["card"] * popcount(pile) + w["coin"] * popcount(pile & COINS_MASK)
            score += w["settebello"] * bool(pile & _SETTEBELLO) + w["seven"] * popcount(pile & _SEVENS)
            if scopa:
                score += w["scopa"]
            left = table & ~taken
        else:
            m = card.mask
            score -= (w["settebello"] * bool(m & _SETTEBELLO) + w["seven"] * bool(m & _SEVENS)
                      + w["coin"] * bool(m & COINS_MASK)) / 2 + w["primiera"] * card.primiera
            left = table | m
        if left and next_hand and unseen:
            total = sum(c.value for c in iter_cards(left))
            need = 15 - total if fifteen else total
            if 1 <= need <= 10:
                holders = sum(1 for c in iter_cards(unseen) if c.value == need)
                chance = 1.0 - _miss(popcount(unseen), holders, next_hand)
                score += (1 if next_is_partner else -1) * w["sweepable"] * chance
        return score

    def choose(self, view: View) -> Move:
        return self.scores(view)[0][0]


def _miss(n: int, k: int, draws: int) -> float:
    """The chance that `draws` cards drawn from `n` include none of `k` marked ones."""
    p = 1.0
    for i in range(min(draws, n)):
        p *= max(0.0, (n - k - i) / (n - i))
    return p


class PIMCBot(Bot):
    """The best move of `suggest` on the player's view: `worlds` sampled worlds per decision
    (None: the game's default, 100 with two players and `FAMILY_WORLDS` with more),
    every world when there are at most `exact_limit` (the last deals are cheap to enumerate).
    With `confidence`, sampling stops early once the best move is that many paired standard
    errors ahead (see `suggest`), so `worlds` is then a cap, spent on the close decisions.
    The worlds are drawn from a seed made of the bot's `seed` and the view, so the bot is
    reproducible and a pure function of what the player knows.

    `limit` (default `Limit(time=DECISION_SECONDS)`): its `time` is the decision's budget: the
    worlds solved by then decide (`suggest`), and `GreedyBot` when not one was; its `nodes` is
    each world's node budget (see `suggest`: a world that cannot be solved exactly within it is
    searched to a horizon; None: `WORLD_NODES` with two players, `FAMILY_WORLD_NODES` with
    more); `threads` (None: every core), `tt_mb` and `horizon` go to `suggest`. With
    ``objective="match"`` it plays to win the match: once `start_round` told it the score, each
    decision is `suggest`'s under `Match(score, target, equity)` (the best mean chance to win the
    match over the worlds; `equity` None: the shipped match equity), the margin before that; of
    moves with the same mean chance (a match won or lost in every world) it plays the one with
    the best mean margin (a second `suggest`).
    `last` reports
    the last searched decision's budgets and what they bought (worlds asked and solved, node
    budget, nodes, horizon, what stopped it).

    >>> view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    >>> str(PIMCBot(Limit(time=DECISION_SECONDS, threads=1), worlds=20, seed=1).choose(view))
    'FbxFd'
    """

    def __init__(self, limit: Optional[Limit] = None, *, worlds: Optional[int] = None, seed: int = 0,
                 exact_limit: int = EXACT_LIMIT, confidence: Optional[float] = None, objective: str = "value",
                 equity: Any = None) -> None:
        self.limit = Limit(time=DECISION_SECONDS) if limit is None else limit
        self.objective = _check_bot_objective(objective)
        self.equity = equity
        self.worlds = worlds
        self.confidence = confidence
        self.seed = seed
        self.exact_limit = exact_limit
        self.last: Optional[dict[str, Any]] = None
        count = "" if worlds is None else str(worlds)
        self.name = ("PIMC" + (f"({count})" if count else "") if confidence is None
                     else f"PIMC({count or 'default'}, z={confidence:g})")
        if objective == "match":
            self.name += "(match)"

    def budget(self, rules: Rules) -> tuple[int, int]:
        """The worlds and the node budget of one world of a decision in the game of `rules`."""
        family = rules.players > 2
        worlds = self.worlds if self.worlds is not None else FAMILY_WORLDS if family else 100
        nodes = self.limit.nodes if self.limit.nodes is not None else FAMILY_WORLD_NODES if family else WORLD_NODES
        return worlds, nodes

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        count, max_nodes = self.budget(view.rules)
        worlds: Union[int, str] = "all" if view.count_worlds() <= self.exact_limit else count
        self.last = {"worlds": worlds, "max_nodes": max_nodes, "time_limit": self.limit.time, "solved": 0,
                     "nodes": 0, "horizon": None, "stopped": None}
        with kernel.time_budget(self.limit.time):       # suggest stops at it
            try:
                found = suggest(view, self.limit.replace(time=None, nodes=max_nodes), worlds=worlds,
                                seed=view_seed(self.seed, view), confidence=self.confidence, progress=False,
                                objective="value" if self.match is None else self.match)
            except LimitError:
                if kernel.budget_left() != 0:
                    raise           # a limit of the search's own, not the budget
                self.last["stopped"] = "time"
                return GreedyBot().choose(view)     # not one world solved in the budget
        self.last.update(solved=found.worlds, nodes=found.nodes, horizon=found.horizon, stopped=found.stopped)
        tied = [row.move for row in found.moves if row.mean == found.moves[0].mean]
        if self.match is None or len(tied) < 2 or kernel.budget_left() == 0:
            return found.best
        # the same chance (a match won or lost in every world, say): the best mean margin of them
        try:
            with kernel.time_budget(self.limit.time):
                margin = suggest(view, self.limit.replace(time=None, nodes=max_nodes), worlds=worlds,
                                 seed=view_seed(self.seed, view), progress=False)
        except LimitError:
            return found.best
        means = {row.move: row.mean for row in margin.moves}
        return max(tied, key=lambda move: means[move])


class OracleBot(Bot):
    """Sees every card and plays the exact solver's best move (the first of the optimal moves):
    an upper reference for what the hidden information costs. Exact, so without a time budget
    by default: in Scopone and scientifico its first decisions take hours. With
    ``objective="match"`` it plays to win the match: once `start_round` told it the score, every
    decision is solved under `Match(score, target, equity)` (`equity` None: the shipped match
    equity; the margin before it knows the score), and of the moves with the best chance it plays
    the one with the best round margin. With a `limit`'s
    `time` (the decision's budget) a cut exact search falls back to a horizon search
    (`kernel.DEEPEN_STEP` plies), then to Greedy. Its `tt_mb` and `threads` go to the searches.

    >>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    >>> str(OracleBot()(pos))
    '7dx3s+4s'
    """

    def __init__(self, limit: Optional[Limit] = None, *, objective: str = "value", equity: Any = None) -> None:
        self.limit = NO_LIMIT if limit is None else limit
        self.objective = _check_bot_objective(objective)
        self.equity = equity
        self.name = "Oracle" if self.limit.time is None else f"Oracle({self.limit.time:g} s)"
        if objective == "match":
            self.name += "(match)"

    def __call__(self, position: Position) -> Move:
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        search = Limit(tt_mb=self.limit.tt_mb, threads=self.limit.threads)
        goal: Any = "value" if self.match is None else self.match
        with kernel.time_budget(self.limit.time):
            found = within(0.5, lambda: solve(position, search, objective=goal)).best_moves
            if not found:       # cut: the horizon search's best (every game), then Greedy
                found = solve(position, search.replace(horizon=kernel.DEEPEN_STEP), objective=goal).best_moves
            elif len(found) > 1 and self.match is not None:
                found = within(0.5, lambda: _by_margin(position, search, found))
        return found[0] if found else GreedyBot()(position)

    def choose(self, view: View) -> Move:
        raise TypeError("the OracleBot sees every card: call it with the Position, not a View")


def _by_margin(position: Position, search: Limit, moves: list[Move]) -> list[Move]:
    """`moves` (equally good for the match) ordered by their exact round margin, best first (as
    they are if the search is cut): where the match is decided either way, or several moves give
    the same chance, the margin still counts against an opponent who may not play for the match."""
    rows = analyze(position, search)
    margin = {row.move: row.value for row in rows if row.value is not None and row.lower == row.upper}
    if not all(move in margin for move in moves):
        return moves
    return sorted(moves, key=lambda move: -(margin[move] or 0))


class PhaseBot(Bot):
    """`early` plays while more than `late_deals` deals of the round remain (counting the one
    being played), `late` plays the rest: a way to measure which part of a round a bot's
    strength comes from (README, "Strategy fusion, measured"). A pure function of the view
    when both bots are.

    >>> pos = Position.new_round(seed=11)
    >>> bot = PhaseBot(GreedyBot(), RandomBot(seed=1))
    >>> bot.name, bot(pos) == GreedyBot()(pos)
    ('Greedy/Random', True)
    """

    def __init__(self, early: Bot, late: Bot, late_deals: int = 3) -> None:
        if not isinstance(late_deals, int) or isinstance(late_deals, bool) or not 0 <= late_deals <= 6:
            raise ValueError(f"late_deals must be between 0 and 6, not {late_deals!r}")
        self.early, self.late, self.late_deals = early, late, late_deals
        self.name = f"{early.name}/{late.name}" + ("" if late_deals == 3 else f"@{late_deals}")

    def start_round(self, score: Optional[tuple[int, ...]], target: Optional[int]) -> None:
        self.early.start_round(score, target)
        self.late.start_round(score, target)

    def _bot(self, state: Union[Position, View]) -> Bot:
        # deals left in the stock, the one being played not counted (the same for every game)
        return self.late if state.deals_left < self.late_deals else self.early

    def __call__(self, position: Position) -> Move:
        return self._bot(position)(position)     # the oracle needs the position

    def choose(self, view: View) -> Move:
        return self._bot(view).choose(view)


def is_exact(bot: object) -> bool:
    """The bot solves decisions exactly with no time budget (the `OracleBot`, or a `PhaseBot`
    with one): in Scopone and scientifico its first decisions take hours."""
    if isinstance(bot, PhaseBot):
        return is_exact(bot.early) or is_exact(bot.late)
    return isinstance(bot, OracleBot) and bot.limit.time is None
