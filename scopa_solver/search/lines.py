"""Several lines (python-chess's MultiPV), why one move beats another, and ties broken honestly.

`lines` gives the best N moves of a known position, each with its own value (`analyze`'s) and
its own principal variation: the move, then the principal variation of the position after it
(`solve` of that position: exact when the values are, else one ply shallower than their
horizon). Moves of equal value are put in a stated finer order (`Lines.ties` says which), never
left as N unexplained "best" moves. `explain` compares two lines category by category (cards,
coins, settebello, primiera, scopas; napola and re bello when the rules have them) and says it in
words.

>>> from scopa_solver import Position
>>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
>>> for line in lines(pos, count=2):
...     print(line)
1. 7dx3s+4s +5 exact: 7dx3s+4s 3b 2c 4c
2. 2c -4 exact: 2c 4cx4s 7d 3bx3s
>>> print(explain(pos, "2c"))
7dx3s+4s (+5) is better than 2c (-4) by 9 points: wins the cards 6 to 0 (2c: 0 to 6) +2; wins the coins 1 to 0 (2c: 0 to 1) +2; keeps the settebello +2; wins primiera (2c: loses it) +2; scopas 1 to 0 (2c: 0 to 0) +1.

Values are those of `analyze` (the margin for the side to move; "maxn": the mover's side's
points). With three or more sides under "value" (paranoid) each line after its first move is
searched from the root mover's seat too (its side maximises, every other side minimises), so the
lines say what that side can guarantee, as the values do.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Union

from ..core.cards import iter_cards
from ..core.position import Move, Position, RoundScore
from ..errors import LimitError, ScopaError
from .. import kernel
from ..kernel import Limit
from .solver import Analysis, MoveValue, SearchResult, analyze, solve

__all__ = ["LinesError", "Line", "Lines", "Why", "lines", "explain", "compare", "depth_ties", "category_points", "CATEGORIES",
           "CATEGORY_NAMES", "scopa_given"]

# The categories of a round's points, as `category_points` names them, in the order they are told.
CATEGORIES = ("cards", "coins", "settebello", "primiera", "scopas", "napola", "re_bello")
CATEGORY_NAMES = {"cards": "the cards", "coins": "the coins", "settebello": "the settebello", "primiera": "primiera",
          "scopas": "scopas", "napola": "napola", "re_bello": "the re bello"}


class LinesError(ScopaError, ValueError):
    """A request for lines or a why that cannot be answered (a count out of range, a move that
    is not legal)."""


def _limit(limit: Optional[Limit]) -> Limit:
    if limit is None:
        return Limit()
    if not isinstance(limit, Limit):
        raise LimitError(f"limit must be a Limit (e.g. Limit(time=2)), not {type(limit).__name__}")
    return limit


def category_points(score: RoundScore, side: int) -> dict[str, int]:
    """The round points `side` scored in each category of `score` (`CATEGORIES`); they add up
    to its points (``score.total[side]``).

    >>> s = Position.from_string("-/- - 7d6cAdRs/3b - 1/0 0 1 0").round_score()
    >>> category_points(s, 0)
    {'cards': 1, 'coins': 1, 'settebello': 1, 'primiera': 0, 'scopas': 1, 'napola': 0, 're_bello': 0}
    """
    me = score.players[side]
    return {"cards": int(score.carte == side), "coins": int(score.denari == side),
            "settebello": int(score.settebello == side), "primiera": int(score.primiera == side),
            "scopas": me.scopas, "napola": me.napola, "re_bello": int(score.re_bello == side)}


@dataclass(frozen=True)
class Line:
    """One of `lines`: a legal move, its value for the side to move (as `analyze` gives it), and
    its principal variation `pv` (the move first), exact to the end of the round when `exact`,
    else to `horizon` plies. `outcome`: the round's score at the end of an exact line (else the
    piles' score at the horizon, or None). `finer`: what ordered it among moves of its value
    (exact, "value": the points its side ends the round with on this line; "maxn": its side's
    margin there; None at a horizon, where the search's own finer evaluation orders them)."""

    rank: int
    move: Move
    value: Optional[int]
    pv: tuple[Move, ...]
    horizon: Optional[int]
    outcome: Optional[RoundScore]
    side: int
    finer: Optional[int] = None

    @property
    def exact(self) -> bool:
        return self.value is not None and self.horizon is None

    @property
    def points(self) -> Optional[int]:
        """The side's round points at the end of the line (exact lines only)."""
        return self.outcome.total[self.side] if self.outcome is not None and self.exact else None

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "move": str(self.move), "value": self.value, "exact": self.exact,
                "horizon": self.horizon, "pv": [str(m) for m in self.pv], "side": self.side,
                "points": self.points, "finer": self.finer,
                "outcome": None if self.outcome is None else self.outcome.to_dict()}

    def __str__(self) -> str:
        value = "?" if self.value is None else f"{self.value:+d}"
        depth = "exact" if self.exact else f"depth {self.horizon}"
        return f"{self.rank}. {self.move} {value} {depth}: {' '.join(map(str, self.pv))}"


class Lines(list[Line]):
    """`lines`' answer: the best lines, best first (a list), with `analysis` (the `Analysis`
    they come from: every move's value), `ties` (how moves of the best value were ordered, in
    words; empty when one move is best) and `objective`."""

    def __init__(self, rows: list[Line], analysis: Analysis, ties: str, objective: str) -> None:
        super().__init__(rows)
        self.analysis, self.ties, self.objective = analysis, ties, objective

    @property
    def exact(self) -> bool:
        return bool(self.analysis.exact)

    @property
    def horizon(self) -> Optional[int]:
        horizon: Optional[int] = self.analysis.horizon
        return horizon

    def to_dict(self) -> dict[str, Any]:
        return {"position": self.analysis.result.position.to_string(), "objective": self.objective,
                "exact": self.exact, "horizon": self.horizon, "ties": self.ties,
                "lines": [line.to_dict() for line in self]}


def _child_limit(limit: Limit, rows: Analysis) -> Optional[Limit]:
    """The limit of the search after each line's first move: none but the table's and threads'
    when the values are exact (each child was searched exactly inside the root's search); one
    ply shallower than the values' horizon otherwise; None when no ply is left to search."""
    base = Limit(tt_mb=limit.tt_mb, threads=limit.threads)
    if rows.exact:
        return base
    if rows.horizon is None or rows.horizon <= 1:
        return None
    return base.replace(horizon=rows.horizon - 1)


def _line(position: Position, row: MoveValue, rows: Analysis, limit: Optional[Limit], objective: str) -> Line:
    """The line of `row`'s move: the move, then the principal variation of the position after it."""
    side = position.rules.sides[position.to_move]
    child = position.play(row.move)
    horizon = None if rows.exact else rows.horizon
    if child.is_round_over():
        return Line(0, row.move, row.value, (row.move,), horizon, child.round_score(), side)
    if limit is None:
        return Line(0, row.move, row.value, (row.move,), horizon, None, side)
    if objective == "value" and position.rules.side_count > 2:
        result = _paranoid_for(child, limit, position.to_move)
    else:
        result = solve(child, limit, objective=objective)
    return Line(0, row.move, row.value, (row.move, *result.pv), horizon, result.outcome, side)


def _paranoid_for(child: Position, limit: Limit, seat: int) -> SearchResult:
    """The paranoid search of `child` from `seat`'s side (it maximises, the others minimise): the
    line after a root move by `seat`. `limit` is `_child_limit`'s (no nodes or time): one search."""
    with kernel.borrow_searcher(limit) as searcher:
        raw = searcher.search_many([child.kernel_state()], kernel.WANT_BEST | kernel.WANT_PV, 0, 0.0, False,
                                   "value", limit.horizon or 0, limit.workers, None, seat)[0]
    return SearchResult(child, raw)


def _finer(line: Line, objective: str) -> Optional[int]:
    if not line.exact or line.outcome is None:
        return None
    return line.outcome.margin(line.side) if objective == "maxn" else line.outcome.total[line.side]


def _who(position: Position, side: int) -> str:
    rules = position.rules
    return f"player {side}" if rules.players == 2 else f"side {side}"


def lines(position: Position, limit: Optional[Limit] = None, *, count: int = 3, objective: str = "value",
          searched: Optional[Analysis] = None) -> Lines:
    """The best `count` moves of `position`, each with its value and its own principal variation
    (a `Line`), best first: python-chess's MultiPV. The values are `analyze`'s under `limit`
    (`searched`: an `Analysis` of the position already made, used instead of searching again);
    each line after its first move is `solve` of the position it leads to, exact when the
    values are (then it ends the round), else one ply shallower than their horizon.

    Moves of equal value are ordered, and `Lines.ties` says how: exact, by the points the
    side ends the round with on each line (more first; under "maxn" by its margin there); at a
    horizon, as the search's finer evaluation ranks them (`Analysis.best_moves`). Moves still
    equal keep `analyze`'s order and the text says so.

    >>> from scopa_solver import Position
    >>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    >>> [(str(l.move), l.value, l.exact) for l in lines(pos, count=1)]
    [('7dx3s+4s', 5, True)]
    """
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise LinesError(f"count must be a whole number of lines from 1, not {count!r}")
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    limit = _limit(limit)
    rows = searched if searched is not None else analyze(position, limit, objective=objective)
    if not rows:
        return Lines([], rows, "", objective)
    child_limit = _child_limit(limit, rows)
    # every move that may be among the first `count` once equal values are ordered
    cut = rows[min(count, len(rows)) - 1].value
    chosen = [r for r in rows if r.value is not None and cut is not None and r.value >= cut] or list(rows[:count])
    made = [_line(position, r, rows, child_limit, objective) for r in chosen]
    made = [Line(0, ln.move, ln.value, ln.pv, ln.horizon, ln.outcome, ln.side, _finer(ln, objective)) for ln in made]
    order = {m: k for k, m in enumerate(rows.best_moves)} if not rows.exact else {}

    def key(ln: Line) -> tuple[int, int, int]:
        value = -ln.value if ln.value is not None else 10**6
        finer = -ln.finer if ln.finer is not None else 0
        return (value, order.get(ln.move, len(order)), finer)

    made.sort(key=key)
    top = [Line(k + 1, ln.move, ln.value, ln.pv, ln.horizon, ln.outcome, ln.side, ln.finer)
           for k, ln in enumerate(made[:count])]
    return Lines(top, rows, _ties(position, rows, made, objective), objective)


def _ties(position: Position, rows: Analysis, made: list[Line], objective: str) -> str:
    """How the moves of the best value were ordered, in words ('' when one move is best)."""
    best = made[0].value if made else None
    tied = [ln for ln in made if best is not None and ln.value == best]
    if len(tied) < 2:
        return ""
    who = _who(position, made[0].side)
    head = f"{len(tied)} moves share the best value {best:+d}"
    if not rows.exact:
        return depth_ties(rows)
    what = f"{who}'s margin at the round's end" if objective == "maxn" else f"{who}'s points at the round's end"
    shown = ", ".join(f"{ln.move} {ln.finer}" for ln in tied)
    text = f"{head}; ordered by {what} on each one's line, more first ({shown})"
    if len({ln.finer for ln in tied}) == 1:
        return f"{head}; {what}: equal on every line ({tied[0].finer}), so any of them"
    for finer in dict.fromkeys(ln.finer for ln in tied):
        same = [str(ln.move) for ln in tied if ln.finer == finer]
        if len(same) > 1:
            text += f"; {' and '.join(same)} are equal on that too"
    return text


def depth_ties(rows: Analysis) -> str:
    """How a depth-limited `Analysis` orders moves of the best value, in words ('' when one move
    has it, or the values are exact: `lines` orders those): the search's finer evaluation at the
    horizon ranks them (`Analysis.best_moves`)."""
    if rows.exact or not rows or rows[0].value is None:
        return ""
    tied = [r.move for r in rows if r.value == rows[0].value]
    if len(tied) < 2:
        return ""
    head = f"{len(tied)} moves share the best value {rows[0].value:+d} at depth {rows.horizon}"
    ranked = [str(m) for m in rows.best_moves if m in tied]
    why = "the search's finer evaluation at the horizon (the cards and points taken by then)"
    if len(ranked) == len(tied):
        return f"{head}: {why} cannot tell them apart; any of them"
    return f"{head}: {why} puts {', '.join(ranked) or tied[0]} first"


@dataclass(frozen=True)
class Why:
    """`explain`'s answer: the line of `move` against the line of `against`, the difference of
    their final scores by category (`categories`: `CATEGORIES` name -> `move`'s minus
    `against`'s, in round points of the side's margin under "value" (with three or more sides
    over the best other side on each line, as the paranoid value counts), of its own points under
    "maxn"; only when both lines' outcomes are known), and `reasons`: the same in words, the
    largest first. With two exact lines the categories add up to `difference`."""

    move: Line
    against: Line
    measure: str
    categories: dict[str, int]
    reasons: tuple[str, ...]

    @property
    def difference(self) -> Optional[int]:
        """The move's value minus the other's (None when either is unknown)."""
        if self.move.value is None or self.against.value is None:
            return None
        return self.move.value - self.against.value

    @property
    def exact(self) -> bool:
        return self.move.exact and self.against.exact

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move.to_dict(), "against": self.against.to_dict(), "difference": self.difference,
                "exact": self.exact, "measure": self.measure, "categories": dict(self.categories),
                "reasons": list(self.reasons), "text": str(self)}

    def __str__(self) -> str:
        a, b, d = self.move, self.against, self.difference
        shown = "{:+d}" if self.measure == "margin" else "{:d}"
        va = "?" if a.value is None else shown.format(a.value)
        vb = "?" if b.value is None else shown.format(b.value)
        depth = "" if self.exact else f" (estimates at depth {a.horizon or b.horizon}; the piles as they stand there)"
        if d is None:
            head = f"{a.move} ({va}) against {b.move} ({vb}){depth}"
        elif d == 0:
            head = f"{a.move} ({va}) is as good as {b.move} ({vb}){depth}"
        else:
            better, worse = (a, b) if d > 0 else (b, a)
            head = (f"{better.move} ({shown.format(better.value)}) is better than {worse.move} "
                    f"({shown.format(worse.value)}) by "
                    f"{abs(d)} point{'s' if abs(d) != 1 else ''}{depth}")
        if not self.reasons and self.categories:
            return f"{head}: the same points in every category."
        return head + (": " + "; ".join(self.reasons) if self.reasons else "") + "."


def _sides(score: RoundScore, side: int) -> tuple[int, ...]:
    return tuple(s for s in range(len(score.players)) if s != side)


def _state(winner: Optional[int], side: int) -> str:
    return "wins" if winner == side else "shares" if winner is None else "loses"


def _reasons(position: Position, a: Line, b: Line, measure: dict[str, int]) -> list[str]:
    """The categories that differ, in words, from the side's point of view (the largest first),
    then a scopa either line gives the other side at once."""
    sa, sb = a.outcome, b.outcome
    assert sa is not None and sb is not None
    side = a.side
    other = _sides(sa, side)[0] if len(sa.players) == 2 else None
    said: list[tuple[int, str]] = []

    def count(score: RoundScore, cat: str) -> str:
        field = {"cards": "cards", "coins": "coins", "scopas": "scopas", "napola": "napola"}[cat]
        mine = getattr(score.players[side], field)
        return f"{mine} to {getattr(score.players[other], field)}" if other is not None else f"{mine}"

    for cat in CATEGORIES:
        pts = measure[cat]
        if not pts:
            continue
        if cat in ("cards", "coins"):
            wa, wb = (sa.carte, sb.carte) if cat == "cards" else (sa.denari, sb.denari)
            text = f"{_state(wa, side)} {CATEGORY_NAMES[cat]} {count(sa, cat)} ({b.move}: {count(sb, cat)})"
        elif cat in ("settebello", "re_bello"):
            wa = sa.settebello if cat == "settebello" else sa.re_bello
            wb = sb.settebello if cat == "settebello" else sb.re_bello
            text = f"keeps {CATEGORY_NAMES[cat]}" if wa == side else f"gives up {CATEGORY_NAMES[cat]}" if wb == side \
                else f"{CATEGORY_NAMES[cat]} goes elsewhere"
        elif cat == "primiera":
            text = f"{_state(sa.primiera, side)} primiera ({b.move}: {_state(sb.primiera, side)} it)"
        elif cat == "scopas":
            text = f"scopas {count(sa, cat)} ({b.move}: {count(sb, cat)})"
        else:
            text = f"napola {count(sa, cat)} ({b.move}: {count(sb, cat)})"
        said.append((pts, f"{text} {pts:+d}"))
    said.sort(key=lambda x: -abs(x[0]))
    words = [t for _, t in said]
    for line in (b, a):
        gift = scopa_given(position, line)
        if gift:
            words.append(gift)
    return words


def scopa_given(position: Position, line: Line) -> str:
    """'2c leaves 9 on the table: a scopa for the opponent (3bx...)' when the next play of the
    line is a scopa by another side ('' otherwise)."""
    if len(line.pv) < 2:
        return ""
    child = position.play(line.move)
    reply = line.pv[1]
    if child.rules.sides[child.to_move] == line.side or not child.is_scopa(reply):
        return ""
    table = list(iter_cards(child.table))
    total = sum(c.rank for c in table)
    opp = "the opponent" if position.rules.players == 2 else f"side {child.rules.sides[child.to_move]}"
    return f"{line.move} leaves {total} on the table: a scopa for {opp} ({reply})"


def explain(position: Position, move: Union[Move, str, None] = None, against: Union[Move, str, None] = None,
            limit: Optional[Limit] = None, *, objective: str = "value",
            searched: Optional[Analysis] = None) -> Why:
    """Why `move` (default: the best line's) scores what it does against `against` (default:
    the best line's move, or the second line's when `move` is the best): their `lines`, the
    difference of their final scores by category, and the same in words (a `Why`).

    >>> from scopa_solver import Position
    >>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    >>> why = explain(pos)
    >>> str(why.move.move), str(why.against.move), why.difference, sum(why.categories.values())
    ('7dx3s+4s', '2c', 9, 9)
    """
    limit = _limit(limit)
    top = lines(position, limit, count=2, objective=objective, searched=searched)
    if len(top.analysis) < 2:
        raise LinesError("there is nothing to compare: the position has fewer than two legal moves")
    rows = top.analysis
    child_limit = _child_limit(limit, rows)

    def line_of(wanted: Union[Move, str]) -> Line:
        try:
            m = Move.parse(wanted, position) if isinstance(wanted, str) else wanted
        except ScopaError as exc:
            raise LinesError(f"not a legal move here: {exc}") from None
        for ln in top:
            if ln.move == m:
                return ln
        for r in rows:
            if r.move == m:
                ln = _line(position, r, rows, child_limit, objective)
                return Line(0, ln.move, ln.value, ln.pv, ln.horizon, ln.outcome, ln.side, _finer(ln, objective))
        raise LinesError(f"{m} is not a legal move here")

    first = top[0] if move is None else line_of(move)
    if against is None:
        second = top[0] if first.move != top[0].move else top[1]
    else:
        second = line_of(against)
    if move is not None and against is None and first.move != top[0].move:
        first, second = second, first       # the best line against the move asked about
    if first.move == second.move:
        raise LinesError(f"{first.move} against itself: name another move")
    return compare(position, first, second, objective)


def compare(position: Position, first: Line, second: Line, objective: str = "value") -> Why:
    """The `Why` of two lines of `position` already made (`lines`, `explain`'s, searched for
    `objective`): their final scores' difference by category, in words; no search."""
    margin = objective == "value"
    measure: dict[str, int] = {}
    reasons: tuple[str, ...] = ()
    if first.outcome is not None and second.outcome is not None:
        side = first.side
        pa, pb = category_points(first.outcome, side), category_points(second.outcome, side)
        if margin:
            # against the other side (paranoid: the best other side on each line), so that the
            # categories add up to the difference of the values
            oa = category_points(first.outcome, _best_other(first.outcome, side))
            ob = category_points(second.outcome, _best_other(second.outcome, side))
            measure = {c: (pa[c] - oa[c]) - (pb[c] - ob[c]) for c in CATEGORIES}
        else:
            measure = {c: pa[c] - pb[c] for c in CATEGORIES}
        reasons = tuple(_reasons(position, first, second, measure))
    return Why(first, second, "margin" if margin else "points", measure, reasons)


def _best_other(score: RoundScore, side: int) -> int:
    """The other side with the most points at the round's end (the first of equals)."""
    return max(_sides(score, side), key=lambda s: (score.total[s], -s))
