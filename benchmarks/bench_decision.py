"""A bot's decision time: median, p90, p99 and max over every decision of some rounds.

    python benchmarks/bench_decision.py BOT [--rounds N] [--seed S] [--worlds W] [--threads T]
                                        [--opponent greedy] [--json]

BOT is a `make_bot` name (epimc, model, pimc, ...), playing `--rounds` rounds against the
opponent (both seats in turn); every decision with more than one legal move is timed, overall
and per deal (1 = the first deal of the round, 6 = the last).
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.core.position import Position  # noqa: E402
from scopa_solver.errors import ScopaError  # noqa: E402
from scopa_solver.play.arena import make_bot  # noqa: E402
from scopa_solver.play.game import play_round  # noqa: E402


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def run(bot: str, rounds: int = 10, seed: int = 1, worlds: int = 50, threads: int = 2,
        opponent: str = "greedy") -> dict:
    chooser = make_bot(bot, worlds=worlds, seed=seed, threads=threads)
    other = make_bot(opponent, worlds=worlds, seed=seed + 1, threads=threads)
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
    every = [t for ts in times.values() for t in ts]

    def figures(xs: list[float]) -> dict:
        return {"decisions": len(xs), "median": statistics.median(xs), "p90": _quantile(xs, 0.9),
                "p99": _quantile(xs, 0.99), "max": max(xs)}

    return {"bot": getattr(chooser, "name", bot), "rounds": rounds, "seed": seed, "threads": threads,
            "all": figures(every), "deals": {d: figures(times[d]) for d in sorted(times)}}


def report(out: dict) -> str:
    """The figures of `run` as text."""
    lines = [f"{out['bot']}: {out['rounds']} rounds, {out['threads']} threads"]
    for name, f in [("all", out["all"])] + [(f"deal {d}", f) for d, f in out["deals"].items()]:
        lines.append(f"  {name:<7} {f['decisions']:5d} decisions  median {f['median']:.3f} s  p90 {f['p90']:.3f} s  "
                     f"p99 {f['p99']:.3f} s  max {f['max']:.3f} s")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.splitlines()[0])
    parser.add_argument("bot")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        out = run(args.bot, args.rounds, args.seed, args.worlds, args.threads, args.opponent)
    except ScopaError as exc:      # an unknown bot: one line naming the known ones
        parser.error(str(exc))
    print(json.dumps(out, indent=1) if args.json else report(out))


if __name__ == "__main__":
    main()
