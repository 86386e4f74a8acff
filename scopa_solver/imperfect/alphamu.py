"""Alpha-mu: the player's choices consistent across the worlds, the opponent clairvoyant.

Alpha-mu (Cazenave and Ventos, for Bridge card play) searches the next few plies over a set of
sampled worlds at once. The player (Max) must make one choice in all the worlds it cannot
tell apart; the opponent (Min) is credited with knowing the world, so it may answer
differently in each. A node's value is therefore not one number but a set of vectors (one
entry per world), each what one strategy of the player below the node secures in every world:

- at the player's information set, the union of its moves' sets (one move for all its worlds);
- at the opponent's turn, for each combination of one vector per opponent move, the worlds'
  minimum over the moves legal in them (a card is playable only in the worlds that hold it);
- at the bottom (`depth` plies down), each world solved exactly by the kernel.

Vectors another one beats or ties in every world are dropped (the Pareto front); `fronts`
bounds how many stay (the best by weighted mean), so that the search stays polynomial; with
no bound the root's best mean is the best pure strategy of the player against a clairvoyant
opponent (tests/test_alphamu.py checks it against every strategy on small cases).

EPIMC (epimc.py) builds the same tree but lets the opponent follow a model of what it sees;
against a fixed model the best strategy needs no fronts (one number per history is enough),
so the fronts are what alpha-mu adds when the opponent is assumed to see everything.

>>> from scopa_solver import Position, play_round, GreedyBot
>>> bot = AlphaMuBot(worlds=6, seed=1, threads=1)
>>> play_round(Position.new_round(seed=5), bot, GreedyBot()).final.is_round_over()
True
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from .. import kernel
from ..errors import LimitError, excerpt
from .epimc import EPIMCBot, check_search, grow_tree, observation
from .view import View

__all__ = ["alphamu_values", "AlphaMuBot", "DEFAULT_FRONTS"]

DEFAULT_FRONTS = 16
"""Vectors kept per node (the best by weighted mean): against 256, it changed 1 move in 30 (a
loss of 0.002 points a view), at a tenth of a second a first-deal view on 50 worlds, a tenth of
256's time (benchmarks/bench_fronts.py, docs/play.md)."""


def _check_fronts(fronts: object) -> Optional[int]:
    if fronts is not None and (not isinstance(fronts, int) or isinstance(fronts, bool) or fronts < 1):
        raise LimitError(f"fronts must be a positive number of vectors (or None: no bound), not {excerpt(fronts)}")
    return fronts


def _pareto(vectors: np.ndarray, weights: np.ndarray, fronts: Optional[int]) -> np.ndarray:
    """The rows no other row beats or ties in every column, best weighted mean first (at most
    `fronts` of them). A row cannot be beaten by one of lower mean, so one pass in mean order
    against the rows kept so far finds them."""
    means = vectors @ weights
    order = np.lexsort((np.arange(len(vectors)), -np.round(means, 9)))
    kept: list[np.ndarray] = []
    for i in order:
        row = vectors[i]
        if not any(np.all(k >= row - 1e-9) for k in kept):
            kept.append(row)
            if fronts is not None and len(kept) == fronts:
                break
    return np.array(kept)


def _parts(group: list, me: int) -> dict[int, list[list[tuple[int, object]]]]:
    """The children of a group of histories by move, each move's split by what the player then
    knows (a new deal tells its new hands apart): lists of (index in the group, child)."""
    parts: dict[int, dict[tuple, list[tuple[int, object]]]] = {}
    for i, node in enumerate(group):
        for packed, child in node.children:
            parts.setdefault(packed, {}).setdefault(observation(child.state, me), []).append((i, child))
    return {packed: list(split.values()) for packed, split in parts.items()}


def _join(sets: list, w: np.ndarray, me: int, weights: np.ndarray, fronts: Optional[int]) -> np.ndarray:
    """Every combination of one vector from each set's front, per world the least of them (the
    group's worlds weigh `w`; a set covers those where its move is legal): the opponent's worst
    move in each world; on disjoint sets, their vectors side by side."""
    result = np.full((1, len(w)), np.inf)
    for items in sets:
        sub = _front([child for _, child in items], me, weights, fronts)
        placed = np.full((len(sub), len(w)), np.inf)
        placed[:, [i for i, _ in items]] = sub
        result = _pareto(np.minimum(result[:, None, :], placed[None, :, :]).reshape(-1, len(w)), w, fronts)
    return result


def _front(group: list, me: int, weights: np.ndarray, fronts: Optional[int]) -> np.ndarray:
    """The set of vectors (rows; columns: the group's histories, one per world) of histories the
    player cannot tell apart (the same public plays since the root and the same own hands), so
    with the same mover, the same legal moves and the same end of the tree."""
    first = group[0]
    if first.terminal:
        return np.array([[node.value for node in group]])
    parts = _parts(group, me)
    w = weights[[node.world for node in group]]
    if first.state.to_move == me:       # one move for every world: the union of the moves' fronts
        return _pareto(np.vstack([_join(parts[p], w, me, weights, fronts) for p in sorted(parts)]), w, fronts)
    return _join([items for p in sorted(parts) for items in parts[p]], w, me, weights, fronts)


def _every_move(state: kernel.KernelState, bottom: bool) -> tuple[list[int], list[float]]:
    """The opponent's branching in alpha-mu's tree: every legal move (the reach is not used)."""
    packed = kernel.legal_moves(state)
    return packed, [1.0] * len(packed)


def alphamu_values(view: View, worlds: Sequence[tuple[int, ...]], weights: Optional[Sequence[float]] = None,
                   depth: int = 2, fronts: Optional[int] = DEFAULT_FRONTS, threads: Optional[int] = None,
                   tt_mb: Optional[float] = None, horizon: Optional[int] = None) -> np.ndarray:
    """The worlds x moves matrix (columns in the order of `view.legal_moves()`, rows the worlds,
    hidden groups as `View.enumerate_groups` makes them) of the player's round margin after each
    move in each world, under the strategy for the next `depth` plies that is best on the
    weighted mean (`weights`, default equal) against a clairvoyant opponent (module docstring);
    perfect play by both after that. The weighted mean of a column is the move's value.
    `fronts=None` keeps every vector: exact, but the fronts can grow exponentially with the
    depth (for tests and small cases). `horizon` is `nonfused_values`'s (the bottom searched
    that many plies past the deal in play and scored statically).

    >>> view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    >>> alphamu_values(view, list(view.sample_groups(4, seed=1)), depth=2, threads=1).shape
    (4, 3)
    """
    depth, weights = check_search(view, worlds, weights, depth)
    fronts = _check_fronts(fronts)
    if horizon is not None:
        kernel.check_horizon(horizon)
    me = view.player
    roots, _ = grow_tree(view, worlds, depth, _every_move, horizon, threads, tt_mb)
    parts = _parts(roots, me)
    w = np.asarray(weights, dtype=float)
    out = np.zeros((len(worlds), len(view.legal_moves())))
    for j, move in enumerate(view.legal_moves()):    # each move's best vector: its front's first
        out[:, j] = _join(parts[move.packed], w, me, w, fronts)[0]
    return out


class AlphaMuBot(EPIMCBot):
    """`EPIMCBot` with alpha-mu's values (`alphamu_values`, `fronts` vectors a node) while the
    worlds are sampled: the same posterior worlds and the same play once they are enumerated
    (the modelled reply) and in the last deal; `endgame` as in `EPIMCBot`."""

    def __init__(self, worlds: int = 50, seed: int = 0, threads: Optional[int] = None, depth: int = 2,
                 fronts: Optional[int] = DEFAULT_FRONTS, **options) -> None:
        super().__init__(worlds=worlds, seed=seed, threads=threads, depth=depth, **options)
        self.fronts = _check_fronts(fronts)
        if self.prune:
            raise LimitError("alpha-mu follows every reply of the opponent: prune is EPIMC's option only")
        self.name = self.name.replace("EPIMC(", "AlphaMu(", 1).replace(", ", f", fronts {fronts}, ", 1)

    def _values(self, view: View, worlds: list[tuple[int, ...]], weights: list[float]) -> np.ndarray:
        if view.count_worlds() <= self.exact_limit:
            return super()._values(view, worlds, weights)
        return alphamu_values(view, worlds, weights, self.depth, self.fronts, self.threads, self.tt_mb, self.horizon)
