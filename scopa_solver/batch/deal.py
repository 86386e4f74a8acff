"""`solve_job`: one position too big for one sitting, solved as a checkpointed job.

The position's tree is cut `split` plies down (the root's moves and their replies by default)
into work items: the distinct positions there. Each item is solved exactly by the kernel on an
engine of `engines` (this machine's processes or a Dask cluster), one item a task, and its value
is written to the job's folder as it finishes. The values are backed up the cut tree by minimax
in the root's frame (the margin with two sides; with three or more the paranoid value, every
other seat minimising, so that the cut goes on until the root's side is to move again: a
paranoid value is only the root's from a seat of its side). An item not solved yet counts as
the widest range its side bounds allow (`kernel.side_bounds`: the points each side can
still end with), so the root's proven lower and upper bound narrow with every item, and an
item that can no longer change the root's value (its range outside the window its ancestors'
other moves leave, as alpha-beta prunes) is never solved. A killed run resumes from the folder.

The folder holds ``job.json`` (what the job is: the position, the cut, the items; written once),
``items.jsonl`` (one row per solved item, the batch jobs' row format) and ``result.json`` (the
bounds and moves when a run ended, rewritten each time). docs/batch.md#a-whole-deal-as-a-job.

>>> import tempfile, os
>>> from scopa_solver import Position, solve
>>> pos = Position(hands=("7d 2c 5b", "3b 4c 6d"), table="3s 4s", dealer=1)
>>> job = solve_job(pos, os.path.join(tempfile.mkdtemp(), "job"), workers=1, progress=False)
>>> job.value == solve(pos).value, job.complete, [str(m) for m in job.best_moves]
(True, True, ['7dx3s+4s'])
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

from .. import kernel
from ..core.position import Move, Position
from ..errors import ScopaError, excerpt
from ..files import file_kind, is_atomic_leftover, open_regular, shown_path, write_text_atomic
from ..progress import progress_bar
from ..text import plural
from .engines import lost, make_engine
from .jobs import Item, JobOptions
from .outputs import BatchOutputError, ResultWriter

__all__ = ["solve_job", "JobResult", "DealJobError", "JOB_FORMAT", "DEFAULT_SPLIT"]

JOB_FORMAT = "scopa-solver solve job"
_VERSION = 1
DEFAULT_SPLIT = 2
"""Plies the tree is cut below the root: its moves and their replies."""
MAX_SPLIT = 6
MAX_ITEMS = 200_000
_MAX_JOB_BYTES = 1 << 20        # job.json is a few lines: more is not ours
_POLL_SECONDS = 0.5             # how often a wait looks at `stop` and the time limit
_RETRIES = 2                     # an item whose worker died is run again this many times
_FILES = ("job.json", "items.jsonl", "result.json")


class DealJobError(BatchOutputError):
    """A job folder that cannot be used: one holding other files, a job of another position,
    a checkpoint that is not this job's (foreign or damaged), settings that contradict it."""


@dataclass
class _Node:
    """A node of the cut tree: `moves` from the root; `top` True where the root's side moves
    (a max node in the root's frame); a leaf names its item by `key`. `lo`..`hi` bound its
    value in the root's frame."""

    moves: tuple[str, ...]
    top: bool
    children: list["_Node"] = field(default_factory=list)
    key: Optional[str] = None
    sign: int = 1               # a leaf: its item's value (for its mover) times sign is the root's
    lo: int = 0
    hi: int = 0


@dataclass(frozen=True)
class JobResult:
    """Where a job stands after a run: `value` (None until proved), the proven `lower`..`upper`
    bounds on it, `best_moves` (the root's moves proved optimal), `moves` (each root move and
    the bounds on its value: equal when exact), the items: all of them, `solved` (now or before),
    `pruned` (that can no longer change the value), `remaining`, `solved_now` in this run; the
    kernel's nodes and CPU seconds over every solved item, this run's wall `seconds`, and
    `stopped` (None when complete, else "limit", "time" or "stop"; result.json also says
    "interrupt" or "error" for a run that Ctrl-C or a failing item ended)."""

    position: str
    value: Optional[int]
    lower: int
    upper: int
    best_moves: tuple[str, ...]
    moves: tuple[tuple[str, int, int], ...]
    items: int
    solved: int
    pruned: int
    remaining: int
    solved_now: int
    nodes: int
    cpu_seconds: float
    seconds: float
    stopped: Optional[str]
    directory: str
    engine: str
    workers: int
    split: int

    @property
    def complete(self) -> bool:
        return self.value is not None and self.stopped is None

    def to_dict(self) -> dict:
        return {"position": self.position, "complete": self.complete, "stopped": self.stopped,
                "value": self.value, "lower": self.lower, "upper": self.upper,
                "best_moves": list(self.best_moves),
                "moves": [{"move": m, "lower": lo, "upper": hi, "value": lo if lo == hi else None}
                          for m, lo, hi in self.moves],
                "items": self.items, "solved": self.solved, "pruned": self.pruned, "remaining": self.remaining,
                "solved_now": self.solved_now, "nodes": self.nodes, "cpu_seconds": self.cpu_seconds,
                "seconds": self.seconds, "directory": self.directory, "engine": self.engine,
                "workers": self.workers, "split": self.split}

    def __str__(self) -> str:
        state = (f"value {self.value:+d}" if self.value is not None
                 else f"value between {self.lower:+d} and {self.upper:+d}")
        why = f", stopped ({self.stopped}): --resume continues" if self.stopped else ""
        best = f", best {' '.join(self.best_moves)}" if self.best_moves else ""
        return (f"solve job: {state}{best}; {self.solved:,} of {plural(self.items, 'item')} solved "
                f"({self.solved_now:,} now), {self.pruned:,} pruned, {self.remaining:,} left{why}; "
                f"{self.nodes:,} nodes, {self.cpu_seconds:.1f} CPU s, {self.seconds:.1f} s -> {self.directory} "
                f"({self.engine}, {plural(self.workers, 'worker')})")


# -- the cut tree ----------------------------------------------------------------------------------

def _side_range(pos: Position, me: Optional[int] = None) -> tuple[int, int]:
    """The widest range of `pos`'s value in the frame of side `me` (default: the side to move):
    from every side's bounds on its final points (two sides: the margin; more: the paranoid
    value); the value itself once the round is over."""
    bounds = kernel.side_bounds(pos.kernel_state())
    me = pos.rules.sides[pos.to_move] if me is None else me
    others = [b for s, b in enumerate(bounds) if s != me]
    return bounds[me][0] - max(h for _, h in others), bounds[me][1] - max(lo for lo, _ in others)


def _estimate(pos: Position, side: int) -> float:
    """The static evaluation of `pos` in `side`'s frame: orders the cut tree's moves (best
    first, so that the pruning starts early)."""
    if pos.is_round_over():
        return _side_range(pos, side)[0]
    expected, _ = kernel.evaluate(pos.kernel_state())
    sides = pos.rules.sides
    points = list(expected)
    for seat, scopas in enumerate(pos.scopas):
        points[sides[seat]] += scopas
    return points[side] - max(p for s, p in enumerate(points) if s != side)


def _build(root: Position, split: int) -> tuple[_Node, dict[str, Position]]:
    """The cut tree and its items (distinct positions: transpositions share one)."""
    rules = root.rules
    side = rules.sides[root.to_move]
    items: dict[str, Position] = {}

    def grow(pos: Position, moves: tuple[str, ...]) -> _Node:
        node = _Node(moves, rules.sides[pos.to_move] == side)
        deeper = len(moves) < split or (rules.side_count > 2 and not node.top)
        if pos.is_round_over():         # a leaf of known value, in the root's frame
            node.lo, node.hi = _side_range(pos, side)
            return node
        if not deeper:
            key = pos.to_string()
            if key not in items and len(items) >= MAX_ITEMS:
                raise DealJobError(f"the cut makes more than {MAX_ITEMS:,} items: choose a smaller split")
            items[key] = pos
            node.key, node.sign = key, 1 if node.top else -1
            return node
        children = [(move, pos.play(move)) for move in pos.legal_moves()]
        children.sort(key=lambda mc: -_estimate(mc[1], side) if node.top else _estimate(mc[1], side))
        node.children = [grow(child, moves + (str(move),)) for move, child in children]
        return node

    return grow(root, ()), items


def _back_up(node: _Node, ranges: dict[str, tuple[int, int]]) -> None:
    """Every node's bounds from its leaves' (minimax in the root's frame)."""
    if node.key is not None:
        lo, hi = ranges[node.key]
        node.lo, node.hi = (lo, hi) if node.sign > 0 else (-hi, -lo)
    if not node.children:       # an item, or the end of the round
        return
    for child in node.children:
        _back_up(child, ranges)
    pick = max if node.top else min
    node.lo = pick(c.lo for c in node.children)
    node.hi = pick(c.hi for c in node.children)


def _live(node: _Node, alpha: float, beta: float, out: list[str], every_root_move: bool = False) -> None:
    """The keys of the unsolved leaves that can still change the root's value (with
    `every_root_move`, the value of any root move), in tree order: a node matters only strictly
    inside the window its ancestors' other moves leave (alpha-beta's)."""
    decided = node.lo == node.hi
    if not every_root_move and (decided or node.hi <= alpha or node.lo >= beta):
        return
    if not node.children:       # an item (or the end of the round: decided)
        if not decided and node.key is not None:
            out.append(node.key)
        return
    for i, child in enumerate(node.children):
        if every_root_move:
            a, b = -math.inf, math.inf
        elif node.top:
            a, b = max([alpha] + [c.lo for j, c in enumerate(node.children) if j != i]), beta
        else:
            a, b = alpha, min([beta] + [c.hi for j, c in enumerate(node.children) if j != i])
        _live(child, a, b, out)


# -- the job folder -------------------------------------------------------------------------------

def _digest(keys: Any) -> str:
    return hashlib.blake2b("\n".join(sorted(keys)).encode(), digest_size=16).hexdigest()


def _read_job(path: Path) -> dict:
    """job.json, checked to be a job of this kind, else a `DealJobError` saying why."""
    from ..jsontext import parse_json
    if path.is_symlink():
        raise DealJobError(f"{excerpt(str(path))} is a symbolic link: not reading a job through it")
    try:
        with open_regular(path, encoding="utf-8", error=DealJobError) as f:     # a named pipe: at once
            if os.fstat(f.fileno()).st_size > _MAX_JOB_BYTES:
                raise DealJobError(f"{excerpt(str(path))} is too large to be a solve job's description: not ours")
            text = f.read()
    except FileNotFoundError:
        raise DealJobError(f"{excerpt(str(path))} is not a file: not a solve job's folder") from None
    try:
        data = parse_json(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DealJobError(f"{excerpt(str(path))} is not a solve job's description ({str(exc)[:120]})") from None
    fields = {"format": str, "version": int, "position": str, "split": int, "every_root_move": bool,
              "items": int, "digest": str}
    if not isinstance(data, dict) or data.get("format") != JOB_FORMAT or any(
            type(data.get(k)) is not t for k, t in fields.items()):
        raise DealJobError(f"{excerpt(str(path))} is not a solve job's description: not touching the folder")
    if data["version"] != _VERSION:
        raise DealJobError(f"{excerpt(str(path))} is a version {data['version']} job: this scopa-solver reads "
                           f"version {_VERSION}")
    return data


def _folder(directory: Path, resume: bool, overwrite: bool) -> Optional[dict]:
    """The job already in `directory` (resume) or None (a new job: the folder is new or empty,
    or `overwrite` removed the job's own files). Never touches a file that is not the job's."""
    if directory.exists() and not directory.is_dir():
        raise DealJobError(f"{excerpt(str(directory))} is a file, not a job folder")
    names = set(os.listdir(directory)) if directory.is_dir() else set()
    # a save cut by a kill leaves its temporary file (the file it was to replace stands)
    leftovers = {n for n in names if any(is_atomic_leftover(n, of) for of in _FILES) and not (directory / n).is_dir()}
    names -= leftovers
    if names - set(_FILES):
        raise DealJobError(f"{excerpt(str(directory))} holds files that are not a solve job's "
                           f"({excerpt(', '.join(sorted(names - set(_FILES))))}): not touching it (choose another folder)")
    for name in names:
        kind = file_kind(directory / name) if (directory / name).exists() else None     # a dangling link: no
        if kind is not None:        # a folder, a named pipe (reading it would wait), a device
            raise DealJobError(f"{shown_path(directory / name)} is {kind}, not a solve job's file: not touching it")
    for name in leftovers:          # only in a folder known to be a job's
        os.unlink(directory / name)
    if not names:
        if resume:
            raise DealJobError(f"no job to resume in {excerpt(str(directory))}")
        return None
    job = _read_job(directory / "job.json")      # a folder of ours, or an error
    if resume:
        return job
    if not overwrite:
        raise DealJobError(f"{excerpt(str(directory))} holds a solve job: --resume to continue it, "
                           "--overwrite to start again")
    for name in _FILES:
        path = directory / name
        if path.is_symlink() or path.is_file():
            path.unlink()
    return None


def _solved(writer: ResultWriter, items: dict[str, Position], ranges: dict) -> dict[str, dict]:
    """The rows already in items.jsonl, checked against the job: a row for an item it does not
    have, or a value outside the item's bounds, is not this job's checkpoint."""
    from .outputs import read_rows
    done: dict[str, dict] = {}
    for row in read_rows(writer.journal):
        key, result = row.get("key"), row.get("result")
        if not isinstance(key, str) or key not in items:
            raise DealJobError(f"{excerpt(str(writer.journal))} has a row for an item this job does not have "
                               f"({excerpt(key)}): not this job's checkpoint")
        if row.get("ok") is not True:
            continue
        value = result.get("value") if isinstance(result, dict) else None
        lo, hi = ranges[key]
        if type(value) is not int or not lo <= value <= hi:
            raise DealJobError(f"{excerpt(str(writer.journal))}: the item {excerpt(key)} has the value "
                               f"{excerpt(value)}, outside its bounds {lo}..{hi}: not this job's checkpoint")
        nodes, cpu = result.get("nodes"), result.get("cpu")
        if type(nodes) is not int or nodes < 0 or type(cpu) not in (int, float) or not 0 <= cpu < math.inf:
            raise DealJobError(f"{excerpt(str(writer.journal))}: the item {excerpt(key)} has no effort figures "
                               "(nodes, cpu) of ours: not this job's checkpoint")
        done[key] = result
    return done


# -- the run --------------------------------------------------------------------------------------

def solve_job(position: Optional[Position], directory: Union[str, "os.PathLike[str]"], *,
              split: Optional[int] = None, every_root_move: Optional[bool] = None,
              engine: str = "local", workers: Optional[int] = None, scheduler: Optional[str] = None,
              client: Any = None, resume: bool = False, overwrite: bool = False, force: bool = False,
              limit: Optional[int] = None, time_limit: Optional[float] = None, tt_mb: Optional[float] = None,
              progress: Optional[bool] = None, stop: Optional[threading.Event] = None,
              on_item: Optional[Callable[[JobResult], None]] = None,
              say: Callable[[str], None] = lambda text: None) -> JobResult:
    """Solve `position` exactly as a checkpointed job in the folder `directory` (see the module
    and docs/batch.md#a-whole-deal-as-a-job); the `JobResult`, exact when `complete`.

    `split`: plies the tree is cut below the root (default 2: its moves and their replies);
    with three or more sides the cut goes on to the next seat of the root's side.
    `every_root_move`: the exact value of every root move (no pruning at the root), not only
    the position's. A new job needs a new or empty folder, or `overwrite` (which removes only
    the job's own files: a folder holding anything else is refused); `resume` continues the
    job in the folder (`position`: None, or the job's own; `split` and `every_root_move` as
    saved), and refuses a folder whose files are not a solve job's, and, unless `force`,
    a checkpoint reached through a symbolic link.
    `engine`, `workers`, `scheduler`, `client`: as `run_job` (one item a task). `limit`: at most
    this many items solved this run; `time_limit`: seconds for this run (the items running
    then are stopped and redone by the next run); `stop`: an event another thread sets to stop
    the run (a running item finishes first with one local worker). `tt_mb`: each search's
    table. `on_item(result)` after each solved item with the bounds so far; `say(text)` news
    for a person. Ctrl-C stops the workers (what was solved stays) and raises KeyboardInterrupt.
    """
    if split is not None and (type(split) is not int or not 1 <= split <= MAX_SPLIT):
        raise DealJobError(f"split must be a whole number of plies from 1 to {MAX_SPLIT}, not {excerpt(split)}")
    if limit is not None and (type(limit) is not int or limit < 0):
        raise DealJobError(f"limit must be a whole number, 0 or more, not {excerpt(limit)}")
    if resume and overwrite:
        raise DealJobError("resume and overwrite contradict each other: choose one")
    _, seconds = kernel.check_limits(None, time_limit)
    kernel.check_tt_mb(tt_mb)
    directory = Path(directory)
    job = _folder(directory, resume, overwrite)
    if job is not None:
        try:
            saved = Position.from_string(job["position"])
        except ValueError as exc:
            raise DealJobError(f"{excerpt(str(directory / 'job.json'))} has no position we read ({str(exc)[:160]})") \
                from None
        if position is not None and position.to_string() != saved.to_string():
            raise DealJobError(f"{excerpt(str(directory))} is the job of another position ({excerpt(job['position'])})")
        for name, given in (("split", split), ("every_root_move", every_root_move)):
            if given is not None and given != job[name]:
                raise DealJobError(f"{excerpt(str(directory))} was started with {name}={job[name]}, not {given}")
        position, split, every_root_move = saved, job["split"], job["every_root_move"]
    elif position is None:
        raise DealJobError("a new job needs a position")
    elif not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    split = DEFAULT_SPLIT if split is None else split
    every_root_move = bool(every_root_move)
    root, items = _build(position, split)
    if job is not None and (job["items"], job["digest"]) != (len(items), _digest(items)):
        raise DealJobError(f"{excerpt(str(directory))}: its items are not those of its position and split "
                           "(made by another version, or changed): start it again with overwrite")
    ranges = {key: _side_range(pos) for key, pos in items.items()}
    try:
        writer = ResultWriter(directory / "items.jsonl", "jsonl", "exact", resume=job is not None, overwrite=False,
                              force=force)
    except BatchOutputError as exc:     # a foreign file, a symbolic link: this job's error
        raise DealJobError(str(exc)) from None
    solved = _solved(writer, items, ranges)
    if job is None:
        directory.mkdir(parents=True, exist_ok=True)
        write_text_atomic(directory / "job.json", json.dumps(
            {"format": JOB_FORMAT, "version": _VERSION, "position": position.to_string(), "split": split,
             "every_root_move": every_root_move, "items": len(items), "digest": _digest(items)}, indent=1) + "\n",
            overwrite=False)
    for key, result in solved.items():
        ranges[key] = (result["value"], result["value"])
    runner = make_engine(engine, workers, scheduler, client)
    start = time.perf_counter()
    deadline = time.monotonic() + seconds if seconds else math.inf
    state = {"now": 0, "stopped": None}

    def live() -> list[str]:
        _back_up(root, ranges)
        out: list[str] = []
        _live(root, -math.inf, math.inf, out, every_root_move)
        return list(dict.fromkeys(out))     # a transposition's item once

    def result() -> JobResult:
        todo = live()
        moves = tuple((c.moves[0], c.lo, c.hi) for c in root.children)
        decided = root.lo == root.hi and not todo
        best = tuple(m for m, lo, hi in moves if lo == hi == root.lo) if decided else ()
        effort = list(solved.values())
        return JobResult(position=position.to_string(), value=root.lo if decided else None, lower=root.lo,
                         upper=root.hi, best_moves=best, moves=moves, items=len(items),
                         solved=sum(lo == hi for lo, hi in ranges.values()), remaining=len(todo),
                         pruned=sum(lo != hi for lo, hi in ranges.values()) - len(todo),
                         solved_now=state["now"], nodes=sum(r["nodes"] for r in effort),
                         cpu_seconds=sum(r["cpu"] for r in effort),
                         seconds=time.perf_counter() - start, stopped=None if decided else state["stopped"],
                         directory=str(directory), engine=runner.name, workers=runner.workers, split=split)

    bar = progress_bar(len(items), "solve job", progress, unit="item")
    settled = 0     # items solved or pruned, on the bar

    def show() -> JobResult:
        nonlocal settled
        now = result()
        bar.update(now.items - now.remaining - settled)
        settled = now.items - now.remaining
        bar.set_postfix_str(f"value {now.lower:+d}..{now.upper:+d}")
        return now

    show()
    running: dict = {}
    failures: dict[str, int] = {}
    try:
        todo = live()
        if todo:
            runner.start()
            if runner.dashboard:
                say(f"Dask dashboard: {runner.dashboard}")
        while todo or running:
            left = deadline - time.monotonic()
            if stop is not None and stop.is_set() or left <= 0 or limit is not None and state["now"] >= limit:
                state["stopped"] = "stop" if stop is not None and stop.is_set() else "time" if left <= 0 else "limit"
                break
            busy = set(running.values())
            for key in todo:
                if len(running) >= max(1, runner.workers) or limit is not None and \
                        state["now"] + len(running) >= limit:
                    break
                if key not in busy:
                    options = JobOptions(time_limit=None if left == math.inf else max(left, 1e-3), tt_mb=tt_mb)
                    running[runner.submit("exact", [Item(key, 0, "text", key)], options)] = key
            if not running:
                break
            for future in runner.wait_any(set(running), timeout=min(_POLL_SECONDS, max(0.0, left))):
                key = running.pop(future, None)
                if key is None:
                    continue
                try:
                    row = future.result()[0]
                except (KeyboardInterrupt, MemoryError):
                    raise
                except Exception as exc:    # the worker died (a killed process, a broken pool)
                    failures[key] = failures.get(key, 0) + 1
                    if failures[key] > _RETRIES:
                        raise DealJobError(f"the item {excerpt(key)} failed {failures[key]} times "
                                           f"({type(exc).__name__}: {str(exc)[:200]})") from None
                    runner.restart()        # a broken local pool fails every item it held
                    for f in [f for f in running if lost(f)]:
                        running.pop(f)
                    continue
                if not row["ok"]:
                    if row["error"].startswith("TimeLimitError"):     # the run's time ran out: redo it later
                        continue
                    raise DealJobError(f"the item {excerpt(key)} failed: {row['error']}")
                value = row["result"]["value"]
                lo, hi = ranges[key]
                if not lo <= value <= hi:
                    raise DealJobError(f"internal error: the item {excerpt(key)} has the value {value}, "
                                       f"outside its bounds {lo}..{hi}")
                writer.write([row])
                solved[key], ranges[key] = row["result"], (value, value)
                state["now"] += 1
                now = show()
                if on_item is not None:
                    on_item(now)
            todo = live()
            for future in [f for f, k in running.items() if k not in todo]:     # pruned meanwhile
                if getattr(future, "key", None) is not None:    # a Dask task: cancelled; a local one runs out
                    future.cancel()
                    running.pop(future)
    except BaseException as exc:    # Ctrl-C, an item that failed: keep what was written, stop the workers now
        writer.close()
        bar.close()
        runner.close(cancel=True)
        _save(directory, result(), "interrupt" if isinstance(exc, KeyboardInterrupt) else "error")
        raise
    writer.close()
    bar.close()
    runner.close(cancel=bool(running))
    final = result()
    if final.value is None and not final.remaining and final.stopped is None:
        raise DealJobError("internal error: every item is solved or pruned but the value is not proved")
    _save(directory, final)
    return final


def _save(directory: Path, result: JobResult, stopped: Optional[str] = None) -> None:
    """result.json: where the job stands (the bounds, the moves), for a person or a script."""
    data = result.to_dict()
    if stopped is not None and data["value"] is None:
        data["stopped"] = stopped
    write_text_atomic(directory / "result.json", json.dumps(data, indent=1) + "\n")
