"""Depth-limited search when the exact one cannot finish (issue 30): `solve`/`analyze` with a
limit return the deepest complete depth, `solve_iter`/`analyze_iter` yield every depth, the
command line prints a line per depth and bounds a position too big to solve. Limits here are
node counts (deterministic); a time limit only where the point is that something comes back."""
from __future__ import annotations

import sys

import pytest

from scopa_solver import (Analysis, LimitError, Position, Rules, analyze, analyze_iter, analyze_many, kernel,
                          solve, solve_iter, solve_many)
from scopa_solver.batch.jobs import Item, JobOptions, run_chunk
import scopa_solver.cli.commands as commands
import scopa_solver.search.solver as solver
from scopa_solver.play.game import random_position

from helpers import games, run_cli, run_cli_json

GAMES = games("scopa", "3 players", "4 players", "6 players", "scopone", "scientifico", "scopa a 15")
BIG = Position.new_round(seed=3, rules=GAMES["scientifico"])      # 40 plies: days of exact search


@pytest.mark.parametrize("game", GAMES)
def test_every_game_gets_a_value_for_every_move_within_a_limit(game):
    pos = Position.new_round(seed=11, rules=GAMES[game])
    kernel.clear_tables()
    rows = analyze(pos, max_nodes=100_000)
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
    result = solve(pos, max_nodes=100_000)
    assert result.value is not None and result.best_moves and result.pv
    assert result.exact == (result.horizon is None)


@pytest.mark.parametrize("game", ["scopone", "scientifico"])
def test_a_time_limit_gives_a_value_for_every_move(game):
    """The issue's case: a time limit on a position of days of exact search."""
    rows = analyze(Position.new_round(seed=5, rules=GAMES[game]), time_limit=0.3)
    assert rows.stopped == "time" and rows.horizon >= kernel.DEEPEN_STEP
    assert all(r.value is not None for r in rows)
    result = solve(Position.new_round(seed=5, rules=GAMES[game]), time_limit=0.3)
    assert result.stopped == "time" and result.value is not None and result.horizon >= kernel.DEEPEN_STEP


def test_the_first_depth_completes_whatever_the_limit():
    result = solve(BIG, max_nodes=1)
    assert result.horizon == kernel.DEEPEN_STEP and result.value is not None and result.stopped == "nodes"
    assert len(result.pv) == kernel.DEEPEN_STEP


def test_analyze_iter_yields_each_depth_as_a_fixed_horizon_search_gives_it():
    depths = list(analyze_iter(BIG, horizon=10))
    assert [d.horizon for d in depths] == [4, 8, 10]
    assert [d.complete for d in depths] == [False, False, True] and all(d.stopped is None for d in depths)
    assert depths[0].nodes < depths[1].nodes < depths[2].nodes      # the effort so far
    for d in depths:
        fixed = analyze(BIG, horizon=d.horizon)
        assert {r.move: r.value for r in d} == {r.move: r.value for r in fixed}
        assert solve(BIG, horizon=d.horizon).value == d.value


def test_a_small_position_is_exact_at_once_with_no_extra_search():
    pos = random_position(7, 0, Rules())      # two players, the last deal
    kernel.clear_tables()
    plain = solve(pos)
    kernel.clear_tables()
    limited = solve(pos, time_limit=5.0)
    assert limited.exact and limited.complete and limited.nodes == plain.nodes
    assert (limited.value, limited.best_moves, limited.pv) == (plain.value, plain.best_moves, plain.pv)
    depths = list(analyze_iter(pos, time_limit=5.0))
    assert len(depths) == 1 and depths[0].exact and depths[0].horizon is None
    assert [(r.move, r.value) for r in depths[0]] == [(r.move, r.value) for r in analyze(pos)]


@pytest.mark.parametrize("game", ["scopa", "3 players", "scopone"])
def test_deepening_reaches_the_exact_values(game, monkeypatch):
    """With the exact try made tiny, a small position goes depth by depth to the end of the
    round: the last depth is exact and agrees with the exact search."""
    monkeypatch.setattr(solver, "EXACT_TRY_NODES", 10)
    pos = random_position(5, 0, GAMES[game], cards_per_hand=None if game == "scopa" else 2)
    exact = {r.move: r.value for r in analyze(pos)}
    depths = list(analyze_iter(pos))
    horizons = [d.horizon for d in depths]
    assert horizons[-1] is None and horizons[:-1] == list(range(4, 4 * len(horizons), 4))
    assert depths[-1].exact and depths[-1].complete
    assert {r.move: r.value for r in depths[-1]} == exact
    assert solve(pos, max_nodes=10 ** 7).value == max(exact.values())


def test_a_node_limit_keeps_the_deepest_complete_depth():
    kernel.clear_tables()
    depths = list(analyze_iter(BIG, max_nodes=700_000))
    kernel.clear_tables()
    final = analyze(BIG, max_nodes=700_000)
    assert depths[-1].stopped == "nodes" and all(d.stopped is None for d in depths[:-1])
    assert final.horizon == depths[-1].horizon and final.stopped == "nodes"
    assert [(r.move, r.value) for r in final] == [(r.move, r.value) for r in depths[-1]]
    assert final.nodes >= 700_000     # the cut search's nodes count


def test_breaking_out_frees_the_searcher():
    steps = analyze_iter(BIG)          # no limit: it would go on for days
    first = next(steps)
    assert first.horizon == kernel.DEEPEN_STEP and kernel.pool_stats()["busy"] == 1
    steps.close()
    assert kernel.pool_stats()["busy"] == 0


def test_horizon_zero_is_the_exact_search_alone():
    result = solve(BIG, max_nodes=1000, horizon=0)
    assert result.value is None and result.horizon is None and result.stopped == "nodes"
    rows = analyze(BIG, max_nodes=1000, horizon=0)
    assert all(r.value is None for r in rows) and not rows.exact
    assert len(list(solve_iter(BIG, max_nodes=1000, horizon=0))) == 1


def test_many_positions_with_a_limit_match_single_calls():
    positions = [random_position(3, 0, Rules()), BIG, Position.new_round(seed=4, rules=GAMES["scopone"])]
    many = solve_many(positions, max_nodes=300_000, threads=2)
    single = [solve(p, max_nodes=300_000) for p in positions]
    assert [(r.value, r.horizon, r.exact) for r in many] == [(r.value, r.horizon, r.exact) for r in single]
    assert many[0].exact and not many[1].exact and many[1].horizon >= 4
    rows = analyze_many(positions, max_nodes=300_000)
    assert [a.exact for a in rows] == [True, False, False]
    assert all(r.value is not None for a in rows for r in a)


def test_maxn_deepens_too():
    pos = Position.new_round(seed=4, rules=GAMES["3 players"])
    rows = analyze(pos, objective="maxn", max_nodes=5000)
    assert rows.horizon and all(r.value is not None for r in rows)


def test_bad_limits_are_refused():
    with pytest.raises(LimitError):
        next(analyze_iter(BIG, time_limit=-1))
    with pytest.raises(LimitError):
        next(analyze_iter(BIG, horizon=-4))
    with pytest.raises(TypeError):
        next(analyze_iter("7d/3c 4s -/- - 0/0 0 1 -"))


def test_to_dict_says_the_depth():
    data = analyze(BIG, max_nodes=1).to_dict()
    assert data["horizon"] == 4 and data["exact"] is False and data["stopped"] == "nodes"
    assert all(m["value"] is not None and m["horizon"] == 4 and m["exact"] is False for m in data["moves"])
    assert solve(BIG, max_nodes=1).to_dict()["horizon"] == 4


def test_batch_analyze_rows_get_depth_limited_values():
    item = Item("1", 0, "text", BIG.to_string())
    solved, analysed = (run_chunk(job, [item], JobOptions(max_nodes=1))[0]["result"] for job in ("solve", "analyze"))
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
            for depth in analyze_iter(BIG):       # no limit: days, unless interrupted
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
    pos = Position.new_round(seed=7, rules=GAMES["6 players"])       # 36 plies; exact try fails
    kernel.clear_tables()
    jumped = list(analyze_iter(pos))
    deepen = kernel.deepen
    monkeypatch.setattr(kernel, "deepen", lambda *args, **kw: deepen(*args, **dict(kw, near=0)))
    kernel.clear_tables()
    plain = list(analyze_iter(pos))
    assert jumped[-1].exact and plain[-1].exact
    assert [(r.move, r.value) for r in jumped[-1]] == [(r.move, r.value) for r in plain[-1]]
    assert max(a.horizon for a in jumped[:-1]) <= 36 - 8 < max(a.horizon for a in plain[:-1])
    assert jumped[-1].nodes < plain[-1].nodes
