"""The batch jobs: each turns input items into JSON-ready result rows, one row per item.

A row is ``{"key", "index", "ok", "error", "seconds", "result"}``: `result` is the job's data
(None on error), `error` the message of a bad item (None when ok). Every figure in `result`
depends only on the item and its seed (`item_seed`), never on the machine, the engine or
which worker ran it: the effort figures that depend on a warm transposition table (nodes,
table statistics, seconds) stay out of it; `seconds` beside it is the item's wall time.

>>> rows = run_chunk("solve", [Item("1", 0, "text", "7d2c/4c3b 3s4s -/- - 0/0 0 1 -")], JobOptions())
>>> rows[0]["ok"], rows[0]["result"]["value"], rows[0]["result"]["best_moves"]
(True, 5, ['7dx3s+4s'])
>>> bad = run_chunk("solve", [Item("2", 1, "text", "not a position")], JobOptions())[0]
>>> bad["ok"], bad["error"].split(":")[0]
(False, 'NotationError')
"""
from __future__ import annotations

import hashlib
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional, Sequence, Union

from .. import kernel
from ..core.position import Position
from ..core.rules import Rules
from ..errors import ScopaError, excerpt
from ..kernel.limit import NO_LIMIT, Limit
from ..search.solver import Analysis, analyze_many, solve_many

__all__ = ["JOBS", "Item", "JobOptions", "RunOptions", "BatchOptionError", "BatchItemError", "item_seed", "run_chunk", "solve_item",
           "analyze_item", "suggest_item", "review_item", "label_item"]

JOBS = ("solve", "analyze", "suggest", "review", "label")


class BatchItemError(ScopaError):
    """An input item a job cannot take (the wrong kind of item, an unreadable line)."""


class BatchOptionError(ScopaError):
    """Options a run cannot take (`RunOptions`, `JobOptions`): they are checked when made."""


class Item(NamedTuple):
    """One input item: its stable `key` (the line number, the file name, or the generated item's
    number), its `index` in the input (the order of the output), its `kind` ("text": a line of
    notation, "json": a JSON line, "record": a game record's text, "random": a generated item,
    "unread": one too large to read, its `text` saying so) and its `text`."""

    key: str
    index: int  # type: ignore[assignment]  # a field named index hides tuple.index, on purpose
    kind: str
    text: str


@dataclass(frozen=True)
class JobOptions:
    """What every item of a job shares. `seed`: the job's seed (each item's own seed derives
    from it and the item's key); `worlds`: PIMC worlds per suggestion (suggest, label, review's
    fair judge); `limit`: the `Limit` of each search (its nodes, time and table; every item is
    searched by one thread: the workers are the engine's); `rules`: rule options for generated
    items; `bot`: who plays the generated rounds of `label` ("random" or "greedy")."""

    seed: int = 0
    worlds: Optional[int] = None
    limit: Limit = NO_LIMIT
    rules: tuple[str, ...] = ()
    bot: str = "random"

    def __post_init__(self) -> None:
        if not isinstance(self.limit, Limit):
            raise BatchOptionError(f"limit must be a Limit, not {type(self.limit).__name__}")

    def to_dict(self) -> dict:
        return {"seed": self.seed, "worlds": self.worlds, "limit": self.limit.to_dict(), "rules": list(self.rules),
                "bot": self.bot}


@dataclass(frozen=True)
class RunOptions:
    """How a run of `run_job` or `solve_job` treats its output and goes on. An existing output
    is refused unless `resume` (continue it: skip what it holds) or `overwrite` (start again);
    `force`: resume through a symbolic link, or a file that is not a batch output (`run_job`);
    `items`: at most this many items this run (None: all); `progress`: the progress bar (None:
    when standard error is a terminal). `run_job` alone: `format` ("jsonl", "parquet" or "npz";
    None: from the output's suffix) and `chunk` (items per chunk; None: `chunk_size`).

    >>> RunOptions(resume=True, overwrite=True)
    Traceback (most recent call last):
    scopa_solver.batch.jobs.BatchOptionError: resume and overwrite contradict each other: choose one
    """

    resume: bool = False
    overwrite: bool = False
    force: bool = False
    items: Optional[int] = None
    progress: Optional[bool] = None
    format: Optional[str] = None
    chunk: Optional[int] = None

    def __post_init__(self) -> None:
        if self.resume and self.overwrite:
            raise BatchOptionError("resume and overwrite contradict each other: choose one")
        if self.items is not None and (type(self.items) is not int or self.items < 0):
            raise BatchOptionError(f"items must be a whole number, 0 or more, not {excerpt(self.items)}")
        if self.chunk is not None and (type(self.chunk) is not int or self.chunk < 1):
            raise BatchOptionError(f"chunk must be a whole number, 1 or more, not {excerpt(self.chunk)}")


def item_seed(job_seed: int, key: str) -> int:
    """The seed of one item: a hash of the job's seed and the item's key, so the same item gets
    the same seed whatever the engine, the chunks or the order.

    >>> item_seed(0, "12") == item_seed(0, "12") != item_seed(1, "12")
    True
    """
    digest = hashlib.blake2b(f"{job_seed}/{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# -- reading an item ------------------------------------------------------------------------------

def json_line(text: str) -> Any:
    """A JSON line's value, read within a game record's limits (`jsontext.parse_json`: nesting,
    values, digits), else a `BatchItemError`: a hostile line is its item's error, never the run's."""
    from ..jsontext import parse_json
    try:
        return parse_json(text)
    except ValueError as exc:
        raise BatchItemError(f"not a JSON line we read ({' '.join(str(exc).split())[:200]}): "
                             f"{excerpt(text)}") from None


def _readable(item: Item) -> None:
    if item.kind == "unread":
        raise BatchItemError(f"not read: {item.text}")


def _payload(item: Item) -> Union[str, dict]:
    """The item's text, or its JSON object (a JSON line holding a string is that text)."""
    if item.kind != "json":
        return item.text.strip()
    data = json_line(item.text)
    return data if isinstance(data, (dict, str)) else _wrong(item, "a JSON string or object")


def _wrong(item: Item, wanted: str) -> Any:
    raise BatchItemError(f"item {item.key}: expected {wanted}, not {excerpt(item.text)}")


def _text_field(data: dict, *names: str) -> Optional[str]:
    for name in names:
        if isinstance(data.get(name), str):
            return data[name]
    return None


def position_of(item: Item, options: JobOptions, seed: int) -> Position:
    """The position of an item: a line of notation, a JSON line (a string, or an object with a
    "position" field), or for a generated item a new deal from its seed."""
    _readable(item)
    if item.kind == "random":
        return Position.new_round(seed=seed, rules=Rules.from_tokens(list(options.rules)))
    if item.kind == "record":
        return _wrong(item, "a position (game records are for the review job)")
    data = _payload(item)
    text = data if isinstance(data, str) else _text_field(data, "position")
    if text is None:
        return _wrong(item, 'a position: notation, or a JSON object with a "position" field')
    return Position.from_string(text)


def view_of(item: Item, options: JobOptions, seed: int) -> Any:
    """A player's view: view notation (with "?"), a JSON object's "view" field, or a position's
    view of the player to move."""
    from ..core.view import View
    _readable(item)
    data = None if item.kind in ("random", "record") else _payload(item)
    text = data if isinstance(data, str) else _text_field(data, "view") if isinstance(data, dict) else None
    if text is not None and "?" in text:
        return View.from_string(text)
    pos = position_of(item, options, seed)
    if pos.is_round_over():
        raise BatchItemError("the round is over: there is no move to suggest")
    return pos.view(pos.to_move)


def record_of(item: Item) -> Any:
    """A game record: a record file's text, or a JSON line holding the record (or an object with a
    "record" field)."""
    from ..play.record import GameRecord
    _readable(item)
    if item.kind == "record":
        return GameRecord.from_json(item.text)
    data = _payload(item) if item.kind == "json" else _wrong(item, "a game record (a folder of records or JSON lines)")
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]
    if not isinstance(data, dict):
        return _wrong(item, "a game record")
    return GameRecord.from_dict(data)


def _without(data: dict, *names: str) -> dict:
    return {k: v for k, v in data.items() if k not in names}


# -- one function per job ------------------------------------------------------------------------

_EFFORT = ("nodes", "seconds", "tt_probes", "tt_hits", "tt_stores", "tt_fill")


def solve_item(item: Item, options: JobOptions, seed: int) -> dict:
    """The exact value, every optimal move and a principal variation (`solve`)."""
    return _solve_chunk([item], options, [seed])[0]


def _solve_chunk(items: Sequence[Item], options: JobOptions, seeds: Sequence[int],
                 analyze: bool = False) -> list:
    """One kernel batch for the whole chunk (the kernel's scheduler; its searcher reused): the
    result dict, or the exception, per item."""
    out: list = [None] * len(items)
    good: list[int] = []
    positions: list[Position] = []
    found: list[Union[dict, Exception]]
    for i, (item, seed) in enumerate(zip(items, seeds)):
        try:
            positions.append(position_of(item, options, seed))
            good.append(i)
        except Exception as exc:    # a bad item is its own row, never the chunk's end
            out[i] = exc
    try:
        limit = options.limit.replace(threads=1)
        if analyze:
            rows = analyze_many(positions, limit)
            found = [_analysis(p, r) for p, r in zip(positions, rows)]
        else:
            found = [_without(r.to_dict(), *_EFFORT) for r in solve_many(positions, limit)]
    except ScopaError as exc:       # a limit the whole chunk shares (the table size)
        found = [exc] * len(positions)
    for i, value in zip(good, found):
        out[i] = value
    return out


def _analysis(pos: Position, rows: "Analysis") -> dict:
    """An analyze row: exact, or (a limit stopped the exact search) the deepest depth's values;
    `complete`, `value`, `lower`..`upper` as in `Analysis.to_dict()` (docs/search.md)."""
    return {"position": pos.to_string(), "to_move": pos.to_move, "complete": rows.complete,
            "value": rows.value, "lower": rows.lower, "upper": rows.upper, "horizon": rows.horizon,
            "moves": [r.to_dict() for r in rows]}


def analyze_item(item: Item, options: JobOptions, seed: int) -> dict:
    """Every legal move with its exact value, best first (`analyze`)."""
    return _solve_chunk([item], options, [seed], analyze=True)[0]


def suggest_item(item: Item, options: JobOptions, seed: int) -> dict:
    """PIMC figures of every move from the view of the player to move (`suggest`), its worlds
    drawn from the item's seed."""
    from ..imperfect.pimc import suggest
    limit = options.limit
    s = suggest(view_of(item, options, seed), Limit(time=limit.time, tt_mb=limit.tt_mb, threads=1),
                worlds=options.worlds, seed=seed, progress=False)
    return _without(s.to_dict(), "seconds", "nodes")


def review_item(item: Item, options: JobOptions, seed: int) -> dict:
    """Every decision of a game record against the solver (`review`); the fair judge's worlds
    drawn from the item's seed (no fair judge with ``worlds=0``)."""
    from ..play.review import FairReview, review
    worlds = 50 if options.worlds is None else options.worlds or None
    r = review(record_of(item), options.limit.derived(threads=1),
               fair=None if worlds is None else FairReview(worlds, seed), progress=False)
    return _without(r.to_dict(), "seconds")


LABEL_WORLDS = 20
"""PIMC worlds per labelled position by default."""


def label_item(item: Item, options: JobOptions, seed: int) -> dict:
    """A labelled training position: a deal from the item's seed played by `options.bot` to a
    ply drawn from the seed (or the item's own position), then its exact value, every move's
    exact value and every move's PIMC mean from the mover's view (`options.worlds` worlds)."""
    from ..imperfect.pimc import suggest
    from ..search.solver import analyze
    rng = random.Random(seed)
    ply = None
    if item.kind == "random":
        pos = Position.new_round(seed=rng.getrandbits(64), rules=Rules.from_tokens(list(options.rules)),
                                 dealer=rng.randrange(2))
        if not pos.rules.is_standard:
            raise BatchItemError("label makes two-player positions (the feature encoding is for two players)")
        ply = rng.randrange(sum(pos.hand_sizes()) + len(pos.stock))    # any ply of the round
        choose = _bot(options.bot, rng.getrandbits(32))
        for _ in range(ply):
            pos = pos.play(choose(pos))
    else:
        pos = position_of(item, options, seed)
    if not pos.rules.is_standard:
        raise BatchItemError("label takes two-player positions (the feature encoding is for two players)")
    if pos.is_round_over():
        raise BatchItemError("the round is over: nothing to label")
    limit = options.limit
    rows = analyze(pos, limit.replace(horizon=0, threads=None))     # exact values only: a label is never an estimate
    if any(r.value is None for r in rows):
        raise BatchItemError(f"the exact search stopped at a limit ({limit.nodes} nodes, {limit.time} s): "
                             "not labelled")
    worlds = LABEL_WORLDS if options.worlds is None else options.worlds
    s = suggest(pos.view(pos.to_move), Limit(tt_mb=limit.tt_mb, threads=1), worlds=worlds, seed=seed,
                progress=False)     # no time limit: every label's worlds, whatever the machine
    return {"position": pos.to_string(), "ply": ply, "to_move": pos.to_move, "value": rows[0].value,
            "best": str(rows[0].move), "moves": [{"move": str(r.move), "value": r.value} for r in rows],
            "pimc_best": str(s.best), "pimc": [{"move": str(m.move), "mean": m.mean} for m in s.moves],
            "worlds": s.worlds, "exact_worlds": s.exact}


def _bot(name: str, seed: int) -> Callable[[Position], Any]:
    from ..play.bots import GreedyBot, RandomBot
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    raise BatchItemError(f"label plays its rounds with 'random' or 'greedy', not {excerpt(name)}")


def _item_clock(limit: Limit) -> Callable[[], float]:
    """The CPU clock of an item's search: its thread's, or with threads (ext/parallel.pxi) the
    process's, which holds them all (a worker runs one item at a time)."""
    return time.process_time if limit.workers > 1 else time.thread_time


def exact_item(item: Item, options: JobOptions, seed: int) -> dict:
    """The exact value of a position for its side to move, with the kernel's effort: the work
    item of `solve_job` (batch/deal.py), not a command-line job. `options.limit.time` is what
    is left of the job's run: a search it stops has `value` None and the bounds it proved by
    then (`lower`, `upper`: -127 and 127 where none), which the job keeps."""
    pos = position_of(item, options, seed)
    state = pos.kernel_state()
    clock = _item_clock(options.limit)
    start = clock()
    raw = kernel.run_batch([state], want=0, limit=options.limit, together=True)[0]
    cpu = clock() - start
    if raw.stop != kernel.StopReason.NONE:
        return {"value": None, "lower": raw.lower, "upper": raw.upper, "nodes": raw.nodes, "cpu": round(cpu, 6)}
    return {"value": raw.lower, "nodes": raw.nodes, "cpu": round(cpu, 6)}


def bound_item(item: Item, options: JobOptions, seed: int) -> dict:
    """A proof against a window for its side to move: the other work item of `solve_job`. The
    item is a JSON object {"position", "window": [alpha, beta]}; one fail-soft search of the
    kernel within the window (`search_many(window=...)`) gives `value` when it falls inside,
    else None and the bound it proved (`upper` <= alpha, `lower` >= beta; -127 and 127 where
    none); `stopped` when `options.limit.time` cut it (it proved nothing then)."""
    data = _payload(item)
    window = data.get("window") if isinstance(data, dict) else None
    if not (isinstance(window, list) and len(window) == 2 and all(type(w) is int for w in window)):
        return _wrong(item, 'a JSON object with a "position" and a "window": [alpha, beta]')
    state = position_of(item, options, seed).kernel_state()
    limit = options.limit
    main = threading.current_thread() is threading.main_thread()
    clock = _item_clock(limit)
    start = clock()
    with kernel.borrow_searcher(limit) as searcher:
        raw = searcher.search_many([state], 0, 0, limit.time or 0.0, main, threads=limit.workers,
                                   window=(window[0], window[1]))[0]
    cpu = round(clock() - start, 6)
    stopped = raw.stop != kernel.StopReason.NONE
    exact = not stopped and raw.lower == raw.upper
    return {"value": raw.lower if exact else None, "lower": raw.lower, "upper": raw.upper, "nodes": raw.nodes,
            "cpu": cpu, "window": list(window), "stopped": stopped}


ITEM_JOBS: dict[str, Callable[[Item, JobOptions, int], dict]] = {
    "solve": solve_item, "analyze": analyze_item, "suggest": suggest_item, "review": review_item,
    "label": label_item, "exact": exact_item, "bound": bound_item}


def _message(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no message"
    if not isinstance(exc, ScopaError) and not isinstance(exc, ValueError):
        text = f"internal error: {text}"
    return f"{type(exc).__name__}: {text[:500]}"


def _row(item: Item, value: Any, seconds: float) -> dict:
    ok = not isinstance(value, BaseException)
    return {"key": item.key, "index": item.index, "ok": ok, "error": None if ok else _message(value),
            "seconds": round(seconds, 6), "result": value if ok else None}


def run_chunk(job: str, items: Sequence[Item], options: JobOptions) -> list[dict]:
    """The rows of a chunk of items, in the chunk's order. A bad item (unreadable, illegal, over a
    limit) is a row with its error; only Ctrl-C ends the chunk early."""
    if job not in ITEM_JOBS:
        raise BatchItemError(f"unknown job {excerpt(job)}: one of {', '.join(JOBS)}")
    seeds = [item_seed(options.seed, item.key) for item in items]
    if job in ("solve", "analyze"):
        start = time.perf_counter()
        found = _solve_chunk(items, options, seeds, analyze=job == "analyze")
        each = (time.perf_counter() - start) / max(1, len(items))
        return [_row(item, value, each) for item, value in zip(items, found)]
    rows = []
    run = ITEM_JOBS[job]
    for item, seed in zip(items, seeds):
        start = time.perf_counter()
        try:
            value: Any = run(item, options, seed)
        except Exception as exc:    # a bad item is its own row
            value = exc
        rows.append(_row(item, value, time.perf_counter() - start))
    return rows
