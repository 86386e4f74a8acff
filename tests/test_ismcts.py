"""Information-set MCTS: a root move tried once is worth the exact value of the world after it and
the model's reply (checked through Positions and `analyze`); in the last deal it settles on the
best reply to the model (EPIMC to the round's end); runs are reproducible from the seed
on any number of threads; the bot plays legal moves from what the player has seen (information
sets: the same view, the same decisions); bad parameters are clear errors."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from scopa_solver import GreedyBot, Position, analyze
from scopa_solver.errors import ScopaError
from scopa_solver.imperfect.epimc import nonfused_values
from scopa_solver.imperfect.ismcts import ISMCTSBot, ISMCTSResult, ismcts
from scopa_solver.play.arena import make_bot

from test_epimc import late_views, plays_from_the_view_only, shared_worlds

SHARP = 1e-6        # the model's temperature: Greedy's best-scored reply (ties equally)


def _after_reply(pos: Position, me: int) -> set[float]:
    """The player's exact values after each of the opponent's best-scored replies in `pos`."""
    if pos.is_round_over():
        return {float(pos.round_score().margin(me))}
    scored = GreedyBot().scores(pos.view(pos.to_move))
    top = max(s for _, s in scored)
    out = set()
    for move, score in scored:
        if score == top:
            after = pos.play(move)
            if after.is_round_over():
                out.add(float(after.round_score().margin(me)))
            else:
                value = analyze(after)[0].value
                out.add(float(value if after.to_move == me else -value))
    return out


@pytest.mark.parametrize("stock", [0, 6, 12, 24])
def test_a_root_move_tried_once_is_the_exact_value_after_the_models_reply(stock: int) -> None:
    for view in late_views(3, stock, seed=stock + 5) + late_views(2, stock, seed=stock, dealer=0):
        me = view.player
        world = next(iter(view.sample_groups(1, seed=stock)))
        moves = view.legal_moves()
        r = ismcts(view, [world], iterations=len(moves), batch=len(moves), temperature=SHARP, threads=1)
        assert r.visits == (1,) * len(moves)
        pos = view.world_position(view.state_of(world))
        for move, value in zip(moves, r.values):
            want = _after_reply(pos.play(move), me)
            assert any(math.isclose(value, w, abs_tol=1e-9) for w in want), (move, value, want)


def test_in_the_last_deal_it_finds_the_best_reply_to_the_model() -> None:
    # one world of the last deal: the whole tree is small, so UCB1 settles on the move that is
    # best against the model's replies, which EPIMC searched to the round's end computes exactly
    clear = 0
    for view in late_views(12, 0, seed=3):
        worlds = list(view.sample_groups(1, seed=1))
        values = sorted(zip(nonfused_values(view, worlds, depth=6, threads=1)[0], view.legal_moves()),
                        key=lambda vm: -vm[0])
        if values[0][0] - values[1][0] >= 0.5:
            clear += 1
            assert ismcts(view, worlds, iterations=1500, threads=1).best == values[0][1]
    assert clear >= 5


def test_runs_are_reproducible_and_concentrate() -> None:
    view = late_views(1, 18, seed=4)[0]
    worlds = shared_worlds(view, 3, 4, seed=2)
    r = ismcts(view, worlds, iterations=300, batch=16, seed=5, threads=1)
    assert sum(r.visits) == 300 and r.best in view.legal_moves()
    assert 0 < r.leaves <= 300 and r.nodes > 0      # one exact leaf a walk, none at the round's end
    two = ismcts(view, worlds, iterations=300, batch=16, seed=5, threads=2)
    assert replace(two, nodes=0) == replace(r, nodes=0)     # the tables differ, the values do not
    assert max(r.visits) > 300 / len(r.visits)      # UCB1 concentrates on some move


def test_the_bot_plays_legal_reproducible_moves_from_the_view_only() -> None:
    plays_from_the_view_only(lambda: ISMCTSBot(iterations=40, seed=3, threads=1, exact_limit=5))


@pytest.mark.parametrize("kwargs", [dict(iterations=0), dict(iterations=2.5), dict(exploration=0),
                                    dict(exploration="x"), dict(batch=0), dict(temperature=0), dict(threads=-1)])
def test_bad_parameters_are_value_errors(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        ISMCTSBot(**kwargs)


def test_bad_calls_are_value_errors() -> None:
    view = late_views(1, 6)[0]
    with pytest.raises(ValueError, match="world"):
        ismcts(view, [], threads=1)
    with pytest.raises(ValueError, match="iterations"):
        ismcts(view, list(view.sample_groups(2, seed=1)), iterations=-3, threads=1)
    with pytest.raises(ScopaError, match="unknown option"):
        make_bot("ismcts:z=1")
    with pytest.raises(ScopaError, match="iterations"):
        make_bot("ismcts:i=0")
    bot = make_bot("ismcts:i=200,c=1.5,t=0.3", seed=2)
    assert isinstance(bot, ISMCTSBot) and (bot.iterations, bot.exploration, bot.temperature, bot.seed) == \
        (200, 1.5, 0.3, 2)


def test_the_best_move_is_the_most_visited_then_the_best_valued() -> None:
    a, b, c = Position.new_round(seed=1).legal_moves()[:3]
    assert ISMCTSResult((a, b, c), (3, 7, 2), (2.0, -1.0, 5.0), 0, 0).best == b
    assert ISMCTSResult((a, b, c), (5, 5, 0), (-1.0, 0.0, None), 0, 0).best == b    # a mean of 0 is a value
    assert ISMCTSResult((a, b, c), (5, 5, 0), (0.0, 0.0, None), 0, 0).best == a     # then the kernel's order
