"""Playing rounds and matches with move choosers (callables: position -> move), for every game
of the family: one chooser per seat, the score per side.

>>> from scopa_solver import Position, Rules
>>> first = lambda pos: pos.legal_moves()[0]
>>> result = play_round(Position.new_round(seed=1), first, first)
>>> result.final.is_round_over(), len(result.moves), sum(bin(p).count("1") for p in result.final.piles) + bin(result.final.table).count("1")
(True, 36, 40)
>>> four = play_round(Position.new_round(seed=1, rules=Rules(players=4)), first, first, first, first)
>>> len(four.moves), four.points == four.final.round_score().total, len(four.points)
(36, True, 2)
>>> match = play_match(first, first, first, rules=Rules(players=3), seed=2)   # to 11, each alone
>>> match.totals, match.winner, [r.start.dealer for r in match.rounds]
((11, 10, 10), 0, [2, 0, 1, 2, 0, 1])
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional, Union

from ..core.flow import check_seed, match_winner
from ..errors import IllegalMoveError, PositionError, ScopaError, excerpt
from ..core.position import Move, Position, RoundScore
from ..core.rules import Rules

__all__ = ["play_round", "play_match", "random_position", "RoundResult", "MatchResult", "tell_round"]

Chooser = Callable[[Position], Union[Move, str]]


def tell_round(choosers: Any, score: Optional[tuple[int, ...]], target: Optional[int]) -> None:
    """Call ``start_round(score, target)`` on every chooser that has one (each once), before a
    round: `score` the sides' match points so far (side 0 first), `target` the match's; None
    for both before a round played alone (no match: a bot then plays for the round's margin).
    `play_match`, `arena` and the terminal's `play_game` call it; a bot with the match objective
    (`PIMCBot`, `OracleBot` with ``objective="match"``) learns the score from it."""
    told: set[int] = set()
    for chooser in choosers:
        hook = getattr(chooser, "start_round", None)
        if callable(hook) and id(chooser) not in told:
            told.add(id(chooser))
            hook(score, target)


@dataclass
class RoundResult:
    """A round played out: where it started, where it ended, the moves, the final score."""

    start: Position
    final: Position
    moves: list[Move]
    score: RoundScore

    @property
    def points(self) -> tuple[int, ...]:
        """Round points of each side (of each player with two players): `score.total`."""
        return tuple(self.score.total)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the start and final positions, the moves, the score."""
        return {"start": self.start.to_string(), "final": self.final.to_string(),
                "moves": [str(m) for m in self.moves], "score": self.score.to_dict(),
                "points": list(self.points)}


@dataclass
class MatchResult:
    """A match played to the target: its rounds, each side's total and the winning side."""

    rounds: list[RoundResult]
    totals: tuple[int, ...]
    winner: int

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the totals per side, the winner and every round."""
        return {"totals": list(self.totals), "winner": self.winner,
                "rounds": [r.to_dict() for r in self.rounds]}


def _check_choosers(choosers: tuple[Any, ...], players: int, what: str) -> None:
    if len(choosers) != players:
        raise ScopaError(f"{what} needs one chooser per seat: {players} for {players} players, "
                         f"not {len(choosers)}")
    for seat, chooser in enumerate(choosers):
        if not callable(chooser):
            raise TypeError(f"the chooser of seat {seat} is {excerpt(chooser)}, not a callable position -> move")


def play_round(position: Position, *choosers: Chooser) -> RoundResult:
    """Play from `position` to the end of the round; `choosers[p]` picks seat p's moves (one
    chooser per seat: ``play_round(pos, c0, c1)`` with two players, four with four)."""
    if not isinstance(position, Position):
        raise TypeError(f"play_round plays a Position, not {type(position).__name__}")
    _check_choosers(choosers, position.rules.players, "play_round")
    pos, moves = position, []
    while not pos.is_round_over():
        choice = choosers[pos.to_move](pos)
        try:
            move = Move.parse(choice, pos)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"player {pos.to_move}'s chooser returned an illegal move: {exc}") from None
        moves.append(move)
        pos = pos.play(move)
    return RoundResult(start=position, final=pos, moves=moves, score=pos.round_score())


def play_match(*choosers: Chooser, rules: Rules = Rules(), seed: Optional[int] = None,
               first_dealer: Optional[int] = None, target: Optional[int] = None,
               max_rounds: int = 1000) -> MatchResult:
    """Rounds, one chooser per seat, until a side wins the match (`flow.match_winner`: a side
    reaches `rules.target`; if several reach it in the same round the highest total wins, and
    a shared highest total plays another round). Before each round every chooser with a
    ``start_round(score, target)`` method is told the sides' match points so far and the
    target (`tell_round`). The first dealer is the last seat unless
    `first_dealer` says otherwise (seat 0 leads the first round); the deal then passes to the
    next seat in playing order. `totals` and `winner` are per side (`rules.sides`). `target`
    is a shorthand for ``rules=replace(rules, target=...)``."""
    if not isinstance(rules, Rules):
        raise ScopaError(f"rules must be a Rules value, not {type(rules).__name__}")
    if target is not None:
        rules = replace(rules, target=target)
    _check_choosers(choosers, rules.players, "play_match")
    n = rules.players
    dealer = n - 1 if first_dealer is None else first_dealer
    if type(dealer) is not int or not 0 <= dealer < n:
        raise ScopaError(f"first_dealer must be a seat, 0 to {n - 1}, not {excerpt(first_dealer)}")
    rng = random.Random(check_seed(seed))
    totals = [0] * rules.side_count
    rounds = []
    for _ in range(max_rounds):
        tell_round(choosers, tuple(totals), rules.target)
        result = play_round(Position.new_round(seed=rng.getrandbits(64), rules=rules, dealer=dealer), *choosers)
        rounds.append(result)
        totals = [t + p for t, p in zip(totals, result.score.total)]
        winner = match_winner(totals, rules.target)
        if winner is not None:
            return MatchResult(rounds, tuple(totals), winner)
        dealer = (dealer + 1) % n
    raise RuntimeError(f"no winner after {max_rounds} rounds")


def random_position(seed: Any = None, deals_left: Optional[int] = None, rules: Rules = Rules(),
                    cards_per_hand: Optional[int] = None) -> Position:
    """A new round dealt from `seed` (the last seat deals); with `deals_left` (deals still in
    the stock: 0 to `rules.deals - 1`) and/or `cards_per_hand` (1 to `rules.hand_size`),
    played forward by random moves (from the same seed) to the first position where the stock
    holds that many deals and every hand that many cards: the first play of a deal by default,
    so ``deals_left=1`` is the start of the last-but-one deal. The one-deal games (Scopone,
    scientifico) have no deals to count: ``cards_per_hand=5`` is the position where each of the
    four hands holds 5 cards, the leader to play.

    >>> pos = random_position(3, cards_per_hand=5, rules=Rules(players=4, game="scientifico"))
    >>> pos.hand_sizes(), pos.to_move == (pos.dealer + 1) % 4
    ((5, 5, 5, 5), True)
    """
    if not isinstance(rules, Rules):
        raise PositionError(f"rules must be a Rules value, not {type(rules).__name__}")
    if deals_left is not None and (type(deals_left) is not int or not 0 <= deals_left < rules.deals):
        raise PositionError(f"deals_left must be 0 to {rules.deals - 1} (deals still in the stock), "
                            f"not {excerpt(deals_left)}")
    if cards_per_hand is not None and (type(cards_per_hand) is not int
                                       or not 1 <= cards_per_hand <= rules.hand_size):
        raise PositionError(f"cards_per_hand must be 1 to {rules.hand_size} (cards in each hand), "
                            f"not {excerpt(cards_per_hand)}")
    pos = Position.new_round(seed=check_seed(seed), rules=rules)
    if deals_left is None and cards_per_hand is None:
        return pos
    full = (rules.hand_size if cards_per_hand is None else cards_per_hand,) * rules.players
    rng = random.Random(seed)
    while (deals_left is not None and pos.deals_left > deals_left) or pos.hand_sizes() != full:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos
