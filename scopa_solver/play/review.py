"""A whole-game review, like a chess engine's game report.

For every decision of both players in a `GameRecord` the review sets the move played against

- the *hindsight* best: `analyze` of the full position, every card seen (what a clairvoyant
  player would have played), and
- the *fair* best: `suggest` (PIMC) on the player's own view, with `worlds` sampled worlds (or
  all of them when there are fewer), which is what the player could have known.

Points lost are the best move's value minus the played move's value (round margin points for
the player; for the fair figures, means over the worlds). A decision that lost at least
`MISTAKE` points is marked ``?``, at least `BLUNDER` points ``??``; the hindsight mark is the
decision's mark, and the fair column carries its own. Forced moves (one legal move) are not
judged. A summary per player (by name: in an arena the seats swap) adds it all up.

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
"""
from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

from ..imperfect.pimc import suggest
from ..progress import progress_bar
from ..core.position import Move, Position
from .record import GameRecord, ReplayedRound
from ..search.solver import analyze

__all__ = ["review", "Review", "Decision", "PlayerSummary", "MISTAKE", "BLUNDER", "mark"]

MISTAKE = 1.0
"""Points lost (by hindsight) from which a decision is marked ``?``."""
BLUNDER = 2.0
"""Points lost from which a decision is marked ``??``."""


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
    player: int
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

    @property
    def forced(self) -> bool:
        return self.legal == 1

    @property
    def loss(self) -> int:
        """Points lost by hindsight: the best value minus the played move's (0 when forced)."""
        if self.best_value is None or self.played_value is None:
            return 0
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
    def mark(self) -> str:
        """``?`` or ``??`` by the points lost by hindsight."""
        return mark(self.loss)

    @property
    def fair_mark(self) -> str:
        return mark(self.fair_loss)

    def to_dict(self) -> dict:
        return {
            "round": self.round, "move": self.number, "player": self.player, "name": self.name,
            "position": self.position.to_string(), "played": str(self.played), "legal_moves": self.legal,
            "forced": self.forced, "mark": self.mark,
            "hindsight": {"best": [str(m) for m in self.best], "best_value": self.best_value,
                          "played_value": self.played_value, "loss": self.loss},
            "fair": None if self.fair_best is None and not self.forced else {
                "best": str(self.fair_best) if self.fair_best else str(self.played),
                "best_mean": self.fair_best_mean, "played_mean": self.fair_played_mean,
                "loss": self.fair_loss, "worlds": self.fair_worlds, "exact": self.fair_exact,
                "mark": self.fair_mark},
        }


@dataclass
class PlayerSummary:
    """One player's figures over the reviewed decisions (forced moves excluded)."""

    name: str
    decisions: int = 0
    forced: int = 0
    loss: int = 0                    # hindsight points lost in all
    best: int = 0                    # decisions that played a hindsight-optimal move
    mistakes: int = 0                # marked ?
    blunders: int = 0                # marked ??
    fair_loss: float = 0.0
    fair_best: int = 0               # decisions that played PIMC's best move
    fair_mistakes: int = 0           # fair loss marked ? or ??
    fair_judged: int = 0

    @property
    def loss_per_decision(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def accuracy(self) -> float:
        """Share of decisions that played a hindsight-optimal move."""
        return self.best / self.decisions if self.decisions else 1.0

    @property
    def fair_loss_per_decision(self) -> Optional[float]:
        return self.fair_loss / self.fair_judged if self.fair_judged else None

    @property
    def agreement(self) -> Optional[float]:
        """Share of decisions that played PIMC's best move."""
        return self.fair_best / self.fair_judged if self.fair_judged else None

    def to_dict(self) -> dict:
        return {"name": self.name, "decisions": self.decisions, "forced": self.forced,
                "loss": self.loss, "loss_per_decision": self.loss_per_decision, "accuracy": self.accuracy,
                "mistakes": self.mistakes, "blunders": self.blunders,
                "fair_loss": self.fair_loss if self.fair_judged else None,
                "fair_loss_per_decision": self.fair_loss_per_decision, "agreement": self.agreement,
                "fair_mistakes": self.fair_mistakes if self.fair_judged else None}


@dataclass
class Review:
    """The outcome of `review`: every decision in play order and a summary per player."""

    record: GameRecord
    decisions: list[Decision]
    worlds: Optional[int]            # PIMC worlds per decision (None: no fair review)
    seed: int
    seconds: float
    scores: list[Optional[tuple[int, int]]]   # each round's score (None: unfinished)
    round_players: list[tuple[str, str]]

    def summaries(self) -> dict[str, PlayerSummary]:
        """Per player name, in order of appearance."""
        out: dict[str, PlayerSummary] = {}
        for names in self.round_players:
            for n in names:
                out.setdefault(n, PlayerSummary(n))
        for d in self.decisions:
            s = out.setdefault(d.name, PlayerSummary(d.name))
            if d.forced:
                s.forced += 1
                continue
            s.decisions += 1
            s.loss += d.loss
            s.best += d.loss == 0
            s.mistakes += d.mark == "?"
            s.blunders += d.mark == "??"
            if d.fair_loss is not None:
                s.fair_judged += 1
                s.fair_loss += d.fair_loss
                s.fair_best += d.fair_best == d.played
                s.fair_mistakes += bool(d.fair_mark)
        return out

    def mistakes(self) -> list[Decision]:
        """The decisions marked ``?`` or ``??`` by hindsight."""
        return [d for d in self.decisions if d.mark]

    def to_dict(self) -> dict:
        """Plain data (JSON-ready): the record's players and rules, every decision, the summaries."""
        return {"players": list(self.record.players), "kind": self.record.kind, "rules": self.record.rules.tokens(),
                "worlds": self.worlds, "seed": self.seed, "seconds": self.seconds,
                "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER},
                "rounds": [{"round": i + 1, "players": list(names), "score": list(score) if score else None}
                           for i, (names, score) in enumerate(zip(self.round_players, self.scores))],
                "decisions": [d.to_dict() for d in self.decisions],
                "summary": [s.to_dict() for s in self.summaries().values()]}

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
            result = f"{names[0]} {score[0]}, {names[1]} {score[1]}" if score else "unfinished"
            lines.append(f"round {i + 1}: {names[rec.dealer]} deals; {result}")
            head = (f"  {'#':>3}  {'player':<{width}}  {'played':<13} {'':2}  {'best (hindsight)':<16} "
                    f"{'value':>6} {'lost':>4}")
            if fair:
                head += f"   {'best (fair)':<13} {'lost':>5}"
            lines.append(head.rstrip())
            rows = [d for d in self.decisions if d.round == i + 1 and (all_moves or d.mark or d.fair_mark)]
            for d in rows:
                if d.forced:
                    best, value, lost = "(forced)", "", ""
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
                        line += f"   {'?':<13} {'':>5}"
                    else:
                        fl = f"{d.fair_loss:.2f}" if d.fair_loss >= 0.005 else "-"
                        fb = d.played if d.fair_loss < 0.005 else d.fair_best
                        line += f"   {str(fb):<13} {fl:>5} {d.fair_mark:<2}"
                lines.append(line.rstrip())
            if not rows:
                lines.append("  (no marked moves)")
            lines.append("")
        lines.append(f"summary (? lost {MISTAKE:g} point or more, ?? {BLUNDER:g} or more; "
                     + (f"fair: PIMC with {self.worlds} worlds per decision, seed {self.seed})" if fair
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
        lines.append(f"{len(self.decisions)} decisions reviewed in {self.seconds:.1f} s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _decision_seed(seed: int, round_number: int, move_number: int) -> int:
    return zlib.crc32(f"{seed}:{round_number}:{move_number}".encode()) | (seed & 0xFFFFFFFF) << 32


def review(record: GameRecord, *, worlds: Optional[int] = 50, seed: int = 0, threads: Optional[int] = None,
           rounds: Optional[Sequence[int]] = None, players: Optional[Sequence[str]] = None,
           progress: Optional[bool] = None, tt_mb: Optional[float] = None) -> Review:
    """Review every decision of `record` (see the module docstring).

    `worlds`: PIMC worlds per decision for the fair review (all of them when there are fewer;
    None skips the fair review); `seed` makes the sampled worlds reproducible; `threads` the
    PIMC workers (None: every core). `rounds` (1-based numbers) and `players` (names) restrict
    the review. `progress`: a progress bar over the decisions (None: on a terminal, after a
    second)."""
    if worlds is not None and (not isinstance(worlds, int) or isinstance(worlds, bool) or worlds < 1):
        raise ValueError(f"worlds must be a positive whole number or None, not {worlds!r}")
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
    decisions: list[Decision] = []
    bar = progress_bar(total, "review", progress, unit="move")
    try:
        for r, k, pos, move in ((r, k, pos, move) for r in chosen for k, pos, move in wanted(r)):
            player = pos.to_move
            d = Decision(round=r.number, number=k + 1, player=player, name=r.players[player],
                         position=pos, played=move, legal=len(pos.legal_moves()))
            if not d.forced:
                rows = analyze(pos, tt_mb=tt_mb)
                d.best_value = rows[0].value
                d.best = [row.move for row in rows if row.value == d.best_value]
                d.played_value = next(row.value for row in rows if row.move == move)
                if worlds is not None:
                    s = suggest(pos.view(player), worlds=worlds, seed=_decision_seed(seed, r.number, k + 1),
                                threads=threads, progress=False, tt_mb=tt_mb)
                    d.fair_best = s.best
                    d.fair_best_mean = s.moves[0].mean
                    d.fair_played_mean = next(m.mean for m in s.moves if m.move == move)
                    d.fair_worlds = s.worlds
                    d.fair_exact = s.exact
            decisions.append(d)
            bar.update(1)
    finally:
        bar.close()
    return Review(record=record, decisions=decisions, worlds=worlds, seed=seed,
                  seconds=time.perf_counter() - start, scores=[r.points for r in replayed],
                  round_players=[r.players for r in replayed])
