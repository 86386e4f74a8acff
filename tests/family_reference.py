"""Slow, independent reference of the whole Scopa family (test oracle).

Written from docs/FAMILY.md and docs/RULES.md alone, to be read rather than run
fast: cards are two-character strings, card sets are frozensets, captures come from a bare
subset-sum recursion (checked against ``itertools.combinations`` in the tests) and the searches
are plain recursions. It shares no code with the
``scopa_solver`` package nor with ``reference.py`` (the two-player oracle), so a disagreement
points at a bug in one of the two engines, not at a shared helper.

Cards: rank then suit, ranks ``A 2 3 4 5 6 7 F C R`` (capture values 1..10), suits ``d c s b``.
A move is ``(card, frozenset_of_taken_table_cards)``; an empty frozenset is a lay-down.
Seats are ``0 .. N-1`` in playing order; the leader is ``(dealer + 1) % N``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional

RANK_LETTERS = "A234567FCR"     # capture value = position + 1
SUIT_LETTERS = "dcsb"           # denari (coins), coppe, spade, bastoni
DECK: tuple[str, ...] = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10}
GAMES = ("scopa", "scopone", "scientifico")
# Deals of 3 cards per round, Scopa with N players: 4 + deals * 3N = 40.
SCOPA_DEALS = {2: 6, 3: 4, 4: 3, 6: 2}

Move = tuple[str, frozenset]


def card_value(card: str) -> int:
    if card not in DECK:
        raise ValueError(f"not a card: {card!r}")
    return RANK_LETTERS.index(card[0]) + 1


def card_suit(card: str) -> str:
    card_value(card)
    return card[1]


def canonical_key(move: Move) -> tuple[int, int]:
    """A fixed move order: the played card's index (suit * 10 + rank - 1), then the taken set
    read as a 40-bit number. Only max^n's tie rule needs an order (see ``maxn``)."""
    card, taken = move
    return DECK.index(card), sum(1 << DECK.index(c) for c in taken)


def as_set(cards: Iterable[str]) -> frozenset:
    listed = list(cards)
    for c in listed:
        card_value(c)
    out = frozenset(listed)
    if len(out) != len(listed):
        raise ValueError(f"a card twice in {listed}")
    return out


# --------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FamRules:
    players: int = 2
    game: str = "scopa"
    partnerships: bool = True            # 4 and 6 players only; 2 and 3 always play alone
    capture: str = "standard"            # or "fifteen" (Scopa a 15)
    optional_capture: bool = False
    last_sweep_counts: bool = False
    asso_piglia_tutto: bool = False
    ace_sweep_is_scopa: bool = False
    fewest_cards: bool = False
    re_bello: bool = False
    napola: bool = False
    primiera_missing_suit: str = "disqualify"   # or "zero"
    redeal_three_kings: bool = True

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}")
        if self.game == "scopa" and self.players not in SCOPA_DEALS:
            raise ValueError(f"Scopa is for 2, 3, 4 or 6 players, not {self.players}")
        if self.game != "scopa" and self.players != 4:
            raise ValueError(f"{self.game} is for 4 players")
        if self.capture not in ("standard", "fifteen"):
            raise ValueError(f"unknown capture {self.capture!r}")
        if self.capture == "fifteen" and self.asso_piglia_tutto:
            raise ValueError("asso_piglia_tutto cannot be combined with Scopa a 15")
        if self.primiera_missing_suit not in ("disqualify", "zero"):
            raise ValueError(f"bad primiera_missing_suit {self.primiera_missing_suit!r}")

    def sides(self) -> tuple[int, ...]:
        """Side of each seat, sides numbered in order of their first seat."""
        n = self.players
        if n in (4, 6) and self.partnerships:
            return tuple(seat % 2 for seat in range(n))   # opposite seats / every other seat
        return tuple(range(n))

    def side_count(self) -> int:
        return len(set(self.sides()))

    def hand_size(self) -> int:
        return {"scopa": 3, "scopone": 9, "scientifico": 10}[self.game]

    def table_size(self) -> int:
        return 0 if self.game == "scientifico" else 4

    def deal_count(self) -> int:
        """Deals in a round, the first (with the table) included."""
        return SCOPA_DEALS[self.players] if self.game == "scopa" else 1


# --------------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------------

def is_ace_sweep(card: str, table: frozenset, rules: FamRules) -> bool:
    """Asso piglia tutto: an ace on a non-empty table with no ace takes everything."""
    return (rules.asso_piglia_tutto and card_value(card) == 1 and bool(table)
            and all(card_value(t) != 1 for t in table))


def subsets_summing(cards: Sequence[str], total: int):
    """Every subset of ``cards`` whose values add up to ``total`` (each card used at most once)."""
    if total == 0:
        yield ()
        return
    if not cards or total < 0:
        return
    first, rest = cards[0], cards[1:]
    for subset in subsets_summing(rest, total - card_value(first)):
        yield (first,) + subset
    yield from subsets_summing(rest, total)


def capture_sets(card: str, table: frozenset, rules: FamRules) -> set:
    """Every set of table cards ``card`` may take (an empty result: it can take nothing)."""
    if rules.capture == "fifteen":      # any one or more cards making 15 with the card played
        found = {frozenset(s) for s in subsets_summing(sorted(table), 15 - card_value(card))}
    else:
        if is_ace_sweep(card, table, rules):
            return {table}
        v = card_value(card)
        singles = {frozenset([t]) for t in table if card_value(t) == v}
        if singles:
            return singles        # single match first: no sums then
        found = {frozenset(s) for s in subsets_summing(sorted(table), v) if len(s) >= 2}
    if found and rules.fewest_cards:
        fewest = min(len(s) for s in found)
        found = {s for s in found if len(s) == fewest}
    return found


def legal_moves_of(hand: Iterable[str], table: Iterable[str], rules: FamRules) -> set:
    hand, table = as_set(hand), as_set(table)
    moves = set()
    for card in hand:
        taken = capture_sets(card, table, rules)
        moves.update((card, t) for t in taken)
        if not taken or rules.optional_capture:
            moves.add((card, frozenset()))
    return moves


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------

def primiera_of(pile: Iterable[str], missing_suit: str = "disqualify") -> Optional[int]:
    total = 0
    pile = list(pile)
    for s in SUIT_LETTERS:
        best = [PRIMIERA[c[0]] for c in pile if c[1] == s]
        if best:
            total += max(best)
        elif missing_suit == "disqualify":
            return None
    return total


def napola_of(pile: Iterable[str]) -> int:
    pile = set(pile)
    run = 0
    while run < 10 and RANK_LETTERS[run] + "d" in pile:
        run += 1
    return run if run >= 3 else 0


def strict_top(values: Sequence[Optional[int]]) -> Optional[int]:
    """Index of the strictly largest value (None values cannot win); None on a shared top."""
    present = [v for v in values if v is not None]
    if not present:
        return None
    top = max(present)
    winners = [i for i, v in enumerate(values) if v == top]
    return winners[0] if len(winners) == 1 else None


def score(piles: Sequence[Iterable[str]], scopas: Sequence[int], rules: FamRules) -> dict:
    """Round score per side from every seat's pile and scopas. Keys as the package's breakdown:
    per-side lists ``cards coins primiera napola scopas points`` and winners (a side or None)
    ``carte denari settebello primiera_winner re_bello``."""
    sides = rules.sides()
    count = rules.side_count()
    side_pile: list[set] = [set() for _ in range(count)]
    side_scopas = [0] * count
    for seat, pile in enumerate(piles):
        side_pile[sides[seat]] |= set(pile)
        side_scopas[sides[seat]] += scopas[seat]
    cards = [len(p) for p in side_pile]
    coins = [sum(1 for c in p if c[1] == "d") for p in side_pile]
    prim = [primiera_of(p, rules.primiera_missing_suit) for p in side_pile]
    napola = [napola_of(p) if rules.napola else 0 for p in side_pile]

    def holder(card: str) -> Optional[int]:
        return next((s for s in range(count) if card in side_pile[s]), None)

    out = {"cards": cards, "coins": coins, "primiera": prim, "napola": napola, "scopas": side_scopas,
           "carte": strict_top(cards), "denari": strict_top(coins),
           "settebello": holder("7d"), "primiera_winner": strict_top(prim),
           "re_bello": holder("Rd") if rules.re_bello else None}
    points = [side_scopas[s] + napola[s] for s in range(count)]
    for key in ("carte", "denari", "settebello", "primiera_winner", "re_bello"):
        if out[key] is not None:
            points[out[key]] += 1
    out["points"] = points
    return out


# --------------------------------------------------------------------------------------------
# States
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FamState:
    """A fully known position inside one round. ``deals`` holds the stock's future deals, next
    first, each a tuple of one 3-card frozenset per seat. ``last_capturer`` None: nobody yet."""

    rules: FamRules
    hands: tuple
    table: frozenset
    piles: tuple
    scopas: tuple
    deals: tuple
    to_move: int
    dealer: int
    last_capturer: Optional[int] = None

    def check(self) -> "FamState":
        n = self.rules.players
        if not (len(self.hands) == len(self.piles) == len(self.scopas) == n):
            raise ValueError("hands, piles and scopas need one entry per seat")
        if not (0 <= self.to_move < n and 0 <= self.dealer < n):
            raise ValueError("seat out of range")
        zones = [*self.hands, self.table, *self.piles, *(h for d in self.deals for h in d)]
        every = [c for z in zones for c in z]
        if len(every) != len(set(every)) or not set(every) <= set(DECK):
            raise ValueError("a card in two places or not a card")
        return self

    def cards_in_play(self) -> int:
        return (sum(len(h) for h in self.hands) + len(self.table) + sum(len(p) for p in self.piles)
                + sum(len(h) for d in self.deals for h in d))

    def is_over(self) -> bool:
        return not self.deals and not any(self.hands)

    def moves(self) -> set:
        if self.is_over():
            return set()
        return legal_moves_of(self.hands[self.to_move], self.table, self.rules)

    def points(self) -> list:
        return score(self.piles, self.scopas, self.rules)["points"]

    def side_to_move(self) -> int:
        return self.rules.sides()[self.to_move]

    def play(self, move: Move) -> "FamState":
        card, taken = move[0], frozenset(move[1])
        if (card, taken) not in self.moves():
            raise ValueError(f"illegal move {card} x {sorted(taken)}")
        n, me, rules = self.rules.players, self.to_move, self.rules
        hands = list(self.hands)
        hands[me] = hands[me] - {card}
        piles = list(self.piles)
        scopas = list(self.scopas)
        last = self.last_capturer
        deals = self.deals
        if taken:
            table = self.table - taken
            piles[me] = piles[me] | taken | {card}
            last = me
            very_last = not deals and not any(hands)
            counts = ((not very_last or rules.last_sweep_counts)
                      and (not is_ace_sweep(card, self.table, rules) or rules.ace_sweep_is_scopa))
            if not table and counts:
                scopas[me] += 1
        else:
            table = self.table | {card}
        if not any(hands):
            if deals:                              # 3 more to every seat, nothing to the table
                hands = list(deals[0])
                deals = deals[1:]
            elif table and last is not None:       # leftovers to the last capturing player
                piles[last] = piles[last] | table
                table = frozenset()
        return FamState(rules, tuple(hands), table, tuple(piles), tuple(scopas), deals,
                        (me + 1) % n, self.dealer, last)

    def show(self) -> str:
        def cs(cards: Iterable[str]) -> str:
            return "".join(sorted(cards, key=DECK.index)) or "-"
        return (f"hands {'/'.join(cs(h) for h in self.hands)} table {cs(self.table)} "
                f"piles {'/'.join(cs(p) for p in self.piles)} scopas {self.scopas} "
                f"deals {[['/'.join(cs(h) for h in d)] for d in self.deals]} to_move {self.to_move} "
                f"dealer {self.dealer} last {self.last_capturer} {self.rules}")


def needs_redeal(table: Iterable[str], rules: FamRules) -> bool:
    """3 or 4 kings among the table cards of a round start: deal again."""
    return rules.redeal_three_kings and sum(1 for c in table if c[0] == "R") >= 3


def deal_round(deck: Sequence[str], rules: FamRules, dealer: int) -> FamState:
    """The round start from a deck in deal order: Scopa: the leader's 3, the next seat's 3, ...,
    the dealer's 3, then 4 table cards, then the stock (consumed the same way, 3 per seat from
    the leader); Scopone / scientifico: each seat's 9 / 10 cards from the leader, then the table.
    """
    if sorted(deck, key=DECK.index) != list(DECK):
        raise ValueError("a deck holds the 40 cards once each")
    n = rules.players
    leader = (dealer + 1) % n
    size, rest = rules.hand_size(), list(deck)

    def take(k: int) -> list:
        nonlocal rest
        out, rest = rest[:k], rest[k:]
        return out

    def one_deal() -> tuple:
        hands: list = [None] * n
        for i in range(n):
            hands[(leader + i) % n] = frozenset(take(size))
        return tuple(hands)

    hands = one_deal()
    table = frozenset(take(rules.table_size()))
    deals = tuple(one_deal() for _ in range(rules.deal_count() - 1))
    assert not rest
    if needs_redeal(table, rules):
        raise ValueError("3 or more kings on the table: deal again")
    empty = tuple(frozenset() for _ in range(n))
    return FamState(rules, hands, table, empty, (0,) * n, deals, leader, dealer, None).check()


# --------------------------------------------------------------------------------------------
# Searches: plain recursion, a memo only to keep the tests' sizes affordable
# --------------------------------------------------------------------------------------------

def margin_for(points: Sequence[int], side: int) -> int:
    """Own points minus the best other side's points (with two sides: the margin)."""
    return points[side] - max(p for s, p in enumerate(points) if s != side)


def minimax(state: FamState, side: Optional[int] = None, memo: Optional[dict] = None) -> int:
    """The value for the side to move (or ``side``): two sides, the exact final margin; three or
    more, paranoid: that side's seats maximise own points minus the best other side's, every
    other seat minimises the same number."""
    if side is None:
        side = state.side_to_move()
    if memo is None:
        memo = {}
    key = (state, side)
    if key in memo:
        return memo[key]
    if state.is_over():
        result = margin_for(state.points(), side)
    else:
        values = [minimax(state.play(m), side, memo) for m in state.moves()]
        result = max(values) if state.side_to_move() == side else min(values)
    memo[key] = result
    return result


def move_values(state: FamState) -> dict:
    """The value of every legal move for the side to move."""
    side, memo = state.side_to_move(), {}
    return {m: minimax(state.play(m), side, memo) for m in state.moves()}


def maxn(state: FamState, memo: Optional[dict] = None, order=None) -> tuple:
    """Max^n: ``(points, move)``: every side's round points when each seat maximises its own
    side's points, ties to the first move in the canonical order; move None at the end.

    The rule book leaves the canonical order open: ``order(state)`` lists the state's moves in
    it (default: by ``canonical_key``); the cross-checks pass the package's order."""
    if memo is None:
        memo = {}
    if state in memo:
        return memo[state]
    if state.is_over():
        result = (tuple(state.points()), None)
    else:
        me = state.side_to_move()
        best = None
        moves = sorted(state.moves(), key=canonical_key) if order is None else order(state)
        assert set(moves) == state.moves() and len(moves) == len(state.moves())
        for move in moves:
            points, _ = maxn(state.play(move), memo, order)
            if best is None or points[me] > best[0][me]:
                best = (points, move)
        result = best
    memo[state] = result
    return result


def random_state(rng, rules: FamRules, plays_left: Optional[int] = None,
                 dealer: Optional[int] = None) -> FamState:
    """A seeded round start (redealt while 3+ kings lie on the table) played at random, until
    ``plays_left`` plays remain (None: a random point of the round)."""
    n = rules.players
    dealer = rng.randrange(n) if dealer is None else dealer
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        table_at = n * rules.hand_size()
        if not needs_redeal(deck[table_at:table_at + rules.table_size()], rules):
            break
    state = deal_round(deck, rules, dealer)
    total = 40 - rules.table_size()
    stop = rng.randrange(total + 1) if plays_left is None else total - plays_left
    for _ in range(stop):
        state = state.play(rng.choice(sorted(state.moves(), key=canonical_key)))
    return state
