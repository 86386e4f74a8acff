"""The worlds of a view as combinatorics: the unseen cards cut into groups of known sizes (the
hidden hand, then each future deal's non-dealer and dealer parts; in the family games every
hidden hand, then each future deal's 3 cards per seat). Only which card goes to which
group matters, never the order inside a group, so every canonical world is equally likely under
a fair shuffle and there are ``n! / (size_1! * size_2! * ...)`` of them.

>>> sizes = [1, 3, 3]
>>> count(sizes), len(list(enumerate_groups(0b1111111, sizes)))
(140, 140)
>>> list(sample_groups(0b111, [1, 2], 2, seed=1)) == list(sample_groups(0b111, [1, 2], 2, seed=1))
True
"""
from __future__ import annotations

import itertools
import math
import random
from typing import Any, Iterator, Sequence

from ..core.cards import iter_cards


def count(sizes: Sequence[int]) -> int:
    """The multinomial number of ways to cut sum(sizes) cards into groups of these sizes."""
    out = math.factorial(sum(sizes))
    for size in sizes:
        out //= math.factorial(size)
    return out


def cut(cards: Sequence[int], sizes: Sequence[int]) -> tuple[int, ...]:
    """Card masks in order, cut into consecutive groups (each a mask) of these sizes."""
    out, at = [], 0
    for size in sizes:
        out.append(sum(cards[at:at + size]))
        at += size
    return tuple(out)


def enumerate_groups(unseen: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to cut the `unseen` cards into groups of these sizes, in a fixed order, lazily."""
    last = len(sizes) - 1

    def rec(remaining: list[int], k: int) -> Iterator[tuple[int, ...]]:
        if k >= last:
            yield (sum(remaining),)
            return
        for combo in itertools.combinations(remaining, sizes[k]):
            chosen = sum(combo)
            rest = [c for c in remaining if not c & chosen]
            for tail in rec(rest, k + 1):
                yield (chosen,) + tail

    return rec([c.mask for c in iter_cards(unseen)], 0)


def sample_groups(unseen: int, sizes: Sequence[int], n: int, seed: Any) -> Iterator[tuple[int, ...]]:
    """`n` uniform draws (with replacement) of the cut, lazily; the same seed gives the same
    draws on every machine (Python's Mersenne Twister and its shuffle)."""
    rng = random.Random(seed)
    cards = [c.mask for c in iter_cards(unseen)]
    for _ in range(n):
        rng.shuffle(cards)
        yield cut(cards, sizes)
