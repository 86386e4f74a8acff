"""The OpenSpiel game of every game of the family (scopa_solver.spiel): OpenSpiel's own checks,
the deal's chance nodes, the actions against the kernel's moves, what a seat sees, the bots both
ways. Skipped without the spiel extra."""
from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from helpers import COMBINED, GAMES, games, import_error_without  # noqa: E402

from scopa_solver import Position, Rules, arena  # noqa: E402
from scopa_solver.core.cards import DECK, KINGS_MASK  # noqa: E402
from scopa_solver.errors import NotationError, RulesError  # noqa: E402
from scopa_solver.play.bots import GreedyBot, RandomBot  # noqa: E402
from scopa_solver.play.game import play_round, random_position  # noqa: E402
from scopa_solver import spiel  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EVERY = games(more={**COMBINED, "asso piglia tutto": Rules(asso_piglia_tutto=True, ace_sweep_is_scopa=True)})


def dealt(game, seed: int):
    """A state of `game` after its chance nodes, the cards drawn by OpenSpiel's outcomes."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def walk(state, seed: int, plies: int):
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", list(EVERY))
def test_openspiel_random_simulation_and_serialisation_pass(name):
    game = spiel.load(EVERY[name])
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert game.num_players() == EVERY[name].players and game.num_distinct_actions() == spiel.NUM_ACTIONS


def test_every_parameter_reaches_the_rules():
    game = pyspiel.load_game("python_scopa", {"players": 4, "game": "scientifico", "napola": True,
                                              "last_sweep_counts": True, "dealer": 1})
    assert game.rules == Rules(players=4, game="scientifico", napola=True, last_sweep_counts=True)
    state = dealt(game, 1)
    assert state.position().dealer == 1 and state.current_player() == 2 and not state.position().table


def test_bad_parameters_are_the_package_errors():
    with pytest.raises(RulesError, match="players must be 2, 3, 4 or 6"):
        pyspiel.load_game("python_scopa", {"players": 5})
    with pytest.raises(RulesError, match="dealer must be a seat"):
        pyspiel.load_game("python_scopa", {"dealer": 2})
    with pytest.raises(NotationError, match="without rule tokens"):
        pyspiel.load_game("python_scopa", {"position": "?3/?3 3d4c -/- ?30 0/0 0 1 - players=3"})
    with pytest.raises(NotationError, match="accounts for 8 cards"):
        pyspiel.load_game("python_scopa", {"position": "7d2c/3b4c 3s4s5d2d -/- - 0/0 0 1 -"})


def test_the_table_deal_follows_the_three_kings_redeal():
    # walk the table's four chance nodes by kind (king or not) and compare the chance of each
    # number of kings with the hypergeometric law restricted to the tables the rule keeps
    game = spiel.load()

    def law(state, slots):
        if not slots:
            return {0: 1.0}
        out: dict = {}
        for kind in (True, False):
            cards = [(a, p) for a, p in state.chance_outcomes() if bool(DECK[a].mask & KINGS_MASK) == kind]
            if not cards:
                continue
            child = state.child(cards[0][0])
            for kings, p in law(child, slots - 1).items():
                out[kings + kind] = out.get(kings + kind, 0.0) + sum(p for _, p in cards) * p
        return out

    got = law(game.new_initial_state(), 4)
    weights = {j: math.comb(4, j) * math.comb(36, 4 - j) for j in range(3)}
    assert set(got) == {0, 1, 2}
    for j, w in weights.items():
        assert got[j] == pytest.approx(w / sum(weights.values()))
    free = spiel.load(Rules(redeal_three_kings=False))
    assert sum(law(free.new_initial_state(), 4).values()) == pytest.approx(1.0)
    assert 4 in law(free.new_initial_state(), 4)


@pytest.mark.parametrize("name", list(EVERY))
def test_the_actions_name_every_legal_move_once(name):
    # from random decision points: expanding every action sequence gives the kernel's legal
    # moves, each once; the returns at the end are the round's margins
    game = spiel.load(EVERY[name])
    for seed in range(3):
        state = walk(dealt(game, seed), seed, 6 + 7 * seed)
        if state.is_terminal() or state.pending is not None:
            continue
        reached = []

        def expand(s, before):
            for action in s.legal_actions():
                child = s.child(action)
                if len(child.moves()) > before:
                    reached.append(str(child.moves()[-1][1]))
                else:
                    expand(child, before)

        expand(state, len(state.moves()))
        legal = [str(m) for m in state.position().legal_moves()]
        assert sorted(reached) == sorted(legal)
        for move in state.position().legal_moves():
            probe = state.clone()
            for action in spiel.move_actions(state, move):
                probe.apply_action(action)
            assert probe.moves()[-1][1] == move and probe.position() == state.position().play(move)


@pytest.mark.parametrize("name", ["scopa", "3 players", "scopone"])
def test_returns_are_the_round_margins(name):
    rules = GAMES[name]
    state = walk(dealt(spiel.load(rules), 4), 4, 200)
    assert state.is_terminal()
    total = state.round_score().total
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    for seat, side in enumerate(rules.sides):
        others = [t for s, t in enumerate(total) if s != side]
        assert returns[seat] == pytest.approx(total[side] - sum(others) / len(others))


@pytest.mark.parametrize("name", list(GAMES))
def test_a_resampled_world_looks_the_same_to_the_seat(name):
    # information state and observation, strings and tensors, do not change when the cards
    # hidden from the seat are drawn again: they show no hidden card
    game = spiel.load(GAMES[name])
    state = walk(dealt(game, 7), 7, 9)
    rng = random.Random(3)
    for player in range(game.num_players()):
        changed = 0
        for _ in range(4):
            other = state.resample_from_infostate(player, rng.random)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.history()[len(other.history()) - 9:] == state.history()[len(state.history()) - 9:]
            changed += other.position() != state.position()
        assert changed     # the hidden cards did move
    # and a seat's own view does tell its hand
    if state.position().hands[0] != state.position().hands[1]:
        assert state.observation_string(0) != state.observation_string(1)


def test_our_bot_plays_in_openspiel_as_it_plays_here():
    for rules in (Rules(), Rules(players=4, game="scopone")):
        position = Position.new_round(seed=5, rules=rules)
        state = spiel.load(rules).new_initial_state()
        for action in spiel.deal_actions(position):
            state.apply_action(action)
        bots = [spiel.SpielBot(GreedyBot()) for _ in range(rules.players)]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        here = play_round(position, *[GreedyBot()] * rules.players)
        assert [m for _, m in state.moves()] == here.moves
        assert state.position() == here.final


def test_openspiel_bots_play_in_our_arena():
    bots = [spiel.random_chooser(seed=1), spiel.mcts_chooser(simulations=10, seed=1),
            spiel.ismcts_chooser(seconds=None, simulations=10, seed=1)]
    result = arena(bots[1], bots[2], rounds=1, seed=3, progress=False)
    assert result.rounds_played == 2 and result.decisions[0] > 10 and result.decisions[1] > 10
    three = arena(bots=[bots[0], RandomBot(seed=1), GreedyBot()], rounds=1, seed=2, rules=Rules(players=3),
                  progress=False)
    assert three.rounds_played == 6


def test_an_openspiel_bot_sees_a_world_of_the_view_not_the_cards():
    # the state handed to the bot holds a world drawn from the view: the seat's own hand and
    # the public cards as they are, the other hands' cards those of some world
    position = random_position(seed=9, deals_left=2)
    seen = []
    chooser = spiel.SpielChooser(lambda game, seat, seed: Spy(seen), "spy", seed=1)
    chooser(position)
    world = seen[0]
    me = position.to_move
    assert world.view(me) == position.view(me)
    assert world != position


class Spy:
    def __init__(self, seen):
        self.seen = seen

    def step(self, state):
        self.seen.append(state.position())
        return state.legal_actions()[0]


def test_cfr_plays_the_end_of_the_last_deal():
    # two cards each, the last deal: CFR+ takes the sweep with the settebello rather than
    # laying the ace down for the opponent's two to sweep
    hands, table = ("7d Ac", "4s 2b"), "5s 2s"
    held = {c for text in hands + (table,) for c in text.split()}
    rest = [str(c) for c in DECK if str(c) not in held]
    position = Position(hands=hands, table=table, captured=(rest[:17], rest[17:]), to_move=0, dealer=1,
                        last_capturer=0)
    chooser = spiel.CFRChooser(GreedyBot(), iterations=20)
    assert str(chooser(position)) == "7dx2s+5s"
    assert chooser(Position.new_round(seed=1)) == GreedyBot()(Position.new_round(seed=1))
    with pytest.raises(RulesError, match="two-player"):
        chooser(Position.new_round(seed=1, rules=Rules(players=3)))


def test_without_open_spiel_one_line_names_the_extra():
    assert import_error_without('pyspiel', 'scopa_solver.spiel') == (
        "ImportError: scopa_solver.spiel needs OpenSpiel: pip install 'scopa-solver[spiel]'")


def test_the_benchmark_plays_pimc_against_ismcts():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_spiel", ROOT / "benchmarks" / "bench_spiel.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.run(seconds=0.01, rounds=1, simulations=5, progress=False)
    assert figures["deals"] == 1 and figures["bot_b"] == "IS-MCTS(0.01 s)"
    assert 2 <= figures["ismcts_simulations"] <= 5      # at least two, at most the cap
    assert bench.report(figures).startswith("Scopa, 0.01 s a decision")


def test_ismcts_with_a_simulation_budget_is_reproducible():
    # the same visits at the root every time: the worlds are drawn from the decision's seed
    position = random_position(seed=4, deals_left=3)
    visits = []
    for _ in range(3):
        chooser = spiel.ismcts_chooser(seconds=None, simulations=30, seed=2)
        chooser(position)
        root = chooser.last_bot._root_node
        visits.append({a: c.visits for a, c in root.child_info.items()})
    assert visits[0] == visits[1] == visits[2] and sum(visits[0].values()) >= 29
