"""``scopa-solver batch JOB INPUT -o OUTPUT``: the command of `scopa_solver.batch.run_job` (its
grammar is `parser.add_batch_parser`); ``scopa-solver solve POSITION --job DIR``: the command of
`scopa_solver.batch.solve_job` (its grammar `parser._job`)."""
from __future__ import annotations

import sys
from typing import Any

from .output import print_json
from .parser import UsageError


def batch_command(args) -> int:
    from ..batch import JobOptions, RunOptions, run_job
    from ..kernel import Limit
    from ..core.rules import Rules
    if args.worlds == 0 and args.job != "review":
        raise UsageError("--worlds 0 (no fair review) is for the review job")
    if args.scheduler is not None and args.engine != "dask":
        raise UsageError("--scheduler is for --engine dask")
    if args.resume and args.overwrite:
        raise UsageError("--resume and --overwrite contradict each other: choose one")
    rules = tuple(args.rules or ())
    Rules.from_tokens(list(rules))     # a bad option is one line now, not an error per item

    def say(text: str) -> None:
        print(text, file=sys.stderr)

    try:
        summary = run_job(args.job, args.input, args.output,
                          Limit(nodes=args.max_nodes, time=args.time_limit, tt_mb=args.tt_mb),
                          options=JobOptions(seed=args.seed, worlds=args.worlds, rules=rules, bot=args.bot),
                          engine=_engine(args), run=RunOptions(resume=args.resume, overwrite=args.overwrite,
                                                               force=args.force, items=args.limit,
                                                               progress=False if args.json else None,
                                                               format=args.format, chunk=args.chunk),
                          say=say)
    except KeyboardInterrupt:
        say(f"scopa-solver: interrupted; what finished is in {args.output} (--resume continues)")
        return 130
    if args.json:
        print_json(summary.to_dict())
    else:
        print(summary)
    return 0


def _engine(args) -> Any:
    from ..batch import EngineOptions
    return EngineOptions(args.engine, args.workers, args.scheduler)


def solve_job_command(args, position) -> int:
    """`solve --job DIR`: the bounds after each work item (standard error, when it is a
    terminal: the progress bar's), the job's result at the end, or where it stopped."""
    from ..batch import DealOptions, RunOptions, solve_job
    from ..kernel import Limit
    if args.max_nodes is not None or args.horizon is not None or args.objective != "value":
        raise UsageError("a job solves exactly under --objective value: no --max-nodes, --horizon or maxn")
    if args.scheduler is not None and args.engine != "dask":
        raise UsageError("--scheduler is for --engine dask")
    if args.resume and args.overwrite:
        raise UsageError("--resume and --overwrite contradict each other: choose one")

    def say(text: str) -> None:
        print(text, file=sys.stderr)

    try:
        result = solve_job(position, args.job, Limit(time=args.time_limit, tt_mb=args.tt_mb, threads=args.threads),
                           deal=DealOptions(args.split, args.every_root_move, args.verify or 0,
                                            proof=args.proof or "bounds"),
                           engine=_engine(args),
                           run=RunOptions(resume=args.resume, overwrite=args.overwrite, force=args.force,
                                          items=args.limit, progress=False if args.json else None),
                           say=say)
        # printing the result is inside: a Ctrl-C there still names the folder
        if args.json:
            print_json(result.to_dict())
            return 0
        print(result)
        for move, lower, upper in result.moves:
            print(f"  {move:<20} {f'{lower:+d}' if lower == upper else f'{lower:+d}..{upper:+d}':>8}")
        return 0
    except KeyboardInterrupt:
        say(f"scopa-solver: interrupted; what was solved is in {args.job} (--resume continues)")
        return 130
