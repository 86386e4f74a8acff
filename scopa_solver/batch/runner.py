"""`run_job`: read the input, skip what the output already holds, run the rest in chunks on an
engine, write each chunk's rows as it finishes, and sum up."""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Optional, Union

from ..errors import excerpt
from ..kernel.limit import Limit
from ..progress import progress_bar
from ..text import plural
from .engines import EngineOptions, cap_workers, lost
from .inputs import read_items
from .jobs import JOBS, LABEL_WORLDS, BatchItemError, Item, JobOptions, RunOptions
from .outputs import FORMATS, BatchOutputError, ResultWriter

__all__ = ["run_job", "BatchSummary", "chunk_size", "CHUNK_SECONDS"]

CHUNK_SECONDS = 2.0
"""Work per chunk aimed at: long enough that a chunk's overhead (a task, a pickle) is small,
short enough for a live progress bar and little lost work on an interrupt."""

_SECONDS_PER_WORLD = 0.002      # a whole-round exact solve is about a millisecond, more at the start
_RETRIES = 2                     # a chunk whose worker died is run again this many times


@dataclass(frozen=True)
class BatchSummary:
    """The end of a run: the input's items, those done now, those skipped (already in the
    output), the errors among those done now, the items still to do (a limit or an interrupt
    left them), the time, the rate, where it went and how it ran."""

    job: str
    items: int
    done: int
    skipped: int
    errors: int
    remaining: int
    seconds: float
    output: str
    format: str
    engine: str
    workers: int
    chunk_size: int
    dashboard: Optional[str] = None

    @property
    def items_per_second(self) -> float:
        return self.done / self.seconds if self.seconds > 0 else 0.0

    @property
    def complete(self) -> bool:
        return self.remaining == 0

    def to_dict(self) -> dict:
        return dict(asdict(self), items_per_second=self.items_per_second, complete=self.complete)

    def __str__(self) -> str:
        rest = f", {self.remaining:,} left (--resume continues)" if self.remaining else ""
        skipped = f", {self.skipped:,} already done" if self.skipped else ""
        return (f"{self.job}: {plural(self.done, 'item')} in {self.seconds:.1f} s ({self.items_per_second:,.1f} items/s), "
                f"{plural(self.errors, 'error')}{skipped}{rest} -> {self.output} "
                f"({self.engine}, {plural(self.workers, 'worker')})")


def _seconds_per_item(job: str, options: JobOptions) -> float:
    """A rough cost per item, to size the chunks."""
    worlds = options.worlds
    if job == "solve":
        return 0.002
    if job == "analyze":
        return 0.01
    if job == "suggest":
        return (worlds or 1000) * _SECONDS_PER_WORLD
    if job == "label":
        return 0.02 + (worlds or LABEL_WORLDS) * _SECONDS_PER_WORLD
    return 30.0         # a game review: dozens of decisions, each a search and a suggestion


def chunk_size(job: str, items: int, workers: int, options: JobOptions) -> int:
    """Items per chunk: about `CHUNK_SECONDS` of work, and at least four chunks per worker.

    >>> chunk_size("solve", 10_000, 2, JobOptions()), chunk_size("suggest", 200, 2, JobOptions(worlds=20))
    (1000, 25)
    """
    by_time = int(CHUNK_SECONDS / _seconds_per_item(job, options))
    by_share = math.ceil(items / (4 * max(1, workers)))
    return max(1, min(by_time, by_share))


def _format(output: Path, fmt: Optional[str]) -> str:
    if fmt is not None:
        return fmt
    suffix = output.suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else "jsonl"


def run_job(job: str, source: Union[str, Path], output: Union[str, Path], limit: Optional[Limit] = None, *,
            options: Optional[JobOptions] = None, engine: Optional[EngineOptions] = None,
            run: Optional[RunOptions] = None, on_chunk: Optional[Callable[[list], None]] = None,
            say: Callable[[str], None] = lambda text: None) -> BatchSummary:
    """Run `job` over every item of `source` into `output` (see docs/batch.md).

    `limit`: the `Limit` of each item's searches (its nodes, time and table; None: as in
    `options`, else none). `options`: what the items share (`JobOptions`: the seed, worlds,
    rules, bot). `engine`: where the chunks run (`EngineOptions`: "local" with `workers`
    processes, None: every core, at most one an item and `WORKERS_PER_CORE` a core; or "dask",
    the cluster at `scheduler`, the `client` given, or a LocalCluster of `workers` processes).
    `run` (`RunOptions`): the output's `format` ("jsonl", "parquet" or "npz"; default: from the
    output's suffix, else jsonl); an existing output is refused unless `resume` (skip the keys
    it holds) or `overwrite`; `resume` refuses a file that is not a batch output, or a symbolic
    link, unless `force`; at most `items` items this run; `chunk` items per chunk (default:
    `chunk_size`); `progress`. `on_chunk(rows)` is called after each chunk is written,
    `say(text)` with news for a person (the Dask dashboard's address). Ctrl-C stops the
    workers; what was written stays, and `resume` continues.

    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "values.jsonl")
    >>> summary = run_job("solve", "random:3", out, engine=EngineOptions(workers=1), run=RunOptions(progress=False))
    >>> summary.done, summary.errors, summary.complete
    (3, 0, True)
    >>> run_job("solve", "random:3", out, engine=EngineOptions(workers=1),
    ...         run=RunOptions(resume=True, progress=False)).skipped
    3
    """
    if job not in JOBS:
        raise BatchItemError(f"unknown job {excerpt(job)}: one of {', '.join(JOBS)}")
    options = JobOptions() if options is None else options
    if limit is not None:
        options = replace(options, limit=limit)
    engine = EngineOptions() if engine is None else engine
    run = RunOptions() if run is None else run
    output = Path(output)
    fmt = _format(output, run.format)
    items = read_items(source)
    runner = engine.make()
    writer = ResultWriter(output, fmt, job, run.resume, run.overwrite, run.force)
    todo = [item for item in items if item.key not in writer.done]
    skipped = len(items) - len(todo)
    if writer.finished and todo:
        raise BatchOutputError(f"{excerpt(str(output))} holds the arrays of a finished run, which cannot take "
                               f"{len(todo):,} more items: write them to a new output")
    if run.items is not None:
        todo = todo[:run.items]
    cap_workers(runner, engine.workers, len(todo), say)
    size = run.chunk or chunk_size(job, len(todo), runner.workers, options)
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    start = time.perf_counter()
    done = errors = 0
    bar = progress_bar(len(todo), f"batch {job}", run.progress, unit="item")
    try:
        if chunks:
            runner.start()
            if runner.dashboard:
                say(f"Dask dashboard: {runner.dashboard}")
            done, errors = _run_chunks(runner, job, chunks, options, writer, bar, on_chunk)
        if skipped + done == len(items):
            writer.finish()
    except BaseException:       # Ctrl-C: keep what was written, stop the workers now
        writer.close()
        bar.close()
        runner.close(cancel=True)
        raise
    writer.close()
    bar.close()
    runner.close()
    return BatchSummary(job=job, items=len(items), done=done, skipped=skipped, errors=errors,
                        remaining=len(items) - skipped - done, seconds=time.perf_counter() - start,
                        output=str(output), format=fmt, engine=runner.name, workers=runner.workers,
                        chunk_size=size, dashboard=runner.dashboard)


def _run_chunks(runner: Any, job: str, chunks: list[list[Item]], options: JobOptions, writer: ResultWriter,
                bar: Any, on_chunk: Optional[Callable[[list], None]]) -> tuple[int, int]:
    """Keep a few chunks per worker in flight, write each one's rows as it finishes; a chunk
    lost with its worker runs again (then its items are errors)."""
    window = 2 * max(1, runner.workers)
    queue = list(range(len(chunks)))[::-1]
    running: dict = {}
    failures = [0] * len(chunks)
    done = errors = 0
    while queue or running:
        while queue and len(running) < window:
            i = queue.pop()
            running[runner.submit(job, chunks[i], options)] = i
        for future in runner.wait_any(set(running)):
            if future not in running:       # already sent again with a chunk lost before it
                continue
            i = running.pop(future)
            try:
                rows = future.result()
            except (KeyboardInterrupt, MemoryError):
                raise
            except Exception as exc:    # the worker died (a killed process, a broken pool)
                failures[i] += 1
                if failures[i] <= _RETRIES:
                    runner.restart()        # a broken local pool fails every chunk it held
                    queue.append(i)
                    queue.extend(running.pop(f) for f in list(running) if lost(f))
                    continue
                message = f"{type(exc).__name__}: the chunk's worker failed {failures[i]} times: {exc}"[:500]
                rows = [{"key": it.key, "index": it.index, "ok": False, "error": message, "seconds": 0.0,
                         "result": None} for it in chunks[i]]
            writer.write(rows)
            done += len(rows)
            errors += sum(not r["ok"] for r in rows)
            bar.update(len(rows))
            if on_chunk is not None:
                on_chunk(rows)
    return done, errors
