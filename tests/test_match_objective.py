"""The match objective (issue 42, docs/search.md "The match objective"): the kernel's MATCH values
against a brute-force minimax over the leaf table on the independent reference's rules, in every
game of the family; the margin's affine image against objective "value"; depth-limited match
searches; the face (`Match`, `leaf_table`, the results' text) and its bad input."""
from __future__ import annotations

import itertools
import random
import time

import pytest

import reference as ref
from helpers import REF_GAMES, from_kernel, to_kernel, unpack
from scopa_solver import Limit, Match, MatchError, Position, Rules, analysis, analyze, analyze_many, solve, solve_many
from scopa_solver import kernel
from scopa_solver.search.match import leaf_table, match_text, set_default_equity
from scopa_solver.search.solver import solve_values

ALL = kernel.WANT_ALL | kernel.WANT_BEST | kernel.WANT_PV


def plays_left(rules: ref.RefRules) -> int:
    """Small enough for the reference's plain recursion, large enough to span a deal."""
    return {2: 9, 3: 8, 4: 8, 6: 8}[rules.players] - 2 * rules.optional_capture


def chance_function(rng: random.Random, nsides: int, side: int, monotone: bool):
    """A leaf function of every side's final round points, 0..10000: monotone (the side's points
    up never lower it, another side's never raise it, random slopes and a cap) or random noise."""
    if not monotone:
        salt = rng.randrange(1 << 30)
        return lambda points: random.Random(hash((salt, points))).randrange(10001)
    slopes = [rng.randrange(1, 900) for _ in range(nsides)]
    base = rng.randrange(2000, 8000)

    def chance(points):
        x = base + sum(slope * (p if i == side else -p) for i, (slope, p) in enumerate(zip(slopes, points)))
        return max(0, min(10000, x))
    return chance


def kernel_table(state: kernel.KernelState, chance) -> kernel.MatchTable:
    """The leaf table of a kernel state: `chance` over the box of its sides' point bounds."""
    bounds = kernel.side_bounds(state)
    lows = [low for low, _ in bounds]
    dims = [high - low + 1 for low, high in bounds]
    points = itertools.product(*(range(low, low + dim) for low, dim in zip(lows, dims)))
    return kernel.MatchTable([chance(p) for p in points], lows, dims, state.sides[state.to_move])


def brute(state: ref.RefState, side: int, chance, memo: dict) -> int:
    """The match value by plain minimax on the reference's rules: at the round's end `chance`
    of every side's points; `side`'s seats maximise it, every other seat minimises it."""
    if state in memo:
        return memo[state]
    if state.is_over():
        value = chance(tuple(state.points()))
    else:
        values = [brute(state.play(m), side, chance, memo) for m in state.moves()]
        value = max(values) if state.side_to_move() == side else min(values)
    memo[state] = value
    return value


@pytest.mark.parametrize("name", list(REF_GAMES))
def test_kernel_match_values_equal_a_brute_force_minimax(name):
    # every game, 24 positions each (half the tables monotone: bounds on; half noise: bounds off):
    # the root value, every root move's value and the optimal moves, two searches each
    rules = REF_GAMES[name]
    rng = random.Random(f"match {name}")
    searcher = kernel.Searcher(4)
    monotone_seen = 0
    for trial in range(24):
        state = ref.random_state(rng, rules, plays_left=rng.randrange(3, plays_left(rules) + 1))
        if state.is_over():
            continue
        k = to_kernel(state)
        side = state.side_to_move()
        chance = chance_function(rng, max(k.sides) + 1, side, monotone=trial % 2 == 0)
        table = kernel_table(k, chance)
        monotone_seen += table.monotone
        memo: dict = {}
        expected = brute(state, side, chance, memo)
        r = searcher.search_many([k], ALL, 0, 0.0, False, table, 0)[0]
        assert r.objective == "match" and r.stop == 0
        assert (r.lower, r.upper) == (expected, expected), (name, trial)
        by_move = {packed: brute(state.play(unpack(packed)), side, chance, memo) for packed in r.moves}
        assert r.move_bounds == [(by_move[m], by_move[m]) for m in r.moves], (name, trial)
        assert sorted(r.best) == sorted(m for m in r.moves if by_move[m] == expected)
        # the driver without every move's value (MTD(f) or the one pass, pv tests) agrees
        solved = searcher.search_many([k], kernel.WANT_BEST | kernel.WANT_PV, 0, 0.0, False, table, 0)[0]
        assert (solved.lower, solved.best) == (expected, r.best)
        line = from_kernel(k, rules)
        for packed in solved.pv:        # the pv keeps the value: optimal play to the round's end
            line = line.play(unpack(packed))
        assert line.is_over() and chance(tuple(line.points())) == expected
    assert monotone_seen >= 6           # the bounds were in play


@pytest.mark.parametrize("name", ["2p", "3p", "scopone", "4p-alone-aces"])
def test_the_same_without_bounds_last_round_walk_or_table(name):
    # the switches the search has: each path alone gives the same values
    rules = REF_GAMES[name]
    rng = random.Random(f"switches {name}")
    for trial in range(12):
        state = ref.random_state(rng, rules, plays_left=plays_left(rules))
        if state.is_over():
            continue
        k = to_kernel(state)
        side = state.side_to_move()
        chance = chance_function(rng, max(k.sides) + 1, side, monotone=True)
        table = kernel_table(k, chance)
        expected = brute(state, side, chance, {})
        for switch in ("set_bounds", "set_last_round", "set_table", "set_equivalence"):
            searcher = kernel.Searcher(4)
            getattr(searcher, switch)(0 if switch == "set_bounds" else False)
            r = searcher.search_many([k], ALL, 0, 0.0, False, table, 0)[0]
            assert (r.lower, r.upper) == (expected, expected), (name, trial, switch)


GAMES = {"scopa": Rules(), "three": Rules(players=3), "scopone": Rules(players=4, game="scopone"),
         "scientifico": Rules(players=4, game="scientifico"), "fifteen": Rules(capture="fifteen"),
         "four alone": Rules(players=4, partnerships=False)}


def later(rules: Rules, seed: int, cards: int) -> Position:
    rng = random.Random(seed)
    pos = Position.new_round(seed=seed, rules=rules)
    while sum(pos.hand_sizes()) + pos.stock_size() > cards:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


@pytest.mark.parametrize("game", list(GAMES))
def test_the_margins_affine_image_plays_as_objective_value(game):
    # a leaf table 5000 + 150 * (own points - the best other side's) is the margin (the paranoid
    # value) mapped up: the same optimal moves, and the value mapped the same way
    rules = GAMES[game]
    searcher = kernel.Searcher(16)
    for seed in range(6):
        state = later(rules, seed, 20 if rules.players == 2 else 12).kernel_state()
        side = state.sides[state.to_move]
        table = kernel_table(state, lambda p: 5000 + 150 * (p[side] - max(x for i, x in enumerate(p) if i != side)))
        assert table.monotone
        margin = searcher.search_many([state], ALL, 0, 0.0, False, "value", 0)[0]
        match = searcher.search_many([state], ALL, 0, 0.0, False, table, 0)[0]
        assert match.lower == match.upper == 5000 + 150 * margin.lower
        assert sorted(match.best) == sorted(margin.best)
        assert match.move_bounds == [(5000 + 150 * lo, 5000 + 150 * hi) for lo, hi in margin.move_bounds]


def test_two_tables_never_share_the_searchers_entries():
    # one searcher, two tables in turn, no clearing: each answer is the fresh searcher's
    state = later(Rules(), 3, 18).kernel_state()
    rng = random.Random(5)
    tables = [kernel_table(state, chance_function(rng, 2, state.sides[state.to_move], monotone=m))
              for m in (True, False, True)]
    shared = kernel.Searcher(16)
    for table in tables + tables:
        fresh = kernel.Searcher(16).search_many([state], ALL, 0, 0.0, False, table, 0)[0]
        again = shared.search_many([state], ALL, 0, 0.0, False, table, 0)[0]
        assert (again.lower, again.move_bounds, again.best) == (fresh.lower, fresh.move_bounds, fresh.best)
    assert len({t.key for t in tables}) == 3


def test_a_parallel_match_search_gives_the_one_thread_answer():
    # threads share one table (ext/parallel.pxi): wide entries too
    rng = random.Random(8)
    for seed in range(3):
        state = later(Rules(players=3), seed, 11).kernel_state()
        table = kernel_table(state, chance_function(rng, 3, state.sides[state.to_move], monotone=seed != 1))
        one = kernel.Searcher(16).search_many([state], ALL, 0, 0.0, False, table, 0)[0]
        two = kernel.Searcher(16).search_many([state], ALL, 0, 0.0, False, table, 0, 2)[0]
        assert (two.lower, two.upper, two.move_bounds, two.best) == (one.lower, one.upper, one.move_bounds, one.best)


def test_the_table_is_checked_against_the_position():
    state = later(Rules(), 1, 12).kernel_state()
    side = state.sides[state.to_move]
    good = kernel_table(state, lambda p: 5000)
    searcher = kernel.Searcher(1)
    other = kernel.MatchTable([5000] * good.cells, good.lows, good.dims, 1 - side)
    with pytest.raises(ValueError, match="side"):
        searcher.search_many([state], 1, 0, 0.0, False, other, 0)
    small = kernel.MatchTable([5000] * 4, (0, 0), (2, 2), side)
    with pytest.raises(ValueError, match="covers"):
        searcher.search_many([state], 1, 0, 0.0, False, small, 0)
    with pytest.raises(ValueError, match="entry"):
        kernel.MatchTable([10001] + [0] * 3, (0, 0), (2, 2), 0)
    with pytest.raises(ValueError, match="MatchTables"):
        searcher.search_many([state, state], 1, 0, 0.0, False, [good], 0)
    three = later(Rules(players=3), 1, 9).kernel_state()
    mine = kernel_table(three, lambda p: 5000)
    assert searcher.search_many([three], 1, 0, 0.0, False, mine, 0, 1, None, three.to_move)[0].lower == 5000
    with pytest.raises(ValueError, match="side to move"):
        searcher.search_many([three], 1, 0, 0.0, False, mine, 0, 1, None, (three.to_move + 1) % 3)
    # row-major, side 0 slowest: (0, 0), (0, 1), (1, 0), (1, 1)
    assert kernel.MatchTable([5000, 4000, 6000, 5000], (0, 0), (2, 2), 0).monotone
    assert not kernel.MatchTable([5000, 4000, 6000, 5000], (0, 0), (2, 2), 1).monotone
    assert not kernel.MatchTable([5000, 6000, 4000, 5000], (0, 0), (2, 2), 0).monotone
    assert kernel.MatchTable([5000, 4000, 6000, 5000], (0, 0), (2, 2), 0).value((1, 0)) == 6000


# -- the face ------------------------------------------------------------------------------------

class Equity:
    """A small made-up match equity for the tests: the lead after the round, 4% a point."""

    def after_round(self, score, round_points, dealer, side):
        totals = [s + p for s, p in zip(score, round_points)]
        lead = totals[side] - max(t for i, t in enumerate(totals) if i != side)
        return min(1.0, max(0.0, 0.5 + 0.04 * lead + 0.01 * (dealer == side)))


def face_brute(pos: Position, match: Match, move=None) -> int:
    """The brute-force match value of `pos` (after `move`, if given) for the side to move at
    `pos`, from the equity of `match` as the face builds its table."""
    state = pos.kernel_state()
    side = state.sides[state.to_move]

    def chance(points):
        return int(round(10000 * match.equity.after_round(match.score, points, pos.dealer, side)))
    start = from_kernel(state, ref.RefRules(players=pos.rules.players, game=pos.rules.game))
    if move is not None:
        start = start.play(unpack(move.packed))
    return brute(start, side, chance, {})


@pytest.mark.parametrize("game", ["scopa", "three", "scopone"])
def test_solve_and_analyze_under_a_match(game):
    rules = GAMES[game]
    for seed in range(4):
        pos = later(rules, seed, 7)
        match = Match((5, 7, 3)[:max(rules.sides) + 1], equity=Equity())
        expected = face_brute(pos, match)
        r = solve(pos, objective=match)
        assert (r.value, r.lower, r.upper, r.exact, r.objective) == (expected, expected, expected, True, "match")
        assert match_text(expected) in repr(r)
        a = analyze(pos, objective=match)
        assert a.value == expected and a.exact and match_text(expected) in str(a)
        assert [mv.value for mv in a] == [face_brute(pos, match, mv.move) for mv in a]
        assert [r.value for r in solve_many([pos, pos], objective=match)] == [expected, expected]
        assert [a.value for a in analyze_many([pos], objective=match)] == [expected]
        assert solve_values([pos], objective=match) == [expected]


def test_batches_pair_each_position_with_its_leaf_table():
    # run_batch draws the states and their tables together, on every path: workers, a node
    # limit's exact tries then deepening, a deadline's one call a state
    equity = Equity()
    positions = [later(Rules(), seed, 7) for seed in range(6)] + [later(Rules(players=3), 9, 7)]
    matches = [Match((3, 4), equity=equity)] * 6 + [Match((3, 4, 5), equity=equity)]
    expected = [face_brute(p, m) for p, m in zip(positions[:6], matches)]
    assert [r.value for r in solve_many(positions[:6], Limit(threads=2), objective=matches[0])] == expected
    assert [a.value for a in analyze_many(positions[:6], Limit(nodes=100_000), objective=matches[0])] == expected
    deadline = time.monotonic() + 60
    assert [r.value for r in solve_many(positions[:6], Limit(deadline=deadline), objective=matches[0])] == expected
    with pytest.raises(MatchError, match="score"):         # one Match for positions of two games
        solve_many(positions, objective=matches[0])
    # deepening each state with its own table (as PIMC's worlds would): the deepest depth is exact
    tables = [leaf_table(p, m) for p, m in zip(positions, matches)]
    raws = kernel.run_batch([p.kernel_state() for p in positions], want=kernel.WANT_BEST, limit=Limit(nodes=10**6),
                            objective=tables, deepen=True)
    assert [r.lower for r in raws[:6]] == expected and all(r.horizon is None for r in raws)
    assert raws[6].lower == face_brute(positions[6], matches[6])


def test_a_limited_match_search_has_a_value_and_says_it_is_not_exact():
    match = Match((3, 4), equity=Equity())
    whole = Position.new_round(seed=4)
    r = solve(whole, Limit(horizon=4), objective=match)
    assert r.value is not None and 0 <= r.value <= 10000 and not r.exact and r.horizon == 4
    r = solve(Position.new_round(seed=4, rules=Rules(players=3)), Limit(nodes=3000), objective=Match((1, 2, 3), equity=Equity()))
    assert r.value is not None and not r.exact and r.stopped == "nodes"
    assert (r.lower, r.upper) == (0, 10000) or r.lower <= r.value <= r.upper
    snapshots = list(analysis(Position.new_round(seed=5, rules=Rules(players=3)), Limit(nodes=200_000, horizon=8),
                              objective=Match((1, 2, 3), equity=Equity())))
    assert [s.horizon for s in snapshots] == [4, 8]
    assert all(s.value is not None and not s.exact and len(s) == len(s.result.position.legal_moves())
               for s in snapshots)


def test_a_leaf_table_from_an_equity_at_once_is_the_one_entry_by_entry(monkeypatch):
    # the shipped MatchEquity gives every entry at once (after_round_many): the same table as
    # after_round cell by cell, in two, three and six sides (six alone: the approximation)
    from scopa_solver.play.equity import Distribution, MatchEquity
    from scopa_solver.search.match import _equity_table, _table, equity_chance
    calls = []
    one_by_one = MatchEquity.after_round
    monkeypatch.setattr(MatchEquity, "after_round", lambda self, *args: calls.append(args) or one_by_one(self, *args))
    _equity_table.cache_clear()
    six = Distribution({(2, 1, 0, 1, 0, 0): 3, (0, 1, 2, 0, 0, 1): 2, (3, 0, 0, 0, 1, 0): 2, (0, 0, 0, 0, 0, 4): 1},
                       6, tuple(range(6)))
    for rules, score, equity in ((Rules(), (7, 9), MatchEquity.of(Rules())),
                                 (Rules(players=3), (3, 8, 9), MatchEquity.of(Rules(players=3))),
                                 (Rules(players=6, partnerships=False), (3, 5, 7, 2, 6, 4),
                                  MatchEquity.from_distribution(six, 11))):
        pos = later(rules, 2, 7)
        match = Match(score, equity=equity)
        table = leaf_table(pos, match)
        assert calls == []      # not one entry at a time
        side = pos.rules.sides[pos.to_move]
        one = _table(equity_chance(pos, match), table.lows, table.dims, side)
        cells = itertools.product(*(range(low, low + dim) for low, dim in zip(table.lows, table.dims)))
        assert all(table.value(p) == one.value(p) for p in cells) and len(calls) == table.cells
        calls.clear()


@pytest.mark.parametrize("players, score", [(4, (7, 9, 3, 8)), (6, (7, 9, 3, 8, 2, 5))])
def test_players_alone_search_to_win_the_match_with_the_shipped_equity(players, score):
    # four and six sides (six: the approximate equity), the shipped one by default: the last
    # card's moves are worth the equity's chance after the round they end, the analysis and the
    # solve agree, and a deal of six alone is refused (too many leaf entries), not searched
    from scopa_solver.play.equity import MatchEquity
    rules = Rules(players=players, partnerships=False)
    equity = MatchEquity.of(rules)
    assert equity.exact == (players == 4)
    for seed in range(3):
        last = later(rules, seed, 1)
        side = rules.sides[last.to_move]
        a = analyze(last, objective=Match(score))
        for row in a:
            final = last.play(row.move)
            assert final.is_round_over()
            chance = equity.after_round(score, final.round_score().total, last.dealer, side)
            assert row.value == round(chance * 10000), (seed, row.move)
        pos = later(rules, seed, 5)
        r, a = solve(pos, objective=Match(score)), analyze(pos, objective=Match(score))
        assert r.value == a.value == max(row.value for row in a) and r.exact and 0 <= r.value <= 10000
        assert r.value == solve(pos, objective=Match(score, equity=equity)).value
    if players == 6:
        with pytest.raises(MatchError, match="leaf entries"):
            solve(Position.new_round(seed=1, rules=rules), objective=Match(score), limit=Limit(nodes=1000))


def test_match_repr_pastes_back_and_bad_input_names_the_field():
    assert repr(Match((9, 10))) == "Match((9, 10))" and eval(repr(Match((9, 10), target=21))) == Match((9, 10), 21)
    for args, field in [(("9-10",), "score"), (((9, -1),), "score"), (((9,),), "score"), (((9, True),), "score"),
                        (((9, 10), 0), "target"), (((9, 10), "11"), "target"),
                        (((9, 10), None, object()), "equity")]:
        with pytest.raises(MatchError, match=field):
            Match(*args)
    pos = later(Rules(), 2, 6)
    with pytest.raises(MatchError, match="score"):
        solve(pos, objective=Match((1, 2, 3), equity=Equity()))

    class Broken:
        def after_round(self, score, round_points, dealer, side):
            return 1.5
    with pytest.raises(MatchError, match="chance"):
        solve(pos, objective=Match((1, 2), equity=Broken()))
    with pytest.raises(MatchError, match="chance"):
        leaf_table(pos, Match((1, 2)), lambda points: float("nan"))
    with pytest.raises(MatchError, match="Match"):
        leaf_table(pos, (1, 2))
    assert isinstance(MatchError("x"), ValueError)


def test_a_match_without_equity_uses_the_installed_default():
    pos = later(Rules(), 2, 7)
    made = []

    def factory(rules):
        made.append(rules.target)
        return Equity()
    previous = set_default_equity(None)
    try:
        with pytest.raises(MatchError, match="equity"):
            solve(pos, objective=Match((1, 2)))
        set_default_equity(factory)
        expected = face_brute(pos, Match((1, 2), equity=Equity()))
        assert solve(pos, objective=Match((1, 2), target=21)).value == expected
        assert solve(pos, objective=Match((1, 2))).value == expected     # another key: made again
        assert made == [21, 11]
        solve(pos, objective=Match((1, 2)))                                # kept: not made again
        assert made == [21, 11]
    finally:
        set_default_equity(previous)
