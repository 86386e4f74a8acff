"""A player's view of a round and the worlds consistent with it.

A `View` is what one player knows: the own hand, the table, both capture piles (captures are
public), the scopas, who is to move, the dealer, the last capturer, how many cards the opponent
holds and how many remain in the stock, and the rules. A *world* is a fully known `Position`
consistent with the view: the opponent's hand and the future deals drawn from the unseen cards.

Only which unseen card goes to which hand in which deal matters, never the order inside a hand,
so worlds are counted and enumerated in that canonical form: the opponent's hand, then for each
deal still in the stock the non-dealer's three cards and the dealer's three cards. Every
canonical world is equally likely when the unseen cards are well shuffled; the count is the
multinomial ``n! / (opponent_cards! * 3!^(2 * deals))``.

>>> pos = Position.new_round(seed=11)
>>> view = pos.view(0)
>>> view.to_string()
'FdCc4s/?3 7dAc5s7s -/- ?30 0/0 0 1 -'
>>> View.from_string(view.to_string()) == view
True
>>> view.opponent_cards, view.stock_cards, view.count_worlds()
(3, 30, 23934366266775567482880000000)
>>> late = View.from_string("?/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb ?6 0/1 1 0 1")
>>> late.player, late.count_worlds(), len(list(late.worlds()))
(1, 140, 140)
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Optional, Sequence

from .. import kernel
from ..core import notation
from ..core.cards import ALL_MASK, CardsLike, card_list, cards_text, iter_cards, popcount
from ..core.flow import check_seed
from ..core.position import Move, MoveLike, Position
from ..core.rules import Rules
from ..core.state import RoundState, place_masks, whole
from ..errors import DuplicateCardError, IllegalMoveError, LimitError, PositionError, ViewError, excerpt
from . import worlds as _worlds

__all__ = ["View"]

_VIEW_TOKEN = re.compile(r"view=([01])")
_PLACES = ("hand", "table", "pile 0", "pile 1")
MAX_SAMPLES = 10_000_000
"""The most worlds one call samples (`sample_states`, `sample_worlds`, `suggest`)."""


class View(RoundState):
    """What `player` knows of a round (see the module docstring).

    Card lists may be text (``"7d Rb"``), iterables of card strings or Cards. `opponent_cards`
    and `stock_cards` default to what the 40-card deck implies (every card not in the own hand,
    on the table or in a pile is in the opponent's hand or the stock; the stock holds whole
    deals of six). `to_move` defaults to what the hand sizes imply, like `Position`.

    >>> View(0, hand="7c Rs 4b", table="3d 4c 5s", dealer=1)
    Traceback (most recent call last):
    ...
    scopa_solver.errors.ViewError: 34 cards are hidden (40 less 6 known): that is not a hand of 0 to 3 cards plus whole deals of six
    >>> v = View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", dealer=1)
    >>> v.opponent_cards, v.stock_cards, v.to_move, v.deals_left
    (3, 30, 0, 5)
    >>> [str(m) for m in v.legal_moves()]
    ['7cx3d+4c', 'RsxCs+Ab', '4bx4c']
    """

    __slots__ = ("player", "hand", "opponent_cards", "stock_cards")
    _error = ViewError

    def __init__(self, player: int, hand: CardsLike = (), table: CardsLike = (),
                 captured: tuple[CardsLike, CardsLike] = ((), ()), scopas: tuple[int, int] = (0, 0),
                 to_move: Optional[int] = None, dealer: int = 1, last_capturer: Optional[int] = None,
                 opponent_cards: Optional[int] = None, stock_cards: Optional[int] = None,
                 rules: Rules = Rules()) -> None:
        self.player = whole(player, "player", ViewError, (0, 1))
        public = self._init_public(table, captured, scopas, to_move, dealer, last_capturer, rules)
        masks = place_masks(_PLACES, [card_list(hand, "hand")] + public)
        self.hand = masks[0]
        self.table = masks[1]
        self.piles = (masks[2], masks[3])
        self.opponent_cards = whole(opponent_cards, "opponent_cards", ViewError, None) \
            if opponent_cards is not None else None
        self.stock_cards = whole(stock_cards, "stock_cards", ViewError, None) if stock_cards is not None else None
        self._count_hidden()
        self._check()

    def _count_hidden(self) -> None:
        """Fill in or check the hidden counts against the 40-card deck."""
        own = popcount(self.hand)
        known = own + self.known_cards()
        hidden = 40 - known
        for name in ("opponent_cards", "stock_cards"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= 40:
                raise ViewError(f"{name} must be a whole number of cards from 0 to 40, not {excerpt(value)}")
        if self.opponent_cards is None and self.stock_cards is None:
            if hidden % 6 > 3:
                raise ViewError(
                    f"{hidden} cards are hidden (40 less {known} known): that is not a hand of 0 to 3 "
                    "cards plus whole deals of six")
            self.opponent_cards = hidden % 6
            self.stock_cards = hidden - hidden % 6
        elif self.opponent_cards is None:
            self.opponent_cards = hidden - self.stock_cards
        elif self.stock_cards is None:
            self.stock_cards = hidden - self.opponent_cards
        opp, stock = self.opponent_cards, self.stock_cards
        if opp + stock != hidden or opp < 0 or stock < 0:
            raise ViewError(
                f"the counts add up to {known + opp + stock} cards (hand {own}, opponent {opp}, "
                f"table {popcount(self.table)}, piles {popcount(self.piles[0]) + popcount(self.piles[1])}, "
                f"stock {stock}), not 40")

    def hand_sizes(self) -> tuple[int, int]:
        own = popcount(self.hand)
        return (own, self.opponent_cards) if self.player == 0 else (self.opponent_cards, own)

    def stock_size(self) -> int:
        return self.stock_cards

    def _hand_texts(self) -> tuple[str, str]:
        hands = ["", ""]
        hands[self.player] = cards_text(self.hand)
        hands[1 - self.player] = notation.hidden_text(0, self.opponent_cards)
        return (hands[0], hands[1])

    def _stock_text(self) -> str:
        return notation.hidden_text(0, self.stock_cards)

    def _key(self) -> tuple:
        return (self.player, self.hand, self.table, self.piles, self.scopas, self.to_move,
                self.dealer, self.last_capturer, self.opponent_cards, self.stock_cards, self.rules)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_position(cls, position: Position, player: int) -> "View":
        """What `player` knows of a fully known position (`position.view(player)` is the same).

        The position must account for all 40 cards."""
        if not isinstance(position, Position):
            raise TypeError(f"expected a Position, not {type(position).__name__}")
        player = whole(player, "player", ViewError, (0, 1))
        total = popcount(position.cards_in_play()) + popcount(position.piles[0]) + popcount(position.piles[1])
        if total != 40:
            raise ViewError(f"the position holds {total} cards; a view needs all 40 accounted for")
        view = object.__new__(cls)
        view.player = player
        view.hand = position.hands[player]
        view.table = position.table
        view.piles = position.piles
        view.scopas = position.scopas
        view.to_move = position.to_move
        view.dealer = position.dealer
        view.last_capturer = position.last_capturer
        view.opponent_cards = popcount(position.hands[1 - player])
        view.stock_cards = len(position.stock)
        view.rules = position.rules
        view._count_hidden()
        view._check()
        return view

    @classmethod
    def from_string(cls, text: str) -> "View":
        """Read the position notation with hidden cards (the inverse of `to_string`).

        The player's own hand is written with its cards, the opponent's hand and the stock as
        hidden cards (``?`` each, or ``?N``). When neither hand shows a card (a finished round)
        an optional ``view=P`` token names the player; without it the side to move is assumed.

        >>> View.from_string("7cRs4b/?3 3d4cAbCs -/- ?30 0/0 0 1 -").player
        0
        >>> View.from_string("?3/7cRs4b 3d4cAbCs -/- ?30 0/0 0 1 -").player
        1
        >>> View.from_string("7cRs4b/?3 3d4cAbCs -/- 5d????? 0/0 0 1 -")
        Traceback (most recent call last):
        ...
        scopa_solver.errors.ViewError: the stock is hidden in a view: write it as ?N (or - when it is empty)
        """
        if not isinstance(text, str):
            raise ViewError(f"view text must be a string, not {type(text).__name__}")
        tokens = text.split()
        named = [t for t in tokens[8:] if _VIEW_TOKEN.fullmatch(t)]
        if len(named) > 1:
            raise ViewError("the view=P token is given more than once")
        if named:
            tokens.remove(named[0])
        f = notation.parse(" ".join(tokens), hidden_ok=True)
        candidates = [p for p in (0, 1) if f.hidden_hands[p] == 0 and not f.hands[1 - p]]
        if named:
            player = int(named[0][-1])
            if player not in candidates:
                raise ViewError(f"view={player}: player {player}'s hand must be known and the "
                                "opponent's hidden")
        elif not candidates:
            raise ViewError(
                "a view shows the player's own hand with its cards and the opponent's as hidden cards "
                f"only ('?3'); got hands {excerpt(tokens[0])}")
        else:
            player = candidates[0] if len(candidates) == 1 else f.to_move
        if any(c is not None for c in f.stock):
            raise ViewError("the stock is hidden in a view: write it as ?N (or - when it is empty)")
        return cls(player, hand=f.hands[player], table=f.table, captured=f.piles, scopas=f.scopas,
                   to_move=f.to_move, dealer=f.dealer, last_capturer=f.last_capturer,
                   opponent_cards=f.hidden_hands[1 - player], stock_cards=len(f.stock), rules=f.rules)

    def to_string(self) -> str:
        """The position notation with the hidden cards as ``?N``; `from_string` reads it back."""
        line = super().to_string()
        if not self.hand and not self.opponent_cards and self.player != self.to_move:
            line += f" view={self.player}"
        return line

    def to_dict(self) -> dict:
        """Plain data (JSON-ready): the notation line and its fields."""
        return {"view": self.to_string(), "player": self.player, "hand": cards_text(self.hand, ""),
                "opponent_cards": self.opponent_cards, "stock_cards": self.stock_cards,
                **self._public_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> "View":
        """The inverse of `to_dict` (reads its ``view`` line)."""
        if not isinstance(data, dict) or not isinstance(data.get("view"), str):
            raise ViewError("a view's data is a dict with its notation line under 'view'")
        return cls.from_string(data["view"])

    # -- what the player knows ----------------------------------------------------------------

    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def unseen(self) -> int:
        """Mask of the cards the player cannot see: the opponent's hand and the stock."""
        return ALL_MASK & ~(self.hand | self.table | self.piles[0] | self.piles[1])

    def is_my_turn(self) -> bool:
        """Is the view's player to move (and the round not over)?"""
        return self.to_move == self.player and not self.is_round_over()

    def group_sizes(self) -> list[int]:
        """The sizes of the hidden groups a world fills: the opponent's hand, then each deal's
        non-dealer and dealer parts (3 cards each)."""
        return [self.opponent_cards] + [3] * (2 * self.deals_left)

    def state_of(self, groups: Sequence[int]) -> kernel.KernelState:
        """The kernel state of the world whose hidden groups (see `group_sizes`) are these masks."""
        hands = [0, 0]
        hands[self.player] = self.hand
        hands[1 - self.player] = groups[0]
        deals = tuple((groups[i], groups[i + 1]) for i in range(1, len(groups), 2))
        last = -1 if self.last_capturer is None else self.last_capturer
        return kernel.KernelState(hands[0], hands[1], self.table, self.piles[0], self.piles[1], self.scopas[0],
                                  self.scopas[1], self.to_move, self.dealer, last, deals, self.rules.flags)

    def any_world_state(self) -> kernel.KernelState:
        """One world (the unseen cards in index order): for what does not depend on them."""
        return self.state_of(_worlds.cut([c.mask for c in iter_cards(self.unseen)], self.group_sizes()))

    def legal_moves(self) -> list[Move]:
        """The player's legal moves (empty when the round is over); an error on the opponent's turn."""
        if self.is_round_over():
            return []
        if self.to_move != self.player:
            raise ViewError(f"player {self.to_move} is to move: their hand is hidden from player {self.player}")
        return [Move.from_packed(m) for m in kernel.legal_moves(self.any_world_state())]

    def is_scopa(self, move: MoveLike) -> bool:
        """Would the player's `move` score a scopa? (The hidden cards do not change the answer.)"""
        move = self._legal(move)
        return kernel.play(self.any_world_state(), move.packed)[1].scopa

    def _legal(self, move: MoveLike) -> Move:
        moves = self.legal_moves()
        if isinstance(move, str):
            card_part, sep, _ = move.strip().partition("x")
            if not sep:
                parsed = Move.parse(card_part)
                choices = [m for m in moves if m.card == parsed.card]
                if len(choices) == 1:
                    return choices[0]
        parsed = Move.parse(move)
        if parsed not in moves:
            raise IllegalMoveError(f"{parsed} is not legal for player {self.player} here; legal: "
                                   f"{', '.join(map(str, moves))}")
        return parsed

    # -- worlds -------------------------------------------------------------------------------

    def count_worlds(self) -> int:
        """How many canonical worlds are consistent with the view (a multinomial coefficient).

        >>> View.from_string("7cRs4b/?3 3d4cAbCs -/- ?30 0/0 0 1 -").count_worlds() > 10**24
        True
        """
        return _worlds.count(self.group_sizes())

    def enumerate_groups(self) -> Iterator[tuple[int, ...]]:
        """Every canonical world as its hidden groups (masks, see `group_sizes`), lazily, in a
        fixed order; `state_of` turns one into a kernel state."""
        return _worlds.enumerate_groups(self.unseen, self.group_sizes())

    def sample_groups(self, n: int, seed: Any = None) -> Iterator[tuple[int, ...]]:
        """`n` uniform draws of the hidden groups, lazily (see `sample_states`)."""
        return _worlds.sample_groups(self.unseen, self.group_sizes(), _check_samples(n), check_seed(seed))

    def enumerate_states(self) -> Iterator[kernel.KernelState]:
        """Every canonical world as a kernel state, lazily, in a fixed order (`worlds` gives the
        same worlds as Positions). Mind `count_worlds()` before listing them all.

        >>> view = View.from_string("?/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb ?6 0/1 1 0 1")
        >>> sum(1 for _ in view.enumerate_states())
        140
        """
        for groups in self.enumerate_groups():
            yield self.state_of(groups)

    def sample_states(self, n: int, seed: Any = None) -> Iterator[kernel.KernelState]:
        """`n` worlds drawn uniformly (with replacement) as kernel states, lazily: nothing is
        made before it is asked for. The same seed gives the same worlds on every machine."""
        for groups in self.sample_groups(n, seed):
            yield self.state_of(groups)

    def world_position(self, state: kernel.KernelState) -> Position:
        """The Position of a world's kernel state (each 3-card part of the stock in card order)."""
        return Position.from_kernel_state(state, self.rules)

    def worlds(self) -> Iterator[Position]:
        """Every canonical world, as a Position (the stock sorted inside each 3-card part), in a
        fixed order. There are `count_worlds()` of them: mind the count before listing them all.

        >>> view = View.from_string("?/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb ?6 0/1 1 0 1")
        >>> view.count_worlds(), len(list(view.worlds()))
        (140, 140)
        >>> all(w.view(1) == view for w in view.worlds())
        True
        """
        for state in self.enumerate_states():
            yield self.world_position(state)

    def sample_worlds(self, n: int, seed: Any = None) -> list[Position]:
        """`n` worlds drawn independently and uniformly over the canonical worlds (a uniform
        shuffle of the unseen cards cut into the hidden hands); the same seed gives the same
        worlds on every machine. Draws are with replacement, so a world may repeat.

        >>> view = Position.new_round(seed=11).view(0)
        >>> [w.to_string() == v.to_string() for w, v in zip(view.sample_worlds(3, seed=1), view.sample_worlds(3, seed=1))]
        [True, True, True]
        """
        return [self.world_position(state) for state in self.sample_states(n, seed)]

    def world(self, opponent_hand: CardsLike, stock: CardsLike = ()) -> Position:
        """The world in which the opponent holds `opponent_hand` and the stock is `stock` (in
        deal order); an error if that is not consistent with the view.

        >>> view = View.from_string("?/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb ?6 0/1 1 0 1")
        >>> view.world("Rs", "As 4d 4s Fs 4c 7b").to_string()
        'Rs/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb As4d4sFs4c7b 0/1 1 0 1'
        >>> view.world("6d", "As 4d 4s Fs 4c 7b")
        Traceback (most recent call last):
        ...
        scopa_solver.errors.ViewError: 6d is not hidden from player 1: the hidden cards are 4d4cAs4sFsRs7b
        """
        opp = card_list(opponent_hand, "opponent hand")
        cards = card_list(stock, "stock")
        unseen = self.unseen
        for card in opp + cards:
            if not card.mask & unseen:
                raise ViewError(f"{card} is not hidden from player {self.player}: the hidden cards are "
                                f"{cards_text(unseen)}")
        if len(opp) != self.opponent_cards or len(cards) != self.stock_cards:
            raise ViewError(f"the view hides {self.opponent_cards} opponent cards and a stock of "
                            f"{self.stock_cards}, not {len(opp)} and {len(cards)}")
        hands = [(), ()]
        hands[self.player] = self.hand
        hands[1 - self.player] = opp
        try:
            return Position(hands=(hands[0], hands[1]), table=self.table, stock=cards, captured=self.piles,
                            scopas=self.scopas, to_move=self.to_move, dealer=self.dealer,
                            last_capturer=self.last_capturer, rules=self.rules)
        except (PositionError, DuplicateCardError) as exc:
            raise ViewError(str(exc)) from None


def _check_samples(n: Any) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ViewError(f"n must be a whole number of worlds, 0 or more, not {excerpt(n)}")
    if n > MAX_SAMPLES:
        raise LimitError(f"{excerpt(n)} worlds is more than one call samples (at most {MAX_SAMPLES:,})")
    return n
