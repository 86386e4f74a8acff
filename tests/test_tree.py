"""Game trees of every game: exact values at every node (two players against the solver; three and
more sides, paranoid from the root's side and max^n, against the solver and a plain recursion
over `Position.play` and `round_score` written here), sizes against an independent enumeration,
pv and merged trees, the writers read back, the pictures, the attribute sets of docs/trees.md,
the limits. (The search as it ran: test_trace.py.)"""
from __future__ import annotations

import importlib
import json
import os
import re
import struct
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest

from helpers import EARLY, SMALL, late, random_positions

from scopa_solver import (Limit, LimitError, Position, Rules, ScopaError, TreeOptions, TreeTooLargeError,
                          analyze, solve, to_networkx, write_tree)
from scopa_solver.errors import TimeLimitError
from scopa_solver.cli import main
from scopa_solver.tree.render import graphviz_available
from scopa_solver.tree import MAX_TREE_NODES, MODES, ROOT, count_tree, read_tree, tree_size, tree_text
from scopa_solver.tree import attributes as attributes_module, build as build_module, io as io_module
from scopa_solver.tree import base as base_module, size as size_module
from scopa_solver.tree import outline as outline_module, trace as trace_module

# the module, not the function `render` that the package re-exports under the same name
render_module = importlib.import_module("scopa_solver.tree.render")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "trees.md"

FINAL_DEALS = list(random_positions(8, seed=2024, deals_left=0, cards_in_hands=6)) + \
    list(random_positions(4, seed=77, deals_left=0))


# -- independent enumeration (Position.play and legal_moves only) ----------------------------

def enumerate_paths(pos: Position, depth=None) -> int:
    if pos.is_round_over() or depth == 0:
        return 1
    return 1 + sum(enumerate_paths(pos.play(m), None if depth is None else depth - 1)
                   for m in pos.legal_moves())


def enumerate_positions(pos: Position, seen=None) -> set:
    seen = set() if seen is None else seen
    if pos.to_string() not in seen:
        seen.add(pos.to_string())
        for m in pos.legal_moves():
            enumerate_positions(pos.play(m), seen)
    return seen


# -- minimax ---------------------------------------------------------------------------------

@pytest.mark.parametrize("pos", FINAL_DEALS, ids=lambda p: p.to_string())
def test_minimax_values_equal_solve_and_analyze_at_every_node(pos):
    g = to_networkx(pos)
    assert g.number_of_nodes() == enumerate_paths(pos)
    assert nx.is_tree(g) and g.graph["value"] == solve(pos).value
    # the same graph attributes as every game's (docs/trees.md)
    assert (g.graph["objective"], g.graph["players"], g.graph["sides"], g.graph["root_side"]) == \
        ("value", 2, 2, pos.to_move)
    for n, d in g.nodes(data=True):
        node = Position.from_string(d["position"])
        assert d["side"] == node.to_move and "hand2" not in d
        assert d["value"] == solve(node).value, n
        assert d["value_p0"] == (d["value"] if node.to_move == 0 else -d["value"])
        assert d["to_move"] == node.to_move and d["terminal"] == node.is_round_over()
        assert d["depth"] == (0 if n == ROOT else n.count("/"))
        if d["terminal"]:
            score = node.round_score()
            assert d["value"] == score.margin(node.to_move)
            assert (d["points_p0"], d["points_p1"]) == score.total and "score" in d
            assert g.out_degree(n) == 0
            continue
        rows = {str(r.move): r.value for r in analyze(node)}
        out = {e["move"]: e for _, _, e in g.out_edges(n, data=True)}
        assert set(out) == rows.keys() and d["expanded"]
        for move, e in out.items():
            assert e["value"] == rows[move] and e["optimal"] == (rows[move] == d["value"])
            assert e["player"] == node.to_move and e["scopa"] == node.is_scopa(move)
            assert e["card"] == move[:2] and e["captures"] == move[3:]
        for _, child, e in g.out_edges(n, data=True):
            assert child == ("/" if n == ROOT else n + "/") + e["move"]     # stable path ids
            assert g.nodes[child]["value"] == -e["value"]     # the players alternate


def test_principal_variation_is_marked_along_solve_pv():
    for pos in FINAL_DEALS[:4] + [EARLY]:
        g = to_networkx(pos)
        pv = [str(m) for m in solve(pos).pv]
        assert g.graph["pv"] == " ".join(pv)
        node = ROOT
        for move in pv:
            child = next(c for c in g.successors(node) if g.edges[node, c]["move"] == move)
            assert g.edges[node, child]["pv"] and g.edges[node, child]["optimal"] and g.nodes[child]["pv"]
            node = child
        assert g.nodes[node]["terminal"]
        assert sum(d["pv"] for _, d in g.nodes(data=True)) == len(pv) + 1


def test_depth_limit_counts_and_stable_ids():
    full = to_networkx(EARLY)
    assert full.number_of_nodes() == enumerate_paths(EARLY) == count_tree(EARLY)[0]
    for depth in (0, 1, 3):
        g = to_networkx(EARLY, options=TreeOptions(depth=depth))
        assert g.number_of_nodes() == enumerate_paths(EARLY, depth) == count_tree(EARLY, depth)[0]
        assert max(d["depth"] for _, d in g.nodes(data=True)) == depth
        for n, d in g.nodes(data=True):        # the same ids and values as in the full tree
            assert full.nodes[n]["value"] == d["value"] and full.nodes[n]["position"] == d["position"]
            assert d["expanded"] == (d["depth"] < depth and not d["terminal"])
            assert not d["truncated"]
    assert to_networkx(EARLY, options=TreeOptions(depth=0)).nodes[ROOT]["value"] == solve(EARLY).value


def test_merge_transpositions_gives_the_dag_of_distinct_positions():
    for pos in FINAL_DEALS[:3] + [EARLY]:
        g = to_networkx(pos, options=TreeOptions(merge_transpositions=True))
        distinct = enumerate_positions(pos)
        assert g.number_of_nodes() == len(distinct) == count_tree(pos)[1]
        assert {d["position"] for _, d in g.nodes(data=True)} == distinct
        assert nx.is_directed_acyclic_graph(g)
        tree = to_networkx(pos)
        assert g.number_of_edges() == sum(1 for _ in g.edges)
        for n, d in g.nodes(data=True):
            assert tree.nodes[n]["value"] == d["value"]      # ids are the first path: in the tree too
    assert any(d > 1 for _, d in to_networkx(EARLY, options=TreeOptions(merge_transpositions=True)).in_degree())


def test_round_over_root_is_one_node():
    end = SMALL
    for move in solve(SMALL).pv:
        end = end.play(move)
    g = to_networkx(end)
    assert g.number_of_nodes() == 1 and g.nodes[ROOT]["terminal"]
    assert g.nodes[ROOT]["value"] == solve(end).value == end.round_score().margin(end.to_move)


# -- pv --------------------------------------------------------------------------------------

def test_pv_mode_alternatives_one_level_deep():
    for pos in FINAL_DEALS[:4] + [EARLY]:
        g = to_networkx(pos, mode="pv")
        pv = solve(pos).pv
        node, here, expected = ROOT, pos, 1
        for move in pv:
            rows = {str(r.move): r.value for r in analyze(here)}
            out = {e["move"]: (c, e) for _, c, e in g.out_edges(node, data=True)}
            assert out.keys() == rows.keys()
            expected += len(rows)
            for text, (child, e) in out.items():
                assert e["value"] == rows[text] == -g.nodes[child]["value"]
                if text != str(move):
                    assert g.out_degree(child) == 0 and not g.nodes[child]["pv"]
            node, here = out[str(move)][0], here.play(move)
            assert g.nodes[node]["pv"]
        assert g.number_of_nodes() == expected
    g = to_networkx(EARLY, options=TreeOptions(depth=2), mode="pv")
    assert max(d["depth"] for _, d in g.nodes(data=True)) == 2
    assert sum(1 for _, d in g.nodes(data=True) if d["expanded"]) == 2


# -- the search as it ran --------------------------------------------------------------------


# -- limits and arguments --------------------------------------------------------------------

def test_size_limits_raise_clear_errors_or_truncate():
    size = enumerate_paths(EARLY)
    with pytest.raises(TreeTooLargeError, match=f"has {size:,} nodes .* more than max_nodes=1,000"):
        to_networkx(EARLY, options=TreeOptions(max_nodes=1000))
    with pytest.raises(TreeTooLargeError, match=f"{len(enumerate_positions(EARLY)):,} distinct positions"):
        to_networkx(EARLY, options=TreeOptions(max_nodes=100, merge_transpositions=True))
    with pytest.raises(TreeTooLargeError, match="principal variation"):
        to_networkx(EARLY, options=TreeOptions(max_nodes=5), mode="pv")
    g = to_networkx(EARLY, options=TreeOptions(max_nodes=1000, truncate=True))
    assert 900 < g.number_of_nodes() <= 1000 and g.graph["truncated"]
    full = to_networkx(EARLY)
    for n, d in g.nodes(data=True):
        assert full.nodes[n]["value"] == d["value"]
        assert d["truncated"] == (not d["expanded"] and not d["terminal"])
        if d["expanded"]:
            assert g.out_degree(n) == full.out_degree(n)
    m = to_networkx(EARLY, options=TreeOptions(max_nodes=200, truncate=True, merge_transpositions=True))
    assert m.number_of_nodes() <= 200 and any(d["truncated"] for _, d in m.nodes(data=True))
    p = to_networkx(EARLY, options=TreeOptions(max_nodes=8, truncate=True), mode="pv")
    assert p.number_of_nodes() <= 8 and sum(d["truncated"] for _, d in p.nodes(data=True)) == 1
    # the default bound is 10,000 nodes: a whole round is far beyond, and says so
    with pytest.raises(TreeTooLargeError, match=r"at least [\d,]{11,} nodes, more than max_nodes=10,000"):
        to_networkx(Position.new_round(seed=3))


def test_bad_arguments():
    with pytest.raises(ValueError, match="mode"):
        to_networkx(SMALL, mode="everything")
    with pytest.raises(ValueError, match="depth"):
        to_networkx(SMALL, options=TreeOptions(depth=-1))
    with pytest.raises(ValueError, match="max_nodes"):
        to_networkx(SMALL, options=TreeOptions(max_nodes=0))
    with pytest.raises(ValueError, match="merge_transpositions"):
        to_networkx(SMALL, options=TreeOptions(merge_transpositions=True), mode="search")
    with pytest.raises(ValueError, match="search must be"):
        to_networkx(SMALL, mode="search", search="everything")
    with pytest.raises(TypeError):
        to_networkx("7d2c/3b4c 3s4s -/- - 0/0 0 1 -")
    with pytest.raises(ValueError, match="suffix"):
        write_tree(to_networkx(SMALL), "tree.xyz")


# -- writers ---------------------------------------------------------------------------------

def _same_attributes(a: dict, b: dict, as_text: bool) -> bool:
    for key, value in a.items():
        if key not in b:
            return False
        got = b[key]
        if as_text:
            if str(value) != str(got).strip('"'):
                return False
        elif got != value or type(got) is not type(value):
            return False
    return True


@pytest.mark.parametrize("suffix", [".graphml", ".gexf", ".json", ".dot"])
@pytest.mark.parametrize("mode", ["minimax", "pv", "search", "merged"])
def test_writers_read_back_equal(tmp_path, suffix, mode):
    if suffix == ".dot":
        pytest.importorskip("pydot")
    pos = SMALL if suffix == ".dot" else FINAL_DEALS[1]       # pydot reads slowly
    g = (to_networkx(pos, options=TreeOptions(merge_transpositions=True)) if mode == "merged"
         else to_networkx(pos, Limit(tt_mb=1), mode=mode))
    path = write_tree(g, tmp_path / f"tree{suffix}")
    back = read_tree(path)
    assert back.is_directed()
    assert back.number_of_nodes() == g.number_of_nodes() and back.number_of_edges() == g.number_of_edges()
    as_text = suffix == ".dot"
    for n, d in g.nodes(data=True):
        assert _same_attributes(d, back.nodes[n], as_text), n
    for u, v, d in g.edges(data=True):
        assert _same_attributes(d, back.edges[u, v], as_text), (u, v)
    if suffix in (".graphml", ".json"):
        assert _same_attributes(g.graph, back.graph, False)
    if suffix == ".json":
        assert json.loads(open(path, encoding="utf-8").read())["directed"]
    if suffix == ".dot" and graphviz_available():    # Graphviz itself reads it too
        done = subprocess.run(["dot", "-Tsvg", str(path)], capture_output=True)
        assert done.returncode == 0 and b"<svg" in done.stdout


# -- pictures --------------------------------------------------------------------------------

def _png_size(path) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def _check_svg(path, min_texts: int) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    texts = [t for t in root.iter() if t.tag.endswith("text") or t.tag.endswith("path")]
    assert len(texts) >= min_texts
    return root


@pytest.mark.parametrize("mode", ["minimax", "pv", "search"])
def test_pictures_fallback_matplotlib(tmp_path, mode):
    pytest.importorskip("matplotlib")
    g = to_networkx(SMALL if mode != "pv" else EARLY, Limit(tt_mb=1), mode=mode)
    png = write_tree(g, tmp_path / "t.png", engine="matplotlib")
    w, h = _png_size(png)
    assert w > 300 and h > 300 and os.path.getsize(png) > 10_000
    svg = write_tree(g, tmp_path / "t.svg", engine="matplotlib")
    _check_svg(svg, g.number_of_nodes())
    assert os.path.getsize(svg) > 10_000


def test_picture_engine_choice(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(render_module, "graphviz_available", lambda: False)
    path = write_tree(to_networkx(SMALL), tmp_path / "auto.svg")     # falls back to matplotlib
    assert "matplotlib" in open(path, encoding="utf-8").read(2000).lower()
    with pytest.raises(RuntimeError, match="Graphviz"):
        write_tree(to_networkx(SMALL), tmp_path / "gv.svg", engine="graphviz")
    monkeypatch.setitem(sys.modules, "matplotlib", None)           # neither renderer
    with pytest.raises(RuntimeError, match="pip install"):
        write_tree(to_networkx(SMALL), tmp_path / "none.png")


@pytest.mark.skipif(not graphviz_available(), reason="the Graphviz program 'dot' is not installed")
@pytest.mark.parametrize("mode", ["minimax", "pv", "search"])
def test_pictures_graphviz(tmp_path, mode):
    g = to_networkx(SMALL if mode != "pv" else EARLY, Limit(tt_mb=1), mode=mode)
    svg = write_tree(g, tmp_path / "t.svg", engine="graphviz")
    root = _check_svg(svg, g.number_of_nodes())
    classes = [e.get("class") for e in root.iter()]
    assert classes.count("node") == g.number_of_nodes() and classes.count("edge") == g.number_of_edges()
    text = open(svg, encoding="utf-8").read()
    assert "7d" in text                                   # card labels
    assert ("#16a34a" in text) == (mode != "search")      # optimal moves in green
    w, h = _png_size(write_tree(g, tmp_path / "t.png", engine="graphviz"))
    assert w > 200 and h > 200


def test_graphviz_without_the_python_binding(tmp_path, monkeypatch):
    if not graphviz_available():
        pytest.skip("the Graphviz program 'dot' is not installed")
    monkeypatch.setitem(sys.modules, "graphviz", None)     # the subprocess path
    path = write_tree(to_networkx(SMALL), tmp_path / "t.svg", engine="graphviz")
    assert ET.parse(path).getroot().tag.endswith("svg")


# -- outline and command line ----------------------------------------------------------------

def test_outline_text():
    text = tree_text(to_networkx(SMALL))
    assert text.splitlines()[0].startswith(SMALL.to_string())
    assert "= P0 7dx3s+4s" in text and "end 5-0" in text
    assert "nodes in all" in tree_text(to_networkx(EARLY), max_lines=20)


def test_cli_tree(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    line = SMALL.to_string()
    out = tmp_path / "tree.svg"
    assert main(["tree", line, "--mode", "pv", "--depth", "4", "-o", str(out), "--engine", "matplotlib"]) == 0
    assert out.exists() and "pv tree" in capsys.readouterr().out
    assert main(["tree", line]) == 0 and "7dx3s+4s" in capsys.readouterr().out
    assert main(["tree", line, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["nodes"]) == enumerate_paths(SMALL)
    assert main(["tree", line, "--mode", "search", "--tt-mb", "1"]) == 0
    assert "pass" in capsys.readouterr().out
    assert main(["tree", line, "-o", str(tmp_path / "t.graphml")]) == 0
    assert read_tree(tmp_path / "t.graphml").number_of_nodes() == enumerate_paths(SMALL)
    assert main(["tree", EARLY.to_string(), "--max-nodes", "10"]) == 2
    assert "more than max_nodes=10" in capsys.readouterr().err
    assert main(["tree", line, "-o", str(tmp_path / "t.bmp")]) == 2


def test_cli_tree_picture_too_large_is_refused_before_any_search(tmp_path, capsys, monkeypatch):
    """A picture of thousands of nodes is unreadable and takes Graphviz minutes: refused, with
    the count and the hint, before the tree is built; --max-picture-nodes draws it anyway."""
    import scopa_solver.tree as tree_package
    out = tmp_path / "tree.svg"
    nodes = tree_size(EARLY).nodes                 # a few thousand, under --max-nodes 10,000
    assert 2_000 < nodes <= 10_000

    def no_build(*args, **kwargs):
        raise AssertionError("built the tree of a picture that is refused")
    with monkeypatch.context() as m:
        m.setattr(tree_package, "to_networkx", no_build)
        assert main(["tree", EARLY.to_string(), "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert f"a picture of {nodes:,} nodes is more than --max-picture-nodes 2,000" in err
        assert "unreadable" in err and "--mode pv" in err
        assert "--depth" in err and "--max-picture-nodes" in err and len(err.strip().splitlines()) == 1
        assert main(["tree", EARLY.to_string(), "--truncate", "--max-nodes", "5000", "-o", str(out)]) == 2
        assert "a picture of up to 5,000 nodes" in capsys.readouterr().err
        assert main(["tree", NEW_ROUND.to_string(), "-o", str(out)]) == 2     # far too large to count
        assert "a picture of at least" in capsys.readouterr().err
    assert not out.exists()
    line = SMALL.to_string()
    pv = to_networkx(SMALL, mode="pv").number_of_nodes()
    assert main(["tree", line, "--mode", "pv", "--max-picture-nodes", str(pv - 1), "-o", str(out)]) == 2
    assert f"a picture of {pv} nodes" in capsys.readouterr().err and not out.exists()   # counted when built
    assert main(["tree", line, "--max-picture-nodes", "14", "-o", str(out)]) == 2
    assert "a picture of 15 nodes" in capsys.readouterr().err
    assert main(["tree", line, "--max-picture-nodes", "14", "-o", str(tmp_path / "t.json")]) == 0   # data: any size
    capsys.readouterr()
    monkeypatch.setattr("scopa_solver.cli.commands.PICTURE_WARN_NODES", 10)
    assert main(["tree", line, "--max-picture-nodes", "15", "-o", str(out), "--engine", "matplotlib"]) == 0
    captured = capsys.readouterr()
    assert out.exists() and "warning: a picture of 15 nodes is hard to read" in captured.err
    assert "--mode pv" in captured.err and "minimax tree: 15 nodes" in captured.out


def test_cli_tree_progress_bar_on_a_terminal_only(monkeypatch, capsys):
    """`tree` passes the command line's progress rule on: a bar on a terminal (None), none with --json."""
    import scopa_solver.tree as tree_package
    seen = []
    real = tree_package.to_networkx
    monkeypatch.setattr(tree_package, "to_networkx", lambda *a, **k: seen.append(k["progress"]) or real(*a, **k))
    assert main(["tree", SMALL.to_string()]) == 0
    assert main(["tree", SMALL.to_string(), "--json"]) == 0
    assert seen == [None, False]


# -- hostile input: limits, sizes, time ------------------------------------------------------

NEW_ROUND = Position.new_round(seed=3)


@pytest.mark.parametrize("bad", [10 ** 9, MAX_TREE_NODES + 1, 10 ** 5000, 0, -1, True, 1.5, "10", None],
                         ids=lambda v: type(v).__name__ + (f"{v.bit_length()}bits" if type(v) is int else ""))
@pytest.mark.parametrize("mode", ["minimax", "pv", "search"])
def test_max_nodes_is_checked_and_capped_before_any_work(bad, mode):
    with pytest.raises(LimitError, match="max_nodes") as caught:
        to_networkx(NEW_ROUND, options=TreeOptions(max_nodes=bad), mode=mode)
    text = str(caught.value)
    assert len(text) < 300
    if isinstance(bad, int) and bad > MAX_TREE_NODES:
        assert "at most 10,000,000 nodes" in text
    else:
        assert "positive whole number" in text


def test_other_arguments_are_checked():
    for make in (lambda: TreeOptions(depth=-1), lambda: TreeOptions(depth=1.5), lambda: TreeOptions(depth=True),
                 lambda: TreeOptions(truncate="yes"), lambda: TreeOptions(merge_transpositions=1),
                 lambda: Limit(tt_mb=1e12), lambda: Limit(tt_mb=-1), lambda: Limit(threads=-2),
                 lambda: to_networkx(SMALL, mode=["minimax"]), lambda: to_networkx(SMALL, {"tt_mb": 1}),
                 lambda: to_networkx(SMALL, options={"depth": 1})):
        with pytest.raises(ScopaError):
            make()
    with pytest.raises(LimitError, match="budget"):
        tree_size(SMALL, budget=10 ** 12)
    with pytest.raises(LimitError, match="max_lines"):
        tree_text(to_networkx(SMALL), max_lines=0)
    # a depth past any round is the whole round
    assert to_networkx(SMALL, options=TreeOptions(depth=10 ** 30)).number_of_nodes() == enumerate_paths(SMALL)


def test_a_trees_limit_bounds_its_build_and_leaves_its_values_exact():
    """A tree takes a `Limit` for its searches: table and threads as given, time and deadline
    for the whole build; its values are exact, so a node limit or a horizon is refused."""
    plain = to_networkx(EARLY, options=TreeOptions(depth=2))
    limited = to_networkx(EARLY, Limit(time=600, tt_mb=1, threads=2), TreeOptions(depth=2))
    assert nx.utils.graphs_equal(plain, limited)
    for bad, field in ((Limit(nodes=1000), "nodes"), (Limit(horizon=4), "horizon")):
        for mode in MODES:
            with pytest.raises(LimitError, match=f"Limit.{field} does not apply"):
                to_networkx(SMALL, bad, mode=mode)
    assert to_networkx(SMALL, Limit(horizon=0)).graph["value"] == solve(SMALL).value   # exact: allowed
    with pytest.raises(TimeLimitError, match="the minimax tree needs more than"):
        to_networkx(EARLY, Limit(deadline=time.monotonic() - 1))      # a deadline already past


def test_a_tree_too_large_fails_fast_naming_its_size_and_the_cap(monkeypatch):
    exact = tree_size(NEW_ROUND, 12)
    assert exact.exact and exact.nodes > 1000
    # fast: refused from one count of at most COUNT_BUDGET positions, before anything is built
    counted = []
    monkeypatch.setattr(size_module, "tree_size", lambda *a, **kw: counted.append(kw["budget"]) or tree_size(*a, **kw))
    monkeypatch.setattr(build_module, "_build", lambda *a, **kw: pytest.fail("built before it was refused"))
    for kwargs, size in ((dict(max_nodes=MAX_TREE_NODES), r"at least [\d,]{11,} nodes"),
                         (dict(max_nodes=50_000, merge_transpositions=True), r"more than 100,000 distinct positions"),
                         (dict(max_nodes=1000, depth=12), f"{exact.nodes:,} nodes")):
        counted.clear()
        with pytest.raises(TreeTooLargeError, match=f"has {size}.*, more than max_nodes={kwargs['max_nodes']:,}") \
                as caught:
            to_networkx(NEW_ROUND, options=TreeOptions(**kwargs))
        assert counted == [size_module.COUNT_BUDGET] == [100_000], kwargs      # about 0.5 s
        assert len(str(caught.value)) < 300
    # the lower bound is a real bound: counted subtrees only
    size = tree_size(EARLY, budget=200)
    assert not size.exact and size.distinct == 201
    assert size.distinct <= len(enumerate_positions(EARLY)) and size.nodes <= enumerate_paths(EARLY)
    assert count_tree(EARLY, budget=200) == (None, None)
    assert tree_size(EARLY) == (enumerate_paths(EARLY), len(enumerate_positions(EARLY)), True)


def test_past_the_count_budget_merged_trees_are_counted_and_others_checked_as_built(monkeypatch):
    monkeypatch.setattr(size_module, "COUNT_BUDGET", 100)
    distinct, nodes = len(enumerate_positions(EARLY)), enumerate_paths(EARLY)
    with pytest.raises(TreeTooLargeError, match=f"more than max_nodes={distinct - 1:,} distinct positions"):
        to_networkx(EARLY, options=TreeOptions(max_nodes=distinct - 1, merge_transpositions=True))
    assert size_module.check_size(EARLY, None, distinct, merge=True) == distinct
    assert to_networkx(EARLY, options=TreeOptions(max_nodes=distinct, merge_transpositions=True)).number_of_nodes() == distinct
    assert size_module.check_size(EARLY, None, nodes) is None       # not known: the build checks
    with pytest.raises(TreeTooLargeError, match=f"more than max_nodes={nodes - 1:,} nodes"):
        to_networkx(EARLY, options=TreeOptions(max_nodes=nodes - 1))
    assert to_networkx(EARLY, options=TreeOptions(max_nodes=nodes)).number_of_nodes() == nodes


def test_progress_bars_on_request(capsys):
    pytest.importorskip("tqdm")
    to_networkx(EARLY, progress=True)
    assert "minimax tree" in capsys.readouterr().err
    to_networkx(EARLY, Limit(tt_mb=1), mode="search", progress=True)
    assert "search graph" in capsys.readouterr().err
    to_networkx(EARLY, progress=False)
    to_networkx(EARLY, Limit(tt_mb=1), mode="search", progress=False)
    assert capsys.readouterr().err == ""


def test_cli_tree_hostile_limits(capsys, monkeypatch):
    line = NEW_ROUND.to_string()
    monkeypatch.setattr(build_module, "_build", lambda *a, **kw: pytest.fail("built before it was refused"))
    for args, message in ((["--max-nodes", "1000000000", "--json"], "at most 10,000,000"),
                          (["--mode", "search", "--max-nodes", str(10 ** 12)], "at most 10,000,000"),
                          (["--max-nodes", "10000000", "--json"], "more than max_nodes=10,000,000"),
                          (["--max-nodes", "0"], "1 or more")):
        assert main(["tree", line, *args]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


# -- the modules -----------------------------------------------------------------------------

def test_each_module_does_its_job(tmp_path):
    g = build_module.to_networkx(SMALL)
    assert size_module.count_tree(SMALL) == (g.number_of_nodes(), len(enumerate_positions(SMALL)))
    assert outline_module.tree_text(g).splitlines()[0].startswith(SMALL.to_string())
    data = io_module.node_link(g)
    assert len(data["nodes"]) == g.number_of_nodes() and len(data["edges"]) == g.number_of_edges()
    back = io_module.read_tree(io_module.write_tree(g, tmp_path / "t.json"))
    assert sorted(back.nodes) == sorted(g.nodes)
    assert "digraph" in render_module.to_dot(g)
    s = trace_module.search_tree(SMALL, Limit(tt_mb=1))
    assert s.graph["tree_mode"] == "search" and s.graph["value"] == solve(SMALL).value
    move = SMALL.legal_moves()[0]
    assert attributes_module.move_attributes(move, 0, True) == dict(
        move=str(move), card=str(move.card), captures="+".join(str(c) for c in sorted(move.captures)),
        player=0, scopa=True)
    assert base_module.check_depth(None) is None and base_module.check_max_nodes(7) == 7


def test_the_package_exports_and_lazy_imports():
    import scopa_solver
    import scopa_solver.tree as tree
    for name in ("to_networkx", "write_tree", "read_tree", "render", "tree_text", "node_link", "count_tree",
                 "search_graph", "TreeOptions", "TreeTooLargeError", "ROOT", "MODES"):
        assert name in tree.__all__ and getattr(tree, name) is not None
    assert scopa_solver.write_tree is io_module.write_tree and scopa_solver.read_tree is io_module.read_tree
    assert scopa_solver.TreeTooLargeError is tree.TreeTooLargeError is build_module.TreeTooLargeError
    assert scopa_solver.TreeOptions is tree.TreeOptions is base_module.TreeOptions
    assert scopa_solver.to_networkx is build_module.to_networkx
    code = ("import sys, scopa_solver; heavy = [m for m in ('networkx', 'scopa_solver.tree') if m in sys.modules]; "
            "import scopa_solver.tree; print(heavy, 'networkx' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=os.path.dirname(os.path.dirname(scopa_solver.__file__)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "True"]


# -- three and more sides, and the two-sided games of more players ----------------------------

def paranoid(pos: Position, side: int) -> int:
    """The paranoid value for `side`, by plain minimax (no kernel search)."""
    if pos.is_round_over():
        return pos.round_score().margin(side)
    values = [paranoid(pos.play(m), side) for m in pos.legal_moves()]
    return max(values) if pos.rules.sides[pos.to_move] == side else min(values)


def maxn(pos: Position) -> tuple:
    """Every side's points under max^n by plain recursion, ties to the first legal move."""
    if pos.is_round_over():
        return tuple(pos.round_score().total)
    side, best = pos.rules.sides[pos.to_move], None
    for m in pos.legal_moves():
        points = maxn(pos.play(m))
        if best is None or points[side] > best[side]:
            best = points
    return best


def positions_of(g):
    return {n: Position.from_string(d["position"]) for n, d in g.nodes(data=True)}


THREE_OR_MORE = [(Rules(players=3), 1, 6), (Rules(players=3), 5, 7), (Rules(players=4, partnerships=False), 2, 7),
                 (Rules(players=6, partnerships=False), 3, 7), (Rules(players=3, capture="fifteen"), 4, 7)]


@pytest.mark.parametrize("rules,seed,left", THREE_OR_MORE)
def test_paranoid_tree_values_agree_with_solve_analyze_and_minimax(rules, seed, left):
    pos = late(rules, seed, left)
    g = to_networkx(pos, options=TreeOptions(max_nodes=50_000))
    root_side = rules.sides[pos.to_move]
    assert g.graph["objective"] == "value" and g.graph["root_side"] == root_side
    assert g.graph["sides"] == rules.side_count and "value_p0" not in g.graph
    assert g.graph["value"] == solve(pos).value == paranoid(pos, root_side)
    assert g.number_of_nodes() == tree_size(pos).nodes
    for n, p in positions_of(g).items():
        d = g.nodes[n]
        assert d["value"] == paranoid(p, root_side), n
        assert d["side"] == rules.sides[p.to_move] and "value_p0" not in d and "points" not in d
        edges = {e["move"]: e for _, _, e in g.out_edges(n, data=True)}
        if d["terminal"]:
            assert d["value"] == p.round_score().margin(root_side) and not edges
            continue
        if d["side"] == root_side:      # the kernel's paranoid search is the root side's there
            assert d["value"] == solve(p).value
            assert {m: e["value"] for m, e in edges.items()} == {str(r.move): r.value for r in analyze(p)}
        best = max if d["side"] == root_side else min
        assert d["value"] == best(e["value"] for e in edges.values())
        for m, e in edges.items():
            assert e["optimal"] == (e["value"] == d["value"])
            assert e["player"] == p.to_move


@pytest.mark.parametrize("rules,seed,left", THREE_OR_MORE[:3] + [(Rules(players=4), 6, 6)])
def test_maxn_tree_points_agree_with_solve_analyze_and_plain_maxn(rules, seed, left):
    pos = late(rules, seed, left)
    g = to_networkx(pos, options=TreeOptions(max_nodes=50_000), objective="maxn")
    assert g.graph["objective"] == "maxn" and g.graph["points"] == solve(pos, objective="maxn").points
    for n, p in positions_of(g).items():
        d = g.nodes[n]
        side = rules.sides[p.to_move]
        assert len(d["points"]) == rules.side_count and d["value"] == d["points"][side]
        assert d["points"] == maxn(p), n
        if d["terminal"]:
            assert d["points"] == p.round_score().total
            continue
        result = solve(p, objective="maxn")
        assert (d["value"], d["points"]) == (result.value, result.points), n
        edges = {e["move"]: e for _, _, e in g.out_edges(n, data=True)}
        assert {m: e["value"] for m, e in edges.items()} == \
            {str(r.move): r.value for r in analyze(p, objective="maxn")}
        for m, e in edges.items():
            child = g.nodes[[c for _, c, x in g.out_edges(n, data=True) if x["move"] == m][0]]
            assert e["points"] == child["points"] and e["value"] == child["points"][side]
            assert e["optimal"] == (e["value"] == d["value"])
        # the node's points are those of the first best move in the kernel's order (its tie rule)
        assert d["points"] in [e["points"] for e in edges.values() if e["optimal"]]


@pytest.mark.parametrize("objective", ["value", "maxn"])
@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=4, game="scopone"),
                                   Rules(players=4, partnerships=False)])
def test_pv_tree_follows_the_principal_variation(rules, objective):
    pos = late(rules, 11, 9)
    solved = solve(pos, objective=objective)
    g = to_networkx(pos, mode="pv", objective=objective)
    assert g.graph["pv"] == " ".join(map(str, solved.pv))
    node, walked = "/", []
    while True:
        pv_edges = [(c, e) for _, c, e in g.out_edges(node, data=True) if e["pv"]]
        if not pv_edges:
            break
        (child, e), = pv_edges
        assert e["optimal"] and g.nodes[child]["pv"]
        assert g.out_degree(node) == len(Position.from_string(g.nodes[node]["position"]).legal_moves())
        walked.append(e["move"])
        node = child
    assert walked == [str(m) for m in solved.pv] and g.nodes[node]["terminal"]
    full = to_networkx(pos, options=TreeOptions(max_nodes=200_000), objective=objective) if tree_size(pos).nodes < 200_000 else None
    if full is not None:        # the pv tree is a part of the minimax tree, with its values
        for n, d in g.nodes(data=True):
            assert d["value"] == full.nodes[n]["value"]


def test_merged_tree_is_one_node_per_position_with_the_same_values():
    pos = late(Rules(players=3), 5, 7)
    tree = to_networkx(pos)
    merged = to_networkx(pos, options=TreeOptions(merge_transpositions=True))
    assert merged.number_of_nodes() == tree_size(pos).distinct < tree.number_of_nodes()
    values = {d["position"]: d["value"] for _, d in tree.nodes(data=True)}
    assert all(values[d["position"]] == d["value"] for _, d in merged.nodes(data=True))
    assert len({d["position"] for _, d in merged.nodes(data=True)}) == merged.number_of_nodes()


def test_depth_and_truncation_keep_the_exact_values():
    pos = late(Rules(players=4, partnerships=False), 2, 7)
    full = to_networkx(pos, options=TreeOptions(max_nodes=50_000))
    shallow = to_networkx(pos, options=TreeOptions(depth=2))
    assert all(d["value"] == full.nodes[n]["value"] for n, d in shallow.nodes(data=True))
    cut = to_networkx(pos, options=TreeOptions(max_nodes=20, truncate=True), objective="maxn")
    assert cut.graph["truncated"] and cut.number_of_nodes() <= 20
    assert any(d["truncated"] for _, d in cut.nodes(data=True))


def test_two_sided_trees_of_every_game_keep_the_two_player_attributes():
    pos = late(Rules(players=4), 6, 6)
    g = to_networkx(pos, options=TreeOptions(depth=2))
    assert "value_p0" in g.graph and all("value_p0" in d for _, d in g.nodes(data=True))
    assert g.graph["sides"] == 2 and g.graph["objective"] == "value"
    maxn = to_networkx(pos, options=TreeOptions(depth=2), objective="maxn")
    assert "value_p0" not in maxn.nodes["/"] and len(maxn.nodes["/"]["points"]) == 2


def test_refusals_are_clear():
    pos = late(Rules(players=3), 1, 6)
    with pytest.raises(ScopaError, match="not objective='maxn'"):
        to_networkx(pos, mode="search", objective="maxn")
    with pytest.raises(ScopaError, match="objective must be"):
        to_networkx(pos, objective="best")
    two = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    with pytest.raises(ScopaError, match="not objective='maxn'"):
        to_networkx(two, mode="search", objective="maxn")


@pytest.mark.parametrize("suffix", [".graphml", ".gexf", ".json", ".dot", ".svg"])
def test_files_of_a_three_sided_maxn_tree(tmp_path, suffix):
    pos = late(Rules(players=3), 1, 6)
    g = to_networkx(pos, objective="maxn")
    path = write_tree(g, tmp_path / f"tree{suffix}")
    if suffix == ".svg":
        assert Path(path).read_text().lstrip().startswith(("<?xml", "<svg"))
        return
    if suffix == ".dot":
        text = Path(path).read_text()
        assert "points" in text and "hexagon" in text      # side 2 has its own look
        return
    back = read_tree(path)
    assert back.number_of_nodes() == g.number_of_nodes()
    points = back.nodes["/"]["points"]
    assert (json.loads(points) if isinstance(points, str) else points) == list(g.nodes["/"]["points"])


def test_outline_shows_the_values_per_side():
    pos = late(Rules(players=3), 1, 6)
    text = tree_text(to_networkx(pos, options=TreeOptions(depth=2), objective="maxn"))
    assert "max^n points per side" in text.splitlines()[0]
    assert re.search(r"\d+/\d+/\d+", text.splitlines()[1])
    assert "paranoid value for side" in tree_text(to_networkx(pos, options=TreeOptions(depth=1))).splitlines()[0]


def _documented() -> set[str]:
    """The attribute names of docs/trees.md's tables (``_pN``/``N`` suffixes as written)."""
    names = set()
    for line in DOCS.read_text().splitlines():
        if line.startswith("|") and "`" in line:
            names.update(re.findall(r"`([A-Za-z_0-9]+)`", line.split("|")[1]))
    return names


def _normal(key: str) -> str:
    key = re.sub(r"^(points|cards|coins|primiera|scopas|napola)_p\d$", r"\1_pN", key)
    return re.sub(r"^(hand|scopas)\d$", r"\1N", key)


@pytest.mark.parametrize("rules,objective", [(Rules(players=3), "value"), (Rules(players=3), "maxn"),
                                             (Rules(players=4), "value"),
                                             (Rules(napola=True, re_bello=True), "value")])
def test_every_attribute_is_documented(rules, objective):
    pos = late(rules, 1, 6)
    g = to_networkx(pos, objective=objective)
    documented = _documented()
    keys = {_normal(k) for _, d in g.nodes(data=True) for k in d}
    keys |= {_normal(k) for *_, d in g.edges(data=True) for k in d}
    keys |= set(g.graph)
    assert keys - documented == set()


def test_outline_and_pictures_of_a_tree_read_back(tmp_path):
    pos = late(Rules(players=4, partnerships=False), 2, 8)
    g = to_networkx(pos, options=TreeOptions(depth=2), objective="maxn")
    back = read_tree(write_tree(g, tmp_path / "tree.graphml"))     # points as JSON text
    assert tree_text(back).splitlines()[1].split()[-1] == "/".join(map(str, g.nodes[
        next(c for _, c, e in g.out_edges("/", data=True) if e["pv"])]["points"]))
    assert Path(write_tree(back, tmp_path / "tree.png", engine="matplotlib")).stat().st_size > 0


@pytest.mark.parametrize("rules", [Rules(players=4, game="scopone"), Rules(players=4, game="scientifico")])
def test_the_picture_marks_a_new_deal_only_where_the_stock_deals(rules):
    """Scopone and scientifico deal every card at once: a position where every hand holds 3
    cards, late in the round, is no new deal (the picture used to say so by the hands' length)."""
    pos = late(rules, 3, 13)                      # hands 3/3/3/4: after the next move all hold 3
    assert sorted(pos.hand_sizes()) == [3, 3, 3, 4]
    g = to_networkx(pos, options=TreeOptions(depth=1))
    assert all(sorted(Position.from_string(d["position"]).hand_sizes()) == [3, 3, 3, 3]
               for n, d in g.nodes(data=True) if n != "/")
    assert not any(d["dealt"] for _, d in g.nodes(data=True))
    assert "new deal" not in render_module.to_dot(g)


def test_the_picture_marks_the_deal_from_the_stock():
    pos = late(Rules(players=3), 4, 12)           # the last cards of a deal before the stock's next one
    g = to_networkx(pos, options=TreeOptions(depth=sum(pos.hand_sizes())), mode="pv")
    dealt = [n for n, d in g.nodes(data=True) if d["dealt"]]
    stock = {n: d["stock"] for n, d in g.nodes(data=True)}
    assert dealt and all(stock[n] < stock[next(iter(g.predecessors(n)))] for n in dealt)
    assert all(stock[n] == stock[next(iter(g.predecessors(n)))] for n in g if n != "/" and n not in dealt)
    assert render_module.to_dot(g).count("new deal") == len(dealt)


def test_trees_of_two_sided_games_agree_with_analyze():
    for rules, left in ((Rules(players=4, game="scientifico"), 8), (Rules(players=4), 6), (Rules(capture="fifteen"), 4)):
        pos = late(rules, 3, left, play_seed=1)
        g = to_networkx(pos, options=TreeOptions(max_nodes=100_000), mode="minimax")
        assert g.graph["value"] == solve(pos).value
        edges = {e["move"]: e["value"] for _, _, e in g.out_edges("/", data=True)}
        assert edges == {str(row.move): row.value for row in analyze(pos)}
        for node, data in g.nodes(data=True):          # partners share a sign, opponents flip it
            if data.get("kind") == "position" and node != "/":
                side = rules.sides[data["to_move"]]
                assert data["value_p0"] == (data["value"] if side == rules.sides[0] else -data["value"])
    three = Position.new_round(seed=3, rules=Rules(players=3))
    with pytest.raises(ScopaError, match="not objective='maxn'"):
        to_networkx(three, mode="search", objective="maxn")     # max^n is not traced
