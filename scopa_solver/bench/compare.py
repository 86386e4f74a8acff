"""A/B of two bench runs (`scopa-solver bench --compare A.json B.json`): per suite, B's time over
A's on the same positions, with a 95% bootstrap confidence interval (the positions resampled
in pairs), and the ratio of their nodes."""
from __future__ import annotations

import math
import os
import random
import statistics
from typing import Callable, Optional, Sequence

from ..errors import excerpt
from ..jsontext import parse_json, read_at_most
from .suites import SuiteError

__all__ = ["compare", "compare_report", "read_result", "bootstrap"]

MAX_BYTES = 256 * 2 ** 20     # a bench output of every suite is about 1 MB
SAMPLES = 2000      # bootstrap resamples (the interval's ends move by ~0.5% between seeds at 20 pairs)


def read_result(path: str) -> dict:
    """A `bench --json` output."""
    try:
        with open(path, "rb") as f:
            data = parse_json(read_at_most(f, os.fstat(f.fileno()).st_size, MAX_BYTES).decode("utf-8"))
    except (OSError, ValueError) as exc:     # RecordError and UnicodeDecodeError are ValueErrors
        raise SuiteError(f"cannot read {excerpt(path)}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "scopa-solver bench 1" \
            or not isinstance(data.get("suites"), dict):
        raise SuiteError(f"{excerpt(path)} is not the output of scopa-solver bench --json")
    return data


Pairs = Sequence[tuple[float, float]]


def bootstrap(pairs: Pairs, statistic: Callable[[Pairs], float], samples: int = SAMPLES,
              seed: int = 1) -> tuple[float, float]:
    """The 2.5% and 97.5% percentiles of `statistic(pairs)` over resamples of the pairs."""
    rng = random.Random(seed)
    n = len(pairs)
    values = sorted(statistic([pairs[rng.randrange(n)] for _ in range(n)]) for _ in range(samples))
    return values[int(0.025 * samples)], values[min(samples - 1, int(0.975 * samples))]


def _median_ratio(pairs: Sequence[tuple[float, float]]) -> float:
    a = statistics.median(p[0] for p in pairs)
    return statistics.median(p[1] for p in pairs) / a if a > 0 else math.inf


def _geomean_ratio(pairs: Sequence[tuple[float, float]]) -> float:
    return math.exp(statistics.fmean(math.log(b / a) for a, b in pairs))


def _pairs(a: dict, b: dict, key: str) -> tuple[list[tuple[float, float]], list[tuple[int, int]]]:
    """The positions solved in both runs, by id: (time A, time B) and (nodes A, nodes B)."""
    b_by_id = {m["id"]: m for m in b["positions"]}
    times, nodes = [], []
    for m in a["positions"]:
        other = b_by_id.get(m["id"])
        if other is None or m["value"] is None or other["value"] is None:
            continue
        if m[key] > 0 and other[key] > 0:
            times.append((m[key], other[key]))
        nodes.append((m["nodes"], other["nodes"]))
    return times, nodes


def _row(name: str, times: list, nodes: list) -> dict:
    row = dict(suite=name, positions=len(times))
    if times:
        row.update(median_ratio=_median_ratio(times), median_ci=bootstrap(times, _median_ratio),
                   geomean_ratio=_geomean_ratio(times), geomean_ci=bootstrap(times, _geomean_ratio),
                   total_ratio=sum(t[1] for t in times) / sum(t[0] for t in times))
    if nodes and sum(n[0] for n in nodes):
        row["nodes_ratio"] = sum(n[1] for n in nodes) / sum(n[0] for n in nodes)
    return row


def compare(a: dict, b: dict, key: Optional[str] = None) -> list[dict]:
    """Per suite of both runs (then all of them): B/A of the median time with its 95% CI, the
    geometric mean of the positions' B/A with its CI, the total time's B/A, the nodes' B/A.
    `key`: "cpu" (the searching thread's CPU time: honest on a shared machine; the default for
    one-thread runs) or "seconds" (the kernel's wall time; the default when a run used threads)."""
    if key is None:
        threaded = max(a["config"].get("threads", 1), b["config"].get("threads", 1)) > 1
        key = "seconds" if threaded else "cpu"
    rows, every_t, every_n = [], [], []
    for name, suite in a["suites"].items():
        if name not in b["suites"]:
            continue
        times, nodes = _pairs(suite, b["suites"][name], key)
        every_t += times
        every_n += nodes
        rows.append(_row(name, times, nodes))
    if not rows:
        raise SuiteError("the two runs have no suite in common")
    rows.append(_row("all", every_t, every_n))
    for row in rows:
        row["time"] = key
    return rows


def compare_report(rows: list[dict], a_name: str, b_name: str) -> str:
    key = rows[0]["time"] if rows else "cpu"
    lines = [f"B = {b_name} over A = {a_name}: {'CPU' if key == 'cpu' else 'wall'} time of the same positions "
             "(< 1: B is faster), 95% bootstrap intervals",
             f"{'suite':<18}{'pos':>4} {'median B/A':>11} {'95% CI':>15} {'geomean B/A':>12} {'95% CI':>15} "
             f"{'total B/A':>10} {'nodes B/A':>10}"]
    for r in rows:
        if "median_ratio" not in r:
            lines.append(f"{r['suite']:<18}{r['positions']:>4}  (no position solved in both)")
            continue
        nodes = f"{r['nodes_ratio']:10.4f}" if "nodes_ratio" in r else f"{'':>10}"
        lines.append(f"{r['suite']:<18}{r['positions']:>4} {r['median_ratio']:11.3f} "
                     f"{'[%.3f, %.3f]' % tuple(r['median_ci']):>15} {r['geomean_ratio']:12.3f} "
                     f"{'[%.3f, %.3f]' % tuple(r['geomean_ci']):>15} {r['total_ratio']:10.3f} {nodes}")
    return "\n".join(lines)

