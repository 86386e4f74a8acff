"""The search as it ran: the kernel traces one search (every node entered with its window, table
answers, ends of round, what each node returned) and `search_graph` turns the trace into a graph.

The trace is held in memory, so a search is traced only up to `TRACE_NODE_CAP` nodes: before
tracing, the same search runs untraced with that node limit (a fraction of a second), which
names the search's size, so that a search too large fails at once and the trace's buffer is
exactly as large as it needs to be.

Every game's search is traced by the kernel (ext/trace.pxi) in the same
events: the value's search (the margin with two sides, the paranoid value with more), each node's
values for its mover's team; max^n is not traced.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import networkx as nx

from .. import kernel
from ..core.position import Move, Position
from ..errors import ScopaError, excerpt
from ..progress import progress_bar
from .attributes import move_attributes
from ..kernel.limit import Limit
from .base import TreeOptions, TreeTooLargeError, check_options, check_position

SEARCHES = {"solve": kernel.WANT_BEST | kernel.WANT_PV, "value": 0, "analyze": kernel.WANT_ALL}
EVENTS_PER_NODE = 4         # a node makes at most 3 events (enter, tt or leaf, exit), and one pass
TRACE_NODE_CAP = 500_000    # searched nodes traced at most: 2,000,000 events of 24 bytes


def _fresh_searcher(tt_mb: Optional[float]) -> kernel.Searcher:
    """A searcher with an empty table of its own (so the node count is reproducible)."""
    searcher = kernel.new_searcher(tt_mb)
    if searcher.tt_mb == 0:
        searcher.set_table(False)
    return searcher


def search_size(position: Position, want: int, tt_mb: Optional[float] = None) -> Optional[int]:
    """The nodes the search `want` of `position` visits on a fresh table, or None when it visits
    more than `TRACE_NODE_CAP` (the search is stopped there: a fraction of a second)."""
    state = check_position(position).kernel_state()
    result = _fresh_searcher(tt_mb).search(state, want, max_nodes=TRACE_NODE_CAP)
    return None if result.stop != kernel.StopReason.NONE else result.nodes


def trace_search(position: Position, want: int, tt_mb: Optional[float] = None,
                 nodes: Optional[int] = None) -> tuple[list, Any]:
    """The kernel's trace of one search of `position` on a fresh table: (events, result), as
    `Searcher.trace` gives them. `nodes` is the search's size when known (`search_size`). A
    `TreeTooLargeError` when the search visits more than `TRACE_NODE_CAP` nodes."""
    if nodes is None:
        nodes = search_size(position, want, tt_mb)
    if nodes is None or nodes > TRACE_NODE_CAP:
        raise TreeTooLargeError(
            f"the search visits more than {TRACE_NODE_CAP:,} nodes: too many to trace; "
            "trace a position nearer the end of the round")
    searcher = _fresh_searcher(tt_mb)
    return searcher.trace(position.kernel_state(), want, EVENTS_PER_NODE * nodes + 64)


def search_tree(position: Position, limit: Optional[Limit] = None, options: Optional[TreeOptions] = None, *,
                search: str = "solve", full_window: bool = False,
                progress: Optional[bool] = None) -> nx.DiGraph:
    """Trace the search `search` (see `SEARCHES`) of `position` on a fresh table of
    `limit.tt_mb` MiB and make its graph (`to_networkx(mode="search")`). Without a depth or
    `truncate` (`options`), a search of more than `max_nodes` nodes fails before it is traced."""
    check_position(position)
    options = check_options(options)
    depth, max_nodes, truncate = options.depth, options.max_nodes, options.truncate
    tt_mb = None if limit is None else limit.tt_mb
    if search not in SEARCHES:
        raise ScopaError(f"search must be one of {', '.join(SEARCHES)}, not {excerpt(search)}")
    want = SEARCHES[search] | (kernel.FULL_WINDOW if full_window else 0)
    nodes = search_size(position, want, tt_mb)
    if depth is None and not truncate and (nodes is None or nodes > max_nodes):
        many = f"more than {TRACE_NODE_CAP:,}" if nodes is None else f"{nodes:,}"
        raise TreeTooLargeError(
            f"the search visited {many} nodes, more than max_nodes={max_nodes:,}: give a "
            "depth, a larger max_nodes or truncate=True")
    events, raw = trace_search(position, want, tt_mb, nodes)
    return search_graph(position, events, raw, options, search=search, full_window=full_window,
                        progress=progress)




def _traced_move(packed: int, parent: Optional[Position]) -> Optional[Move]:
    """The move of an event, None for none. A packed 0 is also the lay-down of card 0 (the ace of
    coins): a move when the parent has it."""
    if packed:
        return Move.from_packed(packed)
    if parent is not None and any(m.packed == 0 for m in parent.legal_moves()):
        return Move.from_packed(0)
    return None


def _bound_kind(value: int, alpha: int, beta: int) -> str:
    if value >= beta:
        return "lower"      # failed high: the true value is at least this
    if value <= alpha:
        return "upper"      # failed low: at most this
    return "exact"


def search_graph(position: Position, events: Sequence[tuple], raw: Any,
                 options: Optional[TreeOptions] = None, *, search: str = "solve",
                 full_window: bool = False, progress: Optional[bool] = None) -> nx.DiGraph:
    """The graph of a search from its trace (`events` and `raw` as `Searcher.trace` returns them).

    Nodes: the root (kind "root", the position searched), one node per root-level search (kind
    "pass", ids ``p1``, ``p2``, ... in order) and one per node the search visited (kind "node",
    id ``n<order>``, `order` counting visits from 1 as the solver counts nodes). Nodes deeper than
    `options.depth` are left out (their parent's `hidden` counts them); `options.max_nodes` and
    `options.truncate` bound the graph as in `to_networkx`. `to_networkx(mode="search")` runs the
    traced search and calls this. `progress`: a bar over the events (see `progress_bar`)."""
    check_position(position)
    options = check_options(options)
    depth, max_nodes, truncate = options.depth, options.max_nodes, options.truncate
    pv_moves = [Move.from_packed(m) for m in raw.pv]
    bases = [position]                      # the principal variation's positions, by depth
    for m in pv_moves:
        bases.append(bases[-1].play(m))
    root_moves = len(position.legal_moves())
    want_best = search == "solve"
    complete = raw.stop == kernel.StopReason.NONE
    g = nx.DiGraph()
    g.graph.update(tree_mode="search", root="root", position=position.to_string(),
                   to_move=position.to_move, depth=-1 if depth is None else depth,
                   merge_transpositions=False, truncated=False, search=search,
                   full_window=full_window, search_nodes=raw.nodes, complete=complete)
    rules = position.rules
    sides = rules.sides
    root_side = sides[position.to_move]
    paranoid = rules.side_count > 2
    g.graph.update(objective="value", players=rules.players, sides=rules.side_count, root_side=root_side)
    lower, upper = raw.lower, raw.upper
    if complete and lower is not None and lower == upper:
        g.graph["value"] = int(lower)
        if not paranoid:        # two sides: the margin for player 0 too
            g.graph["value_p0"] = int(lower) if root_side == sides[0] else -int(lower)
    if pv_moves:
        g.graph["pv"] = " ".join(map(str, pv_moves))
    g.add_node("root", kind="root", position=position.to_string(), to_move=position.to_move,
               depth=0, terminal=position.is_round_over(), truncated=False)
    g.nodes["root"]["side"] = root_side

    stack: list[dict] = []          # the open visited nodes, innermost last
    pas: Optional[dict] = None      # the current pass
    order = shown = passes = tests = 0
    full = False
    counts = dict(tt_hits=0, cutoffs=0, leaves=0, bounds_cuts=0)

    def start_pass(ply: int, alpha: int, beta: int, packed: int) -> dict:
        nonlocal passes, tests
        passes += 1
        move = _traced_move(packed, bases[ply - 1] if 0 < ply <= len(bases) else None)
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
                start = base.play(move) if base is not None else None
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

    bar = progress_bar(len(events), "search graph", progress, "events")
    try:
        for i, ev in enumerate(events):
            if i & 4095 == 4095:
                bar.update(4096)
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
                        scopa = parent_pos.play_events(move)[1].scopa
                else:
                    top = stack[-1] if stack else None
                    parent = top["id"] if top else None
                    parent_pos = top["pos"] if top else None
                    move = _traced_move(packed, parent_pos)
                    pos, scopa = None, False
                    if move is not None and parent_pos is not None:
                        try:
                            pos, done = parent_pos.play_events(move)
                            scopa = done.scopa
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
                    # the values are the mover's team's (see docs/trees.md)
                    g.nodes[nid]["side"] = sides[pos.to_move] if pos is not None else -1
                    if paranoid:
                        g.nodes[nid]["root_team"] = pos is not None and sides[pos.to_move] == root_side
                    attrs: dict = dict(order=len(stack[-1]["searched"]) if stack else 1)
                    if move is not None:
                        attrs.update(move_attributes(move, parent_pos.to_move if parent_pos is not None else -1,
                                                     scopa))
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
                # a node the bounds answer searches no move (bounds.pxi; table answers are tt
                # hits, not cuts)
                bounds_cut = cut and n_searched == 0
                if bounds_cut:
                    counts["bounds_cuts"] += 1
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
                    data["bounds_cut"] = bounds_cut
                    if node["tt"] is not None:
                        data.update(tt_lower=int(node["tt"][0]), tt_upper=int(node["tt"][1]))
                if not stack and pas is not None and pas["id"] in g:
                    p = g.nodes[pas["id"]]
                    p.update(value=value, bound=_bound_kind(value, pas["alpha"], pas["beta"]))
                    p["nodes"] += node["subtree"]
    finally:
        bar.close()
    g.graph.update(passes=passes, traced_nodes=order, truncated=full,
                   shown_nodes=sum(1 for _, d in g.nodes(data=True) if d["kind"] == "node"),
                   nodes=g.number_of_nodes(), **counts)
    return g
