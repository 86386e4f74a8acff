"""Positions, moves and the round score.

A Position is an immutable, fully known state of a round: both hands, the table, the capture
piles, the scopas made, the stock in deal order, who is to move, the dealer, the last capturer
and the rules. The rules themselves live in the kernel; this module checks input and names things.

>>> pos = Position(hands=("5c 5b Fd", "Rb 4d 6s"), table="3c 5d Rs 2b", to_move=0, dealer=1)
>>> [str(m) for m in pos.legal_moves()]
['Fdx5d+3c', '5cx5d', '5bx5d']
>>> after = pos.play("5cx5d")
>>> after.to_string()
'Fd5b/4d6sRb 3cRs2b 5d5c/- - 0/0 1 1 0'
>>> Position.from_string(after.to_string()) == after
True
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence, Union

from . import _kernel, notation
from .cards import ALL_MASK, DECK, Card, CardsLike, card_list, cards_text, iter_cards
from .errors import CardError, DuplicateCardError, IllegalMoveError, PositionError
from .rules import Rules

if TYPE_CHECKING:  # pragma: no cover
    from .view import View


@dataclass(frozen=True)
class Move:
    """A card played and the set of table cards it takes (empty for a lay-down).

    >>> m = Move.parse("7dx3c+4s")
    >>> m, str(m), m.is_capture
    (Move.parse('7dx3c+4s'), '7dx3c+4s', True)
    """

    card: Card
    captures: frozenset = frozenset()

    @classmethod
    def from_packed(cls, packed: int) -> "Move":
        return cls(DECK[packed >> 40], frozenset(iter_cards(packed & ALL_MASK)))

    @property
    def packed(self) -> int:
        """The kernel's form: card index << 40 | mask of the captured cards."""
        return self.card.index << 40 | sum(c.mask for c in self.captures)

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    @classmethod
    def parse(cls, text: Union[str, "Move"], position: Optional["Position"] = None) -> "Move":
        """Read ``7d`` (lay down, or the card's only legal move) or ``7dx3c+4s``.

        With a position the move must be legal there; a bare card stands for its only legal
        move, and is an error naming the choices when it has several."""
        if isinstance(text, Move):
            move = text
        else:
            if not isinstance(text, str):
                raise IllegalMoveError(f"a move is text like '7dx3c+4s', not {type(text).__name__}")
            card_part, sep, capture_part = text.strip().partition("x")
            if sep and not capture_part.strip():
                raise IllegalMoveError(f"move {text!r} names no captured card after 'x'")
            try:
                card = Card.parse(card_part)
                captured = [Card.parse(t) for t in capture_part.split("+")] if sep else []
            except CardError as exc:
                raise IllegalMoveError(f"cannot read move {text!r}: {exc}") from None
            if len(set(captured)) != len(captured):
                raise IllegalMoveError(f"move {text!r} takes the same card twice")
            move = cls(card, frozenset(captured))
            if position is not None and not sep:
                choices = [m for m in position.legal_moves() if m.card == card]
                if len(choices) == 1:
                    return choices[0]
                if len(choices) > 1:
                    raise IllegalMoveError(
                        f"{card} can take several ways; say which: {', '.join(map(str, choices))}")
        if position is not None:
            position._check_legal(move)
        return move

    def __str__(self) -> str:
        if not self.captures:
            return str(self.card)
        return f"{self.card}x" + "+".join(str(c) for c in sorted(self.captures))

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


MoveLike = Union[Move, str]


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
        d = _kernel.score_piles_detail(pile0, pile1, rules.flags)

        def who(w: int) -> Optional[int]:
            return None if w < 0 else w

        piles = (pile0, pile1)
        players = tuple(
            PlayerScore(cards=d["cards"][p], coins=d["coins"][p], settebello=bool(piles[p] >> 6 & 1),
                        primiera=d["primiera"][p], scopas=scopas[p], napola=d["napola"][p],
                        re_bello=d["re_bello"] == p, points=d["points"][p] + scopas[p])
            for p in (0, 1))
        return cls(players=players, carte=who(d["carte"]), denari=who(d["denari"]),  # type: ignore[arg-type]
                   settebello=who(d["settebello"]), primiera=who(d["primiera_winner"]),
                   re_bello=who(d["re_bello"]))


_PLACES = ("hand 0", "hand 1", "table", "pile 0", "pile 1", "stock")


def place_masks(places: Sequence[str], lists: Sequence[list[Card]]) -> list[int]:
    """The mask of each place's cards; a card in two places (or twice in one) is an error."""
    seen: dict[Card, str] = {}
    for place, cards in zip(places, lists):
        for card in cards:
            if card in seen:
                where = place if seen[card] == place else f"{seen[card]} and {place}"
                raise DuplicateCardError(f"{card} is in {where}: a card can be in one place only")
            seen[card] = place
    return [sum(c.mask for c in cards) for cards in lists]


def check_round_state(sizes: tuple[int, int], stock: int, table: int, piles: tuple[int, int],
                      scopas: tuple, to_move: Optional[int], dealer: int, last_capturer: Optional[int],
                      error: type) -> int:
    """Check that hand sizes, stock length, turn, scopas and last capturer can occur together
    (shared by Position and View); raise `error` naming the problem, else return the side to
    move (the one the hand sizes imply when `to_move` is None)."""
    for name, value, allowed in (("dealer", dealer, (0, 1)), ("last_capturer", last_capturer, (None, 0, 1))):
        if value not in allowed or isinstance(value, bool):
            raise error(f"{name} must be one of {allowed}, not {value!r}")
    if (not isinstance(scopas, tuple) or len(scopas) != 2
            or any(not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 20 for x in scopas)):
        raise error(f"scopas must be two whole numbers from 0 to 20, not {scopas!r}")
    if max(sizes) > 3:
        raise error(f"hands hold {sizes[0]} and {sizes[1]} cards; a hand has at most 3")
    if stock % 6:
        raise error(f"the stock has {stock} cards, which does not split into deals of 3 + 3")
    if stock > 30:
        raise error(f"the stock has {stock} cards; at most 30 remain after the first deal")
    if sizes == (0, 0) and stock:
        raise error("both hands are empty but the stock is not: deal the next 3 + 3 cards")
    nondealer = 1 - dealer
    if sizes[nondealer] == sizes[dealer]:
        implied = nondealer
    elif sizes[dealer] == sizes[nondealer] + 1:
        implied = dealer
    else:
        raise error(f"hands of {sizes[0]} and {sizes[1]} cards cannot occur with player {dealer} dealing: "
                    "the non-dealer plays first, so the dealer holds as many cards or one more")
    if to_move is None:
        to_move = implied
    elif to_move not in (0, 1) or isinstance(to_move, bool):
        raise error(f"to_move must be 0 or 1, not {to_move!r}")
    elif to_move != implied and sizes != (0, 0):
        raise error(f"player {to_move} cannot be to move with hands of {sizes[0]} and {sizes[1]} cards "
                    f"and player {dealer} dealing: it is player {implied}'s turn")
    for p in (0, 1):
        if scopas[p] and not piles[p]:
            raise error(f"player {p} has {scopas[p]} scopa(s) but no captured cards")
    if (piles[0] or piles[1]) and last_capturer is None:
        raise error("cards have been captured, so last_capturer must say who captured last")
    if last_capturer is not None and not piles[last_capturer]:
        raise error(f"last_capturer is {last_capturer} but that player has captured nothing")
    if sizes == (0, 0) and table and last_capturer is not None:
        raise error("the round is over, so the table cards belong to the last capturer's pile")
    return to_move


class Position:
    """A fully known position of a round (see the module docstring and README for the notation).

    Card lists may be text (``"7d Rb"`` or ``"7dRb"``), iterables of card strings or Cards.
    `to_move` defaults to what the hand sizes imply (the non-dealer when the hands are equal)."""

    __slots__ = ("hands", "table", "piles", "stock", "scopas", "to_move", "dealer",
                 "last_capturer", "rules", "_moves", "_tuple")

    def __init__(self, hands: tuple[CardsLike, CardsLike] = ((), ()), table: CardsLike = (),
                 stock: CardsLike = (), captured: tuple[CardsLike, CardsLike] = ((), ()),
                 scopas: tuple[int, int] = (0, 0), to_move: Optional[int] = None, dealer: int = 1,
                 last_capturer: Optional[int] = None, rules: Rules = Rules()) -> None:
        if not isinstance(rules, Rules):
            raise PositionError(f"rules must be a Rules value, not {type(rules).__name__}")
        for name, pair in (("hands", hands), ("captured", captured)):
            if isinstance(pair, str) or not hasattr(pair, "__len__") or len(pair) != 2:
                raise PositionError(f"{name} must be a pair (player 0's cards, player 1's cards)")
        lists = [card_list(hands[0], "hand 0"), card_list(hands[1], "hand 1"),
                 card_list(table, "table"), card_list(captured[0], "pile 0"),
                 card_list(captured[1], "pile 1"), card_list(stock, "stock")]
        total = sum(map(len, lists))
        if total > 40:
            raise PositionError(f"{total} cards given; a deck has 40")
        masks = place_masks(_PLACES, lists)
        self.hands = (masks[0], masks[1])
        self.table = masks[2]
        self.piles = (masks[3], masks[4])
        self.stock = tuple(lists[5])
        self.scopas = tuple(scopas) if isinstance(scopas, (tuple, list)) else scopas
        self.dealer = dealer
        self.last_capturer = last_capturer
        self.rules = rules
        self.to_move = to_move
        self._moves = None
        self._tuple = None
        self._validate()

    # -- validation ---------------------------------------------------------------------------

    def _validate(self) -> None:
        sizes = (bin(self.hands[0]).count("1"), bin(self.hands[1]).count("1"))
        self.to_move = check_round_state(sizes, len(self.stock), self.table, self.piles, self.scopas,
                                         self.to_move, self.dealer, self.last_capturer, PositionError)

    # -- notation -----------------------------------------------------------------------------

    @classmethod
    def from_string(cls, text: str) -> "Position":
        """Read the one-line notation (see README); the inverse of `to_string`."""
        f = notation.parse(text, hidden_ok=False)
        return cls(hands=f.hands, table=f.table, captured=f.piles, stock=f.stock, scopas=f.scopas,
                   to_move=f.to_move, dealer=f.dealer, last_capturer=f.last_capturer, rules=f.rules)

    def to_string(self) -> str:
        """The one-line notation: hands, table, piles, stock (in order), scopas, side, dealer, last."""
        return notation.format_line(
            (cards_text(self.hands[0]), cards_text(self.hands[1])), self.table, self.piles,
            notation.stock_text(self.stock), self.scopas, self.to_move, self.dealer,
            self.last_capturer, self.rules)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Position.from_string({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (self.hands, self.table, self.piles, self.stock, self.scopas, self.to_move,
                self.dealer, self.last_capturer, self.rules)

    # -- the kernel ---------------------------------------------------------------------------

    def _kernel_tuple(self) -> tuple:
        """The position as the kernel takes it (see ext/api.pxi); made once."""
        if self._tuple is not None:
            return self._tuple
        deals = tuple((sum(c.mask for c in self.stock[i:i + 3]),
                       sum(c.mask for c in self.stock[i + 3:i + 6]))
                      for i in range(0, len(self.stock), 6))
        last = -1 if self.last_capturer is None else self.last_capturer
        self._tuple = (self.hands[0], self.hands[1], self.table, self.piles[0], self.piles[1],
                       self.scopas[0], self.scopas[1], self.to_move, self.dealer, last, deals,
                       self.rules.flags)
        return self._tuple

    @classmethod
    def _from_kernel(cls, t: tuple, stock: tuple, rules: Rules) -> "Position":
        pos = object.__new__(cls)
        pos.hands = (t[0], t[1])
        pos.table = t[2]
        pos.piles = (t[3], t[4])
        pos.scopas = (t[5], t[6])
        pos.to_move = t[7]
        pos.dealer = t[8]
        pos.last_capturer = None if t[9] < 0 else t[9]
        pos.stock = stock[len(stock) - 6 * len(t[10]):]
        pos.rules = rules
        pos._moves = None
        pos._tuple = t
        return pos

    # -- play ---------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move (empty when the round is over)."""
        if self._moves is None:
            self._moves = [Move.from_packed(m) for m in _kernel.legal_moves(self._kernel_tuple())]
        return list(self._moves)

    def _check_legal(self, move: Move) -> None:
        if move not in self.legal_moves():
            if self.is_round_over():
                raise IllegalMoveError(f"{move} is illegal: the round is over")
            if move.card.mask & ~self.hands[self.to_move]:
                raise IllegalMoveError(f"{move} is illegal: player {self.to_move} does not hold {move.card}")
            same = [str(m) for m in self.legal_moves() if m.card == move.card]
            raise IllegalMoveError(f"{move} is illegal here; with {move.card} the legal moves are {', '.join(same)}")

    def play(self, move: MoveLike) -> "Position":
        """The position after `move` (a Move or move text), dealing from the stock when due."""
        move = Move.parse(move, self)
        after = _kernel.play(self._kernel_tuple(), move.packed)[0]
        return Position._from_kernel(after, self.stock, self.rules)

    def is_scopa(self, move: MoveLike) -> bool:
        """Would `move` score a scopa?"""
        move = Move.parse(move, self)
        return bool(_kernel.play(self._kernel_tuple(), move.packed)[1])

    def is_round_over(self) -> bool:
        return not (self.hands[0] or self.hands[1] or self.stock)

    @property
    def deals_left(self) -> int:
        """Deals still in the stock."""
        return len(self.stock) // 6

    def round_score(self) -> RoundScore:
        """The score of the piles as they are (the final score once the round is over)."""
        return RoundScore.of(self.piles[0], self.piles[1], self.scopas, self.rules)

    def view(self, player: int) -> "View":
        """What `player` knows of this position: the own hand, the table, both piles, the scopas,
        the turn, and only how many cards the opponent holds and the stock has (a `View`).

        >>> pos = Position.new_round(seed=11)
        >>> pos.view(1).to_string()
        '?3/7c2s3s 7dAc5s7s -/- ?30 0/0 0 1 -'
        """
        from .view import View
        return View.from_position(self, player)

    def cards_in_play(self) -> int:
        """Mask of the cards in hands, on the table and in the stock."""
        return self.hands[0] | self.hands[1] | self.table | sum(c.mask for c in self.stock)

    # -- dealing ------------------------------------------------------------------------------

    @classmethod
    def from_deck(cls, deck: Sequence[CardsLike], dealer: int = 1, rules: Rules = Rules()) -> "Position":
        """The start of a round from the whole deck in deal order: 3 cards to the non-dealer,
        3 to the dealer, 4 to the table, then the stock."""
        cards = card_list(deck, "deck")
        if len(cards) != 40:
            raise PositionError(f"a deck in deal order has 40 cards, not {len(cards)}")
        hands = [(), ()]
        hands[1 - dealer] = cards[0:3]
        hands[dealer] = cards[3:6]
        return cls(hands=tuple(hands), table=cards[6:10], stock=cards[10:], dealer=dealer, rules=rules)

    @staticmethod
    def shuffled_deck(seed: Optional[int] = None, rules: Rules = Rules()) -> list[Card]:
        """A shuffled deck in deal order (reshuffled while the redeal rule rejects the table)."""
        rng = random.Random(seed)
        deck = list(DECK)
        while True:
            rng.shuffle(deck)
            kings = sum(1 for c in deck[6:10] if c.rank == 10)
            if not (rules.redeal_three_kings and kings >= 3):
                return deck

    @classmethod
    def new_round(cls, seed: Optional[int] = None, rules: Rules = Rules(), dealer: int = 1) -> "Position":
        """A shuffled deal; the same seed gives the same deal on every machine."""
        return cls.from_deck(cls.shuffled_deck(seed, rules), dealer=dealer, rules=rules)
