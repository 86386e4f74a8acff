"""Alpha-mu's front bound: how often keeping fewer vectors a node changes the move, and the time.

Seeded views of the first four deals (Greedy plays a random number of plies from
`Position.new_round`, then the player to move has a choice and at least 12 cards are in the
stock); each is searched by `alphamu_values` on `worlds` sampled worlds at `depth` for every
bound in `fronts` and for `reference` (a large bound; None is exact but can take minutes). Per
bound: the mean seconds a view (one thread), how many views get another best move than the
reference's, and the mean value lost by that move under the reference's values.
Run from the repository root with PYTHONPATH=. so that the package of this checkout is measured.

    python benchmarks/bench_fronts.py [--views 30] [--seed 7] [--fronts 1,4,16,64] [--reference 256] [--json FILE]
"""
from __future__ import annotations

import json
import os
import random
import sys
import time
from typing import Optional, Sequence

import numpy as np

from scopa_solver import GreedyBot, Position
from scopa_solver.cli.parser import OneLineParser
from scopa_solver.imperfect.alphamu import alphamu_values


def views(count: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.new_round(seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 24)):
            pos = pos.play(GreedyBot()(pos))
        view = pos.view(pos.to_move)
        if len(pos.stock) >= 12 and len(view.legal_moves()) > 1:
            out.append(view)
    return out


def run(count: int = 30, seed: int = 7, fronts: Sequence[int] = (1, 4, 16, 64), reference: Optional[int] = 256,
        worlds: int = 50, depth: int = 2) -> dict:
    chosen = views(count, seed)
    measured = {}
    for bound in [reference, *fronts]:
        start = time.perf_counter()
        values = [alphamu_values(v, list(v.sample_groups(worlds, seed=i)), depth=depth, fronts=bound, threads=1)
                  .mean(axis=0) for i, v in enumerate(chosen)]
        measured[bound] = ((time.perf_counter() - start) / count, values)
    ref = measured[reference][1]
    rows = []
    for bound in fronts:
        seconds, values = measured[bound]
        best = [int(np.argmax(np.round(v, 9))) for v in values]
        rows.append({"fronts": bound, "seconds": seconds,
                     "moves_changed": sum(b != int(np.argmax(np.round(r, 9))) for b, r in zip(best, ref)),
                     "mean_loss": float(np.mean([r.max() - r[b] for b, r in zip(best, ref)]))})
    return {"views": count, "seed": seed, "worlds": worlds, "depth": depth, "reference": reference,
            "reference_seconds": measured[reference][0], "rows": rows}


def report(figures: dict) -> str:
    lines = [f"alpha-mu, {figures['views']} views (seed {figures['seed']}), {figures['worlds']} worlds, depth "
             f"{figures['depth']}; reference: fronts {figures['reference']}, {figures['reference_seconds']:.3f} s a view",
             f"{'fronts':>7} {'s a view':>9} {'moves changed':>14} {'mean loss':>10}"]
    for row in figures["rows"]:
        lines.append(f"{row['fronts']:>7} {row['seconds']:>9.3f} {row['moves_changed']:>11}/{figures['views']:<2} "
                     f"{row['mean_loss']:>10.4f}")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = OneLineParser(prog=os.path.basename(__file__), description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--fronts", default="1,4,16,64")
    ap.add_argument("--reference", default="256", help="the bound compared against (none: exact)")
    ap.add_argument("--worlds", type=int, default=50)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    reference = None if args.reference.lower() == "none" else int(args.reference)
    figures = run(args.views, args.seed, [int(k) for k in args.fronts.split(",")], reference, args.worlds, args.depth)
    print(report(figures))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
