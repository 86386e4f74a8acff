"""The last two deals of two-player Scopa as the imperfect-information game they are.

From a view at the last-but-one deal (the stock holds the last 6 cards) the game that remains
is built from the *public* state: the cards the public has not seen (the viewer's hand and the
cards hidden from the viewer) are dealt by chance, uniformly, into the viewer's remaining hand,
the opponent's remaining hand and the 6-card stock. Uniform: a View has no history, so nothing
is inferred from the plays before it. Every play is public (the card and what it took), so a
player's information set is its own remaining hand and the public plays since the root, and
once both hands are empty the deal's end is public too: the last deal is then perfect
information and its value is the mean, over the 20 ways the stock can be dealt (3 cards to the
non-dealer, 3 to the dealer), of the kernel's exact solve.

The game is stored as flat numpy arrays, one *layer* per play: the histories (world, public
plays) of each depth with their parent, their world, their information set and the *sequence*
(information set, action) that led to them. The last play of the deal is the mover's only card
with the other hand empty, a perfect-information choice (among its captures), so the last layer
holds terminal histories valued directly: the mover's best capture with that card.
"""
from __future__ import annotations

import array
import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .. import kernel
from ..core.cards import ALL_MASK, iter_cards, popcount
from ..errors import LimitError, ViewError
from ..kernel import NO_LIMIT, Limit
from ..core.view import View

__all__ = ["EndgameGame", "Layer", "build_game", "check_view", "DEALS_PER_LEAF"]

DEALS_PER_LEAF = 20       # C(6, 3): the ways the last 6 cards are dealt 3 and 3
_LEAF_CHUNK = 4096        # end-of-deal states solved per kernel batch


@dataclass
class Layer:
    """The histories of one depth (plays since the root). `parent` indexes the previous layer
    (empty for the root layer), `seq` the sequence (global id) that led here, `world` the chance
    outcome, `iset` the information set (global id) of the mover here (decision layers only),
    `pub` the public node (index among the public nodes of this depth)."""

    parent: np.ndarray
    seq: np.ndarray
    world: np.ndarray
    pub: np.ndarray
    iset: Optional[np.ndarray] = None

    def __len__(self) -> int:
        return len(self.world)

    @property
    def isets(self) -> np.ndarray:
        """`iset` of a decision layer (the terminal layer has none)."""
        if self.iset is None:
            raise ValueError("the terminal layer has no information sets")
        return self.iset


@dataclass
class EndgameGame:
    """The game tree as arrays (see the module docstring). Values are the viewer's (player A's,
    the one to move at the root) round margin; A moves at even depths, B at odd ones."""

    view: View
    pool: list[int]                  # the cards the public has not seen, as masks
    worlds: int                      # chance outcomes (A's hand, B's hand), equally likely
    hand_a: np.ndarray               # per world: A's hand (mask)
    hand_b: np.ndarray
    layers: list[Layer]              # decision layers, then the terminal layer
    terminal: np.ndarray             # the terminal layer's values (A's margin)
    seq_iset: np.ndarray             # per sequence: its information set
    seq_start: np.ndarray            # per information set: its first sequence (sequences grouped)
    seq_count: np.ndarray            # per information set: its number of sequences (actions)
    iset_player: np.ndarray          # per information set: 0 (A) or 1 (B)
    seq_move: list = field(repr=False, default_factory=list)   # per sequence: packed move
    leaves: int = 0                  # distinct end-of-deal states solved
    leaf_paths: int = 0              # end-of-deal public leaves before deduplication
    leaf_solves: int = 0             # kernel searches of the last deal
    nodes: int = 0                   # their kernel nodes
    seconds: float = 0.0             # building time (leaf solves included)
    root_moves: list = field(repr=False, default_factory=list)    # one play left: (move, A's value) per option

    @property
    def decision_layers(self) -> list[Layer]:
        return self.layers[:-1]

    @property
    def histories(self) -> int:
        return sum(len(layer) for layer in self.layers)

    @property
    def infosets(self) -> int:
        return len(self.seq_start)

    @property
    def sequences(self) -> int:
        return len(self.seq_iset)


def check_view(view: Any) -> View:
    """The view if the equilibrium can be computed from it; a ViewError naming the problem."""
    if not isinstance(view, View):
        raise TypeError(f"expected a View, not {type(view).__name__}")
    if not view.rules.is_standard:
        raise ViewError(f"the endgame equilibrium is for two-player Scopa, not {view.rules.players} players "
                        f"({view.rules.game})")
    if view.is_round_over():
        raise ViewError("the round is over: there is no move to judge")
    if view.to_move != view.player:
        raise ViewError(f"player {view.to_move} is to move, not player {view.player}: the equilibrium is "
                        "computed at the viewer's own turn")
    if view.stock_cards not in (0, 6):
        raise ViewError(f"the stock holds {view.stock_cards} cards: the endgame equilibrium covers the last two "
                        "deals only (a stock of 6 cards, the last-but-one deal, or none, the last deal)")
    return view


def _combos(cards: list[int], k: int) -> list[int]:
    return [sum(c) for c in itertools.combinations(cards, k)]


def build_game(view: View, limit: Optional[Limit] = None, *, tally: Optional[dict] = None) -> EndgameGame:
    """The game of a view at the last-but-one deal (stock of 6): see the module docstring.
    The `limit` (None: none) for its last deals' searches: `threads` workers (None: 1),
    `nodes` each search (a `LimitError` beyond), `deadline` (or `time` from now) the whole
    build (a `LimitError` if they are not all solved by then), `tt_mb` each worker's table.
    `tally` (a dict), when given, follows the last deals' solves as they land: "solves" to do,
    "solved" so far and their "nodes" (a heartbeat reads it from another thread)."""
    start = time.perf_counter()
    limit = NO_LIMIT if limit is None else limit.with_deadline(limit.time).replace(time=None)
    deadline = limit.deadline
    a, b = view.player, 1 - view.player
    n_a, n_b = popcount(view.hand), view.opponent_cards
    plays = n_a + n_b
    unseen = view.unseen
    pool = [c.mask for c in iter_cards(unseen | view.hand)]
    pool_index = {m: i for i, m in enumerate(pool)}
    # chance: (A's hand, B's hand), A's hand first; hands as masks
    worlds_a, worlds_b = [], []
    for ha in _combos(pool, n_a):
        rest = [c for c in pool if not c & ha]
        for hb in _combos(rest, n_b):
            worlds_a.append(ha)
            worlds_b.append(hb)
    hand_a = np.array(worlds_a, dtype=np.int64)
    hand_b = np.array(worlds_b, dtype=np.int64)
    nw = len(hand_a)
    hand_list = {0: sorted(set(worlds_a)), 1: sorted(set(worlds_b))}
    hand_rank = {p: {h: i for i, h in enumerate(hand_list[p])} for p in (0, 1)}
    hidx = {0: np.array([hand_rank[0][h] for h in worlds_a], dtype=np.int64),
            1: np.array([hand_rank[1][h] for h in worlds_b], dtype=np.int64)}
    # each world's hand as pool indices (n x size), for expanding histories by card
    hcards = {0: np.array([[pool_index[c.mask] for c in iter_cards(h)] for h in worlds_a], dtype=np.int64)
              .reshape(nw, n_a),
              1: np.array([[pool_index[c.mask] for c in iter_cards(h)] for h in worlds_b], dtype=np.int64)
              .reshape(nw, n_b)}

    # -- the public tree: per depth, its nodes' public states, played cards (pool bits) per player
    npool = len(pool)
    root = view.any_world_state()
    seat = (a, b)                    # kernel seat of A and B
    # each public state: (table, pile 0, pile 1, scopas 0, scopas 1, last capturer)
    pub_states: list[list[tuple[int, ...]]] = [[(root.table, root.piles[0], root.piles[1], root.scopas[0], root.scopas[1], root.last_capturer)]]
    pub_played = [[(0, 0)]]          # (A's played pool bits, B's)
    pub_moves: list = [[]]           # per depth >= 1: the packed move into each node
    child_start: list = []           # per depth: (n_pub x npool) first child of (node, card)
    child_count: list = []
    # the last play's children, per (node, card, option): its end-of-deal state (deduplicated:
    # table, piles, last capturer; scopas only add to the margin) and the scopas' margin
    leaf_ids: dict = {}
    leaf_index = array.array("q")
    leaf_scopa = array.array("q")
    cache: dict = {}

    def outcomes(table: int, card: int) -> list:
        """The moves of `card` on `table` as the kernel plays them: (packed move, the table left,
        the cards taken with the card played (0: a lay-down), scopa). They depend on nothing
        else here (never the round's last play), so each pair is asked of the kernel once."""
        found = cache.get((table, card))
        if found is None:
            st = kernel.lone_card_state(table, card, view.rules.flags)
            found = []
            for mv in kernel.legal_moves(st):
                after, events = kernel.play(st, mv)
                found.append((mv, after.table, after.piles[0], int(events.scopa)))
            cache[(table, card)] = found
        return found
    for depth in range(plays):
        mover = depth % 2
        kseat = seat[mover]
        states, played = pub_states[depth], pub_played[depth]
        starts = np.zeros((len(states), npool), dtype=np.int64)
        counts = np.zeros((len(states), npool), dtype=np.int64)
        nxt_states: list[tuple[int, ...]] = []
        nxt_played: list[Any] = []
        nxt_moves: list[Any] = []
        last = depth == plays - 1
        for p, (table, pile0, pile1, s0, s1, lc) in enumerate(states):
            if deadline is not None and not p & 255 and time.monotonic() >= deadline:
                raise LimitError("the time limit ran out while the game was built: allow more time")
            used = played[p][0] | played[p][1]
            for ci in range(npool):
                if used >> ci & 1:
                    continue
                starts[p, ci] = len(nxt_states) if not last else len(leaf_index)
                moves = outcomes(table, pool[ci])
                counts[p, ci] = len(moves)
                for mv, after_table, taken, scopa in moves:
                    if taken:
                        piles = (pile0 | taken, pile1) if kseat == 0 else (pile0, pile1 | taken)
                        key = (after_table, piles[0], piles[1], s0 + (scopa and kseat == 0),
                               s1 + (scopa and kseat == 1), kseat)
                    else:
                        key = (after_table, pile0, pile1, s0, s1, lc)
                    if last:
                        state = (key[0], key[1], key[2], key[5])
                        j = leaf_ids.get(state)
                        if j is None:
                            j = leaf_ids[state] = len(leaf_ids)
                        leaf_index.append(j)
                        leaf_scopa.append(key[3] - key[4] if a == 0 else key[4] - key[3])
                        continue
                    nxt_states.append(key)
                    pa, pb = played[p]
                    nxt_played.append((pa | 1 << ci, pb) if mover == 0 else (pa, pb | 1 << ci))
                    nxt_moves.append(mv)
        child_start.append(starts)
        child_count.append(counts)
        if not last:
            pub_states.append(nxt_states)
            pub_played.append(nxt_played)
            pub_moves.append(nxt_moves)

    # -- the leaves: each distinct end-of-deal state, its 20 last deals solved exactly
    per_state, solves, nodes = _leaf_values(view, list(leaf_ids), limit, tally)
    leaf_values = per_state[np.frombuffer(leaf_index, dtype=np.int64)] + np.frombuffer(leaf_scopa, dtype=np.int64)
    leaves = len(leaf_ids)

    # -- the histories, layer by layer
    layers: list[Layer] = [Layer(parent=np.zeros(0, np.int64), seq=np.zeros(0, np.int64),
                                 world=np.arange(nw, dtype=np.int64), pub=np.zeros(nw, np.int64))]
    iset_offset = 0
    seq_iset_parts: list[np.ndarray] = []
    iset_player_parts: list[np.ndarray] = []
    seq_move_parts: list[Any] = []
    seq_offset = 0
    terminal: Optional[np.ndarray] = None
    root_moves: list = []
    for depth in range(plays):
        mover = depth % 2
        layer = layers[depth]
        w = layer.world
        hands = hcards[mover][w]                                    # n x size: the mover's cards
        played_bits = np.array([pp[mover] for pp in pub_played[depth]], dtype=np.int64)[layer.pub]
        free = ((played_bits[:, None] >> hands) & 1) == 0           # cards still in hand
        if depth == plays - 1:
            # the last play: the mover's only card, its best capture (perfect information)
            ci = np.where(free, hands, -1).max(axis=1)
            start = child_start[depth][layer.pub, ci]
            count = child_count[depth][layer.pub, ci]
            terminal = _best_option(leaf_values, start, count, maximize=mover == 0)
            if depth == 0:      # the viewer's last card of the deal: its options' values
                ci0 = pool_index[view.hand]
                s0, c0 = int(child_start[0][0, ci0]), int(child_count[0][0, ci0])
                st0 = kernel.lone_card_state(root.table, pool[ci0], view.rules.flags)
                root_moves = list(zip(kernel.legal_moves(st0), leaf_values[s0:s0 + c0].tolist()))
            break
        # information sets of this layer: (public node, the mover's hand)
        key = layer.pub * len(hand_list[mover]) + hidx[mover][w]
        iset_keys, iset_local = np.unique(key, return_inverse=True)
        layer.iset = iset_local + iset_offset
        iset_player_parts.append(np.full(len(iset_keys), mover, dtype=np.int8))
        # children: every (history, card in hand, capture option)
        cards = np.where(free, hands, 0)
        cnt = np.where(free, child_count[depth][layer.pub[:, None], cards], 0)   # n x size
        st = child_start[depth][layer.pub[:, None], cards]
        per = cnt.ravel()
        total = int(per.sum())
        parent = np.repeat(np.repeat(np.arange(len(layer), dtype=np.int64), hands.shape[1]), per)
        first = np.repeat(st.ravel(), per)
        offs = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(per) - per, per)
        pub = first + offs
        # sequences: (information set, public child), grouped by information set
        skey = layer.iset[parent] * (len(pub_states[depth + 1]) + 1) + pub
        seq_keys, seq_local = np.unique(skey, return_inverse=True)
        seq_iset_parts.append(seq_keys // (len(pub_states[depth + 1]) + 1))
        child_pub = seq_keys % (len(pub_states[depth + 1]) + 1)
        moves = pub_moves[depth + 1]
        seq_move_parts.extend(moves[int(c)] for c in child_pub)
        layers.append(Layer(parent=parent, seq=seq_local + seq_offset, world=w[parent], pub=pub))
        seq_offset += len(seq_keys)
        iset_offset += len(iset_keys)
    seq_iset = np.concatenate(seq_iset_parts) if seq_iset_parts else np.zeros(0, np.int64)
    n_isets = iset_offset
    seq_count = np.bincount(seq_iset, minlength=n_isets).astype(np.int64)
    seq_start = np.cumsum(seq_count) - seq_count
    iset_player = np.concatenate(iset_player_parts) if iset_player_parts else np.zeros(0, np.int8)
    assert terminal is not None     # the last play (the loop's last depth) sets it
    return EndgameGame(view=view, pool=pool, worlds=nw, hand_a=hand_a, hand_b=hand_b, layers=layers,
                       terminal=terminal, seq_iset=seq_iset, seq_start=seq_start, seq_count=seq_count,
                       iset_player=iset_player, seq_move=seq_move_parts, leaves=leaves, leaf_paths=len(leaf_index),
                       leaf_solves=solves, nodes=nodes, seconds=time.perf_counter() - start,
                       root_moves=root_moves)


def _best_option(values: np.ndarray, start: np.ndarray, count: np.ndarray, maximize: bool) -> np.ndarray:
    """Per history: the best of `count` consecutive leaf values from `start` (A's margin)."""
    width = int(count.max()) if len(count) else 1
    idx = start[:, None] + np.arange(width)[None, :]
    ok = np.arange(width)[None, :] < count[:, None]
    vals = values[np.where(ok, idx, start[:, None])]
    return vals.max(axis=1) if maximize else vals.min(axis=1)


def _leaf_values(view: View, uniq: list, limit: Limit, tally: Optional[dict] = None) -> tuple[np.ndarray, int, int]:
    """A's expected margin (scopas made apart) at every end-of-deal state (table, piles, last
    capturer): the mean of the exact values of the 20 ways to deal the last 6 cards; the
    kernel's searches and nodes."""
    a = view.player
    nondealer = 1 - view.dealer
    sign = 1.0 if nondealer == a else -1.0
    rules = view.rules.flags

    def states(keys: list):
        for table, pile0, pile1, lc in keys:
            stock = ALL_MASK & ~(table | pile0 | pile1)
            cards = [c.mask for c in iter_cards(stock)]
            for part in itertools.combinations(cards, 3):
                x = sum(part)
                hands = [0, 0]
                hands[nondealer] = x
                hands[view.dealer] = stock & ~x
                yield kernel.KernelState(2, tuple(hands), table, (pile0, pile1), (0, 0), nondealer, view.dealer,
                                         lc, (), rules, (0, 1))

    total = len(uniq) * DEALS_PER_LEAF
    workers = max(1, min(limit.workers, total))
    deadline = limit.deadline
    vals = np.empty((len(uniq), DEALS_PER_LEAF))
    nodes = 0
    counter = _Tally(tally, total) if tally is not None else None
    for first in range(0, len(uniq), _LEAF_CHUNK):     # in chunks: a million results at once weigh 200 MB
        keys = uniq[first:first + _LEAF_CHUNK]
        n = len(keys) * DEALS_PER_LEAF
        raws = kernel.run_batch(states(keys), want=0, limit=limit.replace(threads=workers), total=n,
                                batch=None if deadline is None and workers == 1 else 256,
                                progress=counter)
        if len(raws) < n or any(r is None or r.stop != kernel.StopReason.NONE for r in raws):
            if any(r is not None and r.stop == kernel.StopReason.NODES for r in raws):
                raise LimitError(f"a last-deal search needs more than nodes={limit.nodes:,} nodes")
            raise LimitError("the time limit ran out before the last deals were solved: allow more time")
        vals[first:first + len(keys)] = np.fromiter((r.lower for r in raws), dtype=np.float64,
                                                    count=n).reshape(len(keys), DEALS_PER_LEAF)
        nodes += sum(r.nodes for r in raws)
        if tally is not None:
            tally["nodes"] = nodes
    return sign * vals.mean(axis=1), total, nodes


class _Tally:
    """`run_batch`'s progress (its `update(n)`) counted into a tally dict."""

    def __init__(self, tally: dict, total: int) -> None:
        self.tally = tally
        tally.update(solves=total, solved=0, nodes=0)

    def update(self, n: int = 1) -> None:
        self.tally["solved"] += n
