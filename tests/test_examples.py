"""The worked examples of RULES.md and FAMILY.md through the package API, and the basic value types.

Examples 1-10 of the rule book are turned into positions of the package (Position, legal_moves,
play, is_scopa, round_score, play_match), and so are examples 1-7 of FAMILY.md (Scopa a 15,
partnerships, three players, scientifico, Scopone's three kings, the paranoid value). The second
half pins the documented card spellings, canonical printing, repr round trips, ordering and
hashing of Card, Move, Position and Rules.
"""
from __future__ import annotations

import copy
import pickle
import random
from types import SimpleNamespace

import pytest

import scopa_solver.play.game as game
from helpers import VARIANTS
from scopa_solver import Card, Move, Position, Rules, RoundScore, play_match, solve
from scopa_solver.core import flow
from scopa_solver.core.cards import DECK, KINGS_MASK, iter_cards, popcount


def card_set(mask: int) -> set[str]:
    return {str(c) for c in iter_cards(mask)}


def captures_with(pos: Position, card: str) -> set[frozenset[str]]:
    """The capture sets of every legal move that plays `card`."""
    return {frozenset(str(c) for c in m.captures) for m in pos.legal_moves() if str(m.card) == card}


def finished(pile0: str, pile1: str, scopas=(0, 0), rules: Rules = Rules()) -> Position:
    """A finished round whose capture piles are pile0 and pile1 (player 0 captured last)."""
    return Position(hands=((), ()), captured=(pile0, pile1), scopas=scopas, last_capturer=0, rules=rules)


# --------------------------------------------------------------------------------------------
# Examples 1-5: captures and scopas
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", list(VARIANTS))
def test_example_1_single_match_priority(variant: str) -> None:
    pos = Position(hands=("7s", "Rb"), table="7c 5s 2b Ad", dealer=1, rules=VARIANTS[variant])
    assert captures_with(pos, "7s") == {frozenset({"7c"})}   # not 5s+2b, not a lay-down
    after = pos.play("7sx7c")
    assert card_set(after.table) == {"5s", "2b", "Ad"}
    assert card_set(after.piles[0]) == {"7s", "7c"}


def test_example_2_sum_choices() -> None:
    pos = Position(hands=("Fs", "Rb"), table="6c 5s 3b 2d Ac", dealer=1)
    assert captures_with(pos, "Fs") == {
        frozenset({"6c", "2d"}), frozenset({"5s", "3b"}), frozenset({"5s", "2d", "Ac"})}
    # only one of them is taken: the other table cards stay
    after = pos.play("Fsx6c+2d")
    assert card_set(after.table) == {"5s", "3b", "Ac"}
    assert card_set(after.piles[0]) == {"Fs", "6c", "2d"}
    assert after.scopas == (0, 0)


def test_example_2_under_fewest_cards_keeps_only_the_two_card_sums() -> None:
    pos = Position(hands=("Fs", "Rb"), table="6c 5s 3b 2d Ac", dealer=1, rules=Rules(fewest_cards=True))
    assert captures_with(pos, "Fs") == {frozenset({"6c", "2d"}), frozenset({"5s", "3b"})}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_example_3_one_of_two_matches(variant: str) -> None:
    pos = Position(hands=("5b", "Rb"), table="5c 5s 2d", dealer=1, rules=VARIANTS[variant])
    assert captures_with(pos, "5b") == {frozenset({"5c"}), frozenset({"5s"})}
    after = pos.play("5bx5s")
    assert card_set(after.table) == {"5c", "2d"}
    assert card_set(after.piles[0]) == {"5b", "5s"}


def test_example_4_scopa_mid_round() -> None:
    pos = Position(hands=("7c Rb", "Fs 2c"), table="3c 4s", dealer=1)
    assert pos.is_scopa("7cx3c+4s")
    after = pos.play("7cx3c+4s")
    assert after.table == 0
    assert after.scopas == (1, 0)
    assert card_set(after.piles[0]) == {"7c", "3c", "4s"}
    assert after.last_capturer == 0
    # the next player faces an empty table and can only lay a card down
    assert all(not m.is_capture for m in after.legal_moves())


def test_example_4_no_scopa_on_the_last_play_of_the_round() -> None:
    # the dealer holds the last card of the last deal
    pos = Position(hands=("7c", ()), table="3c 4s", dealer=0)
    assert pos.to_move == 0
    assert not pos.is_scopa("7cx3c+4s")
    after = pos.play("7cx3c+4s")
    assert after.is_round_over()
    assert after.scopas == (0, 0)
    assert card_set(after.piles[0]) == {"7c", "3c", "4s"}
    assert after.table == 0


def test_example_4_last_play_of_an_earlier_deal_scores() -> None:
    pos = Position(hands=("7c", ()), table="3c 4s", stock="Ab 2b 3b 4b 5b 6b", dealer=0)
    assert pos.is_scopa("7cx3c+4s")
    after = pos.play("7cx3c+4s")
    assert after.scopas == (1, 0)
    # the next deal: three to the non-dealer (player 1), three to the dealer; non-dealer to move
    assert card_set(after.hands[1]) == {"Ab", "2b", "3b"}
    assert card_set(after.hands[0]) == {"4b", "5b", "6b"}
    assert after.stock == () and after.to_move == 1
    assert not after.is_round_over()


def test_example_5_single_match_then_scopa() -> None:
    pos = Position(hands=("5c 5b Fd", "Rb 4d 6s"), table="3c 5d Rs 2b", dealer=1)
    assert pos.to_move == 0
    assert captures_with(pos, "5c") == {frozenset({"5d"})}      # not 3c+2b
    pos = pos.play("5cx5d")
    assert pos.to_move == 1
    assert captures_with(pos, "Rb") == {frozenset({"Rs"})}
    pos = pos.play("RbxRs")
    assert card_set(pos.table) == {"3c", "2b"}
    assert captures_with(pos, "5b") == {frozenset({"3c", "2b"})}
    assert pos.is_scopa("5bx3c+2b")
    pos = pos.play("5bx3c+2b")
    assert pos.table == 0
    assert pos.scopas == (1, 0)
    assert card_set(pos.piles[0]) == {"5c", "5d", "5b", "3c", "2b"}
    assert card_set(pos.piles[1]) == {"Rb", "Rs"}


# --------------------------------------------------------------------------------------------
# Examples 6-9: scoring
# --------------------------------------------------------------------------------------------

def test_example_6_primiera_75_against_76() -> None:
    score = finished("7d 6c 7b 5s", "6d 7c Ab 7s").round_score()
    assert score.players[0].primiera == 21 + 18 + 21 + 15 == 75
    assert score.players[1].primiera == 18 + 21 + 16 + 21 == 76
    assert score.primiera == 1


def test_example_7_primiera_76() -> None:
    score = finished("7s 6c Ad 7b", "Rd").round_score()
    assert score.players[0].primiera == 21 + 18 + 16 + 21 == 76
    assert score.players[1].primiera is None      # no cup, sword or baton card: disqualified
    assert score.primiera == 0


# Example 8: A (player 0) has 22 cards, 6 coins with the settebello and 1 scopa; B (player 1) has
# the better primiera (6d 7c 7s 7b = 81 against A's 7d Ac As Ab = 69) and 2 scopas.
EX8_A = "Ad 2d 3d 4d 5d 7d " + " ".join(r + s for s in "csb" for r in "A2345") + " Fc"
EX8_B = "6d Fd Cd Rd 6c 7c Cc Rc 6s 7s Fs Cs Rs 6b 7b Fb Cb Rb"


def example_8_score() -> RoundScore:
    return finished(EX8_A, EX8_B, scopas=(1, 2)).round_score()


def test_example_8_four_points_against_three() -> None:
    score = example_8_score()
    a, b = score.players
    assert (a.cards, a.coins, a.settebello, a.scopas) == (22, 6, True, 1)
    assert (b.cards, b.coins, b.settebello, b.scopas) == (18, 4, False, 2)
    assert (a.primiera, b.primiera) == (69, 81)
    assert (score.carte, score.denari, score.settebello, score.primiera) == (0, 0, 0, 1)
    assert score.total == (4, 3)
    assert score.margin(0) == 1 and score.margin(1) == -1


def test_example_9_three_points_against_two() -> None:
    a_pile = "7d Fd Cd Rd " + " ".join(r + s for s in "csb" for r in "A23456") + " Fc"
    b_pile = "Ad 2d 3d 4d 5d 6d 7c Cc Rc 7s Fs Cs Rs 7b Fb Cb Rb"
    score = finished(a_pile, b_pile, scopas=(1, 0)).round_score()
    a, b = score.players
    assert (a.cards, a.coins, a.settebello) == (23, 4, True)
    assert (b.cards, b.coins, b.settebello) == (17, 6, False)
    assert (a.primiera, b.primiera) == (21 + 18 + 18 + 18, 18 + 21 + 21 + 21)
    assert (score.carte, score.denari, score.settebello, score.primiera) == (0, 1, 0, 1)
    assert score.total == (3, 2)


# --------------------------------------------------------------------------------------------
# Example 10: the match tie rule
# --------------------------------------------------------------------------------------------

def scripted_rounds(monkeypatch, totals: list) -> list:
    """Make play_match's rounds score `totals` in order; return the positions it dealt."""
    dealt = []
    scripted = iter(totals)

    def fake_play_round(position, chooser0, chooser1):
        dealt.append(position)
        score = next(scripted)
        if not isinstance(score, RoundScore):
            score = SimpleNamespace(total=score)
        return game.RoundResult(start=position, final=position, moves=[], score=score)

    monkeypatch.setattr(game, "play_round", fake_play_round)
    return dealt


def never_called(pos):  # the scripted rounds never ask a chooser
    raise AssertionError("chooser called")


def test_example_10_tie_at_the_target_plays_another_round(monkeypatch) -> None:
    # 9-10, then the 4-3 round of example 8: 13-13, nobody has won; the next round decides
    dealt = scripted_rounds(monkeypatch, [(9, 10), example_8_score(), (0, 1)])
    result = play_match(never_called, never_called, rules=Rules(target=11), seed=3)
    assert [r.score.total for r in result.rounds] == [(9, 10), (4, 3), (0, 1)]
    assert result.totals == (13, 14)
    assert result.winner == 1
    assert [p.dealer for p in dealt] == [1, 0, 1]


def test_example_10_repeated_ties_keep_the_match_going(monkeypatch) -> None:
    scripted_rounds(monkeypatch, [(9, 10), (4, 3), (1, 1), (2, 0)])
    result = play_match(never_called, never_called, rules=Rules(target=11), seed=3)
    assert len(result.rounds) == 4
    assert result.totals == (16, 14) and result.winner == 0


def test_example_10_both_past_the_target_higher_total_wins(monkeypatch) -> None:
    scripted_rounds(monkeypatch, [(9, 10), (4, 2)])
    result = play_match(never_called, never_called, rules=Rules(target=11), seed=3)
    assert len(result.rounds) == 2
    assert result.totals == (13, 12) and result.winner == 0


# --------------------------------------------------------------------------------------------
# FAMILY.md, examples 1-7: the other games
# --------------------------------------------------------------------------------------------

def moves_of(pos, card):
    return {m for m in pos.legal_moves() if m.card == Card.parse(card)}


def finished_round(piles, scopas, last, rules, dealer=0):
    n = rules.players
    return Position(hands=("",) * n, captured=piles, scopas=scopas, dealer=dealer, last_capturer=last, rules=rules)


def test_family_md_example_1_scopa_a_15_takes_sets_making_15():
    pos = Position(hands=("7d Rb", "2c 4s"), table="5c 3s 8b Ad", dealer=1, rules=Rules(capture="fifteen"))
    assert moves_of(pos, "7d") == {Move.parse("7dxFb"), Move.parse("7dx5c+3s")}
    assert moves_of(pos, "Rb") == {Move.parse("Rbx5c")}
    assert {str(m) for m in pos.legal_moves()} == {"7dxFb", "7dx5c+3s", "Rbx5c"}   # compulsory capture


def test_family_md_example_2_scopa_a_15_has_no_single_priority():
    pos = Position(hands=("7c", "2b"), table="8c 5s 3b", dealer=1, rules=Rules(capture="fifteen"))
    assert moves_of(pos, "7c") == {Move.parse("7cxFc"), Move.parse("7cx5s+3b")}
    # the same table in standard Scopa: 7c takes nothing (no 7, no two cards making 7)
    assert [str(m) for m in Position(hands=("7c", "2b"), table="8c 5s 3b", dealer=1).legal_moves()] == ["7c"]


def test_family_md_example_2b_optional_capture_adds_the_lay_down():
    pos = Position(hands=("7c", "2b"), table="8c 5s 3b", dealer=1,
                   rules=Rules(capture="fifteen", optional_capture=True))
    assert moves_of(pos, "7c") == {Move.parse("7cxFc"), Move.parse("7cx5s+3b"), Move.parse("7c")}


def test_family_md_example_3_partnerships_pool_their_piles():
    rules = Rules(players=4)
    piles = (DECK[0:14], DECK[14:24], DECK[24:32], DECK[32:40])        # 14, 10, 8, 8 cards
    score = finished_round(piles, (0, 0, 0, 0), 0, rules).round_score()
    assert score.seat_sides == (0, 1, 0, 1)
    assert [s.cards for s in score.sides] == [22, 18]
    assert score.carte == 0
    assert len(score.total) == 2


def test_family_md_example_4_three_players_ties_give_nobody_the_point():
    rules = Rules(players=3)
    coins, others = DECK[:10], DECK[10:]
    piles = (coins[0:4] + others[0:10], coins[4:7] + others[10:21], coins[7:10] + others[21:30])
    score = finished_round(piles, (0, 0, 0), 0, rules).round_score()
    assert [s.cards for s in score.sides] == [14, 14, 12]
    assert [s.coins for s in score.sides] == [4, 3, 3]
    assert score.carte is None
    assert score.denari == 0
    assert score.settebello == 1 and score.sides[1].settebello


def test_family_md_example_5_scientifico_leader_can_only_lay_down():
    for seed in range(5):
        pos = Position.new_round(seed=seed, rules=Rules(players=4, game="scientifico"))
        assert pos.table == 0 and pos.hand_sizes() == (10, 10, 10, 10) and not pos.stock
        moves = pos.legal_moves()
        assert len(moves) == 10 and not any(m.is_capture for m in moves)
        assert pos.to_move == (pos.dealer + 1) % 4


def test_family_md_example_6_scopone_three_kings_are_dealt_again():
    rules = Rules(players=4, game="scopone")
    table = flow.deal_slices(3, rules)[-2]
    assert table == slice(36, 40)
    kings = [c for c in DECK if c.rank == 10]
    deck = [c for c in DECK if c not in kings[:3]]
    deck = deck[:36] + kings[:3] + deck[36:]
    assert flow.redeal_needed(deck[table], rules)
    assert not flow.redeal_needed(deck[table], Rules(players=4, game="scopone", redeal_three_kings=False))
    # a seed whose first shuffle puts 3 kings on the table is shuffled again
    for seed in range(20000):
        first = list(DECK)
        random.Random(seed).shuffle(first)
        if flow.redeal_needed(first[table], rules):
            break
    else:  # pragma: no cover
        pytest.fail("no seed with three kings on the table")
    dealt = flow.shuffled_deck(seed, rules)
    assert dealt != first and not flow.redeal_needed(dealt[table], rules)
    assert flow.shuffled_deck(seed, Rules(players=4, game="scopone", redeal_three_kings=False)) == first
    start = Position.new_round(seed, rules)
    assert start.is_round_start() and popcount(start.table & KINGS_MASK) < 3


def _paranoid_end(dealer, rules=Rules(players=3)):
    """A last play (Rb on an empty table) after which the points are 5 / 3 / 4: seat 0 has
    every category and 1 scopa, seat 1 three scopas, seat 2 four."""
    last = dealer          # the dealer plays the round's last card
    hands = ["", "", ""]
    hands[last] = "Rb"
    rest = [c for c in DECK if str(c) not in ("Rb", "Fs", "Cs", "Fc", "Cc")]
    return Position(hands=tuple(hands), captured=(rest, "Fs Cs", "Fc Cc"), scopas=(1, 3, 4), dealer=dealer,
                    last_capturer=0, rules=rules)


def test_family_md_example_7_paranoid_value():
    for dealer in (2, 0):
        pos = _paranoid_end(dealer)
        assert pos.to_move == dealer
        result = solve(pos)
        assert result.points == (5, 3, 4)
        assert result.outcome.total == (5, 3, 4)
        expected = {2: 4 - 5, 0: 5 - 4}[dealer]
        assert result.value == expected
        assert result.outcome.margin(dealer) == expected
        assert solve(pos, objective="maxn").value == (4 if dealer == 2 else 5)


# --------------------------------------------------------------------------------------------
# Cards: spellings, canonical text, repr, ordering, hashing
# --------------------------------------------------------------------------------------------

CANONICAL = [r + s for s in "dcsb" for r in "A234567FCR"]
SUIT_SPELLINGS = {"d": ("d", "D", "♦"), "c": ("c", "C", "♥"),
                  "s": ("s", "S", "♠"), "b": ("b", "B", "♣")}
FIGURE_LETTERS = {8: "J", 9: "Q", 10: "K"}


def spellings(canonical: str) -> list[str]:
    value = "A234567FCR".index(canonical[0]) + 1
    ranks = [canonical[0], str(value)] + ([FIGURE_LETTERS[value]] if value in FIGURE_LETTERS else [])
    return [r + s for r in ranks for s in SUIT_SPELLINGS[canonical[1]]]


@pytest.mark.parametrize("canonical", CANONICAL)
def test_card_parses_every_accepted_spelling(canonical: str) -> None:
    card = Card.parse(canonical)
    assert str(card) == canonical
    assert card.index == CANONICAL.index(canonical)
    for text in spellings(canonical):
        parsed = Card.parse(text)
        assert parsed == card and parsed is card, text
        assert str(parsed) == canonical


@pytest.mark.parametrize("text, canonical", [
    ("10S", "Rs"), ("K♣", "Rb"), ("Q♥", "Cc"), ("J♦", "Fd"), ("1b", "Ab"), ("8s", "Fs"),
    ("9C", "Cc"), ("7♦", "7d"), (" 7d ", "7d"), ("Ac", "Ac"), ("Rd", "Rd"),
])
def test_card_spelling_examples(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


def test_card_values_and_primiera_follow_the_rule_book() -> None:
    primiera = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10}
    for text in CANONICAL:
        card = Card.parse(text)
        assert card.value == card.rank == "A234567FCR".index(text[0]) + 1
        assert card.suit == text[1]
        assert card.primiera == primiera[text[0]]


def test_deck_is_the_40_cards_in_index_order() -> None:
    assert [str(c) for c in DECK] == CANONICAL
    assert [c.index for c in DECK] == list(range(40))
    assert Card(6) is Card.parse("7d")


def test_card_repr_pastes_back() -> None:
    for card in DECK:
        assert eval(repr(card), {"Card": Card}) is card


def test_card_ordering_is_suit_then_rank() -> None:
    shuffled = [DECK[(i * 17) % 40] for i in range(40)]
    assert sorted(shuffled) == list(DECK)
    assert Card.parse("Rd") < Card.parse("Ac")          # coins come first
    assert Card.parse("Ab") > Card.parse("Rs")
    assert Card.parse("2c") <= Card.parse("2c") and Card.parse("2c") >= Card.parse("2c")
    assert max(DECK) == Card.parse("Rb") and min(DECK) == Card.parse("Ad")
    with pytest.raises(TypeError):
        Card.parse("7d") < "8d"


def test_card_hashing_and_copies() -> None:
    spelled = {Card.parse(t) for t in spellings("7d")}
    assert spelled == {Card.parse("7d")}
    assert len({c for c in DECK} | set(DECK)) == 40
    lookup = {Card.parse("Rb"): "re"}
    assert lookup[Card.parse("K♣")] == "re"
    assert pickle.loads(pickle.dumps(Card.parse("Cs"))) is Card.parse("Cs")
    assert copy.deepcopy(Card.parse("Cs")) is Card.parse("Cs")
    assert Card.parse("7d") != "7d"


# --------------------------------------------------------------------------------------------
# Moves, positions and rules: repr, equality, hashing
# --------------------------------------------------------------------------------------------

def test_move_text_is_canonical_and_capture_order_free() -> None:
    a, b = Move.parse("7dx3c+4s"), Move.parse("7♦x4S+3c")
    assert a == b and hash(a) == hash(b)
    assert str(a) == str(b) == "7dx3c+4s"
    assert len({a, b}) == 1
    assert str(Move.parse("K♣")) == "Rb" and not Move.parse("Rb").is_capture
    assert Move.parse("7dx3c+4s") != Move.parse("7dx3c")


@pytest.mark.parametrize("text", ["7d", "7dx3c+4s", "Fsx2d+Ac+5s", "RbxRs", "Adx2c+3c+4s+Cb"])
def test_move_repr_pastes_back(text: str) -> None:
    move = Move.parse(text)
    again = eval(repr(move), {"Move": Move})
    assert again == move and str(again) == text


def test_legal_moves_repr_paste_back_in_a_position() -> None:
    pos = Position(hands=("5c 5b Fd", "Rb 4d 6s"), table="3c 5d Rs 2b", dealer=1)
    for move in pos.legal_moves():
        assert eval(repr(move), {"Move": Move}) == move
        assert Move.parse(str(move), pos) == move


@pytest.mark.parametrize("rules", [
    Rules(), Rules(napola=True), Rules(target=21), Rules(primiera_missing_suit="zero"),
    Rules(redeal_three_kings=False), Rules(asso_piglia_tutto=True, ace_sweep_is_scopa=True, re_bello=True,
                                           napola=True, fewest_cards=True, target=1),
])
def test_rules_and_position_repr_paste_back(rules: Rules) -> None:
    assert eval(repr(rules), {"Rules": Rules}) == rules
    assert hash(eval(repr(rules), {"Rules": Rules})) == hash(rules)
    pos = Position.new_round(seed=11, rules=rules)     # a stock, then piles after two plays
    pos = pos.play(pos.legal_moves()[0])
    pos = pos.play(pos.legal_moves()[-1])
    again = eval(repr(pos), {"Position": Position})
    assert again == pos and hash(again) == hash(pos)
    assert again.rules == rules


def test_position_equality_ignores_how_cards_were_written() -> None:
    a = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    b = Position(hands=(["2♥", "7♦"], [Card.parse("4c"), "3B"]), table="4s3s", dealer=1, to_move=0)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1, rules=Rules(napola=True))
    assert a != a.play("7dx3s+4s")


def test_position_defaults_to_the_side_the_hand_sizes_imply() -> None:
    assert Position(hands=("7d 2c", "3b 4c"), dealer=1).to_move == 0
    assert Position(hands=("7d 2c", "3b 4c"), dealer=0).to_move == 1
    assert Position(hands=("7d", "3b 4c"), dealer=1).to_move == 1
