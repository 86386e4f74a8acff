"""The pure-Python baseline of bench_search.py: plain minimax over the last deal of a round.

Written for the benchmark, to show what the kernel's search is measured against: the rules of
basic two-player Scopa (docs/RULES.md, no options) as a reader would write them, cards
as two-character strings (``7d``), sets of them, sum captures from ``itertools.combinations``,
a bare recursion with no pruning, no table and no move ordering. It imports nothing of the
package, so its speed is that of plain Python. Only the last deal (an empty stock) is handled.

>>> minimax(hands=(["7d"], ["Rb"]), table=["3c", "4s"], piles=([], []), scopas=(0, 0), to_move=0,
...         last_capturer=None)      # 7d takes 3c + 4s (a scopa), Rb is left to player 0
5
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterable, Optional, Sequence

RANKS = "A234567FCR"        # the capture value is the index + 1
SUITS = "dcsb"              # d = denari (coins)
PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10}


def value(card: str) -> int:
    return RANKS.index(card[0]) + 1


def captures(card: str, table: frozenset) -> list:
    """Every set of table cards `card` may take: a single card of its value if there is one
    (then only such), else any cards that add up to it; [] means it is laid down."""
    v = value(card)
    singles = [frozenset([t]) for t in table if value(t) == v]
    if singles:
        return singles
    return [frozenset(c) for n in range(2, len(table) + 1) for c in combinations(sorted(table), n)
            if sum(value(t) for t in c) == v]


def primiera(pile: frozenset) -> Optional[int]:
    """The best card of each suit summed; None when a suit is missing (no primiera)."""
    best = [max((PRIMIERA[c[0]] for c in pile if c[1] == s), default=None) for s in SUITS]
    return None if None in best else sum(best)  # type: ignore[arg-type]


def points(piles: Sequence[frozenset], scopas: Sequence[int]) -> list:
    """Each player's round points: carte, denari, settebello, primiera and the scopas."""
    out = list(scopas)

    def more(a, b) -> None:
        if a is not None and (b is None or a > b):
            out[0] += 1
        elif b is not None and (a is None or b > a):
            out[1] += 1

    more(len(piles[0]), len(piles[1]))
    more(*(sum(1 for c in p if c[1] == "d") for p in piles))
    more(*(int("7d" in p) for p in piles))
    more(*(primiera(p) for p in piles))
    return out


def _search(hands: list, table: frozenset, piles: list, scopas: list, me: int, last: Optional[int]) -> int:
    """The final margin of `me` (to move) over the opponent under best play by both."""
    if not hands[0] and not hands[1]:
        piles = list(piles)
        if table and last is not None:          # the leftovers go to the last capturer
            piles[last] = piles[last] | table
        p = points(piles, scopas)
        return p[me] - p[1 - me]
    best = None
    for card in hands[me]:
        rest = list(hands)
        rest[me] = hands[me] - {card}
        last_play = not rest[0] and not rest[1]
        for taken in captures(card, table) or [None]:
            if taken is None:
                v = -_search(rest, table | {card}, piles, scopas, 1 - me, last)
            else:
                left = table - taken
                won = list(piles)
                won[me] = piles[me] | taken | {card}
                sc = list(scopas)
                sc[me] += not left and not last_play
                v = -_search(rest, left, won, sc, 1 - me, me)
            if best is None or v > best:
                best = v
    return best  # type: ignore[return-value]


def minimax(hands: Sequence[Iterable[str]], table: Iterable[str], piles: Sequence[Iterable[str]],
            scopas: Sequence[int], to_move: int, last_capturer: Optional[int]) -> int:
    """The exact round margin of the side to move (its points minus the opponent's) in a
    last-deal position of basic Scopa."""
    return _search([frozenset(hands[0]), frozenset(hands[1])], frozenset(table),
                   [frozenset(piles[0]), frozenset(piles[1])], list(scopas), to_move, last_capturer)
