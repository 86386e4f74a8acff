"""Recording the games bots play: `RecordingBot` wraps a chooser and logs its decisions, and
`rounds_from_log` turns the log into round records, so that what an arena plays can be saved
as a `GameRecord` (`scopa-solver arena --save`).

>>> from scopa_solver import GreedyBot, Position, RandomBot, play_round
>>> log = []
>>> bots = RecordingBot(GreedyBot(), log), RecordingBot(RandomBot(seed=1), log)
>>> result = play_round(Position.new_round(seed=4), *bots)
>>> [(r.players, r.moves == result.moves) for r in rounds_from_log(log)]
[(('Greedy', 'Random'), True)]
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from ..core.position import Move, Position
from ..errors import RecordError
from .record import RoundRecord

__all__ = ["RecordingBot", "rounds_from_log"]

Log = list  # of (bot name, position, move)


class RecordingBot:
    """Wraps a chooser (position -> move) and appends (name, position, move) to `log` at every
    decision, so that the rounds an arena plays can be saved (`rounds_from_log`)."""

    def __init__(self, bot: Callable[[Position], Any], log: Log) -> None:
        self.bot = bot
        self.log = log
        self.name = getattr(bot, "name", None) or getattr(bot, "__name__", None) or type(bot).__name__

    def __call__(self, position: Position) -> Move:
        move = Move.parse(self.bot(position), position)
        self.log.append((self.name, position, move))
        return move


def rounds_from_log(log: Sequence[tuple[str, Position, Move]]) -> list[RoundRecord]:
    """Split a decision log (of `RecordingBot`s sharing it) into round records, with the names
    of the bots that sat in each seat of each round (any game)."""
    rounds: list[RoundRecord] = []
    names: list[list[Optional[str]]] = []
    expected: Optional[Position] = None
    for name, pos, move in log:
        if expected is None or pos != expected:
            if not pos.is_round_start():
                raise RecordError("the decision log does not follow one round after another")
            rounds.append(RoundRecord.from_play(pos))
            names.append([None] * pos.rules.players)
        rounds[-1].moves.append(move)
        seat = names[-1]
        if seat[pos.to_move] is None:
            seat[pos.to_move] = name
        expected = pos.play(move)
    for rec, seat in zip(rounds, names):
        rec.players = tuple(n or f"player {p}" for p, n in enumerate(seat))
    return rounds
