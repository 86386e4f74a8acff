"""The round state that Position (everything known) and View (what one player knows) share:
the public fields, their validation, the notation line, equality and hashing.

Whole numbers (seats, scopas, counts) follow one rule everywhere: a Python ``int``; a bool or a
float (even ``1.0``) is refused with a clear error, so that what is read is what prints back.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from . import notation
from .cards import Card, CardsLike, card_list, cards_text, popcount
from .rules import Rules
from .. import kernel
from ..errors import DuplicateCardError, excerpt


def whole(value: Any, name: str, error: type, allowed: Optional[Sequence[Optional[int]]] = None) -> Any:
    """`value` if it is an int (not a bool) and, when given, one of `allowed` (None may be one)."""
    if value is None and allowed is not None and None in allowed:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or (allowed is not None and value not in allowed):
        kind = "a whole number" if allowed is None else _choices(allowed)
        raise error(f"{name} must be {kind}, not {excerpt(value)}")
    return value


def _choices(allowed: Sequence[Optional[int]]) -> str:
    names = ["None" if a is None else str(a) for a in allowed]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


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


def pair(value: Any, name: str, error: type) -> tuple[Any, ...]:
    """A (player 0, player 1) pair given as a tuple or list."""
    return per_seat(value, name, error, 2)


def per_seat(value: Any, name: str, error: type, players: int) -> tuple[Any, ...]:
    """One value per seat, given as a tuple or list of `players` items."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or len(value) != players:
        if players == 2:
            raise error(f"{name} must be a pair (player 0's, player 1's), not {excerpt(value)}")
        raise error(f"{name} must give one per seat, {players} in all (players={players}), not {excerpt(value)}")
    return tuple(value)


class RoundState:
    """The fields every state of a round has: the table, both capture piles, the scopas, the
    turn, the dealer, the last capturer and the rules. Subclasses say how many cards each hand
    and the stock hold, and how hands and stock print."""

    __slots__ = ("table", "piles", "scopas", "to_move", "dealer", "last_capturer", "rules")
    table: int                      # masks: the table's cards, each seat's pile
    piles: tuple[int, ...]
    scopas: tuple[int, ...]
    to_move: int                    # set by _check when not given
    dealer: int
    last_capturer: Optional[int]
    rules: Rules
    _error: type = ValueError           # the error type of the subclass

    # -- what a subclass provides -------------------------------------------------------------

    def hand_sizes(self) -> tuple[int, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def stock_size(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _hand_texts(self) -> tuple[str, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _stock_text(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _key(self) -> tuple[Any, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- the kernel's view of it ---------------------------------------------------------------

    def _kernel_state(self, hands: Sequence[int], stock: Sequence[int]) -> kernel.KernelState:
        """This round's kernel state with these hands and this stock: one mask of 3 cards per
        seat and deal, each deal in playing order from the leader (the dealer's last)."""
        n = self.rules.players
        leader = (self.dealer + 1) % n
        deals = tuple(tuple(stock[i + (seat - leader) % n] for seat in range(n)) for i in range(0, len(stock), n))
        last = -1 if self.last_capturer is None else self.last_capturer
        return kernel.KernelState(n, tuple(hands), self.table, self.piles, self.scopas, self.to_move, self.dealer,
                                  last, deals, self.rules.flags, self.rules.sides)

    # -- construction -------------------------------------------------------------------------

    def _init_public(self, table: CardsLike, captured: Any, scopas: Any, to_move: Optional[int],
                     dealer: int, last_capturer: Optional[int], rules: Rules) -> list[list[Card]]:
        """Check the types of the public fields and set the non-card ones; the card lists of
        the table and the two piles (the caller places them with its own cards)."""
        error = self._error
        if not isinstance(rules, Rules):
            raise error(f"rules must be a Rules value, not {type(rules).__name__}")
        n = rules.players
        captured = per_seat(captured, "captured", error, n)
        scopas = per_seat(scopas, "scopas", error, n)
        self.scopas = tuple(whole(s, f"scopas of player {p}", error) for p, s in enumerate(scopas))
        seats = tuple(range(n))
        self.dealer = whole(dealer, "dealer", error, seats)
        self.last_capturer = whole(last_capturer, "last_capturer", error, (None,) + seats)
        self.to_move = whole(to_move, "to_move", error, (None,) + seats)
        self.rules = rules
        return [card_list(table, "table")] + [card_list(c, f"pile {p}") for p, c in enumerate(captured)]

    def _check(self) -> None:
        """Check that hand sizes, stock, turn, scopas and last capturer can occur together;
        set `to_move` to what the hand sizes imply when it was not given."""
        if self.rules.players != 2 or self.rules.game != "scopa":
            return self._check_family()
        error = self._error
        sizes, stock, piles = self.hand_sizes(), self.stock_size(), self.piles
        if any(not 0 <= x <= 20 for x in self.scopas):
            raise error(f"scopas must be two whole numbers from 0 to 20, not {excerpt(self.scopas)}")
        if max(sizes) > 3:
            raise error(f"hands hold {sizes[0]} and {sizes[1]} cards; a hand has at most 3")
        if stock % 6:
            raise error(f"the stock has {stock} cards, which does not split into deals of 3 + 3")
        if stock > 30:
            raise error(f"the stock has {stock} cards; at most 30 remain after the first deal")
        if sizes == (0, 0) and stock:
            raise error("both hands are empty but the stock is not: deal the next 3 + 3 cards")
        dealer = self.dealer
        nondealer = 1 - dealer
        if sizes[nondealer] == sizes[dealer]:
            implied = nondealer
        elif sizes[dealer] == sizes[nondealer] + 1:
            implied = dealer
        else:
            raise error(f"hands of {sizes[0]} and {sizes[1]} cards cannot occur with player {dealer} "
                        "dealing: the non-dealer plays first, so the dealer holds as many cards or one more")
        if self.to_move is None:
            self.to_move = implied
        elif self.to_move != implied and sizes != (0, 0):
            raise error(f"player {self.to_move} cannot be to move with hands of {sizes[0]} and {sizes[1]} "
                        f"cards and player {dealer} dealing: it is player {implied}'s turn")
        for p in (0, 1):
            if self.scopas[p] and not piles[p]:
                raise error(f"player {p} has {self.scopas[p]} scopa(s) but no captured cards")
        if (piles[0] or piles[1]) and self.last_capturer is None:
            raise error("cards have been captured, so last_capturer must say who captured last")
        if self.last_capturer is not None and not piles[self.last_capturer]:
            raise error(f"last_capturer is {self.last_capturer} but that player has captured nothing")
        if sizes == (0, 0) and self.table and self.last_capturer is not None:
            raise error("the round is over, so the table cards belong to the last capturer's pile")

    def _check_family(self) -> None:
        """`_check` for any number of players and every game (docs/FAMILY.md): seats from the
        leader (dealer + 1) up to the one to move have played one card more in the current
        deal, so along the playing order from the leader the hand sizes never decrease and
        differ by at most one; the stock holds whole deals of 3 per seat, no more than the
        game deals after its first."""
        error = self._error
        rules, n = self.rules, self.rules.players
        sizes, stock, piles = self.hand_sizes(), self.stock_size(), self.piles
        game = f"{rules.game} with {n} players" if rules.game == "scopa" else rules.game
        if any(not 0 <= x <= 20 for x in self.scopas):
            raise error(f"scopas must be whole numbers from 0 to 20, not {self.scopas!r}")
        if max(sizes) > rules.hand_size:
            raise error(f"a hand holds {max(sizes)} cards; in {game} a hand has at most {rules.hand_size}")
        if stock % (3 * n):
            raise error(f"the stock has {stock} cards, which does not split into deals of 3 for each of {n} players")
        most = (rules.deals - 1) * 3 * n
        if stock > most:
            raise error(f"the stock has {stock} cards; in {game} at most {most} remain after the first deal")
        if not any(sizes) and stock:
            raise error(f"every hand is empty but the stock is not: deal the next 3 cards to each of {n} players")
        leader = (self.dealer + 1) % n
        order = [(leader + k) % n for k in range(n)]
        along = [sizes[seat] for seat in order]
        if any(b < a for a, b in zip(along, along[1:])) or along[-1] - along[0] > 1:
            raise error(f"hands of {'/'.join(map(str, sizes))} cards cannot occur with seat {self.dealer} "
                        f"dealing: play goes from seat {leader}, so along that order each hand holds as many "
                        "cards as the one before it or one more")
        implied = order[along.index(along[-1])]
        if self.to_move is None:
            self.to_move = implied
        elif self.to_move != implied and any(sizes):
            raise error(f"seat {self.to_move} cannot be to move with hands of {'/'.join(map(str, sizes))} "
                        f"cards and seat {self.dealer} dealing: it is seat {implied}'s turn")
        for p in range(n):
            if self.scopas[p] and not piles[p]:
                raise error(f"seat {p} has {self.scopas[p]} scopa(s) but no captured cards")
        if any(piles) and self.last_capturer is None:
            raise error("cards have been captured, so last_capturer must say who captured last")
        if self.last_capturer is not None and not piles[self.last_capturer]:
            raise error(f"last_capturer is {self.last_capturer} but that seat has captured nothing")
        if not any(sizes) and self.table and self.last_capturer is not None:
            raise error("the round is over, so the table cards belong to the last capturer's pile")

    # -- what every state answers -------------------------------------------------------------

    @property
    def deals_left(self) -> int:
        """Deals still in the stock."""
        return self.stock_size() // (3 * self.rules.players)

    def is_round_over(self) -> bool:
        return not (any(self.hand_sizes()) or self.stock_size())

    def known_cards(self) -> int:
        """How many cards are on the table and in the piles."""
        return popcount(self.table) + sum(map(popcount, self.piles))

    def to_string(self) -> str:
        """The one-line notation (see docs/notation.md); `from_string` reads it back."""
        return notation.format_line(self._hand_texts(), self.table, self.piles, self._stock_text(),
                                    self.scopas, self.to_move, self.dealer, self.last_capturer, self.rules)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_string({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundState) and type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _public_dict(self) -> dict[str, Any]:
        return {"table": cards_text(self.table, ""), "piles": [cards_text(p, "") for p in self.piles],
                "scopas": list(self.scopas), "to_move": self.to_move, "dealer": self.dealer,
                "last_capturer": self.last_capturer, "rules": self.rules.changes()}
