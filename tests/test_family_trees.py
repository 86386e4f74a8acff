"""Trees of the family games: three and more sides (paranoid from the root's side, and max^n),
four players, merged and pv trees, the files, and the attribute sets of docs/trees.md.

Every node's value is checked against the solver (solve / analyze at the node) and against a
plain recursive minimax over `Position.play` and `round_score` written here."""
from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from scopa_solver import Position, Rules, ScopaError, analyze, solve
from scopa_solver.tree import read_tree, to_networkx, tree_size, tree_text, write_tree

from helpers import late

render_module = importlib.import_module("scopa_solver.tree.render")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "trees.md"


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
    g = to_networkx(pos, max_nodes=50_000)
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
    g = to_networkx(pos, objective="maxn", max_nodes=50_000)
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
    full = to_networkx(pos, objective=objective, max_nodes=200_000) if tree_size(pos).nodes < 200_000 else None
    if full is not None:        # the pv tree is a part of the minimax tree, with its values
        for n, d in g.nodes(data=True):
            assert d["value"] == full.nodes[n]["value"]


def test_merged_tree_is_one_node_per_position_with_the_same_values():
    pos = late(Rules(players=3), 5, 7)
    tree = to_networkx(pos)
    merged = to_networkx(pos, merge_transpositions=True)
    assert merged.number_of_nodes() == tree_size(pos).distinct < tree.number_of_nodes()
    values = {d["position"]: d["value"] for _, d in tree.nodes(data=True)}
    assert all(values[d["position"]] == d["value"] for _, d in merged.nodes(data=True))
    assert len({d["position"] for _, d in merged.nodes(data=True)}) == merged.number_of_nodes()


def test_depth_and_truncation_keep_the_exact_values():
    pos = late(Rules(players=4, partnerships=False), 2, 7)
    full = to_networkx(pos, max_nodes=50_000)
    shallow = to_networkx(pos, depth=2)
    assert all(d["value"] == full.nodes[n]["value"] for n, d in shallow.nodes(data=True))
    cut = to_networkx(pos, max_nodes=20, truncate=True, objective="maxn")
    assert cut.graph["truncated"] and cut.number_of_nodes() <= 20
    assert any(d["truncated"] for _, d in cut.nodes(data=True))


def test_two_sided_family_trees_keep_the_two_player_attributes():
    pos = late(Rules(players=4), 6, 6)
    g = to_networkx(pos, depth=2)
    assert "value_p0" in g.graph and all("value_p0" in d for _, d in g.nodes(data=True))
    assert g.graph["sides"] == 2 and g.graph["objective"] == "value"
    maxn = to_networkx(pos, depth=2, objective="maxn")
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
    text = tree_text(to_networkx(pos, objective="maxn", depth=2))
    assert "max^n points per side" in text.splitlines()[0]
    assert re.search(r"\d+/\d+/\d+", text.splitlines()[1])
    assert "paranoid value for side" in tree_text(to_networkx(pos, depth=1)).splitlines()[0]


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
    g = to_networkx(pos, objective="maxn", depth=2)
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
    g = to_networkx(pos, depth=1)
    assert all(sorted(Position.from_string(d["position"]).hand_sizes()) == [3, 3, 3, 3]
               for n, d in g.nodes(data=True) if n != "/")
    assert not any(d["dealt"] for _, d in g.nodes(data=True))
    assert "new deal" not in render_module.to_dot(g)


def test_the_picture_marks_the_deal_from_the_stock():
    pos = late(Rules(players=3), 4, 12)           # the last cards of a deal before the stock's next one
    g = to_networkx(pos, depth=sum(pos.hand_sizes()), mode="pv")
    dealt = [n for n, d in g.nodes(data=True) if d["dealt"]]
    stock = {n: d["stock"] for n, d in g.nodes(data=True)}
    assert dealt and all(stock[n] < stock[next(iter(g.predecessors(n)))] for n in dealt)
    assert all(stock[n] == stock[next(iter(g.predecessors(n)))] for n in g if n != "/" and n not in dealt)
    assert render_module.to_dot(g).count("new deal") == len(dealt)
