"""Exact-search benchmark: a fixed, seeded suite of positions at the start of each deal.

For each group (1 to 6 deals left, counting the deal being played) it times `solve` (value,
every optimal move and the principal variation) position by position, the value alone (the
search `solve_values` runs), and in the same run the baselines on the same positions: the
kernel with the transposition table off, full-window alpha-beta without the zero-window driver,
and, on the last deal, plain minimax in pure Python (benchmarks/reference_minimax.py, within
its time budget). It also times `solve_many` on the last deal and `analyze` of every first
move of a round.

    python benchmarks/bench_search.py [--positions 50] [--seed 2026] [--quick]

``run(**options)`` returns the figures as a dict, ``report(figures)`` the tables, ``main(argv)``
the command line.

Times are seconds measured inside the kernel per search (`SearchResult.seconds`) unless the
column says "wall". Each group is solved `--repeat` times over (default 3), every position from
a cleared table, and each position's fastest time is kept: the nodes are the same each time,
so the spread is other processes' doing (timeit's documentation advises the same). Run on an
idle machine.

The match objective's cost (issue 42: within 1.5x the margin's): `--match-rounds` seeded whole
two-player rounds (default 20), each solved under objective "value" and under a `Match`,
interleaved (the order alternating round by round), every solve from a cleared table; the
median CPU time of the whole `solve` call (the match's leaf table from the equity kept between
calls, as `leaf_table` keeps it), of the kernel's search alone (`search_many` on a searcher of
its own, the leaf table made beforehand) and of making a leaf table afresh (once per match
score, dealer, side and size), and the median nodes. The equity is the shipped `MatchEquity` when there
is one, else a stand-in of this benchmark (`LeadEquity`: a logistic in the match lead).
"""
from __future__ import annotations

import importlib.util
import os
import random
import statistics
import sys
import time
from typing import Callable, Optional, Sequence

from pathlib import Path

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver import Limit, Match, Position, Rules, analyze, solve, solve_many  # noqa: E402
from scopa_solver.bench.run import percentile  # noqa: E402
from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.core.cards import iter_cards  # noqa: E402
from scopa_solver.kernel import borrow_searcher, clear_tables  # noqa: E402
from scopa_solver.progress import progress_bar  # noqa: E402
from scopa_solver.kernel import KernelState, Searcher, WANT_BEST, WANT_PV  # noqa: E402
from scopa_solver.search.match import _equity_table, leaf_table  # noqa: E402
from scopa_solver.search.solver import SearchResult  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE_BUDGET = 20.0     # seconds of pure-Python minimax per group at most
BASELINE_BUDGET = 30.0      # seconds per kernel baseline per group at most
BATCH_RUNS = 10             # runs of the solve_many batch, the fastest counted


def suite(per_group: int, seed: int, deals: Sequence[int] = range(1, 7)) -> dict[int, list[Position]]:
    """`per_group` positions at the start of a deal for each number of deals left (1..6),
    from seeded random play (one position per random round)."""
    rng = random.Random(seed)
    groups: dict[int, list[Position]] = {k: [] for k in deals}
    for deals_left in groups:
        while len(groups[deals_left]) < per_group:
            pos = Position.new_round(seed=rng.getrandbits(32), dealer=rng.randrange(2))
            while pos.deals_left + 1 > deals_left or bin(pos.hands[0] | pos.hands[1]).count("1") != 6:
                pos = pos.play(rng.choice(sorted(pos.legal_moves(), key=str)))   # independent of the kernel's move order
            groups[deals_left].append(pos)
    return groups


def _timed(positions: Sequence[Position], run: Callable, budget: float, repeat: int) -> dict:
    """Solve positions one by one from a cleared table until the budget runs out, the whole
    series `repeat` times over; per position the fastest time (the nodes are the same each
    time, so the spread is other processes' doing, as timeit's documentation notes; the other
    positions come in between, so no run inherits a warm cache from its own position)."""
    seconds: list[float] = []
    nodes, hits, probes = [], 0, 0
    for series in range(repeat):
        start = time.perf_counter()
        for i, pos in enumerate(positions[:len(seconds)] if series else positions):
            clear_tables()
            result = run(pos)
            if series:
                seconds[i] = min(seconds[i], result.seconds)
                continue
            seconds.append(result.seconds)
            nodes.append(result.nodes)
            hits += result.tt_hits
            probes += result.tt_probes
            if time.perf_counter() - start > budget:
                break
    return dict(seconds=seconds, nodes=nodes, hit_rate=hits / probes if probes else 0.0,
                finished=len(seconds))


def _value_only(pos: Position) -> SearchResult:
    """The search `solve_values` runs: the value alone, no optimal moves, no pv."""
    with borrow_searcher() as searcher:
        return SearchResult(pos, searcher.search(pos.kernel_state(), 0))


def _minimax_module():
    """reference_minimax.py beside this file, by path (the CLI imports this file by path too)."""
    spec = importlib.util.spec_from_file_location("scopa_bench_reference_minimax",
                                                  os.path.join(HERE, "reference_minimax.py"))
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _minimax_args(pos: Position) -> dict:
    def cards(mask: int) -> list[str]:
        return [str(c) for c in iter_cards(mask)]
    return dict(hands=(cards(pos.hands[0]), cards(pos.hands[1])), table=cards(pos.table),
                piles=(cards(pos.piles[0]), cards(pos.piles[1])), scopas=pos.scopas, to_move=pos.to_move,
                last_capturer=pos.last_capturer)


def reference_value(pos: Position) -> int:
    """The exact value of a last-deal position by plain pure-Python minimax."""
    return _minimax_module().minimax(**_minimax_args(pos))


def _reference(positions: Sequence[Position], budget: float) -> dict:
    minimax = _minimax_module().minimax
    seconds = []
    start = time.perf_counter()
    for pos in positions:
        args = _minimax_args(pos)
        t = time.perf_counter()
        minimax(**args)
        seconds.append(time.perf_counter() - t)
        if time.perf_counter() - start > budget:
            break
    return dict(seconds=seconds, finished=len(seconds))


MATCH_SCORE = (7, 8)        # a late score of a match to 11: the chance saturates within a round


class LeadEquity:
    """The benchmark's stand-in match equity while none is shipped: the chance to win grows as
    a logistic of the lead after the round, 1 for a side over the target and ahead."""

    def __init__(self, target: int = 11) -> None:
        self.target = target

    def after_round(self, score: Sequence[int], round_points: Sequence[int], dealer: int, side: int) -> float:
        totals = [s + p for s, p in zip(score, round_points)]
        best_other = max(t for i, t in enumerate(totals) if i != side)
        if max(totals) >= self.target and totals[side] != best_other:
            return 1.0 if totals[side] > best_other else 0.0
        return 1.0 / (1.0 + 2.718281828 ** (-0.35 * (totals[side] - best_other)))


def match_equity():
    """The shipped match equity of two-player Scopa, else the stand-in (and its name)."""
    try:
        from scopa_solver.play.equity import MatchEquity  # type: ignore[import-not-found,unused-ignore]
        return MatchEquity.of(Rules()), "MatchEquity"
    except (ImportError, ValueError):
        return LeadEquity(), "LeadEquity (stand-in)"


def match_cost(rounds: int = 20, seed: int = 2026) -> dict:
    """Whole two-player rounds solved under "value" and under a `Match`, interleaved: median CPU
    seconds of the call (leaf tables kept) and of the search, of a leaf table made afresh, median
    nodes, and the ratios."""
    rng = random.Random(seed)
    equity, name = match_equity()
    match = Match(MATCH_SCORE, equity=equity)
    times: dict = {"value": [], "match": []}
    kernel_times: dict = {"value": [], "match": []}
    nodes: dict = {"value": [], "match": []}
    builds = []
    positions: list = []
    searcher = Searcher(64)
    for i in range(rounds):
        pos = Position.new_round(seed=rng.getrandbits(32), dealer=rng.randrange(2))
        state: KernelState = pos.kernel_state()
        order = ("value", "match") if i % 2 == 0 else ("match", "value")
        for objective in order:
            clear_tables()
            cpu = time.process_time()
            result = solve(pos, objective=match if objective == "match" else "value")
            times[objective].append(time.process_time() - cpu)
            nodes[objective].append(result.nodes)
        searched = {"value": "value", "match": leaf_table(pos, match)}
        positions.append(pos)
        for objective in order:
            searcher.clear()
            cpu = time.process_time()
            searcher.search_many([state], WANT_BEST | WANT_PV, 0, 0.0, False, searched[objective], 0)
            kernel_times[objective].append(time.process_time() - cpu)
    for pos in positions:           # a leaf table made afresh, after the solves
        _equity_table.cache_clear()
        cpu = time.process_time()
        leaf_table(pos, match)
        builds.append(time.process_time() - cpu)
    _equity_table.cache_clear()
    med = {k: statistics.median(v) for k, v in times.items()}
    kmed = {k: statistics.median(v) for k, v in kernel_times.items()}
    nmed = {k: statistics.median(v) for k, v in nodes.items()}
    return dict(rounds=rounds, equity=name, score=list(MATCH_SCORE), cpu_ms={k: v * 1e3 for k, v in med.items()},
                table_ms=statistics.median(builds) * 1e3,
                search_ms={k: v * 1e3 for k, v in kmed.items()}, nodes=nmed,
                cpu_ratio=med["match"] / med["value"], search_ratio=kmed["match"] / kmed["value"],
                nodes_ratio=nmed["match"] / nmed["value"])


def run(per_group: int = 50, seed: int = 2026, quick: bool = False, progress: bool = True,
        batch: int = 1000, repeat: int = 3, match_rounds: int = 20) -> dict:
    """Run the whole benchmark; returns every figure (printed by `report`)."""
    groups = suite(per_group, seed)
    solve(groups[1][0])  # build this thread's table before timing
    out: dict = {"per_group": per_group, "seed": seed, "repeat": repeat, "groups": {}}
    budget = BASELINE_BUDGET / (6 if quick else 1)
    bar = progress_bar(6, "deal groups", None if progress else False, unit="group")
    for deals_left, positions in groups.items():
        row = {"solve": _timed(positions, solve, float("inf"), repeat)}
        row["value"] = _timed(positions, _value_only, float("inf"), repeat)
        row["no_table"] = _timed(positions, lambda p: solve(p, Limit(tt_mb=0)), budget, repeat)
        row["full_window"] = _timed(positions, lambda p: solve(p, full_window=True), budget, repeat)
        if deals_left == 1:
            row["reference"] = _reference(positions, REFERENCE_BUDGET / (4 if quick else 1))
        out["groups"][deals_left] = row
        bar.update(1)
    bar.close()
    # batch call on the last deal: distinct positions (a repeated one would hit the table)
    last = suite(batch, seed + 1, deals=(1,))[1]
    walls = []
    # a run takes a few ms, so one is easily disturbed: the fastest of ten, each from a cleared
    # table (the first also converts the fresh positions for the kernel, reported apart)
    for _ in range(BATCH_RUNS):
        clear_tables()
        t = time.perf_counter()
        results = solve_many(last)
        walls.append(time.perf_counter() - t)
    out["solve_many_last_deal"] = dict(
        positions=len(last), wall_us=min(walls) / len(last) * 1e6, first_us=walls[0] / len(last) * 1e6,
        median_us=statistics.median(r.seconds for r in results) * 1e6,
        nodes=statistics.median(r.nodes for r in results))
    # analyze every first move of a round (wall time per position, the fastest of the series)
    walls = [float("inf")] * len(groups[6])
    for _ in range(repeat):
        for i, pos in enumerate(groups[6]):
            clear_tables()
            t = time.perf_counter()
            analyze(pos)
            walls[i] = min(walls[i], time.perf_counter() - t)
    out["analyze_first_move_ms"] = dict(median=statistics.median(walls) * 1e3,
                                        p99=percentile(walls, 0.99) * 1e3, max=max(walls) * 1e3)
    if match_rounds:
        out["match"] = match_cost(match_rounds, seed)
    return out


def _summary(times: Sequence[float], nodes: Optional[Sequence[int]] = None) -> str:
    line = (f"{statistics.median(times) * 1e3:9.3f} {percentile(times, 0.9) * 1e3:9.3f} "
            f"{percentile(times, 0.99) * 1e3:9.3f} {max(times) * 1e3:9.3f}")
    if nodes is not None:
        line += f" {statistics.median(nodes):9.0f} {sum(nodes) / sum(times) / 1e6:7.1f}"
    return line


def report(out: dict) -> str:
    """The benchmark as aligned tables (milliseconds)."""
    lines = [f"exact search, {out['per_group']} positions per group at the start of a deal, seed {out['seed']}, "
             f"each the fastest of {out['repeat']} series, every run from a cleared table",
             "", f"{'deals':>5} {'search':<12}{'median':>9} {'p90':>9} {'p99':>9} {'max':>9} "
             f"{'nodes':>9} {'Mn/s':>7} {'hit%':>5} {'done':>5}"]
    for deals_left, row in out["groups"].items():
        for name in ("solve", "value", "no_table", "full_window"):
            r = row[name]
            lines.append(f"{deals_left:>5} {name:<12}{_summary(r['seconds'], r['nodes'])} "
                         f"{r['hit_rate'] * 100:5.0f} {r['finished']:>5}")
        if "reference" in row:
            r = row["reference"]
            lines.append(f"{deals_left:>5} {'reference':<12}{_summary(r['seconds'])} {'':>9} {'':>7} "
                         f"{'':>5} {r['finished']:>5}")
    lines += ["", "ratios of medians on the same positions (baseline / solve):"]
    for deals_left, row in out["groups"].items():
        base = row["solve"]["seconds"]
        parts = []
        for name in ("no_table", "full_window", "reference"):
            if name in row:
                done = row[name]["finished"]
                ratio = statistics.median(row[name]["seconds"]) / statistics.median(base[:done])
                parts.append(f"{name} x{ratio:,.1f}" + ("" if done == len(base) else f" (first {done})"))
        lines.append(f"  {deals_left} deals left: " + ", ".join(parts))
    a = out["analyze_first_move_ms"]
    b = out["solve_many_last_deal"]
    lines += ["", f"solve_many, {b['positions']} distinct last-deal positions: {b['wall_us']:.2f} us per position "
              f"(wall, fastest of {BATCH_RUNS} runs; the first run {b['first_us']:.2f} us), median {b['median_us']:.2f} us "
              f"in the kernel, median {b['nodes']:.0f} nodes",
              f"analyze every first move of a round: median {a['median']:.2f} ms, p99 {a['p99']:.2f} ms, "
              f"max {a['max']:.2f} ms (wall)"]
    if "match" in out:
        lines += [""] + report_match(out["match"])
    return "\n".join(lines)


def report_match(m: dict) -> list[str]:
    """match_cost's figures as lines."""
    return [f"match objective, {m['rounds']} whole two-player rounds at {m['score'][0]}-{m['score'][1]} "
            f"({m['equity']}), interleaved with the margin's, medians:",
            f"  CPU of the call   value {m['cpu_ms']['value']:.3f} ms, match {m['cpu_ms']['match']:.3f} ms "
            f"(x{m['cpu_ratio']:.2f}, the leaf tables kept)",
            f"  the search alone  value {m['search_ms']['value']:.3f} ms, match {m['search_ms']['match']:.3f} ms "
            f"(x{m['search_ratio']:.2f})",
            f"  a leaf table made afresh {m['table_ms']:.3f} ms (once per score, dealer, side and size)",
            f"  nodes             value {m['nodes']['value']:.0f}, match {m['nodes']['match']:.0f} "
            f"(x{m['nodes_ratio']:.2f})"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50, help="positions per group (default 50)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="smaller baseline budgets and batch")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per position from a cleared table, the fastest counted (default 3)")
    parser.add_argument("--match-rounds", type=int, default=20,
                        help="whole rounds of the match objective's cost (default 20; 0: none)")
    parser.add_argument("--match-only", action="store_true", help="only the match objective's cost")
    args = parser.parse_args(argv)
    if args.match_only:
        print("\n".join(report_match(match_cost(max(1, args.match_rounds), args.seed))))
        return 0
    print(report(run(per_group=args.positions, seed=args.seed, quick=args.quick,
                     batch=200 if args.quick else 1000, repeat=args.repeat, match_rounds=args.match_rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
