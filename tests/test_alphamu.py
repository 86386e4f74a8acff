"""Alpha-mu: with unbounded fronts its value of each move is the best pure strategy of the player
against a clairvoyant opponent (checked against every strategy through Positions and
`analyze`); bounded fronts only lose strategies; the clairvoyant opponent is never kinder than
EPIMC's model; depth 0 is determinization; the bot plays from the view only."""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from scopa_solver import AlphaMuBot, Position, analyze
from scopa_solver.errors import ScopaError
from scopa_solver.imperfect.alphamu import alphamu_values
from scopa_solver.imperfect.epimc import nonfused_values
from scopa_solver.play.arena import make_bot

from test_epimc import late_views, plays_from_the_view_only, shared_worlds


def best_strategies(view, worlds: list, weights: list) -> tuple[list[float], bool]:
    """Per root move, the best weighted mean over every assignment of the player's second move
    to its information sets (its views after the opponent's reply), the opponent answering in
    each world with the reply worst for the player; and whether choosing per world would have
    looked better somewhere (strategy fusion)."""
    me = view.player
    total = sum(weights)
    out, fusion = [], False
    for move in view.legal_moves():
        replies = []        # per world: [(information set or None, {second move: value} or a value)]
        for g in worlds:
            pos = view.world_position(view.state_of(g)).play(move)
            if pos.is_round_over():
                replies.append([(None, pos.round_score().margin(me))])
                continue
            assert pos.to_move != me
            options = []
            for reply in pos.legal_moves():
                child = pos.play(reply)
                if child.is_round_over():
                    options.append((None, child.round_score().margin(me)))
                elif child.to_move == me:
                    options.append((child.view(me).to_string(), {mv.move: mv.value for mv in analyze(child)}))
                else:       # a new deal the opponent opens: no decision of the player before the bottom
                    options.append((None, -analyze(child)[0].value))
            replies.append(options)
        sets = sorted({s for options in replies for s, _ in options if s is not None})
        choices = {s: next(list(v) for options in replies for t, v in options if t == s) for s in sets}
        if math.prod(len(choices[s]) for s in sets) > 4096:
            return [], False
        best = -math.inf
        for pick in itertools.product(*[choices[s] for s in sets]):
            chosen = dict(zip(sets, pick))
            value = sum(w * min(v if s is None else v[chosen[s]] for s, v in options)
                        for w, options in zip(weights, replies))
            best = max(best, value / total)
        fused = sum(w * min(v if s is None else max(v.values()) for s, v in options)
                    for w, options in zip(weights, replies)) / total
        fusion = fusion or fused > best + 1e-9
        out.append(best)
    return out, fusion


def test_unbounded_fronts_find_the_best_pure_strategy() -> None:
    checked, fusion = 0, False
    rng = random.Random(4)
    for stock in (12, 6, 0):
        for view in late_views(5, stock, seed=stock + 3):
            worlds = shared_worlds(view, 2, 2, seed=rng.randrange(1000)) if stock else list(view.enumerate_groups())
            weights = [rng.choice([0.5, 1.0, 2.0]) for _ in worlds]
            want, fused = best_strategies(view, worlds, weights)
            if not want:
                continue
            got = alphamu_values(view, worlds, weights, depth=2, fronts=None, threads=1)
            np.testing.assert_allclose(got.T @ weights / sum(weights), want, rtol=0, atol=1e-9)
            checked += 1
            fusion = fusion or fused
    assert checked >= 10 and fusion


def test_bounded_fronts_lose_strategies_and_the_model_is_kinder() -> None:
    # a bounded front keeps some of the strategies: never more than the best; EPIMC's opponent
    # follows a model rather than the reply worst in each world: never less, on the same tree
    for view in late_views(4, 12, seed=7):
        worlds = list(view.sample_groups(12, seed=3))
        exact = alphamu_values(view, worlds, depth=2, fronts=None, threads=1).mean(axis=0)
        for fronts in (1, 2, 8):
            assert np.all(alphamu_values(view, worlds, depth=2, fronts=fronts, threads=1).mean(axis=0) <= exact + 1e-9)
        assert np.all(exact <= nonfused_values(view, worlds, depth=2, threads=1).mean(axis=0) + 1e-9)


def test_depth_0_is_determinization_and_a_clairvoyant_bottom_adds_nothing() -> None:
    # the opponent's last ply above the bottom is the exact solve's own minimum: depth 3 = depth 2
    # (when the player's next move comes before any new deal: it holds two cards or more)
    views = [v for v in late_views(8, 18, seed=11) if v.hand_sizes()[v.player] >= 2]
    assert len(views) >= 3
    for view in views[:3]:
        worlds = list(view.sample_groups(8, seed=5))
        np.testing.assert_allclose(alphamu_values(view, worlds, depth=0, threads=1),
                                   nonfused_values(view, worlds, depth=0, threads=1), rtol=0, atol=1e-12)
        for horizon in (0, 40):     # the same horizon bottom as EPIMC's; past the round's end: exact
            np.testing.assert_allclose(alphamu_values(view, worlds, depth=0, threads=1, horizon=horizon),
                                       nonfused_values(view, worlds, depth=0, threads=1, horizon=horizon),
                                       rtol=0, atol=1e-12)
        np.testing.assert_array_equal(alphamu_values(view, worlds, threads=1, horizon=40),
                                      alphamu_values(view, worlds, threads=1))
        np.testing.assert_allclose(alphamu_values(view, worlds, depth=3, fronts=None, threads=1).mean(axis=0),
                                   alphamu_values(view, worlds, depth=2, fronts=None, threads=1).mean(axis=0),
                                   rtol=0, atol=1e-9)


def test_the_bot_plays_legal_reproducible_moves_from_the_view_only() -> None:
    plays_from_the_view_only(lambda: AlphaMuBot(worlds=5, seed=3, threads=1, exact_limit=5))


@pytest.mark.parametrize("kwargs", [dict(fronts=0), dict(fronts=2.5), dict(fronts=True), dict(depth=7),
                                    dict(worlds=0), dict(prune=0.1), dict(horizon=-1)])
def test_bad_parameters_are_value_errors(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        AlphaMuBot(**kwargs)


def test_bot_names() -> None:
    bot = make_bot("alphamu:d=4,k=3,n=20", seed=2)
    assert isinstance(bot, AlphaMuBot) and (bot.depth, bot.fronts, bot.worlds, bot.seed) == (4, 3, 20, 2)
    assert "AlphaMu(20" in bot.name and "fronts 3" in bot.name
    assert make_bot("alphamu:q=12").endgame is not None
    for bad in ("alphamu:k=0", "alphamu:z=1", "alphamu:d=x"):
        with pytest.raises(ScopaError):
            make_bot(bad)
    view = late_views(1, 6)[0]
    with pytest.raises(ValueError, match="fronts"):
        alphamu_values(view, list(view.sample_groups(2, seed=1)), fronts=-1, threads=1)
    with pytest.raises(ValueError, match="at least one world"):
        alphamu_values(view, [], threads=1)
    with pytest.raises(ValueError, match="at least one world"):
        nonfused_values(view, [], threads=1)
    with pytest.raises(ValueError, match="horizon"):
        alphamu_values(view, list(view.sample_groups(2, seed=1)), horizon=-1, threads=1)
