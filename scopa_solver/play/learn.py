"""Learn from my mistakes: a reviewed game's fair mistakes of one player, as exercises.

A *lesson* is a decision of the chosen player that the fair verdict of a `review` marks ``?``
or ``??`` (it lost a point or more by what the player could know: `Decision.fair_loss`). It
holds the position from that player's view (a `View`: no hidden card in it), the move played and
every legal move's fair value (PIMC's mean over the review's worlds). `Lesson.judge` says whether
another move is as good as the best fair move: its fair value within `TOLERANCE` of the best's,
else how much it loses; `Lesson.best` is the best fair move and `best_mean` its value.

>>> from scopa_solver import GameRecord, GreedyBot, Position, RandomBot, RoundRecord, play_round
>>> from scopa_solver.play.review import FairReview, review
>>> start = Position.new_round(seed=2)
>>> rec = GameRecord(players=("Greedy", "Random"))
>>> _ = rec.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=2)).moves))
>>> found = lessons(review(rec, fair=FairReview(worlds=8), progress=False), "Random")
>>> len(found), all(x.mark in ("?", "??") and x.view.player == x.seat for x in found)
(4, True)
>>> x = found[0]
>>> x.judge(x.best).good, x.judge(x.played).good
(True, False)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Union

from ..core.position import Move
from ..core.view import View
from ..errors import NotationError, excerpt
from .review import Decision, Review, mark

__all__ = ["Lesson", "Answer", "lessons", "TOLERANCE"]

TOLERANCE = 0.005
"""A move whose fair value is within this of the best's is as good as the best (the fair values
are means over the same worlds: equal plays give equal means)."""


@dataclass(frozen=True)
class Answer:
    """The verdict on a move tried in a lesson."""

    move: Move
    mean: float                  # its fair value (for the player's side)
    loss: float                  # the best fair value minus its own (0 or more)
    good: bool                   # as good as the best fair move (within TOLERANCE)
    played: bool                 # the move played in the game

    @property
    def mark(self) -> str:
        return "" if self.good else mark(self.loss)

    def text(self, lesson: "Lesson") -> str:
        """The verdict in words, then the best move and its fair value."""
        if self.good:
            head = (f"{self.move}: as good as the best fair move ({_signed(self.mean)})"
                    + ("" if self.move == lesson.best else f"; the review's best was {lesson.best}"))
        else:
            head = (f"{self.move}: " + ("the move played in the game, " if self.played else "")
                    + f"{_signed(self.mean)}, {self.loss:.2f} point{'' if abs(self.loss - 1) < 1e-9 else 's'} "
                    f"below the best" + (f" ({self.mark})" if self.mark else ""))
        return f"{head}. Best: {lesson.best} ({_signed(lesson.best_mean)} fair)"

    def to_dict(self) -> dict[str, Any]:
        return {"move": str(self.move), "mean": self.mean, "loss": self.loss, "good": self.good,
                "played": self.played, "mark": self.mark}


@dataclass(frozen=True)
class Lesson:
    """One fair mistake of a reviewed game, from the player's view."""

    round: int                   # 1-based
    number: int                  # the move's number in the round, 1-based
    seat: int
    name: str
    view: View                   # the position from the player's view (no hidden card)
    played: Move
    mark: str                    # "?" or "??" (the fair verdict's)
    fair_loss: float
    hindsight_loss: Optional[float]      # points (a match review: percentage points)
    best: Move                   # the best fair move
    best_mean: float
    means: dict[Move, float]     # every legal move's fair value
    worlds: int

    @classmethod
    def of(cls, d: Decision) -> "Lesson":
        assert d.fair_best is not None and d.fair_best_mean is not None and d.fair_loss is not None
        return cls(round=d.round, number=d.number, seat=d.player, name=d.name, view=d.position.view(d.player),
                   played=d.played, mark=d.mark, fair_loss=d.fair_loss, hindsight_loss=d.loss,
                   best=d.fair_best, best_mean=d.fair_best_mean, means=dict(d.fair_means), worlds=d.fair_worlds)

    def judge(self, move: Union[Move, str]) -> Answer:
        """How good `move` (a legal move of the lesson's position, or its text) is by the fair values."""
        if isinstance(move, str):
            move = next((m for m in self.means if str(m) == move.strip()), None) or Move.parse(move)
        if move not in self.means:
            raise NotationError(f"{excerpt(str(move))} is not a legal move here; the legal moves: "
                                + ", ".join(map(str, self.means)))
        mean = self.means[move]
        loss = max(0.0, self.best_mean - mean)
        return Answer(move=move, mean=mean, loss=loss, good=loss < TOLERANCE, played=move == self.played)

    def question(self) -> str:
        """What the player is asked."""
        return (f"round {self.round}, move {self.number}: {self.name} played {self.played} {self.mark}, "
                f"{self.fair_loss:.2f} below the best by the fair values. Find a better play.")

    def to_dict(self) -> dict[str, Any]:
        """Plain data: the view's notation (no hidden card), the move played, every fair value."""
        return {"round": self.round, "move": self.number, "player": self.seat, "name": self.name,
                "view": self.view.to_string(), "played": str(self.played), "mark": self.mark,
                "fair_loss": self.fair_loss, "hindsight_loss": self.hindsight_loss, "best": str(self.best),
                "best_mean": self.best_mean, "worlds": self.worlds,
                "means": {str(m): v for m, v in sorted(self.means.items(), key=lambda kv: -kv[1])}}


def lessons(result: Review, player: str) -> list[Lesson]:
    """The fair mistakes (``?`` and ``??`` by the fair verdict) of `player` (a name) in a
    review, in play order, as lessons."""
    names = {n for names in result.round_players for n in names}
    if player not in names:
        raise NotationError(f"no player {excerpt(player)} in the review; its players: {', '.join(sorted(names))}")
    return [Lesson.of(d) for d in result.decisions
            if d.name == player and d.verdict == "fair" and d.mark in ("?", "??") and d.fair_means]


def _signed(x: float) -> str:
    return f"{x:+.2f}"
