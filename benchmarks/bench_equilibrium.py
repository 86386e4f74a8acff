"""Speed of the endgame equilibrium (`equilibrium`): the last two deals as the real game.

Seeded rounds are played by two GreedyBots to the last-but-one deal; the equilibrium is then
computed for the player to move at its 1st, 2nd, 3rd and 4th play (a row each), on cold
transposition tables. Per row: median and p99 seconds (p99: the nearest rank, the maximum with
fewer than 100 cases), CFR+ iterations, exploitability (round points), worlds, end-of-deal
states and last-deal solves, kernel nodes. Targets: the 1st play under 30 s on 2 threads, from
the 4th play under 1 s; exploitability under 0.01.

    python benchmarks/bench_equilibrium.py [--cases N] [--threads T] [--seed S] [--plays 1 2 3 4] [--pimc] [--json]

`--pimc` also sets PIMC (`suggest`, every world) against each equilibrium, untimed: how often its
best move is the equilibrium's most probable one, the loss of its best move against the
equilibrium (mean, max), the views whose equilibrium mixes (no move at 95% or more), and PIMC's
mean value of its move minus the move's equilibrium value (its optimism, or pessimism).

``run(**options)`` returns the figures as a dict, ``report(figures)`` the text, ``main(argv)`` the
command line.
"""
from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver import GreedyBot, Position, View, equilibrium, suggest  # noqa: E402
from scopa_solver.imperfect.pimc import SUGGEST_SECONDS  # noqa: E402
from scopa_solver.kernel import Limit  # noqa: E402
from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.kernel import clear_tables  # noqa: E402

TARGETS = {1: 30.0, 2: 30.0, 3: 30.0, 4: 1.0}
TARGET_EXPLOITABILITY = 0.01


def views_at(play: int, count: int, seed: int) -> list[View]:
    """The views of the player to move at the `play`-th play (1-4) of the last-but-one deal of
    seeded rounds, both seats played by GreedyBot."""
    rng = random.Random(seed)
    bot = GreedyBot()
    out = []
    while len(out) < count:
        pos = Position.new_round(seed=rng.getrandbits(64), dealer=rng.randrange(2))
        while not (pos.deals_left == 1 and bin(pos.hands[0] | pos.hands[1]).count("1") == 7 - play):
            pos = pos.play(bot(pos))
        out.append(pos.view(pos.to_move))
    return out


def _p99(runs: list[float]) -> float:
    ranked = sorted(runs)
    return ranked[min(len(ranked) - 1, math.ceil(0.99 * len(ranked)) - 1)]


def bench_play(play: int, cases: int, seed: int, threads: int, target: float, pimc: bool = False) -> dict:
    runs, rows, compared = [], [], []
    for view in views_at(play, cases, seed):
        clear_tables()
        start = time.perf_counter()
        eq = equilibrium(view, Limit(threads=threads), target=target)
        runs.append(time.perf_counter() - start)
        rows.append(eq)
        if pimc:
            s = suggest(view, Limit(time=SUGGEST_SECONDS, threads=threads), worlds="all", progress=False)
            compared.append((s.best == eq.best, eq.losses[s.best], max(eq.strategy.values()) < 0.95,
                             s.moves[0].mean - eq.move_values[s.best]))
    med = statistics.median
    extra = {}
    if compared:
        extra["pimc"] = {"agree": sum(c[0] for c in compared), "loss_mean": statistics.mean(c[1] for c in compared),
                         "loss_max": max(c[1] for c in compared), "mixed": sum(c[2] for c in compared),
                         "optimism": statistics.mean(c[3] for c in compared)}
    return {"play": play, "cases": cases, "median": med(runs), "p99": _p99(runs), "max": max(runs),
            "target": TARGETS[play], "meets_target": med(runs) < TARGETS[play],
            "iterations": med([e.iterations for e in rows]),
            "exploitability": max(e.exploitability for e in rows),
            "worlds": med([e.worlds for e in rows]), "leaves": med([e.leaves for e in rows]),
            "leaf_solves": med([e.leaf_solves for e in rows]), "nodes": med([e.nodes for e in rows]),
            "build_seconds": med([e.build_seconds for e in rows]), "runs": runs, **extra}


def run(cases: Optional[int] = None, seed: int = 1, threads: int = 2, plays: Sequence[int] = (1, 2, 3, 4),
        target: float = TARGET_EXPLOITABILITY, pimc: bool = False) -> dict:
    """Measure the equilibrium at each play of `plays` on `cases` seeded views each (default: 5
    at the 1st play, 10 at the others); `threads` workers for the last deals."""
    out: dict = {"threads": threads, "seed": seed, "target_exploitability": target, "rows": []}
    for play in plays:
        if play not in TARGETS:
            raise ValueError(f"plays are 1 to 4, not {play}")
        n = cases or (5 if play == 1 else 10)
        out["rows"].append(bench_play(play, n, seed, threads, target, pimc))
    return out


def report(result: dict) -> str:
    """The figures of `run` as a table, a row per play."""
    lines = [f"threads: {result['threads']}, seed {result['seed']}, exploitability target "
             f"{result['target_exploitability']}; cold transposition tables",
             f"{'play':>4} {'cases':>5} {'median s':>9} {'p99 s':>7} {'build s':>8} {'iters':>6} {'expl':>8} "
             f"{'worlds':>7} {'leaves':>7} {'solves':>9} {'nodes':>12}  target"]
    for r in result["rows"]:
        verdict = "meets" if r["meets_target"] else "MISSES"
        lines.append(f"{r['play']:>4} {r['cases']:>5} {r['median']:>9.3f} {r['p99']:>7.3f} {r['build_seconds']:>8.3f} "
                     f"{r['iterations']:>6.0f} {r['exploitability']:>8.4f} {r['worlds']:>7.0f} {r['leaves']:>7.0f} "
                     f"{r['leaf_solves']:>9.0f} {r['nodes']:>12,.0f}  < {r['target']} s: {verdict}")
    for r in result["rows"]:
        if "pimc" in r:
            p = r["pimc"]
            lines.append(f"play {r['play']}: PIMC's best = the equilibrium's in {p['agree']}/{r['cases']}, its loss "
                         f"against the equilibrium {p['loss_mean']:.4f} mean, {p['loss_max']:.3f} max; mixed "
                         f"equilibria {p['mixed']}/{r['cases']}; PIMC mean - equilibrium value {p['optimism']:+.3f}")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=None, help="seeded views per play (default 5 / 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--plays", type=int, nargs="+", default=[1, 2, 3, 4], choices=[1, 2, 3, 4])
    parser.add_argument("--target", type=float, default=TARGET_EXPLOITABILITY)
    parser.add_argument("--pimc", action="store_true", help="also set PIMC against each equilibrium (untimed)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = run(cases=args.cases, seed=args.seed, threads=args.threads, plays=args.plays, target=args.target,
                 pimc=args.pimc)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
