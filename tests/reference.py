"""Slow, independent reference of every game of the Scopa family (the tests' oracle).

Written from docs/RULES.md (two-player Scopa) and docs/FAMILY.md (2 to 6 players, partnerships,
Scopone, scientifico, Scopa a 15) alone, to be read rather than run fast: cards are
two-character strings, card sets are frozensets, captures come from a bare subset-sum recursion
(checked against ``itertools.combinations`` in the tests) and the searches are plain recursions.
It shares no code with the ``scopa_solver`` package, so a disagreement between the two points at
a bug in one of them, not at a shared helper.

Cards: rank then suit, ranks ``A 2 3 4 5 6 7 F C R`` (capture values 1..10), suits ``d c s b``
(``d`` = denari, coins); ``7d`` is the settebello, ``Rd`` the re bello.
A move is ``(card, frozenset_of_taken_table_cards)``; an empty frozenset is a lay-down.
Seats are ``0 .. N-1`` in playing order; the leader is ``(dealer + 1) % N``. With two players
(the default rules) each seat is a side of its own: seat 0 and seat 1 are the two players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional

RANK_LETTERS = "A234567FCR"     # capture value = position + 1
SUIT_LETTERS = "dcsb"           # denari (coins), coppe, spade, bastoni
DECK: tuple[str, ...] = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
VALUE = {card: RANK_LETTERS.index(card[0]) + 1 for card in DECK}
# The primiera table of RULES.md; independent of the capture value.
PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10}
GAMES = ("scopa", "scopone", "scientifico")
# Deals of 3 cards per round, Scopa with N players: 4 + deals * 3N = 40.
SCOPA_DEALS = {2: 6, 3: 4, 4: 3, 6: 2}

Move = tuple[str, frozenset]


def card_value(card: str) -> int:
    """Capture value 1..10 (A=1, F=8, C=9, R=10); raises on anything that is not a card."""
    if card not in VALUE:
        raise ValueError(f"not a card: {card!r}")
    return VALUE[card]


def card_suit(card: str) -> str:
    card_value(card)
    return card[1]


def canonical_key(move: Move) -> tuple[int, int]:
    """A fixed move order: the played card's index (suit * 10 + rank - 1), then the taken set
    read as a 40-bit number. Only max^n's tie rule needs an order (see ``maxn``)."""
    card, taken = move
    return DECK.index(card), sum(1 << DECK.index(c) for c in taken)


def as_set(cards: Iterable[str]) -> frozenset:
    """The cards as a frozenset; raises on a non-card or a card given twice."""
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
class RefRules:
    """The game and its rule options; the defaults are two-player Scopa with every option off."""

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

def is_ace_sweep(card: str, table: Iterable[str], rules: RefRules) -> bool:
    """Asso piglia tutto: an ace played on a non-empty table with no ace takes everything. An
    ace on the table is taken normally (single match); an ace on an empty table is laid down."""
    table = frozenset(table)
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


def capture_sets(card: str, table: frozenset, rules: RefRules) -> set:
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


def legal_moves_of(hand: Iterable[str], table: Iterable[str], rules: RefRules = RefRules()) -> set:
    """Every legal ``(card, taken)`` for a seat holding ``hand`` facing ``table``. Capturing is
    compulsory for the card played (unless ``optional_capture``): a card that can take has no
    lay-down move; a card that takes nothing is laid down (empty frozenset)."""
    hand, table = as_set(hand), as_set(table)
    if hand & table:
        raise ValueError(f"cards both in hand and on the table: {sorted(hand & table)}")
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
    """Sum over the four suits of the best primiera value held in that suit. A missing suit:
    None under ``"disqualify"`` (the pile cannot win the primiera), 0 under ``"zero"``."""
    if missing_suit not in ("disqualify", "zero"):
        raise ValueError(f"bad missing_suit {missing_suit!r}")
    pile = as_set(pile)
    total = 0
    for s in SUIT_LETTERS:
        best = [PRIMIERA[c[0]] for c in pile if c[1] == s]
        if best:
            total += max(best)
        elif missing_suit == "disqualify":
            return None
    return total


def napola_of(pile: Iterable[str]) -> int:
    """Napola points: 0 without the A, 2 and 3 of coins; else 3 + each further coin in sequence."""
    pile = as_set(pile)
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


def score(piles: Sequence[Iterable[str]], scopas: Optional[Sequence[int]] = None,
          rules: RefRules = RefRules()) -> dict:
    """Round score per side from every seat's pile and scopas (default none). Keys as the
    package's breakdown: per-side lists ``cards coins primiera napola scopas points`` and the
    category winners (a side or None) ``carte denari settebello primiera_winner re_bello``.
    With two players the sides are the players: the breakdown per player."""
    n = rules.players
    scopas = (0,) * n if scopas is None else tuple(scopas)
    piles = [as_set(p) for p in piles]
    if len(piles) != n or len(scopas) != n:
        raise ValueError(f"one pile and one scopa count per seat ({n})")
    if sum(len(p) for p in piles) != len(frozenset().union(*piles)):
        raise ValueError("a card in two piles")
    sides = rules.sides()
    count = rules.side_count()
    side_pile: list[set] = [set() for _ in range(count)]
    side_scopas = [0] * count
    for seat, pile in enumerate(piles):
        side_pile[sides[seat]] |= pile
        side_scopas[sides[seat]] += scopas[seat]
    cards = [len(p) for p in side_pile]
    coins = [sum(1 for c in p if c[1] == "d") for p in side_pile]
    prim = [primiera_of(p, rules.primiera_missing_suit) for p in side_pile]
    napola = [napola_of(p) if rules.napola else 0 for p in side_pile]

    def holder(card: str) -> Optional[int]:
        return next((s for s in range(count) if card in side_pile[s]), None)

    # Carte, denari and primiera to the strictly largest (a disqualified primiera cannot win,
    # so when only one side qualifies it wins); settebello and re bello to whoever holds them.
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

def deals_of_stock(stock: Sequence[str], players: int, dealer: int) -> tuple:
    """The stock, its cards in deal order, as its deals: 3 consecutive cards to every seat from
    the leader on, the dealer last (two players: 3 to the non-dealer, then 3 to the dealer)."""
    if len(stock) % (3 * players):
        raise ValueError(f"the stock must hold whole deals of 3 cards for each of {players} seats")
    leader = (dealer + 1) % players
    deals = []
    for start in range(0, len(stock), 3 * players):
        hands: list = [None] * players
        for i in range(players):
            at = start + 3 * i
            hands[(leader + i) % players] = as_set(stock[at:at + 3])
        deals.append(tuple(hands))
    return tuple(deals)


class RefState:
    """A fully known position inside one round.

    ``hands``, ``piles``, ``scopas``: one entry per seat; ``deals``: the stock's future deals,
    next first, each a tuple of one 3-card frozenset per seat; ``last_capturer`` None: nobody
    has captured yet. The stock is given either as ``stock``, its cards in deal order (see
    ``deals_of_stock``), or as ``deals``. Defaults: empty piles, no scopas, seat 0 to move, the
    last seat deals.

    The constructor checks the position and settles the moments between plays: when every hand
    is empty it deals the next 3 cards to every seat, or, with the stock empty too, gives the
    cards left on the table to the last capturer (never a scopa; if nobody captured they stay
    there). ``play`` builds its successor through the constructor, so both rules live here.
    """

    def __init__(self, hands: Sequence[Iterable[str]], table: Iterable[str] = (),
                 piles: Optional[Sequence[Iterable[str]]] = None, scopas: Optional[Sequence[int]] = None,
                 stock: Sequence[str] = (), to_move: int = 0, dealer: Optional[int] = None,
                 last_capturer: Optional[int] = None, rules: RefRules = RefRules(),
                 deals: Optional[Sequence[Sequence[Iterable[str]]]] = None) -> None:
        n = rules.players
        dealer = n - 1 if dealer is None else dealer
        hands = [as_set(h) for h in hands]
        table = as_set(table)
        piles = [frozenset()] * n if piles is None else [as_set(p) for p in piles]
        scopas = (0,) * n if scopas is None else tuple(int(s) for s in scopas)
        if not (len(hands) == len(piles) == len(scopas) == n):
            raise ValueError(f"hands, piles and scopas need one entry per seat ({n})")
        if not (0 <= to_move < n and 0 <= dealer < n and last_capturer in (None, *range(n))):
            raise ValueError("to_move, dealer and last_capturer must be seats (last_capturer may be None)")
        if deals is None:
            deals = deals_of_stock(stock, n, dealer)
        elif stock:
            raise ValueError("give the stock as stock or as deals, not both")
        else:
            deals = tuple(tuple(as_set(h) for h in d) for d in deals)
            if any(len(d) != n or any(len(h) != 3 for h in d) for d in deals):
                raise ValueError("each deal gives 3 cards to every seat")
        every = [c for zone in [*hands, table, *piles, *(h for d in deals for h in d)] for c in zone]
        if len(every) != len(set(every)):
            raise ValueError("a card appears in more than one place")
        # In play, from the seat to move on, each hand holds as many cards as the one before or
        # one fewer (those that already played in this deal), never fewer than the mover's less
        # one. Anything else would reach a seat to move with no card while the round goes on.
        sizes = [len(hands[(to_move + i) % n]) for i in range(n)]
        if any(a < b for a, b in zip(sizes, sizes[1:])) or sizes[-1] < sizes[0] - 1:
            raise ValueError(f"hand sizes {[len(h) for h in hands]} cannot occur with seat {to_move} to move")

        if not any(hands):
            if deals:                               # 3 more to every seat, nothing to the table
                hands, deals = list(deals[0]), deals[1:]
            elif table and last_capturer is not None:   # leftovers to the last capturing player
                piles[last_capturer] = piles[last_capturer] | table
                table = frozenset()

        self.rules = rules
        self.hands = tuple(hands)
        self.table = table
        self.piles = tuple(piles)
        self.scopas = scopas
        self.deals = deals
        self.to_move = to_move
        self.dealer = dealer
        self.last_capturer = last_capturer

    # -- queries ---------------------------------------------------------------------------

    def cards_in_play(self) -> int:
        return (sum(len(h) for h in self.hands) + len(self.table) + sum(len(p) for p in self.piles)
                + sum(len(h) for d in self.deals for h in d))

    def is_over(self) -> bool:
        return not self.deals and not any(self.hands)

    def moves(self) -> set:
        if self.is_over():
            return set()
        return legal_moves_of(self.hands[self.to_move], self.table, self.rules)

    def score(self) -> dict:
        """The score breakdown of the piles as they are (``score``)."""
        return score(self.piles, self.scopas, self.rules)

    def points(self) -> tuple:
        """Every side's round points from the piles as they are (final once the round is over)."""
        return tuple(self.score()["points"])

    def side_to_move(self) -> int:
        return self.rules.sides()[self.to_move]

    # -- transitions -----------------------------------------------------------------------

    def play(self, move: Move) -> "RefState":
        card, taken = move[0], frozenset(move[1])
        if (card, taken) not in self.moves():
            raise ValueError(f"illegal move {card} x {sorted(taken)} in {self.show()}")
        rules, me = self.rules, self.to_move
        hands = list(self.hands)
        hands[me] = hands[me] - {card}
        piles = list(self.piles)
        scopas = list(self.scopas)
        last = self.last_capturer
        if taken:
            table = self.table - taken
            piles[me] = piles[me] | taken | {card}
            last = me
            very_last = not self.deals and not any(hands)
            counts = ((not very_last or rules.last_sweep_counts)
                      and (not is_ace_sweep(card, self.table, rules) or rules.ace_sweep_is_scopa))
            if not table and counts:
                scopas[me] += 1
        else:
            table = self.table | {card}
        # The turn passes to the next seat, also across a deal (the dealer plays last in each).
        return RefState(hands, table, piles, scopas, to_move=(me + 1) % rules.players, dealer=self.dealer,
                        last_capturer=last, rules=rules, deals=self.deals)

    # -- plumbing --------------------------------------------------------------------------

    def _key(self) -> tuple:
        return (self.rules, self.hands, self.table, self.piles, self.scopas, self.deals, self.to_move,
                self.dealer, self.last_capturer)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RefState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def show(self) -> str:
        def cs(cards: Iterable[str]) -> str:
            return "".join(sorted(cards, key=DECK.index)) or "-"
        return (f"hands {'/'.join(cs(h) for h in self.hands)} table {cs(self.table)} "
                f"piles {'/'.join(cs(p) for p in self.piles)} scopas {self.scopas} "
                f"deals {['/'.join(cs(h) for h in d) for d in self.deals]} to_move {self.to_move} "
                f"dealer {self.dealer} last {self.last_capturer} {self.rules}")

    __repr__ = show


def needs_redeal(table: Iterable[str], rules: RefRules) -> bool:
    """3 or 4 kings among the table cards of a round start: deal again."""
    return rules.redeal_three_kings and sum(1 for c in table if c[0] == "R") >= 3


def deal_round(deck: Sequence[str], rules: RefRules, dealer: int) -> RefState:
    """The round start from a deck in deal order: Scopa: the leader's 3, the next seat's 3, ...,
    the dealer's 3, then 4 table cards, then the stock (consumed the same way, 3 per seat from
    the leader); Scopone / scientifico: each seat's 9 / 10 cards from the leader, then the table.
    """
    if sorted(deck, key=DECK.index) != list(DECK):
        raise ValueError("a deck holds the 40 cards once each")
    n, size = rules.players, rules.hand_size()
    leader = (dealer + 1) % n
    hands: list = [None] * n
    for i in range(n):
        hands[(leader + i) % n] = deck[i * size:(i + 1) * size]
    table = deck[n * size:n * size + rules.table_size()]
    stock = deck[n * size + rules.table_size():]
    if needs_redeal(table, rules):
        raise ValueError("3 or more kings on the table: deal again")
    return RefState(hands, table, stock=stock, to_move=leader, dealer=dealer, rules=rules)


# --------------------------------------------------------------------------------------------
# Searches: plain recursion; a memo only where a test passes one, to keep its sizes affordable
# --------------------------------------------------------------------------------------------

def margin_for(points: Sequence[int], side: int) -> int:
    """Own points minus the best other side's points (with two sides: the margin)."""
    return points[side] - max(p for s, p in enumerate(points) if s != side)


def minimax(state: RefState, side: Optional[int] = None, memo: Optional[dict] = None) -> int:
    """The value for the side to move (or ``side``) under best play: with two sides the exact
    final margin (own round points minus the other's); with three or more, paranoid: that side's
    seats maximise own points minus the best other side's, every other seat minimises it.

    Every legal move is searched: no pruning, no move ordering. ``memo``, a dict, values each
    (state, side) once; a value never depends on how the state was reached, so one memo may
    serve many calls."""
    if side is None:
        side = state.side_to_move()
    key = (state, side)
    if memo is not None and key in memo:
        return memo[key]
    if state.is_over():
        result = margin_for(state.points(), side)
    else:
        values = [minimax(state.play(m), side, memo) for m in state.moves()]
        result = max(values) if state.side_to_move() == side else min(values)
    if memo is not None:
        memo[key] = result
    return result


def move_values(state: RefState, memo: Optional[dict] = None) -> dict:
    """The value of every legal move for the side to move (one memo for them all)."""
    side, memo = state.side_to_move(), {} if memo is None else memo
    return {m: minimax(state.play(m), side, memo) for m in state.moves()}


def maxn(state: RefState, memo: Optional[dict] = None, order=None) -> tuple:
    """Max^n: ``(points, move)``: every side's round points when each seat maximises its own
    side's points, ties to the first move in the canonical order; move None at the end.

    The rule book leaves the canonical order open: ``order(state)`` lists the state's moves in
    it (default: by ``canonical_key``); the cross-checks pass the package's order."""
    if memo is None:
        memo = {}
    if state in memo:
        return memo[state]
    if state.is_over():
        result = (state.points(), None)
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


def random_state(rng, rules: RefRules, plays_left: Optional[int] = None,
                 dealer: Optional[int] = None) -> RefState:
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
