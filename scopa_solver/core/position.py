"""Positions and moves.

A Position is an immutable, fully known state of a round: both hands, the table, the capture
piles, the scopas made, the stock in deal order, who is to move, the dealer, the last capturer
and the rules. The rules themselves live in the kernel; this module checks input and names things.

The family games (docs/FAMILY.md: 3, 4 or 6 players, Scopone, Scopa a 15) are Positions too,
with one hand, pile and scopa count per seat; every game crosses to the kernel as one
`kernel.KernelState`. The stock is in deal order: 3 cards to the leader (the seat after the
dealer), 3 to the next seat, ..., 3 to the dealer, then the next deal.

>>> r = Rules(players=3)
>>> pos = Position(hands=("5c 5b", "Rb 4d", "6s Ac"), table="3c 5d Rs 2b", dealer=2, rules=r)
>>> pos.to_move, [str(m) for m in pos.legal_moves()]
(0, ['5cx5d', '5bx5d'])
>>> pos.play("5cx5d").to_string()
'5b/4dRb/Ac6s 3cRs2b 5d5c/-/- - 0/0/0 1 2 0 players=3'

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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from .. import kernel
from ..errors import CardError, IllegalMoveError, PositionError, excerpt
from . import flow, notation
from .cards import ALL_MASK, DECK, Card, CardsLike, card_list, cards_text, iter_cards, popcount
from .rules import Rules
from .score import PlayerScore as PlayerScore, RoundScore as RoundScore  # re-exported
from .state import RoundState, per_seat, place_masks, whole

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
    captures: frozenset[Card] = frozenset()

    @classmethod
    def from_packed(cls, packed: int) -> "Move":
        """The move of the kernel's packed form (card index << 40 | captured mask)."""
        return cls(DECK[packed >> 40], frozenset(iter_cards(packed & ALL_MASK)))

    def to_dict(self) -> dict[str, Any]:
        return {"move": str(self), "card": str(self.card), "captures": [str(c) for c in sorted(self.captures)]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Move":
        return cls.parse(data["move"])

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

        With a position the move must be legal there; a bare card is its lay-down where laying
        it down is legal (with ``optional_capture`` even when it could take: the move's own
        text), else its only legal move, and an error naming the choices when it has several."""
        if isinstance(text, Move):
            move = text
        else:
            if not isinstance(text, str):
                raise IllegalMoveError(f"a move is text like '7dx3c+4s', not {type(text).__name__}")
            if len(text) > 80:     # the longest move, a card taking five, is 18 characters
                raise IllegalMoveError(f"cannot read move {excerpt(text)}: far too long for a move")
            card_part, sep, capture_part = text.strip().partition("x")
            if sep and not capture_part.strip():
                raise IllegalMoveError(f"move {excerpt(text)} names no captured card after 'x'")
            try:
                card = Card.parse(card_part)
                captured = [Card.parse(t) for t in capture_part.split("+")] if sep else []
            except CardError as exc:
                raise IllegalMoveError(f"cannot read move {excerpt(text)}: {exc}") from None
            if len(set(captured)) != len(captured):
                raise IllegalMoveError(f"move {excerpt(text)} takes the same card twice")
            move = cls(card, frozenset(captured))
            if position is not None and not sep:
                choices = [m for m in position.legal_moves() if m.card == card]
                if move in choices:
                    return move
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


def _places(n: int) -> tuple[str, ...]:
    return tuple(f"hand {p}" for p in range(n)) + ("table",) + tuple(f"pile {p}" for p in range(n)) + ("stock",)


class Position(RoundState):
    """A fully known position of a round (see the module docstring and docs/notation.md).

    Card lists may be text (``"7d Rb"`` or ``"7dRb"``), iterables of card strings or Cards.
    `to_move` defaults to what the hand sizes imply (the non-dealer when the hands are equal)."""

    __slots__ = ("hands", "stock", "_moves", "_state")
    hands: tuple[int, ...]          # a mask per seat
    stock: tuple[Card, ...]         # in deal order
    _moves: Optional[list[Move]]    # the legal moves and the kernel state, made once
    _state: Optional[kernel.KernelState]
    _error = PositionError

    def __init__(self, hands: tuple[CardsLike, ...] = ((), ()), table: CardsLike = (),
                 stock: CardsLike = (), captured: Optional[tuple[CardsLike, ...]] = None,
                 scopas: Optional[tuple[int, ...]] = None, to_move: Optional[int] = None,
                 dealer: Optional[int] = None, last_capturer: Optional[int] = None,
                 rules: Rules = Rules()) -> None:
        # Defaults per seat: nothing captured, no scopas; the dealer is the last seat (1 with
        # two players), so that seat 0 leads.
        n = rules.players if isinstance(rules, Rules) else 2
        captured = ((),) * n if captured is None else captured
        scopas = (0,) * n if scopas is None else scopas
        dealer = n - 1 if dealer is None else dealer
        public = self._init_public(table, captured, scopas, to_move, dealer, last_capturer, rules)
        hands = per_seat(hands, "hands", PositionError, n)
        lists = [card_list(h, f"hand {p}") for p, h in enumerate(hands)] + public + [card_list(stock, "stock")]
        total = sum(map(len, lists))
        if total > 40:
            raise PositionError(f"{total} cards given; a deck has 40")
        masks = place_masks(_places(n), lists)
        self.hands = tuple(masks[:n])
        self.table = masks[n]
        self.piles = tuple(masks[n + 1:2 * n + 1])
        self.stock = tuple(lists[-1])
        self._moves = None
        self._state = None
        self._check()

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(map(popcount, self.hands))

    def stock_size(self) -> int:
        return len(self.stock)

    def _hand_texts(self) -> tuple[str, ...]:
        return tuple(map(cards_text, self.hands))

    def _stock_text(self) -> str:
        return notation.stock_text(self.stock)

    def _key(self) -> tuple[Any, ...]:
        return (self.hands, self.table, self.piles, self.stock, self.scopas, self.to_move,
                self.dealer, self.last_capturer, self.rules)

    # -- notation and data --------------------------------------------------------------------

    @classmethod
    def from_string(cls, text: str) -> "Position":
        """Read the one-line notation (see docs/notation.md); the inverse of `to_string`."""
        f = notation.parse(text, hidden_ok=False)
        stock = [c for c in f.stock if c is not None]     # none hidden: hidden_ok=False
        return cls(hands=f.hands, table=f.table, captured=f.piles, stock=stock, scopas=f.scopas,
                   to_move=f.to_move, dealer=f.dealer, last_capturer=f.last_capturer, rules=f.rules)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the notation line and its fields."""
        return {"position": self.to_string(), "hands": list(self._hand_texts()),
                "stock": self._stock_text(), **self._public_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Position":
        """The inverse of `to_dict` (reads its ``position`` line)."""
        if not isinstance(data, dict) or not isinstance(data.get("position"), str):
            raise PositionError("a position's data is a dict with its notation line under 'position'")
        return cls.from_string(data["position"])

    # -- the kernel ---------------------------------------------------------------------------

    def kernel_state(self) -> kernel.KernelState:
        """The position as the kernel reads it (made once), for every game. Each deal of the
        stock is one mask per seat: 3 cards each in seat order from the leader, the dealer last."""
        if self._state is None:
            masks = [c.mask for c in self.stock]
            self._state = self._kernel_state(self.hands, [sum(masks[k:k + 3]) for k in range(0, len(masks), 3)])
        return self._state

    @classmethod
    def from_kernel_state(cls, state: kernel.KernelState, rules: Rules,
                          stock: Optional[Sequence[Card]] = None) -> "Position":
        """The position of a kernel state. `stock` gives the stock's order (its last cards are
        the state's deals); without it each 3-card part is in card order."""
        n = state.players
        if stock is None:
            leader = (state.dealer + 1) % n
            stock = tuple(card for deal in state.deals for k in range(n)
                          for card in iter_cards(deal[(leader + k) % n]))
        pos = object.__new__(cls)
        pos.hands, pos.piles, pos.scopas = tuple(state.hands), tuple(state.piles), tuple(state.scopas)
        dealt = 3 * n * len(state.deals)
        pos.table = state.table
        pos.to_move = state.to_move
        pos.dealer = state.dealer
        pos.last_capturer = None if state.last_capturer < 0 else state.last_capturer
        pos.stock = tuple(stock[len(stock) - dealt:])
        pos.rules = rules
        pos._moves = None
        pos._state = state
        return pos

    # -- play ---------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move (empty when the round is over)."""
        if self._moves is None:
            self._moves = [Move.from_packed(m) for m in kernel.legal_moves(self.kernel_state())]
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
        return self.play_events(move)[0]

    def play_events(self, move: MoveLike) -> tuple["Position", kernel.PlayEvents]:
        """The position after `move` and what it did: a scopa, a new deal, the leftovers.

        >>> pos = Position(hands=("7d", "3c"), table="4s 3s", dealer=1)
        >>> after, events = pos.play_events("7dx3s+4s")
        >>> events.scopa, after.piles[0] == pos.table | pos.hands[0]
        (True, True)
        """
        move = Move.parse(move, self)
        after, events = kernel.play(self.kernel_state(), move.packed)
        return Position.from_kernel_state(after, self.rules, self.stock), events

    def is_scopa(self, move: MoveLike) -> bool:
        """Would `move` score a scopa?"""
        return self.play_events(move)[1].scopa

    def round_score(self) -> RoundScore:
        """The score of the piles as they are (the final score once the round is over); for
        the family games per side (`RoundScore.sides`, `total` per side)."""
        return RoundScore.of_piles(self.piles, self.scopas, self.rules)

    def view(self, player: int) -> "View":
        """What `player` knows of this position: the own hand, the table, every pile, the scopas,
        the turn, and only how many cards each other hand and the stock hold (a `View`; in
        the family games partners do not see each other's hands either).

        >>> pos = Position.new_round(seed=11)
        >>> pos.view(1).to_string()
        '?3/7c2s3s 7dAc5s7s -/- ?30 0/0 0 1 -'
        """
        from .view import View
        return View.from_position(self, player)

    def cards_in_play(self) -> int:
        """Mask of the cards in hands, on the table and in the stock."""
        hands = 0
        for hand in self.hands:
            hands |= hand
        return hands | self.table | sum(c.mask for c in self.stock)

    def is_round_start(self) -> bool:
        """Is this the first position of a round (3 + 3 in hand, 4 on the table, 30 in stock;
        for the family, full hands, the game's table cards and stock)?"""
        return flow.is_round_start(self.hands, self.table, self.piles, self.scopas, len(self.stock), self.rules)

    # -- dealing ------------------------------------------------------------------------------

    @classmethod
    def from_deck(cls, deck: CardsLike, dealer: Optional[int] = None, rules: Rules = Rules()) -> "Position":
        """The start of a round from the whole deck in deal order: 3 cards to the non-dealer,
        3 to the dealer, 4 to the table, then the stock. For the family (`flow.deal_slices`):
        the leader's cards, the next seat's, ..., the dealer's, the table cards, the stock.
        The dealer defaults to the last seat (1 with two players)."""
        cards = card_list(deck, "deck")
        if len(cards) != 40:
            raise PositionError(f"a deck in deal order has 40 cards, not {len(cards)}")
        if not isinstance(rules, Rules):
            raise PositionError(f"rules must be a Rules value, not {type(rules).__name__}")
        n = rules.players
        dealer = whole(n - 1 if dealer is None else dealer, "dealer", PositionError, tuple(range(n)))
        *hands, table, stock = flow.deal_slices(dealer, rules)
        return cls(hands=tuple(cards[h] for h in hands), table=cards[table], stock=cards[stock],
                   dealer=dealer, rules=rules)

    @staticmethod
    def shuffled_deck(seed: Any = None, rules: Rules = Rules()) -> list[Card]:
        """A shuffled deck in deal order (reshuffled while the redeal rule rejects the table)."""
        return flow.shuffled_deck(seed, rules)

    @classmethod
    def new_round(cls, seed: Any = None, rules: Rules = Rules(), dealer: Optional[int] = None) -> "Position":
        """A shuffled deal; the same seed gives the same deal on every machine. The dealer
        defaults to the last seat (1 with two players)."""
        return cls.from_deck(flow.shuffled_deck(seed, rules), dealer=dealer, rules=rules)
