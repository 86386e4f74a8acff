"""Slow, independent reference implementation of two-player Scopa (test oracle).

This module follows docs/RULES.md (the project's rule book) literally and is meant to be
read, not to be fast: cards are plain two-character strings, sets are Python sets, sum captures
come from ``itertools.combinations`` and ``RefState.minimax`` is a bare recursive minimax.

It deliberately shares no code with the ``scopa_solver`` package, so that a disagreement between
the two points at a bug in one of them rather than at a shared helper.

Card text is canonical: rank then suit, ranks ``A 2 3 4 5 6 7 F C R`` (capture values 1..10),
suits ``d c s b`` (``d`` = denari/coins). ``7d`` is the settebello, ``Rd`` the king of coins.
A move is ``(played_card, frozenset_of_captured_table_cards)``; an empty frozenset is a lay-down.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

RANKS = "A234567FCR"  # index + 1 is the capture value
SUITS = "dcsb"  # denari (coins), coppe, spade, bastoni
COINS = "d"
SETTEBELLO = "7d"
RE_BELLO = "Rd"

ALL_CARDS: list[str] = [rank + suit for suit in SUITS for rank in RANKS]
_CARD_SET = frozenset(ALL_CARDS)

# Primiera table of RULES.md; independent of the capture value.
PRIMIERA_VALUE: dict[str, int] = {
    "7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10,
}

Move = tuple[str, frozenset[str]]


# --------------------------------------------------------------------------------------------
# Card helpers
# --------------------------------------------------------------------------------------------

def check_card(card: str) -> str:
    """Return ``card`` unchanged, or raise if it is not a canonical card string."""
    if card not in _CARD_SET:
        raise ValueError(f"not a canonical card: {card!r}")
    return card


def value(card: str) -> int:
    """Capture value 1..10 (A=1, F=8, C=9, R=10)."""
    return RANKS.index(check_card(card)[0]) + 1


def suit(card: str) -> str:
    return check_card(card)[1]


def primiera_value(card: str) -> int:
    return PRIMIERA_VALUE[check_card(card)[0]]


def _cards(cards: Iterable[str]) -> frozenset[str]:
    """Validate an iterable of cards and return it as a frozenset (duplicates rejected)."""
    listed = [check_card(c) for c in cards]
    result = frozenset(listed)
    if len(result) != len(listed):
        raise ValueError(f"duplicate card in {listed}")
    return result


# --------------------------------------------------------------------------------------------
# Rules and moves
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RefRules:
    """The rule options that change play or scoring of a single round (all off by default)."""

    asso_piglia_tutto: bool = False
    ace_sweep_is_scopa: bool = False
    re_bello: bool = False
    napola: bool = False
    fewest_cards: bool = False
    primiera_missing_suit: str = "disqualify"  # or "zero"

    def __post_init__(self) -> None:
        if self.primiera_missing_suit not in ("disqualify", "zero"):
            raise ValueError(f"bad primiera_missing_suit: {self.primiera_missing_suit!r}")


def is_ace_sweep(card: str, table: Iterable[str], rules: RefRules) -> bool:
    """True when playing ``card`` on ``table`` triggers the asso-piglia-tutto sweep.

    The sweep needs an ace, a non-empty table and no ace on it: an ace on the table is captured
    normally (single match), and an ace on an empty table is just laid down.
    """
    table = frozenset(table)
    return (
        rules.asso_piglia_tutto
        and value(card) == 1
        and bool(table)
        and all(value(t) != 1 for t in table)
    )


def _captures_for(card: str, table: frozenset[str], rules: RefRules) -> set[frozenset[str]]:
    """All capture sets legal for ``card`` on ``table``; empty set of sets = must lay down."""
    if is_ace_sweep(card, table, rules):
        return {table}

    v = value(card)
    singles = {frozenset([t]) for t in table if value(t) == v}
    if singles:
        # Single match first: when a single card matches, sums are not allowed.
        return singles

    sums = {
        frozenset(combo)
        for size in range(2, len(table) + 1)
        for combo in combinations(sorted(table), size)
        if sum(value(t) for t in combo) == v
    }
    if sums and rules.fewest_cards:
        fewest = min(len(s) for s in sums)
        sums = {s for s in sums if len(s) == fewest}
    return sums


def ref_legal_moves(
    hand: Iterable[str], table: Iterable[str], rules: RefRules = RefRules()
) -> set[Move]:
    """Every legal ``(card, captured)`` for a player holding ``hand`` facing ``table``.

    Capturing is compulsory for the card played, so a card that can capture never has a
    lay-down move; a card that captures nothing is laid down (empty frozenset).
    """
    hand_set = _cards(hand)
    table_set = _cards(table)
    if hand_set & table_set:
        raise ValueError(f"cards both in hand and on table: {sorted(hand_set & table_set)}")
    moves: set[Move] = set()
    for card in hand_set:
        captures = _captures_for(card, table_set, rules)
        if captures:
            moves.update((card, taken) for taken in captures)
        else:
            moves.add((card, frozenset()))
    return moves


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------

def ref_primiera(pile: Iterable[str], missing_suit: str = "disqualify") -> int | None:
    """Sum over the four suits of the best primiera value held in that suit.

    ``None`` when a suit is missing under ``"disqualify"``; a missing suit counts 0 under
    ``"zero"``.
    """
    if missing_suit not in ("disqualify", "zero"):
        raise ValueError(f"bad missing_suit: {missing_suit!r}")
    pile_set = _cards(pile)
    total = 0
    for s in SUITS:
        values = [primiera_value(c) for c in pile_set if suit(c) == s]
        if not values:
            if missing_suit == "disqualify":
                return None
            continue  # "zero": the suit adds nothing
        total += max(values)
    return total


def ref_napola(pile: Iterable[str]) -> int:
    """Napola points: 0 without A, 2 and 3 of coins; else 3 + each further coin in sequence."""
    pile_set = _cards(pile)
    run = 0
    for rank in RANKS:  # A, 2, 3, 4, ... R of coins, stopping at the first gap
        if rank + COINS not in pile_set:
            break
        run += 1
    return run if run >= 3 else 0


def _strictly_more(a: int, b: int) -> tuple[int, int]:
    """One point to the strictly larger side; a tie gives it to nobody."""
    return (1, 0) if a > b else (0, 1) if b > a else (0, 0)


def ref_round_points(
    pile0: Iterable[str],
    pile1: Iterable[str],
    scopas: tuple[int, int] = (0, 0),
    rules: RefRules = RefRules(),
) -> tuple[int, int]:
    """Round points of both players from their capture piles and scopa counts."""
    piles = (_cards(pile0), _cards(pile1))
    if piles[0] & piles[1]:
        raise ValueError(f"cards in both piles: {sorted(piles[0] & piles[1])}")
    points = [scopas[0], scopas[1]]

    def award(pair: tuple[int, int]) -> None:
        points[0] += pair[0]
        points[1] += pair[1]

    # Carte and denari.
    award(_strictly_more(len(piles[0]), len(piles[1])))
    award(_strictly_more(*(sum(1 for c in p if suit(c) == COINS) for p in piles)))
    # Settebello (and the optional re bello): whoever holds the card.
    award((int(SETTEBELLO in piles[0]), int(SETTEBELLO in piles[1])))
    if rules.re_bello:
        award((int(RE_BELLO in piles[0]), int(RE_BELLO in piles[1])))

    # Primiera: a disqualified player (None) cannot win; if only one qualifies, that one wins.
    prim = [ref_primiera(p, rules.primiera_missing_suit) for p in piles]
    if prim[0] is not None and prim[1] is not None:
        award(_strictly_more(prim[0], prim[1]))
    elif prim[0] is not None:
        award((1, 0))
    elif prim[1] is not None:
        award((0, 1))

    if rules.napola:
        award((ref_napola(piles[0]), ref_napola(piles[1])))
    return points[0], points[1]


# --------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------

class RefState:
    """A full perfect-information two-player position within one round.

    The constructor normalises "between plays" moments: if both hands are empty and stock
    remains, the next 3+3 cards are dealt (non-dealer first); if both hands and the stock are
    empty, the table goes to the last capturer. ``play`` builds its successor through the
    constructor, so both rules live in one place.
    """

    hands: tuple[frozenset[str], frozenset[str]]
    table: frozenset[str]
    piles: tuple[frozenset[str], frozenset[str]]
    scopas: tuple[int, int]
    stock: tuple[str, ...]
    to_move: int
    dealer: int
    last_capturer: int | None
    rules: RefRules

    def __init__(
        self,
        hands: Sequence[Iterable[str]],
        table: Iterable[str],
        piles: Sequence[Iterable[str]] = ((), ()),
        scopas: Sequence[int] = (0, 0),
        stock: Sequence[str] = (),
        to_move: int = 0,
        dealer: int = 1,
        last_capturer: int | None = None,
        rules: RefRules = RefRules(),
    ) -> None:
        if to_move not in (0, 1) or dealer not in (0, 1) or last_capturer not in (None, 0, 1):
            raise ValueError("to_move, dealer and last_capturer must be 0 or 1 (or None)")
        hand_pair = [_cards(hands[0]), _cards(hands[1])]
        table_set = _cards(table)
        pile_pair = [_cards(piles[0]), _cards(piles[1])]
        stock_tuple = tuple(check_card(c) for c in stock)
        zones = [*hand_pair, table_set, *pile_pair, frozenset(stock_tuple)]
        if sum(len(z) for z in zones) != len(frozenset().union(*zones)) or len(
            set(stock_tuple)
        ) != len(stock_tuple):
            raise ValueError("a card appears in more than one place")
        if len(stock_tuple) % 6:
            raise ValueError("the stock must hold a multiple of 6 cards (whole 3+3 deals)")
        # In play the mover holds as many cards as the opponent, or one more. Anything else
        # would reach a position where the mover has no card while the round is not over.
        if len(hand_pair[to_move]) - len(hand_pair[1 - to_move]) not in (0, 1):
            raise ValueError("the side to move must hold as many cards as the other, or one more")

        if not hand_pair[0] and not hand_pair[1]:
            if stock_tuple:
                non_dealer = 1 - dealer
                hand_pair[non_dealer] = frozenset(stock_tuple[0:3])
                hand_pair[dealer] = frozenset(stock_tuple[3:6])
                stock_tuple = stock_tuple[6:]
            elif table_set and last_capturer is not None:
                # End of round: leftovers to the last capturer (never a scopa). If nobody
                # captured they stay on the table and belong to nobody.
                pile_pair[last_capturer] = pile_pair[last_capturer] | table_set
                table_set = frozenset()

        self.hands = (hand_pair[0], hand_pair[1])
        self.table = table_set
        self.piles = (pile_pair[0], pile_pair[1])
        self.scopas = (int(scopas[0]), int(scopas[1]))
        self.stock = stock_tuple
        self.to_move = to_move
        self.dealer = dealer
        self.last_capturer = last_capturer
        self.rules = rules

    # -- queries ---------------------------------------------------------------------------

    def is_over(self) -> bool:
        return not self.hands[0] and not self.hands[1] and not self.stock

    def moves(self) -> set[Move]:
        if self.is_over():
            return set()
        return ref_legal_moves(self.hands[self.to_move], self.table, self.rules)

    def points(self) -> tuple[int, int]:
        return ref_round_points(self.piles[0], self.piles[1], self.scopas, self.rules)

    # -- transitions -----------------------------------------------------------------------

    def play(self, move: Move) -> RefState:
        card, taken = move[0], frozenset(move[1])
        if (card, taken) not in self.moves():
            raise ValueError(f"illegal move {card} x {sorted(taken)} in {self!r}")
        me = self.to_move
        hands = list(self.hands)
        hands[me] = hands[me] - {card}
        piles = list(self.piles)
        scopas = list(self.scopas)
        last_capturer = self.last_capturer

        if taken:
            table = self.table - taken
            piles[me] = piles[me] | taken | {card}
            last_capturer = me
            last_play = not self.stock and not hands[0] and not hands[1]
            sweep_counts = (
                not is_ace_sweep(card, self.table, self.rules) or self.rules.ace_sweep_is_scopa
            )
            if not table and not last_play and sweep_counts:
                scopas[me] += 1
        else:
            table = self.table | {card}

        # The constructor deals from the stock or collects the leftovers when both hands are
        # empty; the side to move always alternates, also across a deal.
        return RefState(
            hands,
            table,
            piles,
            scopas,
            self.stock,
            to_move=1 - me,
            dealer=self.dealer,
            last_capturer=last_capturer,
            rules=self.rules,
        )

    def minimax(self) -> int:
        """Exact final margin (mover's round points minus opponent's) under optimal play.

        Plain recursion over every legal move: no pruning, no caching, no move ordering.
        """
        if self.is_over():
            p = self.points()
            return p[self.to_move] - p[1 - self.to_move]
        best: int | None = None
        for move in self.moves():
            child = self.play(move)
            v = child.minimax()
            if child.to_move != self.to_move:
                v = -v  # the child's value is from the opponent's point of view
            if best is None or v > best:
                best = v
        assert best is not None  # a non-final position always has a legal move
        return best

    # -- plumbing --------------------------------------------------------------------------

    def _key(self) -> tuple:
        return (
            self.hands, self.table, self.piles, self.scopas, self.stock,
            self.to_move, self.dealer, self.last_capturer, self.rules,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RefState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        def show(cards: Iterable[str]) -> str:
            return " ".join(sorted(cards, key=ALL_CARDS.index)) or "-"

        return (
            f"RefState(hands=[{show(self.hands[0])} | {show(self.hands[1])}], "
            f"table=[{show(self.table)}], piles=[{len(self.piles[0])} | {len(self.piles[1])}], "
            f"scopas={self.scopas}, stock={len(self.stock)}, to_move={self.to_move}, "
            f"dealer={self.dealer}, last_capturer={self.last_capturer})"
        )


def minimax_memo(state: RefState, cache: dict[RefState, int] | None = None) -> int:
    """``state.minimax()`` with a dict cache: the same plain minimax (every move searched, no
    alpha-beta, no ordering), each distinct state valued once. Pass ``cache`` to share it across
    calls; the value of a state never depends on how it was reached, so sharing is sound."""
    if cache is None:
        cache = {}
    known = cache.get(state)
    if known is not None:
        return known
    if state.is_over():
        p = state.points()
        best: int | None = p[state.to_move] - p[1 - state.to_move]
    else:
        best = None
        for move in state.moves():
            child = state.play(move)
            v = minimax_memo(child, cache)
            if child.to_move != state.to_move:
                v = -v  # the child's value is from the opponent's point of view
            if best is None or v > best:
                best = v
        assert best is not None  # a non-final position always has a legal move
    cache[state] = best
    return best
