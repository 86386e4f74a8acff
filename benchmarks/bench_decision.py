"""A bot's decision time: median, p90, p99 and max over every decision of some rounds.

    python benchmarks/bench_decision.py BOT [BOT ...] [--rounds N] [--seed S] [--worlds W]
                                        [--threads T [T ...]] [--time-limit SECONDS|none]
                                        [--opponent greedy] [--hard] [--json]

Each BOT is a `make_bot` name (epimc, epimc:q=12, model, pimc, ...), playing `--rounds` rounds
against the opponent (both seats in turn) with each `--threads` count; every decision with more
than one legal move is timed, overall and per deal (1 = the first deal of the round, 6 = the
last). `--time-limit` is every bot's per-decision budget (default `DECISION_SECONDS`; none: no
budget), and `over` counts the decisions that overran it by more than 10%. `--hard` adds the
single decisions of issue 29 that took 22-29 s of CPU before the budget (epimc:q=12, the
last-but-one deal).

    python benchmarks/bench_decision.py BOT --turns --rules players=4 game=scopone [--rounds N]
                                        [--worlds W] [--max-nodes N] [--time-limit S] [--threads 0]

`--turns`: what a player waits in a family game (`--rules`, the notation's options): the
player's seat 0 is played by Greedy (a stand-in deciding in microseconds) and BOT plays every
other seat; each wait is the time from the player's move to the player's next turn (or the
round's end), the three bots' moves of a four-seat game; by default with the game's budgets
(`make_bot`), `--worlds 100 --max-nodes 1000000 --time-limit 2` the family settings before them.
The machine's load average is reported with the figures: a shared machine's waits are longer.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Optional

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.core.position import Position  # noqa: E402
from scopa_solver.core.rules import Rules  # noqa: E402
from scopa_solver.errors import ScopaError  # noqa: E402
from scopa_solver.kernel import Limit  # noqa: E402
from scopa_solver.play.bot_names import make_bot  # noqa: E402
from scopa_solver.play.bots import DECISION_SECONDS, decision_seconds  # noqa: E402
from scopa_solver.play.game import play_round  # noqa: E402


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


HARD = ("Ad6dRd/2cRcRs 7cAs5s6sRb 4d5d4c5cFc2sFs2b/3d7dFdAc3cCc3s4s7sCs3b5b7bFbCb 6c4b6bCd2dAb 0/0 1 0 0",
        "2d4c5b/FcCs4b 6cRc2s3sFs7b Ad3d4d5d7d2c5c4sRs3bRb/CdAc7cCc5s6s7sAb2b6bCb FbFdAs6dRd3c 1/0 1 0 1")


def run(bot: str, rounds: int = 10, seed: int = 1, worlds: int = 50, threads: int = 2,
        opponent: str = "greedy", time_limit: Optional[float] = DECISION_SECONDS, hard: bool = False) -> dict:
    limit = Limit(time=time_limit, threads=threads)
    chooser = make_bot(bot, limit, worlds=worlds, seed=seed)
    other = make_bot(opponent, limit, worlds=worlds, seed=seed + 1)
    times: dict[int, list[float]] = {}

    def timed(position: Position):
        start = time.perf_counter()
        move = chooser(position)
        if len(position.legal_moves()) > 1:
            deal = 6 - len(position.stock) // 6
            times.setdefault(deal, []).append(time.perf_counter() - start)
        return move

    for r in range(rounds):
        seats = (timed, other) if r % 2 == 0 else (other, timed)
        play_round(Position.new_round(seed=seed * 100_003 + r), *seats)
    hard_times = []
    for text in HARD if hard else ():
        fresh = make_bot(bot, limit, worlds=worlds, seed=seed)
        start = time.perf_counter()
        fresh(Position.from_string(text))
        hard_times.append(time.perf_counter() - start)
    every = [t for ts in times.values() for t in ts]

    def figures(xs: list[float]) -> dict:
        over = sum(t > 1.1 * time_limit for t in xs) if time_limit else 0
        return {"decisions": len(xs), "median": statistics.median(xs), "p90": _quantile(xs, 0.9),
                "p99": _quantile(xs, 0.99), "max": max(xs), "over": over}

    return {"bot": getattr(chooser, "name", bot), "rounds": rounds, "seed": seed, "threads": threads,
            "time_limit": time_limit, "all": figures(every), "deals": {d: figures(times[d]) for d in sorted(times)},
            "hard": hard_times}


def turns(bot: str, rules: Rules, rounds: int = 2, seed: int = 1, worlds: Optional[int] = None,
          threads: Optional[int] = None, time_limit: Optional[float] = DECISION_SECONDS,
          max_nodes: Optional[int] = None) -> dict:
    """The player's waits in a family game: seat 0 a Greedy stand-in, `bot` every other seat
    (one bot object, as `scopa-solver play` makes them; `worlds` None: `make_bot`'s default for
    the game), each wait the bots' thinking from one of the player's moves to the next."""
    options = {} if worlds is None else {"worlds": worlds}
    chooser = make_bot(bot, Limit(time=time_limit, nodes=max_nodes, threads=threads), seed=seed, rules=rules,
                       **options)       # max_nodes: today's family setting, pimc:100 --max-nodes 1000000 --time-limit 2
    solved: list = []
    stand_in = make_bot("greedy")
    waits: list[float] = []
    decisions: list[float] = []
    wait = [0.0, 0]          # seconds, bot moves since the player's last move

    def player(position: Position):
        if wait[1]:
            waits.append(wait[0])
        wait[0], wait[1] = 0.0, 0
        return stand_in(position)

    def timed(position: Position):
        start = time.perf_counter()
        move = chooser(position)
        took = time.perf_counter() - start
        wait[0] += took
        wait[1] += 1
        if len(position.legal_moves()) > 1:
            decisions.append(took)
            solved.append(getattr(chooser, "last", None) or {})
        return move

    load = os.getloadavg()[0]
    for r in range(rounds):
        play_round(Position.new_round(seed=seed * 100_003 + r, rules=rules), player,
                   *[timed] * (rules.players - 1))
        if wait[1]:          # the bots' last moves of the round: the player waits for the score
            waits.append(wait[0])
        wait[0], wait[1] = 0.0, 0
    return {"bot": getattr(chooser, "name", bot), "rules": rules.tokens(), "rounds": rounds, "seed": seed,
            "threads": threads, "time_limit": time_limit, "waits": len(waits),
            "median": statistics.median(waits), "p90": _quantile(waits, 0.9), "max": max(waits),
            "decisions": len(decisions), "decision_median": statistics.median(decisions), "decision_p90": _quantile(decisions, 0.9),
            "load": [load, os.getloadavg()[0]],
            "cut": sum(r.get("stopped") == "time" for r in solved),
            "horizons": sorted({r.get("horizon") or 0 for r in solved})}


def report_turns(out: dict) -> str:
    """The figures of `turns` as text."""
    budget = f"{out['time_limit']:g} s a decision" if out.get("time_limit") else "no budget"
    return (f"{out['bot']} in {' '.join(out['rules'])}: {out['rounds']} rounds, {budget}, threads "
            f"{out['threads'] or 'all'}, load {out['load'][0]:.1f}-{out['load'][1]:.1f}\n"
            f"  wait   {out['waits']:4d} turns      median {out['median']:.2f} s  p90 {out['p90']:.2f} s  "
            f"max {out['max']:.2f} s\n"
            f"  {out['decisions']:4d} decisions of one bot  median {out['decision_median']:.2f} s  p90 {out['decision_p90']:.2f} s  "
            f"cut by the time budget {out['cut']}, horizons {out['horizons']} (0: exact)")


def report(out: dict) -> str:
    """The figures of `run` as text."""
    budget = f"{out['time_limit']:g} s budget" if out.get("time_limit") else "no budget"
    lines = [f"{out['bot']}: {out['rounds']} rounds, {out['threads']} threads, {budget}"]
    for name, f in [("all", out["all"])] + [(f"deal {d}", f) for d, f in out["deals"].items()]:
        lines.append(f"  {name:<7} {f['decisions']:5d} decisions  median {f['median']:.3f} s  p90 {f['p90']:.3f} s  "
                     f"p99 {f['p99']:.3f} s  max {f['max']:.3f} s  over {f['over']}")
    if out.get("hard"):
        lines.append("  hard    " + "  ".join(f"{t:.3f} s" for t in out["hard"]))
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.splitlines()[0])
    parser.add_argument("bot", nargs="+")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=None,
                        help="worlds a PIMC decision (default 50; --turns: the game's, make_bot)")
    parser.add_argument("--threads", type=int, nargs="+", default=[2])
    parser.add_argument("--time-limit", default="game",
                        help="seconds a decision, or none (default: the game's, decision_seconds)")
    parser.add_argument("--max-nodes", type=int, default=None,
                        help="--turns with pimc: each world's node budget (default: the game's)")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--hard", action="store_true", help="also the hard single decisions of issue 29")
    parser.add_argument("--turns", action="store_true", help="the player's waits in a family game (--rules)")
    parser.add_argument("--rules", nargs="+", default=["players=4"], metavar="OPTION",
                        help="--turns: the game, as the notation's options (default players=4)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        rules = Rules.from_tokens(args.rules) if args.turns else None
    except ValueError as exc:
        parser.error(str(exc))
    try:
        limit = (None if args.time_limit.lower() == "none" else decision_seconds(rules)
                 if args.time_limit == "game" else float(args.time_limit))
    except ValueError:
        parser.error(f"--time-limit takes seconds or none, not {args.time_limit!r}")
    outs = []
    for bot in args.bot:
        for threads in args.threads:
            try:      # an unknown bot: one line naming the known ones
                out = (turns(bot, rules, args.rounds, args.seed, args.worlds, threads or None, limit, args.max_nodes)
                       if rules else run(bot, args.rounds, args.seed, args.worlds or 50, threads, args.opponent,
                                         limit, args.hard))
            except ScopaError as exc:
                parser.error(str(exc))
            outs.append(out)
            if not args.json:
                print((report_turns if rules else report)(out), flush=True)
    if args.json:
        print(json.dumps(outs, indent=1))


if __name__ == "__main__":
    main()
