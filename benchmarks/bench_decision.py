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
"""
from __future__ import annotations

import json
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
from scopa_solver.errors import ScopaError  # noqa: E402
from scopa_solver.play.bot_names import make_bot  # noqa: E402
from scopa_solver.play.bots import DECISION_SECONDS  # noqa: E402
from scopa_solver.play.game import play_round  # noqa: E402


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


HARD = ("Ad6dRd/2cRcRs 7cAs5s6sRb 4d5d4c5cFc2sFs2b/3d7dFdAc3cCc3s4s7sCs3b5b7bFbCb 6c4b6bCd2dAb 0/0 1 0 0",
        "2d4c5b/FcCs4b 6cRc2s3sFs7b Ad3d4d5d7d2c5c4sRs3bRb/CdAc7cCc5s6s7sAb2b6bCb FbFdAs6dRd3c 1/0 1 0 1")


def run(bot: str, rounds: int = 10, seed: int = 1, worlds: int = 50, threads: int = 2,
        opponent: str = "greedy", time_limit: Optional[float] = DECISION_SECONDS, hard: bool = False) -> dict:
    chooser = make_bot(bot, worlds=worlds, seed=seed, threads=threads, time_limit=time_limit)
    other = make_bot(opponent, worlds=worlds, seed=seed + 1, threads=threads, time_limit=time_limit)
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
        fresh = make_bot(bot, worlds=worlds, seed=seed, threads=threads, time_limit=time_limit)
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
    parser.add_argument("--worlds", type=int, default=50)
    parser.add_argument("--threads", type=int, nargs="+", default=[2])
    parser.add_argument("--time-limit", default=str(DECISION_SECONDS), help="seconds a decision, or none")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--hard", action="store_true", help="also the hard single decisions of issue 29")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        limit = None if args.time_limit.lower() == "none" else float(args.time_limit)
    except ValueError:
        parser.error(f"--time-limit takes seconds or none, not {args.time_limit!r}")
    outs = []
    for bot in args.bot:
        for threads in args.threads:
            try:
                out = run(bot, args.rounds, args.seed, args.worlds, threads, args.opponent, limit, args.hard)
            except ScopaError as exc:      # an unknown bot: one line naming the known ones
                parser.error(str(exc))
            outs.append(out)
            if not args.json:
                print(report(out), flush=True)
    if args.json:
        print(json.dumps(outs, indent=1))


if __name__ == "__main__":
    main()
