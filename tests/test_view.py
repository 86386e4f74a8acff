"""A player's view: construction, notation, validation, and the worlds consistent with it.

World counts are checked against combinatorics, enumeration against the count and against the
view (every world looks the same to the player), and sampling for consistency, reproducibility
and uniformity (a chi-square test over all 140 worlds of a small view, with a fixed seed)."""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from helpers import random_positions

from scopa_solver import (DuplicateCardError, NotationError, Position, Rules, ScopaError, View,
                          ViewError)
from scopa_solver.core.cards import cards_text, iter_cards

# player 1 (the non-dealer, to move) holds 7sCs; player 0 holds one hidden card; a stock of 6
SMALL = "?/7sCs 5dAc6b 2dFd2c4c3sFsRsAb2b4bRb/Ad4dCdRd5c6c7cCcRc4s5s6s3b5b7bFbCb ?6 0/1 1 1 1"
# the start of the last-but-one deal, player 0 (the non-dealer) to move: 84 x 20 worlds
LAST_BUT_ONE = "6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1"


def positions(count: int, seed: int, **kw) -> list[Position]:
    return list(random_positions(count, seed, **kw))


def multinomial(view: View) -> int:
    """The world count built from binomials: the opponent's hand, then each 3-card part."""
    left = view.opponent_cards + view.stock_cards
    count = math.comb(left, view.opponent_cards)
    left -= view.opponent_cards
    for _ in range(2 * view.deals_left):
        count *= math.comb(left, 3)
        left -= 3
    return count


# --------------------------------------------------------------------------------------------
# Construction and notation
# --------------------------------------------------------------------------------------------

def test_view_of_a_position_keeps_what_the_player_knows() -> None:
    for pos in positions(30, 1):
        for player in (0, 1):
            view = pos.view(player)
            assert view.player == player and view.hand == pos.hands[player]
            assert (view.table, view.piles, view.scopas) == (pos.table, pos.piles, pos.scopas)
            assert (view.to_move, view.dealer, view.last_capturer) == (pos.to_move, pos.dealer, pos.last_capturer)
            assert view.opponent_cards == bin(pos.hands[1 - player]).count("1")
            assert view.stock_cards == len(pos.stock) and view.deals_left == pos.deals_left
            assert view.unseen == pos.hands[1 - player] | sum(c.mask for c in pos.stock)
            assert view == View.from_position(pos, player)


def test_notation_round_trips() -> None:
    for pos in positions(40, 2) + [Position.new_round(seed=5, rules=Rules(napola=True, target=21))]:
        for player in (0, 1):
            view = pos.view(player)
            text = view.to_string()
            assert "?" in text or (view.opponent_cards == 0 and view.stock_cards == 0)
            back = View.from_string(text)
            assert back == view and back.to_string() == text and hash(back) == hash(view)
            assert eval(repr(view), {"View": View}) == view
            own = text.split()[0].split("/")[player]
            assert own == cards_text(pos.hands[player])


def test_finished_round_names_the_player_when_needed() -> None:
    pos = Position.new_round(seed=3)
    rng = random.Random(0)
    while not pos.is_round_over():
        pos = pos.play(rng.choice(pos.legal_moves()))
    for player in (0, 1):
        view = pos.view(player)
        assert view.is_round_over() and view.legal_moves() == [] and view.count_worlds() == 1
        assert View.from_string(view.to_string()) == view
    other = 1 - pos.to_move
    assert f"view={other}" in pos.view(other).to_string()
    assert "view=" not in pos.view(pos.to_move).to_string()


def test_keyword_constructor_matches_the_position() -> None:
    pos = positions(1, 3, deals_left=2)[0]
    p = pos.to_move
    view = View(p, hand=list(map(str, iter_cards(pos.hands[p]))), table=cards_text(pos.table),
                captured=(pos.piles[0], pos.piles[1]), scopas=pos.scopas, dealer=pos.dealer,
                last_capturer=pos.last_capturer, rules=pos.rules)
    assert view == pos.view(p)
    explicit = View(p, hand=pos.hands[p], table=pos.table, captured=pos.piles, scopas=pos.scopas,
                    to_move=pos.to_move, dealer=pos.dealer, last_capturer=pos.last_capturer,
                    opponent_cards=bin(pos.hands[1 - p]).count("1"), stock_cards=len(pos.stock))
    assert explicit == view


def test_legal_moves_and_scopa_do_not_need_the_hidden_cards() -> None:
    for pos in positions(40, 4):
        view = pos.view(pos.to_move)
        assert view.legal_moves() == pos.legal_moves()
        for move in pos.legal_moves():
            assert view.is_scopa(move) == pos.is_scopa(move)
        if not pos.is_round_over():
            with pytest.raises(ViewError, match="is to move"):
                pos.view(1 - pos.to_move).legal_moves()


# --------------------------------------------------------------------------------------------
# Bad views
# --------------------------------------------------------------------------------------------

BAD_VIEWS = [
    # counts that do not add up to 40
    ("7cRs4b/?3 3d4cAb -/- ?30 0/0 0 1 -", ViewError, "add up to 39"),
    ("7cRs4b/?2 3d4cAbCs -/- ?30 0/0 0 1 -", ViewError, "add up to 39"),
    ("7cRs4b/?3 3d4cAbCs -/- ?24 0/0 0 1 -", ViewError, "add up to 34"),
    # the opponent's hand with a known card, both hands hidden, a known stock card
    ("7cRs4b/Cd?? 3d4cAbCs -/- ?30 0/0 0 1 -", ViewError, "own hand"),
    ("?3/?3 3d4cAbCs -/- ?30 0/0 0 1 -", ViewError, "own hand"),
    ("7cRs4b/?3 3d4cAbCs -/- 5d????? 0/0 0 1 -", ViewError, "stock is hidden"),
    # sizes, turn, stock length
    ("7cRs4bCd/?2 3d4cAbCs -/- ?30 0/0 0 1 -", ViewError, "at most 3"),
    ("7cRs4b/?3 3d4cAbCs -/- ?30 0/0 1 1 -", ViewError, "player 0's turn"),
    ("7c/?3 3d4cAbCsCdRd -/- ?30 0/0 0 1 -", ViewError, "cannot occur"),
    ("7cRs4b/?3 3d4cAbCs5c2s6d -/- ?27 0/0 0 1 -", ViewError, "deals of 3 \\+ 3"),
    # piles, scopas, last capturer
    ("7cRs4b/?3 3d4c AbCs/- ?30 0/0 0 1 -", ViewError, "last_capturer"),
    ("7cRs4b/?3 3d4c AbCs/- ?30 0/1 0 1 0", ViewError, "scopa"),
    ("7cRs4b/?3 3d4c AbCs/- ?30 0/0 0 1 1", ViewError, "captured nothing"),
    # duplicates and unreadable text
    ("7cRs4b/?3 3d4c7cCs -/- ?30 0/0 0 1 -", DuplicateCardError, "7c"),
    ("7cRs4b/?3 3d4cAbCs -/- ?30 0/0 0 1", NotationError, "8"),
    ("7cRs4b/?3 3d4cAbCs -/- ?30 0/0 0 1 - view=1", ViewError, "view=1"),
]


@pytest.mark.parametrize("text, error, message", BAD_VIEWS)
def test_bad_views_are_rejected(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        View.from_string(text)
    assert issubclass(error, ScopaError) and issubclass(error, ValueError)


def test_bad_keyword_views_are_rejected() -> None:
    with pytest.raises(ViewError, match="34 cards are hidden"):
        View(0, hand="7c Rs 4b", table="3d 4c 5s")
    with pytest.raises(ViewError, match="player must be 0 or 1"):
        View(2, hand="7c Rs 4b", table="3d 4c Ab Cs")
    with pytest.raises(ViewError, match="rules"):
        View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", rules="napola")  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="opponent_cards"):
        View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", opponent_cards=-1)
    with pytest.raises(ViewError, match="add up to 46"):
        View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", opponent_cards=3, stock_cards=36)
    with pytest.raises(DuplicateCardError, match="7c is in hand and table"):
        View(0, hand="7c Rs 4b", table="7c 4c Ab Cs")


def test_a_position_short_of_cards_has_no_view() -> None:
    pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    with pytest.raises(ViewError, match="holds 6 cards"):
        pos.view(0)
    with pytest.raises(ViewError, match="player must be 0 or 1"):
        Position.new_round(seed=1).view(2)


# --------------------------------------------------------------------------------------------
# Worlds
# --------------------------------------------------------------------------------------------

def test_world_counts_match_combinatorics() -> None:
    assert View.from_string(LAST_BUT_ONE).count_worlds() == 84 * 20 == 1680
    assert View.from_string(SMALL).count_worlds() == 7 * 20 == 140
    start = Position.new_round(seed=1).view(0)
    assert start.count_worlds() == math.factorial(33) // (6 * 6 ** 10)
    for pos in positions(40, 5):
        for player in (0, 1):
            view = pos.view(player)
            assert view.count_worlds() == multinomial(view)


def test_enumeration_is_complete_distinct_canonical_and_consistent() -> None:
    for text in (SMALL, LAST_BUT_ONE):
        view = View.from_string(text)
        worlds = list(view.worlds())
        assert len(worlds) == view.count_worlds()
        assert len({w.to_string() for w in worlds}) == len(worlds)
        for w in worlds:
            assert w.view(view.player) == view
            for i in range(0, len(w.stock), 3):   # canonical: each 3-card part in card order
                part = w.stock[i:i + 3]
                assert list(part) == sorted(part)
    for pos in positions(10, 6, deals_left=0) + positions(5, 7, deals_left=1, cards_in_hands=3):
        view = pos.view(pos.to_move)
        worlds = list(view.worlds())
        assert len(worlds) == view.count_worlds()
        # the real position is one of them, up to the order inside each 3-card part
        canon = [tuple(sorted(pos.stock[i:i + 3])) for i in range(0, len(pos.stock), 3)]
        assert any([tuple(w.stock[i:i + 3]) for i in range(0, len(w.stock), 3)] == canon
                   and w.hands == pos.hands for w in worlds)


def test_sampled_worlds_are_consistent_and_reproducible() -> None:
    for pos in positions(10, 8):
        view = pos.view(pos.to_move)
        sample = view.sample_worlds(20, seed=3)
        assert len(sample) == 20
        assert all(w.view(view.player) == view for w in sample)
        assert [w.to_string() for w in sample] == [w.to_string() for w in view.sample_worlds(20, seed=3)]
    assert View.from_string(SMALL).sample_worlds(0, seed=1) == []
    with pytest.raises(ValueError):
        View.from_string(SMALL).sample_worlds(-1)


def test_sampled_worlds_are_pinned_across_machines() -> None:
    """random.Random(seed) is the same on every platform: pin one draw."""
    view = View.from_string(LAST_BUT_ONE)
    first = view.sample_worlds(1, seed=42)[0]
    assert first.view(0) == view
    again = View.from_string(LAST_BUT_ONE).sample_worlds(1, seed=42)[0]
    assert first == again


def test_sampling_is_uniform_over_the_canonical_worlds() -> None:
    view = View.from_string(SMALL)
    per_world = 60
    n = view.count_worlds() * per_world
    counts = Counter(w.to_string() for w in view.sample_worlds(n, seed=2024))
    assert set(counts) == {w.to_string() for w in view.worlds()}   # every world is reachable
    chi2 = sum((c - per_world) ** 2 / per_world for c in counts.values())
    # 139 degrees of freedom: the 0.1% critical value is about 196
    assert chi2 < 196, chi2
    # and each unseen card lands in the opponent's hand 1 time in 7
    marginal = Counter()
    for w in view.sample_worlds(7000, seed=7):
        marginal[cards_text(w.hands[0])] += 1
    assert len(marginal) == 7
    assert all(abs(c - 1000) < 4 * math.sqrt(1000 * 6 / 7) for c in marginal.values())


def test_world_builds_a_consistent_position_or_says_why_not() -> None:
    view = View.from_string(SMALL)
    hidden = [str(c) for c in iter_cards(view.unseen)]
    world = view.world(hidden[0], hidden[1:])
    assert world.view(1) == view and world.stock == tuple(world.stock)
    with pytest.raises(ViewError, match="not hidden"):
        view.world("7s", hidden[1:])
    with pytest.raises(ViewError, match="hides 1 opponent cards"):
        view.world(hidden[:2], hidden[2:])
