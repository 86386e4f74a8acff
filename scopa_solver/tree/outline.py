"""The outline of a tree for the terminal.

>>> from scopa_solver import Position
>>> from scopa_solver.tree import to_networkx
>>> print(tree_text(to_networkx(Position(hands=("7d", "3c"), table="4s 3s", dealer=1))))
7d/3c 3s4s -/- - 0/0 0 1 -  P0 to move, value for P0 +4
= P0 7dx3s+4s         +4
  = P1 3c               +4  end 4-0 (cards P0, coins P0, settebello P0, primiera -, scopas 1-0)
"""
from __future__ import annotations

import json

import networkx as nx

from ..core.state import whole
from ..errors import LimitError
from .base import ROOT


def _points(d: dict) -> str:
    points = d["points"]       # a tuple, or JSON text when read back from GraphML or GEXF
    return "/".join(map(str, json.loads(points) if isinstance(points, str) else points))


def tree_text(graph: nx.DiGraph, max_lines: int = 80) -> str:
    """An indented outline of a minimax or pv tree for the terminal: each move, the value for
    player 0 after it (for three or more sides the paranoid value of the root's side; under max^n
    every side's points, ``5/0/0``), ``*`` for optimal moves and ``=`` along the principal variation; at most
    `max_lines` lines (and one to say so)."""
    if whole(max_lines, "max_lines", LimitError) < 1:
        raise LimitError(f"max_lines must be 1 or more, not {max_lines}")
    root = graph.graph.get("root", ROOT)
    lines = []
    data = graph.nodes[root]
    head = f"{data['position']}  P{data['to_move']} to move"
    if "value_p0" in data:
        head += f", value for P0 {data['value_p0']:+d}"
    elif "points" in data:
        head += f", max^n points per side {_points(data)}"
    elif "root_side" in graph.graph:
        head += f", paranoid value for side {graph.graph['root_side']} {data['value']:+d}"
    lines.append(head)
    seen = set()

    def walk(n: str, indent: str) -> None:
        for _, c, e in graph.out_edges(n, data=True):
            if len(lines) >= max_lines:
                return
            d = graph.nodes[c]
            mark = "=" if e.get("pv") else ("*" if e.get("optimal") else " ")
            label = e.get("move") or d.get("pass_kind", "")
            value = f"{d['value_p0']:+d}" if "value_p0" in d else _points(d) if "points" in d else \
                f"{d['value']:+d}" if isinstance(d.get("value"), int) else str(d.get("value", ""))
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
