"""``scopa-solver bench``: the command of `scopa_solver.bench` (its grammar is
`parser.add_bench_parsers`; ``scopa-solver perft`` is in `commands`). A wrong answer (a value,
best moves or perft count other than the shipped one) is exit 1 with a line naming each
position; bad input exit 2."""
from __future__ import annotations

import sys
import time

from ..kernel.limit import Limit
from .output import print_json
from .parser import UsageError


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def _progress(args):
    return False if args.json else None


def bench_command(args) -> int:
    from .. import bench
    chosen = [args.all, args.list, bool(args.compare), args.perft, args.make_suite is not None]
    if sum(chosen) > 1:
        raise UsageError("--all, --list, --compare, --perft and --make-suite are separate tasks: choose one")
    if args.all and args.suites:
        raise UsageError("--all runs every shipped suite: name suites or give --all, not both")
    if args.time is not None and not args.compare:
        raise UsageError("--time chooses the time --compare compares: give --compare A.json B.json")
    if args.techniques and args.without:
        raise UsageError("--techniques runs every technique's rung: leave --without out")
    if args.list:
        return _list(args)
    if args.compare:
        return _compare(args)
    if args.perft:
        return _perft_check(args)
    if args.make_suite is not None:
        from ..bench.make import make_suites
        names = args.suites or None
        unknown = [n for n in names or () if n not in bench.SUITES]
        if unknown:
            raise UsageError(f"no shipped suite {unknown[0][:40]!r}; suites: {', '.join(bench.SUITES)}")
        for path in make_suites(args.make_suite, names, progress=_progress(args)):
            print(path)
        return 0
    names = list(bench.SUITES) if args.all else (args.suites or bench.DEFAULT_SUITES)
    suites = bench.load_suites(names)
    limit = Limit(nodes=args.max_nodes or None, time=args.time_limit or None)
    if args.techniques:
        return _techniques(args, suites, limit)
    config = bench.Config(frozenset(args.without), args.threads, args.tt_mb)
    start = time.perf_counter()
    runs = bench.run_suites(suites, config, args.repeat, limit=limit, progress=_progress(args))
    result = bench.result_dict(runs, config, args.repeat)
    result["wall"] = time.perf_counter() - start
    if args.json:
        print_json(result)
    else:
        print(bench.report(result))
        print(f"wall time {result['wall']:.1f} s")
    return _verdict(bench.failures(result))


def _verdict(failed: list) -> int:
    for line in failed:
        _say(f"scopa-solver: bench: WRONG {line}")
    if failed:
        _say(f"scopa-solver: bench: {len(failed)} wrong answer(s)")
        return 1
    return 0


def _list(args) -> int:
    from ..bench import SUITES
    rows = [dict(name=name, positions=s.count, default=s.default, about=s.about) for name, s in SUITES.items()]
    if args.json:
        print_json(rows)
        return 0
    for r in rows:
        print(f"{r['name']:<18}{r['positions']:>4}  {'' if r['default'] else '(--all) '}{r['about']}")
    return 0


def _compare(args) -> int:
    from ..bench import compare, compare_report, read_result
    path_a, path_b = args.compare
    a, b = read_result(path_a), read_result(path_b)
    key = {"cpu": "cpu", "wall": "seconds", None: None}[args.time]
    rows = compare(a, b, key)
    if args.json:
        print_json(rows)
    else:
        print(compare_report(rows, path_a, path_b))
    return 0


def _techniques(args, suites, limit: Limit) -> int:
    """The ladder on the same suites: each rung's total time, nodes and its speed-up over the one
    before, on the positions every rung solved within the limits."""
    from .. import bench
    from ..bench.run import ladder, ladder_report, ladder_rows
    results = []
    for config in ladder(args.threads if args.threads > 1 else 2):
        config = bench.Config(config.off, config.threads, args.tt_mb)
        runs = bench.run_suites(suites, config, args.repeat, limit=limit, progress=_progress(args))
        results.append(bench.result_dict(runs, config, args.repeat))
    rows = ladder_rows(results)
    if args.json:
        print_json(dict(rungs=results, table=rows))
    else:
        print(ladder_report(rows))
    return _verdict([line for r in results for line in bench.failures(r)])


def _perft_check(args) -> int:
    from ..bench import check_perft, read_perft
    from ..bench.perft import PERFT_FILE
    paths = args.suites or [str(PERFT_FILE)]
    rows = [row for path in paths for row in check_perft(read_perft(path), _progress(args))]
    if args.json:
        print_json(rows)
    else:
        for row in rows:
            if row["depth"] == max(r["depth"] for r in rows if r["id"] == row["id"]) or not row["ok"]:
                print(f"{row['id']:<20} D{row['depth']:<3}{row['counted']:>12,}  "
                      + ("ok" if row["ok"] else f"WRONG: the file says {row['expected']:,}"))
        print(f"{len(rows)} counts checked")
    return _verdict([f"perft {r['id']} depth {r['depth']}: {r['counted']} plays, the file says {r['expected']}"
                     for r in rows if not r["ok"]])

