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

An item that the run's time limit cuts keeps what its search proved (its bounds); one cut
after at least half the run's limit is split one turn deeper (its moves' positions become
items), so that a job whose items are all longer than the limit still finishes, run by run.

The folder holds ``job.json`` (what the job is: the position, the cut, the items; written once,
with a checksum), ``items.jsonl`` (one record per solved or cut item, each with a checksum
bound to the job), ``rejected.jsonl`` (the records set aside as damaged, duplicated or foreign:
their items are solved again), ``result.json`` (the bounds and moves when a run ended,
rewritten each time) and ``job.lock`` (held by the run using the folder).
docs/batch.md#a-whole-deal-as-a-job.

>>> import tempfile, os
>>> from scopa_solver import Position, solve
>>> pos = Position(hands=("7d 2c 5b", "3b 4c 6d"), table="3s 4s", dealer=1)
>>> from scopa_solver.batch import EngineOptions, RunOptions
>>> job = solve_job(pos, os.path.join(tempfile.mkdtemp(), "job"), engine=EngineOptions(workers=1),
...                 run=RunOptions(progress=False))
>>> job.value == solve(pos).value, job.complete, [str(m) for m in job.best_moves]
(True, True, ['7dx3s+4s'])
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import random
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Union, cast

from .. import kernel
from ..core.position import Position
from ..errors import excerpt
from ..files import file_kind, is_atomic_leftover, open_regular, shown_path, write_atomic, write_text_atomic
from ..progress import progress_bar
from ..text import plural
from ..kernel.limit import NO_LIMIT, Limit
from .engines import EngineOptions, cap_workers, lost
from .jobs import Item, JobOptions, RunOptions
from .outputs import BatchOutputError, ResultWriter

__all__ = ["solve_job", "DealOptions", "JobResult", "DealJobError", "JOB_FORMAT", "DEFAULT_SPLIT", "PROOFS"]

JOB_FORMAT = "scopa-solver solve job"
_VERSION = 2                    # 2: checksums on job.json and on every record; cut items' bounds
DEFAULT_SPLIT = 2
PROOFS = ("bounds", "exact")
"""How a job's items are searched (`DealOptions.proof`): proved against thresholds, or solved."""
"""Plies the tree is cut below the root: its moves and their replies."""
MAX_SPLIT = 6
ORDER_PLIES = 8                 # the horizon searches that order the cut tree's moves (`_Tree.order`)
MAX_ITEMS = 200_000
_MAX_JOB_BYTES = 1 << 20        # job.json is a few lines: more is not ours
_POLL_SECONDS = 0.5             # how often a wait looks at `stop` and the time limit
_RETRIES = 2                     # an item whose worker died is run again this many times
_SPLIT_SHARE = 0.5              # a cut item that had this share of the run's limit is split
_GRACE_SECONDS = 10.0           # after the run's time: how long its cut items have to report
_NO_BOUND = 127                 # the kernel's "no bound" (a cut search's lower -127, upper 127)
_SECOND = "a second record of an item solved before"
_FILES = ("job.json", "items.jsonl", "result.json", "rejected.jsonl")
_LOCK = "job.lock"


class DealJobError(BatchOutputError):
    """A job folder that cannot be used: one holding other files, a job of another position,
    a damaged job description, a folder another run is using, settings that contradict it."""


@dataclass
class _Node:
    """A node of the cut tree: `moves` from the root; `top` True where the root's side moves
    (a max node in the root's frame); an item's node names it by `key` (an item that was split
    keeps its key and has children). `lo`..`hi` bound its value in the root's frame."""

    moves: tuple[str, ...]
    top: bool
    children: list["_Node"] = field(default_factory=list)
    key: Optional[str] = None
    sign: int = 1               # an item: its value (for its mover) times sign is the root's
    lo: int = 0
    hi: int = 0
    guess: Optional[float] = None   # its value estimated (`_Tree.order`), in the root's frame


@dataclass(frozen=True)
class JobResult:
    """Where a job stands after a run: `value` (None until proved), the proven `lower`..`upper`
    bounds on it, `best_moves` (the root's moves proved optimal), `moves` (each root move and
    the bounds on its value: equal when exact), the items: all of them, `solved` (now or before),
    `pruned` (that can no longer change the value; `bounded` of all items those with a proven
    bound short of their value), `remaining` (those the next step needs), `solved_now` (solved
    or proved against a window) in this run,
    `cut_now` (cut by this run's time limit: their bounds kept, the long ones split), the
    records `rejected` when the checkpoint was read or verified (solved again), the items
    `verified` by solving them again; the kernel's nodes and CPU seconds over every record,
    this run's wall `seconds`, and `stopped` (None when complete, else "limit", "time" or
    "stop"; result.json also says "interrupt" or "error" for a run that Ctrl-C or a failing
    item ended), the `proof` the items had (`DealOptions.proof`) and the `threads` that searched
    each item."""

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
    cut_now: int = 0
    rejected: int = 0
    verified: int = 0
    bounded: int = 0
    proof: str = "bounds"
    threads: int = 1

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
                "solved_now": self.solved_now, "cut_now": self.cut_now, "rejected": self.rejected,
                "verified": self.verified, "nodes": self.nodes, "cpu_seconds": self.cpu_seconds,
                "seconds": self.seconds, "directory": self.directory, "engine": self.engine,
                "workers": self.workers, "threads": self.threads, "split": self.split, "bounded": self.bounded,
                "proof": self.proof}

    def __str__(self) -> str:
        state = (f"value {self.value:+d}" if self.value is not None
                 else f"value between {self.lower:+d} and {self.upper:+d}")
        why = f", stopped ({self.stopped}): --resume continues" if self.stopped else ""
        best = f", best {' '.join(self.best_moves)}" if self.best_moves else ""
        cut = f"; {self.cut_now:,} cut by the time limit, bounds kept" if self.cut_now else ""
        checked = (f"; {plural(self.verified, 'item')} verified" if self.verified else "") + \
                  (f"; {plural(self.rejected, 'record')} rejected (solved again)" if self.rejected else "")
        bounded = f", {self.bounded:,} bounded" if self.bounded else ""
        now = f"{self.solved_now:,} now" if self.proof == "exact" else f"{self.solved_now:,} item search{'' if self.solved_now == 1 else 'es'} now"
        return (f"solve job: {state}{best}; {self.solved:,} of {plural(self.items, 'item')} solved{bounded} "
                f"({now}{cut}), {self.pruned:,} pruned, {self.remaining:,} left{why}{checked}; "
                f"{self.nodes:,} nodes, {self.cpu_seconds:.1f} CPU s, {self.seconds:.1f} s -> {self.directory} "
                f"({self.engine}, {plural(self.workers, 'worker')}"
                f"{f' of {self.threads} threads' if self.threads > 1 else ''})")


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


class _Tree:
    """The cut tree and its items (distinct positions: transpositions share one). An item can
    be split later (`expand`): its node grows children one turn deeper, new items."""

    def __init__(self, root: Position, split: int) -> None:
        self.rules, self.side = root.rules, root.rules.sides[root.to_move]
        self.items: dict[str, Position] = {}
        self.nodes: dict[str, list[_Node]] = {}     # every node of an item (transpositions)
        self.expanded: set[str] = set()
        self.root = self._grow(root, (), split)

    def _grow(self, pos: Position, moves: tuple[str, ...], until: int) -> _Node:
        node = _Node(moves, self.rules.sides[pos.to_move] == self.side)
        deeper = len(moves) < until or (self.rules.side_count > 2 and not node.top)
        if pos.is_round_over():         # a leaf of known value, in the root's frame
            node.lo, node.hi = _side_range(pos, self.side)
            return node
        if not deeper:
            key = pos.to_string()
            if key not in self.items and len(self.items) >= MAX_ITEMS:
                raise DealJobError(f"the cut makes more than {MAX_ITEMS:,} items: choose a smaller split")
            self.items.setdefault(key, pos)
            self.nodes.setdefault(key, []).append(node)
            node.key, node.sign = key, 1 if node.top else -1
            return node
        self._branch(node, pos, until)
        return node

    def _branch(self, node: _Node, pos: Position, until: int) -> None:
        children = [(move, pos.play(move)) for move in pos.legal_moves()]
        children.sort(key=lambda mc: -_estimate(mc[1], self.side) if node.top else _estimate(mc[1], self.side))
        node.children = [self._grow(child, node.moves + (str(move),), until) for move, child in children]

    def expand(self, key: str) -> None:
        """Split the item `key`: each of its nodes grows the positions one turn deeper."""
        if key in self.expanded:
            return
        self.expanded.add(key)
        for node in self.nodes[key]:
            self._branch(node, self.items[key], len(node.moves) + 1)

    def leaves(self) -> list[str]:
        return [key for key in self.items if key not in self.expanded]

    def order(self, tt_mb: Optional[float] = None) -> float:
        """Order every node's moves best first by its items' values estimated by a horizon
        search `ORDER_PLIES` deep, backed up by minimax (better than the static evaluation the
        tree was grown with: the refutations come first, so fewer items are searched) and set
        each node's `guess`; the CPU seconds it took."""
        start = time.thread_time()
        leaves = self.leaves()
        found = kernel.run_batch([self.items[k].kernel_state() for k in leaves], want=0,
                                 limit=Limit(horizon=ORDER_PLIES, tt_mb=tt_mb, threads=1))
        estimates = {k: float(r.lower) for k, r in zip(leaves, found)
                     if r is not None and r.stop == kernel.StopReason.NONE}
        _order(self.root, estimates)
        return time.thread_time() - start

    def back_up(self, known: dict[str, tuple[int, int]]) -> None:
        _back_up(self.root, known)

    def live(self, every_root_move: bool) -> list[str]:
        out: list[str] = []
        _live(self.root, -math.inf, math.inf, out, every_root_move)
        return list(dict.fromkeys(out))     # a transposition's item once


def _order(node: _Node, estimates: dict[str, float]) -> float:
    """`node`'s estimated value in the root's frame, its children sorted best first for their
    mover (a stable sort: ties keep the static order); an item without an estimate: 0."""
    if not node.children:
        if node.key is None:        # the end of the round: its value
            node.guess = float(node.lo)
        else:
            node.guess = node.sign * estimates.get(node.key, 0.0)
        return node.guess
    values = {id(c): _order(c, estimates) for c in node.children}
    node.children.sort(key=lambda c: -values[id(c)] if node.top else values[id(c)])
    node.guess = (max if node.top else min)(values.values())
    return node.guess


def _frame(bounds: tuple[int, int], sign: int) -> tuple[int, int]:
    """An item's bounds (its mover's frame) in the root's frame."""
    return bounds if sign > 0 else (-bounds[1], -bounds[0])


def _back_up(node: _Node, known: dict[str, tuple[int, int]]) -> None:
    """Every node's bounds from its leaves' (minimax in the root's frame); a split item's own
    proven bounds hold beside its parts'."""
    if not node.children:       # an item, or the end of the round (its bounds set when grown)
        if node.key is not None:
            node.lo, node.hi = _frame(known[node.key], node.sign)
        return
    for child in node.children:
        _back_up(child, known)
    pick = max if node.top else min
    node.lo = pick(c.lo for c in node.children)
    node.hi = pick(c.hi for c in node.children)
    if node.key is not None:
        lo, hi = _frame(known[node.key], node.sign)
        if max(lo, node.lo) > min(hi, node.hi):
            raise DealJobError(f"the item {excerpt(node.key)} was proved to be within {lo}..{hi} but its parts "
                               f"give {node.lo}..{node.hi}: a damaged checkpoint (start it again with overwrite)")
        node.lo, node.hi = max(lo, node.lo), min(hi, node.hi)


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


def _needed(node: _Node, g: int, out: list[str]) -> None:
    """The items the test "`node` >= g" needs now, in tree order, as the young brothers wait
    (Feldmann's YBWC): while a node's eldest child is undecided only it is searched; once it is
    decided (and did not decide its parent), its brothers all are, side by side. A node whose
    bounds already decide the test needs nothing."""
    if node.lo >= g or node.hi < g:
        return
    if not node.children:       # an item (the end of the round is decided)
        if node.key is not None:
            out.append(node.key)
        return
    eldest = node.children[0]
    if eldest.lo < g <= eldest.hi:
        _needed(eldest, g, out)
        return
    for child in node.children[1:]:
        _needed(child, g, out)


class _Prover:
    """What to prove next when the items are proved against thresholds (`DealOptions.proof`
    "bounds"): MTD(f) over the cut tree. Each node whose value is wanted (the root; with
    `every_root_move` each root move) is tested "value >= g" for a threshold g inside its proven
    interval: the items that test needs (`_needed`: the eldest brother first) are proved
    against g, each by one null-window search of the kernel, and the bounds they prove are
    backed up; once the test is decided the next g is the new bound's (fail-soft, as MTD(f)
    moves its guess), until the interval closes. Then each root move that may tie the value is
    tested against it, so that the best moves are every optimal one, as the direct search's.
    The first g of a node is its items' horizon estimates backed up the cut tree (`_Tree.order`,
    which also puts every node's refutations first)."""

    def __init__(self, tree: _Tree, every_root_move: bool, every_best_move: bool = True) -> None:
        self.tree, self.every_root_move, self.every_best_move = tree, every_root_move, every_best_move
        self.thresholds: dict[tuple[str, ...], int] = {}
        self.estimates: dict[str, float] = {}

    def _guess(self, node: _Node) -> float:
        if node.guess is not None:
            return min(max(node.guess, node.lo), node.hi)
        if not node.children:
            if node.key is None:
                return node.lo
            if node.key not in self.estimates:
                self.estimates[node.key] = _estimate(self.tree.items[node.key], self.tree.side)
            return min(max(self.estimates[node.key], node.lo), node.hi)
        values = [self._guess(c) for c in node.children]
        return max(values) if node.top else min(values)

    def _threshold(self, node: _Node) -> int:
        """The g of `node`'s next test: the last one while it is undecided, else moved past the
        bound that decided it; the first from the estimate. Always node.lo < g <= node.hi."""
        g = self.thresholds.get(node.moves)
        if g is None:
            g = round(self._guess(node))
        if g <= node.lo:
            g = node.lo + 1
        elif g > node.hi:
            g = node.hi
        self.thresholds[node.moves] = g
        return g

    def plan(self) -> dict[str, tuple[int, int]]:
        """The items to prove now, in order, each with its window in its mover's frame (the
        tree backed up first)."""
        root = self.tree.root
        tests: list[tuple[_Node, int]] = []
        if self.every_root_move:
            tests = [(c, self._threshold(c)) for c in root.children if c.lo < c.hi]
        elif root.lo < root.hi:
            tests = [(root, self._threshold(root))]
        elif self.every_best_move:      # the value is proved: the root moves that may still reach it
            tests = [(c, root.lo) for c in root.children if c.lo < root.lo <= c.hi]
        out: dict[str, tuple[int, int]] = {}
        for node, g in tests:
            keys: list[str] = []
            _needed(node, g, keys)
            for key in keys:
                if key not in out:
                    sign = self.tree.nodes[key][0].sign
                    out[key] = (g - 1, g) if sign > 0 else (-g, 1 - g)
        return out


# -- the job folder -------------------------------------------------------------------------------

def _digest(keys: Any) -> str:
    return hashlib.blake2b("\n".join(sorted(keys)).encode(), digest_size=16).hexdigest()


def _checksum(data: dict, salt: str = "") -> str:
    """The checksum of a JSON object (without its "check" field), bound to `salt` (the job's
    own checksum, for its records: a record copied from another job does not match)."""
    text = json.dumps({k: v for k, v in data.items() if k != "check"}, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(f"{salt}\n{text}".encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _read_job(path: Path) -> dict:
    """job.json, checked to be a job of this kind and whole, else a `DealJobError` saying why."""
    from ..jsontext import parse_json
    if path.is_symlink():
        raise DealJobError(f"{shown_path(path)!r} is a symbolic link: not reading a job through it")
    try:
        with open_regular(path, encoding="utf-8", error=DealJobError) as f:     # a named pipe: at once
            if os.fstat(f.fileno()).st_size > _MAX_JOB_BYTES:
                raise DealJobError(f"{shown_path(path)!r} is too large to be a solve job's description: not ours")
            text = f.read()
    except FileNotFoundError:
        raise DealJobError(f"{shown_path(path)!r} is not a file: not a solve job's folder") from None
    try:
        data = parse_json(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DealJobError(f"{shown_path(path)!r} is not a solve job's description ({str(exc)[:120]})") from None
    if not isinstance(data, dict) or data.get("format") != JOB_FORMAT or type(data.get("version")) is not int:
        raise DealJobError(f"{shown_path(path)!r} is not a solve job's description: not touching the folder")
    if data["version"] == 1:
        raise DealJobError(f"{shown_path(path)!r} is a job of an earlier scopa-solver, without checksums: "
                           "start it again with --overwrite")
    if data["version"] != _VERSION:
        raise DealJobError(f"{shown_path(path)!r} is a version {data['version']} job: this scopa-solver reads "
                           f"version {_VERSION}")
    fields = {"position": str, "split": int, "every_root_move": bool, "items": int, "digest": str, "check": str}
    if any(type(data.get(k)) is not t for k, t in fields.items()) or data["check"] != _checksum(data):
        raise DealJobError(f"{shown_path(path)!r} is damaged (its checksum does not match what it says): "
                           "not trusting the job; start it again with --overwrite")
    return data


def _job_names(directory: Path) -> tuple[set[str], set[str]]:
    """The names in `directory` (the lock file left out) and those among them that look like
    a save cut by a kill (a temporary file of one of the job's files)."""
    names = set(os.listdir(directory)) - {_LOCK} if directory.is_dir() else set()
    leftovers = {n for n in names if any(is_atomic_leftover(n, of) for of in _FILES) and not (directory / n).is_dir()}
    return names, leftovers


def _check_folder(directory: Path) -> tuple[set[str], set[str]]:
    """The job's names and the leftovers in `directory`, or a `DealJobError` if it holds
    anything else: a leftover's name counts as the job's only beside a job.json."""
    if directory.exists() and not directory.is_dir():
        raise DealJobError(f"{excerpt(str(directory))} is a file, not a job folder")
    names, leftovers = _job_names(directory)
    if "job.json" not in names:
        leftovers = set()       # not a job's folder (yet): a file named like one is a user's
    foreign = names - leftovers - set(_FILES)
    if foreign:
        raise DealJobError(f"{excerpt(str(directory))} holds files that are not a solve job's "
                           f"({excerpt(', '.join(sorted(foreign)))}): not touching it (choose another folder)")
    for name in names - leftovers:
        kind = file_kind(directory / name) if (directory / name).exists() else None     # a dangling link: no
        if kind is not None:        # a folder, a named pipe (reading it would wait), a device
            raise DealJobError(f"{shown_path(directory / name)} is {kind}, not a solve job's file: not touching it")
    return names - leftovers, leftovers


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold `directory`'s lock file while the block runs, or a `DealJobError` at once if another
    run holds it. An OS lock (flock): a run that is killed releases it with its process."""
    try:
        import fcntl
    except ImportError:         # no flock here (Windows): one run at a time is the user's to keep
        yield
        return
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(directory / _LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            raise DealJobError(f"{excerpt(str(directory))} is in use by another run"
                               f"{f' (process {holder})' if holder.isdigit() else ''}: wait for it to end, "
                               "or stop it") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)            # releases the lock; the file stays (removing it races a waiting run)


def _folder(directory: Path, resume: bool, overwrite: bool) -> Optional[dict]:
    """The job already in `directory` (resume) or None (a new job: the folder is new or empty,
    or `overwrite` removed the job's own files). Never touches a file that is not the job's:
    a leftover of a cut save goes only once job.json is read as this kind's. Under the lock."""
    names, leftovers = _check_folder(directory)
    if not names:
        if resume:
            raise DealJobError(f"no job to resume in {excerpt(str(directory))}")
        return None
    job = _read_job(directory / "job.json")      # a folder of ours, or an error
    for name in leftovers:
        os.unlink(directory / name)
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


# -- the records ----------------------------------------------------------------------------------

@dataclass
class _Record:
    """One line of items.jsonl: its number, its text, and (when it reads) its row."""

    line: int
    text: str
    row: dict = field(default_factory=dict)     # the line's JSON object ({}: it is not one)
    why: Optional[str] = None       # set: the record is not trusted


def _why_unread(row: Any, salt: str) -> Optional[str]:
    """Why a line of items.jsonl is not a record of this job, or None."""
    if not isinstance(row, dict) or not isinstance(row.get("key"), str):
        return "not a record of this job"
    if row.get("check") != _checksum(row, salt):
        return "its checksum does not match (damaged, or another job's)"
    result = row.get("result")
    if row.get("ok") is not True or not isinstance(result, dict):
        return "not a record of this job"
    nodes, cpu = result.get("nodes"), result.get("cpu")
    if type(nodes) is not int or nodes < 0 or type(cpu) not in (int, float) or \
            not 0 <= cast(float, cpu) < math.inf:
        return "no effort figures (nodes, cpu) of ours"
    value = result.get("value")
    if value is None:
        if type(result.get("lower")) is not int or type(result.get("upper")) is not int or \
                type(result.get("split")) is not bool:
            return "a cut item's record without its bounds"
    elif type(value) is not int:
        return "a value that is not a whole number"
    return None


def _read_records(path: Path, salt: str) -> list[_Record]:
    """Every complete line of items.jsonl (a cut last line of a killed run is left out), each
    checked by itself: a line that does not read or whose checksum does not match gets `why`."""
    from ..jsontext import parse_json
    records: list[_Record] = []
    if not path.exists():
        return records
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.endswith(b"\n"):
                break
            text = raw.decode("utf-8", "surrogateescape").rstrip("\n")
            try:
                row = parse_json(text)
            except (ValueError, RecursionError):
                row = None
            why = _why_unread(row, salt)
            records.append(_Record(number, text, row if isinstance(row, dict) else {}, why))
    return records


def _bounds_of(result: dict) -> tuple[int, int]:
    value = result["value"]
    return (value, value) if value is not None else (result["lower"], result["upper"])


def _load(records: list[_Record], tree: _Tree) -> dict[str, tuple[int, int]]:
    """Apply the trusted records to `tree` (split the items cut and split) and give every
    item's proven bounds; a record that is not this job's (an item it does not have, a value
    outside the item's bounds, a second record of a solved item, values that disagree) gets
    `why` and counts for nothing."""
    good = [r for r in records if r.why is None]
    known = {key: _side_range(pos) for key, pos in tree.items.items()}

    def check(record: _Record) -> bool:         # an item of the tree, within its bounds
        row = record.row
        if row["key"] not in tree.items:
            record.why = "a record of an item this job does not have"
            return False
        lo, hi = _bounds_of(row["result"])
        side_lo, side_hi = _side_range(tree.items[row["key"]])
        if not side_lo <= lo <= hi <= side_hi:
            record.why = f"bounds {lo}..{hi} outside the item's {side_lo}..{side_hi}"
            return False
        return True

    # splits first: an item split gives the items of the records after it (and of later splits)
    splits = [r for r in good if r.row["result"]["value"] is None and r.row["result"]["split"]]
    grew = True
    while grew:
        grew = False
        for record in splits:
            key = record.row["key"]
            if key in tree.items and key not in tree.expanded and check(record):
                tree.expand(key)
                for new in tree.items.keys() - known.keys():
                    known[new] = _side_range(tree.items[new])
                grew = True
    values: dict[str, list[_Record]] = {}
    for record in good:
        if record.why is not None or not check(record):
            continue
        result = record.row["result"]
        if result["value"] is None:
            lo, hi = result["lower"], result["upper"]
            now = known[record.row["key"]]
            if max(lo, now[0]) > min(hi, now[1]):
                record.why = f"bounds {lo}..{hi} that contradict the item's other bounds {now[0]}..{now[1]}"
                continue
            known[record.row["key"]] = (max(lo, now[0]), min(hi, now[1]))
        else:
            values.setdefault(record.row["key"], []).append(record)
    for key, solved in values.items():
        found = {r.row["result"]["value"] for r in solved}
        lo, hi = known[key]
        if len(found) > 1:
            for r in solved:
                r.why = f"values that disagree ({', '.join(map(str, sorted(found)))})"
        elif not lo <= solved[0].row["result"]["value"] <= hi:
            for r in solved:
                r.why = f"a value outside the bounds its cut search proved ({lo}..{hi})"
        else:
            known[key] = _bounds_of(solved[0].row["result"])
            for r in solved[1:]:
                r.why = _SECOND
    return known


def _set_aside(journal: Path, records: list[_Record], say: Callable[[str], None]) -> list[_Record]:
    """Move the records not trusted from items.jsonl to rejected.jsonl (their lines kept there
    with why), name each, and return the trusted ones: their items are solved again."""
    bad = [r for r in records if r.why is not None]
    if not bad:
        return records
    kept = [r for r in records if r.why is None]
    rejected = journal.with_name("rejected.jsonl")
    with open(rejected, "a", encoding="utf-8", errors="surrogateescape") as f:
        for r in bad:
            f.write(json.dumps({"line": r.line, "why": r.why, "text": r.text}) + "\n")
        f.flush()
        os.fsync(f.fileno())

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("".join(r.text + "\n" for r in kept))
            f.flush()
            os.fsync(f.fileno())
    write_atomic(os.path.realpath(journal), write)     # through a link (--force): into its target
    for r in bad[:5]:
        key = r.row.get("key")
        key = key if isinstance(key, str) else None
        then = "the first record stands" if r.why == _SECOND else "its item is solved again"
        say(f"{journal}: line {r.line}{f' (item {excerpt(key)})' if key else ''}: {r.why}: not trusted, "
            f"set aside in {rejected.name}; {then}")
    if len(bad) > 5:
        say(f"{journal}: {len(bad) - 5:,} more records set aside in {rejected.name}")
    return kept


# -- the run --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DealOptions:
    """What a solve job is: `split`, the plies its tree is cut below the root (None: as saved,
    else `DEFAULT_SPLIT`, its moves and their replies; with three or more sides the cut goes
    on to the next seat of the root's side); `every_root_move`, the exact value of every root
    move (no pruning at the root), not only the position's (None: as saved, else False);
    `verify`: this many of the items a record narrowed (a value or proved bounds), drawn at
    random, are solved again exactly first;
    and `proof`, how the items are searched: "bounds" (each item proved against the threshold
    the root's interval needs, by a null-window search: MTD(f) over the cut tree, `_Prover`)
    or "exact" (each item solved exactly with the full window, as before: for comparisons).
    Either resumes a job the other began (both keep the bounds they proved).
    `every_best_move` ("bounds"): once the value is proved, each root move that may tie it is
    tested against it, so that `best_moves` are every optimal move, as `solve`'s; False: the
    value, and the moves proved optimal on the way (as "exact" gives).

    >>> DealOptions(split=9)
    Traceback (most recent call last):
    scopa_solver.batch.deal.DealJobError: split must be a whole number of plies from 1 to 6, not 9
    """

    split: Optional[int] = None
    every_root_move: Optional[bool] = None
    verify: int = 0
    proof: str = "bounds"
    every_best_move: bool = True

    def __post_init__(self) -> None:
        if self.proof not in PROOFS:
            raise DealJobError(f"proof must be one of {', '.join(PROOFS)}, not {excerpt(self.proof)}")
        if self.split is not None and (type(self.split) is not int or not 1 <= self.split <= MAX_SPLIT):
            raise DealJobError(f"split must be a whole number of plies from 1 to {MAX_SPLIT}, not {excerpt(self.split)}")
        if type(self.verify) is not int or self.verify < 0:
            raise DealJobError(f"verify must be a whole number of items, 0 or more, not {excerpt(self.verify)}")


def solve_job(position: Optional[Position], directory: Union[str, "os.PathLike[str]"],
              limit: Optional[Limit] = None, *, deal: Optional[DealOptions] = None,
              engine: Optional[EngineOptions] = None, run: Optional[RunOptions] = None,
              stop: Optional[threading.Event] = None, on_item: Optional[Callable[[JobResult], None]] = None,
              say: Callable[[str], None] = lambda text: None) -> JobResult:
    """Solve `position` exactly as a checkpointed job in the folder `directory` (see the module
    and docs/batch.md#a-whole-deal-as-a-job); the `JobResult`, exact when `complete`.

    `limit`: this run's `Limit`: `time` (seconds for this run: an item it cuts keeps the bounds
    its search proved, and one cut after half the limit or more is split one turn deeper),
    `deadline` (the run ends by then too), `tt_mb` (each search's table) and `threads` (each
    item searched by that many threads sharing its table, ext/parallel.pxi; the workers are the
    engine's, and a pool the run starts itself then defaults to a worker for every `threads`
    cores); a job solves exactly, so a node limit or a horizon is refused.
    `deal` (`DealOptions`): the cut (`split`), `every_root_move` and `verify`. A new job needs
    a new or empty folder, or `run.overwrite` (which removes only the job's own files: a folder
    holding anything else is refused); `run.resume` continues the job in the folder
    (`position`: None, or the job's own; `split` and `every_root_move` as saved), and refuses
    a folder whose files are not a solve job's, and, unless `run.force`, a checkpoint reached
    through a symbolic link; `run.items`: at most this many items solved this run;
    `run.progress`. One run at a time uses a folder: another is refused at once
    (`DealJobError`). A record of items.jsonl that is damaged, duplicated or another job's (its
    checksum, its item, its value) is named through `say`, set aside in rejected.jsonl and its
    item solved again; `verify` items drawn at random are solved again first (a record the
    value contradicts, a value or bounds, is set aside and the value kept). `engine`
    (`EngineOptions`): as `run_job`'s (one item a task; local workers at most one per item left
    and `WORKERS_PER_CORE` a core). `stop`: an event
    another thread sets to stop the run (a running item finishes first with one local worker).
    `on_item(result)` after each solved item with the bounds so far; `say(text)` news for a
    person. Ctrl-C stops the workers (what was solved stays) and raises KeyboardInterrupt.
    """
    limit = NO_LIMIT if limit is None else limit
    deal = DealOptions() if deal is None else deal
    run = RunOptions() if run is None else run
    engine = EngineOptions() if engine is None else engine
    if not isinstance(limit, Limit):
        raise DealJobError(f"limit must be a Limit, not {type(limit).__name__}")
    for name in ("nodes", "horizon"):
        if getattr(limit, name) is not None:
            raise DealJobError(f"a solve job solves exactly: no {name} limit ({limit!r})")
    if run.format is not None or run.chunk is not None:
        raise DealJobError("format and chunk are a batch job's options: a solve job writes one item a record")
    if position is not None and not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    if limit.workers > 1 and not engine.workers and engine.scheduler is None and engine.client is None:
        # the pool the run starts (local, or Dask's LocalCluster): every core busy, not twice
        # over, each worker's item taking `threads` of them
        engine = replace(engine, workers=max(1, (os.cpu_count() or 1) // limit.workers))
    runner = engine.make()      # a bad engine before the folder is touched
    directory = Path(directory)
    names, _ = _check_folder(directory)     # a folder that is not a job's is refused before the lock goes in
    if run.resume and not names:
        raise DealJobError(f"no job to resume in {excerpt(str(directory))}")
    with _locked(directory):
        job = _folder(directory, run.resume, run.overwrite)
        return _run(job, position, directory, deal, runner, engine.workers, run, limit, stop, on_item, say)


def _run(job: Optional[dict], position: Optional[Position], directory: Path, deal: DealOptions, runner: Any,
         workers: Optional[int], run: RunOptions, limit: Limit, stop: Optional[threading.Event],
         on_item: Optional[Callable[[JobResult], None]], say: Callable[[str], None]) -> JobResult:
    """`solve_job` in its folder, locked: `job` is the saved description (None: a new job)."""
    split, every_root_move, verify, force, items = deal.split, deal.every_root_move, deal.verify, run.force, run.items
    proving = deal.proof == "bounds"
    seconds = limit.time or 0.0
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
    split = DEFAULT_SPLIT if split is None else split
    every_root_move = bool(every_root_move)
    tree = _Tree(position, split)
    if job is not None and (job["items"], job["digest"]) != (len(tree.items), _digest(tree.items)):
        raise DealJobError(f"{excerpt(str(directory))}: its items are not those of its position and split "
                           "(made by another version, or changed): start it again with overwrite")
    journal = directory / "items.jsonl"
    if journal.is_symlink() and not force:
        raise DealJobError(f"{excerpt(str(journal))} is a symbolic link: not writing through it "
                           "(--force writes into its target)")
    if job is None:
        job = {"format": JOB_FORMAT, "version": _VERSION, "position": position.to_string(), "split": split,
               "every_root_move": every_root_move, "items": len(tree.items), "digest": _digest(tree.items)}
        job["check"] = _checksum(job)
        directory.mkdir(parents=True, exist_ok=True)
        write_text_atomic(directory / "job.json", json.dumps(job, indent=1) + "\n", overwrite=False)
    salt = job["check"]
    records = _read_records(journal, salt)
    known = _load(records, tree)
    rejected = sum(r.why is not None for r in records)
    records = _set_aside(journal, records, say)
    try:
        writer = ResultWriter(journal, "jsonl", "exact", resume=journal.exists(), overwrite=False, force=force)
    except BatchOutputError as exc:     # a symbolic link: this job's error
        raise DealJobError(str(exc)) from None
    start = time.perf_counter()
    deadline = limit.end(time.monotonic())
    state: dict[str, Any] = {"now": 0, "cut": 0, "verified": 0, "unverified": 0, "rejected": rejected,
                             "stopped": None}
    prover = _Prover(tree, every_root_move, deal.every_best_move)
    state["order_cpu"] = tree.order(limit.tt_mb) if proving else 0.0
    windows: dict[str, tuple[int, int]] = {}    # "bounds": the window each item of the plan is proved against

    def live() -> list[str]:
        tree.back_up(known)
        return tree.live(every_root_move)

    def plan() -> list[str]:
        """The items to search now, in order: those that can still change the value ("exact"),
        or those the prover's tests need, with their windows ("bounds")."""
        if not proving:
            return live()
        tree.back_up(known)
        windows.clear()
        windows.update(prover.plan())
        return list(windows)

    def record(row: dict) -> None:
        """Append `row` to items.jsonl with its checksum (and to `records`, which a record
        set aside by --verify rewrites the file from)."""
        row = dict(row, index=0, error=None)
        row["check"] = _checksum(row, salt)
        writer.write([row])
        records.append(_Record(records[-1].line + 1 if records else 1, json.dumps(row, separators=(",", ":")), row))

    def result() -> JobResult:
        todo = plan()
        root = tree.root
        moves = tuple((c.moves[0], c.lo, c.hi) for c in root.children)
        decided = root.lo == root.hi and not todo
        best = tuple(m for m, lo, hi in moves if lo == hi == root.lo) if decided else ()
        leaves = tree.leaves()
        solved = sum(known[k][0] == known[k][1] for k in leaves)
        bounded = sum(known[k][0] < known[k][1] and known[k] != _side_range(tree.items[k]) for k in leaves)
        return JobResult(position=position.to_string(), value=root.lo if decided else None, lower=root.lo,
                         upper=root.hi, best_moves=best, moves=moves, items=len(leaves), solved=solved,
                         remaining=len(todo), pruned=len(leaves) - solved - len(todo),
                         solved_now=state["now"], nodes=sum(r.row["result"]["nodes"] for r in records),
                         cpu_seconds=sum(r.row["result"]["cpu"] for r in records) + state["order_cpu"],
                         seconds=time.perf_counter() - start, stopped=None if decided else state["stopped"],
                         directory=str(directory), engine=runner.name, workers=runner.workers, split=split,
                         cut_now=state["cut"], rejected=state["rejected"], verified=state["verified"],
                         bounded=bounded, proof=deal.proof, threads=limit.workers)

    # --verify draws from every item a record narrowed: a value, or bounds proved against a
    # window or by a search the time limit cut (each is solved again exactly, and must agree)
    proved = [k for k in tree.leaves() if known[k] != _side_range(tree.items[k])]
    checks = random.Random().sample(proved, min(verify, len(proved)))
    todo = plan()
    cap_workers(runner, workers, len(live()) + len(checks), say)
    bar = progress_bar(len(tree.leaves()), "solve job", run.progress, unit="item")
    settled = 0     # items solved or pruned, on the bar

    def show() -> JobResult:
        nonlocal settled
        now = result()
        bar.total = now.items
        bar.update(now.items - now.remaining - settled)
        settled = now.items - now.remaining
        bar.set_postfix_str(f"value {now.lower:+d}..{now.upper:+d}")
        return now

    show()
    running: dict = {}      # future -> (key, seconds it was given, a verification)
    failures: dict[str, int] = {}
    try:
        if todo or checks:
            runner.start()
            if runner.dashboard:
                say(f"Dask dashboard: {runner.dashboard}")
        while todo or running or checks:
            left = deadline - time.monotonic()
            if stop is not None and stop.is_set() or left <= 0 or items is not None and state["now"] >= items:
                state["stopped"] = "stop" if stop is not None and stop.is_set() else "time" if left <= 0 else "limit"
                # the items the time limit cuts report what they proved: wait for them a little
                if state["stopped"] != "time" or not running or left < -_GRACE_SECONDS:
                    break
            else:
                _submit(runner, running, checks, todo, items, state["now"], left, limit.tt_mb, windows,
                        limit.threads)
            if not running:
                break
            for future in runner.wait_any(set(running), timeout=min(_POLL_SECONDS, max(0.05, left))):
                if future not in running:
                    continue
                key, given, checking = running.pop(future)
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
                        k, _, again = running.pop(f)
                        if again:
                            checks.insert(0, k)
                    if checking:
                        checks.insert(0, key)
                    continue
                if not row["ok"]:
                    raise DealJobError(f"the item {excerpt(key)} failed: {row['error']}")
                found = row["result"]
                if found["value"] is None and not found.get("stopped", True):   # a proof against a window
                    if key not in tree.expanded:
                        _proved(known, key, found, row, record)
                        state["now"] += 1
                        now = show()
                        _save(directory, now)
                        if on_item is not None:
                            on_item(now)
                    continue
                if found["value"] is None:
                    state["unverified"] += checking
                    if not checking and key not in tree.expanded:
                        _cut(tree, known, key, found, row, bool(seconds) and given >= _SPLIT_SHARE * seconds, record)
                        state["cut"] += 1
                        show()
                    continue
                lo, hi = known[key]
                if checking:
                    if lo <= found["value"] <= hi:
                        state["verified"] += 1
                        if lo == hi or key in tree.expanded:
                            continue
                        # bounds that hold: the exact value found is kept too (it narrows the root)
                    else:
                        # a stored value or bound was wrong: set aside every record of the item
                        # that the value found contradicts, keep the new value
                        writer.close()
                        for r in records:
                            b = _bounds_of(r.row["result"]) if r.row["key"] == key else None
                            if b is not None and not b[0] <= found["value"] <= b[1]:
                                what = f"its value {b[0]} differs from" if b[0] == b[1] else \
                                    f"its bounds {b[0]}..{b[1]} exclude"
                                r.why = f"{what} {found['value']}, solved again by --verify"
                        records = _set_aside(journal, records, say)
                        state["rejected"] += 1
                        lo, hi = _side_range(tree.items[key])
                        for r in records:
                            if r.row["key"] == key:         # the bounds that agree stand
                                b = _bounds_of(r.row["result"])
                                lo, hi = max(lo, b[0]), min(hi, b[1])
                elif key in tree.expanded or lo == hi:
                    continue        # split or solved meanwhile (a transposition)
                if not lo <= found["value"] <= hi:
                    raise DealJobError(f"internal error: the item {excerpt(key)} has the value {found['value']}, "
                                       f"outside its bounds {lo}..{hi}")
                record({"key": key, "ok": True, "seconds": row["seconds"],
                        "result": {"value": found["value"], "nodes": found["nodes"], "cpu": found["cpu"]}})
                known[key] = (found["value"], found["value"])
                state["now"] += not checking
                now = show()
                _save(directory, now)
                if on_item is not None:
                    on_item(now)
            todo = plan()
            for future in [f for f, (k, _, checking) in running.items() if not checking and k not in todo]:
                if getattr(future, "key", None) is not None:    # a Dask task pruned meanwhile: cancelled
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
    if final.cut_now:
        say(f"{plural(final.cut_now, 'item')} did not finish within the time limit: the bounds their searches "
            "proved are kept, and those cut after half of it or more are split into the positions a turn "
            "further on (smaller items); --resume continues")
    if state["unverified"] or checks:
        say(f"{plural(state['unverified'] + len(checks), 'item')} of --verify not solved again: the run's limit "
            "came first")
    _save(directory, final)
    return final


def _submit(runner: Any, running: dict, checks: list[str], todo: list[str], items: Optional[int], done: int,
            left: float, tt_mb: Optional[float], windows: dict[str, tuple[int, int]],
            threads: Optional[int] = None) -> None:
    """Give the free workers items: the verifications first, then the items left in tree order
    (none beyond `items`), each with the run's time left (and `threads` a search): solved
    exactly, or proved against its window in `windows`."""
    busy = {k for k, _, _ in running.values()}
    given = None if left == math.inf else max(left, 1e-3)
    options = JobOptions(limit=Limit(time=given, tt_mb=tt_mb, threads=threads))
    while checks and len(running) < max(1, runner.workers):
        key = checks.pop(0)
        running[runner.submit("exact", [Item(key, 0, "text", key)], options)] = (key, given or math.inf, True)
    for key in todo:
        if len(running) >= max(1, runner.workers) or items is not None and \
                done + sum(not c for _, _, c in running.values()) >= items:
            break
        if key not in busy:
            window = windows.get(key)
            task = ("exact", Item(key, 0, "text", key)) if window is None else \
                ("bound", Item(key, 0, "json", json.dumps({"position": key, "window": list(window)})))
            running[runner.submit(task[0], [task[1]], options)] = (key, given or math.inf, False)


def _cut(tree: _Tree, known: dict[str, tuple[int, int]], key: str, found: dict, row: dict, split: bool,
         record: Callable[[dict], None]) -> None:
    """An item the time limit cut: keep the bounds its search proved (the kernel's ±127 is
    none) and, if `split`, split it one turn deeper; written first, so a resume does the same."""
    lo, hi = known[key]
    lo, hi = max(lo, found["lower"]), min(hi, found["upper"])
    if lo > hi:
        raise DealJobError(f"internal error: the item {excerpt(key)}'s cut search proved "
                           f"{found['lower']}..{found['upper']}, outside its bounds {known[key]}")
    record({"key": key, "ok": True, "seconds": row["seconds"],
            "result": {"value": None, "lower": lo, "upper": hi, "nodes": found["nodes"], "cpu": found["cpu"],
                       "split": split}})
    known[key] = (lo, hi)
    if split:
        tree.expand(key)
        for new in tree.items.keys() - known.keys():
            known[new] = _side_range(tree.items[new])


def _proved(known: dict[str, tuple[int, int]], key: str, found: dict, row: dict,
            record: Callable[[dict], None]) -> None:
    """An item proved against a window: the bound its search proved joins the item's (the
    kernel's ±127 is none), written as a value once they meet, else as bounds."""
    lo, hi = known[key]
    lo, hi = max(lo, found["lower"]), min(hi, found["upper"])
    if lo > hi:
        raise DealJobError(f"internal error: the item {excerpt(key)} was proved {found['lower']}..{found['upper']}, "
                           f"outside its bounds {known[key]}")
    effort = {"nodes": found["nodes"], "cpu": found["cpu"]}
    record({"key": key, "ok": True, "seconds": row["seconds"],
            "result": dict(value=lo, **effort) if lo == hi else dict(value=None, lower=lo, upper=hi, split=False,
                                                                          **effort)})
    known[key] = (lo, hi)


def _save(directory: Path, result: JobResult, stopped: Optional[str] = None) -> None:
    """result.json: where the job stands (the bounds, the moves), for a person or a script."""
    data = result.to_dict()
    if stopped is not None and data["value"] is None:
        data["stopped"] = stopped
    write_text_atomic(directory / "result.json", json.dumps(data, indent=1) + "\n")
