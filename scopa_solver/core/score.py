"""The score of a round: each player's figures, who won each point, the totals.

>>> from scopa_solver import Position
>>> score = Position.from_string("-/- - 7d6cAdRs/3b - 1/0 0 1 0").round_score()
>>> score.total, score.settebello, score.players[0].primiera
((4, 0), 0, None)

The family games (docs/FAMILY.md) score per side: `players` (also `sides`) holds one entry per
side, the figures of its members' pooled piles; `total` is per side, the winners are sides, and
`seat_sides` says which side each seat is on.

>>> from scopa_solver import Rules
>>> s = Position.from_string("-/-/-/- - 7d6cAdRs/3b/-/- - 1/0/0/0 0 3 0 players=4").round_score()
>>> s.total, s.seat_sides, s.sides[1].cards, s.margin(0)
((4, 0), (0, 1, 0, 1), 1, 4)
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Optional, Sequence

from .. import kernel
from .rules import Rules


@dataclass(frozen=True)
class PlayerScore:
    """One player's side of a round score (one side's, for the family games)."""

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

    Winners are 0, 1 or None (a tie, or nobody holds the card). For the family games
    (`seat_sides` set) `players` holds one entry per side and the winners are sides; with three
    or more sides a shared highest count gives nobody the point."""

    players: tuple[PlayerScore, ...]
    carte: Optional[int]
    denari: Optional[int]
    settebello: Optional[int]
    primiera: Optional[int]
    re_bello: Optional[int]
    seat_sides: Optional[tuple[int, ...]] = None    # the family: the side of each seat

    @property
    def sides(self) -> tuple[PlayerScore, ...]:
        """The figures of each side (with two players each player is a side: `players`)."""
        return self.players

    @property
    def total(self) -> tuple[int, ...]:
        """Round points of player 0 and player 1 (of each side, for the family games)."""
        return tuple(p.points for p in self.players)

    def margin(self, player: int = 0) -> int:
        """`player`'s points minus the opponent's; for the family, `player` is a side and the
        margin is its points minus the best other side's (the paranoid value's measure)."""
        total = self.total
        return total[player] - max(t for s, t in enumerate(total) if s != player)

    @classmethod
    def of_piles(cls, piles: Sequence[int], scopas: Sequence[int], rules: Rules) -> "RoundScore":
        """The score of every seat's pile and scopas, per side (`rules.sides`; with two players
        the sides are the players, and `seat_sides` is None)."""
        sides = rules.sides
        d = kernel.score(tuple(piles), tuple(scopas), sides, rules.flags)
        made = [0] * rules.side_count
        for seat, side in enumerate(sides):
            made[side] += scopas[seat]
        players = tuple(
            PlayerScore(cards=d["cards"][s], coins=d["coins"][s], settebello=d["settebello"] == s,
                        primiera=d["primiera"][s], scopas=made[s], napola=d["napola"][s],
                        re_bello=d["re_bello"] == s, points=d["points"][s])
            for s in range(rules.side_count))
        return cls(players=players, carte=d["carte"], denari=d["denari"], settebello=d["settebello"],
                   primiera=d["primiera_winner"], re_bello=d["re_bello"],
                   seat_sides=None if rules.players == 2 else tuple(sides))

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): each player's (side's) figures, the winners and the totals."""
        out = asdict(self)
        if self.seat_sides is None:
            del out["seat_sides"]
        else:
            out["seat_sides"] = list(self.seat_sides)
        out["total"] = list(self.total)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RoundScore":
        sides = data.get("seat_sides")
        return cls(players=tuple(PlayerScore(**p) for p in data["players"]),
                   seat_sides=None if sides is None else tuple(sides),
                   **{k: data[k] for k in ("carte", "denari", "settebello", "primiera", "re_bello")})
