"""Bot against bot in the duplicate format, for every game of the family.

Two sides (two players, or partnerships: 4-player Scopa, Scopone, scientifico, 6 players in
two teams): every deal is played twice with the sides swapped (bot A holds the cards B held and
the other way round; a bot plays every seat of its side, so each side holds each pair of
partners' hands once), so the luck of the deal cancels out and the difference is the players'.
The figure of merit is the mean round margin of A over B (A's side's round points minus B's)
per round, with a 95% confidence interval from the spread over the deals.

Three or more sides (3 players; 4 or 6 without partnerships): one bot per side, and every deal
is played once in every seating of the bots (each bot in each seat: the 6 orders of 3 bots, the
24 of 4; with 6 bots the 6 rotations). The figures are each bot's points per round with a 95%
confidence interval, rounds won and matches won (`MultiArenaResult`).

>>> from scopa_solver import GreedyBot, RandomBot
>>> result = arena(GreedyBot(), RandomBot(seed=1), rounds=4, seed=1, progress=False)
>>> result.deals, result.rounds_played, len(result.margins)
(4, 8, 4)
>>> result.ci95[0] <= result.mean <= result.ci95[1]
True
>>> from scopa_solver import Rules
>>> def first(pos): return pos.legal_moves()[0]
>>> def last(pos): return pos.legal_moves()[-1]
>>> four = arena(first, last, rounds=2, seed=1, rules=Rules(players=4), progress=False)
>>> four.rounds_played, four.decisions       # each bot plays both seats of its side
(4, (72, 72))
>>> three = arena(bots=[first, last, last], rounds=2, seed=1, rules=Rules(players=3), progress=False)
>>> three.seatings, three.rounds_played, three.decisions
(6, 12, (144, 144, 144))
"""
from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

from .game import play_match, play_round, tell_round
from ..progress import progress_bar
from ..text import plural
from ..core.position import Move, Position
from ..core.rules import Rules
from ..errors import RulesError, ScopaError, excerpt

__all__ = ["arena", "ArenaResult", "MultiArenaResult"]

_Z95 = 1.959963984540054

Chooser = Callable[[Position], Union[Move, str]]     # a bot: position -> its move (or the move's text)
SideBots = Union[Chooser, Sequence[Chooser]]     # one chooser for a side, or one per seat of it


@dataclass
class ArenaResult:
    """What `arena` measured for two sides. Margins are A's side's points minus B's, averaged
    over the two plays of each deal (one per side); `rules` is the game (A plays every seat of
    its side)."""

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
    rules: Rules = Rules()          # the game

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
        rate, half = sum(self.match_scores) / len(self.match_scores), _Z95 * _stderr(self.match_scores)
        return (max(0.0, rate - half), min(1.0, rate + half))

    @property
    def decisions_per_second(self) -> float:
        """Moves chosen per second of the bots' thinking time, both bots together."""
        spent = sum(self.bot_seconds)
        return sum(self.decisions) / spent if spent > 0 else math.inf

    def bot_speed(self, which: int) -> float:
        """Decisions per second of bot A (0) or B (1)."""
        return self.decisions[which] / self.bot_seconds[which] if self.bot_seconds[which] > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
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
                "match_ci95": list(self.match_ci95) if self.match_ci95 else None,
                "rules": self.rules.tokens()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ArenaResult":
        """The inverse of `to_dict` (the derived figures are computed again)."""
        if not isinstance(data, dict):
            raise TypeError(f"expected the dict of ArenaResult.to_dict, not {type(data).__name__}")
        def nan(x: Any) -> float:
            return math.nan if x is None else float(x)
        return cls(bot_a=data["bot_a"], bot_b=data["bot_b"], deals=data["deals"], margins=list(data["margins"]),
                   a_points=nan(data["a_points"]), b_points=nan(data["b_points"]),
                   round_wins=nan(data["round_wins"]), round_ties=nan(data["round_ties"]),
                   decisions=tuple(data["decisions"]), bot_seconds=tuple(data["bot_seconds"]),
                   seconds=data["seconds"], seed=data["seed"], matches=data.get("matches", 0),
                   match_scores=list(data.get("match_scores", [])),
                   rules=Rules.from_tokens(data.get("rules", [])))

    def __str__(self) -> str:
        low, high = self.ci95
        lines = [f"{self.bot_a} vs {self.bot_b}: {plural(self.deals, 'duplicate deal')} "
                 f"({plural(self.rounds_played, 'round')})"
                 + _game(self.rules)]
        if self.deals:      # matches only: no per-round figures
            lines += [f"  margin of {self.bot_a} per round: {self.mean:+.3f}  ({_ci_text(low, high, '+.3f')})",
                      f"  points per round: {self.a_points:.3f} vs {self.b_points:.3f}; rounds won "
                      f"{100 * self.round_wins:.1f}%, tied {100 * self.round_ties:.1f}%"]
        if self.match_scores:
            mlow, mhigh = self.match_ci95  # type: ignore[misc]
            lines.append(f"  matches won by {self.bot_a}: {100 * self.match_win_rate:.1f}% of "  # type: ignore[operator]
                         f"{2 * self.matches} ({_ci_text(100 * mlow, 100 * mhigh, '.1f', '%')})")
        lines.append(
            f"  speed: {self.decisions_per_second:.1f} decisions/s ({self.bot_a} {self.bot_speed(0):.1f}, "
            f"{self.bot_b} {self.bot_speed(1):.1f}); {self.seconds:.1f} s in all")
        return "\n".join(lines)


def _finite(x: Any) -> Any:
    """x, or None where it is not a finite number (JSON has no NaN or infinity)."""
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x if not isinstance(x, float) or math.isfinite(x) else None


def _ci_text(low: float, high: float, spec: str, unit: str = "") -> str:
    """A 95% interval for a report, or why there is none (one deal or none has no spread to measure)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "no 95% CI from fewer than two deals"
    return f"95% CI {low:{spec}}{unit} .. {high:{spec}}{unit}"


def _stderr(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.inf if n else math.nan
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


class _Timed:
    """A side's chooser that counts its calls and the time they take. `bot` is one chooser for
    every seat of the side, or a tuple of one per seat (in seat order; seat s is partner
    s // side_count of its side)."""

    def __init__(self, bot: SideBots, side_count: int) -> None:
        self.bot = bot
        self.side_count = side_count
        self.calls = 0
        self.seconds = 0.0

    def start_round(self, score: Optional[tuple[int, ...]], target: Optional[int]) -> None:
        tell_round(self.bot if isinstance(self.bot, tuple) else (self.bot,), score, target)

    def __call__(self, position: Position) -> Union[Move, str]:
        bot = self.bot if callable(self.bot) else self.bot[position.to_move // self.side_count]
        start = time.perf_counter()
        move = bot(position)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return move


def _name(bot: object) -> str:
    if isinstance(bot, tuple):
        names = [_name(b) for b in bot]
        return names[0] if len(set(names)) == 1 else "+".join(names)
    return getattr(bot, "name", None) or getattr(bot, "__name__", None) or type(bot).__name__


def _game(rules: Rules) -> str:
    """', game options' for the first line of a summary (nothing for default two-player Scopa)."""
    tokens = rules.tokens()
    return f", {' '.join(tokens)}" if tokens else ""


@dataclass
class MultiArenaResult:
    """What `arena` measured for three or more sides: every deal was played once in each of
    `seatings` seatings of the bots (each bot in each seat). `points[d][j]` is bot j's mean
    round points over the plays of deal d; `match_scores[m][j]` bot j's share of the matches
    won over the seatings of match seed m."""

    bots: tuple[str, ...]
    rules: Rules
    deals: int
    seatings: int                       # plays of each deal (and of each match seed)
    points: list[list[float]]           # per deal, per bot: mean round points
    round_wins: tuple[float, ...]       # per bot: share of rounds its side scored strictly most
    round_ties: float                   # share of rounds whose highest score was shared
    decisions: tuple[int, ...]          # per bot: moves chosen
    bot_seconds: tuple[float, ...]      # per bot: time spent choosing them
    seconds: float
    seed: Optional[int]
    matches: int = 0                    # match seeds, each played in every seating
    match_scores: list[list[float]] = field(default_factory=list)

    @property
    def rounds_played(self) -> int:
        return self.seatings * self.deals

    def _column(self, rows: list[list[float]], bot: int) -> list[float]:
        return [row[bot] for row in rows]

    @property
    def mean_points(self) -> tuple[float, ...]:
        """Each bot's mean round points per round."""
        return tuple(_mean(self._column(self.points, j)) for j in range(len(self.bots)))

    @property
    def ci95(self) -> tuple[tuple[float, float], ...]:
        """The normal 95% confidence interval of each bot's `mean_points`, from the spread over
        the deals."""
        return tuple(_interval(self._column(self.points, j)) for j in range(len(self.bots)))

    def lead(self, a: int = 0, b: int = 1) -> tuple[float, tuple[float, float]]:
        """Bot `a`'s points per round less bot `b`'s and its normal 95% confidence interval,
        paired deal by deal (both played every deal in every seat, so the deal's luck cancels)."""
        for which in (a, b):
            if not isinstance(which, int) or not 0 <= which < len(self.bots):
                raise ScopaError(f"bot numbers are 0 to {len(self.bots) - 1}, not {which!r}")
        diffs = [row[a] - row[b] for row in self.points]
        return _mean(diffs), _interval(diffs)

    @property
    def match_win_rate(self) -> Optional[tuple[float, ...]]:
        """Each bot's share of the matches won (None when no matches were played)."""
        if not self.match_scores:
            return None
        return tuple(_mean(self._column(self.match_scores, j)) for j in range(len(self.bots)))

    @property
    def match_ci95(self) -> Optional[tuple[tuple[float, float], ...]]:
        if not self.match_scores:
            return None
        return tuple(_interval(self._column(self.match_scores, j), clip=True) for j in range(len(self.bots)))

    def bot_speed(self, which: int) -> float:
        """Decisions per second of bot `which`."""
        return self.decisions[which] / self.bot_seconds[which] if self.bot_seconds[which] > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the measured fields and the figures derived from them."""
        return {"bots": list(self.bots), "rules": self.rules.tokens(), "deals": self.deals,
                "seatings": self.seatings, "rounds_played": self.rounds_played,
                "mean_points": _finite(list(self.mean_points)),
                "ci95": [_finite(list(ci)) for ci in self.ci95], "points": [list(row) for row in self.points],
                "round_wins": list(self.round_wins), "round_ties": _finite(self.round_ties),
                "decisions": list(self.decisions), "bot_seconds": list(self.bot_seconds),
                "seconds": self.seconds, "seed": self.seed, "matches": self.matches,
                "match_scores": [list(row) for row in self.match_scores],
                "match_win_rate": None if self.match_win_rate is None else list(self.match_win_rate),
                "match_ci95": None if self.match_ci95 is None else [_finite(list(ci)) for ci in self.match_ci95]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "MultiArenaResult":
        """The inverse of `to_dict` (the derived figures are computed again)."""
        if not isinstance(data, dict):
            raise TypeError(f"expected the dict of MultiArenaResult.to_dict, not {type(data).__name__}")
        return cls(bots=tuple(data["bots"]), rules=Rules.from_tokens(data["rules"]), deals=data["deals"],
                   seatings=data["seatings"], points=[list(row) for row in data["points"]],
                   round_wins=tuple(data["round_wins"]),
                   round_ties=math.nan if data["round_ties"] is None else float(data["round_ties"]),
                   decisions=tuple(data["decisions"]), bot_seconds=tuple(data["bot_seconds"]),
                   seconds=data["seconds"], seed=data["seed"], matches=data.get("matches", 0),
                   match_scores=[list(row) for row in data.get("match_scores", [])])

    def __str__(self) -> str:
        lines = [f"{' vs '.join(self.bots)}: {plural(self.deals, 'deal')}, each in "
                 f"{plural(self.seatings, 'seating')} ({plural(self.rounds_played, 'round')}){_game(self.rules)}"]
        if self.deals:      # matches only: no per-round figures
            for j, name in enumerate(self.bots):
                low, high = self.ci95[j]
                lines.append(f"  {name}: {self.mean_points[j]:.3f} points per round ({_ci_text(low, high, '.3f')}), "
                             f"rounds won {100 * self.round_wins[j]:.1f}%")
            lines.append(f"  rounds with the highest score shared: {100 * self.round_ties:.1f}%")
            for j in range(1, len(self.bots)):
                lead, (low, high) = self.lead(0, j)
                lines.append(f"  {self.bots[0]} less {self.bots[j]}, paired by deal: {lead:+.3f} a round "
                             f"({_ci_text(low, high, '+.3f')})")
        if self.match_scores:
            rates, cis = self.match_win_rate, self.match_ci95
            lines.append("  matches won (of " + f"{self.seatings * self.matches}): " + ", ".join(
                f"{name} {100 * rates[j]:.1f}% ({_ci_text(100 * cis[j][0], 100 * cis[j][1], '.1f', '%')})"  # type: ignore[index]
                for j, name in enumerate(self.bots)))
        lines.append("  speed: " + ", ".join(f"{name} {self.bot_speed(j):.1f}" for j, name in enumerate(self.bots))
                     + f" decisions/s; {self.seconds:.1f} s in all")
        return "\n".join(lines)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else math.nan


def _interval(xs: Sequence[float], clip: bool = False) -> tuple[float, float]:
    mean, half = _mean(xs), _Z95 * _stderr(list(xs))
    if clip:
        return (max(0.0, mean - half), min(1.0, mean + half))
    return (mean - half, mean + half)


def _seatings(count: int) -> list[tuple[int, ...]]:
    """The seatings each deal is played in: seating[side] = the bot playing that side. Two
    sides: A then B on side 0 (the duplicate swap); 3 or 4: every order; more: the rotations
    (each bot in each seat once: 720 orders of 6 would be too many plays of one deal)."""
    if count <= 4:
        return list(itertools.permutations(range(count)))
    return [tuple((side + shift) % count for side in range(count)) for shift in range(count)]


def arena(bot_a: Optional[SideBots] = None, bot_b: Optional[SideBots] = None,
          rounds: int = 100, *, bots: Optional[Sequence[SideBots]] = None,
          seed: Optional[int] = None, rules: Rules = Rules(), matches: int = 0,
          progress: Optional[bool] = None) -> Union[ArenaResult, "MultiArenaResult"]:
    """Play `rounds` duplicate deals of `bot_a` against `bot_b` (each deal twice, sides swapped:
    2 x `rounds` rounds), and with `matches` also that many duplicate pairs of matches to
    `rules.target`; an `ArenaResult`. Bots are choosers (position -> move), like those of
    `scopa_solver.play.bots`; in a partnership game a bot plays every seat of its side (bots
    of the same kind as partners), or a side is a tuple of partners, one per seat in seat
    order (separate instances of a bot that remembers the round, or mixed on purpose). For
    three or more sides give one bot per side as ``bots=[...]``: every deal (and match seed)
    is played in every seating of the bots, and the result is a `MultiArenaResult`
    (``bots=[a, b]`` is the same as ``arena(a, b)``).
    The same `seed` plays the same deals. The last seat deals the first deal, and the deal
    passes to the next seat every deal (player 1 deals the even deals with two players).
    `progress`: a progress bar (None: on a terminal, for runs over a second).
    A bot with a ``start_round(score, target)`` method is told the match score before every
    round of a match (`play_match`), and ``(None, None)`` before the lone rounds.
    """
    if bots is None:
        if bot_a is None or bot_b is None:
            raise ScopaError("arena needs two bots (bot_a, bot_b) or a list of one bot per side (bots=[...])")
        bots = [bot_a, bot_b]
    elif bot_a is not None or bot_b is not None:
        raise ScopaError("give the bots either as bot_a, bot_b or as bots=[...], not both")
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a Rules value (e.g. Rules(players=4)), not {excerpt(rules)}")
    for what, value in (("rounds", rounds), ("matches", matches)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ScopaError(f"{what} must be a whole number, 0 or more, not {excerpt(value)}")
    if not rounds and not matches:
        raise ScopaError("nothing to play: ask for rounds or matches")
    bots = list(bots)
    sides = rules.side_count
    if len(bots) != sides:
        game = " ".join(rules.tokens()) or "two-player Scopa"
        raise ScopaError(f"{game} has {sides} sides: give {sides} bots ("
                         + ("bot_a, bot_b" if sides == 2 else "bots=[...]") + f"), one per side, not {len(bots)}")
    seats = rules.players // sides
    for j, b in enumerate(bots):
        if isinstance(b, (tuple, list)):
            if len(b) != seats:
                raise ScopaError(f"a side of {' '.join(rules.tokens()) or 'two-player Scopa'} has {seats} seat(s): "
                                 f"give one bot for all of them or {seats} partners, not {len(b)}")
            bots[j] = b = tuple(b)
        if not all(callable(x) for x in (b if isinstance(b, tuple) else (b,))):
            raise TypeError("bots are callables: position -> move")
    rng = random.Random(seed)
    timed = [_Timed(b, sides) for b in bots]
    seatings = _seatings(sides)
    n = rules.players
    plays: list[list[tuple[int, ...]]] = []      # per deal, per seating: the points of each side
    match_winners: list[list[int]] = []          # per match seed, per seating: the winning side
    start = time.perf_counter()
    names = [_name(b) for b in bots]
    bar = progress_bar(rounds + matches, " vs ".join(names), progress, unit="deal")

    def seated(seating: tuple[int, ...]) -> list[_Timed]:
        return [timed[seating[side]] for side in rules.sides]

    margin_sum = 0.0
    try:
        if rounds:
            tell_round(timed, None, None)       # lone rounds: no match score
        for i in range(rounds):
            deal = Position.new_round(seed=rng.getrandbits(64), rules=rules, dealer=(n - 1 + i) % n)
            plays.append([tuple(play_round(deal, *seated(s)).score.total) for s in seatings])
            bar.update(1)
            if sides == 2:
                margin_sum += _margin(plays[-1])
                bar.set_postfix_str(f"margin {margin_sum / len(plays):+.2f}")
        for _ in range(matches):
            match_seed = rng.getrandbits(64)
            match_winners.append([play_match(*seated(s), rules=rules, seed=match_seed).winner for s in seatings])
            bar.update(1)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    decisions = tuple(t.calls for t in timed)
    bot_seconds = tuple(t.seconds for t in timed)
    if sides == 2:
        return _two_sided(names, plays, match_winners, decisions, bot_seconds, seconds, seed, rules)  # type: ignore[arg-type]
    return _many_sided(names, seatings, plays, match_winners, decisions, bot_seconds, seconds, seed, rules)


def _many_sided(names: list[str], seatings: list[tuple[int, ...]], plays: list[list[tuple[int, ...]]],
                match_winners: list[list[int]], decisions: tuple[int, ...], bot_seconds: tuple[float, ...],
                seconds: float, seed: Optional[int], rules: Rules) -> MultiArenaResult:
    """The figures of each bot over every seating (seating[side] = the bot of that side)."""
    sides, per_seating = len(names), len(seatings)
    per_bot = []
    wins, ties = [0] * sides, 0
    for deal_plays in plays:
        row = [0] * sides
        for seating, total in zip(seatings, deal_plays):
            best = max(total)
            top = [side for side, t in enumerate(total) if t == best]
            if len(top) == 1:
                wins[seating[top[0]]] += 1
            else:
                ties += 1
            for side, t in enumerate(total):
                row[seating[side]] += t
        per_bot.append([t / per_seating for t in row])      # summed whole, so equal plays give equal means
    played = len(plays) * per_seating
    match_scores = []
    for winners in match_winners:
        won = Counter(seating[side] for seating, side in zip(seatings, winners))
        match_scores.append([won[j] / per_seating for j in range(sides)])
    return MultiArenaResult(
        bots=tuple(names), rules=rules, deals=len(plays), seatings=per_seating, points=per_bot,
        round_wins=tuple(w / played if played else math.nan for w in wins),
        round_ties=ties / played if played else math.nan, decisions=decisions, bot_seconds=bot_seconds,
        seconds=seconds, seed=seed, matches=len(match_winners), match_scores=match_scores)


def _margin(deal_plays: list[tuple[int, ...]]) -> float:
    """A's mean margin over the two plays of a deal (A on side 0, then on side 1)."""
    (a0, b0), (b1, a1) = deal_plays
    return ((a0 - b0) + (a1 - b1)) / 2


def _two_sided(names: list[str], plays: list[list[tuple[int, ...]]], match_winners: list[list[int]],
               decisions: tuple[int, int], bot_seconds: tuple[float, float], seconds: float,
               seed: Optional[int], rules: Rules) -> ArenaResult:
    """The duplicate figures of A against B."""
    points = [0, 0]
    wins = ties = 0
    for (a0, b0), (b1, a1) in plays:
        points[0] += a0 + a1
        points[1] += b0 + b1
        wins += (a0 > b0) + (a1 > b1)
        ties += (a0 == b0) + (a1 == b1)
    played = 2 * len(plays)
    return ArenaResult(
        bot_a=names[0], bot_b=names[1], deals=len(plays), margins=[_margin(p) for p in plays],
        a_points=points[0] / played if played else math.nan, b_points=points[1] / played if played else math.nan,
        round_wins=wins / played if played else math.nan, round_ties=ties / played if played else math.nan,
        decisions=decisions, bot_seconds=bot_seconds, seconds=seconds, seed=seed,
        matches=len(match_winners), match_scores=[((w0 == 0) + (w1 == 1)) / 2 for w0, w1 in match_winners],
        rules=rules)
