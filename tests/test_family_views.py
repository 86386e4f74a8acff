"""Views, worlds, suggest and bots for every game of the family (issue 15, items 1-4).

Every game: two-player Scopa, 3 players, 4 in partnerships, 4 each for themselves, 6 (two teams
of three), Scopone, Scopone scientifico and Scopa a 15 (two and four players). For each: view
notation round trips; bad views refused with one clear error each; a bot given two worlds with
the same view plays the same move (no hidden card leaks); world counts equal the multinomial
closed form and the enumeration; sampled worlds agree with the view; and the exhaustive
`suggest` means equal the average over the worlds of exact values computed independently
(each world built as a Position from its cards and solved with `analyze`)."""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from scopa_solver import (DuplicateCardError, GreedyBot, LimitError, Move, NotationError, OracleBot, PIMCBot,
                          Position, RandomBot, Rules, ScopaError, View, ViewError, analyze, solve,
                          suggest)
from scopa_solver.core.cards import DECK, card_list, iter_cards, popcount
from scopa_solver.core import worlds as world_math
from scopa_solver.play.inference import InferenceBot
from scopa_solver.play.bots import PhaseBot

from helpers import games

GAMES = games("scopa", "3 players", "4 players", "4 alone", "6 players", "scopone", "scientifico", "scopa a 15",
              more={"4 players, a 15": Rules(players=4, capture="fifteen")})
FAMILY = [name for name in GAMES if name != "scopa"]


def played(rules: Rules, seed: int, plays: int) -> Position:
    """A round of `rules` after `plays` random moves (fewer if the round ends first)."""
    rng = random.Random(seed)
    pos = Position.new_round(seed=seed, rules=rules)
    for _ in range(plays):
        if pos.is_round_over():
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def small(rules: Rules, seed: int, most: int = 300) -> Position:
    """A position of `rules` (not over) whose mover's view has at most `most` worlds."""
    rng = random.Random(seed)
    for attempt in range(200):
        pos = Position.new_round(seed=seed * 1000 + attempt, rules=rules)
        while not pos.is_round_over():
            view = pos.view(pos.to_move)
            if 1 < view.count_worlds() <= most and len(view.legal_moves()) > 1:
                return pos
            pos = pos.play(rng.choice(pos.legal_moves()))
    raise AssertionError("no small position found")


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
# Views: notation, data, equality
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(GAMES))
def test_views_round_trip_for_every_seat(name: str) -> None:
    rules = GAMES[name]
    for seed, plays in ((1, 0), (2, 5), (3, 13), (4, 30), (5, 40)):
        pos = played(rules, seed, plays)
        for seat in range(rules.players):
            view = pos.view(seat)
            text = view.to_string()
            assert View.from_string(text) == view and View.from_string(text).to_string() == text
            assert View.from_dict(view.to_dict()) == view
            assert eval(repr(view), {"View": View}) == view
            assert hash(View.from_string(text)) == hash(view) and view == View.from_position(pos, seat)
            # what the seat knows and nothing more: its hand, counts of every other hand
            assert view.hand == pos.hands[seat]
            assert view.hidden_hands == tuple(0 if p == seat else popcount(h) for p, h in enumerate(pos.hands))
            assert view.stock_cards == len(pos.stock) and view.deals_left == pos.deals_left
            assert (view.table, view.piles, view.scopas) == (pos.table, pos.piles, pos.scopas)
            assert (view.to_move, view.dealer, view.last_capturer) == (pos.to_move, pos.dealer, pos.last_capturer)
            others = sum(h for p, h in enumerate(pos.hands) if p != seat) | sum(c.mask for c in pos.stock)
            assert view.unseen == others
            if view.is_my_turn():        # the seat's moves and sweeps, as the position has them
                assert view.legal_moves() == pos.legal_moves()
                assert [view.is_scopa(m) for m in pos.legal_moves()] == [pos.is_scopa(m) for m in pos.legal_moves()]
            elif not view.is_round_over():
                with pytest.raises(ViewError, match="hidden from player"):
                    view.legal_moves()
            hands = text.split()[0].split("/")
            assert len(hands) == rules.players
            for p, part in enumerate(hands):     # every other hand written ?N (or - when empty)
                if p != seat:
                    assert part == ("-" if not view.hidden_hands[p] else
                                    "?" if view.hidden_hands[p] == 1 else f"?{view.hidden_hands[p]}")


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


BAD = [
    # wrong field counts
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


@pytest.mark.parametrize("text, error, message", BAD)
def test_bad_views_one_clear_error_each(text: str, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        View.from_string(text)
    assert isinstance(info.value, ScopaError) and "\n" not in str(info.value)
    if message:
        assert message in str(info.value)


def test_bad_keyword_views() -> None:
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
    with pytest.raises(ViewError, match="no deal of scopone"):
        View(0, hand="Ad 2d", table="Ac", rules=scopone)


# --------------------------------------------------------------------------------------------
# Worlds
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(GAMES))
def test_world_counts_are_the_multinomial(name: str) -> None:
    rules = GAMES[name]
    for seed, plays in ((1, 0), (2, 7), (3, 20)):
        pos = played(rules, seed, plays)
        for seat in range(rules.players):
            view = pos.view(seat)
            assert view.count_worlds() == multinomial(view) == world_math.count(view.group_sizes())


@pytest.mark.parametrize("name", list(GAMES))
def test_enumeration_matches_the_count_and_the_view(name: str) -> None:
    pos = small(GAMES[name], 11, most=400)
    view = pos.view(pos.to_move)
    listed = list(view.worlds())
    assert len(listed) == view.count_worlds() == len(set(listed))
    assert pos in listed or any(w.hands == pos.hands and w.view(view.player) == view for w in listed)
    for world in listed:
        assert world.view(view.player) == view
        for seat in range(view.rules.players):
            if seat != view.player:
                assert popcount(world.hands[seat]) == view.hidden_hands[seat]


@pytest.mark.parametrize("name", list(GAMES))
def test_sampled_worlds_are_consistent_and_reproducible(name: str) -> None:
    rules = GAMES[name]
    view = played(rules, 6, 5).view(1)
    a = view.sample_worlds(20, seed=9)
    assert [w.to_string() for w in a] == [w.to_string() for w in view.sample_worlds(20, seed=9)]
    assert len({w.to_string() for w in a}) > 1
    for world in a:
        assert world.view(1) == view
        assert world.hands[1] == view.hand and len(world.stock) == view.stock_cards


def test_family_sampling_is_uniform() -> None:
    # a 3-player view with 20 worlds: 4,000 draws, every world about 200 times (chi-square, 19 dof)
    pos = small(Rules(players=3), 2, most=40)
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


def test_named_worlds_of_the_family() -> None:
    pos = small(Rules(players=3), 4, most=400)
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


# --------------------------------------------------------------------------------------------
# suggest
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(GAMES))
def test_exhaustive_suggest_is_the_world_average_of_exact_values(name: str) -> None:
    rules = GAMES[name]
    for seed in (21, 22):
        pos = small(rules, seed, most=120)
        view = pos.view(pos.to_move)
        s = suggest(view, worlds="all", progress=False, threads=1)
        assert s.exact and s.worlds == s.total_worlds == view.count_worlds()
        sums: Counter = Counter()
        for world in view.worlds():      # every world as a Position, solved on its own
            for row in analyze(world):
                sums[str(row.move)] += row.value
        means = {str(m.move): m.mean for m in s.moves}
        assert means.keys() == sums.keys()
        for move, total in sums.items():
            assert means[move] == pytest.approx(total / view.count_worlds())
        assert s.moves[0].mean == max(means.values())


def test_sampled_suggest_for_every_family_game_is_reproducible() -> None:
    for name in FAMILY:
        pos = played(GAMES[name], 3, 30 if GAMES[name].game != "scopa" else 4)
        if pos.is_round_over():
            continue
        view = pos.view(pos.to_move)
        a = suggest(view, worlds=6, seed=4, progress=False, threads=1)
        b = suggest(view, worlds=6, seed=4, progress=False, threads=2)
        assert a.to_dict()["moves"] == b.to_dict()["moves"] and a.seed == 4
        assert {str(m) for m in view.legal_moves()} == {str(m.move) for m in a.moves}


def test_big_worlds_are_searched_to_a_horizon_within_the_budget() -> None:
    view = Position.new_round(seed=5, rules=Rules(players=4, game="scientifico")).view(0)
    s = suggest(view, worlds=4, seed=1, progress=False, threads=1, max_nodes=20_000)
    assert not s.exact and s.exact_worlds == 0 and s.horizon is not None and s.horizon >= 4
    assert s.world_horizons == [s.horizon] * 4 and s.values.shape[0] == 4
    assert s.to_dict()["horizon"] == s.horizon and s.to_dict()["exact_worlds"] == 0
    assert f"horizon of {s.horizon}+ plies" in str(s)
    # the same worlds, each searched alone at the horizon each reached, give the same means
    deeper = suggest(view, worlds=4, seed=1, progress=False, threads=1, max_nodes=20_000, horizon=s.horizon)
    assert [m.mean for m in deeper.moves] == [m.mean for m in s.moves]
    with pytest.raises(LimitError, match="more than max_nodes=100 nodes even to a horizon of 4 plies"):
        suggest(view, worlds=4, seed=1, progress=False, threads=1, max_nodes=100)
    with pytest.raises(LimitError, match="horizon must be"):
        suggest(view, worlds=4, seed=1, progress=False, threads=1, horizon=-1)
    with pytest.raises(LimitError, match="horizon search is for the family games"):
        suggest(Position.new_round(seed=5).view(0), worlds=4, horizon=4, progress=False)


def test_horizon_suggestions_do_not_depend_on_threads_or_warm_tables() -> None:
    view = Position.new_round(seed=7, rules=Rules(players=4, game="scopone")).view(0)
    runs = [suggest(view, worlds=6, seed=3, progress=False, threads=t, max_nodes=30_000).to_dict()
            for t in (1, 2, 1)]
    assert runs[0]["horizon"] is not None
    for run in runs[1:]:
        assert run["moves"] == runs[0]["moves"] and run["horizon"] == runs[0]["horizon"]


def test_time_limit_and_confidence_for_the_family() -> None:
    view = Position.new_round(seed=4, rules=Rules(players=3)).view(0)
    s = suggest(view, worlds=100_000, seed=1, progress=False, threads=1, time_limit=1.0, max_nodes=20_000)
    assert s.stopped == "time" and 0 < s.worlds < 100_000 and not s.exact
    pos = small(Rules(players=4), 5, most=2000)
    c = suggest(pos.view(pos.to_move), worlds=1000, seed=1, progress=False, threads=1, confidence=2.0)
    assert c.worlds <= 1000 and (c.stopped == "confidence" or c.worlds == min(1000, c.total_worlds))


def test_late_family_worlds_are_exact_and_say_so() -> None:
    pos = small(Rules(players=4, game="scientifico"), 3, most=2000)
    s = suggest(pos.view(pos.to_move), worlds=10, seed=2, progress=False, threads=1)
    assert s.exact_worlds == s.worlds and s.horizon is None
    assert s.world_horizons == [None] * s.worlds


# --------------------------------------------------------------------------------------------
# Bots
# --------------------------------------------------------------------------------------------

def twin_worlds(view: View, seed: int) -> tuple[Position, Position]:
    """Two different worlds with the same view."""
    worlds = view.sample_worlds(30, seed=seed)
    a = worlds[0]
    b = next(w for w in worlds if w.hands != a.hands)
    return a, b


@pytest.mark.parametrize("name", list(GAMES))
def test_views_leak_nothing_to_the_bots(name: str) -> None:
    rules = GAMES[name]
    cheap = name in ("scopa", "3 players", "4 players", "6 players", "scopa a 15")     # worlds within the node budget from the start
    for seed, plays in ((1, 0), (2, 6), (3, 25)):
        pos = played(rules, seed, plays)
        if pos.is_round_over():
            continue
        view = pos.view(pos.to_move)
        a, b = twin_worlds(view, seed)
        assert a.view(view.player) == b.view(view.player) == view
        # PIMC early in the big games: its worlds to a horizon, the tables warm from the last call
        budget = None if cheap or plays >= 25 else 20_000
        bots = [RandomBot(seed=7), GreedyBot(), PIMCBot(worlds=4, seed=2, threads=1, max_nodes=budget)]
        for bot in bots:
            assert bot(a) == bot(b) == bot.choose(view), bot


def test_greedy_weighs_the_next_seat_by_side() -> None:
    bot = GreedyBot()
    lay = Move.parse("5c")
    unseen = sum(c.mask for c in card_list("6d 6c 2b 3s"))
    table = sum(c.mask for c in card_list("Ac"))
    cost = bot.move_score(lay, table, scopa=False, unseen=unseen, next_hand=2)
    gain = bot.move_score(lay, table, scopa=False, unseen=unseen, next_hand=2, next_is_partner=True)
    plain = bot.move_score(lay, table, scopa=False, unseen=unseen, next_hand=0)
    assert cost < plain < gain and gain - plain == pytest.approx(plain - cost)
    # at the table: four players, seat 0 to move, the next seat (an opponent) may hold the 6d;
    # laying 5c leaves Ac+5c = 6 for it to sweep, laying 4d leaves 5 and every 5 is seen
    hands = ("5c 4d", "6d 2b", "3c 3s", "Rb Rs")
    rest = [c for c in DECK if str(c) not in " ".join(hands) + " Ac"]
    pos = Position(hands=hands, table="Ac", captured=(rest, (), (), ()), last_capturer=0, dealer=3,
                   rules=Rules(players=4))
    scores = {str(m): score for m, score in bot.scores(pos.view(0))}
    assert scores["5c"] < scores["4d"] and str(bot(pos)) == "4d"
    assert scores["5c"] == pytest.approx(-0.02 * DECK[14].primiera - 8.0 / 3)


def test_greedy_sweeps_to_fifteen_in_scopa_a_15() -> None:
    bot = GreedyBot()
    lay = Move.parse("5c")
    table = sum(c.mask for c in card_list("3d"))            # 5c on 3d leaves 8: a 7 sweeps to 15
    sevens = sum(c.mask for c in card_list("7d 7s 2b"))
    eights = sum(c.mask for c in card_list("8d 8s 2b"))
    assert bot.move_score(lay, table, False, sevens, 3, fifteen=True) < bot.move_score(lay, table, False, sevens, 3)
    assert bot.move_score(lay, table, False, eights, 3, fifteen=True) > bot.move_score(lay, table, False, eights, 3)


def test_oracle_and_phase_bots_play_the_family() -> None:
    pos = small(Rules(players=4), 3, most=2000)
    assert OracleBot()(pos) == solve(pos).best_moves[0]
    bot = PhaseBot(GreedyBot(), RandomBot(seed=1), late_deals=1)
    start = Position.new_round(seed=1, rules=Rules(players=4))
    assert bot(start) == GreedyBot()(start)          # 2 deals left in the stock: early
    assert bot(pos) == (RandomBot(seed=1) if pos.deals_left < 1 else GreedyBot())(pos)
    last = played(Rules(players=4), 5, 26)          # the last deal: the late bot plays
    assert last.deals_left == 0 and bot(last) == RandomBot(seed=1)(last)


def test_a_whole_round_of_every_game_with_mixed_bots() -> None:
    for name, rules in GAMES.items():
        pos = Position.new_round(seed=2, rules=rules)
        bots = [GreedyBot(), RandomBot(seed=3)] * 3
        while not pos.is_round_over():
            pos = pos.play(bots[pos.to_move](pos))
        assert pos.is_round_over() and sum(map(popcount, pos.piles)) == 40


def test_the_opponent_model_is_two_player_only() -> None:
    pos = Position.new_round(seed=3, rules=Rules(players=4))
    with pytest.raises(ViewError, match="two-player Scopa only"):
        InferenceBot(worlds=4)(pos)
