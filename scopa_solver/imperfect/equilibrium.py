"""The equilibrium of the last two deals: the endgame as the real imperfect-information game.

`equilibrium(view)` builds the game that remains from a view at the last-but-one deal (see
`endgame_game`: chance deals the cards the public has not seen, uniformly; information sets are
a player's own hand and the public plays; the last deal, perfect information, is solved exactly
by the kernel, averaged over its 20 deals) and computes an approximate Nash equilibrium with
CFR+ (regret matching+, alternating updates, linearly weighted average strategy) over the
game's flat arrays, vectorized with numpy layer by layer.

Definitions (every figure is in round points: the viewer's points minus the opponent's, scopas
already made included, the sign convention of `solve`):

- `value`: the viewer's expected margin at its actual information set (its real hand, the
  opponent's hand and the stock uniformly unknown) when both play the average strategies;
- `strategy`: the average strategy's probability of each legal move there;
- `move_values`: the expected margin of playing the move, then both following the equilibrium;
- `losses`: the best move's value minus the move's value (>= 0; 0 for the best);
- `game_value`: the same at the public root, in expectation over the chance deal (the game's
  value up to the exploitability: within 2 x `exploitability` of the exact value);
- `exploitability`: NashConv / 2 at the public root: the mean, over the two players, of what a
  best response against the other's strategy gains over the equilibrium value (0 at an exact
  equilibrium; in points of the round).

At the last deal (an empty stock) the opponent's cards are known and the game is the kernel's
exact solve: the strategy is uniform over the optimal moves and the exploitability 0.

>>> view = View.from_string("3b7b/?2 7s Ad3d5dCd4c5cFcCc2s4s5s6s2b5b6bFb/6d7dFdRd2c3c6cRcAsFsCsAbCb ?6 0/0 0 1 1")
>>> eq = equilibrium(view, Limit(threads=1))
>>> str(eq.best), round(eq.strategy[eq.best], 3), round(eq.losses[Move.parse("3b")], 3), eq.exploitability < 0.01
('7bx7s', 0.991, 1.893, True)
>>> eq.worlds, eq.leaves, eq.leaf_solves     # 10 cards unseen by the public; 945 end-of-deal states
(1260, 945, 18900)
"""
from __future__ import annotations

import math
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .. import kernel
from ..core.cards import iter_cards, popcount
from ..text import plural
from ..core.position import Move
from ..errors import LimitError, excerpt
from ..kernel import NO_LIMIT, Limit
from ..progress import Heartbeat, rate
from .endgame_game import EndgameGame, Layer, build_game, check_view
from ..core.view import View, view_seed

__all__ = ["equilibrium", "Equilibrium", "EquilibriumEndgame", "solve_game", "strategy_profile", "DEFAULT_TARGET", "DEFAULT_MAX_ITERATIONS"]

DEFAULT_TARGET = 0.01
"""Stop once the exploitability (round points) is below this."""
DEFAULT_MAX_ITERATIONS = 10_000
_CHECK_EVERY = 10          # iterations between two exploitability measurements


@dataclass
class Equilibrium:
    """The outcome of `equilibrium` (definitions in the module docstring)."""

    view: View
    value: float
    strategy: dict[Move, float]
    move_values: dict[Move, float]
    losses: dict[Move, float]
    exploitability: float
    iterations: int
    nodes: int                  # kernel nodes of the leaf solves (0 at the last deal)
    worlds: int                 # chance outcomes of the game (1 at the last deal)
    seconds: float
    exact: bool = False         # the last deal: solved exactly
    stopped: Optional[str] = None   # "time" or "iterations" if a limit stopped it above the target
    target: float = DEFAULT_TARGET
    leaves: int = 0             # distinct end-of-deal states (each solved over its 20 last deals)
    leaf_solves: int = 0        # kernel searches of last deals
    histories: int = 0          # nodes of the game tree (histories)
    infosets: int = 0
    build_seconds: float = 0.0
    history: list[tuple[int, float]] = field(default_factory=list, repr=False)   # (iteration, exploitability) measured
    game_value: Optional[float] = None   # the viewer's expected margin at the public root (over chance)

    @property
    def best(self) -> Move:
        """The most probable move (ties: the higher value, then the move's text)."""
        return min(self.strategy, key=lambda m: (-round(self.strategy[m], 12), -self.move_values[m], str(m)))

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready), moves by their text in the order of `moves_by_probability`."""
        moves = self.moves_by_probability()
        return {"view": self.view.to_string(), "value": self.value, "best": str(self.best),
                "moves": [{"move": str(m), "probability": self.strategy[m], "value": self.move_values[m],
                           "loss": self.losses[m]} for m in moves],
                "exploitability": self.exploitability, "target": self.target, "exact": self.exact,
                "stopped": self.stopped, "iterations": self.iterations, "nodes": self.nodes,
                "worlds": self.worlds, "leaves": self.leaves, "leaf_solves": self.leaf_solves,
                "game_value": self.game_value, "histories": self.histories, "infosets": self.infosets, "seconds": self.seconds,
                "build_seconds": self.build_seconds}

    def moves_by_probability(self) -> list[Move]:
        return sorted(self.strategy, key=lambda m: (-round(self.strategy[m], 12), -self.move_values[m], str(m)))

    def __str__(self) -> str:
        head = f"{'move':<12} {'prob':>7} {'value':>8} {'loss':>7}"
        rows = [f"{str(m):<12} {100 * self.strategy[m]:6.1f}% {self.move_values[m]:+8.3f} {self.losses[m]:7.3f}"
                for m in self.moves_by_probability()]
        if self.exact:
            tail = f"value {self.value:+.3f} (last deal: exact solve), {plural(self.nodes, 'node')}, {self.seconds:.2f} s"
        else:
            tail = (f"value {self.value:+.3f}, exploitability {self.exploitability:.4f} after "
                    f"{plural(self.iterations, 'iteration')}; {plural(self.worlds, 'world')}, "
                    f"{plural(self.leaves, 'end-of-deal state')} ({plural(self.leaf_solves, 'last-deal solve')}, "
                    f"{plural(self.nodes, 'node')}), {self.seconds:.2f} s"
                    + {None: "", "time": ", stopped by the time limit",
                       "iterations": ", stopped by the iteration limit"}.get(self.stopped, ""))
        return "\n".join([head] + rows + [tail])


# -- CFR+ over the layered arrays -------------------------------------------------------------

class _Solver:
    """CFR+ on an `EndgameGame`: arrays over sequences (regrets, average strategy) and per-layer
    passes (reach top-down, values bottom-up) with numpy."""

    def __init__(self, game: EndgameGame) -> None:
        self.g = game
        n = game.sequences
        self.regret = np.zeros(n)
        self.avg = np.zeros(n)
        self.layers = game.layers
        self.depth = len(game.layers) - 1          # decision layers
        # per information set: the sequence of the same player that led to it (-1: none)
        self.iset_pseq = np.full(game.infosets, -1, dtype=np.int64)
        for k in range(2, self.depth):
            self.iset_pseq[self.layers[k].isets] = _own_prev_seq(self.layers, k)
        # sequence ranges of each layer's information sets (contiguous)
        self.seq_range = []
        for k in range(self.depth):
            child = self.layers[k + 1]
            self.seq_range.append((int(child.seq.min()), int(child.seq.max()) + 1))
        self.iset_range = []
        for k in range(self.depth):
            iset = self.layers[k].isets
            self.iset_range.append((int(iset.min()), int(iset.max()) + 1))
        self.uniform = 1.0 / game.seq_count[game.seq_iset]
        self.chance = np.full(game.worlds, 1.0 / game.worlds)

    def strategy(self, table: np.ndarray) -> np.ndarray:
        """Normalize nonnegative weights per information set (uniform where they sum to 0)."""
        g = self.g
        if not len(table):
            return table
        sums = np.add.reduceat(table, g.seq_start)[g.seq_iset]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(sums > 0, table / np.where(sums > 0, sums, 1.0), self.uniform)

    def reach(self, sigma: np.ndarray, player: int) -> list[np.ndarray]:
        """Per layer: the reach of chance and `player`'s opponent (sigma's), at each history."""
        out = [self.chance]
        for k in range(self.depth):
            child = self.layers[k + 1]
            r = out[k][child.parent]
            if k % 2 != player:
                r = r * sigma[child.seq]
            out.append(r)
        return out

    def iterate(self, player: int, t: int) -> None:
        g = self.g
        sigma = self.strategy(self.regret)
        reach = self.reach(sigma, player)
        sign = 1.0 if player == 0 else -1.0
        v = g.terminal
        for k in range(self.depth - 1, -1, -1):
            child = self.layers[k + 1]
            if k % 2 == player:
                lo, hi = self.seq_range[k]
                q = np.bincount(child.seq - lo, weights=reach[k + 1] * v, minlength=hi - lo)
                s = sigma[lo:hi]
                ilo = self.iset_range[k][0]
                isets = g.seq_iset[lo:hi] - ilo
                V = np.bincount(isets, weights=s * q)
                self.regret[lo:hi] = np.maximum(self.regret[lo:hi] + sign * (q - V[isets]), 0.0)
            v = np.bincount(child.parent, weights=sigma[child.seq] * v, minlength=len(self.layers[k]))
        # the average strategy: weight t times the player's own reach of each information set
        own = self.own_reach(sigma, player)
        mine = g.iset_player[g.seq_iset] == player
        self.avg[mine] += t * (own * sigma)[mine]

    def own_reach(self, sigma: np.ndarray, player: int) -> np.ndarray:
        """Per sequence: `player`'s own reach of its information set (product of its earlier
        probabilities along the path)."""
        g = self.g
        reach_iset = np.ones(g.infosets)
        seq_reach = np.zeros(g.sequences)
        for k in range(self.depth):
            if k % 2 != player:
                continue
            ilo, ihi = self.iset_range[k]
            p = self.iset_pseq[ilo:ihi]
            reach_iset[ilo:ihi] = np.where(p >= 0, seq_reach[np.maximum(p, 0)], 1.0)
            lo, hi = self.seq_range[k]
            seq_reach[lo:hi] = reach_iset[g.seq_iset[lo:hi]] * sigma[lo:hi]
        per_seq: np.ndarray = reach_iset[g.seq_iset]
        return per_seq

    def average(self) -> np.ndarray:
        return self.strategy(self.avg)

    def values(self, sigma: np.ndarray) -> list[np.ndarray]:
        """Per layer: every history's expected value (A's margin) when both play `sigma`."""
        v = self.g.terminal
        out = [v]
        for k in range(self.depth - 1, -1, -1):
            child = self.layers[k + 1]
            v = np.bincount(child.parent, weights=sigma[child.seq] * v, minlength=len(self.layers[k]))
            out.append(v)
        return out[::-1]

    def best_response(self, sigma: np.ndarray, player: int) -> float:
        """`player`'s best-response value (its own margin) against the other's `sigma`."""
        g = self.g
        reach = self.reach(sigma, player)
        sign = 1.0 if player == 0 else -1.0
        v: np.ndarray = sign * g.terminal     # float values (bincount with weights gives floats)
        for k in range(self.depth - 1, -1, -1):
            child = self.layers[k + 1]
            if k % 2 == player:
                lo, hi = self.seq_range[k]
                q = np.bincount(child.seq - lo, weights=reach[k + 1] * v, minlength=hi - lo)
                ilo, ihi = self.iset_range[k]
                starts = g.seq_start[ilo:ihi] - lo
                best_q = np.maximum.reduceat(q, starts)
                isets = g.seq_iset[lo:hi] - ilo
                # the first sequence reaching the best of its information set
                is_best = q >= best_q[isets]
                first = np.full(ihi - ilo, hi - lo, dtype=np.int64)
                np.minimum.at(first, isets[is_best], np.nonzero(is_best)[0])
                pick = np.zeros(hi - lo)
                pick[first] = 1.0
                v = np.bincount(child.parent, weights=pick[child.seq - lo] * v, minlength=len(self.layers[k]))
            else:
                v = np.bincount(child.parent, weights=sigma[child.seq] * v, minlength=len(self.layers[k]))
        return float(np.dot(self.chance, v))

    def exploitability(self, sigma: np.ndarray) -> float:
        """NashConv / 2 of `sigma` (round points)."""
        return 0.5 * (self.best_response(sigma, 0) + self.best_response(sigma, 1))


def _own_prev_seq(layers: list[Layer], k: int) -> np.ndarray:
    """For each history of layer k (k >= 2): the mover's own sequence that led to it, i.e. the
    sequence into its grandparent's child (the mover's previous decision, two plays up)."""
    parent = layers[k].parent                  # into layer k - 1 (the opponent's decision)
    seq: np.ndarray = layers[k - 1].seq[parent]     # the sequence into layer k - 1: the mover's own, two up
    return seq


def solve_game(game: EndgameGame, *, target: float = DEFAULT_TARGET, max_iterations: Optional[int] = None,
               deadline: Optional[float] = None,
               tally: Optional[dict[str, Any]] = None
               ) -> tuple[np.ndarray, float, int, Optional[str], list[tuple[int, float]], "_Solver"]:
    """CFR+ until the exploitability is below `target` (round points) or a limit: the average
    strategy (per sequence), its exploitability, the iterations, what stopped it, the
    measurements. `tally` (a dict), when given, gets the "iterations" and the last
    "exploitability" measured as they come."""
    solver = _Solver(game)
    limit = DEFAULT_MAX_ITERATIONS if max_iterations is None else max_iterations
    history: list[tuple[int, float]] = []
    if solver.depth == 0:               # no decision left but the last play (collapsed)
        return solver.average(), 0.0, 0, None, history, solver
    t = 0
    stopped = None
    expl = math.inf
    while True:
        t += 1
        solver.iterate(0, t)
        solver.iterate(1, t)
        if tally is not None:
            tally["iterations"] = t
        last = t >= limit or (deadline is not None and time.monotonic() >= deadline)
        if t % _CHECK_EVERY == 0 or last or t <= 2:
            expl = solver.exploitability(solver.average())
            history.append((t, expl))
            if tally is not None:
                tally["exploitability"] = expl
            if expl <= target:
                break
            if last:
                stopped = "iterations" if t >= limit else "time"
                break
    return solver.average(), expl, t, stopped, history, solver


def strategy_profile(game: EndgameGame, sigma: np.ndarray) -> dict[tuple[int, int, tuple[int, ...]], dict[int, float]]:
    """`sigma` (per sequence) as behaviour at every information set: {(player, own hand at the
    root (mask), public plays since the root (packed moves)): {packed move: probability}},
    player 0 the viewer. The last play of the deal (perfect information, valued by the best
    capture) has no entry. For tests and inspection: it lists every information set."""
    out: dict[tuple[int, int, tuple[int, ...]], dict[int, float]] = {}
    hands = (game.hand_a, game.hand_b)
    for k, layer in enumerate(game.decision_layers):
        first = np.full(game.infosets, -1, dtype=np.int64)
        first[layer.isets[::-1]] = np.arange(len(layer) - 1, -1, -1)
        for iset in np.unique(layer.isets):
            node = int(first[iset])
            plays = []
            j, up = node, k
            while up > 0:
                plays.append(int(game.seq_move[int(game.layers[up].seq[j])]))
                j = int(game.layers[up].parent[j])
                up -= 1
            lo, n = int(game.seq_start[iset]), int(game.seq_count[iset])
            key = (k % 2, int(hands[k % 2][layer.world[node]]), tuple(reversed(plays)))
            out[key] = {int(game.seq_move[lo + i]): float(sigma[lo + i]) for i in range(n)}
    return out


# -- the API ----------------------------------------------------------------------------------

def equilibrium(view: View, limit: Optional[Limit] = None, *, max_iterations: Optional[int] = None,
                target: float = DEFAULT_TARGET, progress: Optional[bool] = False) -> Equilibrium:
    """The equilibrium of the last two deals at the view's information set (module docstring).

    The view must be two-player Scopa, at the viewer's turn, with a stock of 6 cards (the
    last-but-one deal, any play of it) or none (the last deal: the exact solve); anything else
    is a `ViewError`. The `limit` (None: none): its `threads` solve the last deals (None or
    0: every core); its `time` (seconds) or `deadline` bounds the whole call: the last deals
    must be solved within it (else a `LimitError`), then CFR+ stops at it (`stopped` "time");
    its `nodes` bounds each last-deal search (a `LimitError` beyond); `tt_mb`: each worker's
    table. `max_iterations` bounds CFR+ (`stopped` "iterations"); `target` is the
    exploitability (round points) to reach. Ctrl-C interrupts.
    `progress`: a heartbeat on standard error (`progress.Heartbeat`: the last deals solved, their
    nodes and nodes/s, then CFR+'s iterations and exploitability, and the time), never by
    default, on a terminal with None, always with True.
    """
    start = time.perf_counter()
    view = check_view(view)
    limit = NO_LIMIT if limit is None else limit
    cores = os.cpu_count() or 1         # threads None: every core (a Limit's 0 is already)
    if max_iterations is not None and (not isinstance(max_iterations, int) or isinstance(max_iterations, bool)
                                       or max_iterations < 1):
        raise LimitError(f"max_iterations must be a positive whole number, not {excerpt(max_iterations)}")
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not target >= 0 or math.isnan(target):
        raise LimitError(f"target must be a number of round points, 0 or more, not {excerpt(target)}")
    deadline = kernel.budget_deadline(None if limit.time is None and limit.deadline is None
                                      else limit.end(time.monotonic()))     # a bot's budget too
    limit = limit.replace(time=None, deadline=deadline, threads=cores if limit.threads is None else limit.threads)
    if view.stock_cards == 0:
        return _last_deal(view, start, limit)
    tally: dict[str, Any] = {}
    with Heartbeat(lambda: _progress_line(tally, time.perf_counter() - start), progress):
        game = build_game(view, limit, tally=tally)
        built = time.perf_counter() - start
        tally["built"] = built
        if game.root_moves:                 # the viewer's last card of the deal: perfect information
            values = {Move.from_packed(m): float(v) for m, v in game.root_moves}
            return _pure(view, values, start, game, built)
        sigma, expl, iters, stopped, history, solver = solve_game(game, target=float(target),
                                                                  max_iterations=max_iterations, deadline=deadline,
                                                                  tally=tally)
    # the viewer's information set at the root: its actual hand
    root = game.layers[0]
    w = int(np.nonzero(game.hand_a == view.hand)[0][0])
    iset = int(root.isets[w])
    lo, n = int(game.seq_start[iset]), int(game.seq_count[iset])
    values_by_layer = solver.values(sigma)
    child = game.layers[1]
    mine = (child.seq >= lo) & (child.seq < lo + n)
    q: np.ndarray = np.bincount(child.seq[mine] - lo, weights=values_by_layer[1][mine], minlength=n)
    cnt = np.bincount(child.seq[mine] - lo, minlength=n)
    q = q / np.maximum(cnt, 1)
    moves = [Move.from_packed(game.seq_move[lo + j]) for j in range(n)]
    probs = sigma[lo:lo + n]
    move_values = {m: float(x) for m, x in zip(moves, q)}
    best = max(move_values.values())
    return Equilibrium(view=view, value=float(np.dot(probs, q)),
                       strategy={m: float(p) for m, p in zip(moves, probs)}, move_values=move_values,
                       losses={m: best - x for m, x in move_values.items()}, exploitability=max(0.0, expl),
                       iterations=iters, nodes=game.nodes, worlds=game.worlds,
                       seconds=time.perf_counter() - start, stopped=stopped, target=float(target),
                       leaves=game.leaves, leaf_solves=game.leaf_solves, histories=game.histories,
                       infosets=game.infosets, build_seconds=built, history=history,
                       game_value=float(np.dot(solver.chance, values_by_layer[0])))


def _progress_line(tally: dict[str, Any], elapsed: float) -> str:
    """The heartbeat's line: the last deals' solves, then CFR+'s iterations."""
    nodes = tally.get("nodes", 0)
    if "built" not in tally:
        return (f"last deals {tally.get('solved', 0):,}/{tally.get('solves', 0):,} · {nodes:,} nodes · "
                f"{rate(nodes, elapsed)} n/s · {elapsed:.0f} s")
    expl = tally.get("exploitability")
    return (f"CFR+ iteration {tally.get('iterations', 0):,} · exploitability "
            f"{'–' if expl is None or expl == math.inf else f'{expl:.4f}'} · {nodes:,} nodes · {elapsed:.0f} s")


def _pure(view: View, values: dict[Move, float], start: float, game: Optional[EndgameGame], built: float,
          nodes: int = 0, exact: bool = False) -> Equilibrium:
    """A perfect-information decision: uniform over the best moves, exploitability 0."""
    best = max(values.values())
    top = [m for m, v in values.items() if v == best]
    return Equilibrium(view=view, value=float(best),
                       strategy={m: (1.0 / len(top) if m in top else 0.0) for m in values},
                       move_values=dict(values), losses={m: best - v for m, v in values.items()},
                       exploitability=0.0, iterations=0, nodes=game.nodes if game is not None else nodes,
                       worlds=game.worlds if game is not None else 1, seconds=time.perf_counter() - start,
                       exact=exact, leaves=game.leaves if game else 0, leaf_solves=game.leaf_solves if game else 0,
                       histories=game.histories if game else 0, build_seconds=built,
                       game_value=float(game.terminal.mean()) if game is not None else float(best))


def _last_deal(view: View, start: float, limit: Limit) -> Equilibrium:
    """The last deal: the opponent holds the unseen cards; the kernel's exact solve (one
    search: the limit's `nodes`, and the time to its `deadline`)."""
    position = view.world(list(iter_cards(view.unseen)), ())
    deadline = limit.deadline
    left = None if deadline is None else max(1e-6, deadline - time.monotonic())
    raw = kernel.run_batch([position.kernel_state()], want=kernel.WANT_ALL,
                           limit=Limit(nodes=limit.nodes, time=left, tt_mb=limit.tt_mb))[0]
    bounds = raw.move_bounds or []
    if raw.stop != kernel.StopReason.NONE or len(bounds) != len(raw.moves) or any(lower != upper for lower, upper in bounds):
        raise LimitError("the last deal could not be solved within the limits: allow more")
    values = {Move.from_packed(m): float(lower) for m, (lower, _) in zip(raw.moves, bounds)}
    nodes = raw.nodes
    return _pure(view, values, start, None, 0.0, nodes=nodes, exact=True)



class EquilibriumEndgame:
    """A bot's endgame (`EPIMCBot(endgame=...)`): at the last-but-one deal, the equilibrium's
    move; elsewhere None, and the bot decides.

    `max_hidden` skips the biggest games: the equilibrium is asked only when the cards hidden
    from the public (the viewer's hand and its unseen cards, 12 at the deal's first play, 11 at
    the second...) are at most that many. `mixed=True` draws the move from the equilibrium
    strategy (seeded by `seed` and the view: unexploitable, reproducible), else the most
    probable move is played. The last deal is left to the bot: it is perfect information, where
    a bot that models its opponent can gain on the exact solve's move. `limit` as for
    `equilibrium`: a time limit that stops CFR+ early still gives the average strategy so
    far, and one too short to solve the last deals gives None. A bot's decision budget
    (`kernel.time_budget`) is a limit too, but a CFR+ run it cuts gives None: the bot's own move
    (EPIMC's) is then a better answer than a strategy still far from the equilibrium.

    >>> from scopa_solver import View
    >>> view = View.from_string("3b7b/?2 7s Ad3d5dCd4c5cFcCc2s4s5s6s2b5b6bFb/6d7dFdRd2c3c6cRcAsFsCsAbCb ?6 0/0 0 1 1")
    >>> str(EquilibriumEndgame(limit=Limit(threads=1))(view))
    '7bx7s'
    """

    def __init__(self, limit: Optional[Limit] = None, *, max_hidden: int = 12, mixed: bool = False,
                 seed: int = 0) -> None:
        if isinstance(max_hidden, bool) or not isinstance(max_hidden, int) or max_hidden < 1:
            raise LimitError(f"max_hidden must be a positive whole number, not {excerpt(max_hidden)}")
        self.max_hidden, self.mixed, self.seed = max_hidden, bool(mixed), seed
        self.limit = NO_LIMIT if limit is None else limit
        self.calls = 0          # equilibria computed

    def __call__(self, view: View) -> Optional[Move]:
        if not view.rules.is_standard or view.stock_cards != 6 or not view.is_my_turn():
            return None
        if popcount(view.hand | view.unseen) > self.max_hidden:
            return None
        try:
            eq = equilibrium(view, self.limit)
        except LimitError:              # the last deals not solved in time: the bot decides
            return None
        if eq.stopped == "time" and kernel.budget_left() == 0:     # the budget cut CFR+
            return None
        self.calls += 1
        if not self.mixed:
            return eq.best
        moves = eq.moves_by_probability()
        return random.Random(view_seed(self.seed, view)).choices(moves, [eq.strategy[m] for m in moves])[0]

    def __repr__(self) -> str:
        return f"EquilibriumEndgame(max_hidden={self.max_hidden}, mixed={self.mixed})"
