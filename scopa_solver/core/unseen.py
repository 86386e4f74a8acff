"""Where the hidden cards are, from one player's view: the unseen cards (by rank and by suit) and
the chance that each hidden place (every other seat's hand, the stock) holds each of them.

With every world equally likely (a fair shuffle, nothing read from the opponent's plays) the
answer is exact without a world: a place of `size` cards holds a given unseen card with
probability ``size / unseen``. With an opponent model (`InferenceBot`), the chances are the
weighted share of the worlds its decision weighs: exact when it enumerates them, else its
seeded sample (the answer says which, and how many worlds). The answer depends on the view
alone (and the model's memory of the player's earlier views), never on the hidden cards.

>>> from scopa_solver import Position
>>> odds = Position.new_round(seed=11).view(0).where_unseen()
>>> odds.places, odds.sizes, odds.method
(('player 1', 'stock'), (3, 30), 'uniform')
>>> odds.chance("Rb"), odds.chance("Rb", "stock")
(0.09090909090909091, 0.9090909090909091)
>>> odds.by_rank["R"], odds.by_rank["7"]
(4, 2)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Protocol, Sequence, Union

from .cards import RANKS, SUITS, Card, iter_cards
from ..errors import ViewError, excerpt

if TYPE_CHECKING:
    from .view import View

__all__ = ["UnseenCards", "WorldModel", "where_unseen"]


class WorldModel(Protocol):
    """What `where_unseen` asks of an opponent model (`InferenceBot` is one)."""

    def world_weights(self, view: "View") -> Optional[tuple[list[tuple[int, ...]], list[float], int, Optional[int]]]:
        """The worlds the model's decision on `view` weighs (hidden groups), their weights
        (summing to 1), the opponent plays it read and the seed of a sample (None: every world
        enumerated); None when it weighs every world alike."""
        ...


@dataclass(frozen=True)
class UnseenCards:
    """The unseen cards of `player`'s view and where they may be.

    `places` names each hidden place (``"player N"``: seat N's hand, every other seat in seat
    order; ``"stock"`` when there is one), `sizes` its card count; `odds[i][j]` is the
    probability that `cards[i]` is in `places[j]` (each row sums to 1, each column to its
    place's size). `method` is ``"uniform"`` (exact: every world alike), ``"model, exact"`` (the
    model's weights over every world) or ``"model, sampled"`` (its `worlds` worlds drawn with
    `seed`); `plays` counts the opponent's plays the model read (0 for uniform)."""

    player: int
    cards: tuple[Card, ...]
    places: tuple[str, ...]
    sizes: tuple[int, ...]
    odds: tuple[tuple[float, ...], ...]
    method: str
    worlds: int
    seed: Optional[int] = None
    plays: int = 0

    @property
    def by_rank(self) -> dict[str, int]:
        """How many cards of each rank are unseen (every rank, ace to king)."""
        return {r: sum(1 for c in self.cards if c.rank == k + 1) for k, r in enumerate(RANKS)}

    @property
    def by_suit(self) -> dict[str, tuple[Card, ...]]:
        """The unseen cards of each suit (every suit, in rank order)."""
        return {s: tuple(c for c in self.cards if c.suit == s) for s in SUITS}

    def chance(self, card: Union[str, Card], place: Optional[str] = None) -> float:
        """The probability that `card` is in `place` (default: the first hidden hand); 0 for a
        card the player sees."""
        card = Card.parse(card)
        column = 0 if place is None else self._column(place)
        return self.odds[self.cards.index(card)][column] if card in self.cards else 0.0

    def _column(self, place: str) -> int:
        if place not in self.places:
            raise ViewError(f"no hidden place {excerpt(place)}: the places are {', '.join(self.places)}")
        return self.places.index(place)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the counts, the places and each card's chances (rounded to 9
        decimals: a sum of weights has no more)."""
        return {"player": self.player, "method": self.method, "worlds": self.worlds, "seed": self.seed,
                "plays": self.plays, "unseen": len(self.cards),
                "by_rank": self.by_rank, "by_suit": {s: [str(c) for c in cs] for s, cs in self.by_suit.items()},
                "places": [{"place": p, "cards": n} for p, n in zip(self.places, self.sizes)],
                "odds": {str(c): [round(p, 9) for p in row] for c, row in zip(self.cards, self.odds)}}

    def __str__(self) -> str:
        width = max(7, *(len(p) for p in self.places))
        lines = [f"{len(self.cards)} unseen cards by rank: "
                 + "  ".join(f"{r}:{n}" for r, n in self.by_rank.items()),
                 "by suit: " + "   ".join(f"{s}: {' '.join(RANKS[c.rank - 1] for c in cs) or '-'}"
                                           for s, cs in self.by_suit.items()),
                 "",
                 "card  " + " ".join(f"{p:>{width}}" for p in self.places),
                 "      " + " ".join(f"{f'({n})':>{width}}" for n in self.sizes)]
        for card, row in zip(self.cards, self.odds):
            lines.append(f"{str(card):<5} " + " ".join(f"{p:>{width}.3f}" for p in row))
        return "\n".join(lines)

    def describe(self) -> str:
        """One line: where the numbers come from."""
        if not self.cards:
            return "no card is hidden from the player"
        if self.method == "uniform":
            return ("every world alike (a fair shuffle): exact, a place of k cards holds each unseen "
                    f"card with chance k/{len(self.cards)}")
        read = f"the opponent model, from its {self.plays} play{'s' if self.plays != 1 else ''} read"
        if self.seed is None:
            return f"{read}: exact over all {self.worlds:,} worlds it weighs"
        return f"{read}: sampled, {self.worlds:,} worlds drawn with seed {self.seed}"


def where_unseen(view: "View", model: Optional[WorldModel] = None) -> UnseenCards:
    """The unseen cards of `view` and each hidden place's chance of holding each (see the
    module docstring); with `model`, weighted as the model's decision weighs the worlds."""
    places, sizes = _places(view)
    cards = tuple(iter_cards(view.unseen))
    weighed = None if model is None else model.world_weights(view)
    if weighed is None:
        total = len(cards)
        odds = tuple(tuple(size / total for size in sizes) for _ in cards)
        return UnseenCards(view.player, cards, places, sizes, odds, "uniform", view.count_worlds())
    worlds, weights, plays, seed = weighed
    column = _group_columns(view, len(places))
    index = {c.mask: i for i, c in enumerate(cards)}
    sums: list[list[list[Any]]] = [[[] for _ in places] for _ in cards]    # the weights, summed exactly at the end
    for groups, weight in zip(worlds, weights):
        for g, mask in enumerate(groups):
            while mask:
                low = mask & -mask
                sums[index[low]][column[g]].append(weight)
                mask ^= low
    odds = tuple(tuple(math.fsum(w) for w in row) for row in sums)
    method = "model, exact" if seed is None else "model, sampled"
    return UnseenCards(view.player, cards, places, sizes, odds, method, len(worlds), seed, plays)


def _places(view: "View") -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The hidden places (every other seat's hand, then the stock if any) and their sizes."""
    seats = [p for p in range(view.rules.players) if p != view.player]
    places = [f"player {p}" for p in seats]
    sizes = [view.hidden_hands[p] for p in seats]
    if view.stock_cards:
        places.append("stock")
        sizes.append(view.stock_cards)
    return tuple(places), tuple(sizes)


def _group_columns(view: "View", count: int) -> Sequence[int]:
    """The place of each hidden group (`View.group_sizes`): the other hands, then the deals' parts (the stock)."""
    hands = view.rules.players - 1
    groups = len(view.group_sizes())
    return [g if g < hands else count - 1 for g in range(groups)]
