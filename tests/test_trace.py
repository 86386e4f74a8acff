"""The search as it ran (`to_networkx(mode="search")`, ext/family_trace.pxi), on every game: two
players, two sides (partnerships, scientifico) and three (paranoid). The traced graph has exactly
the nodes the untraced search counts (with the table at its default size, at 1 MiB and off), the
value `solve` gives, every node a legal successor of its parent, and every node's value and bound
agreeing with the exact (minimax) value of its position; tracing changes nothing in the search;
depth and size limits; a fake trace in the documented event format; the search is sized before
it is traced. (The minimax and pv trees, the files and the pictures: test_tree.py.)"""
from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
import pytest

from scopa_solver import Limit, Position, ScopaError, TreeOptions, TreeTooLargeError, solve, to_networkx
from scopa_solver import _kernel
from scopa_solver import kernel as kernel_module
from scopa_solver.cli import main
from scopa_solver.kernel import FULL_WINDOW, WANT_ALL, WANT_BEST, WANT_PV
from scopa_solver.tree import search_graph
from scopa_solver.tree import trace as trace_module

from helpers import EARLY, SMALL, games, late, random_positions

GAMES = games("scopa", "4 players", "scientifico", "3 players")
WANTS = {"solve": WANT_BEST | WANT_PV, "value": 0, "analyze": WANT_ALL}
# two players, the last deal with three cards a hand (the first of test_tree.py's FINAL_DEALS)
FINAL_DEAL = next(random_positions(1, seed=2024, deals_left=0, cards_in_hands=6))


def search_nodes(g: nx.DiGraph) -> list[tuple[str, dict]]:
    return [(n, d) for n, d in g.nodes(data=True) if d["kind"] == "node"]


def traced_positions(game: str) -> list[Position]:
    """Two positions of each game: two-player Scopa's last deal and one with a deal in the stock,
    the others' late positions."""
    if game == "scopa":
        return [FINAL_DEAL, EARLY]
    return [late(GAMES[game], seed, 12 if game != "3 players" else 10) for seed in (1, 2)]


@pytest.mark.parametrize("game,tt_mb", [("scopa", None), ("scopa", 0), ("scopa", 1), ("4 players", 1),
                                        ("scientifico", 1), ("3 players", 1)])
@pytest.mark.parametrize("search,full_window", [("solve", False), ("solve", True), ("value", False),
                                                ("analyze", False)])
def test_traced_nodes_are_the_searchs_nodes(game, tt_mb, search, full_window):
    for pos in traced_positions(game):
        g = to_networkx(pos, Limit(tt_mb=tt_mb), TreeOptions(max_nodes=100_000), mode="search", search=search,
                        full_window=full_window)
        want = WANTS[search] | (FULL_WINDOW if full_window else 0)
        fresh = _kernel.Searcher(64.0 if tt_mb is None else tt_mb)
        if tt_mb == 0:
            fresh.set_table(False)
        raw = fresh.search(pos.kernel_state(), want)
        nodes = search_nodes(g)
        assert len(nodes) == g.graph["search_nodes"] == g.graph["traced_nodes"] == raw.nodes
        assert sorted(d["order"] for _, d in nodes) == list(range(1, raw.nodes + 1))
        assert sum(d["nodes"] for _, d in g.nodes(data=True) if d["kind"] == "pass") == raw.nodes
        assert g.graph["value"] == solve(pos).value == raw.lower == raw.upper
        assert nx.is_tree(g) and g.graph["complete"]
        rules = pos.rules
        assert g.graph["players"] == rules.players and g.graph["sides"] == rules.side_count
        assert g.graph["root_side"] == rules.sides[pos.to_move] and g.graph["objective"] == "value"
        assert ("value_p0" in g.graph) == (rules.side_count == 2)
        if search == "solve":       # the public solve on cleared tables counts the same nodes
            kernel_module.clear_tables()
            result = solve(pos, Limit(tt_mb=tt_mb), full_window=full_window)
            assert result.nodes == raw.nodes
            assert g.graph["pv"] == " ".join(map(str, result.pv))


@pytest.mark.parametrize("game", GAMES)
def test_tracing_changes_nothing_in_the_search(game):
    """The same searcher traced and untraced, in turns: the same values, nodes, moves and pv."""
    searcher = _kernel.Searcher(1.0)
    for seed in range(3):
        state = late(GAMES[game], seed, 12).kernel_state()
        for want in (0, WANT_BEST | WANT_PV, WANT_ALL, WANT_BEST | FULL_WINDOW):
            searcher.clear()
            plain = searcher.search(state, want)
            searcher.clear()
            events, traced = searcher.trace(state, want, 10 ** 6)
            assert (traced.lower, traced.upper, traced.nodes, traced.pv, traced.best, traced.move_bounds,
                    traced.points, traced.end) == (plain.lower, plain.upper, plain.nodes, plain.pv,
                                                   plain.best, plain.move_bounds, plain.points, plain.end)
            assert sum(1 for e in events if e[0] == "enter") == plain.nodes
            assert sum(1 for e in events if e[0] == "exit") == plain.nodes
    with pytest.raises(ValueError, match="more than 5 trace events"):
        searcher.trace(late(GAMES[game], 0, 12).kernel_state(), 0, 5)


def _offset(pos: Position) -> int:
    """Two sides: the scopas already made, the mover's side minus the other (the kernel's values
    are the points still to come)."""
    sides = pos.rules.sides
    return sum(s if sides[p] == sides[pos.to_move] else -s for p, s in enumerate(pos.scopas))


# each game late in the round, and two-player Scopa with a deal in the stock
CONSISTENT = [(game, "late") for game in GAMES] + [("scopa", "early")]


@pytest.mark.parametrize("game,where", CONSISTENT)
def test_every_traced_node_is_consistent(game, where):
    pos = EARLY if where == "early" else late(GAMES[game], 3, 8)
    g = to_networkx(pos, Limit(tt_mb=1), TreeOptions(max_nodes=100_000), mode="search")
    exact = {d["position"]: d["value"] for _, d in to_networkx(pos, options=TreeOptions(max_nodes=100_000)).nodes(data=True)}
    rules, paranoid = pos.rules, pos.rules.side_count > 2
    root_side = rules.sides[pos.to_move]
    assert g.graph["cutoffs"] > 0     # (table answers depend on the kernel's table policy)
    assert g.graph["root_side"] == root_side and g.nodes["root"]["side"] == root_side
    assert g.graph["bounds_cuts"] == sum(d["bounds_cut"] for _, d in search_nodes(g))
    for n, d in search_nodes(g):
        here = Position.from_string(d["position"])
        kids = list(g.successors(n))
        assert d["side"] == rules.sides[here.to_move] and d["to_move"] == here.to_move
        assert ("root_team" in d) == paranoid
        assert len(kids) == d["n_searched"] or d["leaf"]
        assert d["n_moves"] == len(here.legal_moves())
        assert d["subtree_nodes"] == 1 + sum(g.nodes[c]["subtree_nodes"] for c in kids)
        assert d["bound"] == ("exact" if d["leaf"] or d["alpha"] < d["value"] < d["beta"]
                              else "lower" if d["value"] >= d["beta"] else "upper")
        if d["cutoff"]:
            assert d["n_searched"] < d["n_moves"] and d["pruned"]
            searched = {g.edges[n, c]["move"] for c in kids}
            assert set(d["pruned"].split()) | searched == {str(m) for m in here.legal_moves()}
        if d["tt_hit"]:
            assert not kids and d["n_searched"] == 0
        if d["bounds_cut"]:         # answered by the bounds alone: no move searched
            assert d["cutoff"] and not kids and not d["tt_hit"] and not d["leaf"] and d["n_moves"] > 0
        for c in kids:              # a legal successor of its parent, by the edge's move
            move = g.edges[n, c]["move"]
            assert move in {str(m) for m in here.legal_moves()}
            assert here.play(move).to_string() == g.nodes[c]["position"]
        if d["leaf"]:               # the end of the round, or the last round scored without children
            assert here.is_round_over() or (not here.stock and max(here.hand_sizes()) == 1)
        # the value against the exact one, in the mover's team's view: two sides the margin less
        # the scopas made; three or more the root side's paranoid value, negated for its opponents
        if paranoid:
            sign = 1 if d["root_team"] else -1
            assert d["root_team"] == (rules.sides[here.to_move] == root_side)
            true = sign * exact[d["position"]]
        else:
            true = exact[d["position"]] - _offset(here)
        if d["bound"] == "exact":
            assert d["value"] == true
        elif d["bound"] == "lower":
            assert true >= d["value"]
        else:
            assert true <= d["value"]


@pytest.mark.parametrize("game,depth", [("scopa", 1), ("4 players", 2)])
def test_search_depth_limit_and_truncation(game, depth):
    pos = EARLY if game == "scopa" else late(GAMES[game], 2, 12)
    full = to_networkx(pos, Limit(tt_mb=1), TreeOptions(max_nodes=100_000), mode="search")
    g = to_networkx(pos, Limit(tt_mb=1), TreeOptions(depth=depth), mode="search")
    shown = [d for _, d in search_nodes(g)]
    assert shown and all(d["depth"] <= depth for d in shown)
    assert g.graph["search_nodes"] == full.graph["search_nodes"]
    assert sum(d["nodes"] for _, d in g.nodes(data=True) if d["kind"] == "pass") == g.graph["search_nodes"]
    for n, d in search_nodes(g):       # the same visits as in the whole trace, deeper ones counted
        assert full.nodes[n]["subtree_nodes"] == d["subtree_nodes"]
        assert d["hidden"] == sum(1 for c in full.successors(n)) - sum(1 for c in g.successors(n))
    assert any(d["hidden"] for d in shown)
    with pytest.raises(TreeTooLargeError, match=f"{full.graph['search_nodes']:,} nodes.*max_nodes=50"):
        to_networkx(pos, Limit(tt_mb=1), TreeOptions(max_nodes=50), mode="search")
    t = to_networkx(pos, Limit(tt_mb=1), TreeOptions(max_nodes=50, truncate=True), mode="search")
    assert len(search_nodes(t)) == 50
    assert t.graph["truncated"] and any(d.get("truncated") for _, d in t.nodes(data=True))
    for n, d in search_nodes(t):       # the first 50 visits, as in the full trace
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
    g = search_graph(SMALL, events, SimpleNamespace(nodes=4, stop=kernel_module.StopReason.NONE, lower=5, upper=5, pv=[seven.packed]))
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


def test_the_search_is_sized_before_it_is_traced(monkeypatch):
    want = WANT_BEST | WANT_PV
    nodes = trace_module.search_size(EARLY, want, 1)
    events, raw = trace_module.trace_search(EARLY, want, 1)
    assert raw.nodes == nodes and len(events) <= trace_module.EVENTS_PER_NODE * nodes + 64
    g = trace_module.search_tree(EARLY, Limit(tt_mb=1))
    assert g.graph["search_nodes"] == nodes == sum(1 for _, d in g.nodes(data=True) if d["kind"] == "node")
    monkeypatch.setattr(trace_module, "TRACE_NODE_CAP", nodes - 1)
    assert trace_module.search_size(EARLY, want, 1) is None
    for kwargs in (dict(depth=1), dict(truncate=True)):
        with pytest.raises(TreeTooLargeError, match="too many to trace"):
            to_networkx(EARLY, Limit(tt_mb=1), TreeOptions(**kwargs), mode="search")
    with pytest.raises(TreeTooLargeError, match=f"more than {nodes - 1:,} nodes, more than max_nodes=10,000"):
        to_networkx(EARLY, Limit(tt_mb=1), mode="search")


def test_max_n_is_refused_and_the_cli_draws_a_paranoid_search(capsys, tmp_path):
    pos = late(GAMES["3 players"], 1, 6)
    with pytest.raises(ScopaError, match="not objective='maxn'"):
        to_networkx(pos, mode="search", objective="maxn")
    line = late(GAMES["4 players"], 1, 8).to_string()
    assert main(["tree", line, "--mode", "search", "--tt-mb", "1"]) == 0
    assert "pass" in capsys.readouterr().out
    out = tmp_path / "search.graphml"
    assert main(["tree", pos.to_string(), "--mode", "search", "-o", str(out)]) == 0
    assert out.exists() and "root_team" in out.read_text()


def test_the_documented_three_player_search():
    """docs/trees.md's example."""
    three = Position.from_string("7d2c/3c4c/RbAs 4s3s -/-/- - 0/0/0 0 2 - players=3")
    s = to_networkx(three, mode="search")
    assert (s.graph["value"], s.graph["search_nodes"], s.graph["passes"]) == (2, 13, 4)
    assert (s.nodes["n1"]["root_team"], s.nodes["n1"]["value"], s.nodes["n1"]["bound"]) == (False, -2, "exact")
    assert s.graph["value"] == solve(three).value
