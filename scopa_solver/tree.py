"""Game trees for inspection: the minimax tree, the principal variation with its alternatives,
and the tree the search really explored, as networkx graphs; writers and pictures.

>>> from scopa_solver import Position
>>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
>>> g = to_networkx(pos)
>>> g.number_of_nodes(), g.graph["value"], g.nodes["/"]["value"]
(15, 5, 5)
>>> [(e["move"], e["value"], e["optimal"]) for _, _, e in g.out_edges("/", data=True)]
[('7dx3s+4s', 5, True), ('2c', -4, False)]
>>> g.nodes["/7dx3s+4s"]["value"], g.nodes["/7dx3s+4s"]["to_move"], g.nodes["/7dx3s+4s"]["pv"]
(-5, 1, True)

Node ids are the moves from the root, ``/`` then each move followed by ``/`` between them
(``/7dx3s+4s/3b``): stable for a position whatever the depth, size limit or mode. With
``merge_transpositions=True`` a position reached along several paths is one node, whose id is
the first of those paths (breadth first, best moves first).

Values: ``value`` is the exact round margin for the side to move at the node (its final round
points minus the opponent's, scopas already made included, both sides playing perfectly), the
same number `solve` gives; ``value_p0`` is the same margin seen by player 0. An edge's ``value``
is the move's exact value for the player making it (`analyze`), so the child's ``value`` is
its negation (the players alternate).
"""
from __future__ import annotations

import json
import os
from typing import Any, Optional, Sequence

import networkx as nx

from . import _kernel
from .cards import cards_text
from .errors import ScopaError
from .position import Move, Position, RoundScore
from .solver import (DEFAULT_TT_MB, _FULL_WINDOW, _WANT_ALL, _WANT_BEST, _WANT_PV,
                     analyze_many, solve)

MODES = ("minimax", "pv", "search")
SEARCHES = {"solve": _WANT_BEST | _WANT_PV, "value": 0, "analyze": _WANT_ALL}
ROOT = "/"
DATA_FORMATS = {".graphml": "GraphML", ".gexf": "GEXF", ".json": "node-link JSON", ".dot": "Graphviz DOT"}
PICTURE_FORMATS = (".svg", ".png", ".pdf")


class TreeTooLargeError(ScopaError):
    """The tree asked for has more nodes than `max_nodes` allows."""


# -- small helpers ----------------------------------------------------------------------------

def _step(pos: Position, move: Move) -> tuple[Position, bool]:
    """The position after a legal `move` and whether it scored a scopa (one kernel call)."""
    after, scopa = _kernel.play(pos._kernel_tuple(), move.packed)[:2]
    return Position._from_kernel(after, pos.stock, pos.rules), bool(scopa)


def _child_id(parent_id: str, move: Move) -> str:
    return f"{parent_id}{move}" if parent_id == ROOT else f"{parent_id}/{move}"


def _score_attributes(score: RoundScore, rules) -> dict:
    """The round score breakdown as flat attributes (winners: 0, 1, or -1 for nobody)."""
    a, b = score.players

    def who(w: Optional[int]) -> int:
        return -1 if w is None else w

    out = dict(points_p0=a.points, points_p1=b.points, cards_p0=a.cards, cards_p1=b.cards,
               coins_p0=a.coins, coins_p1=b.coins,
               primiera_p0=-1 if a.primiera is None else a.primiera,
               primiera_p1=-1 if b.primiera is None else b.primiera,
               scopas_p0=a.scopas, scopas_p1=b.scopas,
               carte=who(score.carte), denari=who(score.denari), settebello=who(score.settebello),
               primiera=who(score.primiera))
    if rules.re_bello:
        out["re_bello"] = who(score.re_bello)
    if rules.napola:
        out.update(napola_p0=a.napola, napola_p1=b.napola)
    parts = [f"carte {_w(score.carte)}", f"denari {_w(score.denari)}",
             f"settebello {_w(score.settebello)}", f"primiera {_w(score.primiera)}"]
    if rules.re_bello:
        parts.append(f"re bello {_w(score.re_bello)}")
    if a.napola or b.napola:
        parts.append(f"napola {a.napola}-{b.napola}")
    parts.append(f"scopas {a.scopas}-{b.scopas}")
    out["score"] = f"{a.points}-{b.points} ({', '.join(parts)})"
    return out


def _w(winner: Optional[int]) -> str:
    return "-" if winner is None else f"P{winner}"


def _node_attributes(pos: Position, depth: int, value: int, kind: str = "position") -> dict:
    terminal = pos.is_round_over()
    attrs = dict(kind=kind, position=pos.to_string(), to_move=pos.to_move, depth=depth,
                 value=value, value_p0=value if pos.to_move == 0 else -value,
                 terminal=terminal, pv=False, expanded=False, truncated=False,
                 table=cards_text(pos.table), hand0=cards_text(pos.hands[0]),
                 hand1=cards_text(pos.hands[1]), stock=len(pos.stock),
                 scopas0=pos.scopas[0], scopas1=pos.scopas[1])
    if terminal:
        attrs.update(_score_attributes(pos.round_score(), pos.rules))
    return attrs


def _edge_attributes(pos: Position, move: Move, scopa: bool, value: int, optimal: bool) -> dict:
    return dict(move=str(move), card=str(move.card),
                captures="+".join(str(c) for c in sorted(move.captures)),
                player=pos.to_move, scopa=scopa, value=value, optimal=optimal, pv=False)


def _check_args(position: Position, depth: Optional[int], max_nodes: int) -> None:
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 0):
        raise ValueError(f"depth must be a whole number of plies, 0 or more, not {depth!r}")
    if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive whole number, not {max_nodes!r}")


def count_tree(position: Position, depth: Optional[int] = None, *,
               budget: int = 50_000) -> tuple[Optional[int], Optional[int]]:
    """(nodes of the game tree, distinct positions in it) to the end of the round or `depth`
    plies; (None, None) when more than `budget` distinct positions would have to be visited.

    Counts through the transpositions, so trees far larger than could be built are counted."""
    limit = 1 << 30 if depth is None else depth
    memo: dict = {}
    seen: set = set()

    def count(t: tuple, left: int) -> int:
        key = (t, left)
        if key in memo:
            return memo[key]
        if len(memo) >= budget:
            raise _OverBudget
        seen.add(t)
        total = 1
        if left > 0:
            for m in _kernel.legal_moves(t):
                total += count(_kernel.play(t, m)[0], left - 1)
        memo[key] = total
        return total

    try:
        n = count(position._kernel_tuple(), limit)
    except _OverBudget:
        return None, None
    return n, len(seen)


class _OverBudget(Exception):
    pass


COUNT_BUDGET = 50_000    # distinct positions `count_tree` visits at most to name a tree's size


def _too_large(position: Position, depth: Optional[int], max_nodes: int, merge: bool, mode: str,
               counts: Optional[tuple] = None) -> TreeTooLargeError:
    reach = "to the end of the round" if depth is None else f"to depth {depth}"
    if mode == "pv":
        return TreeTooLargeError(
            f"the principal variation {reach} with every alternative has more than "
            f"max_nodes={max_nodes:,} nodes: give a smaller depth, a larger max_nodes or truncate=True")
    nodes, distinct = counts if counts is not None else count_tree(position, depth, budget=COUNT_BUDGET)
    if nodes is None:
        size = f"far more than {max_nodes:,} nodes (over {COUNT_BUDGET:,} distinct positions)"
    elif merge:
        size = f"{distinct:,} distinct positions ({nodes:,} nodes as a tree)"
    else:
        size = f"{nodes:,} nodes ({distinct:,} distinct positions)"
    return TreeTooLargeError(
        f"the minimax tree {reach} has {size}, more than max_nodes={max_nodes:,}: give a smaller "
        "depth, a larger max_nodes, truncate=True (keeps the first max_nodes nodes, breadth "
        "first), or mode='pv' for the principal variation with its alternatives")


def _check_size(position: Position, depth: Optional[int], max_nodes: int, merge: bool) -> None:
    """Fail before any search when the minimax tree is known to be too large (counting is cheap)."""
    counts = count_tree(position, depth, budget=COUNT_BUDGET)
    nodes, distinct = counts
    if nodes is None:
        if max_nodes < COUNT_BUDGET:
            raise _too_large(position, depth, max_nodes, merge, "minimax", counts)
    elif (distinct if merge else nodes) > max_nodes:
        raise _too_large(position, depth, max_nodes, merge, "minimax", counts)


# -- minimax and pv ---------------------------------------------------------------------------

def _new_graph(position: Position, mode: str, depth: Optional[int], merge: bool) -> nx.DiGraph:
    g = nx.DiGraph()
    g.graph.update(tree_mode=mode, root=ROOT, position=position.to_string(), to_move=position.to_move,
                   depth=-1 if depth is None else depth, merge_transpositions=merge, truncated=False)
    return g


def _finish(g: nx.DiGraph, pv: Sequence[Move]) -> nx.DiGraph:
    """Mark the principal variation (the one `solve` gives) as far as the graph goes and fill
    in the graph-level summary."""
    root = g.nodes[ROOT]
    g.graph.update(value=root["value"], value_p0=root["value_p0"], pv=" ".join(map(str, pv)))
    node = ROOT
    root["pv"] = True
    for move in pv:
        text = str(move)
        nxt = next((c for c in g.successors(node) if g.edges[node, c]["move"] == text), None)
        if nxt is None:
            break
        g.edges[node, nxt]["pv"] = True
        g.nodes[nxt]["pv"] = True
        node = nxt
    g.graph["nodes"] = g.number_of_nodes()
    return g


def _minimax(position: Position, depth: Optional[int], max_nodes: int, truncate: bool,
             merge: bool, tt_mb: Optional[float], threads: Optional[int], mode: str) -> nx.DiGraph:
    """Breadth first, one batch of `analyze` per level: a node's analysis gives every child's
    exact value (the child's value is minus the move's value: the players alternate)."""
    if mode == "minimax" and not truncate:
        _check_size(position, depth, max_nodes, merge)
    g = _new_graph(position, mode, depth, merge)
    limit = 1 << 30 if depth is None else depth
    positions = {ROOT: position}
    where: dict[tuple, str] = {position._kernel_tuple(): ROOT}
    solved = solve(position, tt_mb=tt_mb)
    g.add_node(ROOT, **_node_attributes(position, 0, solved.value))
    pv = solved.pv
    level, d, cut = [ROOT], 0, None
    while level and d < limit and cut is None:
        todo = [n for n in level if not g.nodes[n]["terminal"]]
        if not todo:
            break
        sizes = [len(positions[n].legal_moves()) for n in todo]   # merged: at most this many new
        room = max_nodes - g.number_of_nodes()
        fits = 0
        while fits < len(todo) and sum(sizes[:fits + 1]) <= room:
            fits += 1
        if fits < len(todo) and not truncate and not merge:
            raise _too_large(position, depth, max_nodes, merge, mode)
        batch = analyze_many([positions[n] for n in todo[:fits]], tt_mb=tt_mb, threads=threads)
        next_level = []
        for i, n in enumerate(todo):
            pos = positions[n]
            rows = batch[i] if i < fits else analyze_many([pos], tt_mb=tt_mb)[0]
            node_value = g.nodes[n]["value"]
            new = []
            for row in rows:
                child, scopa = _step(pos, row.move)
                key = child._kernel_tuple()
                new.append((row, child, scopa, key, where.get(key) if merge else None))
            added = len({key for *_, key, cid in new if cid is None}) if merge else len(new)
            if g.number_of_nodes() + added > max_nodes:
                if not truncate:
                    raise _too_large(position, depth, max_nodes, merge, mode)
                cut = todo[i:]
                break
            g.nodes[n]["expanded"] = True
            for row, child, scopa, key, cid in new:
                if cid is None and merge:       # two moves of this node may reach one position
                    cid = where.get(key)
                if cid is None:
                    cid = _child_id(n, row.move)
                    positions[cid] = child
                    if merge:
                        where[key] = cid
                    g.add_node(cid, **_node_attributes(child, d + 1, -row.value))
                    next_level.append(cid)
                g.add_edge(n, cid, **_edge_attributes(pos, row.move, scopa, row.value,
                                                      row.value == node_value))
            if mode == "pv":      # continue along the principal variation only
                next_level = [c for c in g.successors(n)
                              if d < len(pv) and g.edges[n, c]["move"] == str(pv[d])]
                break
        level = next_level
        d += 1
    if cut is not None:
        g.graph["truncated"] = True
        frontier = cut[:1] if mode == "pv" else [
            n for n, data in g.nodes(data=True)
            if not data["expanded"] and not data["terminal"] and data["depth"] < limit]
        for n in frontier:
            g.nodes[n]["truncated"] = True
    return _finish(g, pv)


# -- the search as it ran ---------------------------------------------------------------------

TRACE_EVENT_CAP = 2_000_000     # events kept in memory at most (about 500,000 searched nodes)


def _fresh_searcher(tt_mb: Optional[float]) -> "_kernel.Searcher":
    size = DEFAULT_TT_MB if tt_mb is None else float(tt_mb)
    if size < 0:
        raise ValueError(f"tt_mb must be 0 (no table) or more, not {tt_mb!r}")
    searcher = _kernel.Searcher(size)
    if size == 0:
        searcher.set_table(False)
    return searcher


def _trace(position: Position, want: int, tt_mb: Optional[float], max_events: int) -> tuple[list, Any]:
    """The kernel's trace of one search with a fresh table (so the node count is reproducible);
    ValueError when it needs more than `max_events` events."""
    if not hasattr(_kernel.Searcher, "trace"):
        raise NotImplementedError(
            "this build of the kernel cannot trace a search (Searcher.trace is missing): "
            "rebuild scopa_solver._kernel from the current sources")
    return _fresh_searcher(tt_mb).trace(position._kernel_tuple(), want, max_events)


def _bound_kind(value: int, alpha: int, beta: int) -> str:
    if value >= beta:
        return "lower"      # failed high: the true value is at least this
    if value <= alpha:
        return "upper"      # failed low: at most this
    return "exact"


def search_graph(position: Position, events: Sequence[tuple], raw: Any, *,
                 depth: Optional[int] = None, max_nodes: int = 10_000, truncate: bool = False,
                 search: str = "solve", full_window: bool = False) -> nx.DiGraph:
    """The graph of a search from its trace (`events` and `raw` as `Searcher.trace` returns them).

    Nodes: the root (kind "root", the position searched), one node per root-level search (kind
    "pass", ids ``p1``, ``p2``, ... in order) and one per node the search visited (kind "node",
    id ``n<order>``, `order` counting visits from 1 as the solver counts nodes). Nodes deeper than
    `depth` are left out (their parent's `hidden` counts them). `to_networkx(mode="search")`
    runs the traced search and calls this."""
    pv_moves = [Move.from_packed(m) for m in raw.pv]
    bases = [position]                      # the principal variation's positions, by depth
    for m in pv_moves:
        bases.append(_step(bases[-1], m)[0])
    root_moves = len(position.legal_moves())
    want_best = search == "solve"
    complete = raw.stop == 0
    g = nx.DiGraph()
    g.graph.update(tree_mode="search", root="root", position=position.to_string(),
                   to_move=position.to_move, depth=-1 if depth is None else depth,
                   merge_transpositions=False, truncated=False, search=search,
                   full_window=full_window, search_nodes=raw.nodes, complete=complete)
    lower, upper = raw.lower, raw.upper
    if complete and lower is not None and lower == upper:
        g.graph.update(value=int(lower), value_p0=int(lower) if position.to_move == 0 else -int(lower))
    if pv_moves:
        g.graph["pv"] = " ".join(map(str, pv_moves))
    g.add_node("root", kind="root", position=position.to_string(), to_move=position.to_move,
               depth=0, terminal=position.is_round_over(), truncated=False)

    stack: list[dict] = []          # the open visited nodes, innermost last
    pas: Optional[dict] = None      # the current pass
    order = shown = passes = tests = 0
    full = False
    counts = dict(tt_hits=0, cutoffs=0, leaves=0)

    def start_pass(ply: int, alpha: int, beta: int, packed: int) -> dict:
        nonlocal passes, tests
        passes += 1
        move = Move.from_packed(packed) if packed else None
        if move is None:
            base = bases[ply] if ply < len(bases) else None
            kind = "zero window" if beta - alpha == 1 else "full window"
            start = base
        else:
            base = bases[ply - 1] if 0 < ply <= len(bases) else None
            if search == "analyze":
                kind = "move value"
            elif want_best and ply == 1 and tests < root_moves:
                tests += 1
                kind = "best-move test"
            else:
                kind = f"pv step {ply}"
            try:
                start = _step(base, move)[0] if base is not None else None
            except Exception:       # a move this code cannot place: keep the pass, unplaced
                start = None
        p = dict(id=f"p{passes}", ply=ply, alpha=alpha, beta=beta, move=move, base=base, start=start,
                 kind=kind, fresh=True)
        if not full:
            attrs = dict(kind="pass", index=passes, pass_kind=kind, depth=ply, alpha=alpha, beta=beta,
                         move=str(move) if move else "", position=base.to_string() if base else "",
                         nodes=0, truncated=False)
            g.add_node(p["id"], **attrs)
            g.add_edge("root", p["id"], kind="pass", order=passes)
        return p

    for ev in events:
        tag = ev[0]
        if tag == "pass":
            ply, alpha, beta = ev[1], ev[2], ev[3]
            pas = start_pass(ply, alpha, beta, ev[4] if len(ev) > 4 else 0)
            stack.clear()
        elif tag == "enter":
            _, ply, alpha, beta, packed = ev
            order += 1
            if pas is None:         # a trace without pass events: one implicit pass
                pas = start_pass(ply, alpha, beta, 0)
            if pas["fresh"]:        # the pass's own root
                pas["fresh"] = False
                parent, parent_pos, pos, move, scopa = pas["id"], pas["base"], pas["start"], pas["move"], False
                if move is not None and parent_pos is not None and pos is not None:
                    scopa = _step(parent_pos, move)[1]
            else:
                top = stack[-1] if stack else None
                parent = top["id"] if top else None
                parent_pos = top["pos"] if top else None
                move = Move.from_packed(packed) if packed else None
                pos, scopa = None, False
                if move is not None and parent_pos is not None:
                    try:
                        pos, scopa = _step(parent_pos, move)
                    except Exception:
                        pos = None
                if top is not None:
                    top["searched"].append(move)
            nid = f"n{order}"
            visible = (not full and parent is not None and parent in g
                       and (depth is None or ply <= depth))
            if visible and shown >= max_nodes:
                if not truncate:
                    raise TreeTooLargeError(
                        f"the search visited {g.graph['search_nodes']:,} nodes"
                        + ("" if depth is None else f", more than max_nodes={max_nodes:,} of them to depth {depth}")
                        + ("" if depth is not None else f", more than max_nodes={max_nodes:,}")
                        + ": give a smaller depth, a larger max_nodes or truncate=True")
                full, visible = True, False
                if parent in g:
                    g.nodes[parent]["truncated"] = True
            node = dict(id=nid, pos=pos, visible=visible, ply=ply, alpha=alpha, beta=beta,
                        searched=[], subtree=1, tt=None, leaf=False)
            if visible:
                shown += 1
                g.add_node(nid, kind="node", order=order, depth=ply, alpha=alpha, beta=beta,
                           position=pos.to_string() if pos is not None else "",
                           to_move=pos.to_move if pos is not None else -1, pass_index=passes,
                           tt_hit=False, leaf=False, cutoff=False, truncated=False, hidden=0)
                attrs: dict = dict(order=len(stack[-1]["searched"]) if stack else 1)
                if move is not None:
                    attrs.update(move=str(move), card=str(move.card),
                                 captures="+".join(str(c) for c in sorted(move.captures)),
                                 player=parent_pos.to_move if parent_pos is not None else -1,
                                 scopa=bool(scopa))
                g.add_edge(parent, nid, **attrs)
            elif stack and stack[-1]["visible"] and not full:
                g.nodes[stack[-1]["id"]]["hidden"] += 1
            stack.append(node)
        elif tag == "tt":
            counts["tt_hits"] += 1
            if stack:
                stack[-1]["tt"] = (ev[2], ev[3])
        elif tag == "leaf":
            counts["leaves"] += 1
            if stack:
                stack[-1]["leaf"] = True
        elif tag == "exit":
            _, ply, value, n_moves, n_searched = ev
            if not stack:
                continue
            node = stack.pop()
            if stack:
                stack[-1]["subtree"] += node["subtree"]
            cut = n_searched < n_moves and node["tt"] is None and not node["leaf"]
            counts["cutoffs"] += cut
            if node["visible"]:
                data = g.nodes[node["id"]]
                pruned = []
                if cut and node["pos"] is not None:
                    searched = set(node["searched"])
                    pruned = [m for m in node["pos"].legal_moves() if m not in searched]
                bound = "exact" if node["leaf"] else _bound_kind(value, node["alpha"], node["beta"])
                data.update(value=value, bound=bound,
                            n_moves=n_moves, n_searched=n_searched, cutoff=cut,
                            pruned=" ".join(map(str, pruned)), leaf=node["leaf"],
                            tt_hit=node["tt"] is not None, subtree_nodes=node["subtree"])
                if node["tt"] is not None:
                    data.update(tt_lower=int(node["tt"][0]), tt_upper=int(node["tt"][1]))
            if not stack and pas is not None and pas["id"] in g:
                p = g.nodes[pas["id"]]
                p.update(value=value, bound=_bound_kind(value, pas["alpha"], pas["beta"]))
                p["nodes"] += node["subtree"]
    g.graph.update(passes=passes, traced_nodes=order, truncated=full,
                   shown_nodes=sum(1 for _, d in g.nodes(data=True) if d["kind"] == "node"),
                   nodes=g.number_of_nodes(), **counts)
    return g


def _search(position: Position, depth: Optional[int], max_nodes: int, truncate: bool,
            tt_mb: Optional[float], search: str, full_window: bool) -> nx.DiGraph:
    if search not in SEARCHES:
        raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
    want = SEARCHES[search] | (_FULL_WINDOW if full_window else 0)
    # a node makes at most 3 events (enter, tt or leaf, exit) and at most one pass starts at it
    budget = 4 * max_nodes + 64
    try:
        events, raw = _trace(position, want, tt_mb, budget)
    except ValueError:
        nodes = _fresh_searcher(tt_mb).search(position._kernel_tuple(), want).nodes
        if depth is None and not truncate:
            raise TreeTooLargeError(
                f"the search visited {nodes:,} nodes, more than max_nodes={max_nodes:,}: give a "
                "depth, a larger max_nodes or truncate=True") from None
        if 4 * nodes + 64 > TRACE_EVENT_CAP:
            raise TreeTooLargeError(
                f"the search visited {nodes:,} nodes: too many to trace (at most "
                f"{TRACE_EVENT_CAP // 4:,}); trace a position nearer the end of the round") from None
        events, raw = _trace(position, want, tt_mb, 4 * nodes + 64)
    return search_graph(position, events, raw, depth=depth, max_nodes=max_nodes, truncate=truncate,
                        search=search, full_window=full_window)


# -- the public entry point -------------------------------------------------------------------

def to_networkx(position: Position, *, depth: Optional[int] = None, max_nodes: int = 10_000,
                mode: str = "minimax", merge_transpositions: bool = False, truncate: bool = False,
                tt_mb: Optional[float] = None, threads: Optional[int] = None,
                search: str = "solve", full_window: bool = False) -> nx.DiGraph:
    """The game tree below `position` as a networkx DiGraph.

    mode="minimax": every line of play to the end of the round (or `depth` plies), every node
    with its exact value. mode="pv": the principal variation with every alternative at each
    step, one level deep, each with its exact value. mode="search": the tree the solver's
    search really explored, in order, for `search="solve"` (value, best moves and principal
    variation, as `solve`), `"value"` (the value only, as `solve_values`) or `"analyze"` (every
    move's value, as `analyze`), with `tt_mb` and `full_window` as in `solve`; on a fresh
    table, so its node count equals the solver's on a cold table.

    `merge_transpositions=True` makes positions reached along several paths one node (a DAG;
    minimax and pv). Past `max_nodes` nodes a TreeTooLargeError names the tree's size, or
    with `truncate=True` the graph stops there and marks the nodes left unexpanded
    (`truncated`). `tt_mb` and `threads` are passed to the solver.

    Attributes are documented in the module docstring and README ("Game trees")."""
    _check_args(position, depth, max_nodes)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "search":
        if merge_transpositions:
            raise ValueError("merge_transpositions applies to the minimax and pv trees, not to mode='search'")
        return _search(position, depth, max_nodes, truncate, tt_mb, search, full_window)
    return _minimax(position, depth, max_nodes, truncate, merge_transpositions, tt_mb, threads, mode)


def render(graph: nx.DiGraph, path: "os.PathLike[str] | str", **options: Any) -> str:
    """Draw a tree to an .svg, .png or .pdf file (see `scopa_solver.render.render`)."""
    from .render import render as _render
    return _render(graph, path, **options)


# -- writers ----------------------------------------------------------------------------------

def _scalar_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """A copy whose attributes are all str/int/float/bool (GraphML and GEXF need that)."""
    def clean(d: dict) -> dict:
        return {k: (v if isinstance(v, (str, int, float, bool)) else json.dumps(v))
                for k, v in d.items() if v is not None}
    out = nx.DiGraph()
    out.graph.update(clean(graph.graph))
    out.add_nodes_from((n, clean(d)) for n, d in graph.nodes(data=True))
    out.add_edges_from((u, v, clean(d)) for u, v, d in graph.edges(data=True))
    return out


def write_tree(graph: nx.DiGraph, path: "os.PathLike[str] | str", **render_options: Any) -> str:
    """Write `graph` to `path`, the format chosen by the suffix: ``.graphml``, ``.gexf``,
    ``.json`` (node-link), ``.dot`` (Graphviz, styled as the pictures), or a picture: ``.svg``,
    ``.png``, ``.pdf`` (see `render`). Returns the path written."""
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower()
    if suffix in PICTURE_FORMATS:
        from .render import render
        return render(graph, path, **render_options)
    if render_options and suffix != ".dot":
        raise TypeError(f"{', '.join(render_options)}: options for pictures and .dot only")
    if suffix == ".graphml":
        nx.write_graphml(_scalar_graph(graph), path)
    elif suffix == ".gexf":
        nx.write_gexf(_scalar_graph(graph), path)
    elif suffix == ".json":
        with open(path, "w", encoding="utf-8") as f:
            json.dump(node_link(graph), f, ensure_ascii=False, indent=1)
            f.write("\n")
    elif suffix == ".dot":
        from .render import to_dot
        with open(path, "w", encoding="utf-8") as f:
            f.write(to_dot(graph, **render_options))
    else:
        known = ", ".join(list(DATA_FORMATS) + list(PICTURE_FORMATS))
        raise ValueError(f"cannot tell the format of {path!r} from its suffix: use one of {known}")
    return path


def node_link(graph: nx.DiGraph) -> dict:
    """The node-link form of `graph` (what `.json` files hold), edges under "edges"."""
    try:
        return nx.node_link_data(graph, edges="edges")
    except TypeError:    # networkx < 3.4
        data = nx.node_link_data(graph)
        data["edges"] = data.pop("links")
        return data


def read_tree(path: "os.PathLike[str] | str") -> nx.DiGraph:
    """Read a tree written by `write_tree` (``.graphml``, ``.gexf``, ``.json``; ``.dot`` needs pydot)."""
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".graphml":
        return nx.read_graphml(path)
    if suffix == ".gexf":
        return nx.read_gexf(path)
    if suffix == ".json":
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        try:
            return nx.node_link_graph(data, edges="edges")
        except TypeError:   # networkx < 3.4
            data["links"] = data.pop("edges")
            return nx.node_link_graph(data)
    if suffix == ".dot":
        return nx.DiGraph(nx.nx_pydot.read_dot(path))
    raise ValueError(f"cannot read {path!r}: use .graphml, .gexf, .json or .dot")


def tree_text(graph: nx.DiGraph, max_lines: int = 80) -> str:
    """An indented outline of a minimax or pv tree for the terminal: each move, the value for
    player 0 after it, ``*`` for optimal moves and ``=`` along the principal variation."""
    root = graph.graph.get("root", ROOT)
    lines = []
    data = graph.nodes[root]
    head = f"{data['position']}  P{data['to_move']} to move"
    if "value_p0" in data:
        head += f", value for P0 {data['value_p0']:+d}"
    lines.append(head)
    seen = set()

    def walk(n: str, indent: str) -> None:
        for _, c, e in graph.out_edges(n, data=True):
            if len(lines) >= max_lines:
                return
            d = graph.nodes[c]
            mark = "=" if e.get("pv") else ("*" if e.get("optimal") else " ")
            label = e.get("move") or d.get("pass_kind", "")
            value = f"{d['value_p0']:+d}" if "value_p0" in d else str(d.get("value", ""))
            extra = ""
            if d.get("terminal") and "score" in d:
                extra = f"  end {d['score']}"
            elif d.get("truncated"):
                extra = "  (truncated)"
            lines.append(f"{indent}{mark} P{e.get('player', '?')} {label:<14} {value:>4}{extra}")
            if c not in seen:
                seen.add(c)
                walk(c, indent + "  ")

    walk(root, "")
    if len(lines) >= max_lines:
        lines.append(f"... ({graph.number_of_nodes():,} nodes in all: write them to a file, or give a depth)")
    return "\n".join(lines)
