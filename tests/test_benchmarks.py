"""The benchmark scripts of benchmarks/: each offers run(**options) -> figures and
report(figures) -> text, tiny runs work, and the measuring pieces measure the right thing."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from helpers import random_positions

from scopa_solver import PIMCBot, Position, solve, Limit
from scopa_solver.core.cards import DECK

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"test_bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["bench_search", "bench_movegen", "bench_pimc", "bench_arena", "bench_equilibrium",
                                  "bench_decision", "bench_job", "bench_spiel"])
def test_every_benchmark_has_run_report_and_main(name):
    module = load(name)
    for attr in ("run", "report", "main"):
        assert callable(getattr(module, attr)), (name, attr)


def test_tiny_runs_give_json_figures_and_a_report():
    movegen = load("bench_movegen")
    figures = movegen.run(rounds=2, repeats=1, kernel_factor=1)
    assert figures["python"]["rounds"] == 2 and "kernel/python" in movegen.report(figures)
    arena = load("bench_arena")
    figures = arena.run(bot_a="greedy", bot_b="random", rounds=1)   # one deal: no spread
    json.dumps(figures, allow_nan=False)
    assert figures["deals"] == 1 and figures["stderr"] is None
    assert arena.report(figures).startswith("Greedy vs Random: 1 duplicate deal (2 rounds)")
    pimc = load("bench_pimc")
    figures = pimc.run(cases=1, threads=1, only=["last_but_one"])
    assert figures["last_but_one"]["worlds"] == 1680 and "last_but_one" in pimc.report(figures)
    eq = load("bench_equilibrium")
    figures = eq.run(cases=1, threads=1, plays=[4], pimc=True)
    json.dumps(figures, allow_nan=False)
    row = figures["rows"][0]
    assert row["play"] == 4 and row["worlds"] == 252 and row["exploitability"] <= 0.01 and "pimc" in row
    assert "PIMC's best" in eq.report(figures)


def test_search_benchmark_leaves_the_tests_alone_and_its_baseline_is_exact():
    path, modules = list(sys.path), set(sys.modules)
    search = load("bench_search")
    figures = search.run(per_group=1, seed=3, quick=True, progress=False, batch=3, repeat=1)
    assert sys.path == path and "reference" not in set(sys.modules) - modules
    assert figures["groups"][1]["reference"]["finished"] == 1
    assert "reference x" in search.report(figures)
    # the pure-Python minimax agrees with the solver on last-deal positions
    for pos in random_positions(12, 5, deals_left=0, cards_in_hands=6):
        assert search.reference_value(pos) == solve(pos).value, pos.to_string()


def test_the_hand_seers_see_only_the_opponents_hand():
    bench = load("bench_arena")
    seer, after = bench.bot("sees-hand", 6, 1, 1), bench.bot("sees-hand-after", 6, 1, 1)
    pimc = PIMCBot(Limit(threads=1), worlds=6, seed=1)
    pos = Position.new_round(seed=3, dealer=1)          # player 0 leads: the opponent has not played
    view = pos.view(0)
    assert after(pos) == pimc.choose(view)
    # shown the hand, not the stock: another stock order behind the same hand changes nothing
    stock = list(reversed(pos.stock))
    other = view.world([c for c in DECK if pos.hands[1] & c.mask], stock)
    assert other.stock != pos.stock and seer(pos) == seer(other) in pos.legal_moves()
    figures = bench.run(bot_a="sees-hand-after", bot_b="greedy", rounds=1, worlds=4)
    assert figures["deals"] == 1 and len(figures["margins"]) == 1


def _known(name: str) -> list[str]:
    """The names a benchmark's bad-name error must list."""
    from scopa_solver.play.bot_names import BOT_NAMES
    module = load(name)
    return {"bench_family": lambda: list(module.ROWS), "bench_horizon": lambda: list(module.ROWS),
            "bench_pimc": lambda: list(module.BENCHMARKS), "bench_batch": lambda: ["local", "dask"],
            "bench_equilibrium": lambda: ["1, 2, 3, 4"]}.get(name, lambda: list(BOT_NAMES))()


@pytest.mark.parametrize("name, argv", [
    ("bench_family", ["--rows", "scopa4-1deal,nonsense"]),
    ("bench_horizon", ["--rows", "nonsense"]),
    ("bench_pimc", ["--only", "nonsense"]),
    ("bench_batch", ["--engines", "nonsense"]),
    ("bench_equilibrium", ["--plays", "7"]),
    ("bench_arena", ["nonsense", "greedy"]),
    ("bench_decision", ["nonsense"]),
])
def test_a_benchmark_refuses_an_unknown_name_with_one_line_naming_the_known_ones(capsys, name, argv):
    # the name is checked before any work: parsing (or the bot's making) fails fast
    with pytest.raises(SystemExit) as exc:
        load(name).main(argv)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.startswith(f"{name}.py: error: ") and err.count("\n") == 1, err
    assert all(known in err for known in _known(name)), err


def test_the_players_wait_is_the_bots_moves_between_two_of_their_turns():
    from scopa_solver import Rules
    bench = load("bench_decision")
    out = bench.turns("pimc:2", Rules(players=4), rounds=1, seed=1, threads=1, time_limit=None)
    # nine plays of the player in a 4-seat round: eight waits before the next, one for the score
    assert out["waits"] == 9 and out["cut"] == 0 and out["rules"] == ["players=4"]
    assert "wait" in bench.report_turns(out) and out["median"] <= out["p90"] <= out["max"]
    arena = load("bench_arena")
    before = arena.bot("pimc-before", None, 1, 1)
    assert (before.worlds, before.limit.nodes, before.limit.time) == (100, 1_000_000, 2.0)
