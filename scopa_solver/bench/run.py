"""Running suites: every position solved from an empty table, its value and best moves checked
against the suite's, its time, nodes and table use measured; the figures per suite and in
total. The search techniques can be switched off one by one (research: what each is worth)."""
from __future__ import annotations

import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from .. import kernel
from ..core.position import Move, Position
from ..errors import LimitError, ScopaError
from ..kernel.limit import NO_LIMIT, Limit
from ..progress import progress_bar
from .suites import Suite, SuiteEntry

__all__ = ["TECHNIQUES", "LADDER", "Config", "Measure", "run_suites", "summarise", "percentile",
           "solve_one", "best_moves", "ladder",
           "result_dict", "report", "failures", "ladder_rows", "ladder_report"]

# The techniques a Searcher can switch off (ext/api.pxi), in the order the ladder adds them:
# the transposition table, move ordering (table move, guess move, killers, static scores),
# one move of each class of equivalent moves, the cuts on the bounds of the value, the last
# round's forced walk, MTD(f)'s zero-window passes (off: one full-window alpha-beta), and (two
# sides) the table's bounds for the same cards with other piles, shifted.
TECHNIQUES = ("table", "ordering", "equivalence", "bounds", "endgame", "mtdf", "other-piles")


@dataclass(frozen=True)
class Config:
    """The search a bench runs: the techniques switched off and the threads of one search."""
    off: frozenset = frozenset()
    threads: int = 1
    tt_mb: float = 64.0

    @property
    def name(self) -> str:
        if not self.off:
            base = "default"
        elif self.off == frozenset(TECHNIQUES):
            base = "plain"
        else:
            base = "-" + ",-".join(t for t in TECHNIQUES if t in self.off)
        return base if self.threads == 1 else f"{base} threads={self.threads}"

    def to_dict(self) -> dict:
        return dict(name=self.name, off=[t for t in TECHNIQUES if t in self.off], threads=self.threads,
                    tt_mb=self.tt_mb)


def ladder(threads: int = 2) -> list[Config]:
    """Plain alpha-beta, then each technique added in turn up to the default search, then the
    default on `threads` threads."""
    rungs = [Config(frozenset(TECHNIQUES[i:])) for i in range(len(TECHNIQUES) + 1)]
    return rungs + ([Config(threads=threads)] if threads > 1 else [])


LADDER = ladder()


def _apply(searcher: "kernel.Searcher", config: Config) -> int:
    """Switch a new searcher's techniques off as `config` says (it starts with all of them on);
    the `want` flags of its searches."""
    off = config.off
    if "table" in off:
        searcher.set_table(False)
    if "ordering" in off:
        if not hasattr(searcher, "set_ordering"):
            raise ScopaError("this kernel has no ordering switch (rebuild it: python setup.py build_ext --inplace)")
        searcher.set_ordering(False)
    if "equivalence" in off:
        searcher.set_equivalence(False)
    if "bounds" in off:
        searcher.set_bounds(0)
    if "endgame" in off:
        searcher.set_last_round(False)
    if "other-piles" in off:
        searcher.set_other_piles(False)
    want = kernel.WANT_BEST | kernel.WANT_PV
    return want | kernel.FULL_WINDOW if "mtdf" in off else want


@dataclass
class Measure:
    """One position's search."""
    id: str
    seconds: float          # the kernel's own (wall) time of the search
    cpu: float              # the calling thread's CPU time (one thread: honest on a busy machine)
    nodes: int
    probes: int
    hits: int
    value: Optional[int]    # None: stopped by a limit
    best: tuple[str, ...]
    ok: Optional[bool]      # None: not checked (stopped)
    nodes_match: Optional[bool]
    expected: Optional[str] = None      # the suite's value and best moves, when they differ

    def to_dict(self) -> dict:
        out = dict(id=self.id, seconds=self.seconds, cpu=self.cpu, nodes=self.nodes, probes=self.probes,
                   hits=self.hits, value=self.value, best=list(self.best), ok=self.ok,
                   nodes_match=self.nodes_match)
        if self.expected is not None:
            out["expected"] = self.expected
        return out


@dataclass
class SuiteRun:
    name: str
    measures: list[Measure] = field(default_factory=list)


def solve_one(searcher: "kernel.Searcher", position: Position, want: int,
              limit: Optional[Limit] = None) -> tuple["kernel.KernelResult", float]:
    """One search from an empty table (the searcher's: `limit.tt_mb` is not used), stopped
    unchecked by `limit`'s nodes or time, on its threads: the kernel's result and the calling
    thread's CPU seconds."""
    limit = NO_LIMIT if limit is None else limit
    return _solve(searcher, position, want, limit, limit.workers)


def _solve(searcher: "kernel.Searcher", position: Position, want: int, limit: Limit,
           threads: int) -> tuple["kernel.KernelResult", float]:
    state = position.kernel_state()
    searcher.clear()
    start = time.thread_time()
    raw = searcher.search(state, want, max_nodes=limit.nodes or 0, time_limit=limit.time or 0.0,
                          check_signals=True, threads=threads)
    return raw, time.thread_time() - start


def best_moves(raw: "kernel.KernelResult") -> tuple[str, ...]:
    """Every optimal move of a finished search, as text, sorted."""
    return tuple(sorted(str(Move.from_packed(m)) for m in raw.best or ()))


def _search(searcher: "kernel.Searcher", entry: SuiteEntry, want: int, config: Config, limit: Limit) -> Measure:
    raw, cpu = _solve(searcher, entry.position, want, limit, config.threads)     # the config's threads, unclamped
    done = raw.stop == kernel.StopReason.NONE
    value = raw.lower if done else None
    best = best_moves(raw) if done else ()
    ok = (value == entry.value and best == entry.best) if done else None
    same = raw.nodes == entry.nodes if done and entry.nodes is not None and not config.off \
        and config.threads == 1 else None
    expected = None if ok is not False else f"value {entry.value}, best {' '.join(entry.best)}"
    return Measure(entry.id, raw.seconds, cpu, raw.nodes, raw.probes, raw.hits, value, best, ok, same, expected)


def run_suites(suites: Sequence[Suite], config: Config = Config(), repeat: int = 1, *,
               limit: Optional[Limit] = None, progress: Optional[bool] = None) -> list[SuiteRun]:
    """Solve every position of `suites` (value, best moves, pv) from an empty table, `repeat`
    series over, each position's fastest kept (its nodes are the same each time: the spread is
    other processes' doing). `limit`'s nodes or time stop a search unchecked; the table and
    the threads are `config`'s (a limit naming them, or a horizon, is a `LimitError`)."""
    limit = NO_LIMIT if limit is None else limit
    named = [name for name in ("tt_mb", "threads", "horizon") if getattr(limit, name) is not None]
    if named:
        raise LimitError(f"a bench's table and threads are its Config's, and it searches exactly: "
                         f"no {named[0]} in its limit ({limit!r})")
    runs = [SuiteRun(s.name) for s in suites]
    total = sum(len(s.entries) for s in suites) * repeat
    bar = progress_bar(total, "bench", progress, unit="pos")
    searcher = kernel.new_searcher(config.tt_mb)
    want = _apply(searcher, config)
    try:
        for series in range(repeat):
            for suite, run in zip(suites, runs):
                for i, entry in enumerate(suite.entries):
                    m = _search(searcher, entry, want, config, limit)
                    if series == 0:
                        run.measures.append(m)
                    else:
                        old = run.measures[i]
                        old.seconds, old.cpu = min(old.seconds, m.seconds), min(old.cpu, m.cpu)
                    bar.update(1)
    finally:
        bar.close()
    return runs


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile by nearest rank (q = 0.5: the upper median of an even count)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarise(measures: Iterable[Measure], key: str = "cpu") -> dict:
    """Median, p90, p99 and max seconds (`key`: "cpu", the searching thread's CPU time, or
    "seconds", the kernel's wall time), the totals of both, nodes, nodes a second, the table's
    hit rate, and the checks' outcome of some measures."""
    ms = list(measures)
    done = [m for m in ms if m.value is not None]
    seconds = [getattr(m, key) for m in done] or [0.0]
    total_s = sum(seconds)
    nodes = sum(m.nodes for m in done)
    probes = sum(m.probes for m in done)
    return dict(
        positions=len(ms), solved=len(done), failed=[m.id for m in ms if m.ok is False],
        nodes_changed=sum(1 for m in ms if m.nodes_match is False),
        median=statistics.median(seconds), p90=percentile(seconds, 0.9), p99=percentile(seconds, 0.99),
        max=max(seconds), time=key, seconds=sum(m.seconds for m in done), cpu=sum(m.cpu for m in done), nodes=nodes,
        median_nodes=statistics.median([m.nodes for m in done] or [0]),
        nodes_per_second=nodes / total_s if total_s else 0.0,
        hit_rate=sum(m.hits for m in done) / probes if probes else None)


def machine() -> dict:
    """What the figures were measured on."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return dict(python=platform.python_version(), machine=platform.machine(), cpus=os.cpu_count(),
                load=load, system=platform.system())


def result_dict(runs: Sequence[SuiteRun], config: Config, repeat: int) -> dict:
    """A bench run as JSON data: the configuration, the machine, every suite's summary and
    positions, the total (what `bench --compare` reads)."""
    every = [m for r in runs for m in r.measures]
    key = "cpu" if config.threads == 1 else "seconds"    # CPU time: honest on a shared machine
    return dict(format="scopa-solver bench 1", config=config.to_dict(), repeat=repeat, machine=machine(),
                suites={r.name: dict(summary=summarise(r.measures, key), positions=[m.to_dict() for m in r.measures])
                        for r in runs},
                total=summarise(every, key))


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:10.2f}"


def report(result: dict) -> str:
    """A bench run as a table: per suite median, p90, p99 and max milliseconds (the kernel's
    time of each search), nodes, nodes a second, the table's hit rate; then the total."""
    config = result["config"]
    what = "CPU time of the searching thread" if result["total"]["time"] == "cpu" else "wall time (kernel)"
    lines = [f"search: {config['name']} (value, best moves, pv; empty {config['tt_mb']:g} MiB table per position"
             + (f", fastest of {result['repeat']}" if result["repeat"] > 1 else "") + f"); times: {what}",
             f"{'suite':<18}{'pos':>4} {'median ms':>10} {'p90':>10} {'p99':>10} {'max':>10} "
             f"{'nodes':>12} {'Mn/s':>6} {'hit%':>5}  check"]

    def row(name: str, s: dict) -> str:
        hit = "" if s["hit_rate"] is None else f"{s['hit_rate'] * 100:5.1f}"
        check = "ok" if not s["failed"] else f"FAILED {len(s['failed'])}"
        if s["solved"] < s["positions"]:
            check += f", {s['positions'] - s['solved']} stopped by the limit"
        if s["nodes_changed"]:
            check += f", nodes differ on {s['nodes_changed']}"
        return (f"{name:<18}{s['positions']:>4} {_ms(s['median'])} {_ms(s['p90'])} {_ms(s['p99'])} {_ms(s['max'])} "
                f"{s['nodes']:>12,} {s['nodes_per_second'] / 1e6:6.1f} {hit:>5}  {check}")

    for name, suite in result["suites"].items():
        lines.append(row(name, suite["summary"]))
    total = result["total"]
    lines.append(row("total", total))
    lines.append(f"total: {total['cpu']:.2f} s CPU, {total['seconds']:.2f} s wall in the searches, "
                 f"{total['positions']} positions")
    if total["nodes_changed"]:
        lines.append(f"{total['nodes_changed']} positions searched another number of nodes than the suite's: the "
                     "engine changed since the suite was made (values and best moves are what is checked)")
    return "\n".join(lines)


def failures(result: dict) -> list[str]:
    """The wrong answers of a bench run, one line each, naming the position."""
    out = []
    for suite in result["suites"].values():
        for m in suite["positions"]:
            if m["ok"] is False:
                out.append(f"{m['id']}: value {m['value']}, best {' '.join(m['best'])}; the suite says {m['expected']}")
    return out


def ladder_rows(results: Sequence[dict]) -> list[dict]:
    """The techniques' table from the ladder's runs (plain alpha-beta first): per rung the total
    time and nodes on the positions every rung solved, and the factor the rung's technique gives
    over the rung before (time: the searching thread's CPU time, wall time for a rung on
    threads)."""
    solved = None
    for r in results:
        ids = {m["id"] for s in r["suites"].values() for m in s["positions"] if m["value"] is not None}
        solved = ids if solved is None else solved & ids
    rows = []
    for r in results:
        ms = [m for s in r["suites"].values() for m in s["positions"] if m["id"] in (solved or ())]
        config = r["config"]
        on = [t for t in TECHNIQUES if t not in config["off"]]
        label = ("plain alpha-beta" if not on else f"+ {config['threads']} threads" if config["threads"] > 1
                 else f"+ {on[-1]}" + (" (the default)" if len(on) == len(TECHNIQUES) else ""))
        rows.append(dict(name=config["name"], label=label, positions=len(ms), seconds=sum(m["seconds"] for m in ms),
                         cpu=sum(m["cpu"] for m in ms), nodes=sum(m["nodes"] for m in ms),
                         wrong=sum(1 for m in ms if m["ok"] is False)))
    for row, r in zip(rows, results):      # CPU time on one thread (honest on a shared machine), else wall
        row["time"] = row["cpu"] if r["config"]["threads"] == 1 else row["seconds"]
    for before, row in zip(rows, rows[1:]):
        row["speedup"] = before["time"] / row["time"] if row["time"] else None
        row["node_factor"] = before["nodes"] / row["nodes"] if row["nodes"] else None
    return rows


def ladder_report(rows: Sequence[dict]) -> str:
    width = max([24] + [len(row["label"]) + 1 for row in rows])
    lines = [f"techniques added one by one, on the {rows[0]['positions'] if rows else 0} positions every rung solved",
             f"{'search':<{width}}{'wall s':>10} {'CPU s':>9} {'nodes':>14} {'x time':>8} {'x nodes':>8}",
             "(x time: the rung before's time over this one's, CPU time on one thread, wall time on threads)"]
    for row in rows:
        name = row["label"]
        fx = f"{row['speedup']:8.2f}" if row.get("speedup") else f"{'':>8}"
        fn = f"{row['node_factor']:8.2f}" if row.get("node_factor") else f"{'':>8}"
        lines.append(f"{name:<{width}}{row['seconds']:10.3f} {row['cpu']:9.3f} {row['nodes']:>14,} {fx} {fn}")
    return "\n".join(lines)
