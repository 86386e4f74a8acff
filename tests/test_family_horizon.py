"""Horizon search (family kernel, every game): a horizon at or beyond the round's end is the exact
search; a shorter one equals a plain depth-limited minimax over the static evaluation
(`evaluate`) and says where it cut; its table entries never reach exact searches; bad
horizons are refused; the evaluation stays within the points still possible; `deepen` deepens
to exact within a budget."""
from __future__ import annotations

import math
import random

import pytest

from scopa_solver import Position, Rules, analyze, analyze_many, solve, solve_many
from scopa_solver.errors import LimitError, RulesError
from scopa_solver.kernel import (
    WANT_ALL, WANT_BEST, WANT_PV, KernelState, evaluate, legal_moves, play,
    score, new_searcher, run_batch,
)

from helpers import games, play_down

GAMES = games("scopa", "3 players", "4 players", "4 alone", "6 players", "scopone", "scientifico",
              more={"3 players, a 15": Rules(players=3, capture="fifteen"),
                    "re bello and napola": Rules(players=4, re_bello=True, napola=True)})


def plies_left(state: KernelState) -> int:
    return sum(bin(h).count("1") for h in state.hands) + 3 * state.players * len(state.deals)


def walk(rules: Rules, seed: int, left: int) -> KernelState:
    """A position reached by random play from a seeded deal, `left` plies before the end."""
    return play_down(Position.new_round(seed=seed, rules=rules).kernel_state(), random.Random(seed), left)


def sides_points(state: KernelState) -> list[int]:
    return score(state.piles, state.scopas, state.sides, state.rules)["points"]


QUARTERS = 4       # the horizon search counts quarter points


def reference(state: KernelState, depth: int, root_side: int) -> int:
    """Depth-limited minimax, the root side's value in quarter points: with two sides its final
    margin, with more its points minus the best other side's (paranoid); at depth 0 the static
    value."""
    me = state.sides[state.to_move]
    moves = legal_moves(state)
    if not moves:
        points = sides_points(state)
        return QUARTERS * (points[root_side] - max(p for s, p in enumerate(points) if s != root_side))
    if depth == 0:
        _, value = evaluate(state, root_seat=state.sides.index(root_side))
        value = round(QUARTERS * value)         # a whole number of quarters already
        if len(set(state.sides)) == 2:      # points to come for the mover: add the scopas made
            made = [0, 0]
            for seat, scopas in enumerate(state.scopas):
                made[state.sides[seat]] += scopas
            value += QUARTERS * (made[me] - made[1 - me])
        return value if me == root_side else -value
    values = [reference(play(state, m)[0], depth - 1, root_side) for m in moves]
    return max(values) if me == root_side else min(values)


@pytest.mark.parametrize("game", list(GAMES))
def test_horizon_at_or_beyond_the_end_is_exact(game):
    rules = GAMES[game]
    searcher = new_searcher(4)
    for seed in range(4):
        state = walk(rules, seed, 2 * rules.players + 2)
        exact = new_searcher(4).search(state)
        for depth in (plies_left(state), plies_left(state) + 3, 1000):
            r = searcher.search(state, horizon=depth)
            assert r.horizon is None and r.evaluations == 0
            assert (r.lower, r.upper, sorted(r.best), r.pv, r.points) == \
                (exact.lower, exact.upper, sorted(exact.best), exact.pv, exact.points)
        for depth in (0, None):
            r = searcher.search(state, horizon=depth)
            assert r.horizon is None and (r.lower, sorted(r.best)) == (exact.lower, sorted(exact.best))


@pytest.mark.parametrize("game", list(GAMES))
def test_horizon_equals_depth_limited_minimax_over_the_evaluation(game):
    rules = GAMES[game]
    searcher = new_searcher(4)
    for seed in range(3):
        state = walk(rules, 10 + seed, min(rules.players + 3, 7))
        root_side = state.sides[state.to_move]
        for depth in (1, 2, 3):
            r = searcher.search(state, want=WANT_BEST | WANT_PV, horizon=depth)
            assert r.stop == 0 and r.horizon == depth and r.evaluations > 0
            quarters = reference(state, depth, root_side)
            assert r.lower == r.upper == math.floor(quarters / QUARTERS + 0.5)   # reported in points
            # every best move reaches the value in quarters, the others do not
            for m in legal_moves(state):
                child = play(state, m)[0]
                v = reference(child, depth - 1, root_side)
                assert (v == quarters) == (m in r.best), (m, v, quarters)
            assert len(r.pv) == depth and r.end is None
            all_moves = searcher.search(state, want=WANT_ALL, horizon=depth)
            assert max(lo for lo, _ in all_moves.move_bounds) == r.lower


def test_horizon_entries_never_reach_exact_searches():
    for rules in (Rules(players=4, game="scientifico"), Rules(players=3), Rules()):
        for seed in range(3):
            state = walk(rules, 20 + seed, 12)
            fresh = new_searcher(4)
            exact = fresh.search(state)
            shallow = fresh.search(state, horizon=3)
            used = new_searcher(4)
            for depth in (2, 3, 5, 8):
                used.search(state, horizon=depth)
            again = used.search(state)
            assert again.horizon is None
            assert (again.lower, sorted(again.best), again.points) == \
                (exact.lower, sorted(exact.best), exact.points)
            # and exact entries never reach a horizon search: its values depend only on the position
            assert used.search(state, horizon=3).lower == shallow.lower


@pytest.mark.parametrize("game", list(GAMES))
def test_evaluation_within_the_points_possible(game):
    rules = GAMES[game]
    for seed in range(12):
        state = walk(rules, 30 + seed, random.Random(seed).randrange(1, 40 - 4 * (game == "scientifico")))
        expected, value = evaluate(state)
        play = state.table | sum(state.hands) | sum(sum(d) for d in state.deals)
        nsides = len(expected)
        for side, e in enumerate(expected):
            # the most it can end with: its pile and every card still in play
            piles = [0] * state.players
            seats = [s for s in range(state.players) if state.sides[s] == side]
            for seat in range(state.players):
                if state.sides[seat] != side:
                    piles[seat] = state.piles[seat]
            piles[seats[0]] = play | sum(state.piles[s] for s in seats)
            most = score(piles, [0] * state.players, state.sides, state.rules)["points"][side]
            assert 0 <= e <= most + 0.6 + 1e-9, (side, e, most)
        # a value never exceeds every point of the round to one side (scopas made, one more sweep)
        everything = score([(1 << 40) - 1] + [0] * (state.players - 1), [0] * state.players,
                                  state.sides, state.rules)["points"][0]
        assert abs(value) <= everything + sum(state.scopas) + 1
        assert nsides == len(set(state.sides))


def test_solver_horizon_every_call():
    pos = Position.new_round(seed=3, rules=Rules(players=4, game="scopone"))
    r = solve(pos, horizon=4)
    assert r.horizon == 4 and r.complete and r.value is not None and len(r.pv) == 4
    assert r.outcome is None and r.points is None
    assert "horizon=4" in repr(r) and r.to_dict()["horizon"] == 4
    moves = analyze(pos, horizon=4)
    assert max(mv.value for mv in moves) == r.value         # whole points: the best moves among the top
    assert {str(m) for m in r.best_moves} <= {str(mv.move) for mv in moves if mv.value == r.value}
    assert [x.value for x in solve_many([pos, pos], horizon=4)] == [r.value, r.value]
    assert [mv.value for mv in analyze_many([pos], horizon=4)[0]] == [mv.value for mv in moves]
    # two-player Scopa goes through the family kernel for a horizon; late enough, it is exact
    two = Position.new_round(seed=5)
    assert solve(two, horizon=2).horizon == 2
    exact = solve(two)
    deep = solve(two, horizon=40)
    assert deep.horizon is None and deep.value == exact.value
    assert "horizon" not in repr(deep) and deep.to_dict().get("horizon") is None


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, [4]])
def test_bad_horizons_are_refused(bad):
    pos = Position.new_round(seed=1, rules=Rules(players=3))
    with pytest.raises(LimitError, match="horizon"):
        solve(pos, horizon=bad)
    with pytest.raises(LimitError, match="horizon"):
        run_batch([pos.kernel_state()], want=0, horizon=bad)


def test_two_player_states_take_horizons_and_deepening_too():
    """One searcher for every game: a two-player state searched to a horizon goes to the family
    engine (the fast path is exact only), deepening ends exact with the fast path's value."""
    two = Position.new_round(seed=1)
    exact = run_batch([two.kernel_state()], want=WANT_BEST)[0]
    cut = run_batch([two.kernel_state()], want=WANT_BEST, horizon=4)[0]
    assert exact.horizon is None and cut.horizon == 4 and cut.evaluations > 0 and cut.best
    deep = run_batch([two.kernel_state()], want=WANT_BEST, deepen=True)[0]
    assert deep.horizon is None and deep.lower == deep.upper == exact.lower
    with pytest.raises(ValueError, match="horizon"):
        new_searcher(1).search(two.kernel_state(), horizon=-2)


def test_deepen_reaches_exact_or_the_deepest_complete_horizon():
    late = walk(Rules(players=4, game="scientifico"), 4, 14)
    exact = new_searcher(4).search(late)
    deep = run_batch([late], want=WANT_BEST | WANT_PV, deepen=True)[0]
    assert deep.horizon is None and deep.lower == exact.lower
    start = Position.new_round(seed=4, rules=Rules(players=4, game="scientifico")).kernel_state()
    budget = run_batch([start, start], want=WANT_BEST, deepen=True, max_nodes=20000)
    for r in budget:
        assert r.stop == 0 and r.horizon is not None and r.horizon % 4 == 0
        alone = new_searcher(4).search(start, want=WANT_BEST, horizon=r.horizon)
        assert alone.lower == r.lower
    deeper = run_batch([start], want=WANT_BEST, deepen=True, max_nodes=200000)[0]
    assert deeper.horizon > budget[0].horizon
    tiny = run_batch([start], want=WANT_BEST, deepen=True, max_nodes=5)[0]
    assert tiny.stop == 1          # not even the first horizon completed: that search, stopped


def test_the_benchmark_runs_small():
    import importlib.util
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_horizon.py"
    spec = importlib.util.spec_from_file_location("test_bench_horizon", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert callable(bench.main)
    figures = bench.run(["paranoid3-2deals"], count=3, horizons=(2, 40))
    json.dumps(figures, allow_nan=False)
    row = figures["rows"]["paranoid3-2deals"]
    assert row["40"]["mae"] == 0 and row["40"]["best_move_agrees"] == 1.0    # beyond the end: exact
    assert row["40"]["regret"] == 0 and row["2"]["regret"] >= 0
    assert "paranoid3-2deals" in bench.report(figures)


def test_maxn_takes_a_horizon_too():
    searcher = new_searcher(4)
    for seed in range(3):
        state = walk(Rules(players=3), 40 + seed, 9)
        exact = searcher.search(state, objective="maxn")
        beyond = searcher.search(state, objective="maxn", horizon=9)
        assert beyond.horizon is None and (beyond.lower, beyond.points, beyond.best) == \
            (exact.lower, exact.points, exact.best)
        cut = searcher.search(state, objective="maxn", horizon=3)
        assert cut.horizon == 3 and cut.stop == 0 and cut.evaluations > 0 and len(cut.pv) == 3
        assert len(cut.points) == 3 and all(p >= 0 for p in cut.points) and cut.end is None
        assert cut.lower == cut.upper and cut.best


def test_deepen_within_a_time_budget():
    import time
    start = Position.new_round(seed=8, rules=Rules(players=4, game="scientifico")).kernel_state()
    t = time.process_time()     # CPU seconds, one thread: the work done, whatever the machine's load
    r = run_batch([start], want=WANT_ALL, deepen=True, time_limit=0.2)[0]
    assert time.process_time() - t < 3.0            # the budget, with room
    assert r.stop == 0 and r.horizon is not None and r.horizon >= 4 and r.move_bounds
