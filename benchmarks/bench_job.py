"""A whole deal as a job (`scopa_solver.batch.solve_job`): what cutting a position into work items
costs, and the projected time of a whole scientifico deal.

For each position of bench_family's seeded suites (scientifico-k: k cards in every hand), the
direct search (one kernel search from a cleared table, value only: as bench_family) against the
job at each `--splits` cut: the job's items solved and pruned, its nodes and CPU seconds summed
over the items (each measured in its worker: time.thread_time, with threads the process's CPU
time), its wall time with `--workers`
local processes (`--threads`: each item searched by that many threads sharing its table), and
the ratios job/direct (wall: against the direct search's wall time). Every
job's value is checked against the direct one. `--proofs bounds,exact` runs each position's job
both ways, one after the other (`DealOptions.proof`: items proved against thresholds, or each
solved with the full window), for an interleaved A/B.

`--project FILE` reads bench_family's `--json` rows scientifico-5, -6, -7 (e.g.
``bench_family.py --rows scientifico-5,scientifico-6,scientifico-7 --no-solve --positions 8 --json FILE``)
and extrapolates the median nodes and CPU time to k = 8, 9, 10: by the geometric mean of the
measured growth factors per card a hand (a log-linear fit through k = 5 and 7), and by the last
factor (6 to 7: the growth still grows, so that is the less optimistic), on one core and on N
workers (one core's time times the job's CPU overhead, over N).

`--run-seconds S` instead runs each position's job run by run, each run a new process with
`--time-limit S` (then `--resume`), and counts the runs it takes to finish: a job whose items
are longer than S finishes because a cut item keeps its bounds and is split.

    python benchmarks/bench_job.py [--rows scientifico-6] [--positions 3] [--splits 1,2] [--workers 2]
                                   [--proofs bounds,exact] [--project family.json] [--json FILE]
    python benchmarks/bench_job.py --rows scientifico-7 --positions 1 --run-seconds 1.5 --workers 2
"""
from __future__ import annotations

import json
import math
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_family import ROWS, positions  # noqa: E402

from scopa_solver import Move, Position, Rules  # noqa: E402
from scopa_solver.batch import DealOptions, EngineOptions, RunOptions, solve_job  # noqa: E402
from scopa_solver.batch.deal import PROOFS  # noqa: E402
from scopa_solver.cli.parser import OneLineParser, names_arg  # noqa: E402
from scopa_solver.kernel import WANT_BEST, Limit, clear_tables, new_searcher  # noqa: E402

RULES = Rules(players=4, game="scientifico")


def run(rows=("scientifico-6",), count: int = 3, seed: int = 2026, splits=(1, 2), workers: int = 2,
        tt_mb: float = 64.0, on_row=lambda row: None, proofs=("bounds",), best: bool = False,
        threads: int = 1) -> list[dict]:
    """Each position: the direct search (value only, or with `best` every optimal move too: what
    the job gives by default), then its job at each split and proof, one after the other, each
    item searched by `threads` threads."""
    out = []
    searcher = new_searcher(tt_mb)
    for name in rows:
        for i, state in enumerate(positions(name, count, seed)):
            searcher.clear()
            t, w = time.thread_time(), time.perf_counter()
            r = searcher.search(state, WANT_BEST if best else 0)
            cpu, wall_direct = time.thread_time() - t, time.perf_counter() - w
            pos = Position.from_kernel_state(state, RULES)
            row = dict(row=name, position=i, value=r.lower, nodes=r.nodes, cpu=cpu, wall=wall_direct, jobs=[])
            for split in splits:
                for proof in proofs:        # interleaved: each position's A and B one after the other
                    with tempfile.TemporaryDirectory() as folder:
                        clear_tables()      # one worker runs the items in this process: from a cold table
                        start = time.perf_counter()
                        job = solve_job(pos, os.path.join(folder, "job"),
                                        Limit(tt_mb=tt_mb, threads=threads if threads > 1 else None),
                                        deal=DealOptions(split=split, proof=proof, every_best_move=best),
                                        engine=EngineOptions(workers=workers), run=RunOptions(progress=False))
                        wall = time.perf_counter() - start
                    assert job.value == r.lower, (name, i, split, proof, job.value, r.lower)
                    if best and proof == "bounds":
                        assert sorted(job.best_moves) == sorted(str(Move.from_packed(m)) for m in r.best), (name, i)
                    row["jobs"].append(dict(split=split, proof=proof, items=job.items, solved=job.solved,
                                            pruned=job.pruned, records=job.solved_now, nodes=job.nodes,
                                            cpu=job.cpu_seconds, wall=wall, wall_ratio=wall / max(wall_direct, 1e-9),
                                            node_ratio=job.nodes / max(1, r.nodes),
                                            cpu_ratio=job.cpu_seconds / max(cpu, 1e-9)))
            out.append(row)
            on_row(row)
    return out


def runs(rows=("scientifico-7",), count: int = 1, seed: int = 2026, run_seconds: float = 1.5, workers: int = 2,
         most: int = 200, on_row=lambda row: None) -> list[dict]:
    """A job run by run, each run a new process (`scopa-solver solve --job --time-limit
    run_seconds`, then `--resume`), as a user with a short time slot runs it: the runs it takes
    to finish (items longer than the slot are cut and split), the items at the end, the CPU
    seconds of every run's items, the value against the direct search's."""
    import subprocess
    root = os.path.dirname(HERE)
    out = []
    for name in rows:
        for i, state in enumerate(positions(name, count, seed)):
            pos = Position.from_kernel_state(state, RULES)
            want = new_searcher(64.0).search(state, 0).lower
            with tempfile.TemporaryDirectory() as folder:
                job = os.path.join(folder, "job")
                argv = [sys.executable, "-m", "scopa_solver", "solve", pos.to_string(), "--job", job]
                start, count_runs, data = time.perf_counter(), 0, {}
                while count_runs < most and not data.get("complete"):
                    count_runs += 1
                    done = subprocess.run(argv + ["--time-limit", str(run_seconds), "--workers", str(workers),
                                                  "--json"], cwd=root, capture_output=True, text=True)
                    if done.returncode != 0:
                        raise SystemExit(f"bench_job.py: a run failed: {done.stderr.strip()[-300:]}")
                    data = json.loads(done.stdout)
                    argv = [sys.executable, "-m", "scopa_solver", "solve", "--job", job, "--resume"]
            assert not data["complete"] or data["value"] == want, (name, i, data["value"], want)
            row = dict(row=name, position=i, run_seconds=run_seconds, workers=workers, runs=count_runs,
                       complete=data["complete"], items=data["items"], value=data["value"], direct=want,
                       cpu=data["cpu_seconds"], wall=time.perf_counter() - start)
            out.append(row)
            on_row(row)
    return out


def project(family_rows: list[dict], overhead: float = 1.0, workers=(1, 2, 16, 64)) -> dict:
    """Median nodes and CPU seconds of scientifico-5..7 extrapolated to k = 8..10."""
    by_k = {int(r["row"].split("-")[1]): r for r in family_rows if r["row"].startswith("scientifico-")}
    ks = sorted(k for k in by_k if k >= 5)
    if len(ks) < 2:
        raise SystemExit("bench_job.py: --project needs the rows scientifico-5..7 of bench_family.py --json")
    out: dict = {"measured": {k: {"nodes": by_k[k]["median_nodes"], "cpu": by_k[k]["cpu_median_ms"] / 1000}
                              for k in ks}, "overhead": overhead, "fits": {}}
    for what in ("nodes", "cpu"):
        values = [out["measured"][k][what] for k in ks]
        steps = [b / a for a, b in zip(values, values[1:])]
        for fit, factor in (("geometric", math.exp(sum(map(math.log, steps)) / len(steps))), ("last", steps[-1])):
            out["fits"][f"{what}-{fit}"] = {"factor": factor, "steps": steps,
                                            "k": {k: values[-1] * factor ** (k - ks[-1]) for k in (8, 9, 10)}}
    out["workers"] = {n: {fit: out["fits"][f"cpu-{fit}"]["k"][10] * overhead / n for fit in ("geometric", "last")}
                      for n in workers}
    return out


def _time(seconds: float) -> str:
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.1f} s"


def report(rows: list[dict], projection: dict | None = None) -> str:
    lines = [f"{'row':15} {'#':>2} {'value':>5} {'nodes':>11} {'cpu s':>7} {'split':>5} {'proof':>6} {'items':>6} "
             f"{'solved':>6} {'recs':>5} {'job nodes':>11} {'job cpu':>8} {'wall':>7} {'nodes x':>7} {'cpu x':>6} "
             f"{'wall x':>6}"]
    for r in rows:
        for j in r["jobs"]:
            lines.append(f"{r['row']:15} {r['position']:2d} {r['value']:5d} {r['nodes']:11,d} {r['cpu']:7.2f} "
                         f"{j['split']:5d} {j.get('proof', 'exact'):>6} {j['items']:6d} {j['solved']:6d} "
                         f"{j.get('records', 0):5d} {j['nodes']:11,d} {j['cpu']:8.2f} {j['wall']:7.2f} "
                         f"{j['node_ratio']:7.2f} {j['cpu_ratio']:6.2f} {j.get('wall_ratio', 0):6.2f}")
    kinds = sorted({(j["split"], j.get("proof", "exact")) for r in rows for j in r["jobs"]})
    for split, proof in kinds:
        ratios = [j for r in rows for j in r["jobs"] if j["split"] == split and j.get("proof", "exact") == proof]
        lines.append(f"split {split}, {proof}: median job/direct nodes x{statistics.median(j['node_ratio'] for j in ratios):.2f}, "
                     f"CPU x{statistics.median(j['cpu_ratio'] for j in ratios):.2f}, "
                     f"wall x{statistics.median(j.get('wall_ratio', 0) for j in ratios):.2f} over {len(ratios)} positions")
    if projection:
        lines.append("projection (median position, from scientifico-5..7):")
        for name, fit in projection["fits"].items():
            what, _ = name.split("-")
            shown = (lambda v: f"{v:.2e}") if what == "nodes" else _time
            lines.append(f"  {name:15} x{fit['factor']:.1f}/card ({', '.join(f'x{s:.1f}' for s in fit['steps'])}): "
                         + ", ".join(f"k={k} {shown(v)}" for k, v in fit["k"].items()))
        for n, fits in projection["workers"].items():
            lines.append(f"  k=10 on {n:3d} workers (job overhead x{projection['overhead']:.2f}): "
                         f"{_time(fits['geometric'])} (geometric) .. {_time(fits['last'])} (last factor)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = OneLineParser(prog=os.path.basename(__file__), description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=names_arg([r for r in ROWS if r.startswith("scientifico-")], "row"),
                    default="scientifico-6")
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--splits", default="1,2", help="cuts to measure, in plies: 1,2")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="threads searching each item (one table)")
    ap.add_argument("--proofs", default="bounds", help="how the items are searched, interleaved: bounds,exact")
    ap.add_argument("--best", action="store_true",
                    help="the direct search and the jobs give every optimal move too (default: the value only)")
    ap.add_argument("--tt-mb", type=float, default=64.0)
    ap.add_argument("--project", metavar="FILE", help="bench_family.py --json rows scientifico-5..7 to extrapolate")
    ap.add_argument("--overhead", type=float, default=None,
                    help="the job's CPU overhead for the projection (default: the median measured, else 1)")
    ap.add_argument("--run-seconds", type=float, default=None, metavar="S",
                    help="instead: each position as a job run by run with --time-limit S (new processes), "
                         "counting the runs it takes")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if args.run_seconds is not None:
        rows = runs(args.rows, args.positions, args.seed, args.run_seconds, args.workers,
                    on_row=lambda row: print(json.dumps(row), flush=True))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"runs": rows}, f, indent=1)
        return
    try:
        splits = [int(s) for s in args.splits.split(",")]
    except ValueError:
        ap.error(f"--splits takes plies like 1,2, not {args.splits[:40]!r}")
    proofs = args.proofs.split(",")
    if any(p not in PROOFS for p in proofs):
        ap.error(f"--proofs takes {' or '.join(PROOFS)}, comma-separated, not {args.proofs[:40]!r}")
    rows = run(args.rows, args.positions, args.seed, splits, args.workers, args.tt_mb,
               on_row=lambda row: print(json.dumps(row), file=sys.stderr, flush=True), proofs=proofs, best=args.best,
               threads=args.threads) \
        if args.positions else []
    projection = None
    if args.project:
        with open(args.project) as f:
            family = json.load(f)
        ratios = [j["cpu_ratio"] for r in rows for j in r["jobs"] if j["split"] == max(splits) and j["proof"] == proofs[0]]
        overhead = args.overhead or (statistics.median(ratios) if ratios else 1.0)
        projection = project(family, overhead)
    print(report(rows, projection), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "projection": projection}, f, indent=1)


if __name__ == "__main__":
    main()
