"""``scopa-solver batch JOB INPUT -o OUTPUT``: the command of `scopa_solver.batch.run_job` (its
grammar is `parser.add_batch_parser`)."""
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
