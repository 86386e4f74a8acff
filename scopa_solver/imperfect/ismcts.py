"""Past strategy fusion by sampling: information-set Monte Carlo tree search with exact leaves.

`nonfused_values` (EPIMC) expands every move of a fixed number of plies in every world.
`ismcts` grows one tree over the player's information sets instead, deeper where the play is
promising: each iteration takes the next world of the posterior sample (`InferenceBot`'s), walks
down the tree choosing the player's moves by UCB1 on the statistics of the information set it
is in (the same for every world the player cannot tell apart: its own hand and every public
play so far), draws the opponent's moves from the opponent model (softmax of Greedy's score on
what the opponent sees, as in EPIMC), and stops at the first information set not in the tree
yet. That set joins the tree and the world's state there is solved exactly by the kernel: the
value backed up along the path. The leaves are solved in batches of `batch` iterations (one
kernel call, every thread), counting each selection at once so that the batch spreads out.

The root's move with the most visits is the choice; its value is the mean of its iterations.

>>> from scopa_solver import Position, play_round, GreedyBot
>>> bot = ISMCTSBot(iterations=64, seed=1, threads=1)
>>> play_round(Position.new_round(seed=5), bot, GreedyBot()).final.is_round_over()
True
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Optional, Sequence

from .. import kernel
from ..core.position import Move
from ..errors import LimitError, excerpt
from ..play.bots import DECISION_SECONDS, GreedyBot, view_seed, within
from .epimc import check_search, is_over, observation
from .inference import InferenceBot, OpponentPlay, model_replies
from .pimc import EXACT_LIMIT
from .view import View

__all__ = ["ismcts", "ISMCTSResult", "ISMCTSBot"]


@dataclass(frozen=True)
class ISMCTSResult:
    """The root's statistics, in the order of `view.legal_moves()`: `visits` per move, `values`
    the mean round margin of its iterations for the player (None for a move never visited),
    `leaves` the exact searches made and `nodes` the kernel's nodes for them."""

    moves: tuple[Move, ...]
    visits: tuple[int, ...]
    values: tuple[Optional[float], ...]
    leaves: int
    nodes: int

    @property
    def best(self) -> Move:
        """The most visited move (ties: the higher mean value, then the kernel's order)."""
        j = max(range(len(self.moves)),
                key=lambda j: (self.visits[j], -math.inf if self.values[j] is None else self.values[j], -j))
        return self.moves[j]


def _positive(value: object, name: str, kind: type = int) -> None:
    if not isinstance(value, (int, float) if kind is float else int) or isinstance(value, bool) or not value > 0:
        raise LimitError(f"{name} must be a positive number, not {excerpt(value)}")


def ismcts(view: View, worlds: Sequence[tuple[int, ...]], iterations: int = 1000, exploration: float = 2.0,
           batch: int = 32, temperature: float = 0.5, model: Optional[GreedyBot] = None, seed: int = 0,
           threads: Optional[int] = None, tt_mb: Optional[float] = None) -> ISMCTSResult:
    """`iterations` of information-set MCTS from the player's `view` (see the module docstring),
    each in the next of `worlds` (hidden groups, as `View.sample_groups` makes them) in an order
    shuffled by `seed`, round and round. UCB1 with `exploration` (in round points) picks the player's moves, the
    opponent model at `temperature` (`model`: default `GreedyBot()`) the opponent's, `seed`
    their draws; leaves are solved exactly, `batch` at a time on `threads`. A decision's time
    budget (`kernel.time_budget`) ends the iterations early: the root's statistics so far (the
    visits add up to the iterations done; a batch the budget cut is not counted), and
    `kernel.BudgetSpent` when not one was done.

    >>> view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    >>> r = ismcts(view, list(view.sample_groups(8, seed=1)), iterations=40, threads=1)
    >>> sum(r.visits), r.best in view.legal_moves()
    (40, True)
    """
    _positive(iterations, "iterations")
    _positive(batch, "batch")
    _positive(exploration, "exploration", float)
    if not 0 < temperature < math.inf:
        raise LimitError(f"temperature must be positive, not {excerpt(temperature)}")
    check_search(view, worlds, None, 0)
    model = model or GreedyBot()
    me = view.player
    moves = view.legal_moves()
    rng = random.Random(seed)
    order = list(range(len(worlds)))
    rng.shuffle(order)      # a posterior sample comes grouped by the opponent's hand
    root_key = ((), observation(view.state_of(worlds[0]), me))
    tree: dict[tuple, dict[int, list]] = {root_key: {m.packed: [0, 0.0] for m in moves}}
    leaves = nodes = 0
    done = 0
    while done < iterations and not (done and kernel.budget_left() == 0):
        walks = []      # (the [visits, total] entries on the path, the leaf state or None, the value)
        for _ in range(min(batch, iterations - done)):
            state = view.state_of(worlds[order[done % len(order)]])
            done += 1
            history: tuple = ()
            path = []
            while True:
                if is_over(state):
                    walks.append((path, None, float(view.world_position(state).round_score().margin(me))))
                    break
                if state.to_move == me:
                    key = (history, observation(state, me))
                    node = tree.get(key)
                    if node is None:            # a new information set: the leaf of this walk
                        tree[key] = {p: [0, 0.0] for p in kernel.legal_moves(state)}
                        walks.append((path, state, 0.0))
                        break
                    total = sum(n for n, _ in node.values())
                    packed = max(node, key=lambda p: (math.inf if node[p][0] == 0 else
                                                      node[p][1] / node[p][0]
                                                      + exploration * math.sqrt(math.log(total) / node[p][0]), -p))
                    node[packed][0] += 1        # counted now, so the rest of the batch spreads out
                    path.append(node[packed])
                else:
                    replies, probs = model_replies(state, model, temperature)
                    packed = rng.choices(replies, probs)[0]
                history += (packed,)
                state, _ = kernel.play(state, packed)
        states = [state for _, state, _ in walks if state is not None]
        raws = iter(kernel.run_batch(states, want=0, tt_mb=tt_mb, threads=kernel.worker_count(threads, len(states)))
                    if states else ())
        raws = list(raws)
        if len(raws) < len(states) or any(raw is None or raw.stop for raw in raws):
            # the budget cut the batch: it does not count
            for path, _, _ in walks:
                for entry in path:
                    entry[0] -= 1
            break
        raws = iter(raws)
        leaves += len(states)
        for path, state, value in walks:
            if state is not None:
                raw = next(raws)
                nodes += raw.nodes
                value = raw.lower       # a leaf is an information set of the player: its move
            for entry in path:
                entry[1] += value
    root = tree[root_key]
    if not any(root[m.packed][0] for m in moves):
        raise kernel.BudgetSpent
    visits = tuple(root[m.packed][0] for m in moves)
    values = tuple(root[m.packed][1] / root[m.packed][0] if root[m.packed][0] else None for m in moves)
    return ISMCTSResult(tuple(moves), visits, values, leaves, nodes)


ANYTIME_SHARE = 0.9
"""The share of a decision's budget `ISMCTSBot`'s search gets: it stops itself with the
iterations done, so its fallback (when not one batch was) needs little."""


class ISMCTSBot(InferenceBot):
    """`InferenceBot`'s posterior over the opponent's hand, with `ismcts` deciding while the
    worlds are sampled (the first four deals): `iterations` worlds drawn from the posterior, one
    an iteration. From the last-but-one deal on, where every world is weighed, it plays as
    `InferenceBot` (the modelled reply), as `EPIMCBot` does by default.

    >>> ISMCTSBot(iterations=500).name
    'ISMCTS(500, c=2, T=0.5)'
    """

    def __init__(self, iterations: int = 1000, seed: int = 0, threads: Optional[int] = None,
                 exploration: float = 2.0, batch: int = 32, temperature: float = 0.5,
                 exact_limit: int = EXACT_LIMIT, tt_mb: Optional[float] = None,
                 time_limit: Optional[float] = DECISION_SECONDS) -> None:
        _positive(iterations, "iterations")
        _positive(batch, "batch")
        _positive(exploration, "exploration", float)
        super().__init__(worlds=iterations, seed=seed, threads=threads, exact_limit=exact_limit,
                         temperature=temperature, reply=True, tt_mb=tt_mb, time_limit=time_limit)
        if threads is not None:
            kernel.check_threads(threads, 0)
        self.iterations, self.exploration, self.batch = iterations, float(exploration), batch
        self.name = f"ISMCTS({iterations}, c={exploration:g}, T={temperature:g})"

    def _decide(self, view: View, plays: list[OpponentPlay]) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1 or view.count_worlds() <= self.exact_limit:
            return super()._decide(view, plays)
        worlds = [g for g, _ in self._weighted_worlds(view, plays) or ()]      # the posterior's sample
        try:        # anytime: the iterations most of the budget allows; none done: the fallback
            return within(ANYTIME_SHARE, lambda: ismcts(view, worlds, self.iterations, self.exploration, self.batch,
                                                       self.temperature, self.model, view_seed(self.seed, view),
                                                       self.threads, self.tt_mb).best)
        except kernel.BudgetSpent:
            return self._fallback(view, worlds, [1.0 / len(worlds)] * len(worlds))
