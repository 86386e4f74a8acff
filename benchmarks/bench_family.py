"""Family search benchmark: seeded suites of positions reached by random play, one row per game
and depth, each searched from a cleared table (value only: want=0, and with every optimal move
and the pv: solve). Median and max seconds (measured in the kernel: wall time), the same in
the searching thread's CPU time (time.thread_time: honest on a loaded machine), median and max
nodes, nodes per second. Run from the repository root with PYTHONPATH=. so that the package
of this checkout is measured.

    python benchmarks/bench_family.py [--positions 20] [--seed 2026] [--rows NAME,...] [--json FILE]
    python benchmarks/bench_family.py --threads 2 --rows scientifico-7    # the parallel search

With --threads N each position's value is searched on one thread and on N (the parallel search
of one position, ext/parallel.pxi), interleaved, each from a cleared table: the ratio of
the total wall times 1 / N (the speedup; honest only on an idle machine: `uptime` is printed),
of the nodes (every thread's) N / 1, and the speedup the threads' CPU times give (one thread's
CPU time over the busiest of the N threads': what the wall ratio would be with a core each).

Rows (targets from the family issue; "pure Python" = median nodes of a plain pure-Python
alpha-beta + TT + MTD(f) with capture-first ordering, given for comparison):
  scopa4-*      4-player partnership Scopa, the last 1, 2 deals and the whole round
  paranoid3-*   3-player Scopa, paranoid value, last 1..3 deals and the whole round
  maxn3-*       3-player Scopa, max^n, the last deal and the last two
  scientifico-k scientifico with k cards in every hand (leader to move)
  fifteen2      Scopa a 15, two players, whole round
Positions come from the package's seeded round starts (`Position.new_round`) and random play.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import time

HERE = os.path.dirname(os.path.abspath(__file__))
from scopa_solver import Position, Rules  # noqa: E402
from scopa_solver.cli.parser import OneLineParser, names_arg  # noqa: E402

from scopa_solver.kernel import WANT_BEST, WANT_PV, StopReason, legal_moves, play, new_searcher  # noqa: E402

# name: (players, game, rules, cards left in hands + stock, objective, target ms, pure-Python nodes)
ROWS = {
    "scopa4-1deal": (4, "scopa", None, 12, "value", None, 530),
    "scopa4-2deals": (4, "scopa", None, 24, "value", None, 9200),
    "scopa4-round": (4, "scopa", None, 36, "value", 10, 200000),
    "paranoid3-1deal": (3, "scopa", None, 9, "value", None, 230),
    "paranoid3-2deals": (3, "scopa", None, 18, "value", None, 2600),
    "paranoid3-3deals": (3, "scopa", None, 27, "value", None, 44000),
    "paranoid3-round": (3, "scopa", None, 36, "value", 30, 770000),
    "maxn3-1deal": (3, "scopa", None, 9, "maxn", None, 510),
    "maxn3-2deals": (3, "scopa", None, 18, "maxn", 20, 22000),
    "scientifico-3": (4, "scientifico", None, 12, "value", None, 560),
    "scientifico-4": (4, "scientifico", None, 16, "value", None, 5900),
    "scientifico-5": (4, "scientifico", None, 20, "value", 3, 106000),
    "scientifico-6": (4, "scientifico", None, 24, "value", 50, 2700000),
    "scientifico-7": (4, "scientifico", None, 28, "value", 1000, None),
    "scientifico-8": (4, "scientifico", None, 32, "value", None, None),
    "fifteen2": (2, "scopa", "fifteen", 36, "value", 3, None),
}
DEFAULT = [r for r in ROWS if r != "scientifico-8"]


def positions(name: str, count: int, seed: int) -> list:
    players, game, rules, left, _, _, _ = ROWS[name]
    rng = random.Random(f"{seed}-{name}")
    out = []
    for k in range(count):
        capture = rules or "standard"
        s = Position.new_round(seed=rng.getrandbits(32), rules=Rules(players=players, game=game, capture=capture)).kernel_state()
        while sum(bin(m).count("1") for m in list(s.hands) + [m for d in s.deals for m in d]) > left:
            s, _ = play(s, rng.choice(legal_moves(s)))
        out.append(s)
    return out


def run(name: str, count: int, seed: int, tt_mb: float, solve: bool, budget: float,
        min_cards: int | None = None, stride: int = 3, every_from: int = 16) -> dict:
    players, game, rules, left, objective, target, python_nodes = ROWS[name]
    searcher = new_searcher(tt_mb)
    if min_cards is not None:
        searcher.set_table_min_cards(min_cards, stride, every_from)
    times, nodes, solve_times, cpu = [], [], [], []
    start = time.perf_counter()
    for s in positions(name, count, seed):
        searcher.clear()
        t = time.thread_time()
        r = searcher.search(s, 0, objective=objective)
        cpu.append(time.thread_time() - t)
        assert r.stop == StopReason.NONE
        times.append(r.seconds)
        nodes.append(r.nodes)
        if solve:
            searcher.clear()
            r2 = searcher.search(s, WANT_BEST | WANT_PV, objective=objective)
            assert r2.lower == r.lower
            solve_times.append(r2.seconds)
        if time.perf_counter() - start > budget:
            break
    row = dict(row=name, positions=len(times), objective=objective,
               median_ms=1000 * statistics.median(times), max_ms=1000 * max(times),
               cpu_median_ms=1000 * statistics.median(cpu), cpu_max_ms=1000 * max(cpu),
               median_nodes=statistics.median(nodes), max_nodes=max(nodes),
               nodes_per_s=sum(nodes) / max(sum(times), 1e-9), cpu_nodes_per_s=sum(nodes) / max(sum(cpu), 1e-9),
               target_ms=target,
               python_nodes=python_nodes)
    if solve_times:
        row["solve_median_ms"] = 1000 * statistics.median(solve_times)
        row["solve_max_ms"] = 1000 * max(solve_times)
    return row


def run_threads(name: str, count: int, seed: int, tt_mb: float, threads: int, budget: float,
                busy_cards: int = 0, region_mb: float = 0.0) -> dict:
    objective = ROWS[name][4]
    searcher = new_searcher(tt_mb)
    searcher.set_parallel(busy_cards, region_mb)
    wall = {1: [], threads: []}
    nodes = {1: [], threads: []}
    cpu_one, cpu_busiest = [], []
    start = time.perf_counter()
    for s in positions(name, count, seed):
        for n in (1, threads):
            searcher.clear()
            t, c = time.perf_counter(), time.thread_time()
            r = searcher.search(s, 0, objective=objective, threads=n)
            wall[n].append(time.perf_counter() - t)
            nodes[n].append(r.nodes)
            if n == 1:
                cpu_one.append(time.thread_time() - c)
                value = r.lower
            else:
                cpu_busiest.append(searcher.parallel_cpu()[0])
                assert r.lower == value and r.stop == StopReason.NONE
        if time.perf_counter() - start > budget:
            break
    return dict(row=name, positions=len(cpu_one), threads=threads,
                wall_1_ms=1000 * statistics.median(wall[1]), wall_n_ms=1000 * statistics.median(wall[threads]),
                speedup=sum(wall[1]) / sum(wall[threads]), cpu_speedup=sum(cpu_one) / sum(cpu_busiest),
                nodes_1=statistics.median(nodes[1]), nodes_n=statistics.median(nodes[threads]),
                nodes_ratio=sum(nodes[threads]) / sum(nodes[1]), load=os.getloadavg()[0])


def main(argv: list[str] | None = None) -> None:
    ap = OneLineParser(prog=os.path.basename(__file__), description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rows", type=names_arg(ROWS, "row"), default=",".join(DEFAULT))
    ap.add_argument("--tt-mb", type=float, default=64.0)
    ap.add_argument("--no-solve", action="store_true", help="value searches only")
    ap.add_argument("--budget", type=float, default=300.0, help="seconds per row at most")
    ap.add_argument("--min-cards", type=int, help="probe the table only with this many cards still to play (tuning)")
    ap.add_argument("--stride", type=int, default=3,
                    help="with --min-cards: and where the cards in hands are a multiple of this (default 3)")
    ap.add_argument("--every-from", type=int, default=16,
                    help="with --min-cards: and at every node with this many cards in hands (default 16; 0: none)")
    ap.add_argument("--threads", type=int, help="compare the parallel search of one position on this many threads")
    ap.add_argument("--busy-cards", type=int, default=0,
                    help="parallel: defer busy moves from this many cards in hands (tuning; 0: default, 99: never)")
    ap.add_argument("--region-mb", type=float, default=0.0, help="parallel: table region MiB (tuning; 0: default)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    rows = []
    if args.threads:
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"{'row':18} {'n':>3} {'threads':>7} {'wall 1 med':>10} {'wall N med':>10} {'speedup':>7} "
              f"{'cpu spdup':>9} {'nodes 1 med':>11} {'nodes N med':>11} {'nodes N/1':>9} {'load':>5}")
        for name in args.rows:
            row = run_threads(name, args.positions, args.seed, args.tt_mb, args.threads, args.budget,
                              args.busy_cards, args.region_mb)
            rows.append(row)
            print(f"{name:18} {row['positions']:3d} {args.threads:7d} {row['wall_1_ms']:10.1f} "
                  f"{row['wall_n_ms']:10.1f} {row['speedup']:7.2f} {row['cpu_speedup']:9.2f} "
                  f"{row['nodes_1']:11.0f} {row['nodes_n']:11.0f} {row['nodes_ratio']:9.3f} {row['load']:5.2f}",
                  flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=1)
        return
    print(f"{'row':18} {'n':>3} {'median ms':>10} {'max ms':>9} {'cpu med':>9} {'cpu max':>9} {'target':>7} "
          f"{'med nodes':>10} {'max nodes':>10} {'py nodes':>9} {'Mnodes/s':>8} {'cpu Mn/s':>8} "
          f"{'solve med':>10} {'solve max':>10}")
    for name in args.rows:
        row = run(name, args.positions, args.seed, args.tt_mb, not args.no_solve, args.budget, args.min_cards, args.stride,
                  args.every_from)
        rows.append(row)
        print(f"{name:18} {row['positions']:3d} {row['median_ms']:10.3f} {row['max_ms']:9.2f} "
              f"{row['cpu_median_ms']:9.3f} {row['cpu_max_ms']:9.2f} "
              f"{row['target_ms'] if row['target_ms'] else '':>7} {row['median_nodes']:10.0f} "
              f"{row['max_nodes']:10d} {row['python_nodes'] or '':>9} {row['nodes_per_s'] / 1e6:8.2f} "
              f"{row['cpu_nodes_per_s'] / 1e6:8.2f} "
              f"{row.get('solve_median_ms', 0):10.3f} {row.get('solve_max_ms', 0):10.2f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
