"""The flow of a game, each rule in one place: the deck in deal order, the three-kings redeal,
the shape of a round's start, and the match winner.

>>> redeal_needed([c for c in DECK if c.rank == 10][:3] + [DECK[0]], Rules())
True
>>> match_winner((11, 9), 11), match_winner((12, 12), 11), match_winner((5, 3), 11)
(0, None, None)
>>> match_winner((12, 12, 11), 11), match_winner((12, 13, 11), 11)
(None, 1)
>>> deal_slices(2, Rules(players=3))
(slice(0, 3, None), slice(3, 6, None), slice(6, 9, None), slice(9, 13, None), slice(13, 40, None))
"""
from __future__ import annotations

import random
from typing import Any, Iterable, Optional, Sequence

from .cards import DECK, KINGS_MASK, Card, popcount
from .rules import Rules
from ..errors import excerpt

def deal_slices(dealer: int, rules: Rules = Rules()) -> tuple[slice, ...]:
    """Where a deck in deal order puts its cards: (seat 0's hand, ..., seat N-1's hand, table,
    stock). The leader (the seat after the dealer) gets the first cards, the next seat the next
    ones, the dealer the last hand; then the table cards, then the stock. With two players: the
    non-dealer's 3, the dealer's 3, 4 to the table, the stock of 30."""
    n, size = rules.players, rules.hand_size
    hands = [slice(0)] * n          # each seat's replaced below
    for k in range(n):
        hands[(dealer + 1 + k) % n] = slice(k * size, (k + 1) * size)
    table = slice(n * size, n * size + rules.table_start)
    return (*hands, table, slice(table.stop, 40))


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
        if not redeal_needed(deck[deal_slices(0, rules)[-2]], rules):
            return deck


def is_round_start(hands: Sequence[int], table: int, piles: Sequence[int], scopas: Sequence[int],
                   stock: int, rules: Rules = Rules()) -> bool:
    """Is this the shape of a round's first position: full hands (3 + 3 with two players), the
    table's first cards (4), the rest in the stock (30), nothing captured? (The redeal rule is
    `redeal_needed`'s, checked where decks are dealt.)"""
    n = rules.players
    return (tuple(map(popcount, hands)) == (rules.hand_size,) * n and popcount(table) == rules.table_start
            and stock == (rules.deals - 1) * 3 * n and not any(piles) and not any(scopas))


def match_winner(totals: Sequence[int], target: int) -> Optional[int]:
    """The side that has won the match with these totals (one per side), or None: a side must
    reach the target; if several do, the highest total wins, and a shared highest total plays
    another round."""
    best = max(totals)
    if best < target or list(totals).count(best) > 1:
        return None
    return list(totals).index(best)
