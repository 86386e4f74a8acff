"""Inference from the opponent's plays: the plays are read exactly from the views, the
posterior is a distribution over the hands that favours the plausible ones, and the bot plays
legal, reproducible moves from what the player has seen."""
from __future__ import annotations

import math
import statistics

import pytest

from helpers import random_positions

from scopa_solver import GreedyBot, PIMCBot, Position, RandomBot, Rules, play_round, Limit
from scopa_solver import analyze
from scopa_solver.play.inference import InferenceBot, hand_posterior, modelled_values, read_opening_play
from scopa_solver.imperfect.pimc import solve_worlds, value_matrix


def rounds_with_observations(seeds: range, opponent, rules: Rules = Rules()):
    """Play rounds with an InferenceBot on each seat against `opponent`; yield, at each of the
    bot's decisions, the position, the plays it read and the opponent's true moves of the deal."""
    for seed in seeds:
        for me in (0, 1):
            bot = InferenceBot(Limit(threads=1), worlds=4, seed=seed, exact_limit=40)
            pos = Position.new_round(seed=seed, dealer=seed % 2, rules=rules)
            history = []
            while not pos.is_round_over():
                if pos.to_move == me:
                    view = pos.view(me)
                    truth = [m for stock, p, m in history if p != me and stock == len(pos.stock)]
                    yield pos, bot.observe(view), truth
                    move = bot.choose(view)
                else:
                    move = opponent(pos)
                history.append((len(pos.stock), pos.to_move, move))
                pos = pos.play(move)


@pytest.mark.parametrize("rules", [Rules(), Rules(asso_piglia_tutto=True)], ids=["default", "ace"])
def test_the_opponents_plays_of_the_deal_are_read_exactly(rules: Rules) -> None:
    seen = 0
    for pos, plays, truth in rounds_with_observations(range(4), RandomBot(seed=2), rules):
        assert len(plays) == len(truth)
        for play, move in zip(plays, truth):
            assert move in [r.move for r in play.readings]
            seen += 1
    assert seen > 50


def test_the_opening_play_has_every_consistent_reading() -> None:
    # player 1 deals; player 0 opened by laying a card: any of the five table cards may be it
    pos = Position.new_round(seed=11, dealer=1)
    laid = next(m for m in pos.legal_moves() if not m.captures)
    view = pos.play(laid).view(1)
    play = read_opening_play(view)
    assert play is not None and laid in [r.move for r in play.readings]
    assert all(not r.move.captures for r in play.readings) and len(play.readings) <= 5
    assert read_opening_play(pos.view(0)) is None       # the non-dealer's first view: nothing to read


def test_the_posterior_is_a_distribution_that_keeps_the_true_hand() -> None:
    ratios = []
    for pos, plays, _ in rounds_with_observations(range(3), GreedyBot()):
        view = pos.view(pos.to_move)
        if not plays or not view.opponent_cards:
            continue
        hands, posterior = hand_posterior(view, plays, temperature=1.0)
        assert len(hands) == len(set(hands)) and abs(sum(posterior) - 1) < 1e-9
        true = pos.hands[1 - pos.to_move]
        assert posterior[hands.index(true)] > 0
        ratios.append(posterior[hands.index(true)] * len(hands))
    assert len(ratios) > 20 and statistics.mean(ratios) > 1.1     # the true hand is more likely than uniform


def test_inference_bot_plays_reproducibly() -> None:
    pos = Position.new_round(seed=8)
    first = play_round(pos, InferenceBot(Limit(threads=1), worlds=6, seed=2), GreedyBot())
    again = play_round(pos, InferenceBot(Limit(threads=1), worlds=6, seed=2), GreedyBot())
    assert first.moves == again.moves and first.final.is_round_over()


def test_inference_bot_decides_from_what_the_player_has_seen() -> None:
    # two bots in lockstep: one is handed the true positions, the other at each decision another
    # world with the same view (other hidden cards); they must read the same plays and choose alike
    informed = 0
    for seed in range(3):
        me = seed % 2
        real = InferenceBot(Limit(threads=1), worlds=6, seed=2, exact_limit=60)
        shadow = InferenceBot(Limit(threads=1), worlds=6, seed=2, exact_limit=60)
        pos = Position.new_round(seed=seed)
        while not pos.is_round_over():
            if pos.to_move == me:
                view = pos.view(me)
                other = next((w for w in view.sample_worlds(10, seed=seed) if w != pos), pos)
                assert real.observe(view) == shadow.observe(other.view(me))
                informed += bool(real.observe(view))
                move = real(pos)
                assert shadow(other) == move
            else:
                move = GreedyBot()(pos)
            pos = pos.play(move)
    assert informed > 10        # the plays were read, so the memory was exercised


def test_a_view_out_of_the_blue_is_played_without_inference() -> None:
    # no plays to read: the hand is drawn uniformly, so without the reply model it is PIMC
    bot = InferenceBot(Limit(threads=1), worlds=6, seed=3, exact_limit=60)
    plain = InferenceBot(Limit(threads=1), worlds=6, seed=3, exact_limit=60, reply=False)
    pimc = PIMCBot(Limit(threads=1), worlds=6, seed=3, exact_limit=60)
    for pos in random_positions(8, 31):
        if pos.is_round_over():
            continue
        view = pos.view(pos.to_move)
        other = next((w for w in view.sample_worlds(20, seed=1) if w != pos), pos)
        assert bot(pos) == bot(other) == bot.choose(view)
        assert plain(pos) == plain(other) == pimc.choose(view)


def test_temperature_must_be_positive() -> None:
    with pytest.raises(ValueError, match="temperature"):
        InferenceBot(temperature=0)


def test_modelled_values_lie_between_the_best_and_the_worst_reply() -> None:
    checked = forced = 0
    for pos in random_positions(12, 57):
        if pos.is_round_over() or len(pos.legal_moves()) < 2:
            continue
        view = pos.view(pos.to_move)
        worlds = list(view.sample_groups(3, seed=5)) if view.count_worlds() > 60 else list(view.enumerate_groups())[:3]
        exact = value_matrix(view.legal_moves(), solve_worlds([view.state_of(g) for g in worlds], Limit(threads=1)))[0]
        assert (modelled_values(view, worlds, 0.5, limit=Limit(threads=1), clairvoyant=True) == exact).all()
        modelled = modelled_values(view, worlds, 0.5, limit=Limit(threads=1))
        assert (modelled >= exact - 1e-9).all()       # the opponent's best reply is the worst for the player
        for i, groups in enumerate(worlds):
            for j, move in enumerate(view.legal_moves()):
                child = view.world_position(view.state_of(groups)).play(move)
                if child.is_round_over() or len(child.legal_moves()) == 1:
                    assert modelled[i, j] == exact[i, j]
                    forced += 1
                else:
                    worst = max(v.value for v in analyze(child))   # the opponent's values
                    best = min(v.value for v in analyze(child))
                    assert -worst - 1e-9 <= modelled[i, j] <= -best + 1e-9
                checked += 1
    assert checked > 40 and forced > 0


def test_the_reply_model_can_be_switched_off() -> None:
    pos = Position.new_round(seed=4)
    view = pos.view(pos.to_move)
    assert InferenceBot(Limit(threads=1), worlds=6, seed=1, reply=False).choose(view) == \
        PIMCBot(Limit(threads=1), worlds=6, seed=1).choose(view)
    assert InferenceBot(Limit(threads=1), worlds=6).name == "PIMC(6)+model(T=0.5)"


@pytest.mark.parametrize("opponent", ["greedy", "random"])
def test_an_adaptive_bot_learns_the_opponents_temperature_from_whole_deals(opponent: str) -> None:
    # the reference scores the opponent's decisions from its own true views; the bot leads every
    # deal, so it sees every play but the round's last: the first five deals whole
    bot = InferenceBot(Limit(threads=1), worlds=4, seed=1, exact_limit=40, adapt=True)
    other = GreedyBot() if opponent == "greedy" else RandomBot(seed=4)
    assert bot.temperatures == (0.05, 0.1, 0.2, 0.35, 0.5) and bot.temperature == 0.5
    expected = [0.0] * len(bot.temperatures)
    for seed in range(2):
        pos = Position.new_round(seed=seed, dealer=1)
        while not pos.is_round_over():
            if pos.to_move == 0:
                move = bot(pos)
            else:
                move = other(pos)
                scored = GreedyBot().scores(pos.view(1))
                chosen = next(s for m, s in scored if m == move)
                if pos.stock:
                    for k, t in enumerate(bot.temperatures):
                        top = scored[0][1]
                        expected[k] += (chosen - top) / t - math.log(math.fsum(math.exp((s - top) / t)
                                                                               for _, s in scored))
            pos = pos.play(move)
    assert bot.evidence == pytest.approx(expected, rel=1e-9)
    assert bot.temperature == (0.05 if opponent == "greedy" else 0.5)
