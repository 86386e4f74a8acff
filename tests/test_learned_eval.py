"""The learned deal's-end value (ext/family_eval.pxi, `kernel.family_eval_learned`): each
feature as the benchmark that fits it computes it in Python; only fresh two-player deals use
it; its table entries never reach the static searches; bad tables are refused; the benchmark
that fits it runs."""
from __future__ import annotations

import functools
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scopa_solver import Position, solve_many
from scopa_solver.kernel import LEARNED_FEATURE_NAMES, family_eval_learned, family_evaluate

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def static_value_after():
    """The table is the process's: every test leaves the static value in force."""
    yield
    family_eval_learned(None)


def fresh_deal(seed: int) -> Position:
    """A random position just after a new deal (deals 2 to 6), reached by random play."""
    rng = random.Random(seed)
    pos = Position.new_round(seed=seed, dealer=seed % 2)
    target = rng.randrange(1, 6)
    deals = 0
    while True:
        after = pos.play(rng.choice(pos.legal_moves()))
        if len(after.stock) < len(pos.stock):
            deals += 1
            if deals == target or not after.stock:
                return after
        pos = after


def mid_deal(seed: int) -> Position:
    pos = fresh_deal(seed)
    return pos.play(pos.legal_moves()[0])


@functools.cache
def bench_features():
    """The features the benchmark fits on (benchmarks/bench_boundary_value.py, written in Python
    from the rules): the kernel must compute the same ones, or the fitted weights mean nothing."""
    spec = importlib.util.spec_from_file_location("bench_boundary_value", ROOT / "benchmarks" / "bench_boundary_value.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.features


def test_feature_names():
    assert LEARNED_FEATURE_NAMES[:2] == ("bias", "static margin") and len(LEARNED_FEATURE_NAMES) == 9


@pytest.mark.parametrize("seed", range(40))
def test_each_feature_as_the_rules_define_it(seed):
    pos = fresh_deal(seed)
    deals = (6 + len(pos.stock)) // 6
    state = pos.family_state()
    expected, static_value = family_evaluate(state)
    me = pos.to_move
    static = expected[me] - expected[1 - me]
    assert abs(static_value - static) <= 0.125        # the search counts quarter points
    want = bench_features()(pos, static)
    for i in range(len(LEARNED_FEATURE_NAMES)):
        family_eval_learned({deals: [1.0 if j == i else 0.0 for j in range(9)]})
        assert family_evaluate(state)[1] == pytest.approx(want[i], abs=0.125), LEARNED_FEATURE_NAMES[i]
    weights = [0.3, 0.8, 0.1, -0.2, 0.4, 0.5, -0.1, 0.25, -0.6]
    family_eval_learned({deals: weights})
    assert family_evaluate(state)[1] == pytest.approx(sum(w * f for w, f in zip(weights, want)), abs=0.125)
    # another deal count's weights leave this one static
    family_eval_learned({d: [5.0] * 9 for d in range(1, 6) if d != deals})
    assert family_evaluate(state)[1] == static_value


@pytest.mark.parametrize("seed", range(10))
def test_mid_deal_stays_static(seed):
    state = mid_deal(seed).family_state()
    static = family_evaluate(state)
    family_eval_learned({d: [3.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0] for d in range(1, 6)})
    assert family_evaluate(state) == static


def test_its_table_entries_never_reach_static_searches():
    positions = [fresh_deal(seed) for seed in range(6)]
    positions = [p.play(p.legal_moves()[0]) for p in positions if len(p.stock) >= 12]
    assert positions

    def values():
        return [r.value for r in solve_many(positions, horizon=5, threads=1)]

    static = values()
    family_eval_learned({d: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0] for d in range(1, 6)})
    learned = values()
    family_eval_learned(None)
    assert values() == static
    assert learned != static        # the table says: three points a table card to the mover


@pytest.mark.parametrize("bad", [[1, 2], {0: [0.0] * 9}, {6: [0.0] * 9}, {3: [0.0] * 8},
                                 {3: [float("nan")] * 9}, {3: [float("inf")] * 9}, {3: ["x"] * 9},
                                 {3: 5}, {3: [None] * 9}, {"3": [0.0] * 9}, {3.5: [0.0] * 9},
                                 {True: [0.0] * 9}])
def test_bad_tables_are_refused(bad):
    with pytest.raises(ValueError):
        family_eval_learned(bad)
    assert family_eval_learned(None) == {}


def test_the_benchmarks_run_small(tmp_path):
    script = str(ROOT / "benchmarks" / "bench_boundary_value.py")
    records = tmp_path / "greedy.jsonl"
    subprocess.run([sys.executable, script, "record", "--rounds", "6", "--seed", "3", "--bot", "greedy",
                    "--out", str(records)], check=True, capture_output=True, timeout=300)
    rounds = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(rounds) == 6 and all(len(r["boundaries"]) == 5 for r in rounds)
    fitted = tmp_path / "learned.json"
    out = subprocess.run([sys.executable, script, "score", str(records), "--redeals", "2",
                          "--fit-out", str(fitted)], check=True, capture_output=True, text=True, timeout=300)
    assert "learned + exact" in out.stdout
    table = json.loads(fitted.read_text())["learned"]
    assert sorted(table) == ["1", "2", "3", "4", "5"]
    arena = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_arena.py"), "epimc:h=0,n=4", "greedy",
                            "--rounds", "1", "--learned-eval", str(fitted)],
                           capture_output=True, text=True, timeout=300)
    assert arena.returncode == 0 and "learned" in arena.stdout
    refused = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_arena.py"), "greedy", "random",
                              "--rounds", "1", "--learned-eval", str(records)],
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "not a learned value's table" in refused.stderr
