"""The opponent model: which hands the opponent probably holds, and what it will play next.

Determinization (`suggest`) draws the opponent's hand uniformly from the unseen cards, as if its
plays told nothing, and values a move against the opponent's best reply in each world, as if the
opponent saw the player's hand. A real opponent's plays do tell something: a sensible player
rarely lays a card down while holding one that sweeps the table or takes the settebello. And it
does not see the player's hand when it replies.

The model: at each decision the opponent picks a legal move with probability softmax(score / T)
over its legal moves, the scores being `GreedyBot`'s one-ply heuristic computed on what the
opponent sees (a capture is worth its cards, coins, sevens and settebello, a sweep 12; a lay-down
costs what it offers). `InferenceBot` uses it twice:

- `hand_posterior` weighs every hand the opponent may hold by the likelihood of its plays of the
  current deal: the hand it held at each of them is its current hand plus the cards it played
  since, while earlier deals' hands are already revealed. The posterior of a hand H is the
  product over those plays of the chance of the observed move with hand H (the prior is
  uniform), computed exactly over every hand, not by reweighting a sample.
- `modelled_values` values each move in each world against the model's next play of the
  opponent (the exact values after each of its replies, averaged with the model's weights)
  instead of its clairvoyant best reply.

There is no move history in a `View`: `InferenceBot` remembers the view it last decided on and
its own move, and reads the opponent's play in between from what became public (the one card
that appeared on the table or in the opponent's pile, and what left the table). The opponent's
opening play of a round, when the player deals, is read from the first view alone: every
reading consistent with it (which table card was laid, or which pile card captured the others)
counts with equal weight, since the view does not show the table as it was dealt.

>>> from scopa_solver import Position, play_round
>>> bot = InferenceBot(Limit(time=2, threads=1), worlds=8, seed=1)
>>> play_round(Position.new_round(seed=5), bot, GreedyBot()).final.is_round_over()
True
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from .. import kernel
from ..errors import LimitError, ViewError, excerpt
from ..kernel import Limit
from .bots import GreedyBot, PIMCBot, within
from ..core.cards import ALL_MASK, iter_cards, popcount
from ..imperfect.pimc import EXACT_LIMIT, solve_worlds, value_matrix
from ..core.position import Move
from ..core.view import View, view_seed
from ..core.worlds import cut

SHARPER = (0.05, 0.1, 0.2, 0.35)
"""The temperatures an adaptive `InferenceBot` may sharpen its model to, below its own."""

__all__ = ["OpponentPlay", "Reading", "InferenceBot", "read_play", "read_opening_play", "hand_posterior",
           "model_replies", "modelled_values"]


@dataclass(frozen=True)
class Reading:
    """One reading of an opponent play: `before` is the player's view with the opponent to move
    (its hand hidden), `move` what the opponent played."""

    before: View
    move: Move


@dataclass(frozen=True)
class OpponentPlay:
    """An opponent play, as equally likely readings (one, except for a round's opening play)."""

    readings: tuple[Reading, ...]

    @property
    def stock_cards(self) -> int:
        """The stock when it was played: it names the deal."""
        return self.readings[0].before.stock_cards


# -- reading the plays from the views ----------------------------------------------------------

def _card_moves(before: View, card: int) -> list[tuple[Move, bool]]:
    """The opponent's legal moves with the card `card` (a mask) in `before`, each with whether
    it sweeps (a move before the round's last is never its last play)."""
    state = kernel.lone_card_state(before.table, card, before.rules.flags)
    return [(Move.from_packed(p), kernel.play(state, p)[1].scopa) for p in kernel.legal_moves(state)]


def after_own_move(before: View, move: Move, now: View) -> Optional[View]:
    """The player's view once its `move` in `before` is played, with the opponent to move
    (None when the round ends with it). `now`, the player's next view, supplies the hand dealt
    when the move ended a deal."""
    after, _ = kernel.play(before.any_world_state(), move.packed)
    me = before.player
    hand = before.hand & ~move.card.mask
    opponent_cards, stock = before.opponent_cards, before.stock_cards
    if not hand and not opponent_cards:
        if not stock:
            return None
        hand, opponent_cards, stock = now.hand, 3, stock - 6     # a new deal, from the next view
    last = None if after.last_capturer < 0 else after.last_capturer
    return View(me, hand=list(iter_cards(hand)), table=list(iter_cards(after.table)),
                captured=(list(iter_cards(after.piles[0])), list(iter_cards(after.piles[1]))),
                scopas=after.scopas, to_move=1 - me, dealer=before.dealer, last_capturer=last,
                opponent_cards=opponent_cards, stock_cards=stock, rules=before.rules)


def read_play(before: View, now: View) -> Optional[OpponentPlay]:
    """The opponent's play between `before` (the player's view with the opponent to move) and
    `now` (the player's next view), or None when `now` does not follow from `before` by one play."""
    me, opp = before.player, 1 - before.player
    if now.player != me or now.dealer != before.dealer or now.rules != before.rules:
        return None
    public_before = before.table | before.piles[0] | before.piles[1]
    public_now = now.table | now.piles[0] | now.piles[1]
    new = public_now & ~public_before
    if public_before & ~public_now or popcount(new) != 1 or now.piles[me] != before.piles[me]:
        return None
    taken = now.piles[opp] & ~before.piles[opp] & ~new
    move = Move(card=next(iter_cards(new)), captures=frozenset(iter_cards(taken)))
    if move not in [m for m, _ in _card_moves(before, new)]:
        return None
    if now.stock_cards == before.stock_cards:
        if now.hand != before.hand or now.opponent_cards != before.opponent_cards - 1:
            return None
    elif not (now.stock_cards == before.stock_cards - 6 and not before.hand and before.opponent_cards == 1):
        return None
    return OpponentPlay((Reading(before, move),))


def read_opening_play(view: View) -> Optional[OpponentPlay]:
    """The opponent's opening play of the round, read from the player's first view (the player
    deals, the opponent has played one card): every consistent reading, or None when `view` is
    not such a view."""
    me, opp = view.player, 1 - view.player
    if not (view.dealer == me and view.stock_cards == 30 and popcount(view.hand) == 3
            and view.opponent_cards == 2 and not view.piles[me]):
        return None
    readings = []
    pile = view.piles[opp]
    if pile:      # a capture: which pile card took the others?
        candidates = [(c, view.table | (pile & ~c.mask), pile & ~c.mask) for c in iter_cards(pile)]
    else:         # a lay-down: which table card was laid?
        candidates = [(c, view.table & ~c.mask, 0) for c in iter_cards(view.table)]
    for card, table, taken in candidates:
        before = View(me, hand=list(iter_cards(view.hand)), table=list(iter_cards(table)),
                      to_move=opp, dealer=view.dealer, opponent_cards=3, stock_cards=30, rules=view.rules)
        move = Move(card=card, captures=frozenset(iter_cards(taken)))
        for m, scopa in _card_moves(before, card.mask):
            if m == move and scopa == bool(view.scopas[opp]):
                readings.append(Reading(before, move))
    return OpponentPlay(tuple(readings)) if readings else None


# -- the posterior over the opponent's hands ---------------------------------------------------

def hand_posterior(view: View, plays: Sequence[OpponentPlay], temperature: float,
                   model: Optional[GreedyBot] = None) -> tuple[list[int], list[float]]:
    """Every hand the opponent may hold (masks, in a fixed order) with its posterior probability
    given the current deal's `plays` (oldest first) under the softmax-of-Greedy model at
    `temperature` (see the module docstring). Scalar float arithmetic in a fixed order (no
    vectorized maths, whose last bits vary with the CPU), so the same on every machine."""
    model = model or GreedyBot()
    hands = [sum(c) for c in itertools.combinations([c.mask for c in iter_cards(view.unseen)],
                                                    view.opponent_cards)]
    logp = [0.0] * len(hands)
    for i, play in enumerate(plays):
        later = sum(p.readings[0].move.card.mask for p in plays[i + 1:])   # later plays: never ambiguous
        per_reading = [_log_likelihoods(r, hands, later, temperature, model) for r in play.readings]
        for k, logs in enumerate(zip(*per_reading)):   # the readings are equally likely
            logp[k] += _log_mean_exp(logs)
    top = max(logp)
    weights = [math.exp(x - top) for x in logp]
    total = math.fsum(weights)
    return hands, [w / total for w in weights]


def _log_mean_exp(logs: Sequence[float]) -> float:
    """log of the mean of exp(logs): the log-likelihood of equally likely readings of a play."""
    top = max(logs)
    return top + math.log(math.fsum(math.exp(x - top) for x in logs) / len(logs))


def _log_likelihoods(reading: Reading, hands: list[int], later: int, temperature: float,
                     model: GreedyBot) -> list[float]:
    """log P(the reading's move | the opponent held hand | later | the played card) per hand."""
    before, move = reading.before, reading.move
    played = move.card.mask
    hidden = ALL_MASK & ~(before.table | before.piles[0] | before.piles[1])   # unseen by the opponent, hand included
    next_hand = popcount(before.hand) or (3 if before.stock_cards else 0)
    moves_of: dict[int, list[tuple[Move, bool]]] = {}
    out = []
    for hand in hands:
        held = hand | later | played
        unseen = hidden & ~held
        scores: list[float] = []
        chosen = 0
        for card in iter_cards(held):
            if card.mask not in moves_of:
                moves_of[card.mask] = _card_moves(before, card.mask)
            for m, scopa in moves_of[card.mask]:
                if m == move:
                    chosen = len(scores)
                scores.append(model.move_score(m, before.table, scopa, unseen, next_hand) / temperature)
        top = max(scores)
        out.append(scores[chosen] - top - math.log(math.fsum(math.exp(s - top) for s in scores)))
    return out


# -- the bot -------------------------------------------------------------------------------------

def _two_players_only(view: View) -> None:
    if not view.rules.is_standard:
        raise ViewError("the opponent model is for two-player Scopa only, not the family game "
                        f"{' '.join(view.rules.tokens())}: use PIMCBot (plain determinization) there")


def model_replies(state: kernel.KernelState, model: GreedyBot, temperature: float,
                  prune: float = 0.0) -> tuple[list[int], list[float]]:
    """The mover's legal moves in a world state (packed, the kernel's order) and the model's
    probabilities: softmax of `model`'s scores (`GreedyBot.scores` on the mover's view, computed
    from the state without building it) at `temperature`, without the moves below `prune` (the
    rest renormalized; the likeliest always stays)."""
    mover = state.to_move
    hands = state.hands
    unseen = ALL_MASK & ~(hands[mover] | state.table | state.piles[0] | state.piles[1])   # as the mover sees it
    next_hand = popcount(hands[1 - mover]) or (3 if state.deals else 0)
    packed = kernel.legal_moves(state)
    scores = [model.move_score(Move.from_packed(p), state.table, kernel.play(state, p)[1].scopa, unseen, next_hand)
              for p in packed]
    top = max(scores)
    weights = [math.exp((score - top) / temperature) for score in scores]
    total = math.fsum(weights)
    kept = [(p, w) for p, w in zip(packed, weights) if w >= prune * total]
    total = math.fsum(w for _, w in kept)
    return [p for p, _ in kept], [w / total for _, w in kept]


def modelled_values(view: View, worlds: Sequence[tuple[int, ...]], temperature: float,
                    model: Optional[GreedyBot] = None, limit: Optional[Limit] = None,
                    clairvoyant: bool = False) -> np.ndarray:
    """The worlds x moves matrix (columns in the order of `view.legal_moves()`) of the player's
    round margin after each move in each world (given by its hidden groups, as
    `View.enumerate_groups` makes them), when the opponent's next play is drawn from the
    softmax-of-Greedy model, scored on what the opponent sees, and both sides play perfectly
    after it. A move that ends the round is worth its final margin. With `clairvoyant`, the
    opponent replies with its best move instead, which gives the plain exact values. The
    `limit`'s `threads` (None: every core) and `tt_mb` solve the worlds (`solve_worlds`)."""
    model = model or GreedyBot()
    moves = view.legal_moves()
    me = view.player
    values = np.zeros((len(worlds), len(moves)))
    replies = []        # (world, move, child state) where the opponent replies
    for i, groups in enumerate(worlds):
        world = view.state_of(groups)
        for j, move in enumerate(moves):
            child = kernel.play(world, move.packed)[0]
            if not (any(child.hands) or child.deals):      # the round is over
                values[i, j] = view.world_position(child).round_score().margin(me)
            else:       # the opponent replies (after a deal's last card, leading the next deal)
                replies.append((i, j, child))
    solved = solve_worlds([child for _, _, child in replies], limit)
    for k, ((i, j, child), raw) in enumerate(zip(replies, solved)):
        if not k & 63:
            kernel.check_time()
        if raw is None or raw.move_bounds is None:      # no time limit: never
            raise RuntimeError("a reply's world was left unsolved")
        theirs = {packed: lower for packed, (lower, _) in zip(raw.moves, raw.move_bounds)}
        if clairvoyant:
            values[i, j] = -max(theirs.values())
            continue
        packed, probs = model_replies(child, model, temperature)
        values[i, j] = -math.fsum(q * theirs[p] for p, q in zip(packed, probs))
    return values


def best_column(moves: Sequence[Move], values: np.ndarray, weights: Sequence[float]) -> int:
    """The column of the move with the highest weighted mean of `values` (worlds x moves), ties
    to the higher weighted share of worlds where it is optimal, then to the first in text order.
    Exactly rounded sums, rounded again, so that equal columns tie on every machine; values are
    rounded to 9 decimals before they are compared (two ways to sum the same expectation may
    differ in the last bit)."""
    rows = [[round(x, 9) for x in row] for row in values.tolist()]
    best_values = [max(row) for row in rows]
    means = [round(math.fsum(w * row[j] for w, row in zip(weights, rows)), 9) for j in range(len(moves))]
    optimal = [round(math.fsum(w for w, row, b in zip(weights, rows, best_values) if row[j] == b), 9)
               for j in range(len(moves))]
    return min(range(len(moves)), key=lambda j: (-means[j], -optimal[j], str(moves[j])))


SEARCH_SHARE = 0.7
"""The share of a decision's budget an opponent-model bot's search gets; its fallback the rest."""
FALLBACK_SHARE = 0.8
"""The share of what is left the fallback's solves get (the rest: making the answer of them)."""


class InferenceBot(PIMCBot):
    """`PIMCBot` with a model of the opponent (see the module docstring; `temperature` is the
    model's, in `GreedyBot` score units). The worlds draw the opponent's hand from the posterior
    given its plays of the current deal: sampled worlds by systematic resampling (the stock
    uniformly), enumerated worlds weighted. With `reply` (the default), a move is valued against
    the model's next play of the opponent instead of its clairvoyant best reply
    (`modelled_values`).

    The bot remembers, for each seat, the view it last decided on and its move, so it is a
    function of what the player has seen this round (not of the current view alone). Without a
    readable history (a view out of the blue) it draws the hand uniformly, as `PIMCBot`.
    With `adapt`, it also learns the model's temperature from every deal the opponent has
    played out (`learn`; `evidence` holds each of `temperatures`' log-likelihood), so it is
    then a function of what it has seen since it was made.

    The `limit`'s `time` is the decision's budget (`PIMCBot`; its `threads` and `tt_mb` solve
    the worlds): the search gets `SEARCH_SHARE` of it; one
    it cuts falls back to plain determinization of the same weighted worlds in the rest (the
    worlds solved by then), and to `GreedyBot` when not one was.
    """

    worlds: int                     # PIMCBot's, never None here (a count is always given)

    def __init__(self, limit: Optional[Limit] = None, *, worlds: int = 100, seed: int = 0,
                 exact_limit: int = EXACT_LIMIT, temperature: float = 0.5, reply: bool = True,
                 adapt: bool = False) -> None:
        super().__init__(limit, worlds=worlds, seed=seed, exact_limit=exact_limit)
        self.search = Limit(threads=self.limit.threads, tt_mb=self.limit.tt_mb)   # each world's searches
        if not 0 < temperature < math.inf:
            raise LimitError(f"temperature must be positive, not {excerpt(temperature)}")
        self.temperature = temperature
        self.reply = reply
        self.model = GreedyBot()
        self.adapt = bool(adapt)
        self.temperatures = tuple(t for t in SHARPER if t < temperature) + (temperature,)
        self.evidence = [0.0] * len(self.temperatures)
        self.name = f"PIMC({worlds})+{'model' if reply else 'inf'}(T={temperature:g}{', adaptive' if adapt else ''})"
        self._memory: dict[int, tuple[View, Move, list[OpponentPlay]]] = {}

    def observe(self, view: View) -> list[OpponentPlay]:
        """The opponent's plays of the current deal, read from `view` and the remembered one."""
        return self._read(view)[0]

    def _read(self, view: View) -> tuple[list[OpponentPlay], list[OpponentPlay]]:
        """The opponent's plays of the current deal, and those of a deal its play just read
        completed (its three plays; else empty)."""
        if view.stock_cards == 30 and popcount(view.hand) == 3:     # the round's first decision
            opening = read_opening_play(view)
            return ([opening] if opening else []), []
        memory = self._memory.get(view.player)
        if memory is None:
            return [], []
        previous, move, plays = memory
        try:
            before = after_own_move(previous, move, view)
            play = None if before is None else read_play(before, view)
        except ValueError:      # the views do not follow each other (ScopaError is a ValueError)
            play = None
        if play is None:
            return [], []
        deal = [p for p in plays + [play] if p.stock_cards == play.stock_cards]
        return [p for p in plays + [play] if p.stock_cards == view.stock_cards], deal if len(deal) == 3 else []

    def learn(self, deal: Sequence[OpponentPlay]) -> None:
        """Adds the evidence of one deal's plays of the opponent (all of them, oldest first) to
        the log-likelihood of each temperature in `temperatures`, and sets `temperature` to the
        most likely (ties to the flattest). Once the deal is played out the hand behind each
        play is known: the card played and those played after it."""
        for i, play in enumerate(deal):
            held = sum(p.readings[0].move.card.mask for p in deal[i + 1:])
            for k, t in enumerate(self.temperatures):
                self.evidence[k] += _log_mean_exp([_log_likelihoods(r, [held], 0, t, self.model)[0]
                                                   for r in play.readings])
        best = max(range(len(self.temperatures)), key=lambda k: (round(self.evidence[k], 9), k))
        self.temperature = self.temperatures[best]

    def choose(self, view: View) -> Move:
        _two_players_only(view)
        plays = self._observe(view)
        with kernel.time_budget(self.limit.time):
            move = self._decide(view, plays)
        self._memory[view.player] = (view, move, plays)
        return move

    def remember(self, view: View, move: Move) -> None:
        """Take `move` as the player's decision on `view` without deciding it (a move someone
        else chose, replayed): the bot reads and remembers as `choose` would, so that its next
        view's plays (`observe`, `world_weights`) are read as if it had played."""
        _two_players_only(view)
        move = Move.parse(move)
        if move not in view.legal_moves():
            raise ViewError(f"{move} is not legal for player {view.player} in {view.to_string()}")
        self._memory[view.player] = (view, move, self._observe(view))

    def _observe(self, view: View) -> list[OpponentPlay]:
        """The plays of the current deal read from `view`; learns from a deal just completed."""
        plays, completed = self._read(view)
        if self.adapt and completed:        # the opponent's whole hand of that deal is now known
            self.learn(completed)
        return plays

    def _decide(self, view: View, plays: list[OpponentPlay]) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        weighted = self._weighted_worlds(view, plays)
        if weighted is None:
            return super().choose(view)
        worlds = [g for g, _ in weighted]
        total = math.fsum(w for _, w in weighted)
        weights = [w / total for _, w in weighted]
        try:
            return within(SEARCH_SHARE, lambda: moves[best_column(moves, self._values(view, worlds, weights),
                                                                  weights)])
        except kernel.BudgetSpent:
            return self._fallback(view, worlds, weights)

    def _fallback(self, view: View, worlds: list[tuple[int, ...]], weights: list[float]) -> Move:
        """The best answer in what is left of a budget the search overran: each world's exact
        values (those solved in time, weighted), else Greedy's move."""
        moves = view.legal_moves()
        states = [view.state_of(g) for g in worlds]
        left = FALLBACK_SHARE * (kernel.budget_left() or 0.0)      # the rest: the answer's own Python
        solved = solve_worlds(states, self.search.replace(time=max(left, 1e-6)))
        rows = [i for i, raw in enumerate(solved) if raw is not None]
        if not rows:
            return GreedyBot().choose(view)
        values = value_matrix(moves, [solved[i] for i in rows])[0]
        return moves[best_column(moves, values, [weights[i] for i in rows])]

    def world_weights(self, view: View) -> Optional[tuple[list[tuple[int, ...]], list[float], int, Optional[int]]]:
        """What this bot's decision on `view` weighs (`View.where_unseen` shows it): the worlds
        (hidden groups), their weights (summing to 1), the opponent plays read and the seed of
        the sample (None: every world enumerated); None when it has read no play of the
        opponent's current deal, so that every world weighs the same. The seed is the bot's own
        (its draws also depend on the view). Its memory is read, not changed."""
        _two_players_only(view)
        plays = self.observe(view)
        if not plays or not view.opponent_cards:
            return None
        weighted = self._weighted_worlds(view, plays)
        assert weighted is not None     # plays were read: the posterior weighs the worlds
        total = math.fsum(w for _, w in weighted)
        sampled = view.count_worlds() > self.exact_limit
        return ([g for g, _ in weighted], [w / total for _, w in weighted], len(plays),
                self.seed if sampled else None)

    def _weighted_worlds(self, view: View, plays: list[OpponentPlay]) -> Optional[list[tuple[tuple[int, ...], float]]]:
        """The worlds the decision weighs (hidden groups, unnormalized weight): the opponent's
        hand from the posterior given `plays`; None when plain PIMC decides (no plays read and
        no modelled reply)."""
        exact = view.count_worlds() <= self.exact_limit
        seed = view_seed(self.seed, view)
        if plays and view.opponent_cards:
            hands, posterior = hand_posterior(view, plays, self.temperature, self.model)
            if exact:
                probability = dict(zip(hands, posterior))
                weighted = [(g, probability[g[0]]) for g in view.enumerate_groups()]
                return [(g, w) for g, w in weighted if w > 0]
            return [(g, 1.0) for g in self._sample(view, hands, posterior, self.worlds, seed)]
        if not self.reply:
            return None
        if exact:
            return [(g, 1.0) for g in view.enumerate_groups()]
        return [(g, 1.0) for g in view.sample_groups(self.worlds, seed)]

    def _values(self, view: View, worlds: list[tuple[int, ...]], weights: list[float]) -> np.ndarray:
        """The worlds x moves matrix the decision averages (columns as `view.legal_moves()`)."""
        if self.reply:
            return modelled_values(view, worlds, self.temperature, self.model, self.search)
        solved = solve_worlds([view.state_of(g) for g in worlds], self.search)
        return value_matrix(view.legal_moves(), solved)[0]

    @staticmethod
    def _sample(view: View, hands: list[int], posterior: list[float], n: int, seed: int) -> list[tuple[int, ...]]:
        """`n` worlds: the opponent's hand by systematic resampling from `posterior`, then the
        other unseen cards shuffled into the stock."""
        rng = random.Random(seed)
        start = rng.random() / n
        groups = []
        k, cumulative = 0, posterior[0]
        for i in range(n):
            u = start + i / n
            while u >= cumulative and k < len(hands) - 1:
                k += 1
                cumulative += posterior[k]
            rest = [c.mask for c in iter_cards(view.unseen & ~hands[k])]
            rng.shuffle(rest)
            groups.append((hands[k],) + cut([0] * view.opponent_cards + rest, view.group_sizes())[1:])
        return groups
