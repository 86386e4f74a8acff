"""Game trees for inspection: the minimax tree, the principal variation with its alternatives,
and (through trace.py) the tree the search really explored, as networkx graphs; the size check
that refuses a tree too large before anything is searched.

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

from typing import NamedTuple, Optional, Sequence

import networkx as nx

from .. import kernel
from ..core.cards import cards_text
from ..core.position import Move, Position, RoundScore
from ..errors import LimitError, ScopaError, excerpt
from ..progress import progress_bar
from ..search.solver import analyze_many, solve, solve_many, solve_values
from .base import (ROOT, TreeTooLargeError, check_depth, check_max_nodes, check_position,
                   move_attributes)
from .trace import search_tree

MODES = ("minimax", "pv", "search")
COUNT_BUDGET = 100_000    # distinct positions the size check counts at most (~0.5 s, ~60 MB)


# -- node and edge attributes -----------------------------------------------------------------

def _score_attributes(score: RoundScore, rules) -> dict:
    """The round score breakdown as flat attributes, ``_p0``, ``_p1``, ... per player (per side
    in the family games); winners: a player (side), or -1 for nobody."""
    sides = score.players
    ks = range(len(sides))

    def who(w: Optional[int]) -> int:
        return -1 if w is None else w

    out: dict = {}
    for name, get in (("points", lambda x: x.points), ("cards", lambda x: x.cards),
                      ("coins", lambda x: x.coins),
                      ("primiera", lambda x: -1 if x.primiera is None else x.primiera),
                      ("scopas", lambda x: x.scopas)):
        out.update({f"{name}_p{k}": get(sides[k]) for k in ks})
    out.update(carte=who(score.carte), denari=who(score.denari), settebello=who(score.settebello),
               primiera=who(score.primiera))
    if rules.re_bello:
        out["re_bello"] = who(score.re_bello)
    if rules.napola:
        out.update({f"napola_p{k}": sides[k].napola for k in ks})
    parts = [f"carte {_w(score.carte)}", f"denari {_w(score.denari)}",
             f"settebello {_w(score.settebello)}", f"primiera {_w(score.primiera)}"]
    if rules.re_bello:
        parts.append(f"re bello {_w(score.re_bello)}")
    if any(x.napola for x in sides):
        parts.append(f"napola {'-'.join(str(x.napola) for x in sides)}")
    parts.append(f"scopas {'-'.join(str(x.scopas) for x in sides)}")
    out["score"] = f"{'-'.join(str(x.points) for x in sides)} ({', '.join(parts)})"
    return out


def _w(winner: Optional[int]) -> str:
    return "-" if winner is None else f"P{winner}"


def _edge_attributes(pos: Position, move: Move, scopa: bool, value: int, optimal: bool) -> dict:
    """The attributes of a minimax or pv edge: the move's (`move_attributes`), its exact `value`
    for the player making it and whether that is the best (`optimal`); `pv` starts False."""
    return dict(move_attributes(move, pos.to_move, scopa), value=value, optimal=optimal, pv=False)


def _node_attributes(pos: Position, depth: int, value: int, kind: str = "position",
                     margin: bool = True, dealt: bool = False) -> dict:
    """The attributes of a minimax or pv node: the position, `value` for the side to move and
    (`margin` trees: two sides, objective "value") for player 0, the cards in each place,
    `dealt` (the move into it dealt new hands from the stock) and, at the end of the round,
    the score (`_score_attributes`). `pv`, `expanded` and `truncated` start False. The family
    games add the mover's `side` and every seat's hand and scopas."""
    terminal = pos.is_round_over()
    rules = pos.rules
    attrs = dict(kind=kind, position=pos.to_string(), to_move=pos.to_move, depth=depth, value=value)
    if margin:
        attrs["value_p0"] = value if rules.sides[pos.to_move] == rules.sides[0] else -value
    attrs.update(terminal=terminal, dealt=dealt, pv=False, expanded=False, truncated=False,
                 table=cards_text(pos.table), hand0=cards_text(pos.hands[0]),
                 hand1=cards_text(pos.hands[1]), stock=len(pos.stock),
                 scopas0=pos.scopas[0], scopas1=pos.scopas[1])
    if rules.is_family:
        attrs["side"] = rules.sides[pos.to_move]
        for p in range(2, rules.players):
            attrs[f"hand{p}"] = cards_text(pos.hands[p])
            attrs[f"scopas{p}"] = pos.scopas[p]
    if terminal:
        attrs.update(_score_attributes(pos.round_score(), rules))
    return attrs


# -- values for trees of three or more sides, and max^n trees ---------------------------------

class _Row(NamedTuple):
    """One move of an expanded node: the child position and its values."""
    move: Move
    child: Position
    scopa: bool
    dealt: bool              # the move dealt new hands from the stock (a new deal at the child)
    value: int               # the move's value for its mover (an edge's `value`)
    child_value: int         # the child's `value`
    points: Optional[tuple]  # max^n: every side's points after the move (the child's `points`)


class _Paranoid:
    """The paranoid values of a tree with three or more sides from one side's view (`side`
    maximises its points minus the best other side's, every other seat minimises that). At a
    node where `side` is to move that is the kernel's paranoid value (`solve_values`); at any
    other the least of its children's, down to `side`'s next turn or the end of the round (at
    most players - 1 plies: the kernel's paranoid search takes the side to move as its own)."""

    def __init__(self, side: int, tt_mb: Optional[float], threads: Optional[int]) -> None:
        self.side, self.tt_mb, self.threads = side, tt_mb, threads
        self.known: dict = {}

    def values(self, positions: Sequence[Position]) -> list[int]:
        rules_sides = positions[0].rules.sides if positions else ()
        solve_here: dict = {}
        others: dict = {}
        stack = list(positions)
        seen = 0
        while stack:                      # find what the kernel must solve, in one batch
            seen += 1
            if not seen & 1023:           # a time box reaches this walk too
                kernel.check_time()
            pos = stack.pop()
            key = pos.kernel_state()
            if key in self.known or key in solve_here or key in others:
                continue
            if pos.is_round_over():
                self.known[key] = pos.round_score().margin(self.side)
            elif rules_sides[pos.to_move] == self.side:
                solve_here[key] = pos
            else:
                others[key] = pos
                stack.extend(pos.play(m) for m in pos.legal_moves())
        if solve_here:
            values = solve_values(list(solve_here.values()), tt_mb=self.tt_mb, threads=self.threads)
            self.known.update(zip(solve_here, values))
        return [self._value(pos) for pos in positions]

    def _value(self, pos: Position) -> int:
        key = pos.kernel_state()
        if key not in self.known:         # another side to move: it minimises
            self.known[key] = min(self._value(pos.play(m)) for m in pos.legal_moves())
        return self.known[key]


def _maxn_points(positions: Sequence[Position], tt_mb: Optional[float],
                 threads: Optional[int]) -> list[tuple]:
    """Every side's round points at the end of the max^n line from each position."""
    out: list = [None] * len(positions)
    todo = []
    for i, pos in enumerate(positions):
        if pos.is_round_over():
            out[i] = tuple(pos.round_score().total)
        else:
            todo.append(i)
    results = solve_many([positions[i] for i in todo], objective="maxn", tt_mb=tt_mb,
                         threads=threads) if todo else []
    for i, result in zip(todo, results):
        out[i] = tuple(result.points)
    return out


class _Valuer:
    """The values of one tree: `rows` expands positions into their moves with values. Two
    sides under "value" (margin trees) read `analyze`, as always; three or more sides read the
    paranoid values of the root's side (`_Paranoid`); "maxn" trees solve every child under
    max^n."""

    def __init__(self, position: Position, objective: str, tt_mb: Optional[float],
                 threads: Optional[int]) -> None:
        self.objective, self.tt_mb = objective, tt_mb
        self.sides = position.rules.sides
        self.margin = objective == "value" and position.rules.side_count == 2
        self.root_side = self.sides[position.to_move]
        self.paranoid = None if self.margin or objective == "maxn" else \
            _Paranoid(self.root_side, tt_mb, threads)

    def rows(self, positions: Sequence[Position], threads: Optional[int] = None) -> list[list[_Row]]:
        if not positions:
            return []
        if self.margin:     # a child's value is minus its move's: the sides alternate
            out = []
            for pos, moves in zip(positions, analyze_many(positions, tt_mb=self.tt_mb, threads=threads)):
                rows = []
                for mv in moves:
                    child, events = pos.play_events(mv.move)
                    rows.append(_Row(mv.move, child, events.scopa, events.dealt, mv.value, -mv.value, None))
                out.append(rows)
            return out
        played = [[(m, *pos.play_events(m)) for m in pos.legal_moves()] for pos in positions]
        children = [child for moves in played for _, child, _ in moves]
        if self.paranoid is not None:
            values = self.paranoid.values(children)
            points: list = [None] * len(children)
        else:
            points = _maxn_points(children, self.tt_mb, threads)
            values = [p[self.sides[c.to_move]] for p, c in zip(points, children)]
        out, i = [], 0
        for pos, moves in zip(positions, played):
            rows = []
            mover = self.sides[pos.to_move]
            for move, child, events in moves:
                value = values[i] if self.paranoid is not None else points[i][mover]
                rows.append(_Row(move, child, events.scopa, events.dealt, value, values[i], points[i]))
                i += 1
            # best first for the mover (stable: the kernel's order among equals, as max^n's ties)
            minimise = self.paranoid is not None and mover != self.root_side
            rows.sort(key=lambda r: r.value if minimise else -r.value)
            out.append(rows)
        return out


# -- the size check ---------------------------------------------------------------------------

class TreeSize(NamedTuple):
    """A game tree's size: `nodes` as a tree, `distinct` positions in it (the nodes of the
    merged DAG). When not `exact`, the count stopped at its budget: both are lower bounds."""
    nodes: int
    distinct: int
    exact: bool


def tree_size(position: Position, depth: Optional[int] = None, *,
              budget: int = COUNT_BUDGET) -> TreeSize:
    """Count the game tree below `position` (to the end of the round or `depth` plies) through
    its transpositions, visiting at most `budget` distinct positions (at most `MAX_TREE_NODES`):
    exact when they suffice, else lower bounds (the nodes of every subtree counted so far, which
    transpositions make many). Time and memory grow with `budget` only (about 4 µs and 500
    bytes a position), so a tree far larger than could be built is bounded at once.

    >>> tree_size(Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1))
    TreeSize(nodes=15, distinct=13, exact=True)
    """
    check_position(position)
    depth, budget = check_depth(depth), check_max_nodes(budget, "budget")
    root = position.kernel_state()
    limit = 1 << 30 if depth is None else depth
    # a state fixes its ply (one card leaves a hand each ply), so it is the memo's whole key
    memo: dict = {}
    # the open nodes, innermost last: [state, plies left, its moves, next move, nodes so far]
    stack = [[root, limit, kernel.legal_moves(root) if limit > 0 else [], 0, 1]]
    while True:
        frame = stack[-1]
        state, left, moves, i, _ = frame
        if i < len(moves):
            frame[3] = i + 1
            child = kernel.play(state, moves[i])[0]
            known = memo.get(child)
            if known is not None:
                frame[4] += known
            elif len(memo) + len(stack) >= budget:      # one more position than the budget
                return TreeSize(sum(f[4] for f in stack) + 1, len(memo) + len(stack) + 1, False)
            else:
                stack.append([child, left - 1, kernel.legal_moves(child) if left > 1 else [], 0, 1])
        else:
            stack.pop()
            memo[state] = frame[4]
            if not stack:
                return TreeSize(frame[4], len(memo), True)
            stack[-1][4] += frame[4]


def count_tree(position: Position, depth: Optional[int] = None, *,
               budget: int = COUNT_BUDGET) -> tuple[Optional[int], Optional[int]]:
    """(nodes of the game tree, distinct positions in it) to the end of the round or `depth`
    plies; (None, None) when more than `budget` distinct positions would have to be visited
    (see `tree_size`, which gives lower bounds then).

    >>> count_tree(Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1), depth=1)
    (3, 3)
    """
    size = tree_size(position, depth, budget=budget)
    return (size.nodes, size.distinct) if size.exact else (None, None)


def _count_positions(position: Position, depth: Optional[int], limit: int,
                     progress: Optional[bool]) -> Optional[int]:
    """The distinct positions of the tree, or None past `limit`: a visited set of hashes (~70
    bytes a position; a collision could only undercount by one, and the build counts exactly)."""
    root = position.kernel_state()
    seen = {hash(root)}
    todo = [(root, 1 << 30 if depth is None else depth)]
    bar = progress_bar(limit, "counting positions", progress, "positions")
    try:
        while todo:
            state, left = todo.pop()
            if left == 0:
                continue
            before = len(seen)
            for m in kernel.legal_moves(state):
                child = kernel.play(state, m)[0]
                key = hash(child)
                if key not in seen:
                    seen.add(key)
                    todo.append((child, left - 1))
            if len(seen) > limit:
                return None
            bar.update(len(seen) - before)
        return len(seen)
    finally:
        bar.close()


def _reach(depth: Optional[int]) -> str:
    return "to the end of the round" if depth is None else f"to depth {depth}"


def _too_large(size: TreeSize, depth: Optional[int], max_nodes: int, merge: bool) -> TreeTooLargeError:
    """The error for a minimax tree larger than `max_nodes`, naming its size (or a lower bound)."""
    cap = f"max_nodes={max_nodes:,}"
    if size.exact and merge:
        text = f"has {size.distinct:,} distinct positions ({size.nodes:,} nodes as a tree), more than {cap}"
    elif size.exact:
        text = f"has {size.nodes:,} nodes ({size.distinct:,} distinct positions), more than {cap}"
    elif merge and size.distinct - 1 > max_nodes:
        text = f"has more than {size.distinct - 1:,} distinct positions, more than {cap}"
    elif not merge and size.nodes > max_nodes:
        text = f"has at least {size.nodes:,} nodes, more than {cap}"
    else:       # found by the build or the count of positions
        text = f"has more than {cap} {'distinct positions' if merge else 'nodes'}"
    return TreeTooLargeError(
        f"the minimax tree {_reach(depth)} {text}: give a smaller depth, truncate=True (the "
        "first max_nodes nodes, breadth first) or mode='pv'")


def check_size(position: Position, depth: Optional[int], max_nodes: int, merge: bool = False,
               progress: Optional[bool] = None) -> Optional[int]:
    """Refuse a minimax tree larger than `max_nodes` before anything is searched: a
    `TreeTooLargeError` naming its size. Returns the size (nodes, or distinct positions when
    `merge`) when known. Counting stops at `COUNT_BUDGET` distinct positions (under a second);
    past it a tree is refused when the count's lower bound is past `max_nodes`, a merged tree
    after counting its positions up to `max_nodes` (with `progress`; far cheaper than building
    them); else None: the build checks as it goes."""
    size = tree_size(position, depth, budget=COUNT_BUDGET)    # exact if it can be: the message names it
    measure = size.distinct if merge else size.nodes
    if measure > max_nodes:
        raise _too_large(size, depth, max_nodes, merge)
    if size.exact:
        return measure
    if merge:
        distinct = _count_positions(position, depth, max_nodes, progress)
        if distinct is None:
            raise _too_large(size, depth, max_nodes, merge)
        return distinct
    return None


# -- minimax and pv ---------------------------------------------------------------------------

def _child_id(parent_id: str, move: Move) -> str:
    return f"{parent_id}{move}" if parent_id == ROOT else f"{parent_id}/{move}"


def _pv_too_large(depth: Optional[int], max_nodes: int) -> TreeTooLargeError:
    return TreeTooLargeError(
        f"the principal variation {_reach(depth)} with every alternative has more than "
        f"max_nodes={max_nodes:,} nodes: give a smaller depth, a larger max_nodes or truncate=True")


def _new_graph(position: Position, mode: str, depth: Optional[int], merge: bool,
               objective: str = "value") -> nx.DiGraph:
    g = nx.DiGraph()
    g.graph.update(tree_mode=mode, root=ROOT, position=position.to_string(), to_move=position.to_move,
                   depth=-1 if depth is None else depth, merge_transpositions=merge, truncated=False)
    rules = position.rules
    if rules.is_family:
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


def _minimax(position: Position, depth: Optional[int], max_nodes: int, truncate: bool,
             merge: bool, tt_mb: Optional[float], threads: Optional[int], mode: str,
             progress: Optional[bool], objective: str = "value") -> nx.DiGraph:
    """Breadth first, one batch of values per level (`_Valuer`): for two sides a node's
    analysis gives every child's exact value (the child's value is minus the move's value: the
    players alternate); three or more sides and max^n value the children themselves."""
    total = None
    if mode == "minimax" and not truncate:
        total = check_size(position, depth, max_nodes, merge, progress)
    bar = progress_bar(total or (None if mode == "pv" else max_nodes), f"{mode} tree", progress, "nodes")
    try:
        return _build(position, depth, max_nodes, truncate, merge, tt_mb, threads, mode, bar, objective)
    finally:
        bar.close()


def _build(position: Position, depth: Optional[int], max_nodes: int, truncate: bool, merge: bool,
           tt_mb: Optional[float], threads: Optional[int], mode: str, bar,
           objective: str = "value") -> nx.DiGraph:
    g = _new_graph(position, mode, depth, merge, objective)
    limit = 1 << 30 if depth is None else depth
    positions = {ROOT: position}        # the positions of the nodes still to expand
    where: dict[tuple, str] = {position.kernel_state(): ROOT}
    valuer = _Valuer(position, objective, tt_mb, threads)
    margin = valuer.margin
    # the root's value is `solve`'s in every case (paranoid: the root's side is the kernel's own)
    solved = solve(position, tt_mb=tt_mb, objective=objective)
    g.add_node(ROOT, **_node_attributes(position, 0, solved.value, margin=margin))
    if objective == "maxn":
        g.nodes[ROOT]["points"] = tuple(solved.points)
    bar.update(1)
    pv = solved.pv

    def too_large() -> TreeTooLargeError:
        if mode == "pv":
            return _pv_too_large(depth, max_nodes)
        return _too_large(tree_size(position, depth, budget=COUNT_BUDGET), depth, max_nodes, merge)

    level, d, cut = [ROOT], 0, None
    while level and d < limit and cut is None:
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
        batch = valuer.rows([positions[n] for n in todo[:fits]], threads=threads)
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
                    g.add_node(cid, **_node_attributes(row.child, d + 1, row.child_value, margin=margin,
                                                        dealt=row.dealt))
                    if row.points is not None:
                        g.nodes[cid]["points"] = row.points
                    next_level.append(cid)
                edge = _edge_attributes(pos, row.move, row.scopa, row.value, row.value == node_value)
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
            if not data["expanded"] and not data["terminal"] and data["depth"] < limit]
        for n in frontier:
            g.nodes[n]["truncated"] = True
    return _finish(g, pv)


# -- the public entry point -------------------------------------------------------------------

def to_networkx(position: Position, *, depth: Optional[int] = None, max_nodes: int = 10_000,
                mode: str = "minimax", merge_transpositions: bool = False, truncate: bool = False,
                tt_mb: Optional[float] = None, threads: Optional[int] = None,
                search: str = "solve", full_window: bool = False,
                progress: Optional[bool] = None, objective: str = "value",
                time_limit: Optional[float] = None) -> nx.DiGraph:
    """The game tree below `position` as a networkx DiGraph.

    mode="minimax": every line of play to the end of the round (or `depth` plies), every node
    with its exact value. mode="pv": the principal variation with every alternative at each
    step, one level deep, each with its exact value. mode="search": the tree the solver's
    search really explored, in order, for `search="solve"` (value, best moves and principal
    variation, as `solve`), `"value"` (the value only, as `solve_values`) or `"analyze"` (every
    move's value, as `analyze`), with `tt_mb` and `full_window` as in `solve`; on a fresh
    table, so its node count equals the solver's on a cold table (see trace.py).

    `merge_transpositions=True` makes positions reached along several paths one node (a DAG;
    minimax and pv). `max_nodes` (at most `MAX_TREE_NODES`; a `LimitError` past it) bounds the
    graph: a larger tree is refused before it is built, with a TreeTooLargeError naming its
    size, or with `truncate=True` the graph stops there and marks the nodes left unexpanded
    (`truncated`). `tt_mb` and `threads` are passed to the solver. `progress`: a bar on long
    builds (None: on a terminal after a second; True: always; False: never).

    `objective`: "value" (the margin with two sides; with three or more the paranoid value of
    the root's side at every node) or "maxn" (every node's `points` per side on its max^n line);
    mode="search" traces the value's search only (with three or more sides, the paranoid one).

    `time_limit` (seconds, None: none) bounds the whole build of a minimax or pv tree, every
    search in it included: a tree not built in time raises `TimeLimitError` (a tree has no
    partial answer: its values come from searches to the end). mode="search" is bounded by
    `max_nodes` (the trace stops there).

    Attributes are documented in the module docstring and docs/trees.md."""
    check_position(position)
    depth, max_nodes = check_depth(depth), check_max_nodes(max_nodes)
    kernel.check_tt_mb(tt_mb)
    kernel.check_threads(threads)
    kernel.check_limits(None, time_limit)
    if mode not in MODES:
        raise ScopaError(f"mode must be one of {', '.join(MODES)}, not {excerpt(mode)}")
    if not isinstance(objective, str) or objective not in kernel.OBJECTIVES:
        raise ScopaError(f"objective must be 'value' or 'maxn', not {excerpt(objective)}")
    if mode == "search" and objective != "value":
        # the max^n search is not traced (ext/family_trace.pxi): refused, not imitated
        raise ScopaError("mode='search' traces the search of the value (the margin, or the paranoid value "
                         "with three or more sides), not objective='maxn': use mode='minimax' or 'pv'")
    try:
        if mode == "search":
            if merge_transpositions:
                raise ScopaError("merge_transpositions applies to the minimax and pv trees, not to mode='search'")
            return search_tree(position, depth=depth, max_nodes=max_nodes, truncate=truncate, tt_mb=tt_mb,
                               search=search, full_window=full_window, progress=progress)
        with kernel.time_box(time_limit, f"the {mode} tree"):
            return _minimax(position, depth, max_nodes, truncate, merge_transpositions, tt_mb, threads,
                            mode, progress, objective)
    except MemoryError:
        raise LimitError(f"not enough memory for a tree of up to {max_nodes:,} nodes: give a smaller "
                         "max_nodes or depth") from None
