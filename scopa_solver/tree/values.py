"""The values of a tree's nodes, from the exact search: two sides under "value" read `analyze`
(a child's value is minus its move's), three or more sides the paranoid values of the root's
side, and "maxn" trees every side's points at the end of the max^n line. `Valuer.rows` expands
positions into their moves with values, one batch of searches for many positions.
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from .. import kernel
from ..core.position import Move, Position
from ..kernel.limit import Limit
from ..search.solver import analyze_many, solve_many, solve_values

__all__ = ["Row", "Valuer"]


class Row(NamedTuple):
    """One move of an expanded node: the child position and its values."""
    move: Move
    child: Position
    scopa: bool
    dealt: bool              # the move dealt new hands from the stock (a new deal at the child)
    value: int               # the move's value for its mover (an edge's `value`)
    child_value: int         # the child's `value`
    points: Optional[tuple]  # max^n: every side's points after the move (the child's `points`)


class Paranoid:
    """The paranoid values of a tree with three or more sides from one side's view (`side`
    maximises its points minus the best other side's, every other seat minimises that). At a
    node where `side` is to move that is the kernel's paranoid value (`solve_values`); at any
    other the least of its children's, down to `side`'s next turn or the end of the round (at
    most players - 1 plies: the kernel's paranoid search takes the side to move as its own)."""

    def __init__(self, side: int, limit: Limit) -> None:
        self.side, self.limit = side, limit
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
            values = solve_values(list(solve_here.values()), self.limit)
            self.known.update(zip(solve_here, values))
        return [self._value(pos) for pos in positions]

    def _value(self, pos: Position) -> int:
        key = pos.kernel_state()
        if key not in self.known:         # another side to move: it minimises
            self.known[key] = min(self._value(pos.play(m)) for m in pos.legal_moves())
        return self.known[key]


def maxn_points(positions: Sequence[Position], limit: Limit) -> list[tuple]:
    """Every side's round points at the end of the max^n line from each position (`limit`: the
    searches' table and threads, no bound: the values are exact)."""
    out: list = [None] * len(positions)
    todo = []
    for i, pos in enumerate(positions):
        if pos.is_round_over():
            out[i] = tuple(pos.round_score().total)
        else:
            todo.append(i)
    results = solve_many([positions[i] for i in todo], limit, objective="maxn") if todo else []
    for i, result in zip(todo, results):
        assert result.points is not None    # None only when stopped, and no limit was given
        out[i] = tuple(result.points)
    return out


class Valuer:
    """The values of one tree: `rows` expands positions into their moves with values. Two
    sides under "value" (margin trees) read `analyze`, as always; three or more sides read the
    paranoid values of the root's side (`Paranoid`); "maxn" trees solve every child under
    max^n. `limit` holds the searches' table and threads (no bound: the values are exact);
    `rows` searches on one thread unless told."""

    def __init__(self, position: Position, objective: str, limit: Limit) -> None:
        self.objective, self.limit = objective, limit
        self.one = Limit(tt_mb=limit.tt_mb)       # the same table, one thread
        self.sides = position.rules.sides
        self.margin = objective == "value" and position.rules.side_count == 2
        self.root_side = self.sides[position.to_move]
        self.paranoid = None if self.margin or objective == "maxn" else \
            Paranoid(self.root_side, limit)

    def rows(self, positions: Sequence[Position], threads: Optional[int] = None) -> list[list[Row]]:
        if not positions:
            return []
        limit = self.one if threads is None else self.one.replace(threads=threads)
        if self.margin:     # a child's value is minus its move's: the sides alternate
            out = []
            for pos, moves in zip(positions, analyze_many(positions, limit)):
                rows = []
                for mv in moves:
                    child, events = pos.play_events(mv.move)
                    value = mv.value
                    assert value is not None        # an exact analysis (no limit) values every move
                    rows.append(Row(mv.move, child, events.scopa, events.dealt, value, -value, None))
                out.append(rows)
            return out
        played = [[(m, *pos.play_events(m)) for m in pos.legal_moves()] for pos in positions]
        children = [child for moves in played for _, child, _ in moves]
        if self.paranoid is not None:
            values = self.paranoid.values(children)
            points: list = [None] * len(children)
        else:
            points = maxn_points(children, limit)
            values = [p[self.sides[c.to_move]] for p, c in zip(points, children)]
        out, i = [], 0
        for pos, plays in zip(positions, played):
            rows = []
            mover = self.sides[pos.to_move]
            for move, child, events in plays:
                value = values[i] if self.paranoid is not None else points[i][mover]
                rows.append(Row(move, child, events.scopa, events.dealt, value, values[i], points[i]))
                i += 1
            # best first for the mover (stable: the kernel's order among equals, as max^n's ties)
            minimise = self.paranoid is not None and mover != self.root_side
            rows.sort(key=lambda r: r.value if minimise else -r.value)
            out.append(rows)
        return out
