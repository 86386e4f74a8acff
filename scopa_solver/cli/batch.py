"""``scopa-solver batch JOB INPUT -o OUTPUT``: the command of `scopa_solver.batch.run_job` (its
grammar is `parser.add_batch_parser`); ``scopa-solver solve POSITION --job DIR``: the command of
`scopa_solver.batch.solve_job` (its grammar `parser._job`)."""
from __future__ import annotations

import sys

from .output import print_json
from .parser import UsageError


def batch_command(args) -> int:
    from ..batch import run_job
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
        summary = run_job(args.job, args.input, args.output, format=args.format, engine=args.engine,
                          workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                          overwrite=args.overwrite, force=args.force, limit=args.limit, chunk=args.chunk,
                          progress=False if args.json else None, seed=args.seed, worlds=args.worlds,
                          max_nodes=args.max_nodes, time_limit=args.time_limit, tt_mb=args.tt_mb, rules=rules,
                          bot=args.bot, say=say)
    except KeyboardInterrupt:
        say(f"scopa-solver: interrupted; what finished is in {args.output} (--resume continues)")
        return 130
    if args.json:
        print_json(summary.to_dict())
    else:
        print(summary)
    return 0


def solve_job_command(args, position) -> int:
    """`solve --job DIR`: the bounds after each work item (standard error, when it is a
    terminal: the progress bar's), the job's result at the end, or where it stopped."""
    from ..batch import solve_job
    if args.max_nodes is not None or args.horizon is not None or args.objective != "value":
        raise UsageError("a job solves exactly under --objective value: no --max-nodes, --horizon or maxn")
    if args.scheduler is not None and args.engine != "dask":
        raise UsageError("--scheduler is for --engine dask")
    if args.resume and args.overwrite:
        raise UsageError("--resume and --overwrite contradict each other: choose one")

    def say(text: str) -> None:
        print(text, file=sys.stderr)

    try:
        result = solve_job(position, args.job, split=args.split, every_root_move=args.every_root_move,
                           engine=args.engine, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                           overwrite=args.overwrite, force=args.force, limit=args.limit,
                           time_limit=args.time_limit, tt_mb=args.tt_mb, verify=args.verify or 0,
                           progress=False if args.json else None,
                           say=say)
    except KeyboardInterrupt:
        say(f"scopa-solver: interrupted; what was solved is in {args.job} (--resume continues)")
        return 130
    if args.json:
        print_json(result.to_dict())
        return 0
    print(result)
    for move, lower, upper in result.moves:
        print(f"  {move:<20} {f'{lower:+d}' if lower == upper else f'{lower:+d}..{upper:+d}':>8}")
    return 0
