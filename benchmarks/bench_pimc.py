"""Speed of the imperfect-information layer: `suggest` and a PIMC bot's duplicate deal.

Three measurements, each the median over seeded cases, every case with cold transposition tables
(cleared before it is timed; the tables are allocated once, before any timing):

- ``last_but_one``: `suggest` at the start of the last-but-one deal, the player to move holding
  3 cards against 3 hidden ones and a hidden stock of 6: all 84 x 20 = 1,680 worlds, exact.
  Target: under 0.1 s.
- ``first_play``: `suggest` at the first play of a round with `worlds` (1,000) sampled worlds,
  each solved to the end of the round. Target: under 2 s.
- ``duplicate_deal``: a full duplicate deal (the deal played twice, seats swapped) of
  ``PIMCBot(worlds=100)`` against ``GreedyBot``. Target: under 5 s. (`--bot model`: the same
  with the opponent model's `InferenceBot`.)

    python benchmarks/bench_pimc.py [--cases N] [--threads T] [--seed S] [--only NAME ...] [--bot B] [--json]

``run(**options)`` returns the figures as a dict, ``report(figures)`` the text, ``main(argv)`` the
command line.
"""
from __future__ import annotations

import json
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

from scopa_solver import GreedyBot, Position, View, arena, suggest  # noqa: E402
from scopa_solver.imperfect.pimc import SUGGEST_SECONDS  # noqa: E402
from scopa_solver.kernel import Limit  # noqa: E402
from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.play.bot_names import make_bot  # noqa: E402
from scopa_solver.play.bots import DECISION_SECONDS  # noqa: E402
from scopa_solver.kernel import clear_tables  # noqa: E402
from scopa_solver.progress import progress_bar  # noqa: E402

BENCHMARKS = ("last_but_one", "first_play", "duplicate_deal")
TARGETS = {"last_but_one": 0.1, "first_play": 2.0, "duplicate_deal": 5.0}
DEFAULT_CASES = {"last_but_one": 20, "first_play": 5, "duplicate_deal": 5}


def last_but_one_views(count: int, seed: int) -> list[View]:
    """Views of the player to move at the start of the last-but-one deal (1,680 worlds each),
    reached by seeded random play from seeded deals."""
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        pos = Position.new_round(seed=rng.getrandbits(64), dealer=rng.randrange(2))
        while not (pos.deals_left == 1 and bin(pos.hands[0] | pos.hands[1]).count("1") == 6):
            pos = pos.play(rng.choice(sorted(pos.legal_moves(), key=str)))
        views.append(pos.view(pos.to_move))
    return views


def first_play_views(count: int, seed: int) -> list[View]:
    """Views of the non-dealer at the first play of seeded deals."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        pos = Position.new_round(seed=rng.getrandbits(64), dealer=i % 2)
        out.append(pos.view(pos.to_move))
    return out


def _warm(threads: Optional[int]) -> None:
    """Allocate every worker's transposition table before timing anything."""
    view = last_but_one_views(1, 12345)[0]
    suggest(view, Limit(time=SUGGEST_SECONDS, threads=threads), worlds="all", progress=False)


def _summary(name: str, runs: list[float], **extra) -> dict:
    median = statistics.median(runs)
    return {"name": name, "cases": len(runs), "median": median, "min": min(runs), "max": max(runs),
            "target": TARGETS[name], "meets_target": median < TARGETS[name], "runs": runs, **extra}


def bench_last_but_one(cases: int, seed: int, threads: Optional[int]) -> dict:
    runs, nodes = [], []
    for view in last_but_one_views(cases, seed):
        clear_tables()
        start = time.perf_counter()
        s = suggest(view, Limit(time=SUGGEST_SECONDS, threads=threads), worlds="all", progress=False)
        runs.append(time.perf_counter() - start)
        nodes.append(s.nodes)
        assert s.exact and s.worlds == 1680
    return _summary("last_but_one", runs, worlds=1680, nodes=statistics.median(nodes))


def bench_first_play(cases: int, seed: int, threads: Optional[int], worlds: int) -> dict:
    runs, nodes = [], []
    for i, view in enumerate(first_play_views(cases, seed)):
        clear_tables()
        start = time.perf_counter()
        s = suggest(view, Limit(time=SUGGEST_SECONDS, threads=threads), worlds=worlds, seed=seed + i, progress=False)
        runs.append(time.perf_counter() - start)
        nodes.append(s.nodes)
        assert s.worlds == worlds and not s.exact
    return _summary("first_play", runs, worlds=worlds, nodes=statistics.median(nodes))


def bench_duplicate_deal(cases: int, seed: int, threads: Optional[int], worlds: int, bot: str = "pimc") -> dict:
    rng = random.Random(seed)
    runs, decisions = [], []
    for _ in range(cases):
        clear_tables()
        start = time.perf_counter()
        result = arena(make_bot(bot, Limit(time=DECISION_SECONDS, threads=threads), worlds=worlds, seed=seed),
                       GreedyBot(), rounds=1, seed=rng.getrandbits(32), progress=False)
        runs.append(time.perf_counter() - start)
        decisions.append(result.decisions[0])
    return _summary("duplicate_deal", runs, worlds=worlds, pimc_decisions=statistics.median(decisions))


def run(cases: Optional[int] = None, seed: int = 1, threads: Optional[int] = None,
        only: Sequence[str] = BENCHMARKS, first_play_worlds: int = 1000, bot_worlds: int = 100,
        bot: str = "pimc", progress: Optional[bool] = False) -> dict:
    """Measure the benchmarks named in `only` (all three by default) on `cases` seeded cases
    each (default: 20, 5 and 5); `threads` workers per `suggest` (None: every core). Returns
    {name: {"median": seconds, "target": seconds, "meets_target": bool, "runs": [...], ...}}.
    `progress`: a bar over the benchmarks (None: on a terminal)."""
    unknown = [name for name in only if name not in BENCHMARKS]
    if unknown:
        raise ValueError(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    if cases is not None and cases < 1:
        raise ValueError("cases must be 1 or more")
    _warm(threads)
    out: dict = {"threads": threads, "seed": seed}
    chosen = [name for name in BENCHMARKS if name in only]
    bar = progress_bar(len(chosen), "pimc benchmarks", progress, unit="bench")
    try:
        for name in chosen:
            n = cases or DEFAULT_CASES[name]
            if name == "last_but_one":
                out[name] = bench_last_but_one(n, seed, threads)
            elif name == "first_play":
                out[name] = bench_first_play(n, seed, threads, first_play_worlds)
            else:
                out[name] = bench_duplicate_deal(n, seed, threads, bot_worlds, bot)
            bar.update(1)
    finally:
        bar.close()
    return out


def report(result: dict) -> str:
    """The figures of `run` as text: a line per benchmark against its target."""
    lines = [f"threads: {result['threads'] or 'all cores'}, seed {result['seed']}; "
             "median over the cases, cold transposition tables"]
    for name in BENCHMARKS:
        if name in result:
            r = result[name]
            verdict = "meets" if r["meets_target"] else "MISSES"
            lines.append(f"  {name:<15} median {r['median']:.3f} s  (min {r['min']:.3f}, max {r['max']:.3f}, "
                         f"{r['cases']} cases)  target < {r['target']} s: {verdict}")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=None, help="seeded cases per benchmark (default 20/5/5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None, help="workers per suggest (default: every core)")
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, default=list(BENCHMARKS))
    parser.add_argument("--worlds", type=int, default=1000, help="sampled worlds at the first play")
    parser.add_argument("--bot-worlds", type=int, default=100, help="worlds per PIMC decision")
    parser.add_argument("--bot", default="pimc", help="the duplicate deal's bot: pimc (default) or model")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = run(cases=args.cases, seed=args.seed, threads=args.threads, only=args.only,
                 first_play_worlds=args.worlds, bot_worlds=args.bot_worlds, bot=args.bot)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
