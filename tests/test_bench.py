"""The installed bench (scopa_solver/bench, `scopa-solver bench`): the shipped suites are what
their seeds give, their values and best moves are right (against the slow reference on the last
deals, against the kernel with its techniques switched off on a sample), the switches keep every
answer, a wrong answer fails the run naming the position, the A/B's ratios, and perft against
the reference. The whole suites and every perft depth against the reference are marked slow."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

import reference as ref
from helpers import run_cli, to_ref
from scopa_solver import Limit, Move, Position
from scopa_solver.bench import (SUITES, TECHNIQUES, Config, SuiteError, check_perft, compare, load_suites,
                                perft, read_perft, read_suite, run_suites)
from scopa_solver.bench.make import make_suite
from scopa_solver.bench.perft import PERFT_FILE, PERFT_SPECS, perft_text
from scopa_solver.bench.run import failures, result_dict
from scopa_solver.bench.suites import SUITE_DIR, suite_positions, suite_text

# The last deals (3 cards a hand). Six players' take the reference a minute or two a position:
# only the slow test checks two of each.
LAST_DEALS = [n for n in SUITES if n.endswith("-1deal") or n.endswith("-3")]
SIX = ("6p-1deal", "6alone-1deal")
# The suites ship this engine's node counts: a kernel change meant to change the search rebuilds them.
REBUILD = ("the engine's node counts differ from the suites': if the search was meant to change, rebuild "
           "them (python -m scopa_solver bench --make-suite scopa_solver/bench/suites) and say so")


def _ref_best(pos: Position) -> tuple[int, set]:
    """The reference's value and optimal moves (as (card, captures)) of a position."""
    values = ref.move_values(to_ref(pos))
    best = max(values.values())
    return best, {m for m, v in values.items() if v == best}


def _as_ref(pos: Position, text: str) -> tuple:
    m = Move.parse(text, pos)
    return str(m.card), frozenset(str(c) for c in m.captures)


# -- the shipped files --------------------------------------------------------------------------

def test_every_shipped_suite_is_what_its_seeds_give():
    # the positions are rebuilt from the recipe alone: ids, positions and count
    for name, spec in SUITES.items():
        suite = read_suite(SUITE_DIR / f"{name}.txt")
        assert [(e.id, e.position) for e in suite.entries] == suite_positions(spec), name
        assert all(e.nodes and e.best for e in suite.entries), name


def test_a_suite_rebuilt_is_the_shipped_file_byte_for_byte():
    # values, best moves and node counts too: the engine's search is deterministic
    assert suite_text(make_suite("scopa-2deals", progress=False)) == (SUITE_DIR / "scopa-2deals.txt").read_text(), \
        REBUILD


@pytest.mark.parametrize("name", [n for n in LAST_DEALS if SUITES[n].rules.players < 4] + ["4alone-1deal"])
def test_last_deal_values_and_best_moves_match_the_reference(name):
    # the four-seat ones take the reference a second or more a position: one here, all when slow
    entries = read_suite(SUITE_DIR / f"{name}.txt").entries
    for e in entries[:1 if SUITES[name].rules.players == 4 else 3]:
        value, best = _ref_best(e.position)
        assert e.value == value, e.id
        assert {_as_ref(e.position, m) for m in e.best} == best, e.id


@pytest.mark.slow
@pytest.mark.parametrize("name", LAST_DEALS)
def test_every_last_deal_position_matches_the_reference(name):
    entries = read_suite(SUITE_DIR / f"{name}.txt").entries
    for e in entries[:2] if name in SIX else entries:
        value, best = _ref_best(e.position)
        assert (e.value, {_as_ref(e.position, m) for m in e.best}) == (value, best), e.id


# -- running and the technique switches ---------------------------------------------------------

def _small():
    """A few positions of several games, each solved in well under a millisecond."""
    suites = load_suites(["scopa-3deals", "3p-2deals", "4p-1deal", "scientifico-3", "options-2deals"])
    for s in suites:
        s.entries = s.entries[:4]
    return suites


def test_the_default_search_checks_every_answer_and_gives_the_suites_node_counts():
    runs = run_suites(_small(), progress=False)
    measures = [m for r in runs for m in r.measures]
    assert measures and all(m.ok for m in measures)
    assert all(m.nodes_match for m in measures), REBUILD


@pytest.mark.parametrize("off", [(t,) for t in TECHNIQUES] + [TECHNIQUES])
def test_every_technique_switched_off_keeps_the_values_and_best_moves(off):
    suites = _small()
    default = {m.id: m.nodes for r in run_suites(suites, progress=False) for m in r.measures}
    runs = run_suites(suites, Config(frozenset(off)), progress=False)
    measures = [m for r in runs for m in r.measures]
    assert all(m.ok for m in measures), [m.id for m in measures if not m.ok]
    # and it is switched off: the search is another one (some position takes other nodes)
    assert any(m.nodes != default[m.id] for m in measures)


def test_the_ordering_switch_leaves_the_default_search_alone():
    from scopa_solver import kernel
    suite = load_suites(["4p-2deals"])[0]
    s = kernel.new_searcher(16)
    want = kernel.WANT_BEST | kernel.WANT_PV
    for e in suite.entries[:3]:
        nodes = []
        for enabled in (False, True):
            s.set_ordering(enabled)
            s.clear()
            nodes.append(s.search(e.position.kernel_state(), want).nodes)
        assert nodes[1] == e.nodes and nodes[0] != nodes[1]


def test_a_sample_of_larger_suites_by_another_search_on_two_threads():
    # the kernel's unlimited solve in another form (full window, every move, no last-round walk)
    suites = load_suites(["4p-round", "scopone-5", "3p-3deals"])
    for s in suites:
        s.entries = s.entries[:1]
    runs = run_suites(suites, Config(frozenset({"mtdf", "equivalence", "endgame"}), threads=2), progress=False)
    assert all(m.ok for r in runs for m in r.measures)


@pytest.mark.slow
def test_every_default_suite_against_full_window_alpha_beta_without_equivalences():
    suites = load_suites([n for n, s in SUITES.items() if s.default])
    runs = run_suites(suites, Config(frozenset({"mtdf", "equivalence", "bounds"})), progress=False)
    assert all(m.ok for r in runs for m in r.measures)


def test_a_limit_leaves_a_search_unchecked_and_says_so():
    suite = load_suites(["4p-round"])[0]
    suite.entries = suite.entries[:2]
    result = result_dict(run_suites([suite], limit=Limit(nodes=1000), progress=False), Config(), 1)
    assert result["total"]["solved"] == 0 and result["total"]["failed"] == []


def _wrong_suite(tmp_path):
    suite = load_suites(["scopa-2deals"])[0]
    suite.entries = suite.entries[:3]
    suite.entries[1] = replace(suite.entries[1], value=suite.entries[1].value + 1)
    path = tmp_path / "wrong.txt"
    path.write_text(suite_text(suite))
    return path, suite.entries[1].id


def test_a_wrong_value_fails_the_run_naming_the_position(tmp_path, capsys):
    path, wrong = _wrong_suite(tmp_path)
    result = result_dict(run_suites(load_suites([str(path)]), progress=False), Config(), 1)
    assert result["total"]["failed"] == [wrong]
    assert len(failures(result)) == 1 and failures(result)[0].startswith(wrong)
    code, out, err = run_cli(capsys, "bench", str(path))
    assert code == 1
    assert wrong in err and "WRONG" in err and "FAILED 1" in out


def test_wrong_best_moves_fail_too(tmp_path):
    suite = load_suites(["scopa-3deals"])[0]
    e = next(e for e in suite.entries if len(e.position.legal_moves()) > len(e.best))
    other = next(str(m) for m in e.position.legal_moves() if str(m) not in e.best)
    suite.entries = [replace(e, best=tuple(sorted(e.best + (other,))))]
    path = tmp_path / "best.txt"
    path.write_text(suite_text(suite))
    result = result_dict(run_suites(load_suites([str(path)]), progress=False), Config(), 1)
    assert result["total"]["failed"] == [e.id]


# -- the format ---------------------------------------------------------------------------------

def test_the_format_round_trips_and_bad_lines_are_one_clear_error(tmp_path):
    suite = load_suites(["6p-1deal"])[0]
    assert read_suite(suite_text(suite), name=suite.name).entries == suite.entries
    pos = suite.entries[0].position.to_string()
    for text, words in [(f"{pos} ; id a ; best 7d", "no value"), (f"{pos} ; value x", "whole number"),
                        (f"{pos} ; id a ; value 1\n{pos} ; id a ; value 1", "the id 'a' twice"),
                        ("5c5bFd ; value 1", "line 1"), ("# only a comment", "no position")]:
        with pytest.raises(SuiteError, match=words):
            read_suite(text, name="t")
    assert issubclass(SuiteError, ValueError)


def test_the_command_line_refuses_bad_input_with_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("nonsense ; value 1\n")
    for argv in (["bench", "nosuch"], ["bench", str(bad)], ["bench", "--without", "speed"],
                 ["bench", "--compare", str(bad), str(bad)], ["bench", "--list", "--perft"],
                 ["bench", "--make-suite", str(tmp_path), "nosuch"], ["bench", "--time", "wall"],
                 ["bench", "--techniques", "--without", "table"], ["bench", "--all", "scopa-1deal"],
                 ["bench", "--perft", str(tmp_path / "missing.txt")]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1, (argv, err)


# -- output and the A/B -------------------------------------------------------------------------

def test_json_output_and_the_compare_of_two_runs(tmp_path, capsys):
    code, out, err = run_cli(capsys, "bench", "scopa-2deals", "4p-1deal", "--json")
    assert code == 0, err
    a = json.loads(out)
    assert set(a["suites"]) == {"scopa-2deals", "4p-1deal"}
    assert a["total"]["positions"] == 40 and a["total"]["nodes"] > 0
    assert 0 <= a["total"]["hit_rate"] <= 1
    # B: every position twice as slow, the same nodes
    b = json.loads(out)
    for s in b["suites"].values():
        for m in s["positions"]:
            m["cpu"] *= 2
    rows = compare(a, b)
    for row in rows:
        assert row["median_ratio"] == pytest.approx(2) and row["nodes_ratio"] == 1
        low, high = row["median_ci"]
        assert low <= 2 <= high and low <= row["geomean_ratio"] <= high
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(b))
    code, out, err = run_cli(capsys, "bench", "--compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert code == 0 and "scopa-2deals" in out and "2.000" in out


def test_the_techniques_ladder_from_the_command_line(capsys):
    code, out, err = run_cli(capsys, "bench", "scopa-3deals", "4p-1deal", "--techniques", "--json")
    assert code == 0, err
    table = json.loads(out)["table"]
    assert [r["label"] for r in table] == ["plain alpha-beta", "+ table", "+ ordering", "+ equivalence",
                                           "+ bounds", "+ endgame", "+ mtdf", "+ other-piles (the default)",
                                           "+ 2 threads"]
    assert all(r["positions"] == 40 and r["wrong"] == 0 for r in table)


def test_list_names_every_suite(capsys):
    code, out, err = run_cli(capsys, "bench", "--list")
    assert code == 0 and all(name in out for name in SUITES)


# -- perft --------------------------------------------------------------------------------------

def ref_perft(state: "ref.RefState", depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.moves()
    if depth == 1:
        return len(moves)
    return sum(ref_perft(state.play(m), depth - 1) for m in moves)


def test_the_shipped_perft_file_is_its_recipe():
    entries = read_perft()
    assert [e.id for e in entries] == [s[0] for s in PERFT_SPECS]
    assert [len(e.counts) for e in entries] == [s[5] for s in PERFT_SPECS]
    assert read_perft(PERFT_FILE) == entries and perft_text(entries) == PERFT_FILE.read_text()


def test_shipped_perft_counts_match_the_reference_where_small():
    checked = 0
    for e in read_perft():
        state = to_ref(e.position)
        for depth, count in enumerate(e.counts, 1):
            if count <= 700:
                assert ref_perft(state, depth) == count, (e.id, depth)
                checked += 1
    assert checked >= 50


@pytest.mark.slow
def test_every_shipped_perft_count_matches_the_reference():
    for e in read_perft():
        state = to_ref(e.position)
        assert [ref_perft(state, d) for d in range(1, len(e.counts) + 1)] == list(e.counts), e.id


def test_the_kernel_perft_matches_the_shipped_counts_where_small():
    rows = check_perft(read_perft(), progress=False, max_depth=4)
    assert rows and all(r["ok"] for r in rows)


def test_a_wrong_perft_count_fails_naming_it(tmp_path, capsys):
    entries = read_perft()[:2]
    entries[1] = replace(entries[1], counts=entries[1].counts[:3] + (entries[1].counts[3] + 1,))
    entries[0] = replace(entries[0], counts=entries[0].counts[:3])
    path = tmp_path / "perft.txt"
    path.write_text(perft_text(entries))
    code, out, err = run_cli(capsys, "bench", "--perft", str(path))
    assert code == 1 and f"perft {entries[1].id} depth 4" in err


def test_perft_command_prints_every_depth(capsys):
    pos = read_perft()[0].position
    code, out, err = run_cli(capsys, "perft", pos.to_string(), "--depth", "3")
    assert code == 0, err
    assert out.split() == [w for d in (1, 2, 3) for w in (f"D{d}", str(perft(pos, d)))]
    code, out, err = run_cli(capsys, "perft", pos.to_string(), "--depth", "41")
    assert code == 2 and "1 to 40" in err


def test_the_suites_ship_as_package_data():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    assert '"scopa_solver.bench" = ["suites/*.txt"]' in (root / "pyproject.toml").read_text()
    assert "recursive-include scopa_solver/bench/suites *.txt" in (root / "MANIFEST.in").read_text()
    assert {p.stem for p in SUITE_DIR.glob("*.txt")} == set(SUITES) | {"perft"}


def test_a_bench_limit_stops_searches_and_leaves_table_and_threads_to_the_config():
    from scopa_solver import LimitError
    suite = load_suites(["4p-round"])[0]
    suite.entries = suite.entries[:1]
    for bad in (Limit(tt_mb=1), Limit(threads=1), Limit(horizon=4)):
        with pytest.raises(LimitError, match="Config"):
            run_suites([suite], limit=bad, progress=False)
    assert run_suites([suite], limit=Limit(time=1e-9), progress=False)[0].measures[0].value is None
