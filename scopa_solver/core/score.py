"""The score of a round: each player's figures, who won each point, the totals.

>>> from scopa_solver import Position
>>> score = Position.from_string("-/- - 7d6cAdRs/3b - 1/0 0 1 0").round_score()
>>> score.total, score.settebello, score.players[0].primiera
((4, 0), 0, None)
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Optional

from .. import kernel
from .cards import SETTEBELLO_MASK
from .rules import Rules


@dataclass(frozen=True)
class PlayerScore:
    """One player's side of a round score."""

    cards: int
    coins: int
    settebello: bool
    primiera: Optional[int]      # None: a suit is missing (disqualified under the default rule)
    scopas: int
    napola: int
    re_bello: bool
    points: int                  # round points: carte, denari, settebello, primiera, scopas, variants


@dataclass(frozen=True)
class RoundScore:
    """The score of the capture piles: each player's figures, who won each point, the totals.

    Winners are 0, 1 or None (a tie, or nobody holds the card)."""

    players: tuple[PlayerScore, PlayerScore]
    carte: Optional[int]
    denari: Optional[int]
    settebello: Optional[int]
    primiera: Optional[int]
    re_bello: Optional[int]

    @property
    def total(self) -> tuple[int, int]:
        """Round points of player 0 and player 1."""
        return (self.players[0].points, self.players[1].points)

    def margin(self, player: int = 0) -> int:
        """`player`'s points minus the opponent's."""
        return self.total[player] - self.total[1 - player]

    @classmethod
    def of(cls, pile0: int, pile1: int, scopas: tuple[int, int], rules: Rules) -> "RoundScore":
        d = kernel.score_piles(pile0, pile1, rules.flags)

        def who(w: int) -> Optional[int]:
            return None if w < 0 else w

        piles = (pile0, pile1)
        players = tuple(
            PlayerScore(cards=d["cards"][p], coins=d["coins"][p], settebello=bool(piles[p] & SETTEBELLO_MASK),
                        primiera=d["primiera"][p], scopas=scopas[p], napola=d["napola"][p],
                        re_bello=d["re_bello"] == p, points=d["points"][p] + scopas[p])
            for p in (0, 1))
        return cls(players=players, carte=who(d["carte"]), denari=who(d["denari"]),  # type: ignore[arg-type]
                   settebello=who(d["settebello"]), primiera=who(d["primiera_winner"]),
                   re_bello=who(d["re_bello"]))

    def to_dict(self) -> dict:
        """Plain data (JSON-ready): each player's figures, the winners and the totals."""
        out = asdict(self)
        out["total"] = list(self.total)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "RoundScore":
        return cls(players=tuple(PlayerScore(**p) for p in data["players"]),  # type: ignore[arg-type]
                   **{k: data[k] for k in ("carte", "denari", "settebello", "primiera", "re_bello")})
