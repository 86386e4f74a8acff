"""Playing rounds and matches with move choosers (callables: position -> move).

>>> from scopa_solver import Position, Rules
>>> first = lambda pos: pos.legal_moves()[0]
>>> result = play_round(Position.new_round(seed=1), first, first)
>>> result.final.is_round_over(), len(result.moves), sum(bin(p).count("1") for p in result.final.piles) + bin(result.final.table).count("1")
(True, 36, 40)
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Optional, Union

from ..core.flow import check_seed, match_winner
from ..errors import IllegalMoveError, PositionError
from ..core.position import Move, Position, RoundScore
from ..core.rules import Rules

__all__ = ["play_round", "play_match", "random_position", "RoundResult", "MatchResult"]

Chooser = Callable[[Position], Union[Move, str]]


@dataclass
class RoundResult:
    start: Position
    final: Position
    moves: list[Move]
    score: RoundScore


@dataclass
class MatchResult:
    rounds: list[RoundResult]
    totals: tuple[int, int]
    winner: int


def play_round(position: Position, chooser0: Chooser, chooser1: Chooser) -> RoundResult:
    """Play from `position` to the end of the round; chooser p picks player p's moves."""
    choosers = (chooser0, chooser1)
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


def play_match(chooser0: Chooser, chooser1: Chooser, rules: Rules = Rules(), seed: Optional[int] = None,
               first_dealer: int = 1, max_rounds: int = 1000) -> MatchResult:
    """Rounds until a player wins the match (`flow.match_winner`: a player reaches `rules.target`;
    if both reach it in the same round the higher total wins, and equal totals play another
    round); the deal alternates."""
    rng = random.Random(check_seed(seed))
    totals = [0, 0]
    rounds = []
    dealer = first_dealer
    for _ in range(max_rounds):
        result = play_round(Position.new_round(seed=rng.getrandbits(64), rules=rules, dealer=dealer),
                            chooser0, chooser1)
        rounds.append(result)
        totals = [totals[p] + result.score.total[p] for p in (0, 1)]
        winner = match_winner(totals, rules.target)
        if winner is not None:
            return MatchResult(rounds, (totals[0], totals[1]), winner)
        dealer = 1 - dealer
    raise RuntimeError(f"no winner after {max_rounds} rounds")


def random_position(seed: Optional[int] = None, deals_left: Optional[int] = None, rules: Rules = Rules()) -> Position:
    """A new round dealt from `seed`; with `deals_left` (0 to 5: deals still in the stock), played
    forward by random moves (from the same seed) to the first play of that deal."""
    if deals_left is not None and (not isinstance(deals_left, int) or isinstance(deals_left, bool)
                                   or not 0 <= deals_left < rules.deals):
        raise PositionError(f"deals_left must be 0 to {rules.deals - 1} (deals still in the stock), not {deals_left!r}")
    pos = Position.new_round(seed=check_seed(seed), rules=rules)
    if deals_left is None:
        return pos
    rng = random.Random(seed)
    while pos.deals_left > deals_left or sum(pos.hand_sizes()) != 6:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos
