"""Past strategy fusion: the perfect-information solve postponed by a few plies (EPIMC).

Determinization (`suggest`) values a move by solving each world exactly right after it: from
the next ply on, both players are credited with seeing every card, so the player "guesses
right" in every world at once (strategy fusion). `nonfused_values` postpones that: it builds the
next `depth` plies after each of the player's moves in every sampled world and solves exactly
only at the bottom. Above it,

- the player's own later moves are one choice per information set: the worlds that look the
  same to the player at that point (the same view: own hand, table, piles, scopas, the
  opponent's card count, the stock) get the same move, the one best on their weighted sum;
- the opponent's replies follow the opponent model of `InferenceBot` (softmax of `GreedyBot`'s
  score on what the opponent sees), an opponent who does not see the player's hand.

With `depth` 0 this is plain determinization (the exact value of each move in each world), with
`depth` 1 the modelled reply of `InferenceBot` (`modelled_values`), with `depth` 2 the player's
next move, after seeing the opponent's reply, is chosen across the worlds rather than per world.

`EPIMCBot` is `InferenceBot` (the posterior over the opponent's hand from its plays of the
deal) with these values while the worlds are sampled (the first four deals); optionally, in the
last deal, where two-player Scopa is a game of perfect information (the player sees every card
the opponent can hold), it plays the exact solver's move. An `endgame` callable, tried first in the last two deals, can take over there.

>>> from scopa_solver import Position, play_round, GreedyBot
>>> bot = EPIMCBot(Limit(time=2, threads=1), worlds=6, seed=1)
>>> play_round(Position.new_round(seed=5), bot, GreedyBot()).final.is_round_over()
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .. import kernel
from ..core.cards import popcount
from ..core.position import Move
from ..errors import LimitError, ViewError, excerpt
from ..kernel import Limit
from .bots import GreedyBot, within
from .inference import InferenceBot, OpponentPlay, model_replies
from ..imperfect.pimc import EXACT_LIMIT, solve_worlds, value_matrix
from ..core.view import View

__all__ = ["nonfused_values", "EPIMCBot", "EPIMCDepths", "MAX_DEPTH"]

MAX_DEPTH = 6
"""The deepest postponement `nonfused_values` accepts: a whole deal (the tree grows about
fivefold a ply, less where `prune` cuts the opponent's unlikely moves)."""

Endgame = Callable[[View], Optional[Move]]


class _Node:
    """One history of the tree in one world: `path` the player's own moves since the root (with
    the observation its information set is keyed on), `reach` the opponent model's probability
    of the opponent's moves on the way."""

    __slots__ = ("state", "world", "reach", "path", "children", "probs", "value", "terminal")

    def __init__(self, state: kernel.KernelState, world: int, reach: float, path: tuple[Any, ...]) -> None:
        self.state = state
        self.world = world
        self.reach = reach
        self.path = path
        self.children: list[tuple[int, "_Node"]] = []   # (packed move, child); leaves: values below
        self.probs: list[float] = []                     # the model's, at the opponent's nodes
        self.value = 0.0
        self.terminal = False


def _check_depth(depth: object) -> int:
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise LimitError(f"depth must be a whole number of plies from 0 to {MAX_DEPTH}, not {excerpt(depth)}")
    return depth


def _check_prune(prune: object) -> float:
    if not isinstance(prune, (int, float)) or isinstance(prune, bool) or not 0 <= prune < 1:
        raise LimitError(f"prune must be a probability from 0 to below 1, not {excerpt(prune)}")
    return float(prune)


@dataclass(frozen=True)
class EPIMCDepths:
    """How far `EPIMCBot` postpones the perfect-information solve, in plies (0 to `MAX_DEPTH`):
    `sampled` while the worlds are sampled (the first four deals), `enumerated` once every
    world is weighed (the last two deals; 1: `InferenceBot`'s modelled reply), `last` in the
    last deal, one world (None: `enumerated`; 6: the best reply to the model); above the bottom
    ply, opponent moves the model gives less than `prune` are not followed. Checked when made
    (a `LimitError` naming the field).

    >>> EPIMCDepths(sampled=4, prune=0.01)
    EPIMCDepths(sampled=4, enumerated=1, last=None, prune=0.01)
    """

    sampled: int = 3
    enumerated: int = 1
    last: Optional[int] = None
    prune: float = 0.0

    def __post_init__(self) -> None:
        for name in ("sampled", "enumerated") + (("last",) if self.last is not None else ()):
            try:
                _check_depth(getattr(self, name))
            except LimitError as error:
                raise LimitError(f"{name} {error}") from None
        object.__setattr__(self, "prune", _check_prune(self.prune))


def _observation(state: kernel.KernelState, me: int) -> tuple[Any, ...]:
    """What the player sees of a world state: its own hand and everything public (with the
    public plays since the root, the key of the player's information set)."""
    hands = state.hands
    return (hands[me], state.table, state.piles[0], state.piles[1], state.scopas[0], state.scopas[1], state.to_move,
            state.last_capturer, popcount(hands[1 - me]), len(state.deals))


def _is_over(state: kernel.KernelState) -> bool:
    """The round is over in a world state: both hands played out and no deal left."""
    return not any(state.hands) and not state.deals


def _check_search(view: View, worlds: Sequence[tuple[int, ...]], weights: Optional[Sequence[float]],
                  depth: object) -> tuple[int, Sequence[float]]:
    """The checks of a search from the player's view over sampled worlds: the depth, and the
    worlds' weights (default: equal)."""
    depth = _check_depth(depth)
    if not view.rules.is_standard:
        raise ViewError("this search over the worlds is for two-player Scopa only")
    if view.to_move != view.player or view.is_round_over():
        raise ViewError(f"player {view.player} is not to move in this view")
    if not len(worlds):
        raise LimitError("the search needs at least one world")
    if weights is None:
        weights = [1.0] * len(worlds)
    if len(weights) != len(worlds):
        raise LimitError(f"{len(weights)} weights for {len(worlds)} worlds")
    return depth, weights


def nonfused_values(view: View, worlds: Sequence[tuple[int, ...]], weights: Optional[Sequence[float]] = None,
                    depth: int = 3, temperature: float = 0.5, limit: Optional[Limit] = None,
                    prune: float = 0.0) -> np.ndarray:
    """The worlds x moves matrix (columns in the order of `view.legal_moves()`) of the player's
    round margin after each move in each world (hidden groups, as `View.enumerate_groups`
    makes them), when the next `depth` plies are played without clairvoyance (see the module
    docstring): the opponent's moves drawn from the softmax-of-Greedy model at `temperature`,
    the player's moves one per information set, chosen to maximize the sum over the worlds of
    that set weighted by `weights` (default: equal) and the model's probabilities; perfect play
    by both sides after that. The weighted mean of a column is the move's value for the player.
    Above the bottom ply, opponent moves the model gives less than `prune` are not followed (the
    others' probabilities renormalized): with a sharp model the tree then hardly branches there.
    The `limit`'s `threads` (None: every core) and `tt_mb` solve the bottom (`solve_worlds`).

    >>> view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    >>> worlds = list(view.sample_groups(4, seed=1))
    >>> nonfused_values(view, worlds, depth=2, limit=Limit(threads=1)).shape
    (4, 3)
    """
    depth, weights = _check_search(view, worlds, weights, depth)
    if not 0 < temperature < math.inf:
        raise LimitError(f"temperature must be positive, not {excerpt(temperature)}")
    prune = _check_prune(prune)
    model = GreedyBot()
    me = view.player
    moves = view.legal_moves()
    column = {m.packed: j for j, m in enumerate(moves)}
    roots, levels = _grow_tree(view, worlds, depth, lambda state, bottom: model_replies(
        state, model, temperature, 0.0 if bottom else prune), limit)
    # back up, deepest first: the opponent's nodes by the model, the player's by information set
    for level in reversed(levels[1:]):
        own: dict[tuple[Any, ...], list[_Node]] = {}
        for node in level:
            if node.terminal:
                continue
            if node.state.to_move == me:
                own.setdefault((node.path, _observation(node.state, me)), []).append(node)
            else:
                node.value = math.fsum(q * child.value for q, (_, child) in zip(node.probs, node.children))
        for group in own.values():
            _choose(group, weights)
    out = np.zeros((len(worlds), len(moves)))
    for root in roots:
        for p, child in root.children:
            out[root.world, column[p]] = child.value
    return out


def _grow_tree(view: View, worlds: Sequence[tuple[int, ...]], depth: int,
               replies: Callable[[kernel.KernelState, bool], tuple[list[int], list[float]]],
               limit: Optional[Limit] = None) -> tuple[list["_Node"], list[list["_Node"]]]:
    """The tree of the next `depth` plies from the view's player's turn in every world (one root
    per world, in order) and its levels: the player's nodes branch on every legal move, the
    opponent's on `replies(state, at_bottom)` (packed moves, their probabilities, multiplied into
    `reach`); a node's `path` holds the player's moves with what it saw then. The bottom level's
    nodes get one leaf per move, valued by an exact solve in the player's margin; terminal
    nodes carry the round's margin."""
    me = view.player
    roots = [_Node(view.state_of(g), i, 1.0, ()) for i, g in enumerate(worlds)]
    levels = [roots]
    for _ in range(depth):          # grow the tree: every non-terminal node of the last level
        level = []
        for k, node in enumerate(levels[-1]):
            if not k & 63:
                kernel.check_time()       # a decision's budget reaches the Python work too
            if node.terminal:
                continue
            state = node.state
            if state.to_move == me:
                packed = kernel.legal_moves(state)
                probs = [1.0] * len(packed)
            else:
                packed, probs = replies(state, False)
                node.probs = probs
            for p, q in zip(packed, probs):
                after, _ = kernel.play(state, p)
                path = node.path + ((p, _observation(state, me)),) if state.to_move == me else node.path
                child = _Node(after, node.world, node.reach * q, path)
                if _is_over(after):
                    child.terminal = True
                    child.value = float(view.world_position(after).round_score().margin(me))
                node.children.append((p, child))
                level.append(child)
        levels.append(level)
    # the bottom: every non-terminal node of the last level is solved exactly, move by move
    bottom = [node for node in levels[-1] if not node.terminal]
    solved = solve_worlds([node.state for node in bottom], limit)
    for k, (node, raw) in enumerate(zip(bottom, solved)):
        if not k & 63:
            kernel.check_time()       # the model's replies below: Python work too
        sign = 1.0 if node.state.to_move == me else -1.0
        if raw is None or raw.move_bounds is None:      # no time limit: never
            raise RuntimeError("a world at the bottom was left unsolved")
        values = {p: sign * lower for p, (lower, _) in zip(raw.moves, raw.move_bounds)}
        if node.state.to_move != me:
            packed, node.probs = replies(node.state, True)
        else:       # the kernel's order may differ between worlds; an information set's may not
            packed = kernel.legal_moves(node.state)
        for p in packed:
            leaf = _Node(node.state, node.world, 0.0, ())
            leaf.terminal, leaf.value = True, values[p]
            node.children.append((p, leaf))
    return roots, levels


def _choose(group: list[_Node], weights: Sequence[float]) -> None:
    """One move for every history of an information set of the player (they have the same
    legal moves, in the same order): the best on the sum over them of world weight x reach x
    value; each node then takes its child's value under that move."""
    count = len(group[0].children)
    totals = [round(math.fsum(weights[n.world] * n.reach * n.children[j][1].value for n in group), 9)
              for j in range(count)]
    best = min(range(count), key=lambda j: (-totals[j], group[0].children[j][0]))
    for node in group:
        node.value = node.children[best][1].value


ENDGAME_SHARE = 0.5
"""The share of a decision's budget `EPIMCBot`'s endgame gets; the bot's own search the rest."""


class EPIMCBot(InferenceBot):
    """`InferenceBot`'s worlds (the opponent's hand from the posterior given its plays of the
    deal) valued by `nonfused_values` with the perfect-information solve postponed by
    `depths.sampled` plies (3: the player's next move is chosen per information set, not per
    world, and the opponent's reply to it follows the model; the best measured, docs/play.md)
    while the worlds are sampled (`worlds` of them), and by `depths.enumerated` plies (default 1:
    the modelled reply of `InferenceBot`) once there are at most `exact_limit` and every world is
    weighed (the last two deals), and by `depths.last` plies (default: `depths.enumerated`) in
    the last deal, one world, where the tree reaches the round's end cheaply (6: the best reply
    to the model); `depths.prune` as in `nonfused_values` (`EPIMCDepths`). With `exact_last`,
    the last deal (one world: perfect information) is played by the exact solver. The
    opponent's moves are scored by `GreedyBot()`'s weights.
    `endgame(view)`, when given, is asked first in the last two deals (`view.deals_left <= 1`);
    a move it returns is played, None leaves the decision to the bot. The `limit`'s `time` is
    the decision's budget (`InferenceBot`; its `threads` and `tt_mb` solve the worlds): the
    endgame gets `ENDGAME_SHARE` of it (the equilibrium endgame gives None when it cannot build
    its game, or finish CFR+, in that), the bot's own search the rest.

    Like `InferenceBot` it remembers its last view per seat to read the opponent's plays, so it
    is a function of what the player has seen this round and of its seed.
    """

    def __init__(self, limit: Optional[Limit] = None, *, worlds: int = 50, seed: int = 0,
                 depths: EPIMCDepths = EPIMCDepths(), temperature: float = 0.5, exact_limit: int = EXACT_LIMIT,
                 exact_last: bool = False, endgame: Optional[Endgame] = None) -> None:
        if not isinstance(worlds, int) or isinstance(worlds, bool) or worlds < 1:
            raise LimitError(f"worlds must be a positive number, not {excerpt(worlds)}")
        super().__init__(limit, worlds=worlds, seed=seed, exact_limit=exact_limit,
                         temperature=temperature, reply=True)
        if endgame is not None and not callable(endgame):
            raise LimitError(f"endgame must be a callable view -> move or None, not {excerpt(endgame)}")
        if not isinstance(depths, EPIMCDepths):
            raise LimitError(f"depths must be an EPIMCDepths, not {excerpt(depths)}")
        self.depths = depths
        self.depth, self.enumerated_depth, self.prune = depths.sampled, depths.enumerated, depths.prune
        self.last_depth = depths.enumerated if depths.last is None else depths.last
        self.endgame = endgame
        self.exact_last = exact_last
        options = [f"d={depths.sampled}", f"T={temperature:g}"]
        options += [f"e={depths.enumerated}"] * (depths.enumerated != 1) + [f"l={depths.last}"] * (depths.last is not None)
        options += ["x"] * bool(exact_last) + [f"prune {depths.prune:g}"] * bool(depths.prune)
        options += ["endgame"] * (endgame is not None)
        self.name = f"EPIMC({worlds}, {', '.join(options)})"

    def _decide(self, view: View, plays: list[OpponentPlay]) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        endgame = self.endgame
        if endgame is not None and view.deals_left <= 1:
            move = within(ENDGAME_SHARE, lambda: endgame(view))
            if move is not None:
                return move
        return super()._decide(view, plays)

    def _values(self, view: View, worlds: list[tuple[int, ...]], weights: list[float]) -> np.ndarray:
        if self.exact_last and view.count_worlds() == 1:     # the last deal: perfect information
            solved = solve_worlds([view.state_of(worlds[0])], self.search)
            return np.repeat(value_matrix(view.legal_moves(), solved)[0], len(worlds), axis=0)
        count = view.count_worlds()
        depth = self.last_depth if count == 1 else self.enumerated_depth if count <= self.exact_limit else self.depth
        return nonfused_values(view, worlds, weights, depth, self.temperature, self.search, self.prune)
