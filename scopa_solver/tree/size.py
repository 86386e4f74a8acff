"""The size check of a game tree: count the tree below a position through its transpositions
within a budget, and refuse a minimax tree too large before anything is searched.

>>> from scopa_solver import Position
>>> tree_size(Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1), depth=2)
TreeSize(nodes=7, distinct=7, exact=True)
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional

from .. import kernel
from ..core.position import Position
from ..progress import progress_bar
from .base import TreeTooLargeError, check_depth, check_max_nodes, check_position

__all__ = ["TreeSize", "tree_size", "count_tree", "check_size", "COUNT_BUDGET"]

COUNT_BUDGET = 100_000    # distinct positions the size check counts at most (~0.5 s, ~60 MB)


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
    memo: dict[Any, int] = {}
    # the open nodes, innermost last: [state, plies left, its moves, next move, nodes so far]
    stack: list[list[Any]] = [[root, limit, kernel.legal_moves(root) if limit > 0 else [], 0, 1]]
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


def reach(depth: Optional[int]) -> str:
    """How deep a tree goes, for a message."""
    return "to the end of the round" if depth is None else f"to depth {depth}"


def too_large(size: TreeSize, depth: Optional[int], max_nodes: int, merge: bool) -> TreeTooLargeError:
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
        f"the minimax tree {reach(depth)} {text}: give a smaller depth, truncate=True (the "
        "first max_nodes nodes, breadth first) or mode='pv'")


def too_large_when_built(position: Position, depth: Optional[int], max_nodes: int,
                         merge: bool) -> TreeTooLargeError:
    """The error for a minimax tree the build found larger than `max_nodes`: its size as far as
    `COUNT_BUDGET` counts it."""
    return too_large(tree_size(position, depth, budget=COUNT_BUDGET), depth, max_nodes, merge)


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
        raise too_large(size, depth, max_nodes, merge)
    if size.exact:
        return measure
    if merge:
        distinct = _count_positions(position, depth, max_nodes, progress)
        if distinct is None:
            raise too_large(size, depth, max_nodes, merge)
        return distinct
    return None
