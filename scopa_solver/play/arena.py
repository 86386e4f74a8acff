"""Bot against bot in the duplicate format.

Every deal is played twice with the seats swapped (bot A holds the cards B held and the other
way round), so the luck of the deal cancels out and the difference is the players'. The figure
of merit is the mean round margin of A over B (A's round points minus B's) per round, with a
95% confidence interval from the spread over the deals.

>>> from scopa_solver import GreedyBot, RandomBot
>>> result = arena(GreedyBot(), RandomBot(seed=1), rounds=4, seed=1, progress=False)
>>> result.deals, result.rounds_played, len(result.margins)
(4, 8, 4)
>>> result.ci95[0] <= result.mean <= result.ci95[1]
True
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .game import play_match, play_round
from ..progress import progress_bar
from ..core.position import Position
from ..core.rules import Rules
from ..errors import ScopaError, excerpt

__all__ = ["arena", "ArenaResult", "make_bot", "BOT_NAMES"]

_Z95 = 1.959963984540054


@dataclass
class ArenaResult:
    """What `arena` measured. Margins are A's points minus B's, averaged over the two plays of
    each deal (one per seat)."""

    bot_a: str
    bot_b: str
    deals: int                      # duplicate deals, each played twice
    margins: list[float]            # per deal: A's mean round margin over its two plays
    a_points: float                 # A's mean round points
    b_points: float
    round_wins: float               # share of rounds where A scored more than B
    round_ties: float
    decisions: tuple[int, int]      # moves chosen by A and by B
    bot_seconds: tuple[float, float]  # time spent choosing them
    seconds: float                  # wall time of the whole run
    seed: Optional[int]
    matches: int = 0                # duplicate match pairs played (2 matches each)
    match_scores: list[float] = field(default_factory=list)  # per pair: A's share of the 2 wins

    @property
    def rounds_played(self) -> int:
        return 2 * self.deals

    @property
    def mean(self) -> float:
        """A's mean round margin over B per round."""
        return sum(self.margins) / len(self.margins) if self.margins else math.nan

    @property
    def stderr(self) -> float:
        return _stderr(self.margins)

    @property
    def ci95(self) -> tuple[float, float]:
        """The normal 95% confidence interval of `mean`."""
        half = _Z95 * self.stderr
        return (self.mean - half, self.mean + half)

    @property
    def match_win_rate(self) -> Optional[float]:
        """A's share of the matches won (None when no matches were played)."""
        return sum(self.match_scores) / len(self.match_scores) if self.match_scores else None

    @property
    def match_ci95(self) -> Optional[tuple[float, float]]:
        if not self.match_scores:
            return None
        rate, half = self.match_win_rate, _Z95 * _stderr(self.match_scores)
        return (max(0.0, rate - half), min(1.0, rate + half))

    @property
    def decisions_per_second(self) -> float:
        """Moves chosen per second of the bots' thinking time, both bots together."""
        spent = sum(self.bot_seconds)
        return sum(self.decisions) / spent if spent > 0 else math.inf

    def bot_speed(self, which: int) -> float:
        """Decisions per second of bot A (0) or B (1)."""
        return self.decisions[which] / self.bot_seconds[which] if self.bot_seconds[which] > 0 else math.inf

    def to_dict(self) -> dict:
        """Plain data (JSON-ready): the measured fields and the figures derived from them; a
        figure that is not finite (no deals, a single deal's spread) is None."""
        return {"bot_a": self.bot_a, "bot_b": self.bot_b, "deals": self.deals, "rounds_played": self.rounds_played,
                "mean": _finite(self.mean), "stderr": _finite(self.stderr), "ci95": _finite(list(self.ci95)),
                "margins": list(self.margins), "a_points": _finite(self.a_points),
                "b_points": _finite(self.b_points), "round_wins": _finite(self.round_wins),
                "round_ties": _finite(self.round_ties), "decisions": list(self.decisions),
                "bot_seconds": list(self.bot_seconds), "decisions_per_second": _finite(self.decisions_per_second),
                "seconds": self.seconds, "seed": self.seed, "matches": self.matches,
                "match_scores": list(self.match_scores), "match_win_rate": self.match_win_rate,
                "match_ci95": list(self.match_ci95) if self.match_ci95 else None}

    @classmethod
    def from_dict(cls, data: dict) -> "ArenaResult":
        """The inverse of `to_dict` (the derived figures are computed again)."""
        if not isinstance(data, dict):
            raise TypeError(f"expected the dict of ArenaResult.to_dict, not {type(data).__name__}")
        nan = (lambda x: math.nan if x is None else float(x))
        return cls(bot_a=data["bot_a"], bot_b=data["bot_b"], deals=data["deals"], margins=list(data["margins"]),
                   a_points=nan(data["a_points"]), b_points=nan(data["b_points"]),
                   round_wins=nan(data["round_wins"]), round_ties=nan(data["round_ties"]),
                   decisions=tuple(data["decisions"]), bot_seconds=tuple(data["bot_seconds"]),  # type: ignore[arg-type]
                   seconds=data["seconds"], seed=data["seed"], matches=data.get("matches", 0),
                   match_scores=list(data.get("match_scores", [])))

    def __str__(self) -> str:
        low, high = self.ci95
        lines = [
            f"{self.bot_a} vs {self.bot_b}: {self.deals} duplicate deals ({self.rounds_played} rounds)",
            f"  margin of {self.bot_a} per round: {self.mean:+.3f}  (95% CI {low:+.3f} .. {high:+.3f})",
            f"  points per round: {self.a_points:.3f} vs {self.b_points:.3f}; rounds won "
            f"{100 * self.round_wins:.1f}%, tied {100 * self.round_ties:.1f}%",
        ]
        if self.match_scores:
            mlow, mhigh = self.match_ci95  # type: ignore[misc]
            lines.append(f"  matches won by {self.bot_a}: {100 * self.match_win_rate:.1f}% of "  # type: ignore[operator]
                         f"{2 * self.matches} (95% CI {100 * mlow:.1f}% .. {100 * mhigh:.1f}%)")
        lines.append(
            f"  speed: {self.decisions_per_second:.1f} decisions/s ({self.bot_a} {self.bot_speed(0):.1f}, "
            f"{self.bot_b} {self.bot_speed(1):.1f}); {self.seconds:.1f} s in all")
        return "\n".join(lines)


def _finite(x):
    """x, or None where it is not a finite number (JSON has no NaN or infinity)."""
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x if not isinstance(x, float) or math.isfinite(x) else None


def _stderr(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.inf if n else math.nan
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


class _Timed:
    """A chooser that counts its calls and the time they take."""

    def __init__(self, bot: Callable[[Position], object]) -> None:
        self.bot = bot
        self.calls = 0
        self.seconds = 0.0

    def __call__(self, position: Position):
        start = time.perf_counter()
        move = self.bot(position)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return move


def _name(bot: object) -> str:
    return getattr(bot, "name", None) or getattr(bot, "__name__", None) or type(bot).__name__


def arena(bot_a: Callable[[Position], object], bot_b: Callable[[Position], object], rounds: int = 100, *,
          seed: Optional[int] = None, rules: Rules = Rules(), matches: int = 0,
          progress: Optional[bool] = None) -> ArenaResult:
    """Play `rounds` duplicate deals (each deal twice, seats swapped: 2 x `rounds` rounds) of
    `bot_a` against `bot_b`, and with `matches` also that many duplicate pairs of matches to
    `rules.target`. Bots are choosers (position -> move), like those of `scopa_solver.play.bots`.
    The same `seed` plays the same deals. Player 1 deals the even deals, player 0 the odd ones.
    `progress`: a progress bar (None: on a terminal, for runs over a second).
    """
    for what, value in (("rounds", rounds), ("matches", matches)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ScopaError(f"{what} must be a whole number, 0 or more, not {excerpt(value)}")
    if not rounds and not matches:
        raise ScopaError("nothing to play: ask for rounds or matches")
    if not (callable(bot_a) and callable(bot_b)):
        raise TypeError("bots are callables: position -> move")
    rng = random.Random(seed)
    a, b = _Timed(bot_a), _Timed(bot_b)
    margins: list[float] = []
    points = [0, 0]
    wins = ties = 0
    match_scores: list[float] = []
    start = time.perf_counter()
    bar = progress_bar(rounds + matches, f"{_name(bot_a)} vs {_name(bot_b)}", progress, unit="deal")
    try:
        for i in range(rounds):
            deal = Position.new_round(seed=rng.getrandbits(64), rules=rules, dealer=1 - i % 2)
            first = play_round(deal, a, b).score       # A is player 0
            second = play_round(deal, b, a).score      # A is player 1
            m1, m2 = first.margin(0), second.margin(1)
            margins.append((m1 + m2) / 2)
            points[0] += first.total[0] + second.total[1]
            points[1] += first.total[1] + second.total[0]
            wins += (m1 > 0) + (m2 > 0)
            ties += (m1 == 0) + (m2 == 0)
            bar.update(1)
            if margins:
                bar.set_postfix_str(f"margin {sum(margins) / len(margins):+.2f}")
        for _ in range(matches):
            match_seed = rng.getrandbits(64)
            won = play_match(a, b, rules=rules, seed=match_seed).winner == 0
            won += play_match(b, a, rules=rules, seed=match_seed).winner == 1
            match_scores.append(won / 2)
            bar.update(1)
    finally:
        bar.close()
    played = 2 * rounds
    return ArenaResult(
        bot_a=_name(bot_a), bot_b=_name(bot_b), deals=rounds, margins=margins,
        a_points=points[0] / played if played else math.nan, b_points=points[1] / played if played else math.nan,
        round_wins=wins / played if played else math.nan, round_ties=ties / played if played else math.nan,
        decisions=(a.calls, b.calls), bot_seconds=(a.seconds, b.seconds),
        seconds=time.perf_counter() - start, seed=seed, matches=matches, match_scores=match_scores)


BOT_NAMES = ("random", "greedy", "pimc", "infer", "model", "oracle")


def make_bot(spec: str, worlds: int = 50, seed: Optional[int] = 0, threads: Optional[int] = 1):
    """The one reader of bot names (the CLI's and the benchmarks'). A bot by name: random, greedy (greedy:scopa=8,sweepable=4 for other weights), pimc
    (`worlds` per decision, or pimc:N for N), model (PIMC with the opponent model: inference of
    its hand and its modelled reply, `InferenceBot`; model:T for the model's temperature T, 0.5
    by default), infer (the same with the inference only: `reply=False`; infer:T) or oracle;
    EARLY/LATE (say greedy/pimc) plays EARLY until the last three deals and LATE in them.
    A name it does not know is a `ScopaError`."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot name is text, not {type(spec).__name__}")
    from .bots import GreedyBot, OracleBot, PhaseBot, PIMCBot, RandomBot
    from ..imperfect.inference import InferenceBot
    if "/" in spec:
        early, _, late = spec.partition("/")
        return PhaseBot(make_bot(early, worlds, seed, threads), make_bot(late, worlds, seed, threads))
    kind, _, arg = spec.strip().lower().partition(":")
    if kind not in BOT_NAMES or (arg and kind in ("random", "oracle")):
        raise ScopaError(f"unknown bot {excerpt(spec)}: choose {', '.join(BOT_NAMES)} (pimc:N for N worlds per "
                         f"move, model:T or infer:T for the opponent model's temperature T, greedy:NAME=W,... "
                         f"for other weights, EARLY/LATE for one bot before the last three deals and another "
                         f"in them)")
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "greedy":
        return GreedyBot(**_weights(arg)) if arg else GreedyBot()
    if kind == "oracle":
        return OracleBot()
    if kind in ("infer", "model"):
        reply = kind == "model"
        if not arg:
            return InferenceBot(worlds=worlds, seed=seed or 0, threads=threads, reply=reply)
        try:
            return InferenceBot(worlds=worlds, seed=seed or 0, threads=threads, temperature=float(arg), reply=reply)
        except ValueError:
            raise ScopaError(f"{kind}:T needs a positive temperature, not {excerpt(arg)}") from None
    if arg:
        if not arg.isdigit() or int(arg) < 1:
            raise ScopaError(f"pimc:N needs a positive number of worlds, not {excerpt(arg)}")
        worlds = int(arg)
    return PIMCBot(worlds=worlds, seed=seed or 0, threads=threads)


def _weights(arg: str) -> dict[str, float]:
    """greedy:NAME=W,... as GreedyBot keyword arguments."""
    from .bots import GreedyBot
    known = tuple(GreedyBot().weights)
    weights = {}
    for item in arg.split(","):
        name, _, value = item.partition("=")
        try:
            weights[name.strip()] = float(value)
        except ValueError:
            raise ScopaError(f"greedy:NAME=W,... needs numbers, not {excerpt(item)}") from None
    unknown = [name for name in weights if name not in known]
    if unknown:
        raise ScopaError(f"unknown GreedyBot weight {excerpt(unknown[0])}: choose {', '.join(known)}")
    return weights

