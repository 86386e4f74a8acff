"""The family reference (tests/family_reference.py) on the rule book's worked examples, against the
two-player oracle, and the package's family engine against the reference on every game.

Everything is seeded, so a failure names a reproducible position (``FamState.show()``).
"""
from __future__ import annotations

import random
from itertools import combinations

import pytest

import family_reference as fr
from family_reference import FamRules, FamState, legal_moves_of, score
from reference import RefRules, RefState

E = frozenset()


def fs(text: str) -> frozenset:
    return frozenset(text.split())


def state(rules: FamRules, hands, table="", piles=None, scopas=None, deals=(), to_move=0, dealer=None,
          last=None) -> FamState:
    n = rules.players
    return FamState(rules, tuple(fs(h) for h in hands), fs(table),
                    tuple(fs(p) for p in (piles or [""] * n)), tuple(scopas or (0,) * n),
                    tuple(tuple(fs(h) for h in d) for d in deals), to_move,
                    (to_move - 1) % n if dealer is None else dealer, last).check()


# --------------------------------------------------------------------------------------------
# The reference on the worked examples of FAMILY.md
# --------------------------------------------------------------------------------------------

def test_example_1_fifteen_needs_the_rest_of_fifteen() -> None:
    rules = FamRules(capture="fifteen")
    table = "5c 3s Fb Ad"
    assert legal_moves_of(["7d"], table.split(), rules) == {("7d", fs("Fb")), ("7d", fs("5c 3s"))}
    assert legal_moves_of(["Rb"], table.split(), rules) == {("Rb", fs("5c"))}


def test_example_2_fifteen_has_no_single_priority() -> None:
    rules = FamRules(capture="fifteen")
    assert legal_moves_of(["7c"], ["Fc", "5s", "3b"], rules) == {("7c", fs("Fc")), ("7c", fs("5s 3b"))}
    # the standard game on the same table: single match first would not apply (no 7), sums only
    assert legal_moves_of(["7c"], ["Fc", "5s", "3b"], FamRules()) == {("7c", E)}


def test_fifteen_options() -> None:
    # optional capture adds the lay-down; a card that can take nothing is laid down either way
    opt = FamRules(capture="fifteen", optional_capture=True)
    assert legal_moves_of(["7c", "Ad"], ["Fc"], opt) == {("7c", fs("Fc")), ("7c", E), ("Ad", E)}
    assert legal_moves_of(["7c"], ["Fc"], FamRules(capture="fifteen")) == {("7c", fs("Fc"))}
    # a King takes a 5, or 4 + A, or 3 + 2
    assert legal_moves_of(["Rc"], "5d 4s Ab 3c 2d".split(), FamRules(capture="fifteen")) == {
        ("Rc", fs("5d")), ("Rc", fs("4s Ab")), ("Rc", fs("3c 2d"))}
    with pytest.raises(ValueError):
        FamRules(capture="fifteen", asso_piglia_tutto=True)


def test_subset_sums_are_every_combination() -> None:
    rng = random.Random(4)
    for _ in range(100):
        table = rng.sample(fr.DECK, rng.randrange(0, 13))
        total = rng.randrange(0, 16)
        brute = {frozenset(c) for size in range(len(table) + 1) for c in combinations(table, size)
                 if sum(fr.card_value(x) for x in c) == total}
        found = [frozenset(s) for s in fr.subsets_summing(table, total)]
        assert set(found) == brute and len(found) == len(brute)


def test_example_3_partnership_piles_are_pooled() -> None:
    deck = list(fr.DECK)
    piles = [deck[0:14], deck[14:24], deck[24:32], deck[32:40]]     # 14, 10, 8, 8 cards
    result = score(piles, (0, 0, 0, 0), FamRules(players=4))
    assert result["cards"] == [22, 18] and result["carte"] == 0
    alone = score(piles, (0, 0, 0, 0), FamRules(players=4, partnerships=False))
    assert alone["cards"] == [14, 10, 8, 8] and alone["carte"] == 0


def test_example_4_three_players_shared_top_scores_nobody() -> None:
    coins = [c for c in fr.DECK if c[1] == "d"]
    others = [c for c in fr.DECK if c[1] != "d"]
    piles = [coins[:4] + others[:10], coins[4:7] + others[10:21], coins[7:] + others[21:30]]
    assert [len(p) for p in piles] == [14, 14, 12]
    result = score(piles, (0, 0, 0), FamRules(players=3))
    assert result["carte"] is None
    assert result["coins"] == [4, 3, 3] and result["denari"] == 0
    assert result["settebello"] == 1          # 7d is the second player's


def test_example_5_scientifico_leader_lays_down() -> None:
    rng = random.Random(5)
    s = fr.random_state(rng, FamRules(players=4, game="scientifico"), plays_left=40)
    assert not s.table and all(len(h) == 10 for h in s.hands) and not s.deals
    moves = s.moves()
    assert len(moves) == 10 and all(not taken for _, taken in moves)


def test_example_6_scopone_three_kings_are_dealt_again() -> None:
    kings = ["Rd", "Rc", "Rs"]
    rest = [c for c in fr.DECK if c not in kings]
    deck = rest[:36] + kings + rest[36:]          # the table is the last 4 cards
    rules = FamRules(players=4, game="scopone")
    with pytest.raises(ValueError):
        fr.deal_round(deck, rules, dealer=3)
    fr.deal_round(deck, FamRules(players=4, game="scopone", redeal_three_kings=False), dealer=3)


def test_example_7_paranoid_margin() -> None:
    assert fr.margin_for([5, 3, 4], 2) == -1
    assert fr.margin_for([5, 3, 4], 0) == 1
    assert fr.margin_for([5, 3], 1) == -2


# --------------------------------------------------------------------------------------------
# The reference's own rules: deals, scopas, leftovers, searches
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, game, deals", [(2, "scopa", 6), (3, "scopa", 4), (4, "scopa", 3),
                                                  (6, "scopa", 2), (4, "scopone", 1), (4, "scientifico", 1)])
def test_deal_order_from_a_deck(players: int, game: str, deals: int) -> None:
    rules = FamRules(players=players, game=game)
    deck = list(fr.DECK)
    dealer = players - 2                           # the leader is the last seat
    s = fr.deal_round(deck, rules, dealer)
    size, leader = rules.hand_size(), players - 1
    assert s.to_move == leader and s.dealer == dealer
    assert s.hands[leader] == frozenset(deck[:size])
    assert s.hands[0] == frozenset(deck[size:2 * size])
    assert s.hands[dealer] == frozenset(deck[(players - 1) * size:players * size])
    table_at = players * size
    assert s.table == frozenset(deck[table_at:table_at + rules.table_size()])
    assert len(s.deals) == deals - 1
    stock = deck[table_at + rules.table_size():]
    for k, deal in enumerate(s.deals):
        base = k * 3 * players
        assert deal[leader] == frozenset(stock[base:base + 3])
        assert deal[dealer] == frozenset(stock[base + 3 * (players - 1):base + 3 * players])


def test_two_players_keep_the_record_format() -> None:
    deck = list(fr.DECK)
    s = fr.deal_round(deck, FamRules(), dealer=1)
    assert s.hands == (frozenset(deck[0:3]), frozenset(deck[3:6])) and s.table == frozenset(deck[6:10])
    assert s.deals[0] == (frozenset(deck[10:13]), frozenset(deck[13:16]))


def test_scopa_last_play_and_leftovers() -> None:
    rules = FamRules(players=3)
    # the very last play sweeps: no scopa; with last_sweep_counts it scores
    s = state(rules, ["", "", "7c"], "3d 4s", to_move=2, last=0)
    after = s.play(("7c", fs("3d 4s")))
    assert after.is_over() and after.scopas == (0, 0, 0) and after.piles[2] == fs("7c 3d 4s")
    s2 = state(FamRules(players=3, last_sweep_counts=True), ["", "", "7c"], "3d 4s", to_move=2, last=0)
    assert s2.play(("7c", fs("3d 4s"))).scopas == (0, 0, 1)
    # the last play of an earlier deal scores, and every seat gets 3 more from the leader on
    deal = ("Ab 2b 3b", "4b 5b 6b", "7b Fb Cb")
    s3 = state(rules, ["", "", "7c"], "3d 4s", to_move=2, deals=[deal], last=0)
    after = s3.play(("7c", fs("3d 4s")))
    assert after.scopas == (0, 0, 1) and after.hands == tuple(fs(h) for h in deal) and after.to_move == 0
    # leftovers go to the last capturing player, never a scopa
    s4 = state(rules, ["", "", "7c"], "3d 5s", to_move=2, last=1)
    after = s4.play(("7c", E))
    assert after.table == E and after.piles[1] == fs("3d 5s 7c") and after.scopas == (0, 0, 0)
    # nobody captured: they stay on the table
    s5 = state(rules, ["", "", "7c"], "3d 5s", to_move=2)
    assert s5.play(("7c", E)).table == fs("3d 5s 7c")


def test_ace_sweep_and_fewest_cards_in_the_family() -> None:
    rules = FamRules(players=4, asso_piglia_tutto=True)
    s = state(rules, ["Ad 2c", "3c", "4c", "5c"], "5d 6d")
    assert s.moves() == {("Ad", fs("5d 6d")), ("2c", E)}
    assert s.play(("Ad", fs("5d 6d"))).scopas == (0, 0, 0, 0)
    counts = FamRules(players=4, asso_piglia_tutto=True, ace_sweep_is_scopa=True)
    assert state(counts, ["Ad 2c", "3c", "4c", "5c"], "5d 6d").play(("Ad", fs("5d 6d"))).scopas == (1, 0, 0, 0)
    few = FamRules(players=3, fewest_cards=True)
    assert legal_moves_of(["Fc"], "6d 5d 3c 2s Ab".split(), few) == {("Fc", fs("6d 2s")), ("Fc", fs("5d 3c"))}


def test_primiera_missing_suit_and_napola_per_side() -> None:
    piles = [["7d", "7c", "7s", "7b"], ["6d", "6c", "6s"], ["Ad", "2d", "3d", "4d"]]
    r = score(piles, (0, 0, 0), FamRules(players=3, napola=True))
    assert r["primiera"] == [84, None, None] and r["primiera_winner"] == 0
    assert r["carte"] is None                                   # 4 / 3 / 4 cards
    assert r["napola"] == [0, 0, 4] and r["points"] == [1 + 1, 0, 4 + 1]   # settebello, primiera; napola, denari
    z = score(piles, (0, 0, 0), FamRules(players=3, primiera_missing_suit="zero"))
    assert z["primiera"] == [84, 54, 16] and z["primiera_winner"] == 0
    shared = score([["7c", "6s", "Ad", "5b"], ["7s", "6c", "Ab", "5d"], []], (0, 0, 0),
                   FamRules(players=3, primiera_missing_suit="zero"))
    assert shared["primiera"] == [70, 70, 0] and shared["primiera_winner"] is None


def test_paranoid_and_maxn_on_a_small_three_player_end() -> None:
    rules = FamRules(players=3)
    # seat 0 can take the settebello with its 7 or lay down; the others only lay down
    s = state(rules, ["7c 2b", "Rs Fb", "Cs Ab"], "7d", piles=["", "", ""], last=None)
    values = fr.move_values(s)
    assert set(values) == s.moves()
    assert fr.minimax(s) == max(values.values())
    points, move = fr.maxn(s)
    assert points[0] == max(fr.maxn(s.play(m))[0][0] for m in s.moves())
    assert move == min((m for m in s.moves() if fr.maxn(s.play(m))[0][0] == points[0]),
                       key=fr.canonical_key)


@pytest.mark.parametrize("rules", [FamRules(), FamRules(players=3), FamRules(players=4),
                                   FamRules(players=4, partnerships=False), FamRules(players=6),
                                   FamRules(players=4, game="scopone"), FamRules(players=4, game="scientifico"),
                                   FamRules(players=3, capture="fifteen", optional_capture=True)],
                         ids=lambda r: f"{r.players}-{r.game}-{r.capture}-{r.partnerships}")
def test_random_rounds_conserve_the_deck(rules: FamRules) -> None:
    rng = random.Random(11)
    for _ in range(30):
        s = fr.random_state(rng, rules, plays_left=40 - rules.table_size())
        plays = 0
        while not s.is_over():
            assert s.cards_in_play() == 40
            assert len(s.hands[s.to_move]) == max(len(h) for h in s.hands)
            s = s.play(rng.choice(sorted(s.moves(), key=fr.canonical_key)))
            plays += 1
        assert plays == 40 - rules.table_size() and s.cards_in_play() == 40
        assert not s.table or s.last_capturer is None


# --------------------------------------------------------------------------------------------
# The family reference with two players agrees with the two-player reference
# --------------------------------------------------------------------------------------------

def to_two_player(s: FamState) -> RefState:
    r = s.rules
    stock = [c for deal in s.deals for hand in (deal[1 - s.dealer], deal[s.dealer])
             for c in sorted(hand, key=fr.DECK.index)]
    return RefState(s.hands, s.table, s.piles, s.scopas, stock, s.to_move, s.dealer, s.last_capturer,
                    RefRules(asso_piglia_tutto=r.asso_piglia_tutto, ace_sweep_is_scopa=r.ace_sweep_is_scopa,
                             re_bello=r.re_bello, napola=r.napola, fewest_cards=r.fewest_cards,
                             primiera_missing_suit=r.primiera_missing_suit))


@pytest.mark.parametrize("rules", [FamRules(), FamRules(asso_piglia_tutto=True, napola=True),
                                   FamRules(fewest_cards=True, re_bello=True, primiera_missing_suit="zero")],
                         ids=["default", "apt-napola", "fewest-rebello-zero"])
def test_two_players_agree_with_the_two_player_reference(rules: FamRules) -> None:
    rng = random.Random(3)
    for _ in range(120):
        s = fr.random_state(rng, rules)
        two = to_two_player(s)
        assert s.moves() == two.moves(), s.show()
        assert s.points() == list(two.points()), s.show()
        if s.is_over():
            continue
        move = rng.choice(sorted(s.moves(), key=fr.canonical_key))
        after, two_after = s.play(move), two.play(move)
        assert to_two_player(after) == two_after, s.show()
    for _ in range(20):
        s = fr.random_state(rng, rules, plays_left=rng.randrange(2, 7))
        assert fr.minimax(s) == to_two_player(s).minimax(), s.show()


# --------------------------------------------------------------------------------------------
# The package's family engine against the reference
# --------------------------------------------------------------------------------------------

from scopa_solver import kernel  # noqa: E402

GAMES = {
    "2p": FamRules(players=2),
    "2p-aces-napola": FamRules(players=2, asso_piglia_tutto=True, napola=True, re_bello=True),
    "2p-fifteen": FamRules(players=2, capture="fifteen"),
    "2p-fifteen-optional": FamRules(players=2, capture="fifteen", optional_capture=True, re_bello=True),
    "3p": FamRules(players=3),
    "3p-fifteen-napola": FamRules(players=3, capture="fifteen", napola=True, primiera_missing_suit="zero"),
    "4p": FamRules(players=4),
    "4p-alone-aces": FamRules(players=4, partnerships=False, asso_piglia_tutto=True, ace_sweep_is_scopa=True),
    "4p-fifteen-fewest": FamRules(players=4, capture="fifteen", fewest_cards=True, optional_capture=True),
    "6p": FamRules(players=6),
    "6p-alone-zero": FamRules(players=6, partnerships=False, primiera_missing_suit="zero", re_bello=True),
    "scopone": FamRules(players=4, game="scopone"),
    "scopone-fewest-aces": FamRules(players=4, game="scopone", fewest_cards=True, asso_piglia_tutto=True,
                                    napola=True),
    "scientifico": FamRules(players=4, game="scientifico"),
    "scientifico-last-sweep": FamRules(players=4, game="scientifico", last_sweep_counts=True, re_bello=True),
}
GAME_NAMES = list(GAMES)
BIT_NAMES = ("asso_piglia_tutto", "ace_sweep_is_scopa", "re_bello", "napola", "fewest_cards",
             "optional_capture", "last_sweep_counts")
SCORE_KEYS = ("cards", "coins", "primiera", "napola", "scopas", "points", "carte", "denari", "settebello",
              "primiera_winner", "re_bello")


def mask(cards) -> int:
    return sum(1 << fr.DECK.index(c) for c in cards)


def cards_of(m: int) -> frozenset:
    return frozenset(c for i, c in enumerate(fr.DECK) if m >> i & 1)


def rule_bits(r: FamRules) -> int:
    names = [n for n in BIT_NAMES if getattr(r, n)]
    names += ["primiera_zero"] * (r.primiera_missing_suit == "zero") + ["fifteen"] * (r.capture == "fifteen")
    return sum(kernel.RULE_BITS[n] for n in names)


def to_kernel(s: FamState):
    return kernel.KernelState(
        players=s.rules.players, hands=tuple(mask(h) for h in s.hands), table=mask(s.table),
        piles=tuple(mask(p) for p in s.piles), scopas=tuple(s.scopas), to_move=s.to_move, dealer=s.dealer,
        last_capturer=-1 if s.last_capturer is None else s.last_capturer,
        deals=tuple(tuple(mask(h) for h in d) for d in s.deals), rules=rule_bits(s.rules), sides=s.rules.sides())


def from_kernel(k, rules: FamRules) -> FamState:
    return FamState(rules, tuple(cards_of(h) for h in k.hands), cards_of(k.table),
                    tuple(cards_of(p) for p in k.piles), tuple(k.scopas),
                    tuple(tuple(cards_of(h) for h in d) for d in k.deals), k.to_move, k.dealer,
                    None if k.last_capturer == -1 else k.last_capturer)


def unpack(packed: int) -> tuple:
    return fr.DECK[packed >> 40], cards_of(packed & ((1 << 40) - 1))


def kernel_order(s: FamState) -> list:
    return [unpack(p) for p in kernel.legal_moves(to_kernel(s))]


def kernel_score(s: FamState) -> dict:
    return kernel.score(tuple(mask(p) for p in s.piles), tuple(s.scopas), s.rules.sides(),
                               rule_bits(s.rules))


def same_score(got: dict, want: dict) -> bool:
    """The package's score breakdown equals the reference's (lists and tuples alike)."""
    return all((list(got[k]) if isinstance(got[k], (list, tuple)) else got[k]) == want[k] for k in SCORE_KEYS)


def check_round(s: FamState, rng: random.Random, every_move: bool) -> int:
    """Walk one round in both engines from ``s``; every position: the moves agree, the package
    keeps its state as the reference does, the successors (of every move, or of the one played)
    agree with their events; at the end the scores agree. Returns the positions checked."""
    rules, seen = s.rules, 0
    k = to_kernel(s)
    while True:
        assert from_kernel(k, rules) == s, s.show()
        assert sum(bin(m).count("1") for m in (*k.hands, k.table, *k.piles, *(h for d in k.deals for h in d))) == 40
        packed = kernel.legal_moves(k)
        assert len(set(packed)) == len(packed), s.show()
        assert {unpack(p) for p in packed} == s.moves(), s.show()
        seen += 1
        if s.is_over():
            break
        chosen = rng.randrange(len(packed))
        for i, p in enumerate(packed):
            if not every_move and i != chosen:
                continue
            move = unpack(p)
            where = f"{s.show()} move {move[0]}x{sorted(move[1])}"
            try:
                after, events = kernel.play(k, p)
            except ValueError as error:
                raise AssertionError(f"{where}: {error}") from None
            ref_after = s.play(move)
            assert from_kernel(after, rules) == ref_after, where
            assert events.scopa == (sum(ref_after.scopas) > sum(s.scopas)), where
            assert events.dealt == (len(ref_after.deals) < len(s.deals)), where
            table_left = (s.table - move[1]) if move[1] else s.table | {move[0]}
            ends_with_leftovers = ref_after.is_over() and ref_after.last_capturer is not None
            assert events.leftovers == (mask(table_left) if ends_with_leftovers else 0), where
            if ends_with_leftovers and table_left:
                assert events.leftovers_to == ref_after.last_capturer, where
            if i == chosen:
                next_pair = after, ref_after
        k, s = next_pair
    assert same_score(kernel_score(s), score(s.piles, s.scopas, rules)), s.show()
    return seen


def rounds_agree(name: str, rounds: int, seed: int) -> None:
    rules = GAMES[name]
    rng = random.Random(seed * 100 + GAME_NAMES.index(name))
    positions = 0
    for r in range(rounds):
        start = fr.random_state(rng, rules, plays_left=40 - rules.table_size())
        positions += check_round(start, rng, every_move=r % 2 == 0)
    assert positions == rounds * (41 - rules.table_size())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_moves_plays_and_scores_agree(name: str) -> None:
    rounds_agree(name, 10, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_moves_plays_and_scores_agree_slow(name: str) -> None:
    rounds_agree(name, 300, seed=2)


def last_sweeps(name: str, count: int, seed: int) -> list:
    """Last plays that can sweep: a random state with one play left whose table is replaced by
    one card (taken from a pile) that the last card captures."""
    rules = GAMES[name]
    rng = random.Random(seed * 100 + GAME_NAMES.index(name))
    made = []
    while len(made) < count:
        s = fr.random_state(rng, rules, plays_left=1)
        (card,) = s.hands[s.to_move]
        need = 15 - fr.card_value(card) if rules.capture == "fifteen" else fr.card_value(card)
        takers = [(seat, c) for seat, p in enumerate(s.piles) for c in sorted(p) if fr.card_value(c) == need]
        if not takers:
            continue
        seat, taken = rng.choice(takers)
        piles = list(s.piles)
        piles[seat] = piles[seat] - {taken}
        piles[rng.randrange(rules.players)] |= s.table
        made.append(FamState(rules, s.hands, frozenset([taken]), tuple(piles), s.scopas, (), s.to_move,
                             s.dealer, seat).check())
    return made


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_last_play_sweep(name: str) -> None:
    rules = GAMES[name]
    for s in last_sweeps(name, 20, seed=1):
        (move,) = [m for m in s.moves() if m[1]]
        after = s.play(move)
        assert after.is_over() and sum(after.scopas) - sum(s.scopas) == int(rules.last_sweep_counts)
        packed = [p for p in kernel.legal_moves(to_kernel(s)) if unpack(p) == move]
        k_after, events = kernel.play(to_kernel(s), packed[0])
        assert from_kernel(k_after, rules) == after, s.show()
        assert events.scopa == rules.last_sweep_counts and events.leftovers == 0, s.show()
        assert kernel_score(after)["points"] == after.points(), s.show()


def random_piles(rng: random.Random, rules: FamRules) -> tuple:
    """Random piles per seat (some cards out of play) and scopas for seats that captured."""
    n = rules.players
    piles: list = [[] for _ in range(n)]
    out = rng.choice((0.0, 0.0, 0.2, 0.7))
    skew = [rng.random() + 0.05 for _ in range(n)]
    for card in fr.DECK:
        if rng.random() >= out:
            piles[rng.choices(range(n), weights=skew)[0]].append(card)
    if rng.random() < 0.3:                       # a coin run: napola of every length
        owner, run = rng.randrange(n), [r + "d" for r in fr.RANK_LETTERS[:rng.randrange(3, 11)]]
        piles = [[c for c in p if c not in run] for p in piles]
        piles[owner] += run
    scopas = tuple(rng.randrange(4) if p else 0 for p in piles)
    return tuple(frozenset(p) for p in piles), scopas


def scores_agree(name: str, count: int, seed: int) -> None:
    rules = GAMES[name]
    rng = random.Random(seed * 100 + GAME_NAMES.index(name))
    ties = 0
    for _ in range(count):
        piles, scopas = random_piles(rng, rules)
        got = kernel.score(tuple(mask(p) for p in piles), scopas, rules.sides(), rule_bits(rules))
        want = score(piles, scopas, rules)
        assert same_score(got, want), (piles, scopas)
        ties += want["carte"] is None or want["primiera_winner"] is None
    assert ties > 0          # shared tops and disqualified primiera are reached


@pytest.mark.parametrize("name", ["2p", "3p", "4p", "4p-alone-aces", "6p", "6p-alone-zero", "scopone"])
def test_score_lists_have_one_entry_per_side(name: str) -> None:
    rules = GAMES[name]
    piles, scopas = random_piles(random.Random(1), rules)
    got = kernel.score(tuple(mask(p) for p in piles), scopas, rules.sides(), rule_bits(rules))
    for key in ("cards", "coins", "primiera", "napola", "scopas", "points"):
        assert len(got[key]) == rules.side_count(), (key, got[key])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_scores_agree_on_random_piles(name: str) -> None:
    scores_agree(name, 400, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_scores_agree_on_random_piles_slow(name: str) -> None:
    scores_agree(name, 20000, seed=2)


def end_positions(name: str, count: int, seed: int, plays: tuple) -> list:
    rules = GAMES[name]
    rng = random.Random(seed * 100 + GAME_NAMES.index(name))
    return [fr.random_state(rng, rules, plays_left=rng.choice(plays)) for _ in range(count)]


def values_agree(name: str, count: int, seed: int, plays: tuple) -> None:
    states = end_positions(name, count, seed, plays)
    results = kernel.run_batch([to_kernel(s) for s in states], want=kernel.WANT_ALL | kernel.WANT_BEST,
                               objective="value")
    for s, res in zip(states, results):
        values = fr.move_values(s)
        best = max(values.values())
        assert (res.lower, res.upper) == (best, best), s.show()
        assert fr.minimax(s) == best
        moves = [unpack(p) for p in res.moves]
        assert set(moves) == set(values) and len(moves) == len(values), s.show()
        for move, (lo, hi) in zip(moves, res.move_bounds):
            assert lo <= values[move] <= hi, (s.show(), move, lo, hi, values[move])
            assert lo == hi or hi <= best, (s.show(), move)     # only a worse move may stay a bound
        assert {unpack(p) for p in res.best} == {m for m, v in values.items() if v == best}, s.show()


def small_plays(name: str) -> tuple:
    """The last 4..8 plays; 3..6 where every card may also be laid down (the reference's trees
    grow much faster there)."""
    return (3, 4, 5, 6) if GAMES[name].optional_capture else (4, 5, 6, 7, 8)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_values_agree_on_round_ends(name: str) -> None:
    values_agree(name, 12, seed=1, plays=small_plays(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_values_agree_on_round_ends_slow(name: str) -> None:
    values_agree(name, 100, seed=2, plays=(4, 5, 6, 7) if GAMES[name].optional_capture else (6, 8, 9, 10))


def maxn_agrees(name: str, count: int, seed: int, plays: tuple) -> None:
    states = end_positions(name, count, seed, plays)
    results = kernel.run_batch([to_kernel(s) for s in states], want=kernel.WANT_BEST,
                               objective="maxn")
    for s, res in zip(states, results):
        points, move = fr.maxn(s, order=kernel_order)
        mine = points[s.side_to_move()]
        assert (res.lower, res.upper) == (mine, mine), s.show()
        assert tuple(res.points) == points, s.show()
        if res.best is not None:
            assert unpack(res.best[0]) == move, s.show()


def last_deal(name: str) -> int:
    rules = GAMES[name]
    return 3 * rules.players if rules.game == "scopa" else 8


@pytest.mark.parametrize("name", GAME_NAMES)
def test_maxn_agrees_on_the_last_plays(name: str) -> None:
    full = last_deal(name)
    maxn_agrees(name, 10, seed=1, plays=tuple(p for p in small_plays(name) if p <= full))


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_maxn_agrees_on_the_last_deal_slow(name: str) -> None:
    full = last_deal(name)
    if GAMES[name].optional_capture:         # every card may also be laid down: a bushier tree
        plays = (4, 5, 6, 7)
    else:
        plays = (full,) if full <= 12 else (12, 13)
    maxn_agrees(name, 20, seed=2, plays=plays)


# --------------------------------------------------------------------------------------------
# The package's Python face (Position, Rules, solve) against the reference
# --------------------------------------------------------------------------------------------

RULE_FIELDS = ("players", "game", "partnerships", "capture", "optional_capture", "last_sweep_counts",
               "asso_piglia_tutto", "ace_sweep_is_scopa", "fewest_cards", "re_bello", "napola",
               "primiera_missing_suit", "redeal_three_kings")


def package_rules(r: FamRules):
    from scopa_solver import Rules
    return Rules(**{f: getattr(r, f) for f in RULE_FIELDS})


def move_texts(moves) -> set:
    return {(str(m.card), frozenset(str(c) for c in m.captures)) for m in moves}


def positions_agree(name: str, rounds: int, seed: int) -> None:
    from scopa_solver import Position
    rules = GAMES[name]
    prules = package_rules(rules)
    rng = random.Random(seed * 100 + GAME_NAMES.index(name))
    for _ in range(rounds):
        deck = Position.shuffled_deck(seed=rng.getrandbits(32), rules=prules)
        dealer = rng.randrange(rules.players)
        s = fr.deal_round([str(c) for c in deck], rules, dealer)     # refuses a table to deal again
        pos = Position.from_deck(deck, dealer=dealer, rules=prules)
        assert pos.is_round_start()
        while True:
            assert from_kernel(pos.kernel_state(), rules) == s, s.show()
            assert move_texts(pos.legal_moves()) == s.moves(), s.show()
            if s.is_over():
                break
            move = rng.choice(pos.legal_moves())
            after = s.play((str(move.card), frozenset(str(c) for c in move.captures)))
            assert pos.is_scopa(move) == (sum(after.scopas) > sum(s.scopas)), s.show()
            pos, s = pos.play(move), after
        assert pos.is_round_over()
        got, want = pos.round_score(), score(s.piles, s.scopas, rules)
        assert list(got.total) == want["points"], s.show()
        assert [p.cards for p in got.sides] == want["cards"] and [p.primiera for p in got.sides] == want["primiera"]
        assert (got.carte, got.denari, got.settebello, got.primiera) == \
            (want["carte"], want["denari"], want["settebello"], want["primiera_winner"]), s.show()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_package_positions_agree(name: str) -> None:
    positions_agree(name, 3, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_package_positions_agree_slow(name: str) -> None:
    positions_agree(name, 100, seed=2)


def package_position(s: FamState):
    from scopa_solver import Position
    return Position.from_kernel_state(to_kernel(s), package_rules(s.rules))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_solve_agrees(name: str) -> None:
    from scopa_solver import solve
    for s in end_positions(name, 4, seed=3, plays=small_plays(name)[:3]):
        pos = package_position(s)
        assert from_kernel(pos.kernel_state(), s.rules) == s
        values = fr.move_values(s)
        best = max(values.values())
        result = solve(pos)
        assert result.value == best, s.show()
        assert move_texts(result.best_moves) == {m for m, v in values.items() if v == best}, s.show()
        points, move = fr.maxn(s, order=kernel_order)
        result = solve(pos, objective="maxn")
        assert result.value == points[s.side_to_move()] and tuple(result.points) == points, s.show()
        assert move_texts(result.best_moves[:1]) == {move}, s.show()


@pytest.mark.parametrize("name", ["3p", "6p", "scopone", "scientifico"])
def test_redeal_rule_agrees(name: str) -> None:
    from scopa_solver import Card, Position
    from scopa_solver.core.flow import redeal_needed
    rules = GAMES[name]
    rng = random.Random(GAME_NAMES.index(name))
    kings = [c for c in fr.DECK if c[0] == "R"]
    for flag in (True, False):
        prules = package_rules(FamRules(**{**{f: getattr(rules, f) for f in RULE_FIELDS}, "redeal_three_kings": flag}))
        for _ in range(200):
            table = rng.sample(kings, rng.randrange(5)) + rng.sample(fr.DECK[:30], 2)
            table = table[:4] if rules.table_size() else []
            ref = fr.needs_redeal(table, FamRules(**{**{f: getattr(rules, f) for f in RULE_FIELDS},
                                                    "redeal_three_kings": flag}))
            assert redeal_needed([Card.parse(c) for c in table], prules) == ref, table
    prules = package_rules(rules)
    start = rules.players * rules.hand_size()
    for seed in range(200):
        deck = [str(c) for c in Position.shuffled_deck(seed=seed, rules=prules)]
        assert not fr.needs_redeal(deck[start:start + rules.table_size()], rules)
