"""The non-fused search (EPIMC): its backup agrees with a slow independent recursion over
Positions and Views (and with every pure strategy of the player on tiny cases), reduces to
determinization at depth 0 and to the modelled reply at depth 1, and the bot plays legal,
reproducible moves from what the player has seen."""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from scopa_solver import GreedyBot, Position, View, analyze, suggest, Limit
from scopa_solver.core.cards import iter_cards
from scopa_solver.errors import ScopaError
from scopa_solver.play.epimc import EPIMCBot, EPIMCDepths, nonfused_values
from scopa_solver.play.inference import modelled_values
from scopa_solver.core.worlds import cut
from scopa_solver.play.bot_names import make_bot

T = 0.5


def late_views(count: int, stock: int, seed: int = 1, dealer: int = 1) -> list[View]:
    """Views of the player to move, Greedy having played the round down to `stock` cards."""
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        pos = Position.new_round(seed=rng.randrange(10**6), dealer=dealer)
        while not pos.is_round_over() and (len(pos.stock) > stock or rng.random() < 0.4):
            pos = pos.play(GreedyBot()(pos))
        if not pos.is_round_over() and len(pos.stock) == stock and len(pos.legal_moves()) > 1:
            out.append(pos.view(pos.to_move))
    return out


def shared_worlds(view: View, hands: int, each: int, seed: int) -> list:
    """`hands` opponent hands, each with `each` stocks: worlds the player cannot tell apart
    after the opponent's reply (the same card played), so information sets hold several."""
    rng = random.Random(seed)
    out = []
    for first in view.sample_groups(hands, seed=seed):
        rest = [c.mask for c in iter_cards(view.unseen & ~first[0])]
        for _ in range(each):
            rng.shuffle(rest)
            out.append((first[0],) + cut([0] * view.opponent_cards + rest, view.group_sizes())[1:])
    return out


# -- a slow reference: Positions, Views as information sets, analyze at the bottom ----------------

def _model(pos: Position, prune: float = 0.0) -> list[tuple]:
    """The opponent's moves with the model's probabilities, those under `prune` dropped."""
    scored = GreedyBot().scores(pos.view(pos.to_move))
    top = max(s for _, s in scored)
    e = [math.exp((s - top) / T) for _, s in scored]
    kept = [(m, w) for (m, _), w in zip(scored, e) if w / sum(e) >= prune]
    return [(m, w / sum(w for _, w in kept)) for m, w in kept]


def _exact(pos: Position) -> dict:
    return {mv.move: mv.value for mv in analyze(pos)}


def _own(hists: list, k: int, me: int, weights: list, prune: float) -> list[float]:
    """One information set of the player (same view): the best move on the weighted sum, then
    each history's value under it."""
    moves = hists[0][1].legal_moves()
    if k == 0:
        per_move = [[_exact(pos)[m] for _, pos, _ in hists] for m in moves]
    else:
        per_move = [_after_own([(i, pos.play(m), r) for i, pos, r in hists], k - 1, me, weights, prune)
                    for m in moves]
    totals = [sum(weights[i] * r * v for (i, _, r), v in zip(hists, vals)) for vals in per_move]
    best = max(range(len(moves)), key=lambda j: (round(totals[j], 9), -moves[j].packed))
    return per_move[best]


def _after_own(hists: list, k: int, me: int, weights: list, prune: float) -> list[float]:
    """Histories with the opponent to move (or the round over): their values."""
    out: list = [None] * len(hists)
    groups: dict = {}
    pending = []
    for n, (i, pos, r) in enumerate(hists):
        if pos.is_round_over():
            out[n] = pos.round_score().margin(me)
        elif k == 0:
            exact = _exact(pos)
            out[n] = sum(-q * exact[m] for m, q in _model(pos))
        else:
            for m, q in _model(pos, prune):
                child = pos.play(m)
                if child.is_round_over():
                    pending.append((n, q, child.round_score().margin(me)))
                else:
                    groups.setdefault(child.view(me).to_string(), []).append((n, q, (i, child, r * q)))
    for members in groups.values():
        values = _own([h for _, _, h in members], k - 1, me, weights, prune)
        pending += [(n, q, v) for (n, q, _), v in zip(members, values)]
    for n, q, v in pending:
        out[n] = (out[n] or 0.0) + q * v
    return out


def reference(view: View, worlds: list, weights: list, depth: int, prune: float = 0.0) -> list[list[float]]:
    me = view.player
    hists = [(i, view.world_position(view.state_of(g)), 1.0) for i, g in enumerate(worlds)]
    columns = []
    for m in view.legal_moves():
        if depth == 0:
            columns.append([_exact(pos)[m] for _, pos, _ in hists])
        else:
            columns.append(_after_own([(i, pos.play(m), r) for i, pos, r in hists], depth - 1, me, weights, prune))
    return [list(row) for row in zip(*columns)]


@pytest.mark.parametrize("stock,depth,prune", [(6, 1, 0), (6, 2, 0), (6, 3, 0), (12, 2, 0), (6, 3, 0.05), (6, 5, 0.05),
                                                (12, 4, 0.1), (12, 6, 0.2)])
def test_the_backup_agrees_with_a_slow_reference(stock: int, depth: int, prune: float) -> None:
    # with `prune`, the reference drops the unlikely replies above the bottom ply
    rng = random.Random(depth * 100 + stock)
    for view in late_views(3, stock, seed=stock + depth):
        worlds = shared_worlds(view, 2, 3, seed=rng.randrange(1000))
        weights = [rng.choice([0.5, 1.0, 2.0]) for _ in worlds]
        got = nonfused_values(view, worlds, weights, limit=Limit(threads=1), depth=depth, prune=prune)
        want = reference(view, worlds, weights, depth, prune)
        np.testing.assert_allclose(got, np.array(want), rtol=0, atol=1e-9)


def test_the_backup_is_the_best_pure_strategy_on_tiny_cases() -> None:
    # depth 2: the player's second move, one per information set; try every assignment
    checked, fused_differs = 0, False
    for view in late_views(6, 12, seed=5):
        me = view.player
        worlds = shared_worlds(view, 1, 3, seed=2)
        got = nonfused_values(view, worlds, limit=Limit(threads=1), depth=2).mean(axis=0)
        for j, m in enumerate(view.legal_moves()):
            leaves = []         # (world, reach, information set, {move: value}) or a fixed value
            for i, g in enumerate(worlds):
                pos = view.world_position(view.state_of(g)).play(m)
                if pos.is_round_over():
                    leaves.append((i, 1.0, None, pos.round_score().margin(me)))
                    continue
                for r, q in _model(pos):
                    child = pos.play(r)
                    if child.is_round_over():
                        leaves.append((i, q, None, child.round_score().margin(me)))
                    else:
                        leaves.append((i, q, child.view(me).to_string(), _exact(child)))
            sets = sorted({s for _, _, s, _ in leaves if s is not None})
            options = {s: next(v for _, _, t, v in leaves if t == s) for s in sets}
            if math.prod(len(options[s]) for s in sets) > 4096:
                continue
            best = -math.inf
            for choice in itertools.product(*[list(options[s]) for s in sets]):
                pick = dict(zip(sets, choice))
                total = sum(q * (v if s is None else v[pick[s]]) for _, q, s, v in leaves)
                best = max(best, total / len(worlds))
            assert got[j] == pytest.approx(best, abs=1e-9)
            fused = sum(q * (v if s is None else max(v.values())) for _, q, s, v in leaves) / len(worlds)
            fused_differs = fused_differs or fused > best + 1e-9
            checked += 1
    assert checked >= 3 and fused_differs


def test_depth_0_is_determinization_and_depth_1_the_modelled_reply() -> None:
    view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    worlds = list(view.enumerate_groups())[::40]
    s = suggest(view, Limit(threads=1), worlds="all", progress=False)
    every = list(view.enumerate_groups())
    zero = nonfused_values(view, every, limit=Limit(threads=1), depth=0)
    means = dict(zip(view.legal_moves(), zero.mean(axis=0)))
    assert [(m.move, round(m.mean, 9)) for m in s.moves] == [(m.move, round(means[m.move], 9)) for m in s.moves]
    assert max(means, key=lambda m: (round(means[m], 9))) == s.best
    one = nonfused_values(view, worlds, limit=Limit(threads=1), depth=1)
    np.testing.assert_allclose(one, modelled_values(view, worlds, T, limit=Limit(threads=1)), rtol=0, atol=1e-12)


def plays_from_the_view_only(make) -> None:
    """Two bots made by `make()` in lockstep against Greedy: one handed the true positions, the
    other another world with the same view; they play the same legal moves."""
    for seed in range(2):
        me = seed % 2
        real, shadow = make(), make()
        pos = Position.new_round(seed=seed + 20)
        while not pos.is_round_over():
            if pos.to_move == me:
                view = pos.view(me)
                other = next((w for w in view.sample_worlds(10, seed=seed) if w != pos), pos)
                move = real(pos)
                assert move in pos.legal_moves()
                assert shadow(other) == move
                assert make().choose(view) == make().choose(view)
            else:
                move = GreedyBot()(pos)
            pos = pos.play(move)


def test_the_bot_plays_legal_reproducible_moves_from_the_view_only() -> None:
    plays_from_the_view_only(lambda: EPIMCBot(Limit(threads=1), worlds=5, seed=3, exact_limit=5))


def test_the_endgame_hook_decides_the_last_two_deals() -> None:
    asked = []

    def endgame(view: View):
        asked.append(view.stock_cards)
        moves = view.legal_moves()
        return moves[-1] if view.stock_cards == 0 else None    # the last deal only

    bot = EPIMCBot(Limit(threads=1), worlds=4, seed=1, exact_limit=4, endgame=endgame)
    pos = Position.new_round(seed=8)
    while not pos.is_round_over():
        move = bot(pos) if pos.to_move == 0 else GreedyBot()(pos)
        if pos.to_move == 0 and len(pos.stock) == 0 and len(pos.legal_moves()) > 1:
            assert move == pos.legal_moves()[-1]
        pos = pos.play(move)
    assert asked and set(asked) <= {0, 6} and 6 in asked


def test_the_last_deal_is_solved_exactly() -> None:
    for view in late_views(4, 0, seed=9):
        best = {mv.move for mv in analyze(view.world_position(view.any_world_state())) if mv.value ==
                analyze(view.world_position(view.any_world_state()))[0].value}
        assert EPIMCBot(Limit(threads=1), worlds=4, seed=1, exact_last=True).choose(view) in best


@pytest.mark.parametrize("kwargs", [dict(temperature=0), dict(worlds=0), dict(worlds=2.5), dict(endgame=3),
                                    dict(depths=3)])
def test_bad_parameters_are_value_errors(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        EPIMCBot(**kwargs)


@pytest.mark.parametrize("fields", [dict(sampled=-1), dict(sampled=7), dict(sampled="2"), dict(sampled=True),
                                    dict(enumerated=9), dict(last=-1), dict(prune=1), dict(prune=-0.1),
                                    dict(prune="x")])
def test_bad_depths_are_value_errors_naming_the_field(fields: dict) -> None:
    with pytest.raises(ValueError, match=next(iter(fields))):
        EPIMCDepths(**fields)


def test_bad_calls_are_value_errors() -> None:
    view = late_views(1, 6)[0]
    worlds = list(view.sample_groups(2, seed=1))
    with pytest.raises(ValueError, match="weights"):
        nonfused_values(view, worlds, [1.0], limit=Limit(threads=1))
    with pytest.raises(ValueError, match="depth"):
        nonfused_values(view, worlds, limit=Limit(threads=1), depth=9)
    with pytest.raises(ScopaError):
        make_bot("epimc:d=x")
    with pytest.raises(ScopaError):
        make_bot("epimc:z=1")
    with pytest.raises(ScopaError, match="hidden cards"):
        make_bot("epimc:q=0")
    with pytest.raises(ScopaError):
        make_bot("epimc:d=7")
    with pytest.raises(ValueError, match="prune"):
        nonfused_values(view, worlds, limit=Limit(threads=1), depth=2, prune=1.0)
    with pytest.raises(ScopaError, match="prune"):
        make_bot("epimc:p=2")
    for removed in ("epimc:h=0", "epimc:m=learned", "epimc:a=1"):     # experiments that did not pay (docs/lab.md)
        with pytest.raises(ScopaError, match="unknown option"):
            make_bot(removed)
    bot = make_bot("epimc:d=1,t=0.7,n=12", seed=4)
    assert isinstance(bot, EPIMCBot) and (bot.depth, bot.temperature, bot.worlds, bot.seed) == (1, 0.7, 12, 4)
    bot = make_bot("epimc:d=4,p=0.01,l=6")
    assert (bot.depth, bot.prune, bot.last_depth) == (4, 0.01, 6) and "prune 0.01" in bot.name
    assert bot.depths == EPIMCDepths(sampled=4, prune=0.01, last=6)


def test_depth_1_plays_as_the_opponent_model_bot() -> None:
    # the same worlds (posterior given the same plays) and the modelled reply: the same moves
    from scopa_solver import InferenceBot
    for seed in range(2):
        epimc = EPIMCBot(Limit(threads=1), worlds=5, seed=seed, depths=EPIMCDepths(sampled=1), exact_limit=5)
        model = InferenceBot(Limit(threads=1), worlds=5, seed=seed, exact_limit=5)
        pos = Position.new_round(seed=seed + 40)
        while not pos.is_round_over():
            if pos.to_move == seed % 2:
                move = epimc(pos)
                assert model(pos) == move
            else:
                move = GreedyBot()(pos)
            pos = pos.play(move)


def test_the_last_deal_is_searched_to_last_depth() -> None:
    # one world: the bot plays the best column of the slow reference searched to the round's end
    checked = 0
    for view in late_views(6, 0, seed=9):
        worlds = list(view.enumerate_groups())
        assert len(worlds) == 1
        want = reference(view, worlds, [1.0], 6)[0]
        moves = view.legal_moves()
        bot = EPIMCBot(Limit(threads=1), worlds=4, seed=1, depths=EPIMCDepths(last=6))
        chosen = bot.choose(view)
        assert want[moves.index(chosen)] == pytest.approx(max(want), abs=1e-9)
        checked += max(want) - min(want) > 1e-6
    assert checked >= 2
