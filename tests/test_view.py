"""A player's view for every game of the family: construction, notation, validation, and the
worlds consistent with it.

Every game (two-player Scopa, 3 players, 4 in partnerships, 4 each for themselves, 6 in two
teams, Scopone, scientifico, Scopa a 15 for two and four players): views round trip and keep
what the seat knows; bad views are refused with one clear error each; world counts equal the
multinomial closed form and the enumeration; sampled worlds agree with the view. Two-player
Scopa adds many random positions to the fixed ones of every game, exact world counts of known
views, and a chi-square test of the sampling over all 140 worlds of a small view (with a fixed
seed); a 3-player view has its own chi-square test. (suggest on the family's views:
tests/test_pimc.py; the bots: tests/test_bots.py.)"""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from helpers import few_worlds, games, played, random_positions

from scopa_solver import (DuplicateCardError, NotationError, Position, Rules, ScopaError, View,
                          ViewError)
from scopa_solver.core import worlds as world_math
from scopa_solver.core.cards import cards_text, iter_cards, popcount

# player 1 (the non-dealer, to move) holds 7sCs; player 0 holds one hidden card; a stock of 6
SMALL = "?/7sCs 5dAc6b 2dFd2c4c3sFsRsAb2b4bRb/Ad4dCdRd5c6c7cCcRc4s5s6s3b5b7bFbCb ?6 0/1 1 1 1"
# the start of the last-but-one deal, player 0 (the non-dealer) to move: 84 x 20 worlds
LAST_BUT_ONE = "6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1"

GAMES = games("scopa", "3 players", "4 players", "4 alone", "6 players", "scopone", "scientifico", "scopa a 15",
              more={"4 players, a 15": Rules(players=4, capture="fifteen")})


def positions(count: int, seed: int, **kw) -> list[Position]:
    """Two-player Scopa positions along random rounds."""
    return list(random_positions(count, seed, **kw))


def multinomial(view: View) -> int:
    """The world count built from binomials: each hidden hand, then each deal's 3-card parts."""
    left = sum(view.hidden_hands) + view.stock_cards
    count = 1
    for size in [c for p, c in enumerate(view.hidden_hands) if p != view.player] \
            + [3] * (view.rules.players * view.deals_left):
        count *= math.comb(left, size)
        left -= size
    assert left == 0
    return count


# --------------------------------------------------------------------------------------------
# Construction and notation
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(GAMES))
def test_views_round_trip_and_keep_what_the_seat_knows(name: str) -> None:
    rules = GAMES[name]
    cases = [played(rules, seed, plays) for seed, plays in ((1, 0), (2, 5), (3, 13), (4, 30), (5, 40))]
    if name == "scopa":       # and many random positions, with a rule variant and a target
        cases += positions(40, 2) + [Position.new_round(seed=5, rules=Rules(napola=True, target=21))]
    for pos in cases:
        for seat in range(rules.players):
            view = pos.view(seat)
            text = view.to_string()
            back = View.from_string(text)
            assert back == view and back.to_string() == text and hash(back) == hash(view)
            assert View.from_dict(view.to_dict()) == view
            assert eval(repr(view), {"View": View}) == view
            assert view == View.from_position(pos, seat)
            assert "?" in text or (sum(view.hidden_hands) == 0 and view.stock_cards == 0)
            # what the seat knows and nothing more: its hand, counts of every other hand
            assert view.player == seat and view.hand == pos.hands[seat]
            assert view.hidden_hands == tuple(0 if p == seat else popcount(h) for p, h in enumerate(pos.hands))
            if rules.players == 2:
                assert view.opponent_cards == popcount(pos.hands[1 - seat])
            assert view.stock_cards == len(pos.stock) and view.deals_left == pos.deals_left
            assert (view.table, view.piles, view.scopas) == (pos.table, pos.piles, pos.scopas)
            assert (view.to_move, view.dealer, view.last_capturer) == (pos.to_move, pos.dealer, pos.last_capturer)
            others = sum(h for p, h in enumerate(pos.hands) if p != seat) | sum(c.mask for c in pos.stock)
            assert view.unseen == others
            # the seat's moves and sweeps, as the position has them, need no hidden card
            if view.is_my_turn():
                assert view.legal_moves() == pos.legal_moves()
                assert [view.is_scopa(m) for m in pos.legal_moves()] == [pos.is_scopa(m) for m in pos.legal_moves()]
            elif not view.is_round_over():
                with pytest.raises(ViewError, match="is to move: their hand is hidden from player"):
                    view.legal_moves()
            hands = text.split()[0].split("/")
            assert len(hands) == rules.players and hands[seat] == cards_text(pos.hands[seat])
            for p, part in enumerate(hands):     # every other hand written ?N (or - when empty)
                if p != seat:
                    assert part == ("-" if not view.hidden_hands[p] else
                                    "?" if view.hidden_hands[p] == 1 else f"?{view.hidden_hands[p]}")


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


def test_partners_do_not_see_each_other() -> None:
    pos = Position.new_round(seed=8, rules=Rules(players=4, game="scopone"))
    view = pos.view(0)
    assert view.to_string().split()[0].split("/")[2] == "?9"        # seat 2, the partner
    assert view.unseen & pos.hands[2] == pos.hands[2]


def test_keyword_views_and_their_readings() -> None:
    v = View(1, hand="7c Rs", table="3d 4c Ab Cs 5s 2b", dealer=2, rules=Rules(players=3))
    assert (v.hidden_hands, v.to_move, v.stock_cards) == ((2, 0, 3), 2, 27)
    # Scopone: 36 cards dealt, the counts follow from the own hand and the turn
    v = View(0, hand="Ad 2d 3d 4d 5d 6d 7d Fd Cd", table="Ac 2c 3c 4c", dealer=3,
             rules=Rules(players=4, game="scopone"))
    assert (v.hidden_hands, v.stock_cards, v.to_move) == ((0, 9, 9, 9), 0, 0)
    assert v.count_worlds() == math.factorial(27) // math.factorial(9) ** 3
    explicit = View(0, hand="Ad 2d 3d 4d 5d 6d 7d Fd Cd", table="Ac 2c 3c 4c", dealer=3,
                    rules=Rules(players=4, game="scopone"), hidden_hands=(0, 9, 9, 9))
    assert explicit == v


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
    # the family's: wrong field counts
    ("?3/?3/7c2s3s 7dAc5s7s -/- ?27 0/0/0 0 2 - players=3", NotationError, "capture piles must be three parts"),
    ("?3/7c2s3s 7dAc5s7s -/-/- ?27 0/0/0 0 2 - players=3", NotationError, "hands must be three parts"),
    ("?3/?3/7c2s3s 7dAc5s7s -/-/- ?27 0/0 0 2 - players=3", NotationError, "scopas must be three parts"),
    ("?3/?3/?3/7c2s3s 7dAc5s7s -/-/-/- ?24 0/0/0/0 0 3 - players=4 game=scopone", ViewError,
     "at most 0 remain"),
    # impossible hidden counts
    ("?3/?3/7c2s3s 7dAc5s7s -/-/- ?24 0/0/0 0 2 - players=3", ViewError, "add up to 37 cards"),
    ("?3/?/7c2s3s 7dAc5s7s4d5d -/-/- ?27 0/0/0 0 2 - players=3", ViewError, "cannot occur with seat 2 dealing"),
    ("?3/?3/?3/7c2s3s 7dAc5s -/-/-/- ?25 0/0/0/0 0 3 - players=4", ViewError, "deals of 3 for each of 4"),
    ("?10/?10/?9/2d3dAc2c7cRc2sCs3b4b - -/-/-/- ?1 0/0/0/0 0 2 - players=4 game=scientifico",
     ViewError, "does not split into deals of 3"),
    # cards missing, duplicated, shown where they are hidden
    ("?9/2d3dRdAc2c7cRc2s3b/?9/?9 Cd6c5b -/-/-/- - 0/0/0/0 0 3 - players=4 game=scopone", ViewError,
     "add up to 39 cards"),
    ("?3/?3/7c2s3s 7d7cAc5s -/-/- ?27 0/0/0 0 2 - players=3", DuplicateCardError, "7c is in hand and table"),
    ("?3/4d??/7c2s3s 7dAc5s7s -/-/- ?27 0/0/0 0 2 - players=3", ViewError,
     "every other hand as hidden cards"),
    ("?3/?3/7c2s3s 7dAc5s7s -/-/- 5d?????????????????????????? 0/0/0 0 2 - players=3", ViewError, "the stock is hidden in a view"),
    ("?3/?3/7c2s3s 7dAc5s7s -/-/- ?27 0/0/0 0 2 - players=3 view=0", ViewError, "view=0: seat 0's hand"),
]


@pytest.mark.parametrize("text, error, message", BAD_VIEWS)
def test_bad_views_one_clear_error_each(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message) as info:
        View.from_string(text)
    assert issubclass(error, ScopaError) and issubclass(error, ValueError)
    assert isinstance(info.value, ScopaError) and "\n" not in str(info.value)


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
    # the family's
    scopone = Rules(players=4, game="scopone")
    with pytest.raises(ViewError, match="hidden_hands gives seat 0 9 hidden cards"):
        View(0, hand="Ad 2d 3d 4d 5d 6d 7d Fd Cd", table="Ac 2c 3c 4c", rules=scopone, hidden_hands=(9, 9, 9, 9))
    with pytest.raises(ViewError, match="one per seat, 4 in all"):
        View(0, hand="Ad 2d 3d 4d 5d 6d 7d Fd Cd", table="Ac 2c 3c 4c", rules=scopone, hidden_hands=(0, 9, 9))
    with pytest.raises(ViewError, match="give every hidden hand's count"):
        View(0, hand="Ad", rules=scopone, opponent_cards=9)
    with pytest.raises(ViewError, match="player must be 0, 1, 2 or 3"):
        View(4, hand="Ad", rules=scopone)
    with pytest.raises(ViewError, match="that is the player's own hand"):
        View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", hidden_hands=(3, 3))
    assert View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", hidden_hands=(0, 3)) == \
        View(0, hand="7c Rs 4b", table="3d 4c Ab Cs", opponent_cards=3)
    with pytest.raises(ViewError, match=r"no deal of the game \(Scopone\)"):
        View(0, hand="Ad 2d", table="Ac", rules=scopone)


def test_a_position_short_of_cards_has_no_view() -> None:
    pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    with pytest.raises(ViewError, match="holds 6 cards"):
        pos.view(0)
    with pytest.raises(ViewError, match="player must be 0 or 1"):
        Position.new_round(seed=1).view(2)


# --------------------------------------------------------------------------------------------
# Worlds
# --------------------------------------------------------------------------------------------

def test_world_counts_of_known_views() -> None:
    assert View.from_string(LAST_BUT_ONE).count_worlds() == 84 * 20 == 1680
    assert View.from_string(SMALL).count_worlds() == 7 * 20 == 140
    start = Position.new_round(seed=1).view(0)
    assert start.count_worlds() == math.factorial(33) // (6 * 6 ** 10)


@pytest.mark.parametrize("name", list(GAMES))
def test_world_counts_are_the_multinomial(name: str) -> None:
    rules = GAMES[name]
    cases = [played(rules, seed, plays) for seed, plays in ((1, 0), (2, 7), (3, 20))]
    if name == "scopa":
        cases += positions(40, 5)
    for pos in cases:
        for seat in range(rules.players):
            view = pos.view(seat)
            assert view.count_worlds() == multinomial(view) == world_math.count(view.group_sizes())


@pytest.mark.parametrize("name", list(GAMES))
def test_enumeration_is_complete_distinct_canonical_and_consistent(name: str) -> None:
    pos = few_worlds(GAMES[name], 11, most=400)
    cases = [(pos.view(pos.to_move), pos)]
    if name == "scopa":
        cases += [(View.from_string(text), None) for text in (SMALL, LAST_BUT_ONE)]
        cases += [(p.view(p.to_move), p) for p in positions(10, 6, deals_left=0)
                  + positions(5, 7, deals_left=1, cards_in_hands=3)]
    for view, pos in cases:
        listed = list(view.worlds())
        assert len(listed) == view.count_worlds() == len(set(listed))      # distinct
        for world in listed:
            assert world.view(view.player) == view
            for seat in range(view.rules.players):
                if seat != view.player:
                    assert popcount(world.hands[seat]) == view.hidden_hands[seat]
            for i in range(0, len(world.stock), 3):   # canonical: each 3-card part in card order
                part = world.stock[i:i + 3]
                assert list(part) == sorted(part)
        if pos is not None:
            # the real position is one of them, up to the order inside each 3-card part
            canon = [tuple(sorted(pos.stock[i:i + 3])) for i in range(0, len(pos.stock), 3)]
            assert any([tuple(w.stock[i:i + 3]) for i in range(0, len(w.stock), 3)] == canon
                       and w.hands == pos.hands for w in listed)


@pytest.mark.parametrize("name", list(GAMES))
def test_sampled_worlds_are_consistent_and_reproducible(name: str) -> None:
    rules = GAMES[name]
    views = [played(rules, 6, 5).view(1)]
    if name == "scopa":
        views += [pos.view(pos.to_move) for pos in positions(10, 8)]
    for view in views:
        sample = view.sample_worlds(20, seed=9)
        assert len(sample) == 20
        assert [w.to_string() for w in sample] == [w.to_string() for w in view.sample_worlds(20, seed=9)]
        if view.count_worlds() > 1:
            assert len({w.to_string() for w in sample}) > 1
        for world in sample:
            assert world.view(view.player) == view
            assert world.hands[view.player] == view.hand and len(world.stock) == view.stock_cards
        assert view.sample_worlds(0, seed=1) == []
        with pytest.raises(ValueError):
            view.sample_worlds(-1)


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


def test_family_sampling_is_uniform() -> None:
    # a 3-player view with 20 worlds: 4,000 draws, every world about 200 times (chi-square, 19 dof)
    pos = few_worlds(Rules(players=3), 2, most=40)
    view = pos.view(pos.to_move)
    total = view.count_worlds()
    counts = Counter(view.sample_groups(200 * total, seed=5))
    assert set(counts) == set(view.enumerate_groups())
    expected = 200
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 3 * total          # the 99.99% quantile of chi-square(dof ~ total) is well under this


def test_the_same_seed_gives_the_same_worlds_everywhere() -> None:
    # Python's Mersenne Twister and shuffle are specified: a pinned world guards the order
    view = Position.new_round(seed=3, rules=Rules(players=4)).view(2)
    first = view.sample_worlds(1, seed=1)[0]
    assert first.to_string().split()[0] == "3d3cAs/7s4bFb/4cFs6b/6dFdRc"


def test_world_builds_a_consistent_position_or_says_why_not() -> None:
    view = View.from_string(SMALL)
    hidden = [str(c) for c in iter_cards(view.unseen)]
    world = view.world(hidden[0], hidden[1:])
    assert world.view(1) == view and world.stock == tuple(world.stock)
    with pytest.raises(ViewError, match="not hidden"):
        view.world("7s", hidden[1:])
    with pytest.raises(ViewError, match="hides 1 opponent cards"):
        view.world(hidden[:2], hidden[2:])


def test_named_worlds_of_the_family() -> None:
    pos = few_worlds(Rules(players=3), 4, most=400)
    view = pos.view(pos.to_move)
    hands = [None if p == view.player else list(iter_cards(h)) for p, h in enumerate(pos.hands)]
    world = view.world(hands, pos.stock)
    assert world == pos
    with pytest.raises(ViewError, match="one per seat"):
        view.world(hands[:2], pos.stock)
    other = next(p for p in range(3) if p != view.player and pos.hands[p])
    hands[other] = list(iter_cards(view.hand))[:len(hands[other])]
    with pytest.raises(ViewError, match="is not hidden from player"):
        view.world(hands, pos.stock)


def test_views_of_three_players_and_of_scopa_a_15():
    # issue 15: every game has views (the tests above take them in depth)
    pos = Position.new_round(seed=3, rules=Rules(players=3))
    assert pos.view(2).to_string().startswith("?3/?3/")
    view = View.from_string("?3/?3/7c2s3s 7dAc5s7s -/-/- ?27 0/0/0 0 2 - players=3")
    assert view.player == 2 and view.hidden_hands == (3, 3, 0)
    with pytest.raises(ViewError, match=r"39 cards are hidden .* no deal of the game \(Scopa a 15\)"):
        View(0, hand="7c", rules=Rules(capture="fifteen"))
