"""Cards and sets of cards.

A card is one of 40 small immutable values; its index is ``suit * 10 + rank - 1`` with the suits
in the order d, c, s, b, and a set of cards is a 40-bit integer mask (the kernel's form).

>>> Card.parse("7d")
Card('7d')
>>> Card.parse("K♣"), Card.parse("10S"), Card.parse("Qc")
(Card('Rb'), Card('Rs'), Card('Cc'))
>>> str(Card.parse("1c")), Card.parse("7d").primiera, Card.parse("Fb").value
('Ac', 21, 8)
>>> cards_text(parse_cards("Rb 7d, Ac"))
'7dAcRb'
"""
from __future__ import annotations

import itertools
import re
from typing import Iterable, Iterator, Union

from ..errors import CardError, DuplicateCardError, excerpt

SUITS = "dcsb"
SUIT_NAMES = ("denari", "coppe", "spade", "bastoni")
RANKS = "A234567FCR"
RANK_NAMES = ("Asso", "2", "3", "4", "5", "6", "7", "Fante", "Cavallo", "Re")
PRIMIERA_VALUES = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)

_RANK_ALIASES = {r: i + 1 for i, r in enumerate(RANKS)}
_RANK_ALIASES.update({str(n): n for n in range(1, 11)})
_RANK_ALIASES.update({"J": 8, "Q": 9, "K": 10})
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)}
_SUIT_ALIASES.update({s.upper(): i for i, s in enumerate(SUITS)})
_SUIT_ALIASES.update({"♦": 0, "♢": 0, "♥": 1, "♡": 1, "♠": 2, "♤": 2, "♣": 3, "♧": 3})
_CARD_RE = re.compile(r"(10|[1-9AFCRJQK])([dcsbDCSB♦♢♥♡♠♤♣♧])")
_SEPARATORS = re.compile(r"[\s,]+")

ALL_MASK = (1 << 40) - 1
COINS_MASK = (1 << 10) - 1     # the ten coins (denari): indices 0..9
SETTEBELLO_MASK = 1 << 6       # the seven of coins
KINGS_MASK = sum(1 << (suit * 10 + 9) for suit in range(4))


def popcount(mask: int) -> int:
    """How many cards a mask holds."""
    return bin(mask).count("1")


class Card:
    """One of the 40 cards. Cards are interned: ``Card.parse("7d") is Card.parse("7♦")``."""

    __slots__ = ("index",)
    index: int
    _all: list["Card"] = []

    def __new__(cls, index: int) -> "Card":
        if isinstance(index, str):  # Card('7d'): the repr pastes back
            return cls.parse(index)
        if not isinstance(index, int) or not 0 <= index < 40:
            raise CardError(f"card index must be 0..39, not {excerpt(index)}")
        if cls._all:
            return cls._all[index]
        return super().__new__(cls)

    @classmethod
    def parse(cls, text: Union[str, "Card"]) -> "Card":
        """Read a card in any accepted spelling: ``7d``, ``10S``, ``K♣``, ``Qc``."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"a card is given as text like '7d', not {type(text).__name__}")
        match = _CARD_RE.fullmatch(text.strip())
        if not match:
            raise CardError(f"unknown card {excerpt(text)}: write rank then suit, like '7d' or 'Rb'")
        return cls._all[_SUIT_ALIASES[match.group(2)] * 10 + _RANK_ALIASES[match.group(1)] - 1]

    @property
    def suit(self) -> str:
        """'d', 'c', 's' or 'b'."""
        return SUITS[self.index // 10]

    @property
    def rank(self) -> int:
        """1 (Asso) to 10 (Re); also the capture value."""
        return self.index % 10 + 1

    value = rank

    @property
    def primiera(self) -> int:
        """The card's primiera value (7: 21, 6: 18, A: 16, 5: 15, ..., figures 10)."""
        return PRIMIERA_VALUES[self.index % 10]

    @property
    def mask(self) -> int:
        return 1 << self.index

    @property
    def name(self) -> str:
        """Italian name, like 'Re di bastoni'."""
        return f"{RANK_NAMES[self.index % 10]} di {SUIT_NAMES[self.index // 10]}"

    def __str__(self) -> str:
        return RANKS[self.index % 10] + SUITS[self.index // 10]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[type["Card"], tuple[int]]:
        return (Card, (self.index,))


for _i in range(40):
    _card = object.__new__(Card)
    _card.index = _i
    Card._all.append(_card)
DECK: tuple[Card, ...] = tuple(Card._all)

CardsLike = Union[str, Card, Iterable[Union[str, Card]], int, None]


def split_card_text(text: str) -> list[str]:
    """Split card text into card tokens: separators optional (``"7dRb"``, ``"7d Rb"``, ``"7d,Rb"``)."""
    tokens = []
    for chunk in _SEPARATORS.split(text.strip()):
        pos = 0
        while pos < len(chunk):
            match = _CARD_RE.match(chunk, pos)
            if not match:
                raise CardError(f"unknown card {chunk[pos:pos + 3]!r} in {excerpt(text)}")
            tokens.append(match.group(0))
            pos = match.end()
    return tokens


def card_list(cards: CardsLike, where: str = "cards") -> list[Card]:
    """A list of Cards from text, an iterable of card strings or Cards, or a mask."""
    if cards is None:
        return []
    if isinstance(cards, bool):     # an int, but never a mask
        raise CardError(f"{where}: expected cards, got bool")
    if isinstance(cards, int):
        if not 0 <= cards <= ALL_MASK:
            raise CardError(f"{where}: {excerpt(cards)} is not a mask of the 40 cards")
        return [DECK[i] for i in range(40) if cards >> i & 1]
    if isinstance(cards, str):
        return [Card.parse(t) for t in split_card_text(cards)] if cards.strip() not in ("", "-") else []
    if isinstance(cards, Card):
        return [cards]
    try:
        items = list(itertools.islice(iter(cards), 41))   # more than a deck is an error anyway
    except TypeError:
        raise CardError(f"{where}: expected cards, got {type(cards).__name__}") from None
    if len(items) > 40:
        raise CardError(f"{where}: more than the 40 cards of a deck")
    out = []
    for item in items:
        try:
            out.append(Card.parse(item))
        except CardError as exc:
            raise CardError(f"{where}: {exc}") from None
    return out


def parse_cards(cards: CardsLike, where: str = "cards") -> int:
    """A mask from any card list; a card given twice is an error."""
    mask = 0
    for card in card_list(cards, where):
        if mask & card.mask:
            raise DuplicateCardError(f"{card} appears twice in {where}")
        mask |= card.mask
    return mask


def iter_cards(mask: int) -> Iterator[Card]:
    """The cards of a mask in index order."""
    while mask:
        low = mask & -mask
        yield DECK[low.bit_length() - 1]
        mask ^= low


def cards_text(mask: int, empty: str = "-") -> str:
    """Canonical text of a set of cards: concatenated, in index order (``-`` when empty)."""
    return "".join(str(c) for c in iter_cards(mask)) or empty
