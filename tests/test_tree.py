"""Game trees: exact values at every node, sizes against an independent enumeration, the search
as it ran against the solver's node count, the writers read back, the pictures, the limits."""
from __future__ import annotations

import importlib
import json
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import networkx as nx
import pytest

from helpers import random_positions

from scopa_solver import (LimitError, Position, ScopaError, TreeTooLargeError, analyze, solve, to_networkx,
                          write_tree)
from scopa_solver import _kernel
from scopa_solver.cli import main
from scopa_solver.tree.render import graphviz_available
from scopa_solver import kernel as kernel_module
from scopa_solver.kernel import FULL_WINDOW, WANT_ALL, WANT_BEST, WANT_PV
from scopa_solver.tree import MAX_TREE_NODES, ROOT, count_tree, read_tree, search_graph, tree_size, tree_text
from scopa_solver.tree import attributes as attributes_module, build as build_module, io as io_module
from scopa_solver.tree import base as base_module, size as size_module
from scopa_solver.tree import outline as outline_module, trace as trace_module

# the module, not the function `render` that the package re-exports under the same name
render_module = importlib.import_module("scopa_solver.tree.render")

SMALL = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
# one deal still in the stock: a tree of a few thousand nodes
EARLY = Position.from_string(
    "7cRs4b/7d4s7b 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb 5b5d4d6sRdAs 0/0 0 1 0")
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
        g = to_networkx(EARLY, depth=depth)
        assert g.number_of_nodes() == enumerate_paths(EARLY, depth) == count_tree(EARLY, depth)[0]
        assert max(d["depth"] for _, d in g.nodes(data=True)) == depth
        for n, d in g.nodes(data=True):        # the same ids and values as in the full tree
            assert full.nodes[n]["value"] == d["value"] and full.nodes[n]["position"] == d["position"]
            assert d["expanded"] == (d["depth"] < depth and not d["terminal"])
            assert not d["truncated"]
    assert to_networkx(EARLY, depth=0).nodes[ROOT]["value"] == solve(EARLY).value


def test_merge_transpositions_gives_the_dag_of_distinct_positions():
    for pos in FINAL_DEALS[:3] + [EARLY]:
        g = to_networkx(pos, merge_transpositions=True)
        distinct = enumerate_positions(pos)
        assert g.number_of_nodes() == len(distinct) == count_tree(pos)[1]
        assert {d["position"] for _, d in g.nodes(data=True)} == distinct
        assert nx.is_directed_acyclic_graph(g)
        tree = to_networkx(pos)
        assert g.number_of_edges() == sum(1 for _ in g.edges)
        for n, d in g.nodes(data=True):
            assert tree.nodes[n]["value"] == d["value"]      # ids are the first path: in the tree too
    assert any(d > 1 for _, d in to_networkx(EARLY, merge_transpositions=True).in_degree())


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
    g = to_networkx(EARLY, mode="pv", depth=2)
    assert max(d["depth"] for _, d in g.nodes(data=True)) == 2
    assert sum(1 for _, d in g.nodes(data=True) if d["expanded"]) == 2


# -- the search as it ran --------------------------------------------------------------------

@pytest.mark.parametrize("tt_mb", [None, 0, 1])
@pytest.mark.parametrize("search,full_window", [("solve", False), ("solve", True), ("value", False),
                                                ("analyze", False)])
def test_search_node_count_equals_solver(tt_mb, search, full_window):
    for pos in (FINAL_DEALS[0], EARLY):
        g = to_networkx(pos, mode="search", tt_mb=tt_mb, search=search, full_window=full_window)
        want = {"solve": WANT_BEST | WANT_PV, "value": 0, "analyze": WANT_ALL}[search] \
            | (FULL_WINDOW if full_window else 0)
        fresh = _kernel.Searcher(64.0 if tt_mb is None else tt_mb)
        if tt_mb == 0:
            fresh.set_table(False)
        raw = fresh.search(pos.kernel_state(), want)
        nodes = [d for _, d in g.nodes(data=True) if d["kind"] == "node"]
        assert len(nodes) == g.graph["search_nodes"] == raw.nodes
        assert sorted(d["order"] for d in nodes) == list(range(1, raw.nodes + 1))
        assert sum(d["nodes"] for _, d in g.nodes(data=True) if d["kind"] == "pass") == raw.nodes
        assert g.graph["value"] == solve(pos).value
        assert nx.is_tree(g)
        if search == "solve":       # the public solve on a cleared table counts the same nodes
            _clear_solver_tables(tt_mb)
            result = solve(pos, tt_mb=tt_mb, full_window=full_window)
            assert result.nodes == raw.nodes
            assert g.graph["pv"] == " ".join(map(str, result.pv))


def _clear_solver_tables(tt_mb):
    kernel_module.clear_tables()


def test_search_nodes_are_consistent():
    g = to_networkx(EARLY, mode="search", tt_mb=1)
    assert g.graph["cutoffs"] > 0     # (table answers depend on the kernel's table policy)
    assert g.graph["root_side"] == EARLY.to_move and g.nodes["root"]["side"] == EARLY.to_move
    for n, d in g.nodes(data=True):
        if d["kind"] != "node":
            continue
        assert d["side"] == Position.from_string(d["position"]).to_move and "root_team" not in d
        kids = list(g.successors(n))
        assert len(kids) == d["n_searched"] or d["leaf"]
        assert d["subtree_nodes"] == 1 + sum(g.nodes[c]["subtree_nodes"] for c in kids)
        assert d["bound"] == ("exact" if d["leaf"] or d["alpha"] < d["value"] < d["beta"]
                              else "lower" if d["value"] >= d["beta"] else "upper")
        if d["cutoff"]:
            assert d["n_searched"] < d["n_moves"] and d["pruned"]
            pos = Position.from_string(d["position"])
            searched = {g.edges[n, c]["move"] for c in kids}
            assert set(d["pruned"].split()) | searched == {str(m) for m in pos.legal_moves()}
        if d["tt_hit"]:
            assert not kids and d["n_searched"] == 0
        for c in kids:       # children are the parent's position after the edge's move
            parent = Position.from_string(d["position"])
            assert parent.play(g.edges[n, c]["move"]).to_string() == g.nodes[c]["position"]
        if d["leaf"]:     # the end of the round, or its last round (a card a hand) solved by a walk
            end = Position.from_string(d["position"])
            assert end.is_round_over() or (not end.stock and max(bin(h).count("1") for h in end.hands) == 1)


def test_search_depth_limit_and_truncation():
    full = to_networkx(EARLY, mode="search", tt_mb=1)
    g = to_networkx(EARLY, mode="search", tt_mb=1, depth=1)
    shown = [d for _, d in g.nodes(data=True) if d["kind"] == "node"]
    assert all(d["depth"] <= 1 for d in shown) and g.graph["search_nodes"] == full.graph["search_nodes"]
    assert sum(d["nodes"] for _, d in g.nodes(data=True) if d["kind"] == "pass") == g.graph["search_nodes"]
    for n, d in g.nodes(data=True):
        if d["kind"] == "node":       # the same visits as in the whole trace, deeper ones counted
            assert full.nodes[n]["subtree_nodes"] == d["subtree_nodes"]
            assert d["hidden"] == sum(1 for c in full.successors(n)) - sum(1 for c in g.successors(n))
    assert any(d["hidden"] for d in shown)
    with pytest.raises(TreeTooLargeError, match=f"{full.graph['search_nodes']:,} nodes.*max_nodes=50"):
        to_networkx(EARLY, mode="search", tt_mb=1, max_nodes=50)
    t = to_networkx(EARLY, mode="search", tt_mb=1, max_nodes=50, truncate=True)
    assert sum(1 for _, d in t.nodes(data=True) if d["kind"] == "node") == 50
    assert t.graph["truncated"] and any(d.get("truncated") for _, d in t.nodes(data=True))
    for n, d in t.nodes(data=True):       # the first 50 visits, as in the full trace
        if d["kind"] == "node":
            assert d["order"] <= 50 and full.nodes[n]["position"] == d["position"]


def test_search_graph_from_a_fake_trace_in_the_documented_format():
    seven, two = (next(m for m in SMALL.legal_moves() if str(m).startswith(c)) for c in ("7d", "2c"))
    events = [("pass", 0, -1, 0),                      # the brief's 4-field pass event
              ("enter", 0, -1, 0, 0),
              ("enter", 1, 1, 2, seven.packed),
              ("tt", 1, -5, -5),
              ("exit", 1, -5, 2, 0),
              ("exit", 0, 5, 2, 1),
              ("pass", 1, -5, -4, two.packed),          # the kernel's 5-field form: a move test
              ("enter", 1, -5, -4, two.packed),
              ("enter", 2, 4, 5, 0),
              ("leaf", 2, 4),
              ("exit", 2, 4, 0, 0),
              ("exit", 1, 4, 2, 1)]
    g = search_graph(SMALL, events, SimpleNamespace(nodes=4, stop=0, lower=5, upper=5, pv=[seven.packed]))
    assert g.graph["search_nodes"] == 4 and g.graph["passes"] == 2 and g.graph["value"] == 5
    assert g.graph["tt_hits"] == 1 and g.graph["cutoffs"] == 2 and g.graph["leaves"] == 1
    n1, n2 = g.nodes["n1"], g.nodes["n2"]
    assert n1["cutoff"] and n1["pruned"] == "2c" and n1["bound"] == "lower" and n1["subtree_nodes"] == 2
    assert n2["tt_hit"] and (n2["tt_lower"], n2["tt_upper"]) == (-5, -5) and not n2["cutoff"]
    assert n2["bound"] == "upper" and n2["position"] == SMALL.play(seven).to_string()
    assert g.edges["n1", "n2"]["move"] == str(seven) and g.edges["n1", "n2"]["scopa"]
    assert g.nodes["p2"]["pass_kind"] == "best-move test" and g.nodes["p2"]["move"] == "2c"
    assert g.nodes["n3"]["position"] == SMALL.play(two).to_string()
    assert g.edges["p2", "n3"]["move"] == "2c" and g.nodes["n4"]["leaf"]
    assert [d["nodes"] for _, d in g.nodes(data=True) if d["kind"] == "pass"] == [2, 2]


# -- limits and arguments --------------------------------------------------------------------

def test_size_limits_raise_clear_errors_or_truncate():
    size = enumerate_paths(EARLY)
    with pytest.raises(TreeTooLargeError, match=f"has {size:,} nodes .* more than max_nodes=1,000"):
        to_networkx(EARLY, max_nodes=1000)
    with pytest.raises(TreeTooLargeError, match=f"{len(enumerate_positions(EARLY)):,} distinct positions"):
        to_networkx(EARLY, max_nodes=100, merge_transpositions=True)
    with pytest.raises(TreeTooLargeError, match="principal variation"):
        to_networkx(EARLY, mode="pv", max_nodes=5)
    g = to_networkx(EARLY, max_nodes=1000, truncate=True)
    assert 900 < g.number_of_nodes() <= 1000 and g.graph["truncated"]
    full = to_networkx(EARLY)
    for n, d in g.nodes(data=True):
        assert full.nodes[n]["value"] == d["value"]
        assert d["truncated"] == (not d["expanded"] and not d["terminal"])
        if d["expanded"]:
            assert g.out_degree(n) == full.out_degree(n)
    m = to_networkx(EARLY, max_nodes=200, truncate=True, merge_transpositions=True)
    assert m.number_of_nodes() <= 200 and any(d["truncated"] for _, d in m.nodes(data=True))
    p = to_networkx(EARLY, mode="pv", max_nodes=8, truncate=True)
    assert p.number_of_nodes() <= 8 and sum(d["truncated"] for _, d in p.nodes(data=True)) == 1
    # the default bound is 10,000 nodes: a whole round is far beyond, and says so
    with pytest.raises(TreeTooLargeError, match=r"at least [\d,]{11,} nodes, more than max_nodes=10,000"):
        to_networkx(Position.new_round(seed=3))


def test_bad_arguments():
    with pytest.raises(ValueError, match="mode"):
        to_networkx(SMALL, mode="everything")
    with pytest.raises(ValueError, match="depth"):
        to_networkx(SMALL, depth=-1)
    with pytest.raises(ValueError, match="max_nodes"):
        to_networkx(SMALL, max_nodes=0)
    with pytest.raises(ValueError, match="merge_transpositions"):
        to_networkx(SMALL, mode="search", merge_transpositions=True)
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
    g = (to_networkx(pos, merge_transpositions=True) if mode == "merged"
         else to_networkx(pos, mode=mode, tt_mb=1))
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
    g = to_networkx(SMALL if mode != "pv" else EARLY, mode=mode, tt_mb=1)
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
    g = to_networkx(SMALL if mode != "pv" else EARLY, mode=mode, tt_mb=1)
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
        to_networkx(NEW_ROUND, mode=mode, max_nodes=bad)
    text = str(caught.value)
    assert len(text) < 300
    if isinstance(bad, int) and bad > MAX_TREE_NODES:
        assert "at most 10,000,000 nodes" in text
    else:
        assert "positive whole number" in text


def test_other_arguments_are_checked():
    for kwargs in (dict(depth=-1), dict(depth=1.5), dict(depth=True), dict(tt_mb=1e12), dict(tt_mb=-1),
                   dict(threads=-2), dict(mode=["minimax"])):
        with pytest.raises(ScopaError):
            to_networkx(SMALL, **kwargs)
    with pytest.raises(LimitError, match="budget"):
        tree_size(SMALL, budget=10 ** 12)
    with pytest.raises(LimitError, match="max_lines"):
        tree_text(to_networkx(SMALL), max_lines=0)
    # a depth past any round is the whole round
    assert to_networkx(SMALL, depth=10 ** 30).number_of_nodes() == enumerate_paths(SMALL)


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
            to_networkx(NEW_ROUND, **kwargs)
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
        to_networkx(EARLY, merge_transpositions=True, max_nodes=distinct - 1)
    assert size_module.check_size(EARLY, None, distinct, merge=True) == distinct
    assert to_networkx(EARLY, merge_transpositions=True, max_nodes=distinct).number_of_nodes() == distinct
    assert size_module.check_size(EARLY, None, nodes) is None       # not known: the build checks
    with pytest.raises(TreeTooLargeError, match=f"more than max_nodes={nodes - 1:,} nodes"):
        to_networkx(EARLY, max_nodes=nodes - 1)
    assert to_networkx(EARLY, max_nodes=nodes).number_of_nodes() == nodes


def test_the_search_is_sized_before_it_is_traced(monkeypatch):
    want = WANT_BEST | WANT_PV
    nodes = trace_module.search_size(EARLY, want, 1)
    events, raw = trace_module.trace_search(EARLY, want, 1)
    assert raw.nodes == nodes and len(events) <= trace_module.EVENTS_PER_NODE * nodes + 64
    g = trace_module.search_tree(EARLY, tt_mb=1)
    assert g.graph["search_nodes"] == nodes == sum(1 for _, d in g.nodes(data=True) if d["kind"] == "node")
    monkeypatch.setattr(trace_module, "TRACE_NODE_CAP", nodes - 1)
    assert trace_module.search_size(EARLY, want, 1) is None
    for kwargs in (dict(depth=1), dict(truncate=True)):
        with pytest.raises(TreeTooLargeError, match="too many to trace"):
            to_networkx(EARLY, mode="search", tt_mb=1, **kwargs)
    with pytest.raises(TreeTooLargeError, match=f"more than {nodes - 1:,} nodes, more than max_nodes=10,000"):
        to_networkx(EARLY, mode="search", tt_mb=1)


def test_progress_bars_on_request(capsys):
    pytest.importorskip("tqdm")
    to_networkx(EARLY, progress=True)
    assert "minimax tree" in capsys.readouterr().err
    to_networkx(EARLY, mode="search", tt_mb=1, progress=True)
    assert "search graph" in capsys.readouterr().err
    to_networkx(EARLY, progress=False)
    to_networkx(EARLY, mode="search", tt_mb=1, progress=False)
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
    s = trace_module.search_tree(SMALL, tt_mb=1)
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
                 "search_graph", "TreeTooLargeError", "ROOT", "MODES"):
        assert name in tree.__all__ and getattr(tree, name) is not None
    assert scopa_solver.write_tree is io_module.write_tree and scopa_solver.read_tree is io_module.read_tree
    assert scopa_solver.TreeTooLargeError is tree.TreeTooLargeError is build_module.TreeTooLargeError
    assert scopa_solver.to_networkx is build_module.to_networkx
    code = ("import sys, scopa_solver; heavy = [m for m in ('networkx', 'scopa_solver.tree') if m in sys.modules]; "
            "import scopa_solver.tree; print(heavy, 'networkx' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=os.path.dirname(os.path.dirname(scopa_solver.__file__)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "True"]
