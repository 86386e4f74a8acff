"""Where the hidden cards are (`View.where_unseen`): exact against the worlds counted one by one,
the opponent model's chances as the inference module weighs its hands, consistent sums, every
game of the family, and never a word about the hidden cards themselves."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

from scopa_solver import GreedyBot, InferenceBot, Position, Rules, Limit
from scopa_solver.core.cards import RANKS, SUITS, iter_cards
from scopa_solver.errors import ViewError
from scopa_solver.play.game import random_position
from scopa_solver.play.inference import hand_posterior, read_opening_play

GAMES = [Rules(), Rules(players=3), Rules(players=4), Rules(players=6), Rules(players=4, game="scopone"),
         Rules(players=4, game="scientifico")]
IDS = ["scopa", "3p", "4p", "6p", "scopone", "scientifico"]


def _late(rules: Rules, seed: int) -> Position:
    """A position with few worlds left (at most 1,680): two players at the start of the
    last-but-one deal (a hidden hand and a stock), the others with two cards a hand (one with
    six players) in the last deal."""
    if rules.players == 2:
        return random_position(seed, rules=rules, deals_left=1)
    deals = {"deals_left": 0} if rules.game == "scopa" else {}
    return random_position(seed, rules=rules, cards_per_hand=1 if rules.players == 6 else 2, **deals)


def _counted(view) -> list[list[Fraction]]:
    """Each unseen card's share of the worlds in which each hidden place holds it, counted over
    every world (Positions: the hands by seat, the stock as dealt)."""
    seats = [p for p in range(view.rules.players) if p != view.player]
    cards = list(iter_cards(view.unseen))
    counts = [[0] * (len(seats) + (1 if view.stock_cards else 0)) for _ in cards]
    total = 0
    for world in view.worlds():
        total += 1
        for i, card in enumerate(cards):
            places = [world.hands[p] for p in seats] + ([sum(c.mask for c in world.stock)] if view.stock_cards else [])
            for j, mask in enumerate(places):
                counts[i][j] += bool(mask & card.mask)
    return [[Fraction(c, total) for c in row] for row in counts]


def _sums_hold(odds) -> None:
    for row in odds.odds:
        assert math.isclose(math.fsum(row), 1.0, abs_tol=1e-12)
    for j, size in enumerate(odds.sizes):
        assert math.isclose(math.fsum(row[j] for row in odds.odds), size, abs_tol=1e-9)
    assert sum(odds.by_rank.values()) == len(odds.cards) == sum(odds.sizes)
    assert sum(len(cs) for cs in odds.by_suit.values()) == len(odds.cards)


@pytest.mark.parametrize("rules", GAMES, ids=IDS)
def test_uniform_chances_equal_the_worlds_counted_one_by_one(rules: Rules) -> None:
    for seed in (1, 2):
        pos = _late(rules, seed)
        for player in range(rules.players):
            view = pos.view(player)
            assert 1 < view.count_worlds() <= 1680
            odds = view.where_unseen()
            counted = _counted(view)
            assert odds.method == "uniform" and odds.worlds == view.count_worlds()
            assert [c.mask for c in odds.cards] == [c.mask for c in iter_cards(view.unseen)]
            for row, exact in zip(odds.odds, counted):
                assert [Fraction(p).limit_denominator(1000) for p in row] == exact
                assert all(math.isclose(p, float(q), rel_tol=1e-12) for p, q in zip(row, exact))


@pytest.mark.parametrize("rules", GAMES, ids=IDS)
def test_every_game_sums_and_names_its_places(rules: Rules) -> None:
    pos = Position.new_round(seed=5, rules=rules)
    for player in range(rules.players):
        view = pos.view(player)
        odds = view.where_unseen()
        _sums_hold(odds)
        others = [p for p in range(rules.players) if p != player]
        assert odds.places[:len(others)] == tuple(f"player {p}" for p in others)
        assert ("stock" in odds.places) == bool(len(pos.stock))     # Scopone: the hands only
        assert odds.sizes == tuple(view.hidden_hands[p] for p in others) + ((len(pos.stock),) if pos.stock else ())
        seen = pos.hands[player] | pos.table
        assert not any(c.mask & seen for c in odds.cards)
        assert odds.by_rank == {r: sum(1 for c in odds.cards if str(c)[0] == r) for r in RANKS}
        assert list(odds.by_suit) == list(SUITS)
        data = odds.to_dict()
        assert data["unseen"] == len(odds.cards) and len(data["odds"]) == len(odds.cards)
        assert [p["cards"] for p in data["places"]] == list(odds.sizes)


def test_the_answer_depends_on_the_view_alone() -> None:
    """Two positions that share the player's view get the same answer, model or not."""
    for rules in GAMES:
        view = Position.new_round(seed=9, rules=rules).view(0)
        a, b = view.sample_worlds(2, seed=3)
        assert a != b and a.view(0) == b.view(0) == view
        assert a.view(0).where_unseen() == b.view(0).where_unseen()
    opening = _opening_view()
    worlds = opening.sample_worlds(2, seed=4)
    assert worlds[0] != worlds[1]
    answers = [w.view(opening.player).where_unseen(InferenceBot(worlds=50, seed=2)) for w in worlds]
    assert answers[0] == answers[1] and answers[0].method == "model, sampled"


def _opening_view():
    """The dealer's first view, the opponent's opening play made (the model reads it)."""
    for seed in range(50):
        pos = Position.new_round(seed=seed, dealer=1)
        pos = pos.play(GreedyBot()(pos))
        view = pos.view(1)
        if read_opening_play(view) is not None:
            return view
    raise AssertionError("no readable opening play")


def _marginals(view, plays, temperature: float) -> dict[int, float]:
    """The inference module's own posterior over the opponent's hands, summed per card."""
    hands, posterior = hand_posterior(view, plays, temperature)
    return {c.mask: math.fsum(p for h, p in zip(hands, posterior) if h & c.mask) for c in iter_cards(view.unseen)}


def test_the_models_exact_chances_are_the_posteriors() -> None:
    """A small case the model enumerates: the chance of each card in the opponent's hand is
    the inference module's posterior of the hands holding it, the stock the rest."""
    checked = 0
    for seed in range(20):
        pos = random_position(seed, deals_left=1)
        me = pos.to_move
        bot = InferenceBot(Limit(threads=1, time=None), worlds=4, seed=seed, exact_limit=40)
        pos = pos.play(bot.choose(pos.view(me)))
        pos = pos.play(GreedyBot()(pos))          # the opponent's play, read by the bot
        if pos.to_move != me or pos.is_round_over():
            continue
        view = pos.view(me)
        plays = bot.observe(view)
        assert len(plays) == 1
        bot.exact_limit = 5000           # enumerate the worlds
        odds = view.where_unseen(bot)
        assert odds.method == "model, exact" and odds.seed is None and odds.plays == 1
        assert odds.worlds == view.count_worlds()       # every world, the posterior being positive
        _sums_hold(odds)
        marginal = _marginals(view, plays, bot.temperature)
        opponent = odds.places.index(f"player {1 - me}")
        for card, row in zip(odds.cards, odds.odds):
            assert math.isclose(row[opponent], marginal[card.mask], abs_tol=1e-12)
            assert math.isclose(row[odds.places.index("stock")], 1 - marginal[card.mask], abs_tol=1e-12)
        assert max(r[opponent] for r in odds.odds) > 1.5 * min(r[opponent] for r in odds.odds)   # not uniform
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_the_models_sample_is_seeded_and_close_to_the_posterior() -> None:
    view = _opening_view()
    bot = InferenceBot(worlds=2000, seed=7)
    odds = view.where_unseen(bot)
    assert odds.method == "model, sampled" and odds.worlds == 2000 and odds.seed == 7 and odds.plays == 1
    assert odds == view.where_unseen(InferenceBot(worlds=2000, seed=7))
    _sums_hold(odds)
    marginal = _marginals(view, [read_opening_play(view)], bot.temperature)
    for card, row in zip(odds.cards, odds.odds):
        assert abs(row[0] - marginal[card.mask]) < 0.05        # systematic resampling of 2000 draws
    assert "sampled, 2,000 worlds drawn with seed 7" in odds.describe()


def test_a_model_that_read_nothing_weighs_every_world_alike() -> None:
    view = Position.new_round(seed=3).view(0)
    assert view.where_unseen(InferenceBot(worlds=10)) == view.where_unseen()


def test_the_model_refuses_the_family_games() -> None:
    view = Position.new_round(seed=3, rules=Rules(players=4)).view(0)
    with pytest.raises(ViewError, match="two-player Scopa only"):
        view.where_unseen(InferenceBot(worlds=10))


def test_chance_of_a_seen_card_and_a_wrong_place() -> None:
    pos = Position.new_round(seed=11)
    odds = pos.view(0).where_unseen()
    seen = next(iter_cards(pos.hands[0]))
    assert odds.chance(seen) == 0.0
    with pytest.raises(ViewError, match="no hidden place"):
        odds.chance(odds.cards[0], "player 7")


# -- the command line ----------------------------------------------------------------------------

OVER = "-/- - 2d6d7dAc2c4cCcRcAs3s4s7sFsRs4b5bCb/Ad3d4d5dFdCdRd3c5c6c7cFc2s5s6sCsAb2b3b6b7bFbRb - 0/0 0 1 1"

def test_the_command_prints_the_counts_and_the_grid(capsys) -> None:
    from helpers import run_cli
    import json
    view = _opening_view()
    code, out, _ = run_cli(capsys, "unseen", view.to_string(), "--json")
    data = json.loads(out)
    assert code == 0 and data["method"] == "uniform" and data["view"] == view.to_string()
    assert data == dict(view.where_unseen().to_dict(), view=view.to_string())
    code, out, _ = run_cli(capsys, "unseen", view.to_string(), "--model", "--worlds", "300", "--seed", "4", "--json")
    assert code == 0 and json.loads(out)["odds"] == view.where_unseen(InferenceBot(worlds=300, seed=4)).to_dict()["odds"]
    code, out, _ = run_cli(capsys, "unseen", view.to_string(), "--model")
    assert code == 0 and "sampled, 1,000 worlds drawn with seed 0" in out
    assert f"{len(view.where_unseen().cards)} unseen cards by rank" in out
    pos = Position.new_round(seed=2, rules=Rules(players=4, game="scopone"))
    code, out, _ = run_cli(capsys, "unseen", pos.to_string(), "--player", "2", "--json")
    assert code == 0 and [p["place"] for p in json.loads(out)["places"]] == ["player 0", "player 1", "player 3"]


def test_a_finished_round_hides_nothing(capsys) -> None:
    from helpers import run_cli
    odds = Position.from_string(OVER).view(0).where_unseen()
    assert odds.cards == () and odds.sizes == (0,) and odds.describe() == "no card is hidden from the player"
    code, out, _ = run_cli(capsys, "unseen", OVER, "--player", "0")
    assert code == 0 and out.rstrip().endswith("chances: no card is hidden from the player")


@pytest.mark.parametrize("argv, message", [
    (["--rules", "players=4", "--model"], "two-player Scopa only"),
    (["--player", "5"], "--player must be a seat from 0 to 1"),
    (["?3/7cRs4b 3d4cAbCs -/- ?30 0/0 1 1 -", "--player", "1"], "--player is for a full position"),
    ([OVER], "the round is over: name the seat"),
])
def test_the_command_refuses_in_one_line(capsys, argv, message) -> None:
    from helpers import run_cli
    code, out, err = run_cli(capsys, "unseen", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and not out


# -- the web API ---------------------------------------------------------------------------------

def test_the_api_answers_from_the_view_alone() -> None:
    """Two full positions that share a player's view get the same answer from /api/unseen's
    service, equal to the view's own; a view given as text too."""
    from scopa_solver.web import service
    view = _opening_view()
    a, b = view.sample_worlds(2, seed=8)
    assert a != b
    for model in (None, True):
        answers = [service.unseen(w.to_string(), player=view.player, model=model, worlds=200, seed=5) for w in (a, b)]
        answers.append(service.unseen(view.to_string(), model=model, worlds=200, seed=5))
        assert answers[0] == answers[1] == answers[2]
        expected = view.where_unseen(InferenceBot(worlds=200, seed=5) if model else None)
        assert answers[0] == {**expected.to_dict(), "view": view.to_string(), "about": expected.describe()}


@pytest.mark.parametrize("kwargs, message", [
    ({"player": 3}, "player must be a whole number from 0 to 1"),
    ({"player": 1, "text": "7cRs4b/?3 3d4cAbCs -/- ?30 0/0 0 1 -"}, "the text is player 0.s view"),
    ({"model": True, "worlds": 2001}, "worlds must be a whole number from 1 to 2,000"),
    ({"model": True, "rules": True}, "two-player Scopa only"),
])
def test_the_api_refuses_bad_fields(kwargs, message) -> None:
    from scopa_solver.errors import ScopaError
    from scopa_solver.web import service
    rules = kwargs.pop("rules", False)
    text = kwargs.pop("text", Position.new_round(seed=1, rules=Rules(players=4) if rules else Rules()).to_string())
    with pytest.raises(ScopaError, match=message):
        service.unseen(text, **kwargs)


def test_the_api_model_follows_the_line_played_as_a_bot_that_played_it() -> None:
    """With `moves`, /api/unseen's model reads the opponent's plays of the deal along the line,
    as an InferenceBot that chose the player's moves itself does (`remember` = `choose`'s
    memory): the same plays read, the same chances."""
    from scopa_solver.web import service
    root = pos = Position.new_round(seed=6)
    me, line = 0, []
    bot = InferenceBot(Limit(threads=1), worlds=4, seed=5, exact_limit=40)
    while len(pos.stock) > 24 or pos.hand_sizes() != (1, 1):     # the opponent's 2nd play of deal 2 made
        move = bot.choose(pos.view(me)) if pos.to_move == me else GreedyBot()(pos)
        line.append((pos.to_move, move))
        pos = pos.play(move)
    view = pos.view(me)
    bot.worlds, bot.exact_limit = 200, 2000
    expected = view.where_unseen(bot)
    assert expected.plays == 2 and expected.method == "model, sampled"
    answer = service.unseen(root.to_string(), player=me, model=True, worlds=200, seed=5,
                            moves=[str(m) for _, m in line])
    assert answer == {**expected.to_dict(), "view": view.to_string(), "about": expected.describe()}
    assert answer["odds"] != view.where_unseen().to_dict()["odds"]
    uniform = service.unseen(root.to_string(), player=me, moves=[str(m) for _, m in line])
    assert uniform["odds"] == view.where_unseen().to_dict()["odds"]


def test_remember_refuses_an_illegal_move() -> None:
    view = Position.new_round(seed=6).view(0)
    with pytest.raises(ViewError, match="not legal"):
        InferenceBot(worlds=4).remember(view, "7dx3s")
