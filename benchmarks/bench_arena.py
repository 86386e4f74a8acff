"""Bot against bot in duplicate deals: the figures of README and docs/play.md.

    python benchmarks/bench_arena.py A B [C ...] [--rules OPTION ...] [--rounds N] [--matches M] [--seed S]
                                     [--worlds W] [--threads T] [--json]

A and B are random, greedy, pimc, infer, model, epimc (epimc:d=3,n=30,...) or oracle, or
EARLY/LATE (EARLY until the last three deals, LATE in them: greedy/pimc). `--rules` names the game with the notation's options
(`--rules players=4 game=scientifico`, `--rules players=3 target=16`; default two-player Scopa):
with two sides (two players, partnerships) A plays every seat of its side against B's; with
three or more sides every deal is played in every seating, and the bots are A, B, C, ... one
per side, B filling the sides not named (`pimc greedy --rules players=3`: PIMC against two
Greedy bots). `--worlds` is the PIMC bot's worlds per decision
(every world when there are at most 2,000, as at the last-but-one deal), `--threads` its workers.
Two more bots measure what the opponent's hidden hand is worth (docs/benchmarks.md, "What the hidden hand
costs"): `sees-hand` is PIMC that is shown the opponent's hand and draws only the stock,
`sees-hand-after` is shown it only once the opponent has played a card of the deal. Both see
it only while there are more than 2,000 worlds (the first four deals); later they are `pimc`.
`pimc-before` is PIMC with the family games' settings before the game's budgets (docs/play.md,
"Time budgets"): 100 worlds of `WORLD_NODES` nodes each, 2 s a decision; `pimc` (without
`--worlds`) has the game's (`PIMCBot`, `decision_seconds`).
``run(**options)`` returns the figures as a dict, ``report(figures)`` the text, ``main(argv)`` the
command line.

`--match-objective` (issue 42) plays instead whole matches to 11 on duplicate deals between a
bot with the match objective and the same bot with the margin objective (A: oracle or pimc:N),
with `--matches` duplicate pairs (2 matches each), reporting A's share of the matches won with
its 95% CI and how often the two objectives choose different moves by match score
(``match_objective(...)``; ``--minutes`` stops between chunks of 50 pairs once spent). The
equity is the shipped `MatchEquity` when there is one, else `RoundEquity`, a table computed here
from a round-outcome distribution measured by oracle self-play (``--equity-rounds``). Bot names are read by the package's `make_bot`, and here the two hand seers.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, Sequence, Union

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import functools  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402

from scopa_solver.core.flow import match_winner  # noqa: E402
from scopa_solver.core.position import Position  # noqa: E402
from scopa_solver.play.bots import OracleBot  # noqa: E402
from scopa_solver.play.game import play_round  # noqa: E402
from scopa_solver.search.solver import solve  # noqa: E402

from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.kernel import Limit  # noqa: E402
from scopa_solver.core.rules import Rules  # noqa: E402
from scopa_solver.errors import ScopaError  # noqa: E402
from scopa_solver.play.arena import ArenaResult, arena  # noqa: E402
from scopa_solver.play.bot_names import BOT_NAMES, make_bot  # noqa: E402
from scopa_solver.core.view import view_seed  # noqa: E402
from scopa_solver.play.bots import DECISION_SECONDS, Bot, PIMCBot, decision_seconds  # noqa: E402
from scopa_solver.core.cards import iter_cards  # noqa: E402
from scopa_solver.imperfect.pimc import EXACT_LIMIT, WORLD_NODES, solve_worlds, value_matrix  # noqa: E402

SEER_NAMES = ("sees-hand", "sees-hand-after")
BEFORE = "pimc-before"


class HandSeer(Bot):
    """A measuring device, not a player: PIMC shown the opponent's current hand (with `after`,
    only once the opponent has played a card of the deal), its worlds drawing only the stock.
    It peeks at the position, like the oracle."""

    def __init__(self, after: bool, worlds: int, seed: int, threads: Optional[int]) -> None:
        self.after, self.worlds, self.seed, self.threads = after, worlds, seed, threads
        self.pimc = PIMCBot(Limit(time=DECISION_SECONDS, threads=threads), worlds=worlds, seed=seed)
        self.name = f"PIMC({worlds}) shown the hand" + (" after a play" if after else "")

    def __call__(self, position):
        view = position.view(position.to_move)
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if view.count_worlds() <= EXACT_LIMIT or (self.after and view.opponent_cards == 3):
            return self.pimc.choose(view)
        rng = random.Random(view_seed(self.seed, view))
        hand = position.hands[1 - position.to_move]
        tuples = []
        for _ in range(self.worlds):
            stock = [c.mask for c in iter_cards(view.unseen & ~hand)]
            rng.shuffle(stock)
            tuples.append(view.state_of([hand] + [sum(stock[i:i + 3]) for i in range(0, len(stock), 3)]))
        values, _ = value_matrix(moves, solve_worlds(tuples, Limit(threads=self.threads)))
        mean = values.mean(axis=0)
        return moves[min(range(len(moves)), key=lambda j: (-mean[j], str(moves[j])))]


def bot(spec: str, worlds: Optional[int], seed: int, threads: Optional[int], rules: Optional[Rules] = None):
    """A hand seer by its name, `pimc-before`, else the bot `make_bot` makes of `spec` for the
    game of `rules` (`worlds` None: make_bot's default)."""
    if spec in SEER_NAMES:
        return HandSeer(spec.endswith("after"), worlds or 50, seed, threads)
    if spec == BEFORE:
        before = PIMCBot(Limit(time=DECISION_SECONDS, nodes=WORLD_NODES, threads=threads), worlds=worlds or 100,
                         seed=seed)
        before.name = f"PIMC({worlds or 100}) before"
        return before
    return make_bot(spec, Limit(time=decision_seconds(rules), threads=threads), worlds=worlds, seed=seed, rules=rules)


def run(bot_a: str, bot_b: str, rounds: int = 100, matches: int = 0, seed: int = 1, worlds: Optional[int] = None,
        threads: Optional[int] = 1, progress: Optional[bool] = None, rules: Union[Rules, str, Sequence[str]] = (),
        others: Sequence[str] = ()) -> dict:
    """Play `rounds` duplicate deals (and `matches` duplicate match pairs) of bot A against B in
    the game of `rules` (a Rules value or its option tokens); with three or more sides, A, B and
    `others` one per side (B filling the sides left), every deal in every seating."""
    if not isinstance(rules, Rules):
        rules = Rules.from_tokens(rules)
    sides = rules.side_count
    specs = [bot_a, bot_b, *others]
    if len(specs) > sides:
        raise ScopaError(f"{' '.join(rules.tokens()) or 'two-player Scopa'} has {sides} sides: "
                         f"at most {sides} bots, not {len(specs)}")
    if not rules.is_standard and any(spec in SEER_NAMES for spec in specs):
        raise ScopaError("the hand seers measure two-player Scopa only")
    specs += [bot_b] * (sides - len(specs))
    bots = [bot(spec, worlds, seed + j, threads, rules) for j, spec in enumerate(specs)]
    names = [getattr(b, "name", spec) for b, spec in zip(bots, specs)]
    if len(set(names)) < len(names) and sides > 2:      # tell the copies apart in the figures
        for j, b in enumerate(bots):
            b.name = f"{names[j]} {chr(ord('A') + j)}"
    if sides == 2:
        r = arena(bots[0], bots[1], rounds=rounds, seed=seed, matches=matches, progress=progress, rules=rules)
    else:
        r = arena(bots=bots, rounds=rounds, seed=seed, matches=matches, progress=progress, rules=rules)
    d = r.to_dict()   # JSON-ready: a figure that is not finite (one deal's spread) is None
    common = {"rules": rules.tokens(), "matches": r.matches, "decisions": d["decisions"],
              "bot_seconds": d["bot_seconds"], "seconds": r.seconds, "seed": seed, "worlds": worlds,
              "threads": threads, "text": str(r)}
    if not isinstance(r, ArenaResult):
        return {"bots": list(r.bots), "deals": r.deals, "seatings": r.seatings, "rounds": r.rounds_played,
                "mean_points": d["mean_points"], "ci95": d["ci95"], "round_wins": d["round_wins"],
                "round_ties": d["round_ties"], "match_win_rate": d["match_win_rate"],
                "match_ci95": d["match_ci95"], "points": d["points"], **common}
    return {"bot_a": r.bot_a, "bot_b": r.bot_b, "deals": r.deals, "rounds": r.rounds_played,
            "mean_margin": d["mean"], "ci95": d["ci95"], "stderr": d["stderr"],
            "a_points": d["a_points"], "b_points": d["b_points"], "round_wins": d["round_wins"],
            "round_ties": d["round_ties"], "match_win_rate": r.match_win_rate,
            "match_ci95": d["match_ci95"], "decisions_per_second": d["decisions_per_second"],
            "margins": d["margins"], **common}


class RoundEquity:
    """The benchmark's stand-in match equity of two-player Scopa while none is shipped: the
    chance to win from every score and dealer, by backward induction over a round-outcome
    distribution (`counts`: {(dealer's points, the other's): rounds}); a level score at or over
    the target plays another round (solved in closed form)."""

    def __init__(self, counts: dict, target: int = 11) -> None:
        total = sum(counts.values())
        if (0, 0) in counts or not total:
            raise ValueError("every round scores a point (the settebello): no (0, 0) outcome")
        self.probs = [(xy, n / total) for xy, n in sorted(counts.items())]
        self.target = target
        self.rounds = total
        # level at or over the target, seat d to deal: the chance that seat 0 wins
        win = [sum(p for (x, y), p in self.probs if (x > y if d == 0 else y > x)) for d in (0, 1)]
        same = sum(p for (x, y), p in self.probs if x == y)
        self.level = [(win[d] + same * win[1 - d]) / (1 - same * same) for d in (0, 1)]

    def __repr__(self) -> str:
        return f"RoundEquity({self.rounds} rounds, target={self.target})"

    @functools.lru_cache(maxsize=None)
    def _chance(self, a: int, b: int, dealer: int) -> float:
        """Seat 0's chance to win from (a, b) below the target, `dealer` to deal."""
        out = 0.0
        for (x, y), p in self.probs:
            points = (x, y) if dealer == 0 else (y, x)
            out += p * self._after(a + points[0], b + points[1], 1 - dealer)
        return out

    def _after(self, a: int, b: int, dealer: int) -> float:
        winner = match_winner((a, b), self.target)
        if winner is not None:
            return 1.0 if winner == 0 else 0.0
        if max(a, b) >= self.target:
            return self.level[dealer]
        return self._chance(a, b, dealer)

    def chance(self, score, dealer: int, side: int = 0) -> float:
        c = self._after(score[0], score[1], dealer)
        return c if side == 0 else 1.0 - c

    def after_round(self, score, round_points, dealer: int, side: int) -> float:
        return self.chance((score[0] + round_points[0], score[1] + round_points[1]), 1 - dealer, side)


def round_outcomes(rounds: int, seed: int = 7) -> dict:
    """{(dealer's points, the other's): count} over `rounds` seeded rounds of oracle self-play."""
    rng = random.Random(seed)
    oracle = OracleBot(Limit(threads=1))
    counts: Counter = Counter()
    for i in range(rounds):
        dealer = i % 2
        score = play_round(Position.new_round(seed=rng.getrandbits(64), dealer=dealer), oracle, oracle).score.total
        counts[(score[dealer], score[1 - dealer])] += 1
    return dict(counts)


def _bucket(points: int) -> str:
    return "0-4" if points <= 4 else "5-7" if points <= 7 else "8-9" if points <= 9 else "10+"


class Witness(Bot):
    """A measuring wrapper of the match bot: at each of its decisions in a match, whether the two
    objectives choose differently, by the match score from the mover's side. "differ": the match
    bot's move is one the margin would not play (the oracle: not among the margin's optimal moves;
    PIMC: the margin bot, same seed, picks another); "costly" (the oracle only): the margin's move
    (the first of its optimal moves) is not among the match's optimal moves, so playing for the
    margin there gives up some chance to win the match."""

    def __init__(self, bot: Bot, margin: Bot) -> None:
        self.bot, self.margin = bot, margin
        self.name = bot.name
        self.score: Optional[tuple] = None
        self.tally: dict = defaultdict(lambda: [0, 0, 0])   # (own, other) -> [decisions, differ, costly]

    def start_round(self, score, target) -> None:
        self.bot.start_round(score, target)
        self.score = score

    def __call__(self, position):
        move = self.bot(position)
        if self.score is not None and len(position.legal_moves()) > 1:
            costly = False
            if isinstance(self.bot, OracleBot):
                margin = solve(position, Limit(threads=1)).best_moves
                differs = move not in margin
                costly = margin[0] not in solve(position, Limit(threads=1), objective=self.bot.match).best_moves
            else:
                differs = self.margin(position) != move
            side = position.rules.sides[position.to_move]
            row = self.tally[(self.score[side], self.score[1 - side])]
            row[0] += 1
            row[1] += differs
            row[2] += costly
        return move


def _share_ci(scores: list) -> tuple:
    """The mean of the pairs' shares and its 95% CI (None from a single pair)."""
    n = len(scores)
    mean = sum(scores) / n
    if n < 2:
        return mean, None
    se = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1) / n)
    return mean, (mean - 1.959963984540054 * se, mean + 1.959963984540054 * se)


def match_objective(kind: str = "oracle", matches: int = 1000, seed: int = 42, minutes: Optional[float] = None,
                    equity_rounds: int = 600, worlds: Optional[int] = None, threads: Optional[int] = 1,
                    log: Optional[object] = None) -> dict:
    """Bot `kind` ("oracle" or "pimc[:N]") with ``objective="match"`` against the same bot with the
    margin objective: `matches` duplicate pairs of whole two-player matches to 11 (chunks of 50,
    seeds from `seed`; `minutes` stops between chunks once spent). The figures: the match bot's
    share of the matches won with its 95% CI (over the pairs), the matches, the decisions where the
    objectives differ by match score, the equity used and the times."""
    start = time.perf_counter()
    rules = Rules()
    try:
        from scopa_solver.play.equity import MatchEquity  # type: ignore[import-not-found,unused-ignore]
        equity, equity_name = MatchEquity.of(rules), "MatchEquity (shipped)"
        equity_seconds = 0.0
    except (ImportError, ValueError):
        counts = round_outcomes(equity_rounds)
        equity = RoundEquity(counts, rules.target)
        equity_name = f"RoundEquity (stand-in: {equity_rounds} rounds of oracle self-play)"
        equity_seconds = time.perf_counter() - start
    limit = Limit(time=decision_seconds(rules), threads=threads)
    if kind == "oracle":
        match_bot: Bot = OracleBot(Limit(threads=threads), objective="match", equity=equity)
        margin_bot: Bot = OracleBot(Limit(threads=threads))
        witness_margin: Bot = margin_bot
    else:
        _, _, arg = kind.partition(":")
        count = int(arg) if arg else (worlds or 50)
        match_bot = PIMCBot(limit, worlds=count, seed=seed, objective="match", equity=equity)
        margin_bot = PIMCBot(limit, worlds=count, seed=seed)
        witness_margin = PIMCBot(limit, worlds=count, seed=seed)
    witness = Witness(match_bot, witness_margin)
    scores: list = []
    decisions = [0, 0]
    bot_seconds = [0.0, 0.0]
    chunk, k = 50, 0
    while len(scores) < matches:
        if minutes is not None and time.perf_counter() - start > 60 * minutes:
            break
        n = min(chunk, matches - len(scores))
        r = arena(witness, margin_bot, rounds=0, matches=n, seed=seed + k, progress=False, rules=rules)
        k += 1
        scores += r.match_scores
        decisions = [d + e for d, e in zip(decisions, r.decisions)]
        bot_seconds = [d + e for d, e in zip(bot_seconds, r.bot_seconds)]
        if log is not None:
            share, ci = _share_ci(scores)
            print(f"{2 * len(scores)} matches: {100 * share:.1f}% {ci} {time.perf_counter() - start:.0f} s",
                  file=log, flush=True)     # type: ignore[call-overload]
    share, ci = _share_ci(scores)
    table: dict = defaultdict(lambda: [0, 0, 0])
    for (own, other), counts in witness.tally.items():
        cell = table[(_bucket(own), _bucket(other))]
        for i, c in enumerate(counts):
            cell[i] += c
    total = [sum(v[i] for v in table.values()) for i in range(3)]
    return {"kind": kind, "bot_a": match_bot.name, "bot_b": margin_bot.name, "pairs": len(scores),
            "matches": 2 * len(scores), "seed": seed, "equity": equity_name, "equity_seconds": equity_seconds,
            "match_win_rate": share, "match_ci95": None if ci is None else list(ci),
            "wins_minus_losses": 2 * sum(scores) - len(scores),
            "decisions": decisions, "bot_seconds": bot_seconds, "seconds": time.perf_counter() - start,
            "differ": {f"{own} v {other}": {"decisions": n, "differ": d, "costly": c}
                       for (own, other), (n, d, c) in sorted(table.items())},
            "differ_total": {"decisions": total[0], "differ": total[1], "costly": total[2]},
            "differ_by_score": {f"{own}-{other}": v for (own, other), v in sorted(witness.tally.items())}}


def match_report(figures: dict) -> str:
    """The figures of `match_objective` as text."""
    ci = figures["match_ci95"]
    lines = [f"{figures['bot_a']} against {figures['bot_b']}: {figures['matches']:,} matches to 11 "
             f"({figures['pairs']:,} duplicate pairs), equity {figures['equity']}",
             f"  matches won by the match objective: {100 * figures['match_win_rate']:.1f}% "
             + (f"(95% CI {100 * ci[0]:.1f} to {100 * ci[1]:.1f}%)" if ci else "(one pair: no CI)"),
             f"  decisions: {figures['decisions'][0]:,} / {figures['decisions'][1]:,}, "
             f"{figures['seconds']:.0f} s in all",
             "  the match bot's decisions by match score (mover's points v the other's): how many, the share"
             " where its move is not the margin's (differ) and, for the oracle, where the margin's move loses match"
             " chance (costly)"]
    buckets = ("0-4", "5-7", "8-9", "10+")
    oracle = figures["kind"] == "oracle"        # "costly" is measured for the oracle only
    lines.append("    own \\ other " + "".join(f"{b:>24}" for b in buckets))
    for own in buckets:
        cells = []
        for other in buckets:
            cell = figures["differ"].get(f"{own} v {other}")
            costly = f" {100 * cell['costly'] / cell['decisions']:5.1f}%" if cell and oracle else ""
            cells.append(f"{cell['decisions']:>6} {100 * cell['differ'] / cell['decisions']:5.1f}%{costly}"
                         if cell and cell["decisions"] else "-")
        lines.append(f"    {own:<12}" + "".join(f"{c:>24}" for c in cells))
    t = figures["differ_total"]
    if t["decisions"]:
        lines.append(f"  in all: {t['decisions']:,} decisions, differ {100 * t['differ'] / t['decisions']:.1f}%"
                     + (f", costly {100 * t['costly'] / t['decisions']:.1f}%" if oracle else ""))
    return "\n".join(lines)


def report(figures: dict) -> str:
    """The figures of `run` as text (ArenaResult's summary, kept in the figures as "text")."""
    return figures["text"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = OneLineParser(prog=Path(__file__).name, description="Bot against bot, duplicate deals, for every game of the family.")
    parser.add_argument("bot_a", help=f"{', '.join(BOT_NAMES + SEER_NAMES)}, pimc:N, infer:T, "
                        "or EARLY/LATE (e.g. greedy/pimc)")
    parser.add_argument("bot_b", help="as bot_a")
    parser.add_argument("others", nargs="*", help="with three or more sides: the bots of the next sides "
                        "(bot_b fills the sides not named)")
    parser.add_argument("--rules", nargs="+", default=[], metavar="OPTION",
                        help="the game as notation options: players=4 game=scientifico target=21 ...")
    parser.add_argument("--rounds", type=int, default=100, help="duplicate deals (each played twice, "
                        "or in every seating with three or more sides)")
    parser.add_argument("--matches", type=int, default=0, help="duplicate sets of matches to the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=None,
                        help="worlds per PIMC decision (default 50; pimc in a family game: the game's)")
    parser.add_argument("--threads", type=int, default=1, help="workers per PIMC decision (0: every core)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--match-objective", action="store_true",
                        help="bot_a (oracle or pimc:N) to win the match against itself to win the round: "
                        "--matches duplicate pairs of matches to 11 (bot_b ignored)")
    parser.add_argument("--minutes", type=float, default=None, help="--match-objective: stop once spent")
    parser.add_argument("--equity-rounds", type=int, default=600,
                        help="--match-objective: oracle rounds measured for the stand-in equity")
    args = parser.parse_args(argv)
    if args.match_objective:
        figures = match_objective(args.bot_a, matches=args.matches or 1000, seed=args.seed, minutes=args.minutes,
                                  equity_rounds=args.equity_rounds, worlds=args.worlds, threads=args.threads,
                                  log=sys.stderr)
        print(json.dumps(figures, indent=2) if args.json else match_report(figures))
        return 0
    try:
        result = run(args.bot_a, args.bot_b, rounds=args.rounds, matches=args.matches, seed=args.seed,
                     worlds=args.worlds, threads=args.threads, rules=args.rules, others=args.others)
    except ScopaError as exc:
        parser.error(str(exc))
    print(json.dumps(result, indent=2, allow_nan=False) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
