"""Tests of the reference implementation itself against the worked examples of RULES.md.

The reference (tests/reference.py) is the oracle the fast engine is compared with, so it is
pinned here to the rule book by hand-checked cases only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

try:  # works whether or not tests/ is a package
    from tests.reference import (
        ALL_CARDS, RefRules, RefState, ref_legal_moves, ref_napola, ref_primiera,
        ref_round_points,
    )
except ImportError:  # pragma: no cover - depends on how pytest set up sys.path
    from reference import (  # type: ignore[no-redef]
        ALL_CARDS, RefRules, RefState, ref_legal_moves, ref_napola, ref_primiera,
        ref_round_points,
    )


def mv(card: str, *taken: str) -> tuple[str, frozenset[str]]:
    """Move literal: ``mv("7d", "3c", "4s")`` is the text move ``7dx3c+4s``."""
    return card, frozenset(taken)


# --------------------------------------------------------------------------------------------
# Sanity of the module itself
# --------------------------------------------------------------------------------------------

def test_all_cards_order() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 40
    assert ALL_CARDS[:10] == ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Fd", "Cd", "Rd"]
    assert ALL_CARDS[10] == "Ac" and ALL_CARDS[20] == "As" and ALL_CARDS[-1] == "Rb"


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
    assert ref_legal_moves(["7s"], ["7c", "5s", "2b", "Ad"]) == {mv("7s", "7c")}


def test_example_2_sum_choices() -> None:
    table = ["6c", "5s", "3b", "2d", "Ac"]
    assert ref_legal_moves(["Fs"], table) == {
        mv("Fs", "6c", "2d"),
        mv("Fs", "5s", "3b"),
        mv("Fs", "5s", "2d", "Ac"),
    }


def test_example_3_one_of_two_matches() -> None:
    assert ref_legal_moves(["5b"], ["5c", "5s", "2d"]) == {mv("5b", "5c"), mv("5b", "5s")}


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
    assert ref_primiera(a) == 21 + 18 + 21 + 15 == 75
    assert ref_primiera(b) == 18 + 21 + 16 + 21 == 76
    # Only the primiera point is in play besides settebello (carte and denari tie at 4-4, 1-1).
    assert ref_round_points(a, b) == (1, 1)  # a: settebello, b: primiera


def test_example_7_primiera_total() -> None:
    assert ref_primiera(["7s", "6c", "Ad", "7b"]) == 21 + 18 + 16 + 21 == 76


def _split_piles(
    a_coins: list[str], a_extra: list[str], b_extra: list[str], a_size: int
) -> tuple[list[str], list[str]]:
    """Deal the 40 cards into two piles: A gets ``a_coins`` and ``a_extra`` plus filler
    non-coins up to ``a_size`` cards, B gets ``b_extra`` and everything else."""
    fixed = set(a_coins) | set(a_extra) | set(b_extra)
    filler = [c for c in ALL_CARDS if c not in fixed and c[1] != "d"]
    a = a_coins + a_extra
    a += filler[: a_size - len(a)]
    b = [c for c in ALL_CARDS if c not in a]
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
    assert ref_primiera(a) == 75 and ref_primiera(b) == 81
    assert ref_round_points(a, b, scopas=(1, 2)) == (4, 3)


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
    assert ref_primiera(a) < ref_primiera(b)
    assert ref_round_points(a, b, scopas=(1, 0)) == (3, 2)


# --------------------------------------------------------------------------------------------
# Variants and other rules
# --------------------------------------------------------------------------------------------

APT = RefRules(asso_piglia_tutto=True)


def test_no_capture_is_lay_down_and_capture_is_compulsory_per_card() -> None:
    moves = ref_legal_moves(["Ac", "4b"], ["3c", "Rs"])
    # Ac captures nothing (no 1, no sum of 2+ cards makes 1); 4b captures nothing either.
    assert moves == {mv("Ac"), mv("4b")}
    moves = ref_legal_moves(["3s", "4b"], ["3c", "Rs"])
    assert moves == {mv("3s", "3c"), mv("4b")}  # 3s may not be laid down; 4b may


def test_asso_piglia_tutto_sweeps_table_without_ace() -> None:
    assert ref_legal_moves(["Ac"], ["3c", "5d", "Rs"], APT) == {mv("Ac", "3c", "5d", "Rs")}
    # Without the option the same ace is just laid down.
    assert ref_legal_moves(["Ac"], ["3c", "5d", "Rs"]) == {mv("Ac")}


def test_asso_piglia_tutto_ace_on_table_captured_normally() -> None:
    assert ref_legal_moves(["Ac"], ["Ad", "5d", "Rs"], APT) == {mv("Ac", "Ad")}
    assert ref_legal_moves(["Ac"], ["Ad", "As"], APT) == {mv("Ac", "Ad"), mv("Ac", "As")}


def test_asso_piglia_tutto_ace_on_empty_table_is_lay_down() -> None:
    assert ref_legal_moves(["Ac", "3b"], [], APT) == {mv("Ac"), mv("3b")}


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
    assert ref_legal_moves(["Fs"], table, rules) == {mv("Fs", "6c", "2d"), mv("Fs", "5s", "3b")}
    # Single matches are unaffected.
    assert ref_legal_moves(["5b"], ["5c", "3s", "2d"], rules) == {mv("5b", "5c")}


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
        (ALL_CARDS[:10], 10),
    ],
)
def test_napola_lengths(coins: list[str], expected: int) -> None:
    assert ref_napola(coins + ["4c", "Rs"]) == expected


def test_napola_in_round_points() -> None:
    a = ["Ad", "2d", "3d", "4d", "Fc"]
    b = ["5d", "6d", "Cs", "Rs", "2s"]
    # Carte 5-5 and denari 4-2 -> A; no settebello; primiera: nobody has all suits.
    assert ref_round_points(a, b) == (1, 0)
    assert ref_round_points(a, b, rules=RefRules(napola=True)) == (5, 0)


def test_re_bello() -> None:
    a = ["Rd", "3c"]
    b = ["4s", "5b"]
    # Carte tie, denari 1-0 to A.
    assert ref_round_points(a, b) == (1, 0)
    assert ref_round_points(a, b, rules=RefRules(re_bello=True)) == (2, 0)
    assert ref_round_points(b, a, rules=RefRules(re_bello=True)) == (0, 2)


def test_primiera_zero_vs_disqualify() -> None:
    a = ["7d", "7c", "7s"]  # no bastoni: 63 under "zero"
    b = ["2d", "2c", "2s", "2b"]  # 48, all suits
    assert ref_primiera(a) is None
    assert ref_primiera(a, "zero") == 63
    assert ref_primiera([], "zero") == 0
    # Points: carte 3-4 -> B, denari 1-1 tie, settebello -> A, primiera depends on the rule.
    assert ref_round_points(a, b) == (1, 2)
    assert ref_round_points(a, b, rules=RefRules(primiera_missing_suit="zero")) == (2, 1)


def test_primiera_disqualification() -> None:
    # Both disqualified: nobody scores it (carte 1-1, denari 0-0).
    assert ref_round_points(["7c"], ["7s"]) == (0, 0)
    # Both qualify: the higher total wins (75 vs 65).
    assert ref_round_points(["7c", "6d", "6s", "6b"], ["7s", "6c", "Fd", "Ab"]) == (1, 0)
    # Only A qualifies: A wins primiera although B's cards are stronger; B has the settebello.
    a = ["2d", "2c", "2s", "2b"]
    b = ["7d", "7c", "7s", "6c"]  # no bastoni
    assert ref_round_points(a, b) == (1, 1)
    assert ref_round_points(a, b, rules=RefRules(primiera_missing_suit="zero")) == (0, 2)


def test_primiera_equal_totals_give_nobody_the_point() -> None:
    a = ["7c", "6d", "5s", "4b"]  # 21+18+15+14 = 68
    b = ["7s", "6c", "5b", "4d"]  # 21+18+15+14 = 68
    assert ref_primiera(a) == ref_primiera(b) == 68
    assert ref_round_points(a, b) == (0, 0)  # carte 4-4, denari 1-1, no settebello


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
    assert s.stock == stock[6:]
    assert s.to_move == non_dealer
    assert s.table == {"3b", "Rb"}  # nothing is added to the table by a deal
    assert not s.is_over()


def test_construct_with_empty_hands_deals() -> None:
    stock = ("Ac", "2c", "3c", "4c", "5c", "6c")
    s = RefState(hands=[[], []], table=["3b"], stock=stock, dealer=1)
    assert s.hands == (frozenset({"Ac", "2c", "3c"}), frozenset({"4c", "5c", "6c"}))
    assert s.stock == ()


def test_invalid_positions_rejected() -> None:
    with pytest.raises(ValueError):
        RefState(hands=[["7d"], ["7d"]], table=[])
    with pytest.raises(ValueError):
        RefState(hands=[["7d"], []], table=[], stock=("Ac",))
    with pytest.raises(ValueError):
        RefState(hands=[["7d", "6d"], []], table=[], to_move=0)
    with pytest.raises(ValueError):
        RefState(hands=[["7x"], []], table=[])
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
    assert s.minimax() == 2 - 3


def test_minimax_mover_prefers_the_scopa() -> None:
    # P0 holds 5c, 2s; P1 holds Rb; table 3c, 2d; last round of the deal, empty stock.
    #  5c x 3c+2d (scopa), Rb down, 2s down -> leftovers Rb 2s to P0:
    #     P0 pile 5c 3c 2d Rb 2s: carte, denari, primiera (all suits, P1 none), scopa = 4.
    #  2s x 2d, Rb down, 5c down -> leftovers 3c Rb 5c to P0: same pile, no scopa = 3.
    s = RefState(hands=[["5c", "2s"], ["Rb"]], table=["3c", "2d"], to_move=0, dealer=1)
    assert s.moves() == {mv("5c", "3c", "2d"), mv("2s", "2d")}
    assert s.minimax() == 4
    after_scopa = s.play(mv("5c", "3c", "2d"))
    assert after_scopa.minimax() == -4
    assert s.play(mv("2s", "2d")).minimax() == -3


def test_minimax_opponent_reply_matters() -> None:
    # P1 to move holds 4c, 3s; P0 holds 7d; table 3b.
    #  4c down: P0 takes 3b+4c with 7d (scopa), P1 lays 3s, which goes to P0 at the end:
    #     P0: carte, denari, settebello, primiera (7d 4c 3b 3s), scopa = 5 -> -5 for P1.
    #  3s x 3b (scopa), P0 lays 7d, P1 lays 4c, leftovers 7d 4c to P1:
    #     P1: carte, denari, settebello, primiera, scopa = 5 -> +5 for P1.
    s = RefState(hands=[["7d"], ["4c", "3s"]], table=["3b"], to_move=1, dealer=1)
    assert s.moves() == {mv("4c"), mv("3s", "3b")}
    assert s.minimax() == 5
    assert s.play(mv("4c")).minimax() == 5  # P0 to move, wins by 5
    assert s.play(mv("3s", "3b")).minimax() == -5


def test_minimax_counts_scopas_already_made() -> None:
    s = RefState(hands=[["Rb"], []], table=[], piles=[["7d"], ["Ac", "2c"]], scopas=(0, 3),
                 dealer=0, last_capturer=1)
    # Rb is laid down and goes to P1: P1 carte 3-1, scopas 3; P0 denari and settebello.
    assert s.minimax() == 2 - 4


@pytest.mark.parametrize("seed", range(5))
def test_random_full_round_conserves_cards(seed: int) -> None:
    import random

    rng = random.Random(seed)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    s = RefState(hands=[deck[0:3], deck[3:6]], table=deck[6:10], stock=deck[10:], dealer=1)
    plays = 0
    while not s.is_over():
        s = s.play(rng.choice(sorted(s.moves(), key=lambda m: (m[0], sorted(m[1])))))
        plays += 1
    assert plays == 36
    held = s.piles[0] | s.piles[1] | s.table
    assert held == set(ALL_CARDS)
    assert (s.table == frozenset()) == (s.last_capturer is not None)
    assert sum(s.points()) >= sum(s.scopas)
