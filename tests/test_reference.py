"""The reference (tests/reference.py) on the rule books: the worked examples of RULES.md and
FAMILY.md and hand-checked cases of every rule, for every game of the family.

The reference is the oracle the package is compared with, so it is pinned here to the rule books
by hand-checked cases only (and, on random rounds, by its own invariants: no card gained or lost).
"""

from __future__ import annotations

import ast
import random
from itertools import combinations
from pathlib import Path

import pytest

import reference as ref
from reference import DECK, RefRules, RefState, legal_moves_of, minimax, napola_of, primiera_of, score

E = frozenset()


def mv(card: str, *taken: str) -> tuple[str, frozenset[str]]:
    """Move literal: ``mv("7d", "3c", "4s")`` is the text move ``7dx3c+4s``."""
    return card, frozenset(taken)


def points(pile0, pile1, scopas=(0, 0), rules: RefRules = RefRules()) -> tuple[int, int]:
    """The two players' round points from their piles and scopas."""
    return tuple(score([pile0, pile1], scopas, rules)["points"])


# --------------------------------------------------------------------------------------------
# Sanity of the module itself
# --------------------------------------------------------------------------------------------

def test_deck_order() -> None:
    assert len(DECK) == len(set(DECK)) == 40
    assert DECK[:10] == ("Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Fd", "Cd", "Rd")
    assert DECK[10] == "Ac" and DECK[20] == "As" and DECK[-1] == "Rb"


def test_reference_does_not_import_the_package() -> None:
    tree = ast.parse((Path(__file__).parent / "reference.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert not any(name.split(".")[0] == "scopa_solver" for name in imported)


# --------------------------------------------------------------------------------------------
# Worked examples 1-9 of RULES.md
# --------------------------------------------------------------------------------------------

def test_example_1_single_match_priority() -> None:
    assert legal_moves_of(["7s"], ["7c", "5s", "2b", "Ad"]) == {mv("7s", "7c")}


def test_example_2_sum_choices() -> None:
    table = ["6c", "5s", "3b", "2d", "Ac"]
    assert legal_moves_of(["Fs"], table) == {
        mv("Fs", "6c", "2d"),
        mv("Fs", "5s", "3b"),
        mv("Fs", "5s", "2d", "Ac"),
    }


def test_example_3_one_of_two_matches() -> None:
    assert legal_moves_of(["5b"], ["5c", "5s", "2d"]) == {mv("5b", "5c"), mv("5b", "5s")}


def test_example_4_scopa_mid_round() -> None:
    s = RefState(hands=[["7c", "Rb"], ["Fs"]], table=["3c", "4s"], to_move=0)
    after = s.play(mv("7c", "3c", "4s"))
    assert after.table == frozenset()
    assert after.scopas == (1, 0)
    assert after.piles[0] == {"7c", "3c", "4s"}


def test_example_4_no_scopa_on_last_play_of_round() -> None:
    s = RefState(hands=[["7c"], []], table=["3c", "4s"], to_move=0, dealer=0)
    after = s.play(mv("7c", "3c", "4s"))
    assert after.is_over()
    assert after.scopas == (0, 0)
    assert after.piles[0] == {"7c", "3c", "4s"}


def test_example_4_last_play_of_earlier_deal_scores() -> None:
    stock = ("Ad", "2d", "3d", "4d", "5d", "6d")
    s = RefState(hands=[["7c"], []], table=["3c", "4s"], stock=stock, to_move=0, dealer=0)
    after = s.play(mv("7c", "3c", "4s"))
    assert after.scopas == (1, 0)
    assert not after.is_over()


def test_example_5_capture_sequence() -> None:
    # Player 1 is index 0 (the non-dealer, first to move), player 2 is index 1.
    s = RefState(
        hands=[["5c", "5b", "Fd"], ["Rc", "4d", "6s"]],
        table=["3c", "5d", "Rs", "2b"],
        to_move=0,
        dealer=1,
    )
    # 5c must take 5d: the single match forbids 3c+2b.
    assert {m for m in s.moves() if m[0] == "5c"} == {mv("5c", "5d")}
    s = s.play(mv("5c", "5d"))
    assert s.to_move == 1
    assert {m for m in s.moves() if m[0] == "Rc"} == {mv("Rc", "Rs")}
    s = s.play(mv("Rc", "Rs"))
    assert s.table == {"3c", "2b"}
    assert {m for m in s.moves() if m[0] == "5b"} == {mv("5b", "3c", "2b")}
    s = s.play(mv("5b", "3c", "2b"))
    assert s.table == frozenset()
    assert s.scopas == (1, 0)
    assert s.last_capturer == 0
    # The next player faces an empty table and can only lay down.
    assert s.moves() == {mv("4d"), mv("6s")}


def test_example_6_primiera_comparison() -> None:
    a = ["7d", "6c", "7b", "5s"]
    b = ["6d", "7c", "Ab", "7s"]
    assert primiera_of(a) == 21 + 18 + 21 + 15 == 75
    assert primiera_of(b) == 18 + 21 + 16 + 21 == 76
    # Only the primiera point is in play besides settebello (carte and denari tie at 4-4, 1-1).
    assert points(a, b) == (1, 1)  # a: settebello, b: primiera


def test_example_7_primiera_total() -> None:
    assert primiera_of(["7s", "6c", "Ad", "7b"]) == 21 + 18 + 16 + 21 == 76


def _split_piles(
    a_coins: list[str], a_extra: list[str], b_extra: list[str], a_size: int
) -> tuple[list[str], list[str]]:
    """Deal the 40 cards into two piles: A gets ``a_coins`` and ``a_extra`` plus filler
    non-coins up to ``a_size`` cards, B gets ``b_extra`` and everything else."""
    fixed = set(a_coins) | set(a_extra) | set(b_extra)
    filler = [c for c in DECK if c not in fixed and c[1] != "d"]
    a = a_coins + a_extra
    a += filler[: a_size - len(a)]
    b = [c for c in DECK if c not in a]
    assert not set(b_extra) - set(b)
    return a, b


def test_example_8_round_score() -> None:
    # A: 22 cards, 6 coins with the settebello, primiera 7d 6c 6s 6b = 75.
    # B: 18 cards, 4 coins incl. 6d, primiera 6d 7c 7s 7b = 81.
    a, b = _split_piles(
        a_coins=["7d", "Ad", "2d", "Fd", "Cd", "Rd"],
        a_extra=["6c", "6s", "6b"],
        b_extra=["7c", "7s", "7b", "6d"],
        a_size=22,
    )
    assert (len(a), len(b)) == (22, 18)
    assert sum(c[1] == "d" for c in a) == 6
    assert primiera_of(a) == 75 and primiera_of(b) == 81
    assert points(a, b, scopas=(1, 2)) == (4, 3)


def test_example_9_round_score() -> None:
    # A: 23 cards, 4 coins with the settebello; B: 17 cards, 6 coins, the better primiera.
    a, b = _split_piles(
        a_coins=["7d", "Ad", "2d", "3d"],
        a_extra=["6c", "6s", "6b"],
        b_extra=["7c", "7s", "7b", "6d"],
        a_size=23,
    )
    assert (len(a), len(b)) == (23, 17)
    assert sum(c[1] == "d" for c in a) == 4 and sum(c[1] == "d" for c in b) == 6
    assert primiera_of(a) < primiera_of(b)
    assert points(a, b, scopas=(1, 0)) == (3, 2)


# --------------------------------------------------------------------------------------------
# Variants and other rules
# --------------------------------------------------------------------------------------------

APT = RefRules(asso_piglia_tutto=True)


def test_no_capture_is_lay_down_and_capture_is_compulsory_per_card() -> None:
    moves = legal_moves_of(["Ac", "4b"], ["3c", "Rs"])
    # Ac captures nothing (no 1, no sum of 2+ cards makes 1); 4b captures nothing either.
    assert moves == {mv("Ac"), mv("4b")}
    moves = legal_moves_of(["3s", "4b"], ["3c", "Rs"])
    assert moves == {mv("3s", "3c"), mv("4b")}  # 3s may not be laid down; 4b may


def test_asso_piglia_tutto_sweeps_table_without_ace() -> None:
    assert legal_moves_of(["Ac"], ["3c", "5d", "Rs"], APT) == {mv("Ac", "3c", "5d", "Rs")}
    # Without the option the same ace is just laid down.
    assert legal_moves_of(["Ac"], ["3c", "5d", "Rs"]) == {mv("Ac")}


def test_asso_piglia_tutto_ace_on_table_captured_normally() -> None:
    assert legal_moves_of(["Ac"], ["Ad", "5d", "Rs"], APT) == {mv("Ac", "Ad")}
    assert legal_moves_of(["Ac"], ["Ad", "As"], APT) == {mv("Ac", "Ad"), mv("Ac", "As")}


def test_asso_piglia_tutto_ace_on_empty_table_is_lay_down() -> None:
    assert legal_moves_of(["Ac", "3b"], [], APT) == {mv("Ac"), mv("3b")}


def test_ace_sweep_scores_only_with_ace_sweep_is_scopa() -> None:
    def sweep(rules: RefRules) -> RefState:
        s = RefState(hands=[["Ac", "Rb"], ["Fs"]], table=["3c", "5d"], rules=rules)
        return s.play(mv("Ac", "3c", "5d"))

    assert sweep(APT).scopas == (0, 0)
    assert sweep(RefRules(asso_piglia_tutto=True, ace_sweep_is_scopa=True)).scopas == (1, 0)
    assert sweep(APT).piles[0] == {"Ac", "3c", "5d"}
    # Capturing the only ace on the table is a normal capture and a normal scopa.
    s = RefState(hands=[["Ac", "Rb"], ["Fs"]], table=["Ad"], rules=APT).play(mv("Ac", "Ad"))
    assert s.scopas == (1, 0)


def test_ace_sweep_on_last_play_never_scores() -> None:
    rules = RefRules(asso_piglia_tutto=True, ace_sweep_is_scopa=True)
    s = RefState(hands=[["Ac"], []], table=["3c", "5d"], dealer=0, rules=rules)
    assert s.play(mv("Ac", "3c", "5d")).scopas == (0, 0)


def test_fewest_cards() -> None:
    table = ["6c", "5s", "3b", "2d", "Ac"]
    rules = RefRules(fewest_cards=True)
    assert legal_moves_of(["Fs"], table, rules) == {mv("Fs", "6c", "2d"), mv("Fs", "5s", "3b")}
    # Single matches are unaffected.
    assert legal_moves_of(["5b"], ["5c", "3s", "2d"], rules) == {mv("5b", "5c")}


@pytest.mark.parametrize(
    ("coins", "expected"),
    [
        ([], 0),
        (["Ad", "2d"], 0),
        (["2d", "3d", "4d", "5d"], 0),  # no ace
        (["Ad", "2d", "3d"], 3),
        (["Ad", "2d", "3d", "4d"], 4),
        (["Ad", "2d", "3d", "4d", "5d"], 5),
        (["Ad", "2d", "3d", "5d", "6d"], 3),  # the sequence breaks at 4
        (["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Fd", "Cd"], 9),
        (list(DECK[:10]), 10),
    ],
)
def test_napola_lengths(coins: list[str], expected: int) -> None:
    assert napola_of(coins + ["4c", "Rs"]) == expected


def test_napola_in_round_points() -> None:
    a = ["Ad", "2d", "3d", "4d", "Fc"]
    b = ["5d", "6d", "Cs", "Rs", "2s"]
    # Carte 5-5 and denari 4-2 -> A; no settebello; primiera: nobody has all suits.
    assert points(a, b) == (1, 0)
    assert points(a, b, rules=RefRules(napola=True)) == (5, 0)


def test_re_bello() -> None:
    a = ["Rd", "3c"]
    b = ["4s", "5b"]
    # Carte tie, denari 1-0 to A.
    assert points(a, b) == (1, 0)
    assert points(a, b, rules=RefRules(re_bello=True)) == (2, 0)
    assert points(b, a, rules=RefRules(re_bello=True)) == (0, 2)


def test_primiera_zero_vs_disqualify() -> None:
    a = ["7d", "7c", "7s"]  # no bastoni: 63 under "zero"
    b = ["2d", "2c", "2s", "2b"]  # 48, all suits
    assert primiera_of(a) is None
    assert primiera_of(a, "zero") == 63
    assert primiera_of([], "zero") == 0
    # Points: carte 3-4 -> B, denari 1-1 tie, settebello -> A, primiera depends on the rule.
    assert points(a, b) == (1, 2)
    assert points(a, b, rules=RefRules(primiera_missing_suit="zero")) == (2, 1)


def test_primiera_disqualification() -> None:
    # Both disqualified: nobody scores it (carte 1-1, denari 0-0).
    assert points(["7c"], ["7s"]) == (0, 0)
    # Both qualify: the higher total wins (75 vs 65).
    assert points(["7c", "6d", "6s", "6b"], ["7s", "6c", "Fd", "Ab"]) == (1, 0)
    # Only A qualifies: A wins primiera although B's cards are stronger; B has the settebello.
    a = ["2d", "2c", "2s", "2b"]
    b = ["7d", "7c", "7s", "6c"]  # no bastoni
    assert points(a, b) == (1, 1)
    assert points(a, b, rules=RefRules(primiera_missing_suit="zero")) == (0, 2)


def test_primiera_equal_totals_give_nobody_the_point() -> None:
    a = ["7c", "6d", "5s", "4b"]  # 21+18+15+14 = 68
    b = ["7s", "6c", "5b", "4d"]  # 21+18+15+14 = 68
    assert primiera_of(a) == primiera_of(b) == 68
    assert points(a, b) == (0, 0)  # carte 4-4, denari 1-1, no settebello


def test_leftover_table_goes_to_last_capturer() -> None:
    s = RefState(hands=[["2c"], ["3s"]], table=["Rb", "5d"], last_capturer=1, to_move=0)
    s = s.play(mv("2c"))  # laid down
    s = s.play(mv("3s"))  # laid down; last play of the round
    assert s.is_over()
    assert s.table == frozenset()
    assert s.piles[1] == {"Rb", "5d", "2c", "3s"}
    assert s.scopas == (0, 0)


def test_leftover_table_with_nobody_capturing_stays() -> None:
    s = RefState(hands=[["2c"], []], table=["Rb"], dealer=0)
    s = s.play(mv("2c"))
    assert s.is_over()
    assert s.table == {"Rb", "2c"}
    assert s.piles == (frozenset(), frozenset())
    assert s.points() == (0, 0)


def test_last_play_clearing_table_is_not_a_scopa_but_earlier_is() -> None:
    s = RefState(hands=[["5c", "2s"], ["3b"]], table=["5d"], to_move=0, dealer=1)
    s = s.play(mv("5c", "5d"))
    assert s.scopas == (1, 0)  # hands not yet empty
    s = s.play(mv("3b"))
    s = s.play(mv("2s"))  # laid down on 3b: last play, no capture
    assert s.is_over()
    assert s.piles[0] == {"5c", "5d", "2s", "3b"}  # leftovers to player 0, no extra scopa
    assert s.scopas == (1, 0)


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_from_stock_non_dealer_first(dealer: int) -> None:
    stock = ("Ac", "2c", "3c", "4c", "5c", "6c", "7s", "Fs", "Cs", "Rs", "As", "2s")
    # The dealer plays last in a deal, so it holds the last card.
    hands: list[list[str]] = [[], []]
    hands[dealer] = ["Rb"]
    s = RefState(hands=hands, table=["3b"], stock=stock, to_move=dealer, dealer=dealer)
    s = s.play(mv("Rb"))
    non_dealer = 1 - dealer
    assert s.hands[non_dealer] == {"Ac", "2c", "3c"}
    assert s.hands[dealer] == {"4c", "5c", "6c"}
    rest: list = [None, None]
    rest[non_dealer], rest[dealer] = {"7s", "Fs", "Cs"}, {"Rs", "As", "2s"}
    assert s.deals == (tuple(rest),)  # the next deal: again 3 to the non-dealer, 3 to the dealer
    assert s.to_move == non_dealer
    assert s.table == {"3b", "Rb"}  # nothing is added to the table by a deal
    assert not s.is_over()


def test_construct_with_empty_hands_deals() -> None:
    stock = ("Ac", "2c", "3c", "4c", "5c", "6c")
    s = RefState(hands=[[], []], table=["3b"], stock=stock, dealer=1)
    assert s.hands == (frozenset({"Ac", "2c", "3c"}), frozenset({"4c", "5c", "6c"}))
    assert s.deals == ()


def test_invalid_positions_rejected() -> None:
    with pytest.raises(ValueError):
        RefState(hands=[["7d"], ["7d"]], table=[])
    with pytest.raises(ValueError):
        RefState(hands=[["7d"], []], table=[], stock=("Ac",))
    with pytest.raises(ValueError):
        RefState(hands=[["7d", "6d"], []], table=[], to_move=0)
    with pytest.raises(ValueError):
        RefState(hands=[["7x"], []], table=[])
    with pytest.raises(ValueError):
        RefState(hands=[["7d"], []], table=["7d"])
    three = RefRules(players=3)
    # seat 1 leads (dealer 0): seats 1 and 2 have played, seat 0 plays last in the deal
    RefState(hands=[["7d", "6d"], ["5d"], ["4d"]], dealer=0, rules=three)
    RefState(hands=[["7d"], ["5d", "6d"], ["4d"]], to_move=1, dealer=1, rules=three)
    with pytest.raises(ValueError):                                 # seat 1 has no card to play
        RefState(hands=[["7d"], [], ["4d"]], to_move=1, rules=three)
    with pytest.raises(ValueError):
        RefState(hands=[["7d"], [], []], stock=DECK[20:26], rules=three)   # 6 cards: no whole deal
    s = RefState(hands=[["7d"], []], table=["3c", "4s"])
    with pytest.raises(ValueError):
        s.play(mv("7d"))  # capture is compulsory for the 7


# --------------------------------------------------------------------------------------------
# Minimax on positions small enough to check by hand
# --------------------------------------------------------------------------------------------

def test_minimax_terminal_position() -> None:
    s = RefState(hands=[[], []], table=[], piles=[["7d", "3c"], ["4s"]], scopas=(0, 2),
                 to_move=1)
    assert s.is_over() and s.moves() == set()
    assert s.points() == (3, 2)  # carte, denari, settebello vs 2 scopas
    assert minimax(s) == 2 - 3


def test_minimax_mover_prefers_the_scopa() -> None:
    # P0 holds 5c, 2s; P1 holds Rb; table 3c, 2d; last round of the deal, empty stock.
    #  5c x 3c+2d (scopa), Rb down, 2s down -> leftovers Rb 2s to P0:
    #     P0 pile 5c 3c 2d Rb 2s: carte, denari, primiera (all suits, P1 none), scopa = 4.
    #  2s x 2d, Rb down, 5c down -> leftovers 3c Rb 5c to P0: same pile, no scopa = 3.
    s = RefState(hands=[["5c", "2s"], ["Rb"]], table=["3c", "2d"], to_move=0, dealer=1)
    assert s.moves() == {mv("5c", "3c", "2d"), mv("2s", "2d")}
    assert minimax(s) == 4
    after_scopa = s.play(mv("5c", "3c", "2d"))
    assert minimax(after_scopa) == -4
    assert minimax(s.play(mv("2s", "2d"))) == -3


def test_minimax_opponent_reply_matters() -> None:
    # P1 to move holds 4c, 3s; P0 holds 7d; table 3b.
    #  4c down: P0 takes 3b+4c with 7d (scopa), P1 lays 3s, which goes to P0 at the end:
    #     P0: carte, denari, settebello, primiera (7d 4c 3b 3s), scopa = 5 -> -5 for P1.
    #  3s x 3b (scopa), P0 lays 7d, P1 lays 4c, leftovers 7d 4c to P1:
    #     P1: carte, denari, settebello, primiera, scopa = 5 -> +5 for P1.
    s = RefState(hands=[["7d"], ["4c", "3s"]], table=["3b"], to_move=1, dealer=1)
    assert s.moves() == {mv("4c"), mv("3s", "3b")}
    assert minimax(s) == 5
    assert minimax(s.play(mv("4c"))) == 5  # P0 to move, wins by 5
    assert minimax(s.play(mv("3s", "3b"))) == -5


def test_minimax_counts_scopas_already_made() -> None:
    s = RefState(hands=[["Rb"], []], table=[], piles=[["7d"], ["Ac", "2c"]], scopas=(0, 3),
                 dealer=0, last_capturer=1)
    # Rb is laid down and goes to P1: P1 carte 3-1, scopas 3; P0 denari and settebello.
    assert minimax(s) == 2 - 4


@pytest.mark.parametrize("seed", range(5))
def test_random_full_round_conserves_cards(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    s = RefState(hands=[deck[0:3], deck[3:6]], table=deck[6:10], stock=deck[10:], dealer=1)
    plays = 0
    while not s.is_over():
        s = s.play(rng.choice(sorted(s.moves(), key=lambda m: (m[0], sorted(m[1])))))
        plays += 1
    assert plays == 36
    held = s.piles[0] | s.piles[1] | s.table
    assert held == set(DECK)
    assert (s.table == frozenset()) == (s.last_capturer is not None)
    assert sum(s.points()) >= sum(s.scopas)


# --------------------------------------------------------------------------------------------
# The worked examples of FAMILY.md: 3, 4 and 6 players, partnerships, Scopone, Scopa a 15
# --------------------------------------------------------------------------------------------

def fs(text: str) -> frozenset:
    return frozenset(text.split())


def state(rules: RefRules, hands, table="", deals=(), to_move=0, last=None) -> RefState:
    """A position of `rules` from card texts, the seat before `to_move` dealing."""
    return RefState([fs(h) for h in hands], fs(table), to_move=to_move, dealer=(to_move - 1) % rules.players,
                    last_capturer=last, rules=rules, deals=[[fs(h) for h in d] for d in deals])

def test_example_1_fifteen_needs_the_rest_of_fifteen() -> None:
    rules = RefRules(capture="fifteen")
    table = "5c 3s Fb Ad"
    assert legal_moves_of(["7d"], table.split(), rules) == {("7d", fs("Fb")), ("7d", fs("5c 3s"))}
    assert legal_moves_of(["Rb"], table.split(), rules) == {("Rb", fs("5c"))}


def test_example_2_fifteen_has_no_single_priority() -> None:
    rules = RefRules(capture="fifteen")
    assert legal_moves_of(["7c"], ["Fc", "5s", "3b"], rules) == {("7c", fs("Fc")), ("7c", fs("5s 3b"))}
    # the standard game on the same table: single match first would not apply (no 7), sums only
    assert legal_moves_of(["7c"], ["Fc", "5s", "3b"], RefRules()) == {("7c", E)}


def test_fifteen_options() -> None:
    # optional capture adds the lay-down; a card that can take nothing is laid down either way
    opt = RefRules(capture="fifteen", optional_capture=True)
    assert legal_moves_of(["7c", "Ad"], ["Fc"], opt) == {("7c", fs("Fc")), ("7c", E), ("Ad", E)}
    assert legal_moves_of(["7c"], ["Fc"], RefRules(capture="fifteen")) == {("7c", fs("Fc"))}
    # a King takes a 5, or 4 + A, or 3 + 2
    assert legal_moves_of(["Rc"], "5d 4s Ab 3c 2d".split(), RefRules(capture="fifteen")) == {
        ("Rc", fs("5d")), ("Rc", fs("4s Ab")), ("Rc", fs("3c 2d"))}
    with pytest.raises(ValueError):
        RefRules(capture="fifteen", asso_piglia_tutto=True)


def test_subset_sums_are_every_combination() -> None:
    rng = random.Random(4)
    for _ in range(100):
        table = rng.sample(DECK, rng.randrange(0, 13))
        total = rng.randrange(0, 16)
        brute = {frozenset(c) for size in range(len(table) + 1) for c in combinations(table, size)
                 if sum(ref.card_value(x) for x in c) == total}
        found = [frozenset(s) for s in ref.subsets_summing(table, total)]
        assert set(found) == brute and len(found) == len(brute)


def test_example_3_partnership_piles_are_pooled() -> None:
    deck = list(DECK)
    piles = [deck[0:14], deck[14:24], deck[24:32], deck[32:40]]     # 14, 10, 8, 8 cards
    result = score(piles, (0, 0, 0, 0), RefRules(players=4))
    assert result["cards"] == [22, 18] and result["carte"] == 0
    alone = score(piles, (0, 0, 0, 0), RefRules(players=4, partnerships=False))
    assert alone["cards"] == [14, 10, 8, 8] and alone["carte"] == 0


def test_example_4_three_players_shared_top_scores_nobody() -> None:
    coins = [c for c in DECK if c[1] == "d"]
    others = [c for c in DECK if c[1] != "d"]
    piles = [coins[:4] + others[:10], coins[4:7] + others[10:21], coins[7:] + others[21:30]]
    assert [len(p) for p in piles] == [14, 14, 12]
    result = score(piles, (0, 0, 0), RefRules(players=3))
    assert result["carte"] is None
    assert result["coins"] == [4, 3, 3] and result["denari"] == 0
    assert result["settebello"] == 1          # 7d is the second player's


def test_example_5_scientifico_leader_lays_down() -> None:
    rng = random.Random(5)
    s = ref.random_state(rng, RefRules(players=4, game="scientifico"), plays_left=40)
    assert not s.table and all(len(h) == 10 for h in s.hands) and not s.deals
    moves = s.moves()
    assert len(moves) == 10 and all(not taken for _, taken in moves)


def test_example_6_scopone_three_kings_are_dealt_again() -> None:
    kings = ["Rd", "Rc", "Rs"]
    rest = [c for c in DECK if c not in kings]
    deck = rest[:36] + kings + rest[36:]          # the table is the last 4 cards
    rules = RefRules(players=4, game="scopone")
    with pytest.raises(ValueError):
        ref.deal_round(deck, rules, dealer=3)
    ref.deal_round(deck, RefRules(players=4, game="scopone", redeal_three_kings=False), dealer=3)


def test_example_7_paranoid_margin() -> None:
    assert ref.margin_for([5, 3, 4], 2) == -1
    assert ref.margin_for([5, 3, 4], 0) == 1
    assert ref.margin_for([5, 3], 1) == -2


# --------------------------------------------------------------------------------------------
# Every game: deals, scopas, leftovers, searches
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, game, deals", [(2, "scopa", 6), (3, "scopa", 4), (4, "scopa", 3),
                                                  (6, "scopa", 2), (4, "scopone", 1), (4, "scientifico", 1)])
def test_deal_order_from_a_deck(players: int, game: str, deals: int) -> None:
    rules = RefRules(players=players, game=game)
    deck = list(DECK)
    dealer = players - 2                           # the leader is the last seat
    s = ref.deal_round(deck, rules, dealer)
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
    deck = list(DECK)
    s = ref.deal_round(deck, RefRules(), dealer=1)
    assert s.hands == (frozenset(deck[0:3]), frozenset(deck[3:6])) and s.table == frozenset(deck[6:10])
    assert s.deals[0] == (frozenset(deck[10:13]), frozenset(deck[13:16]))


def test_scopa_last_play_and_leftovers() -> None:
    rules = RefRules(players=3)
    # the very last play sweeps: no scopa; with last_sweep_counts it scores
    s = state(rules, ["", "", "7c"], "3d 4s", to_move=2, last=0)
    after = s.play(("7c", fs("3d 4s")))
    assert after.is_over() and after.scopas == (0, 0, 0) and after.piles[2] == fs("7c 3d 4s")
    s2 = state(RefRules(players=3, last_sweep_counts=True), ["", "", "7c"], "3d 4s", to_move=2, last=0)
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
    rules = RefRules(players=4, asso_piglia_tutto=True)
    s = state(rules, ["Ad 2c", "3c", "4c", "5c"], "5d 6d")
    assert s.moves() == {("Ad", fs("5d 6d")), ("2c", E)}
    assert s.play(("Ad", fs("5d 6d"))).scopas == (0, 0, 0, 0)
    counts = RefRules(players=4, asso_piglia_tutto=True, ace_sweep_is_scopa=True)
    assert state(counts, ["Ad 2c", "3c", "4c", "5c"], "5d 6d").play(("Ad", fs("5d 6d"))).scopas == (1, 0, 0, 0)
    few = RefRules(players=3, fewest_cards=True)
    assert legal_moves_of(["Fc"], "6d 5d 3c 2s Ab".split(), few) == {("Fc", fs("6d 2s")), ("Fc", fs("5d 3c"))}


def test_primiera_missing_suit_and_napola_per_side() -> None:
    piles = [["7d", "7c", "7s", "7b"], ["6d", "6c", "6s"], ["Ad", "2d", "3d", "4d"]]
    r = score(piles, (0, 0, 0), RefRules(players=3, napola=True))
    assert r["primiera"] == [84, None, None] and r["primiera_winner"] == 0
    assert r["carte"] is None                                   # 4 / 3 / 4 cards
    assert r["napola"] == [0, 0, 4] and r["points"] == [1 + 1, 0, 4 + 1]   # settebello, primiera; napola, denari
    z = score(piles, (0, 0, 0), RefRules(players=3, primiera_missing_suit="zero"))
    assert z["primiera"] == [84, 54, 16] and z["primiera_winner"] == 0
    shared = score([["7c", "6s", "Ad", "5b"], ["7s", "6c", "Ab", "5d"], []], (0, 0, 0),
                   RefRules(players=3, primiera_missing_suit="zero"))
    assert shared["primiera"] == [70, 70, 0] and shared["primiera_winner"] is None


def test_paranoid_and_maxn_on_a_small_three_player_end() -> None:
    rules = RefRules(players=3)
    # seat 0 can take the settebello with its 7 or lay down; the others only lay down
    s = state(rules, ["7c 2b", "Rs Fb", "Cs Ab"], "7d")
    values = ref.move_values(s)
    assert set(values) == s.moves()
    assert ref.minimax(s) == max(values.values())
    points, move = ref.maxn(s)
    assert points[0] == max(ref.maxn(s.play(m))[0][0] for m in s.moves())
    assert move == min((m for m in s.moves() if ref.maxn(s.play(m))[0][0] == points[0]),
                       key=ref.canonical_key)


@pytest.mark.parametrize("rules", [RefRules(), RefRules(players=3), RefRules(players=4),
                                   RefRules(players=4, partnerships=False), RefRules(players=6),
                                   RefRules(players=4, game="scopone"), RefRules(players=4, game="scientifico"),
                                   RefRules(players=3, capture="fifteen", optional_capture=True)],
                         ids=lambda r: f"{r.players}-{r.game}-{r.capture}-{r.partnerships}")
def test_random_rounds_conserve_the_deck(rules: RefRules) -> None:
    rng = random.Random(11)
    for _ in range(30):
        s = ref.random_state(rng, rules, plays_left=40 - rules.table_size())
        plays = 0
        while not s.is_over():
            assert s.cards_in_play() == 40
            assert len(s.hands[s.to_move]) == max(len(h) for h in s.hands)
            s = s.play(rng.choice(sorted(s.moves(), key=ref.canonical_key)))
            plays += 1
        assert plays == 40 - rules.table_size() and s.cards_in_play() == 40
        assert not s.table or s.last_capturer is None
