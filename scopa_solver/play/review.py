"""A whole-game review, like a chess engine's game report, for every game of the family.

For every decision of every seat in a `GameRecord` the review sets the move played against

- the *hindsight* best: `analyze` of the full position, every card seen (what a clairvoyant
  player would have played), within a budget per decision (`max_nodes`, `time_limit`), and
- the *fair* best: `suggest` (PIMC) on the player's own view, with `worlds` sampled worlds (or
  all of them when there are fewer), which is what the player could have known.

and, on request (`equilibrium=True`, two-player Scopa), each decision of the last two deals
against the *equilibrium* of the real imperfect-information game from the player's view
(`scopa_solver.imperfect.equilibrium`): the played move's probability in it and its loss (the
best move's equilibrium value minus the played move's), bounded by an iteration and time budget
per decision.

Points lost are the best move's value minus the played move's value: the value of `analyze`
(objective "value"): the round margin of the mover's side with two sides, the paranoid value
(own side's points minus the best other side's) with three or more; for the fair figures, means
over the worlds. A decision that lost at least `MISTAKE` points is marked ``?``, at least
`BLUNDER` points ``??``; the hindsight mark is the decision's mark, and the fair column carries
its own. Forced moves (one legal move) are not judged.

A decision can stay unjudged, with the reason in `Decision.hindsight_reason` or `fair_reason`:
by hindsight when the exact search needs more than the budget (Scopone and scientifico early in
the deal need millions of nodes and more); each round is judged from its end backwards, and once
a position exceeds the budget the earlier ones of the round, with more cards in play, are not
searched. Fairly when the player's view cannot be searched within the limits (a `LimitError`;
in Scopone and scientifico early in the deal the worlds are searched to a horizon, see `suggest`). A summary per player (by name: in an arena the seats swap; or per seat)
adds up the judged decisions.

>>> from scopa_solver import Position
>>> from scopa_solver import GameRecord, RoundRecord
>>> start = Position.new_round(seed=5)
>>> first = lambda pos: pos.legal_moves()[0]
>>> from scopa_solver import play_round
>>> rec = GameRecord(players=("Ann", "Bob"))
>>> _ = rec.add_round(RoundRecord.from_play(start, play_round(start, first, first).moves))
>>> r = review(rec, worlds=4, seed=1, progress=False, threads=1)
>>> len(r.decisions), sorted(r.summaries())
(36, ['Ann', 'Bob'])
>>> all(d.loss >= 0 for d in r.decisions)
True

Three players, a small hindsight budget: the first play is not judged (the budget counts
nodes, so how many early plays it leaves out can depend on what the searchers learnt before).

>>> from scopa_solver import Rules
>>> three = Rules(players=3)
>>> start = pos = Position.new_round(seed=3, rules=three)
>>> moves = []
>>> while not pos.is_round_over():
...     moves.append(pos.legal_moves()[0]); pos = pos.play(moves[-1])
>>> rec = GameRecord(rules=three, players=("Ann", "Bob", "Cid"), kind="rounds")
>>> _ = rec.add_round(RoundRecord.from_play(start, moves))
>>> r = review(rec, worlds=None, max_nodes=20_000, progress=False)
>>> list(r.summaries()), r.decisions[0].judged, r.decisions[-1].judged
(['Ann', 'Bob', 'Cid'], False, True)
>>> r.decisions[0].hindsight_reason  # doctest: +ELLIPSIS
'...more than 20,000 nodes'
>>> r.format().splitlines()[0]
'round 1: Cid deals; Ann 1, Bob 3, Cid 0'
"""
from __future__ import annotations

import time
import zlib
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

from .. import kernel
from ..errors import LimitError, TimeLimitError, ViewError
from ..imperfect.pimc import suggest
from ..progress import progress_bar
from ..text import plural as _plural
from ..core.position import Move, Position
from .record import GameRecord, ReplayedRound
from ..search.solver import analyze

__all__ = ["review", "Review", "Decision", "PlayerSummary", "MISTAKE", "BLUNDER", "HINDSIGHT_NODES", "mark",
           "EQUILIBRIUM_ITERATIONS"]

MISTAKE = 1.0
"""Points lost (by hindsight) from which a decision is marked ``?``."""
BLUNDER = 2.0
"""Points lost from which a decision is marked ``??``."""
HINDSIGHT_NODES = 10_000_000
"""The default budget of the hindsight search, per decision (about half a second; two-player
rounds need at most a few hundred thousand, Scopone's first plays far more)."""


def mark(loss: Optional[float]) -> str:
    """``??`` for a blunder, ``?`` for a mistake, empty otherwise."""
    if loss is None:
        return ""
    if loss >= BLUNDER - 1e-9:
        return "??"
    if loss >= MISTAKE - 1e-9:
        return "?"
    return ""


@dataclass
class Decision:
    """One move of the game and what the solver thinks of it."""

    round: int                       # 1-based
    number: int                      # move number in the round, 1-based
    player: int                      # the seat
    name: str
    position: Position
    played: Move
    legal: int                       # legal moves in the position
    best: list[Move] = field(default_factory=list)   # hindsight: every optimal move
    best_value: Optional[int] = None                 # hindsight: the position's exact value
    played_value: Optional[int] = None               # hindsight: the played move's exact value
    fair_best: Optional[Move] = None                 # PIMC's best move from the player's view
    fair_best_mean: Optional[float] = None
    fair_played_mean: Optional[float] = None
    fair_worlds: int = 0
    fair_exact: bool = False
    hindsight_reason: Optional[str] = None           # why it was not judged by hindsight
    fair_reason: Optional[str] = None                # why it was not judged fairly
    eq_best: Optional[Move] = None                   # the equilibrium's most probable move
    eq_loss: Optional[float] = None                  # the played move's loss against the equilibrium
    eq_probability: Optional[float] = None           # the played move's equilibrium probability
    eq_exploitability: Optional[float] = None
    eq_reason: Optional[str] = None                  # why it was not judged against the equilibrium

    @property
    def forced(self) -> bool:
        return self.legal == 1

    @property
    def side(self) -> int:
        """The side of the player's seat (the seat itself with two players)."""
        return self.position.rules.sides[self.player]

    @property
    def judged(self) -> bool:
        """Judged by hindsight (forced moves count as judged: nothing was lost)."""
        return self.forced or (self.best_value is not None and self.played_value is not None)

    @property
    def loss(self) -> Optional[int]:
        """Points lost by hindsight: the best value minus the played move's (0 when forced;
        None when not judged, see `hindsight_reason`)."""
        if self.forced:
            return 0
        if self.best_value is None or self.played_value is None:
            return None
        return self.best_value - self.played_value

    @property
    def fair_loss(self) -> Optional[float]:
        """Points lost by PIMC's estimate (None when the fair review was not run)."""
        if self.forced:
            return 0.0
        if self.fair_best_mean is None or self.fair_played_mean is None:
            return None
        return max(0.0, self.fair_best_mean - self.fair_played_mean)

    @property
    def eq_mark(self) -> str:
        return mark(0.0 if self.forced else self.eq_loss)

    @property
    def mark(self) -> str:
        """``?`` or ``??`` by the points lost by hindsight."""
        return mark(self.loss)

    @property
    def fair_mark(self) -> str:
        return mark(self.fair_loss)

    def to_dict(self) -> dict:
        """Plain data (JSON-ready). ``fair`` is None when no fair review was run; a decision
        not judged has None figures and its ``reason``."""
        if self.fair_reason is not None:
            fair: Optional[dict] = {"best": None, "best_mean": None, "played_mean": None, "loss": None,
                                    "worlds": 0, "exact": False, "mark": "", "reason": self.fair_reason}
        elif self.fair_best is None and not self.forced:
            fair = None
        else:
            fair = {"best": str(self.fair_best) if self.fair_best else str(self.played),
                    "best_mean": self.fair_best_mean, "played_mean": self.fair_played_mean,
                    "loss": self.fair_loss, "worlds": self.fair_worlds, "exact": self.fair_exact,
                    "mark": self.fair_mark, "reason": None}
        return {
            "round": self.round, "move": self.number, "player": self.player, "side": self.side,
            "name": self.name, "position": self.position.to_string(), "played": str(self.played),
            "legal_moves": self.legal, "forced": self.forced, "mark": self.mark,
            "hindsight": {"best": [str(m) for m in self.best], "best_value": self.best_value,
                          "played_value": self.played_value, "loss": self.loss, "judged": self.judged,
                          "reason": self.hindsight_reason},
            "fair": fair,
            "equilibrium": None if self.eq_loss is None and self.eq_reason is None else
            {"best": str(self.eq_best) if self.eq_best else None, "loss": self.eq_loss,
             "probability": self.eq_probability, "exploitability": self.eq_exploitability,
             "mark": self.eq_mark, "reason": self.eq_reason},
        }


@dataclass
class PlayerSummary:
    """One player's figures over the reviewed decisions (forced moves excluded)."""

    name: str
    decisions: int = 0               # not forced
    forced: int = 0
    loss: int = 0                    # hindsight points lost in all
    best: int = 0                    # decisions that played a hindsight-optimal move
    mistakes: int = 0                # marked ?
    blunders: int = 0                # marked ??
    fair_loss: float = 0.0
    fair_best: int = 0               # decisions that played PIMC's best move
    fair_mistakes: int = 0           # fair loss marked ? or ??
    fair_judged: int = 0
    not_judged: int = 0              # decisions (not forced) not judged by hindsight
    eq_loss: float = 0.0             # points lost against the endgame equilibrium
    eq_judged: int = 0

    @property
    def judged(self) -> int:
        """Decisions (not forced) judged by hindsight."""
        return self.decisions - self.not_judged

    @property
    def loss_per_decision(self) -> float:
        """Hindsight points lost per judged decision."""
        return self.loss / self.judged if self.judged else 0.0

    @property
    def accuracy(self) -> float:
        """Share of the judged decisions that played a hindsight-optimal move."""
        return self.best / self.judged if self.judged else 1.0

    @property
    def fair_loss_per_decision(self) -> Optional[float]:
        return self.fair_loss / self.fair_judged if self.fair_judged else None

    @property
    def agreement(self) -> Optional[float]:
        """Share of decisions that played PIMC's best move."""
        return self.fair_best / self.fair_judged if self.fair_judged else None

    def to_dict(self) -> dict:
        return {"name": self.name, "decisions": self.decisions, "forced": self.forced,
                "judged": self.judged, "loss": self.loss, "loss_per_decision": self.loss_per_decision,
                "accuracy": self.accuracy,
                "mistakes": self.mistakes, "blunders": self.blunders,
                "fair_loss": self.fair_loss if self.fair_judged else None,
                "fair_loss_per_decision": self.fair_loss_per_decision, "agreement": self.agreement,
                "fair_mistakes": self.fair_mistakes if self.fair_judged else None,
                "eq_loss": self.eq_loss if self.eq_judged else None, "eq_judged": self.eq_judged}


@dataclass
class Review:
    """The outcome of `review`: every decision in play order and a summary per player."""

    record: GameRecord
    decisions: list[Decision]
    worlds: Optional[int]            # PIMC worlds per decision (None: no fair review)
    seed: int
    seconds: float
    scores: list[Optional[tuple[int, ...]]]   # each round's points per side (None: unfinished)
    round_players: list[tuple[str, ...]]       # each round's name per seat
    max_nodes: Optional[int] = HINDSIGHT_NODES  # the hindsight budget per decision
    time_limit: Optional[float] = None
    budget: Optional[float] = None   # seconds for the whole review
    complete: bool = True            # False: the budget ran out before every decision was judged
    equilibrium: bool = False        # the last two deals judged against the endgame equilibrium

    def summaries(self, by: str = "name") -> dict[str, PlayerSummary]:
        """Per player name (`by="name"`, in order of appearance) or per seat (`by="seat"`:
        "seat 0", "seat 1", ...)."""
        if by not in ("name", "seat"):
            raise ValueError(f"summaries are by 'name' or 'seat', not {by!r}")
        out: dict[str, PlayerSummary] = {}
        for names in self.round_players:
            for seat, n in enumerate(names):
                key = n if by == "name" else f"seat {seat}"
                out.setdefault(key, PlayerSummary(key))
        for d in self.decisions:
            key = d.name if by == "name" else f"seat {d.player}"
            s = out.setdefault(key, PlayerSummary(key))
            if d.forced:
                s.forced += 1
                continue
            s.decisions += 1
            loss = d.loss
            if loss is None:
                s.not_judged += 1
            else:
                s.loss += loss
                s.best += loss == 0
                s.mistakes += d.mark == "?"
                s.blunders += d.mark == "??"
            if d.eq_loss is not None:
                s.eq_judged += 1
                s.eq_loss += d.eq_loss
            if d.fair_loss is not None:
                s.fair_judged += 1
                s.fair_loss += d.fair_loss
                s.fair_best += d.fair_best == d.played
                s.fair_mistakes += bool(d.fair_mark)
        return out

    def mistakes(self) -> list[Decision]:
        """The decisions marked ``?`` or ``??`` by hindsight."""
        return [d for d in self.decisions if d.mark]

    def not_judged(self) -> dict[str, list[Decision]]:
        """The decisions not judged, by hindsight (``"hindsight"``) and fairly (``"fair"``)."""
        return {"hindsight": [d for d in self.decisions if not d.judged],
                "fair": [d for d in self.decisions if d.fair_reason is not None]}

    def to_dict(self) -> dict:
        """Plain data (JSON-ready): the record's players and rules, every decision, the summaries
        (per name, and per seat)."""
        rules = self.record.rules
        return {"players": list(self.record.players), "kind": self.record.kind, "rules": rules.tokens(),
                "seat_sides": list(rules.sides),
                "worlds": self.worlds, "seed": self.seed, "seconds": self.seconds,
                "max_nodes": self.max_nodes, "time_limit": self.time_limit, "equilibrium": self.equilibrium,
                "budget": self.budget, "complete": self.complete,
                "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER},
                "rounds": [{"round": i + 1, "players": list(names), "sides": list(self.record.side_names(i)),
                            "dealer": self.record.rounds[i].dealer,
                            "score": list(score) if score else None}
                           for i, (names, score) in enumerate(zip(self.round_players, self.scores))],
                "decisions": [d.to_dict() for d in self.decisions],
                "summary": [s.to_dict() for s in self.summaries().values()],
                "seat_summary": [s.to_dict() for s in self.summaries("seat").values()]}

    def format(self, all_moves: bool = True) -> str:
        """The report as aligned text: each round's decisions (all of them, or only the marked
        ones) and the summary per player."""
        fair = self.worlds is not None
        width = max([len(n) for names in self.round_players for n in names] + [6])
        lines = []
        reviewed = {d.round for d in self.decisions}
        for i, (names, score) in enumerate(zip(self.round_players, self.scores)):
            if i + 1 not in reviewed:
                continue
            rec = self.record.rounds[i]
            sides = self.record.side_names(i)
            result = ", ".join(f"{n} {p}" for n, p in zip(sides, score)) if score else "unfinished"
            lines.append(f"round {i + 1}: {names[rec.dealer]} deals; {result}")
            head = (f"  {'#':>3}  {'player':<{width}}  {'played':<13} {'':2}  {'best (hindsight)':<16} "
                    f"{'value':>6} {'lost':>4}")
            if fair:
                head += f"   {'best (fair)':<13} {'lost':>5}   "
            if self.equilibrium:
                head = f"{head:<{len(head) if fair else len(head) + 3}}"
                base = len(head)
                head += f"{'best (equilibrium)':<18} {'prob':>5} {'lost':>5}"
            lines.append(head.rstrip())
            rows = [d for d in self.decisions if d.round == i + 1 and (all_moves or d.mark or d.fair_mark)]
            for d in rows:
                if d.forced:
                    best, value, lost = "(forced)", "", ""
                elif not d.judged:
                    best, value, lost = "(not judged)", "", ""
                else:
                    best = str(d.played if d.played in d.best else d.best[0]) if d.best else "?"
                    value = f"{d.best_value:+d}" if d.best_value is not None else ""
                    lost = str(d.loss) if d.loss else "-"
                line = (f"  {d.number:>3}  {d.name:<{width}}  {str(d.played):<13} {d.mark:<2}  {best:<16} "
                        f"{value:>6} {lost:>4}")
                if fair:
                    if d.forced:
                        line += f"   {'':<13} {'':>5}"
                    elif d.fair_loss is None:
                        line += f"   {'n/a' if d.fair_reason else '?':<13} {'':>5}"
                    else:
                        fl = f"{d.fair_loss:.2f}" if d.fair_loss >= 0.005 else "-"
                        fb = d.played if d.fair_loss < 0.005 else d.fair_best
                        line += f"   {str(fb):<13} {fl:>5} {d.fair_mark:<2}"
                if self.equilibrium and d.eq_loss is not None and not d.forced:
                    el = f"{d.eq_loss:.2f}" if d.eq_loss >= 0.005 else "-"
                    line = f"{line:<{base}}{str(d.eq_best):<18} {d.eq_probability:>5.2f} {el:>5} {d.eq_mark}"
                lines.append(line.rstrip())
            if not rows:
                lines.append("  (no marked moves)")
            lines.append("")
        lines.append(f"summary (? lost {MISTAKE:g} point or more, ?? {BLUNDER:g} or more; "
                     + (f"fair: PIMC with {_plural(self.worlds, 'world')} per decision, seed {self.seed})" if fair
                        else "no fair review)"))
        head = (f"  {'player':<{width}}  {'moves':>5} {'forced':>6}  {'lost':>5} {'per move':>8} "
                f"{'best':>5} {'?':>3} {'??':>3}")
        if fair:
            head += f"  {'fair lost':>9} {'per move':>8} {'agree':>5} {'?':>3}"
        lines.append(head)
        for s in self.summaries().values():
            line = (f"  {s.name:<{width}}  {s.decisions:>5} {s.forced:>6}  {s.loss:>5} "
                    f"{s.loss_per_decision:>8.2f} {100 * s.accuracy:>4.0f}% {s.mistakes:>3} {s.blunders:>3}")
            if fair and s.fair_judged:
                line += (f"  {s.fair_loss:>9.2f} {s.fair_loss_per_decision:>8.2f} "
                         f"{100 * (s.agreement or 0):>4.0f}% {s.fair_mistakes:>3}")
            lines.append(line)
        skipped = self.not_judged()
        if skipped["hindsight"]:
            lines.append(f"not judged by hindsight: {_plural(len(skipped['hindsight']), 'decision')} over the "
                         f"budget of {_budget(self.max_nodes, self.time_limit)} (the latest of a round "
                         "searched, the earlier ones, with more cards in play, skipped)")
        if skipped["fair"]:
            reasons = sorted({d.fair_reason or "" for d in skipped["fair"]})
            lines.append(f"not judged fairly: {_plural(len(skipped['fair']), 'decision')} ({reasons[0]}"
                         + (f"; {_plural(len(reasons) - 1, 'other reason')}" if len(reasons) > 1 else "") + ")")
        if self.equilibrium:
            for s in self.summaries().values():
                if s.eq_judged:
                    lines.append(f"  {s.name}: {s.eq_loss:.2f} points lost against the endgame equilibrium over "
                                 f"{_plural(s.eq_judged, 'decision')} of the last two deals")
        lines.append(f"{_plural(len(self.decisions), 'decision')} reviewed in {self.seconds:.1f} s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _decision_seed(seed: int, round_number: int, move_number: int) -> int:
    return zlib.crc32(f"{seed}:{round_number}:{move_number}".encode()) | (seed & 0xFFFFFFFF) << 32


def _budget(max_nodes: Optional[int], time_limit: Optional[float]) -> str:
    parts = ([_plural(max_nodes, "node")] if max_nodes is not None else []) + \
            ([f"{time_limit:g} s"] if time_limit is not None else [])
    return " and ".join(parts)


def _judge_hindsight(d: Decision, max_nodes: Optional[int], time_limit: Optional[float],
                     tt_mb: Optional[float]) -> bool:
    """Set `d`'s hindsight figures by `analyze` within the budget; False when the search did
    not finish (then `d.hindsight_reason` says so)."""
    rows = analyze(d.position, max_nodes=max_nodes, time_limit=time_limit, tt_mb=tt_mb, horizon=0)   # exact only
    if any(row.value is None for row in rows):
        d.hindsight_reason = f"the exact search needs more than {_budget(max_nodes, time_limit)}"
        return False
    d.best_value = rows[0].value
    d.best = [row.move for row in rows if row.value == d.best_value]
    d.played_value = next(row.value for row in rows if row.move == d.played)
    return True


def _judge_fair(d: Decision, worlds: int, seed: int, threads: Optional[int], tt_mb: Optional[float],
                time_limit: Optional[float]) -> None:
    """Set `d`'s fair figures by `suggest` on the player's view; a view or search that the
    game does not support (yet) leaves them None with `d.fair_reason`."""
    try:
        view = d.position.view(d.player)
        s = suggest(view, worlds=worlds, seed=_decision_seed(seed, d.round, d.number), threads=threads,
                    progress=False, tt_mb=tt_mb, time_limit=time_limit)       # None: none (not suggest's default)
        played = next(m.mean for m in s.moves if m.move == d.played)
    except TimeLimitError:
        raise                       # the review's budget: `review` stops
    except (ViewError, LimitError) as exc:
        d.fair_reason = str(exc)
        return
    d.fair_best = s.best
    d.fair_best_mean = s.moves[0].mean
    d.fair_played_mean = played
    d.fair_worlds = s.worlds
    d.fair_exact = s.exact


EQUILIBRIUM_ITERATIONS = 1000
"""The CFR+ iterations at most of one decision's equilibrium in `review` (the exploitability
target, 0.01 round points, is reached in far fewer: tens)."""


def _judge_equilibrium(d: Decision, threads: Optional[int], time_limit: Optional[float]) -> None:
    """Set `d`'s equilibrium figures (two-player Scopa, the last two deals); other decisions
    are left alone, a limit reached leaves `d.eq_reason`."""
    from ..imperfect.equilibrium import equilibrium
    pos = d.position
    if not pos.rules.is_standard or pos.deals_left > 1 or d.forced:
        return
    try:
        eq = equilibrium(pos.view(d.player), threads=threads, time_limit=time_limit,
                         max_iterations=EQUILIBRIUM_ITERATIONS)
    except TimeLimitError:
        raise
    except (ViewError, LimitError) as exc:
        d.eq_reason = str(exc)
        return
    d.eq_best = eq.best
    d.eq_loss = eq.losses[d.played]
    d.eq_probability = eq.strategy[d.played]
    d.eq_exploitability = eq.exploitability


def review(record: GameRecord, *, worlds: Optional[int] = 50, seed: int = 0, threads: Optional[int] = None,
           rounds: Optional[Sequence[int]] = None, players: Optional[Sequence[str]] = None,
           progress: Optional[bool] = None, tt_mb: Optional[float] = None,
           max_nodes: Optional[int] = HINDSIGHT_NODES, time_limit: Optional[float] = None,
           fair_time_limit: Optional[float] = None, equilibrium: bool = False,
           equilibrium_time_limit: Optional[float] = None, budget: Optional[float] = None) -> Review:
    """Review every decision of `record` (see the module docstring).

    `worlds`: PIMC worlds per decision for the fair review (all of them when there are fewer;
    None skips the fair review); `seed` makes the sampled worlds reproducible; `threads` the
    PIMC workers (None: every core). `rounds` (1-based numbers) and `players` (names) restrict
    the review. `max_nodes` and `time_limit` (seconds) bound the hindsight search of each
    decision (None: no bound; a decision over the budget is not judged by hindsight);
    `fair_time_limit` bounds each fair `suggest`. `equilibrium`: also judge the two-player
    decisions of the last two deals against the endgame equilibrium (`equilibrium`, at most
    `EQUILIBRIUM_ITERATIONS` CFR+ iterations and `equilibrium_time_limit` seconds each: the first
    play of the last-but-one deal takes about 10 s). `progress`: a progress bar over the
    decisions (None: on a terminal, after a second).

    `budget` (seconds, None: none) bounds the whole review, every search in it included
    (`kernel.time_box`): when it runs out the review stops and returns what it has, with
    `complete` False; the decisions it did not judge give the reason (`hindsight_reason`,
    `fair_reason`)."""
    if worlds is not None and (not isinstance(worlds, int) or isinstance(worlds, bool) or worlds < 1):
        raise ValueError(f"worlds must be a positive whole number or None, not {worlds!r}")
    if max_nodes is not None and (not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive whole number or None, not {max_nodes!r}")
    kernel.check_limits(None, budget)
    start = time.perf_counter()
    replayed = record.replay()       # checked once; each round's positions are replayed below
    chosen = [r for r in replayed if rounds is None or r.number in rounds]

    def wanted(r: ReplayedRound) -> Iterator[tuple[int, Position, Move]]:
        """(move index, position, move) of the decisions of round `r` to review."""
        for k, (pos, move) in enumerate(zip(r.iter_positions(), r.moves)):
            if players is None or r.players[pos.to_move] in players:
                yield k, pos, move

    total = (sum(len(r.moves) for r in chosen) if players is None
             else sum(1 for r in chosen for _ in wanted(r)))

    def decisions_of(r: ReplayedRound) -> list[Decision]:
        return [Decision(round=r.number, number=k + 1, player=pos.to_move, name=r.players[pos.to_move],
                         position=pos, played=move, legal=len(pos.legal_moves()))
                for k, pos, move in wanted(r)]

    decisions: list[Decision] = []
    complete, reviewed = True, 0      # rounds reviewed to the end
    bar = progress_bar(total, "review", progress, unit="move")
    scope = ExitStack()
    try:
        scope.enter_context(kernel.time_box(budget, "the review"))
        for r in chosen:
            found = decisions_of(r)
            # From the end of the round backwards: once a position is over the budget, the
            # earlier ones (more cards in play) would be too, and are not searched.
            over: Optional[Decision] = None
            for d in reversed(found):
                if not d.forced:
                    if over is not None:
                        d.hindsight_reason = (f"not searched: a later position of the round (move "
                                              f"{over.number}) already needed more than "
                                              f"{_budget(max_nodes, time_limit)}")
                    elif not _judge_hindsight(d, max_nodes, time_limit, tt_mb):
                        over = d
                    if worlds is not None:
                        _judge_fair(d, worlds, seed, threads, tt_mb, fair_time_limit)
                    if equilibrium:
                        _judge_equilibrium(d, threads, equilibrium_time_limit)
                bar.update(1)
            decisions.extend(found)
            reviewed += 1
    except TimeLimitError as exc:   # the budget ran out: what is judged stays, the rest says why
        complete = False
        decisions.extend(found)     # the round it stopped in, then those not started
        decisions.extend(d for r in chosen[reviewed + 1:] for d in decisions_of(r))
        for d in decisions:
            if not d.judged and d.hindsight_reason is None:
                d.hindsight_reason = f"not judged: {exc}"
            if worlds is not None and not d.forced and d.fair_best is None and d.fair_reason is None:
                d.fair_reason = f"not judged: {exc}"
    finally:
        scope.close()
        bar.close()
    return Review(record=record, decisions=decisions, worlds=worlds, seed=seed,
                  seconds=time.perf_counter() - start, scores=[r.points for r in replayed],
                  round_players=[r.players for r in replayed], max_nodes=max_nodes, time_limit=time_limit,
                  equilibrium=equilibrium, budget=budget, complete=complete)
