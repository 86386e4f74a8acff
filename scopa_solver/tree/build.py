"""Game trees for inspection: the minimax tree, the principal variation with its alternatives,
and (through trace.py) the tree the search really explored, as networkx graphs: the walk that
builds them, after the size check (size.py), with the values of values.py and the attributes of
attributes.py.

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

The family games (docs/family.md): two sides as above. With three or more sides ``value`` is
the paranoid value of the root's side (graph attribute ``root_side``) at every node, and an
edge's ``value`` its child's; with ``objective="maxn"`` (any game) every node also has
``points``, each side's points at the end of its max^n line, ``value`` being the mover's side's.

>>> three = Position.from_string("7d2c/3c4c/RbAs 4s3s -/-/- - 0/0/0 0 2 - players=3")
>>> g = to_networkx(three, objective="maxn")
>>> g.nodes["/"]["points"], [(e["move"], e["points"]) for _, _, e in g.out_edges("/", data=True)]
((5, 0, 0), [('2c', (5, 0, 0)), ('7dx3s+4s', (3, 1, 0))])
>>> to_networkx(three).nodes["/2c"]["value"]        # side 0's paranoid value after 2c
-4
"""
from __future__ import annotations

import time
from typing import Any, Optional, Sequence

import networkx as nx

from .. import kernel
from ..core.position import Move, Position
from ..errors import LimitError, ScopaError, excerpt
from ..progress import progress_bar
from ..kernel.limit import Limit
from ..search.solver import solve
from .base import ROOT, TreeOptions, TreeTooLargeError, check_options, check_position
from .attributes import edge_attributes, node_attributes
from .size import check_size, reach, too_large_when_built
from .trace import search_tree
from .values import Valuer

MODES = ("minimax", "pv", "search")


# -- minimax and pv ---------------------------------------------------------------------------

def _child_id(parent_id: str, move: Move) -> str:
    return f"{parent_id}{move}" if parent_id == ROOT else f"{parent_id}/{move}"


def _pv_too_large(depth: Optional[int], max_nodes: int) -> TreeTooLargeError:
    return TreeTooLargeError(
        f"the principal variation {reach(depth)} with every alternative has more than "
        f"max_nodes={max_nodes:,} nodes: give a smaller depth, a larger max_nodes or truncate=True")


def _new_graph(position: Position, mode: str, depth: Optional[int], merge: bool,
               objective: str = "value") -> nx.DiGraph:
    g = nx.DiGraph()
    g.graph.update(tree_mode=mode, root=ROOT, position=position.to_string(), to_move=position.to_move,
                   depth=-1 if depth is None else depth, merge_transpositions=merge, truncated=False)
    rules = position.rules
    g.graph.update(objective=objective, players=rules.players, sides=rules.side_count,
                   root_side=rules.sides[position.to_move])
    return g


def _finish(g: nx.DiGraph, pv: Sequence[Move]) -> nx.DiGraph:
    """Mark the principal variation (the one `solve` gives) as far as the graph goes and fill
    in the graph-level summary."""
    root = g.nodes[ROOT]
    g.graph.update(value=root["value"], pv=" ".join(map(str, pv)))
    for key in ("value_p0", "points"):
        if key in root:
            g.graph[key] = root[key]
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


def _minimax(position: Position, options: TreeOptions, limit: Limit, mode: str,
             progress: Optional[bool], objective: str = "value") -> nx.DiGraph:
    """Breadth first, one batch of values per level (`Valuer`): for two sides a node's
    analysis gives every child's exact value (the child's value is minus the move's value: the
    players alternate); three or more sides and max^n value the children themselves."""
    total = None
    if mode == "minimax" and not options.truncate:
        total = check_size(position, options.depth, options.max_nodes, options.merge_transpositions, progress)
    bar = progress_bar(total or (None if mode == "pv" else options.max_nodes), f"{mode} tree", progress, "nodes")
    try:
        return _build(position, options, limit, mode, bar, objective)
    finally:
        bar.close()


def _build(position: Position, options: TreeOptions, limit: Limit, mode: str, bar: Any,
           objective: str = "value") -> nx.DiGraph:
    """The walk; `limit` holds the searches' table and threads only."""
    depth, max_nodes, truncate = options.depth, options.max_nodes, options.truncate
    merge = options.merge_transpositions
    g = _new_graph(position, mode, depth, merge, objective)
    plies = 1 << 30 if depth is None else depth
    positions = {ROOT: position}        # the positions of the nodes still to expand
    where: dict[kernel.KernelState, str] = {position.kernel_state(): ROOT}
    valuer = Valuer(position, objective, limit)
    margin = valuer.margin
    # the root's value is `solve`'s in every case (paranoid: the root's side is the kernel's own)
    solved = solve(position, Limit(tt_mb=limit.tt_mb), objective=objective)
    # no limit: the search completes (a time box or Ctrl-C raises), so value and points are set
    assert solved.value is not None and solved.points is not None
    g.add_node(ROOT, **node_attributes(position, 0, solved.value, margin=margin))
    if objective == "maxn":
        g.nodes[ROOT]["points"] = tuple(solved.points)
    bar.update(1)
    pv = solved.pv

    def too_large() -> TreeTooLargeError:
        if mode == "pv":
            return _pv_too_large(depth, max_nodes)
        return too_large_when_built(position, depth, max_nodes, merge)

    level, d, cut = [ROOT], 0, None
    while level and d < plies and cut is None:
        kernel.check_time()
        todo = [n for n in level if not g.nodes[n]["terminal"]]
        if not todo:
            break
        sizes = [len(positions[n].legal_moves()) for n in todo]   # merged: at most this many new
        room, fits = max_nodes - g.number_of_nodes(), 0
        while fits < len(todo) and sizes[fits] <= room:
            room -= sizes[fits]
            fits += 1
        if fits < len(todo) and not truncate and not merge:
            raise too_large()
        batch = valuer.rows([positions[n] for n in todo[:fits]], threads=limit.threads)
        next_level = []
        for i, n in enumerate(todo):
            pos = positions.pop(n)
            rows = batch[i] if i < fits else valuer.rows([pos])[0]
            node_value = g.nodes[n]["value"]
            new = []
            for row in rows:
                key = row.child.kernel_state()
                new.append((row, key, where.get(key) if merge else None))
            added = len({key for _, key, cid in new if cid is None}) if merge else len(new)
            if g.number_of_nodes() + added > max_nodes:
                if not truncate:
                    raise too_large()
                cut = todo[i:]
                break
            g.nodes[n]["expanded"] = True
            for row, key, cid in new:
                if cid is None and merge:       # two moves of this node may reach one position
                    cid = where.get(key)
                if cid is None:
                    cid = _child_id(n, row.move)
                    positions[cid] = row.child
                    if merge:
                        where[key] = cid
                    g.add_node(cid, **node_attributes(row.child, d + 1, row.child_value, margin=margin,
                                                        dealt=row.dealt))
                    if row.points is not None:
                        g.nodes[cid]["points"] = row.points
                    next_level.append(cid)
                edge = edge_attributes(pos, row.move, row.scopa, row.value, row.value == node_value)
                if row.points is not None:
                    edge["points"] = row.points
                g.add_edge(n, cid, **edge)
            bar.update(added)
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
            if not data["expanded"] and not data["terminal"] and data["depth"] < plies]
        for n in frontier:
            g.nodes[n]["truncated"] = True
    return _finish(g, pv)


# -- the public entry point -------------------------------------------------------------------

def _search_limit(limit: Optional[Limit]) -> Limit:
    """The limit of a tree's searches: its table and threads. A tree's values are exact, so a
    node limit or a horizon (a search's answer short of exact) is refused; time and deadline
    bound the whole build (`to_networkx`)."""
    if limit is None:
        return kernel.NO_LIMIT
    if not isinstance(limit, Limit):
        raise LimitError(f"limit must be a Limit (e.g. Limit(time=2)), not {type(limit).__name__}")
    if limit.nodes is not None:
        raise LimitError("a tree's values are exact: Limit.nodes does not apply to a tree (bound the "
                         "graph with TreeOptions(max_nodes=...), the build with Limit(time=...))")
    if limit.horizon:
        raise LimitError("a tree's values are exact: Limit.horizon does not apply to a tree (the "
                         "plies drawn are TreeOptions(depth=...))")
    return limit


def _seconds(limit: Limit) -> Optional[float]:
    """The seconds the build has from now by `limit`'s time and deadline (None: no bound)."""
    if limit.deadline is None:
        return limit.time
    now = time.monotonic()
    return max(limit.end(now) - now, 1e-9)


def to_networkx(position: Position, limit: Optional[Limit] = None, options: Optional[TreeOptions] = None, *,
                mode: str = "minimax", objective: str = "value", search: str = "solve",
                full_window: bool = False, progress: Optional[bool] = None) -> nx.DiGraph:
    """The game tree below `position` as a networkx DiGraph.

    mode="minimax": every line of play to the end of the round (or `options.depth` plies),
    every node with its exact value. mode="pv": the principal variation with every alternative
    at each step, one level deep, each with its exact value. mode="search": the tree the
    solver's search really explored, in order, for `search="solve"` (value, best moves and
    principal variation, as `solve`), `"value"` (the value only, as `solve_values`) or
    `"analyze"` (every move's value, as `analyze`), with the table and `full_window` as in
    `solve`; on a fresh table, so its node count equals the solver's on a cold table (see
    trace.py).

    `options` (a `TreeOptions`; None: the defaults) is what the tree draws: `depth` (plies of
    the tree, not a search horizon: the values stay exact), `max_nodes` (the graph's nodes, at
    most `MAX_TREE_NODES`: a larger tree is refused before it is built, with a
    TreeTooLargeError naming its size), `truncate` (instead the graph stops there and marks
    the nodes left unexpanded, `truncated`) and `merge_transpositions` (positions reached
    along several paths are one node: a DAG; minimax and pv).

    `limit` (a `Limit`; None: none) is what the searches may use: `tt_mb` and `threads` go to
    the solver; `time` (seconds) and `deadline` bound the whole build of a minimax or pv tree,
    every search in it included: a tree not built in time raises `TimeLimitError` (a tree has
    no partial answer: its values come from searches to the end). `nodes` and a `horizon` are
    refused (a `LimitError`): a tree's values are exact. mode="search" is bounded by
    `options.max_nodes` (the trace stops there) and takes `tt_mb` only.

    `objective`: "value" (the margin with two sides; with three or more the paranoid value of
    the root's side at every node) or "maxn" (every node's `points` per side on its max^n line);
    mode="search" traces the value's search only (with three or more sides, the paranoid one).
    `progress`: a bar on long builds (None: on a terminal after a second; True: always; False:
    never).

    Attributes are documented in the module docstring and docs/trees.md."""
    check_position(position)
    limit = _search_limit(limit)
    options = check_options(options)
    if mode not in MODES:
        raise ScopaError(f"mode must be one of {', '.join(MODES)}, not {excerpt(mode)}")
    kernel.check_objective(objective)
    if mode == "search" and objective != "value":
        # the max^n search is not traced (ext/trace.pxi): refused, not imitated
        raise ScopaError("mode='search' traces the search of the value (the margin, or the paranoid value "
                         "with three or more sides), not objective='maxn': use mode='minimax' or 'pv'")
    try:
        if mode == "search":
            if options.merge_transpositions:
                raise ScopaError("merge_transpositions applies to the minimax and pv trees, not to mode='search'")
            return search_tree(position, limit, options, search=search, full_window=full_window,
                               progress=progress)
        with kernel.time_box(_seconds(limit), f"the {mode} tree"):
            return _minimax(position, options, Limit(tt_mb=limit.tt_mb, threads=limit.threads), mode,
                            progress, objective)
    except MemoryError:
        raise LimitError(f"not enough memory for a tree of up to {options.max_nodes:,} nodes: give a smaller "
                         "max_nodes or depth") from None
