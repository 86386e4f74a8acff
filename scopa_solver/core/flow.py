"""The flow of a game, each rule in one place: the deck in deal order, the three-kings redeal,
the shape of a round's start, and the match winner.

>>> redeal_needed([c for c in DECK if c.rank == 10][:3] + [DECK[0]], Rules())
True
>>> match_winner((11, 9), 11), match_winner((12, 12), 11), match_winner((5, 3), 11)
(0, None, None)
"""
from __future__ import annotations

import random
from typing import Any, Iterable, Optional, Sequence

from .cards import DECK, KINGS_MASK, Card, popcount
from .rules import Rules
from ..errors import excerpt

HAND_SIZE = 3
TABLE_START = 4
DEALS = 6           # two players: 4 + 6 x (3 + 3) = 40
STOCK_START = 30    # the stock after the first deal


def deal_slices(dealer: int) -> tuple[slice, slice, slice, slice]:
    """Where a deck in deal order puts its cards: (player 0's hand, player 1's hand, table,
    stock); the non-dealer gets the first three cards, the dealer the next three."""
    first, second = slice(0, 3), slice(3, 6)
    hands = (first, second) if dealer == 1 else (second, first)
    return hands[0], hands[1], slice(6, 10), slice(10, 40)


def redeal_needed(table: Iterable[Card], rules: Rules) -> bool:
    """Do the first table cards force a new deal (3 or 4 kings, `redeal_three_kings`)?"""
    kings = sum(1 for c in table if c.mask & KINGS_MASK)
    return rules.redeal_three_kings and kings >= 3


def check_seed(seed: Any) -> Any:
    """A seed for `random.Random`: None, an int, or text (a clear error for anything else)."""
    if seed is None or isinstance(seed, str) or (isinstance(seed, int) and not isinstance(seed, bool)):
        return seed
    from ..errors import ScopaError
    raise ScopaError(f"seed must be a whole number, text or None, not {excerpt(seed)}")


def shuffled_deck(seed: Any = None, rules: Rules = Rules()) -> list[Card]:
    """A shuffled deck in deal order (shuffled again while the redeal rule rejects the table);
    the same seed gives the same deck on every machine."""
    rng = random.Random(check_seed(seed))
    deck = list(DECK)
    while True:
        rng.shuffle(deck)
        if not redeal_needed(deck[6:10], rules):
            return deck


def is_round_start(hands: Sequence[int], table: int, piles: Sequence[int], scopas: Sequence[int],
                   stock: int) -> bool:
    """Is this the shape of a round's first position: 3 + 3 cards in hand, 4 on the table, a
    stock of 30, nothing captured?"""
    return (tuple(map(popcount, hands)) == (HAND_SIZE, HAND_SIZE) and popcount(table) == TABLE_START
            and stock == STOCK_START and not any(piles) and not any(scopas))


def match_winner(totals: Sequence[int], target: int) -> Optional[int]:
    """The seat that has won the match with these totals, or None: a side must reach the
    target; if both do, the higher total wins and equal totals play on."""
    best = max(totals)
    if best < target or list(totals).count(best) > 1:
        return None
    return list(totals).index(best)
