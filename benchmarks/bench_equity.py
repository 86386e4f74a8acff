"""Match equity benchmark: the build time of each game's table and the error of the six-sided
approximation against whole matches played out (docs/play.md, "Match equity").

`--times`: for every game of `EQUITY_GAMES` and target of `--targets`, the seconds the table
takes from the shipped counts (the first `MatchEquity.of` of a process; the approximation of six
sides: its ten reduced tables, every one asked for at 0-0), or the `EquityError` that refuses it.

`--check GAME` (a game of six sides alone): at `--scores` seeded match scores per target (0-0,
level scores, the end of a match with sides level on top, then scores drawn evenly below the
target) and a seeded dealer, `--matches` whole matches played from the shipped round outcomes
(every match in step with numpy, each round drawn from the dealer's distribution, the rules of
`flow.match_winner`); per target the largest and the mean absolute difference between the
approximate chance and the share of matches won, over every side of every score, by kind of
score. The Monte Carlo's own standard error is at most 0.5 / sqrt(matches).
Run from the repository root with PYTHONPATH=. so that the package of this checkout is measured.

    python benchmarks/bench_equity.py [--times] [--targets 11,21,31,61] [--check scopa-6-alone]
                                      [--scores 300] [--matches 20000] [--seed 1]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Optional, Sequence


from scopa_solver.core.flow import match_winner
from scopa_solver.play.equity import EQUITY_GAMES, EquityError, MatchEquity, distribution, play_matches


def build_times(targets: Sequence[int]) -> None:
    for game in EQUITY_GAMES:
        dist = distribution(game)
        cells = []
        for target in targets:
            start = time.perf_counter()
            try:
                eq = MatchEquity.from_distribution(dist, target)
                eq.chance((0,) * dist.side_count, 0)
                cells.append(f"{time.perf_counter() - start:.2f} s")
            except EquityError:
                cells.append("over MAX_STATES")
        print(f"| {game} | " + " | ".join(cells) + " |", flush=True)


def scores_to_check(k: int, target: int, count: int, rng: random.Random) -> list:
    """(kind, score): 0-0, level scores, the end of a match with sides level on top, drawn."""
    out = [("level", (s,) * k) for s in range(0, target, max(1, target // 5))]
    ends = []
    while len(ends) < count // 5:
        top = rng.randrange(target - 1, target + 2)
        score = tuple(top if i < 2 else rng.randrange(max(0, target - 6), top + 1) for i in range(k))
        score = tuple(rng.sample(score, k))
        if match_winner(score, target) is None:
            ends.append(("end, level on top", score))
    out += ends
    while len(out) < count:
        out.append(("drawn", tuple(rng.randrange(target) for _ in range(k))))
    return out


def check(game: str, targets: Sequence[int], count: int, matches: int, seed: int) -> None:
    dist = distribution(game)
    k, n = dist.side_count, dist.players
    for target in targets:
        eq = MatchEquity.from_distribution(dist, target)
        rng = random.Random(seed + target)
        errors: dict = {}
        worst = (0.0, None)
        start = time.perf_counter()
        for i, (kind, score) in enumerate(scores_to_check(k, target, count, rng)):
            dealer = rng.randrange(n)
            wins = play_matches(dist, target, score, dealer, matches, seed=seed * 1_000_003 + i)
            for side in range(k):
                error = abs(eq.chance(score, dealer, side) - wins[side] / matches)
                errors.setdefault(kind, []).append(error)
                if error > worst[0]:
                    worst = (error, (score, dealer, side, round(eq.chance(score, dealer, side), 4),
                                     round(wins[side] / matches, 4)))
        every = [e for rows in errors.values() for e in rows]
        print(f"{game} to {target}: {len(every) // k} scores x {k} sides, {matches:,} matches each, "
              f"{time.perf_counter() - start:.0f} s: largest error {max(every):.4f}, mean {statistics.mean(every):.4f} "
              f"(Monte Carlo's standard error <= {0.5 / matches ** 0.5:.4f})", flush=True)
        for kind, rows in errors.items():
            print(f"  {kind}: {len(rows) // k} scores, largest {max(rows):.4f}, mean {statistics.mean(rows):.4f}")
        print(f"  largest at score {worst[1][0]}, dealer {worst[1][1]}, side {worst[1][2]}: "
              f"approximation {worst[1][3]}, matches {worst[1][4]}", flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--times", action="store_true", help="the build time of every game's table")
    p.add_argument("--targets", default="11,21,31,61", help="targets, comma-separated")
    p.add_argument("--check", metavar="GAME", default=None, help="check the approximation of GAME (six alone)")
    p.add_argument("--scores", type=int, default=300)
    p.add_argument("--matches", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    targets = [int(t) for t in args.targets.split(",")]
    if args.times:
        build_times(targets)
    if args.check:
        check(args.check, targets, args.scores, args.matches, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
