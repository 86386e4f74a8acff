"""What every tree module shares: the root's id, the error for a tree too large, the node cap and
the argument checks. (Here, not in build.py, so that the builder can call the traced search and
the trace can use these without an import circle.)

>>> check_max_nodes(10_000)
10000
>>> check_max_nodes(10 ** 9)
Traceback (most recent call last):
...
scopa_solver.errors.LimitError: max_nodes=1,000,000,000 is more than a tree can have (at most 10,000,000 nodes)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..core.position import Position
from ..errors import LimitError, ScopaError, excerpt

ROOT = "/"
MAX_TREE_NODES = 10_000_000     # a networkx node with its attributes takes ~2 KB: ~20 GB at the cap


class TreeTooLargeError(ScopaError):
    """The tree asked for has more nodes than `max_nodes` allows."""


def _number(n: int) -> str:
    # str() of an int past 4,300 digits raises: say how large instead
    return f"{n:,}" if n.bit_length() < 200 else f"a number of {n.bit_length():,} bits"


def check_position(position: Any) -> Position:
    """`position` if it is a Position; a TypeError otherwise."""
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    return position


def check_max_nodes(max_nodes: Any, name: str = "max_nodes") -> int:
    """A node limit: a whole number from 1 to `MAX_TREE_NODES`; a `LimitError` otherwise."""
    if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1:
        shown = _number(max_nodes) if isinstance(max_nodes, int) and not isinstance(max_nodes, bool) \
            else excerpt(max_nodes)
        raise LimitError(f"{name} must be a positive whole number, not {shown}")
    if max_nodes > MAX_TREE_NODES:
        raise LimitError(f"{name}={_number(max_nodes)} is more than a tree can have "
                         f"(at most {MAX_TREE_NODES:,} nodes)")
    return max_nodes


def check_depth(depth: Any) -> Optional[int]:
    """A depth in plies: None (to the end of the round) or a whole number, 0 or more (one past
    any round's length means the same as None, and becomes None)."""
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 0):
        shown = _number(depth) if isinstance(depth, int) and not isinstance(depth, bool) else excerpt(depth)
        raise LimitError(f"depth must be a whole number of plies, 0 or more, not {shown}")
    return None if depth is not None and depth >= 1 << 30 else depth


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise LimitError(f"{name} must be True or False, not {excerpt(value)}")
    return value


@dataclass(frozen=True)
class TreeOptions:
    """What a tree draws (`to_networkx`), checked once when made (a `LimitError` naming the
    field). How far its searches may go is the `Limit`'s business, not this.

    - `depth`: plies of the tree drawn below the root (None: to the end of the round). Not a
      search horizon: every node's value stays exact however shallow the tree;
    - `max_nodes`: the graph's nodes at most (up to `MAX_TREE_NODES`), not the search's: a
      larger tree is refused before it is built (`TreeTooLargeError`), or cut with `truncate`;
    - `truncate`: stop at `max_nodes` and mark the nodes left unexpanded instead of refusing;
    - `merge_transpositions`: one node per position reached along several paths (a DAG;
      minimax and pv trees).

    >>> TreeOptions(depth=2)
    TreeOptions(depth=2, max_nodes=10000, truncate=False, merge_transpositions=False)
    >>> TreeOptions(max_nodes=0)
    Traceback (most recent call last):
    scopa_solver.errors.LimitError: max_nodes must be a positive whole number, not 0
    """

    depth: Optional[int] = None
    max_nodes: int = 10_000
    truncate: bool = False
    merge_transpositions: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "depth", check_depth(self.depth))
        set_(self, "max_nodes", check_max_nodes(self.max_nodes))
        _flag(self.truncate, "truncate")
        _flag(self.merge_transpositions, "merge_transpositions")


def check_options(options: Any) -> TreeOptions:
    """`options` as a `TreeOptions` (None: the defaults); a `LimitError` for anything else."""
    if options is None:
        return TreeOptions()
    if not isinstance(options, TreeOptions):
        raise LimitError(f"options must be a TreeOptions, not {type(options).__name__}")
    return options
