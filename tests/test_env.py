"""The PettingZoo environment of every game of the family (scopa_solver.env): PettingZoo's own
API and seed tests, the mask against the kernel's moves, what an agent sees, the rewards, our
bots as agents, and the example. Skipped without the rl extra."""
from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from helpers import COMBINED, GAMES, games, import_error_without  # noqa: E402

from scopa_solver import Rules  # noqa: E402
from scopa_solver.env import ScopaEnv, env  # noqa: E402
from scopa_solver.errors import IllegalMoveError, RulesError  # noqa: E402
from scopa_solver.play import actions  # noqa: E402
from scopa_solver.play.bots import GreedyBot  # noqa: E402
from scopa_solver.play.game import play_round  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


EVERY = games(more=COMBINED)


@pytest.mark.parametrize("name", list(EVERY))
def test_pettingzoo_api_and_seed_tests_pass(name):
    api_test(env(EVERY[name]), num_cycles=100)
    seed_test(lambda: env(EVERY[name]), num_cycles=100)


@pytest.mark.parametrize("name", list(EVERY))
def test_a_round_by_the_mask_ends_with_the_round_margins(name):
    rules = EVERY[name]
    e = ScopaEnv(rules)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, done, _, _ = e.last()
        total[agent] += reward
        if done:
            e.step(None)
            continue
        mask = observation["action_mask"]
        assert list(np.flatnonzero(mask)) == e.legal_actions() and mask.sum() >= 1
        e.step(int(rng.choice(np.flatnonzero(mask))))
    final = e.position()
    assert final.is_round_over() and len(e.moves) == 40 - rules.table_start
    score = final.round_score().total
    for seat, side in enumerate(rules.sides):
        others = [t for s, t in enumerate(score) if s != side]
        assert total[f"player_{seat}"] == pytest.approx(score[side] - sum(others) / len(others))
    assert sum(total.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("name", ["scopa", "3 players", "scopone", "scientifico"])
def test_an_observation_shows_no_hidden_card(name):
    # the same public round and own hand with the hidden cards dealt again: the agent's
    # observation does not change; another seat's does tell it apart
    e = ScopaEnv(GAMES[name])
    e.reset(seed=5)
    for _ in range(5):
        e.step(e.bot_action(GreedyBot()))
    position = e.position()
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    world = position.view(seat).sample_worlds(1, seed=1)[0]
    assert world != position
    other = ScopaEnv(GAMES[name])
    other.reset(seed=5)
    other.state, other.pending, other.agent_selection = world.kernel_state(), e.pending, agent
    mine, theirs = e.observe(agent), other.observe(agent)
    assert np.array_equal(mine["observation"], theirs["observation"])
    assert np.array_equal(mine["action_mask"], theirs["action_mask"])
    differs = [a for a in e.possible_agents
               if not np.array_equal(e.observe(a)["observation"], other.observe(a)["observation"])]
    assert differs and agent not in differs


def test_our_bots_as_agents_play_as_they_play_here():
    rules = Rules(players=4)
    e = ScopaEnv(rules)
    e.reset(seed=8)
    start = e.position()
    for agent in e.agent_iter():
        if e.terminations[agent]:
            e.step(None)
            continue
        e.step(e.bot_action(GreedyBot()))
    assert [m for _, m in e.moves] == play_round(start, *[GreedyBot()] * 4).moves


def test_bad_input_is_a_clear_error():
    e = ScopaEnv()
    e.reset(seed=1)
    illegal = next(a for a in range(actions.NUM_ACTIONS) if a not in e.legal_actions())
    with pytest.raises(IllegalMoveError, match="is not legal here"):
        e.step(illegal)
    with pytest.raises(RulesError, match="dealer must be a seat"):
        ScopaEnv(Rules(), dealer=2)
    with pytest.raises(RulesError, match="rules must be a Rules value"):
        ScopaEnv("scopa")


def test_the_example_trains_and_evaluates_an_agent(capsys):
    module = runpy.run_path(str(ROOT / "examples" / "pettingzoo_agent.py"), run_name="example")
    figures = module["main"](["--episodes", "20", "--games", "4"])
    assert figures["trained_episodes"] == 20 and figures["evaluated"] == 4
    assert "against Greedy" in capsys.readouterr().out


def test_without_pettingzoo_one_line_names_the_extra():
    assert import_error_without('pettingzoo', 'scopa_solver.env') == (
        "ImportError: scopa_solver.env needs PettingZoo and Gymnasium: pip install 'scopa-solver[rl]'")
