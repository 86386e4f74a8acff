"""Why one move beats another from a player's view: `explain` averaged over the worlds.

`explain_view` draws worlds consistent with a `View` (every world when there are at most
`worlds` of them, else a uniform sample drawn with `seed`, as `suggest` draws them), compares
the two moves' optimal lines on each world with every card known (`explain`, exact unless a
`Limit` says otherwise), and averages the difference of their final scores by category (a
`FairWhy`). Its words and data never name a hidden card: only the two moves (the player's own
cards and the table's), the categories and counts of worlds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from ..core.position import Move, Position
from ..core.view import View
from ..errors import ScopaError
from ..kernel import Limit
from ..search.lines import CATEGORIES, CATEGORY_NAMES, LinesError, explain, scopa_given

if TYPE_CHECKING:  # pragma: no cover
    from .pimc import Suggestion

__all__ = ["FairWhy", "explain_view", "why_worlds", "WHY_WORLDS", "WHY_ALL"]

WHY_WORLDS = 20
"""The worlds of a suggestion's fair why (CLI `suggest --why`, `/api/suggest`'s `why`) when it sampled."""
WHY_ALL = 200
"""A suggestion that listed every world, at most this many, has its fair why over all of them."""

_WON = {"cards": "carte", "coins": "denari", "settebello": "settebello", "primiera": "primiera",
        "re_bello": "re_bello"}


@dataclass(frozen=True)
class FairWhy:
    """`explain_view`'s answer: `move` against `against` over `worlds` worlds of the view.

    `difference`: the mean of (move's value minus against's) over the worlds (round margins of
    the player's side: over the best other side with three or more, as `suggest`'s paranoid
    values); `categories`: the mean difference in each category (`CATEGORIES`), which add up to
    `difference` when every line is exact; `better`/`worse`: in how many worlds `move`'s line does better
    / worse in each category; `won`: for the categories one side takes whole (cards, coins,
    settebello, primiera, re bello), in how many worlds the player's side takes it on each
    line (move's, against's), `lost` in how many another side does (the rest: shared);
    `scopa_given`: in how many worlds each move leaves a scopa to the
    next player at once. `exact`: every world's lines were searched to the round's end."""

    move: Move
    against: Move
    worlds: int
    total_worlds: int
    sampled: bool
    seed: Optional[int]
    exact: bool
    measure: str
    mean_move: float
    mean_against: float
    categories: dict[str, float]
    better: dict[str, int]
    worse: dict[str, int]
    won: dict[str, tuple[int, int]]
    scopa_given: tuple[int, int]
    lost: dict[str, tuple[int, int]]

    @property
    def difference(self) -> float:
        return self.mean_move - self.mean_against

    def reasons(self) -> list[str]:
        """The categories that differ, in words, the largest mean first."""
        n, b = self.worlds, self.against
        said: list[tuple[float, str]] = []
        for cat in CATEGORIES:
            if not self.better[cat] and not self.worse[cat]:
                continue
            mean = self.categories[cat]
            if cat in self.won:
                mine, theirs = self.won[cat]
                if cat in ("settebello", "re_bello"):
                    text = f"keeps {CATEGORY_NAMES[cat]} in {mine:,} of {n:,} worlds (with {b}: {theirs:,})"
                else:
                    lost, lost_b = self.lost[cat]
                    text = (f"wins {CATEGORY_NAMES[cat]} in {mine:,} and loses in {lost:,} of {n:,} worlds "
                            f"(with {b}: {theirs:,} and {lost_b:,})")
            else:
                text = (f"{CATEGORY_NAMES[cat]} better in {self.better[cat]:,} of {n:,} worlds, worse in "
                        f"{self.worse[cat]:,}")
            said.append((mean, f"{text} {mean:+.2f}"))
        said.sort(key=lambda x: -abs(x[0]))
        words = [t for _, t in said]
        for mv, count in ((self.against, self.scopa_given[1]), (self.move, self.scopa_given[0])):
            if count:
                words.append(f"{mv} leaves a scopa to the next player in {count:,} of {n:,} worlds")
        return words

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready); no hidden card is in it."""
        return {"move": str(self.move), "against": str(self.against), "worlds": self.worlds,
                "total_worlds": self.total_worlds, "sampled": self.sampled, "seed": self.seed,
                "exact": self.exact, "measure": self.measure, "mean_move": self.mean_move,
                "mean_against": self.mean_against, "difference": self.difference,
                "categories": dict(self.categories), "better": dict(self.better), "worse": dict(self.worse),
                "won": {c: list(v) for c, v in self.won.items()},
                "lost": {c: list(v) for c, v in self.lost.items()}, "scopa_given": list(self.scopa_given),
                "reasons": self.reasons(), "text": str(self)}

    def __str__(self) -> str:
        d = self.difference
        kind = f"all {self.worlds:,} worlds" if not self.sampled else f"{self.worlds:,} sampled worlds"
        depth = "" if self.exact else ", some lines estimated at a horizon"
        means = f"{self.move} ({self.mean_move:+.2f}) against {self.against} ({self.mean_against:+.2f})"
        if abs(d) < 1e-9:
            head = f"fair why, over {kind}{depth}: {means}, as good on average"
        else:
            word = "better" if d > 0 else "worse"
            head = f"fair why, over {kind}{depth}: {means}, {word} by {abs(d):.2f} points on average"
        reasons = self.reasons()
        if not reasons and self.exact:
            return f"{head}: the same points in every category in every world."
        if not reasons:
            return (f"{head}: the piles at the horizon score the same in every category (the difference "
                    "is the search's evaluation there).")
        return f"{head}: " + "; ".join(reasons) + "."


def why_worlds(suggestion: "Suggestion") -> tuple[Union[int, str], int]:
    """The `worlds` and `seed` of a suggestion's fair why: every world when it listed every one
    and they are at most `WHY_ALL`, else `WHY_WORLDS` drawn with its seed (0 when it listed)."""
    seed = 0 if suggestion.seed is None else suggestion.seed
    if not suggestion.sampled and suggestion.total_worlds <= WHY_ALL:
        return "all", seed
    return WHY_WORLDS, seed


def _worlds(view: View, worlds: Union[int, str], seed: int) -> tuple[list[Position], int, bool]:
    total = view.count_worlds()
    if worlds == "all" or (isinstance(worlds, int) and not isinstance(worlds, bool) and 1 <= worlds
                           and total <= worlds):
        if total > 10_000:
            raise LinesError(f"worlds='all' would explain {total:,} worlds: ask for a sample (a number)")
        return list(view.worlds()), total, False
    if not isinstance(worlds, int) or isinstance(worlds, bool) or not 1 <= worlds <= 10_000:
        raise LinesError(f"worlds must be a number of worlds from 1 to 10,000 or 'all', not {worlds!r}")
    return view.sample_worlds(worlds, seed), total, True


def explain_view(view: View, move: Union[Move, str, None] = None, against: Union[Move, str, None] = None,
                 limit: Optional[Limit] = None, *, worlds: Union[int, str] = 20, seed: int = 0,
                 suggestion: Optional["Suggestion"] = None) -> FairWhy:
    """Why `move` (default: the fair best, `suggest`'s) scores what it does against `against`
    (default: the fair second best; a `move` named alone is the one the fair best is set
    against, as in `explain`) from the player's
    `view`: on each of `worlds` worlds (every world when there are at most that many, else a
    uniform sample drawn with `seed`) the two moves' optimal lines (`explain`, with every card
    of that world known; `limit`: each world's search, default `Limit(nodes=WORLD_NODES)`, exact
    when it fits, as two-player worlds do, else to the horizon reached), their final scores'
    difference by category averaged over the worlds (a `FairWhy`). `suggestion`: a `suggest`
    of this view already made, whose order gives the defaults (else one is made over the same
    worlds and seed). Never names a hidden card."""
    if not isinstance(view, View):
        raise TypeError(f"explain_view takes a View, not {type(view).__name__}")
    if view.is_round_over():
        raise LinesError("the round is over: there is no move to explain")
    if view.to_move != view.player:
        raise LinesError(f"player {view.to_move} is to move, not player {view.player}")
    legal = view.legal_moves()
    if len(legal) < 2:
        raise LinesError("there is nothing to compare: the player has fewer than two legal moves")

    def parse(wanted: Union[Move, str]) -> Move:
        try:
            return view._legal(wanted)
        except ScopaError as exc:
            raise LinesError(f"not a legal move here: {exc}") from None

    positions, total, sampled = _worlds(view, worlds, seed)
    if limit is None:       # as suggest's worlds: exact when it fits, else the horizon reached
        from .pimc import WORLD_NODES
        limit = Limit(nodes=WORLD_NODES)
    first = None if move is None else parse(move)
    second = None if against is None else parse(against)
    if first is None or second is None:
        if suggestion is None:
            from .pimc import suggest
            suggestion = suggest(view, Limit(), worlds=worlds, seed=seed, progress=False)
        order = [m.move for m in suggestion.moves]
        if first is None:
            first = order[0] if second != order[0] else order[1]
        if second is None:      # the fair best against the move asked about (as `explain`)
            first, second = (order[0], first) if first != order[0] else (first, order[1])
    if first == second:
        raise LinesError(f"{first} against itself: name another move")
    objective = "value"     # suggest's: the margin (paranoid with three or more sides)
    sums = dict.fromkeys(CATEGORIES, 0.0)
    better = dict.fromkeys(CATEGORIES, 0)
    worse = dict.fromkeys(CATEGORIES, 0)
    won = {c: [0, 0] for c in _WON}
    lost = {c: [0, 0] for c in _WON}
    gifts = [0, 0]
    va = vb = 0.0
    exact, measure = True, "margin"
    for pos in positions:
        why = explain(pos, first, second, limit, objective=objective)
        measure = why.measure
        exact = exact and why.exact
        va += why.move.value or 0
        vb += why.against.value or 0
        for cat, pts in why.categories.items():
            sums[cat] += pts
            better[cat] += pts > 0
            worse[cat] += pts < 0
        side = why.move.side
        for k, line in enumerate((why.move, why.against)):
            if line.outcome is not None:
                for cat, field in _WON.items():
                    taker = getattr(line.outcome, field)
                    won[cat][k] += taker == side
                    lost[cat][k] += taker is not None and taker != side
            gifts[k] += bool(scopa_given(pos, line))
    n = len(positions)
    return FairWhy(first, second, n, total, sampled, seed if sampled else None, exact, measure, va / n, vb / n,
                   {c: s / n for c, s in sums.items()}, better, worse,
                   {c: (v[0], v[1]) for c, v in won.items()}, (gifts[0], gifts[1]),
                   {c: (v[0], v[1]) for c, v in lost.items()})
