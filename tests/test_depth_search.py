"""Depth-limited search when the exact one cannot finish (issue 30): `solve`/`analyze` with a
limit return the deepest complete depth, `analysis` yields every depth, the
command line prints a line per depth and bounds a position too big to solve. Limits here are
node counts (deterministic); a time limit only where the point is that something comes back.

Beneath them, the kernel's horizon search on every game: a horizon at or beyond the round's end
is the exact search; a shorter one equals a plain depth-limited minimax over the static
evaluation (`evaluate`) and says where it cut; its table entries never reach exact searches; bad
horizons are refused; the evaluation stays within the points still possible; `deepen` deepens to
exact within a budget."""
from __future__ import annotations

import math
import random
import sys

import pytest

from scopa_solver import (Analysis, LimitError, Position, Rules, analyze, analysis, analyze_many, kernel, Limit,
                          solve, solve_many)
from scopa_solver.batch.jobs import Item, JobOptions, run_chunk
from scopa_solver.kernel import (WANT_ALL, WANT_BEST, WANT_PV, KernelState, evaluate, legal_moves, new_searcher, play,
                                 run_batch, score)
import scopa_solver.cli.commands as commands
import scopa_solver.search.solver as solver
from scopa_solver.play.game import random_position

from helpers import games, play_down, run_cli, run_cli_json

GAMES = games("scopa", "3 players", "4 players", "6 players", "scopone", "scientifico", "scopa a 15")
BIG = Position.new_round(seed=3, rules=GAMES["scientifico"])      # 40 plies: days of exact search


@pytest.mark.parametrize("game", GAMES)
def test_every_game_gets_a_value_for_every_move_within_a_limit(game):
    pos = Position.new_round(seed=11, rules=GAMES[game])
    kernel.clear_tables()
    rows = analyze(pos, Limit(nodes=100_000))
    assert isinstance(rows, Analysis)
    assert sorted(str(r.move) for r in rows) == sorted(str(m) for m in pos.legal_moves())
    assert all(r.value is not None for r in rows) and rows.value == rows[0].value
    assert [r.value for r in rows] == sorted((r.value for r in rows), reverse=True)
    assert rows.best_moves and set(rows.best_moves) <= {r.move for r in rows}
    assert rows.pv and rows.pv[0] in rows.best_moves
    if rows.exact:
        assert rows.complete and rows.horizon is None and all(r.exact for r in rows)
    else:
        assert rows.stopped == "nodes" and not rows.complete and rows.horizon >= kernel.DEEPEN_STEP
        assert all(r.horizon == rows.horizon and not r.exact for r in rows)
        assert len(rows.pv) <= rows.horizon
    result = solve(pos, Limit(nodes=100_000))
    assert result.value is not None and result.best_moves and result.pv
    assert result.exact == (result.horizon is None)


def _proof_problems(r, exact: int) -> list:
    """What a result (a SearchResult, an Analysis or a MoveValue) claims wrongly about the exact
    value: proved bounds that miss it, an estimate outside them, a `complete` not proved."""
    problems = []
    if r.lower is not None and r.lower > exact or r.upper is not None and r.upper < exact:
        problems.append(("bounds miss the exact value", r.lower, r.upper, exact))
    if r.value is not None and (r.lower is not None and r.value < r.lower or r.upper is not None and r.value > r.upper):
        problems.append(("estimate outside the proved bounds", r.value, r.lower, r.upper))
    if getattr(r, "complete", r.exact) and not r.lower == r.upper == r.value == exact:
        problems.append(("complete but not proved", r.value, r.lower, r.upper, exact))
    return problems


PROOF_GAMES = games(more={"scientifico napola": Rules(players=4, game="scientifico", napola=True)})


def test_results_keep_what_they_proved_apart_from_estimates():
    """Property: on many random positions, with small node limits and with horizons (with and
    without a limit), lower <= exact <= upper, the value (an estimate) lies within them, and
    `complete` means lower == upper == value == exact; every move of `analyze` too. Before the
    fix 195 of these 600 results (150 positions) broke it: a horizon search's estimate given as
    its bounds and as complete, estimates outside the bounds the exact try proved."""
    rng = random.Random(2026)
    problems, results, stopped, bounded, wrong = [], 0, 0, 0, 0
    for _ in range(150):
        rules = PROOF_GAMES[rng.choice(sorted(PROOF_GAMES))]
        two = rules.players == 2 and rules.game == "scopa"
        pos, left = random_position(rng.getrandbits(30), None, rules), rng.choice([8, 12, 16, 20, 26] if two else
                                                                                   [6, 8, 10, 12, 14])
        while sum(pos.hand_sizes()) + len(pos.stock) > left:
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.is_round_over():
            continue
        objective = "maxn" if rules.players > 2 and rng.random() < 0.3 else "value"
        kernel.clear_tables()       # nothing known in advance: the limits cut
        limits = [Limit(nodes=rng.choice([10, 50, 200, 1000])), Limit(horizon=rng.choice([1, 2, 4, 8])),
                  Limit(horizon=rng.choice([4, 8]), nodes=rng.choice([50, 500])), Limit(nodes=100, horizon=0)]
        found = [(kw, solve(pos, kw, objective=objective), analyze(pos, kw, objective=objective)) for kw in limits]
        exact = solve(pos, objective=objective).value
        moves = {r.move: r.value for r in analyze(pos, objective=objective)}
        for kw, result, rows in found:
            results += 1
            stopped += result.stopped is not None
            bounded += result.lower is not None or result.upper is not None
            where = (pos.to_string(), objective, kw)
            found_now = [(where, *p) for p in _proof_problems(result, exact) + _proof_problems(rows, exact)]
            found_now += [(where, str(row.move), *p) for row in rows for p in _proof_problems(row, moves[row.move])]
            wrong += bool(found_now)
            problems += found_now
            data = result.to_dict()
            assert (data["complete"], data["value"], data["lower"], data["upper"]) == \
                (result.complete, result.value, result.lower, result.upper)
    assert results >= 500 and stopped >= 100 and bounded >= 100       # the limits cut, and proved something
    assert not problems, (f"{wrong} of {results} results wrong", problems[:5])


@pytest.mark.parametrize("game", ["scopone", "scientifico"])
def test_a_time_limit_gives_a_value_for_every_move(game):
    """The issue's case: a time limit on a position of days of exact search."""
    rows = analyze(Position.new_round(seed=5, rules=GAMES[game]), Limit(time=0.3))
    assert rows.stopped == "time" and rows.horizon >= kernel.DEEPEN_STEP
    assert all(r.value is not None for r in rows)
    result = solve(Position.new_round(seed=5, rules=GAMES[game]), Limit(time=0.3))
    assert result.stopped == "time" and result.value is not None and result.horizon >= kernel.DEEPEN_STEP


def test_the_first_depth_completes_whatever_the_limit():
    result = solve(BIG, Limit(nodes=1))
    assert result.horizon == kernel.DEEPEN_STEP and result.value is not None and result.stopped == "nodes"
    assert len(result.pv) == kernel.DEEPEN_STEP


def test_analysis_yields_each_depth_as_a_fixed_horizon_search_gives_it():
    depths = list(analysis(BIG, Limit(horizon=10)))
    assert [d.horizon for d in depths] == [4, 8, 10]
    # a horizon search proves nothing, even the last depth asked for: not complete, no bounds
    assert not any(d.complete for d in depths) and all(d.stopped is None for d in depths)
    assert all(d.lower is None and d.upper is None for d in depths)
    assert depths[0].nodes < depths[1].nodes < depths[2].nodes      # the effort so far
    for d in depths:
        fixed = analyze(BIG, Limit(horizon=d.horizon))
        assert {r.move: r.value for r in d} == {r.move: r.value for r in fixed}
        assert solve(BIG, Limit(horizon=d.horizon)).value == d.value


def test_a_small_position_is_exact_at_once_with_no_extra_search():
    pos = random_position(7, 0, Rules())      # two players, the last deal
    kernel.clear_tables()
    plain = solve(pos)
    kernel.clear_tables()
    limited = solve(pos, Limit(time=5.0))
    assert limited.exact and limited.complete and limited.nodes == plain.nodes
    assert (limited.value, limited.best_moves, limited.pv) == (plain.value, plain.best_moves, plain.pv)
    depths = list(analysis(pos, Limit(time=5.0)))
    assert len(depths) == 1 and depths[0].exact and depths[0].horizon is None
    assert [(r.move, r.value) for r in depths[0]] == [(r.move, r.value) for r in analyze(pos)]


@pytest.mark.parametrize("game", ["scopa", "3 players", "scopone"])
def test_deepening_reaches_the_exact_values(game, monkeypatch):
    """With the exact try made tiny, a small position goes depth by depth to the end of the
    round: the last depth is exact and agrees with the exact search."""
    monkeypatch.setattr(solver, "EXACT_TRY_NODES", 10)
    pos = random_position(5, 0, GAMES[game], cards_per_hand=None if game == "scopa" else 2)
    exact = {r.move: r.value for r in analyze(pos)}
    depths = list(analysis(pos))
    horizons = [d.horizon for d in depths]
    assert horizons[-1] is None and horizons[:-1] == list(range(4, 4 * len(horizons), 4))
    assert depths[-1].exact and depths[-1].complete
    assert {r.move: r.value for r in depths[-1]} == exact
    assert solve(pos, Limit(nodes=10 ** 7)).value == max(exact.values())


def test_a_node_limit_keeps_the_deepest_complete_depth():
    kernel.clear_tables()
    depths = list(analysis(BIG, Limit(nodes=700_000)))
    kernel.clear_tables()
    final = analyze(BIG, Limit(nodes=700_000))
    assert depths[-1].stopped == "nodes" and all(d.stopped is None for d in depths[:-1])
    assert final.horizon == depths[-1].horizon and final.stopped == "nodes"
    assert [(r.move, r.value) for r in final] == [(r.move, r.value) for r in depths[-1]]
    assert final.nodes >= 700_000     # the cut search's nodes count


def test_breaking_out_frees_the_searcher():
    steps = analysis(BIG)          # no limit: it would go on for days
    first = next(steps)
    assert first.horizon == kernel.DEEPEN_STEP and kernel.pool_stats()["busy"] == 1
    steps.close()
    assert kernel.pool_stats()["busy"] == 0


def test_horizon_zero_is_the_exact_search_alone():
    result = solve(BIG, Limit(nodes=1000, horizon=0))
    assert result.value is None and result.horizon is None and result.stopped == "nodes"
    rows = analyze(BIG, Limit(nodes=1000, horizon=0))
    assert all(r.value is None for r in rows) and not rows.exact
    assert len(list(analysis(BIG, Limit(nodes=1000, horizon=0)))) == 1


def test_many_positions_with_a_limit_match_single_calls():
    positions = [random_position(3, 0, Rules()), BIG, Position.new_round(seed=4, rules=GAMES["scopone"])]
    many = solve_many(positions, Limit(nodes=300_000, threads=2))
    single = [solve(p, Limit(nodes=300_000)) for p in positions]
    assert [(r.value, r.horizon, r.exact) for r in many] == [(r.value, r.horizon, r.exact) for r in single]
    assert many[0].exact and not many[1].exact and many[1].horizon >= 4
    rows = analyze_many(positions, Limit(nodes=300_000))
    assert [a.exact for a in rows] == [True, False, False]
    assert all(r.value is not None for a in rows for r in a)


def test_maxn_deepens_too():
    pos = Position.new_round(seed=4, rules=GAMES["3 players"])
    rows = analyze(pos, Limit(nodes=5000), objective="maxn")
    assert rows.horizon and all(r.value is not None for r in rows)


def test_bad_limits_are_refused():
    with pytest.raises(LimitError):
        next(analysis(BIG, Limit(time=-1)))
    with pytest.raises(LimitError):
        next(analysis(BIG, Limit(horizon=-4)))
    with pytest.raises(TypeError):
        next(analysis("7d/3c 4s -/- - 0/0 0 1 -"))


def test_to_dict_says_the_depth():
    data = analyze(BIG, Limit(nodes=1)).to_dict()
    assert data["horizon"] == 4 and data["exact"] is False and data["stopped"] == "nodes"
    assert all(m["value"] is not None and m["horizon"] == 4 and m["exact"] is False for m in data["moves"])
    assert solve(BIG, Limit(nodes=1)).to_dict()["horizon"] == 4


def test_batch_analyze_rows_get_depth_limited_values():
    item = Item("1", 0, "text", BIG.to_string())
    solved, analysed = (run_chunk(job, [item], JobOptions(limit=Limit(nodes=1)))[0]["result"] for job in ("solve", "analyze"))
    assert solved["value"] is not None and solved["horizon"] == 4 and not solved["exact"]
    assert analysed["complete"] is False and analysed["horizon"] == 4 and analysed["value"] is not None


# -- the command line ------------------------------------------------------------------------------

def test_cli_horizon_and_json(capsys):
    data = run_cli_json(capsys, "solve", BIG.to_string(), "--horizon", "8")
    assert data["horizon"] == 8 and data["exact"] is False and data["value"] is not None
    data = run_cli_json(capsys, "analyze", BIG.to_string(), "--max-nodes", "600000")
    assert data["horizon"] >= 4 and data["exact"] is False and data["stopped"] == "nodes"
    assert all(m["value"] is not None for m in data["moves"])
    code, out, err = run_cli(capsys, "analyze", BIG.to_string(), "--horizon", "8")
    assert code == 0 and "estimates of a search 8 plies deep" in out
    code, out, err = run_cli(capsys, "solve", BIG.to_string(), "--horizon", "-1")
    assert code == 2 and err.startswith("scopa-solver: error:") and err.count("\n") == 1


def test_cli_prints_a_line_per_depth_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run_cli(capsys, "solve", BIG.to_string(), "--max-nodes", "600000")
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("depth")]
    assert [line.split()[1] for line in lines[:2]] == ["4", "8"]
    assert all(" value " in line and " best " in line and " pv " in line and " nodes " in line for line in lines)
    assert "at depth" in out and "the nodes limit stopped the deeper search" in out
    code, out, err = run_cli(capsys, "solve", random_position(7, 0, Rules()).to_string())
    assert code == 0 and [line.split()[1] for line in out.splitlines() if line.startswith("depth")] == ["exact"]


def test_cli_bounds_a_position_too_big_to_solve(capsys, monkeypatch):
    monkeypatch.setattr(commands, "DEFAULT_TIME_LIMIT", 0.2)
    code, out, err = run_cli(capsys, "analyze", BIG.to_string())
    assert code == 0 and "too big to solve exactly" in err and "by extrapolation" in err
    assert "0.2 s" in err and "values: estimates of a search" in out
    code, out, err = run_cli(capsys, "solve", random_position(7, 1, Rules()).to_string())
    assert code == 0 and err == "" and "principal variation:" in out       # small: exact, silent


def test_ctrl_c_stops_the_deepening_and_frees_the_searcher():
    import os
    import signal
    import threading
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    depths = []
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            for depth in analysis(BIG):       # no limit: days, unless interrupted
                depths.append(depth.horizon)
    finally:
        timer.cancel()
    assert kernel.pool_stats()["busy"] == 0


def test_ctrl_c_stops_the_command_line_search():
    import os
    import signal
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "scopa_solver", "analyze", BIG.to_string()], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(root)))
    try:
        assert "too big to solve exactly" in proc.stderr.readline()    # then it searches for 10 s
        proc.send_signal(signal.SIGINT)
        assert proc.wait(60) == 130           # a loose bound: the point is that it does not hang
        assert proc.stderr.read() == "scopa-solver: interrupted\n"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()


def test_cli_horizon_zero_is_the_exact_search_alone(capsys):
    code, out, err = run_cli(capsys, "solve", BIG.to_string(), "--horizon", "0", "--max-nodes", "1000")
    assert code == 0 and "before the exact value: no bound proved" in out and "None" not in out
    code, out, err = run_cli(capsys, "analyze", BIG.to_string(), "--horizon", "0", "--max-nodes", "1000")
    assert code == 0 and "?..?" in out and "the exact search stopped at the nodes limit" in out


def test_near_the_end_the_exact_search_is_tried_before_deeper_horizons(monkeypatch):
    """Horizon searches close to the round's end cost more than the exact one (which the points
    still possible cut, and which finds the exact try's table entries): `kernel.deepen(near=8)`
    tries the exact search first, on twice the last depth's nodes."""
    pos = Position.new_round(seed=8, rules=GAMES["6 players"])       # 36 plies; exact try fails
    kernel.clear_tables()
    jumped = list(analysis(pos))
    deepen = kernel.deepen
    monkeypatch.setattr(kernel, "deepen", lambda *args, **kw: deepen(*args, **dict(kw, near=0)))
    kernel.clear_tables()
    plain = list(analysis(pos))
    assert jumped[-1].exact and plain[-1].exact
    assert [(r.move, r.value) for r in jumped[-1]] == [(r.move, r.value) for r in plain[-1]]
    assert max(a.horizon for a in jumped[:-1]) <= 36 - 8 < max(a.horizon for a in plain[:-1])
    assert jumped[-1].nodes < plain[-1].nodes


# -- the horizon search in the kernel, every game --------------------------------------------

HORIZON_GAMES = games("scopa", "3 players", "4 players", "4 alone", "6 players", "scopone", "scientifico",
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


def limited_minimax(state: KernelState, depth: int, root_side: int) -> int:
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
    values = [limited_minimax(play(state, m)[0], depth - 1, root_side) for m in moves]
    return max(values) if me == root_side else min(values)


@pytest.mark.parametrize("game", list(HORIZON_GAMES))
def test_horizon_at_or_beyond_the_end_is_exact(game):
    rules = HORIZON_GAMES[game]
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


@pytest.mark.parametrize("game", list(HORIZON_GAMES))
def test_horizon_equals_depth_limited_minimax_over_the_evaluation(game):
    rules = HORIZON_GAMES[game]
    searcher = new_searcher(4)
    for seed in range(3):
        state = walk(rules, 10 + seed, min(rules.players + 3, 7))
        root_side = state.sides[state.to_move]
        for depth in (1, 2, 3):
            r = searcher.search(state, want=WANT_BEST | WANT_PV, horizon=depth)
            assert r.stop == 0 and r.horizon == depth and r.evaluations > 0
            quarters = limited_minimax(state, depth, root_side)
            assert r.lower == r.upper == math.floor(quarters / QUARTERS + 0.5)   # reported in points
            # every best move reaches the value in quarters, the others do not
            for m in legal_moves(state):
                child = play(state, m)[0]
                v = limited_minimax(child, depth - 1, root_side)
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


@pytest.mark.parametrize("game", list(HORIZON_GAMES))
def test_evaluation_within_the_points_possible(game):
    rules = HORIZON_GAMES[game]
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
    r = solve(pos, Limit(horizon=4))
    assert r.horizon == 4 and r.value is not None and len(r.pv) == 4
    assert not r.complete and r.stopped is None and (r.lower, r.upper) == (None, None)     # an estimate
    assert r.outcome is None and r.points is None
    assert "horizon=4" in repr(r) and r.to_dict()["horizon"] == 4
    moves = analyze(pos, Limit(horizon=4))
    assert max(mv.value for mv in moves) == r.value         # whole points: the best moves among the top
    assert {str(m) for m in r.best_moves} <= {str(mv.move) for mv in moves if mv.value == r.value}
    assert [x.value for x in solve_many([pos, pos], Limit(horizon=4))] == [r.value, r.value]
    assert [mv.value for mv in analyze_many([pos], Limit(horizon=4))[0]] == [mv.value for mv in moves]
    # two-player Scopa too; a horizon past the round's end is the exact search
    two = Position.new_round(seed=5)
    assert solve(two, Limit(horizon=2)).horizon == 2
    exact = solve(two)
    deep = solve(two, Limit(horizon=40))
    assert deep.horizon is None and deep.value == exact.value
    assert "horizon" not in repr(deep) and deep.to_dict().get("horizon") is None


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, [4]])
def test_bad_horizons_are_refused(bad):
    pos = Position.new_round(seed=1, rules=Rules(players=3))
    with pytest.raises(LimitError, match="horizon"):
        solve(pos, Limit(horizon=bad))
    with pytest.raises(LimitError, match="horizon"):
        run_batch([pos.kernel_state()], limit=Limit(horizon=bad), want=0)


def test_two_player_states_take_horizons_and_deepening_too():
    """One searcher for every game: a two-player state is searched to a horizon, and deepening
    ends exact with the exact search's value."""
    two = Position.new_round(seed=1)
    exact = run_batch([two.kernel_state()], want=WANT_BEST)[0]
    cut = run_batch([two.kernel_state()], limit=Limit(horizon=4), want=WANT_BEST)[0]
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
    budget = run_batch([start, start], limit=Limit(nodes=20000), want=WANT_BEST, deepen=True)
    for r in budget:
        assert r.stop == 0 and r.horizon is not None and r.horizon % 4 == 0
        alone = new_searcher(4).search(start, want=WANT_BEST, horizon=r.horizon)
        assert alone.lower == r.lower
    deeper = run_batch([start], limit=Limit(nodes=200000), want=WANT_BEST, deepen=True)[0]
    assert deeper.horizon > budget[0].horizon
    tiny = run_batch([start], limit=Limit(nodes=5), want=WANT_BEST, deepen=True)[0]
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
    r = run_batch([start], limit=Limit(time=0.2), want=WANT_ALL, deepen=True)[0]
    assert time.process_time() - t < 3.0            # the budget, with room
    assert r.stop == 0 and r.horizon is not None and r.horizon >= 4 and r.move_bounds
