"""A learned opponent model: `GreedyBot`'s score features with weights fitted to a strong bot's plays.

The opponent model of `InferenceBot` is a softmax over `GreedyBot`'s one-ply scores with fixed
weights and temperature. The score is linear in its weights, so the model is a conditional logit
over seven features per legal move (what a move scores with one weight at 1 and the others at
0: cards, coins, settebello, sevens, sweep, the sweep chance it leaves, primiera points laid).
`fit_policy` fits those weights (temperature 1) by maximum likelihood, Newton's method with a
small ridge, to decisions recorded from self-play (`record_decisions`), and `LEARNED_WEIGHTS`
are the weights fitted to `InferenceBot(worlds=30)` playing itself (`benchmarks/fit_opponent.py`
reproduces them from its seed; the fit and its held-out likelihood are in docs/play.md).

>>> from scopa_solver import Position
>>> view = Position.new_round(seed=11).view(0)
>>> moves, features = move_features(view)
>>> features.shape == (len(moves), len(FEATURES))
True
"""
from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

import numpy as np

from ..core.position import Move, Position
from ..errors import LimitError
from ..play.bots import GreedyBot
from .view import View

__all__ = ["FEATURES", "LEARNED_WEIGHTS", "move_features", "fit_policy", "log_likelihood", "record_decisions",
           "learned_model"]

FEATURES = ("card", "coin", "settebello", "seven", "scopa", "sweepable", "primiera")
"""`GreedyBot`'s weights, in the order of the feature columns."""

LEARNED_WEIGHTS: dict[str, float] = {"card": 0.169482, "coin": 0.704383, "settebello": 1.127262, "seven": 0.41464,
                                     "scopa": 2.52128, "sweepable": 4.078355, "primiera": 0.008658}
"""The weights fitted to 1,152 decisions of `InferenceBot(worlds=30)` playing itself
(`python benchmarks/fit_opponent.py --rounds 80 --seed 1 --worlds 30`, four fifths of 1,440):
mean log-likelihood -0.796 per held-out decision against -1.880 for Greedy's weights at T=0.5."""

_UNIT = [GreedyBot(**{name: float(name == k) for name in FEATURES}) for k in FEATURES]


def move_features(view: View) -> tuple[list[Move], np.ndarray]:
    """The player's legal moves (in `view.legal_moves()` order) and their feature matrix: column
    k is the move's `GreedyBot` score with weight k at 1 and the others at 0."""
    moves = view.legal_moves()
    row = {m: i for i, m in enumerate(moves)}
    out = np.zeros((len(moves), len(FEATURES)))
    for k, bot in enumerate(_UNIT):
        for move, score in bot.scores(view):
            out[row[move], k] = score
    return moves, out


def _design(samples: Sequence[tuple[View, Move]]) -> list[tuple[np.ndarray, int]]:
    data = []
    for view, move in samples:
        moves, features = move_features(view)
        if len(moves) > 1:
            data.append((features, moves.index(move)))
    return data


def log_likelihood(samples: Sequence[tuple[View, Move]], weights: dict[str, float]) -> float:
    """The mean log-probability of the recorded moves under softmax(score) with these weights
    (temperature 1; divide the weights by T for a temperature T)."""
    theta = np.array([weights[k] for k in FEATURES])
    data = _design(samples)
    total = 0.0
    for features, chosen in data:
        logits = features @ theta
        top = logits.max()
        total += logits[chosen] - top - math.log(np.exp(logits - top).sum())
    return total / max(1, len(data))


def fit_policy(samples: Sequence[tuple[View, Move]], ridge: float = 1e-3, iterations: int = 50) -> dict[str, float]:
    """The weights (temperature 1) that maximize the likelihood of the recorded moves, minus
    `ridge` times their squared norm, by Newton's method. Decisions with one legal move are
    skipped."""
    data = _design(samples)
    if not data:
        raise LimitError("no decision with more than one legal move to fit")
    theta = np.zeros(len(FEATURES))
    for _ in range(iterations):
        grad = -2 * ridge * theta
        hess = -2 * ridge * np.eye(len(FEATURES))
        for features, chosen in data:
            logits = features @ theta
            p = np.exp(logits - logits.max())
            p /= p.sum()
            mean = p @ features
            grad += features[chosen] - mean
            centered = features - mean
            hess -= (centered * p[:, None]).T @ centered
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.abs(step).max() < 1e-9:
            break
    return {k: round(float(v), 6) for k, v in zip(FEATURES, theta)}


def record_decisions(bot: Callable[[Position], Move], opponent: Callable[[Position], Move], rounds: int,
                     seed: int = 1) -> list[tuple[View, Move]]:
    """`bot`'s decisions (view, move) over `rounds` rounds against `opponent`, the bot on both
    seats in turn (rounds dealt from `seed`)."""
    from ..play.game import play_round
    out: list[tuple[View, Move]] = []

    def recording(position: Position) -> Move:
        move = bot(position)
        out.append((position.view(position.to_move), move))
        return move

    for r in range(rounds):
        first, second = (recording, opponent) if r % 2 == 0 else (opponent, recording)
        play_round(Position.new_round(seed=seed * 100_003 + r), first, second)
    return out


def learned_model(weights: Optional[dict[str, float]] = None) -> GreedyBot:
    """The opponent model with the fitted weights (use it at temperature 1)."""
    bot = GreedyBot(**(weights or LEARNED_WEIGHTS))
    if not weights:
        bot.name = "learned"
    return bot
