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

The family games (docs/FAMILY.md: 3, 4 or 6 players, partnerships, Scopone, scientifico,
Scopa a 15) have views too: one seat's hand, every hidden hand as a count (``?N`` in the
notation; partners do not see each other's cards) and the stock's count. Their worlds fill the
other seats' hands (in seat order), then each future deal's 3 cards per seat (in seat order).

>>> import math
>>> four = Position.new_round(seed=3, rules=Rules(players=4)).view(2)
>>> four.to_string()
'?3/?3/4cFs6b/?3 Ac2c2s3b -/-/-/- ?24 0/0/0/0 0 3 - players=4'
>>> four.hidden_hands, four.stock_cards, four.count_worlds() == math.factorial(33) // math.factorial(3) ** 11
((3, 3, 0, 3), 24, True)
>>> View.from_string(four.to_string()) == four
True

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
import zlib
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence, Union

from .. import kernel
from . import notation
from .cards import ALL_MASK, CardsLike, card_list, cards_text, iter_cards, popcount
from .flow import check_seed
from .position import Move, MoveLike, Position
from .rules import Rules
from .state import RoundState, per_seat, place_masks, whole
from ..errors import DuplicateCardError, IllegalMoveError, LimitError, PositionError, ViewError, excerpt
from . import worlds as _worlds

if TYPE_CHECKING:
    from .unseen import UnseenCards, WorldModel

__all__ = ["View", "view_seed"]

_VIEW_TOKEN = re.compile(r"view=([0-9])")
MAX_SAMPLES = 10_000_000
"""The most worlds one call samples (`sample_states`, `sample_worlds`, `suggest`)."""


class View(RoundState):
    """What `player` knows of a round (see the module docstring).

    Card lists may be text (``"7d Rb"``), iterables of card strings or Cards. `hidden_hands`
    gives the card count of every seat's hand, one per seat (the player's own entry 0: it is not
    hidden); with two players `opponent_cards` may stand for it. Without them (and
    `stock_cards`) the counts follow from the deck, the turn and the deal schedule (every card
    not in the own hand, on the table or in a pile is in a hidden hand or the stock, which holds
    whole deals of 3 a seat) when only one reading fits; one way for every game.
    `opponent_cards` is then the cards in all hidden hands. `to_move` defaults to what the hand
    sizes imply, like `Position`.

    >>> View(0, hand="7c Rs 4b", table="3d 4c 5s", dealer=1)
    Traceback (most recent call last):
    ...
    scopa_solver.errors.ViewError: 34 cards are hidden (40 less 6 known): no deal of the game (Scopa) leaves them in the other hands and whole deals of 3 per seat in the stock
    >>> v = View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", dealer=1)
    >>> v.opponent_cards, v.stock_cards, v.to_move, v.deals_left
    (3, 30, 0, 5)
    >>> [str(m) for m in v.legal_moves()]
    ['7cx3d+4c', 'RsxCs+Ab', '4bx4c']
    >>> v = View(1, hand="7c Rs", table="3d 4c Ab Cs 5s 2b", dealer=2, rules=Rules(players=3))
    >>> v.hidden_hands, v.to_move, v.to_string()
    ((2, 0, 3), 2, '?2/7cRs/?3 3d4c5sCsAb2b -/-/- ?27 0/0/0 2 2 - players=3')
    """

    __slots__ = ("player", "hand", "hidden_hands", "stock_cards")
    player: int
    hand: int                       # a mask
    hidden_hands: tuple[int, ...]   # how many cards each hand hides (0 for the player's own)
    stock_cards: int
    _error = ViewError

    def __init__(self, player: int, hand: CardsLike = (), table: CardsLike = (),
                 captured: Optional[tuple[CardsLike, ...]] = None, scopas: Optional[tuple[int, ...]] = None,
                 to_move: Optional[int] = None, dealer: Optional[int] = None, last_capturer: Optional[int] = None,
                 opponent_cards: Optional[int] = None, stock_cards: Optional[int] = None,
                 rules: Rules = Rules(), hidden_hands: Optional[Sequence[int]] = None) -> None:
        n = rules.players if isinstance(rules, Rules) else 2
        self.player = whole(player, "player", ViewError, tuple(range(n)))
        captured = ((),) * n if captured is None else captured
        scopas = (0,) * n if scopas is None else scopas
        dealer = n - 1 if dealer is None else dealer
        public = self._init_public(table, captured, scopas, to_move, dealer, last_capturer, rules)
        places = ("hand", "table") + tuple(f"pile {p}" for p in range(n))
        masks = place_masks(places, [card_list(hand, "hand")] + public)
        self.hand = masks[0]
        self.table = masks[1]
        self.piles = tuple(masks[2:])
        stock = whole(stock_cards, "stock_cards", ViewError, None) if stock_cards is not None else None
        if opponent_cards is not None:      # two players' shorthand for hidden_hands
            if n != 2:
                raise ViewError(f"with {n} players give every hidden hand's count (hidden_hands), "
                                "not opponent_cards")
            opponent = whole(opponent_cards, "opponent_cards", ViewError, None)
            if not 0 <= opponent <= 40:
                raise ViewError(f"opponent_cards must be a whole number of cards from 0 to 40, not {excerpt(opponent)}")
            seats = (0, opponent) if self.player == 0 else (opponent, 0)
            if hidden_hands is not None and tuple(per_seat(hidden_hands, "hidden_hands", ViewError, 2)) != seats:
                raise ViewError("opponent_cards and hidden_hands disagree: give one of them")
            hidden_hands = seats
        self._count_hidden(hidden_hands, stock)
        self._check()

    def _count_hidden(self, hidden_hands: Optional[Sequence[int]], stock: Optional[int]) -> None:
        """Fill in or check the hidden counts of every seat's hand and of the stock (`stock`: None
        when not given)."""
        n, me = self.rules.players, self.player
        own = popcount(self.hand)
        known = own + self.known_cards()
        hidden = 40 - known
        if stock is not None and not 0 <= stock <= 40:
            raise ViewError(f"stock_cards must be a whole number of cards from 0 to 40, not {excerpt(stock)}")
        if hidden_hands is None:
            readings = [r for r in self._readings(own) if stock in (None, hidden - sum(r))
                        and 0 <= hidden - sum(r) <= 40 and (hidden - sum(r)) % (3 * n) == 0]
            if not readings:
                raise ViewError(
                    f"{hidden} cards are hidden (40 less {known} known): no deal of the game ({self.rules.name}) "
                    "leaves them in the other hands and whole deals of 3 per seat in the stock")
            if len(readings) > 1:
                raise ViewError(f"{hidden} hidden cards can be dealt to the other hands in several ways: "
                                "give hidden_hands (or to_move)")
            counts = readings[0]
        else:
            counts = per_seat(hidden_hands, "hidden_hands", ViewError, n)
            counts = tuple(whole(c, f"hidden_hands of seat {p}", ViewError) for p, c in enumerate(counts))
            if counts[me]:
                raise ViewError(f"hidden_hands gives seat {me} {counts[me]} hidden cards, but that is "
                                "the player's own hand (write 0: its cards are known)")
            if any(not 0 <= c <= 40 for c in counts):
                raise ViewError(f"hidden_hands must be whole numbers of cards from 0 to 40, not {excerpt(counts)}")
        if stock is None:
            stock = hidden - sum(counts)
        if sum(counts) + stock != hidden or stock < 0:
            raise ViewError(
                f"the counts add up to {known + sum(counts) + stock} cards (hand {own}, hidden hands "
                f"{'/'.join(map(str, counts))}, table {popcount(self.table)}, piles "
                f"{sum(map(popcount, self.piles))}, stock {stock}), not 40")
        self.hidden_hands = tuple(counts)
        self.stock_cards = stock

    def _readings(self, own: int) -> list[tuple[int, ...]]:
        """The hidden hands' counts that the deal schedule allows with the own hand of `own`
        cards: along the playing order from the leader, the seats before the one to move hold
        one card less than the rest (every seat's count 0 for the player)."""
        n, me = self.rules.players, self.player
        order = [(self.dealer + 1 + k) % n for k in range(n)]
        out = []
        for turn in range(n):                    # the seat to move is order[turn]
            if self.to_move is not None and order[turn] != self.to_move:
                continue
            full = own + (1 if order.index(me) < turn else 0)
            counts = [0] * n
            for k, seat in enumerate(order):
                counts[seat] = 0 if seat == me else full - (1 if k < turn else 0)
            others = [counts[s] for s in range(n) if s != me]
            if 0 <= min(others) and max(others) <= self.rules.hand_size and tuple(counts) not in out:
                out.append(tuple(counts))
        return out

    @property
    def opponent_cards(self) -> int:
        """The cards in the hidden hands: the opponent's with two players, every other seat's
        with more (`hidden_hands` has them seat by seat)."""
        return sum(self.hidden_hands)

    def hand_sizes(self) -> tuple[int, ...]:
        sizes = list(self.hidden_hands)
        sizes[self.player] = popcount(self.hand)
        return tuple(sizes)

    def stock_size(self) -> int:
        return self.stock_cards

    def _hand_texts(self) -> tuple[str, ...]:
        hands = [notation.hidden_text(0, count) for count in self.hidden_hands]
        hands[self.player] = cards_text(self.hand)
        return tuple(hands)

    def _stock_text(self) -> str:
        return notation.hidden_text(0, self.stock_cards)

    def _key(self) -> tuple[Any, ...]:
        return (self.player, self.hand, self.table, self.piles, self.scopas, self.to_move,
                self.dealer, self.last_capturer, self.hidden_hands, self.stock_cards, self.rules)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_position(cls, position: Position, player: int) -> "View":
        """What `player` knows of a fully known position (`position.view(player)` is the same).

        The position must account for all 40 cards."""
        if not isinstance(position, Position):
            raise TypeError(f"expected a Position, not {type(position).__name__}")
        n = position.rules.players
        player = whole(player, "player", ViewError, tuple(range(n)))
        total = popcount(position.cards_in_play()) + sum(map(popcount, position.piles))
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
        view.hidden_hands = tuple(0 if p == player else popcount(h) for p, h in enumerate(position.hands))
        view.rules = position.rules
        view._count_hidden(view.hidden_hands, len(position.stock))
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
        n = f.rules.players
        candidates = [p for p in range(n) if f.hidden_hands[p] == 0
                      and not any(f.hands[q] for q in range(n) if q != p)]
        if named:
            player = int(named[0][5:])
            if player not in candidates:
                if n == 2:
                    raise ViewError(f"view={player}: player {player}'s hand must be known and the "
                                    "opponent's hidden")
                raise ViewError(f"view={player}: seat {player}'s hand must be known and every other "
                                "hand hidden")
        elif not candidates:
            if n == 2:
                raise ViewError(
                    "a view shows the player's own hand with its cards and the opponent's as hidden "
                    f"cards only ('?3'); got hands {excerpt(tokens[0])}")
            raise ViewError(
                "a view shows one seat's hand with its cards and every other hand as hidden cards "
                f"only ('?3'); got hands {excerpt(tokens[0])}")
        else:
            default = _default_player(candidates, f.to_move)
            if default is None:
                raise ViewError("no hand shows a card and several seats could be the player: "
                                "name it with view=P")
            player = default
        if any(c is not None for c in f.stock):
            raise ViewError("the stock is hidden in a view: write it as ?N (or - when it is empty)")
        if n == 2:
            return cls(player, hand=f.hands[player], table=f.table, captured=f.piles, scopas=f.scopas,
                       to_move=f.to_move, dealer=f.dealer, last_capturer=f.last_capturer,
                       opponent_cards=f.hidden_hands[1 - player], stock_cards=len(f.stock), rules=f.rules)
        return cls(player, hand=f.hands[player], table=f.table, captured=f.piles, scopas=f.scopas,
                   to_move=f.to_move, dealer=f.dealer, last_capturer=f.last_capturer,
                   hidden_hands=f.hidden_hands, stock_cards=len(f.stock), rules=f.rules)

    def to_string(self) -> str:
        """The position notation with the hidden cards as ``?N``; `from_string` reads it back."""
        line = super().to_string()
        if not self.hand:
            candidates = [p for p, count in enumerate(self.hidden_hands) if count == 0]
            if _default_player(candidates, self.to_move) != self.player:
                line += f" view={self.player}"
        return line

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the notation line and its fields (`hidden_hands` only for
        the family games: with two players `opponent_cards` says it)."""
        data: dict[str, Any] = {"view": self.to_string(), "player": self.player, "hand": cards_text(self.hand, ""),
                "opponent_cards": self.opponent_cards, "stock_cards": self.stock_cards}
        if self.rules.players != 2:
            data["hidden_hands"] = list(self.hidden_hands)
        return {**data, **self._public_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "View":
        """The inverse of `to_dict` (reads its ``view`` line)."""
        if not isinstance(data, dict) or not isinstance(data.get("view"), str):
            raise ViewError("a view's data is a dict with its notation line under 'view'")
        return cls.from_string(data["view"])

    # -- what the player knows ----------------------------------------------------------------

    @property
    def opponent(self) -> int:
        """The other player (two players only: with more, see `hidden_hands`)."""
        if self.rules.players != 2:
            raise ViewError(f"a view of {self.rules.players} players has no single opponent: see hidden_hands")
        return 1 - self.player

    @property
    def unseen(self) -> int:
        """Mask of the cards the player cannot see: the other hands and the stock."""
        seen = self.hand | self.table
        for pile in self.piles:
            seen |= pile
        return ALL_MASK & ~seen

    def is_my_turn(self) -> bool:
        """Is the view's player to move (and the round not over)?"""
        return self.to_move == self.player and not self.is_round_over()

    def group_sizes(self) -> list[int]:
        """The sizes of the hidden groups a world fills: every other seat's hand in seat order,
        then each deal's 3 cards per seat in playing order from the leader (with two players the
        non-dealer's, then the dealer's)."""
        n = self.rules.players
        return [c for p, c in enumerate(self.hidden_hands) if p != self.player] + [3] * (n * self.deals_left)

    def state_of(self, groups: Sequence[int]) -> kernel.KernelState:
        """The kernel state of the world whose hidden groups (see `group_sizes`) are these masks."""
        n = self.rules.players
        others = iter(groups[:n - 1])
        return self._kernel_state([self.hand if p == self.player else next(others) for p in range(n)], groups[n - 1:])

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

    def where_unseen(self, model: Optional["WorldModel"] = None) -> "UnseenCards":
        """The unseen cards (by rank and suit) and the chance that each hidden place (every other
        seat's hand, the stock) holds each: exact for a fair shuffle, or as `model` (an
        `InferenceBot`) weighs the worlds (core/unseen.py, docs/imperfect.md).

        >>> view = View.from_string("?/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb ?6 0/1 1 0 1")
        >>> odds = view.where_unseen()
        >>> odds.places, odds.sizes, odds.chance("Rs"), odds.chance("Rs", "stock")
        (('player 0', 'stock'), (1, 6), 0.14285714285714285, 0.8571428571428571)
        """
        from .unseen import where_unseen
        return where_unseen(self, model)

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

    def world(self, opponent_hand: Union[CardsLike, Sequence[Optional[CardsLike]]], stock: CardsLike = ()) -> Position:
        """The world in which the opponent holds `opponent_hand` and the stock is `stock` (in
        deal order); an error if that is not consistent with the view. In the family games
        `opponent_hand` gives every seat's hand, one per seat (the player's own entry None).

        >>> view = View.from_string("?/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb ?6 0/1 1 0 1")
        >>> view.world("Rs", "As 4d 4s Fs 4c 7b").to_string()
        'Rs/Fc 6d2b 3d5dFdCd6c3b4b6bFb/Ad2d7dRdAc2c3c5c7cCcRc2s3s5s6s7sCsAb5bCbRb As4d4sFs4c7b 0/1 1 0 1'
        >>> view.world("6d", "As 4d 4s Fs 4c 7b")
        Traceback (most recent call last):
        ...
        scopa_solver.errors.ViewError: 6d is not hidden from player 1: the hidden cards are 4d4cAs4sFsRs7b
        """
        n = self.rules.players
        if n == 2:
            given: list[Any] = [None, None]
            given[1 - self.player] = opponent_hand
        else:
            given = list(per_seat(opponent_hand, "the hands of a world", ViewError, n))
            if given[self.player] is not None and card_list(given[self.player], "own hand") != card_list(self.hand):
                raise ViewError(f"seat {self.player}'s hand is known: give None (or its cards) for it")
        hands: list[Any] = [self.hand if p == self.player else card_list(h, "opponent hand" if n == 2 else f"hand {p}")
                              for p, h in enumerate(given)]
        cards = card_list(stock, "stock")
        unseen = self.unseen
        for card in [c for p in range(n) if p != self.player for c in hands[p]] + cards:
            if not card.mask & unseen:
                raise ViewError(f"{card} is not hidden from player {self.player}: the hidden cards are "
                                f"{cards_text(unseen)}")
        counts = tuple(0 if p == self.player else len(hands[p]) for p in range(n))
        if counts != self.hidden_hands or len(cards) != self.stock_cards:
            if n == 2:
                raise ViewError(f"the view hides {self.opponent_cards} opponent cards and a stock of "
                                f"{self.stock_cards}, not {counts[1 - self.player]} and {len(cards)}")
            raise ViewError(f"the view hides hands of {'/'.join(map(str, self.hidden_hands))} cards and a stock "
                            f"of {self.stock_cards}, not {'/'.join(map(str, counts))} and {len(cards)}")
        try:
            return Position(hands=tuple(hands), table=self.table, stock=cards, captured=self.piles,
                            scopas=self.scopas, to_move=self.to_move, dealer=self.dealer,
                            last_capturer=self.last_capturer, rules=self.rules)
        except (PositionError, DuplicateCardError) as exc:
            raise ViewError(str(exc)) from None


def _default_player(candidates: list[int], to_move: int) -> Optional[int]:
    """The player a view line without ``view=P`` names: the one seat that can be it, else the
    seat to move when it can (None: ambiguous)."""
    if len(candidates) == 1:
        return candidates[0]
    return to_move if to_move in candidates else None


def _check_samples(n: Any) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ViewError(f"n must be a whole number of worlds, 0 or more, not {excerpt(n)}")
    if n > MAX_SAMPLES:
        raise LimitError(f"{excerpt(n)} worlds is more than one call samples (at most {MAX_SAMPLES:,})")
    return n


def view_seed(seed: int, view: View) -> int:
    """A seed drawn from `seed` and the view only (stable across machines and runs): what a bot
    that must be a pure function of what its player knows draws its randomness from."""
    return (seed * 0x9E3779B1 + zlib.crc32(view.to_string().encode())) & 0xFFFFFFFFFFFF
