"""The road from the public search API into the kernel (issue 40): few Python frames between
`analyze`/`solve` and the kernel's batch entry (`Searcher.search_many`), and every argument
checked once, where the `Limit` is made (and the objective at the entry)."""
from __future__ import annotations

import sys
from collections import Counter
from typing import Any, Callable

import pytest

from scopa_solver import Limit, Position, Rules, analysis, analyze, solve, solve_many
from scopa_solver import kernel
from scopa_solver.kernel import limit as limit_module
from scopa_solver.kernel import pool

CHECKS = ("check_limits", "check_tt_mb", "check_threads", "check_horizon", "check_objective")
TWO = Position.new_round(seed=3)
FOUR = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))


class _Spy(kernel.Searcher):
    """A searcher whose batch entry is a Python frame the profiler sees (the kernel's is C)."""

    def search_many(self, *args: Any, **kw: Any) -> Any:
        return super().search_many(*args, **kw)


@pytest.fixture(autouse=True)
def _spied(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "Searcher", _Spy)
    monkeypatch.setattr(pool, "_idle", [])          # every search borrows a new (spied) searcher


def _road(call: Callable[[], Any], entry: str) -> tuple[int, Counter]:
    """The most Python frames from the frame of `entry` to a kernel batch entry (`search_many`)
    called under it, the entry's own frame included and the spy's not, and the checks called,
    while `call()` runs."""
    deepest, checks = 0, Counter()

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal deepest
        if event != "call":
            return
        if frame.f_code.co_name in CHECKS and frame.f_globals is vars(limit_module):
            checks[frame.f_code.co_name] += 1
        if frame.f_code is _Spy.search_many.__code__:
            frames, f = 0, frame.f_back
            while f is not None and f.f_code.co_name != entry:
                frames, f = frames + 1, f.f_back
            if f is not None:
                deepest = max(deepest, frames + 1)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return deepest, checks


@pytest.mark.parametrize("limit", [None, Limit(time=1.0), Limit(nodes=30_000), Limit(horizon=8, nodes=10**6)],
                         ids=["exact", "time", "nodes", "horizon"])
@pytest.mark.parametrize("position", [TWO, FOUR], ids=["two", "scientifico"])
def test_at_most_four_frames_and_one_check_from_analyze_to_the_kernel(position: Position,
                                                                      limit: Limit) -> None:
    if position is FOUR and limit is None:
        limit = Limit(horizon=4)     # the whole deal exactly would take days
    for name, call in (("analyze", lambda: analyze(position, limit)), ("solve", lambda: solve(position, limit))):
        frames, checks = _road(call, name)
        assert 1 <= frames <= 4, (name, frames)
        assert checks == Counter(check_objective=1), (name, checks)


def test_the_checks_happen_once_when_the_limit_is_made() -> None:
    frames, checks = _road(lambda: Limit(nodes=5, time=1, horizon=4, tt_mb=1, threads=1), "__init__")
    assert checks == Counter(check_limits=1, check_horizon=1, check_tt_mb=1, check_threads=1)


def test_a_batch_and_a_live_analysis_check_once_too() -> None:
    limit = Limit(nodes=30_000, threads=2)
    _, checks = _road(lambda: solve_many([TWO, FOUR], limit), "solve_many")
    assert checks == Counter(check_objective=1)
    small = Limit(nodes=50_000)
    frames, checks = _road(lambda: list(analysis(FOUR, small)), "<lambda>")
    assert checks == Counter(check_objective=1) and frames <= 4


def test_a_snapshot_never_changes_once_handed_out() -> None:
    """Inside `for a in analysis(...)` each depth is final: the object handed out says the same
    after the loop (the old `analyze_iter` changed its deepest result's `stopped` and nodes after
    the loop). A limit that cuts the next depth gives a new snapshot, the answer."""
    handle = analysis(FOUR, Limit(nodes=400_000))
    seen = [(a, a.stopped, a.nodes, a.horizon, a.value) for a in handle]
    assert len(seen) >= 2 and seen[-1][1] == "nodes"
    assert [(a.stopped, a.nodes, a.horizon, a.value) for a, *_ in seen] == [tuple(s[1:]) for s in seen]
    assert all(s[1] is None for s in seen[:-1]) and handle.wait() is seen[-1][0]


def test_stop_reasons_are_compared_by_name_never_by_number() -> None:
    """The kernel's stop codes have one enum (`kernel.StopReason`); no module compares a bare
    number with a result's `stop`."""
    import re
    from pathlib import Path
    root = Path(kernel.__file__).resolve().parent.parent
    bare = re.compile(r"\.stop\s*(?:==|!=|in)\s*[\(\[]?\s*\d")
    found = [f"{p.relative_to(root)}:{n}" for p in root.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if bare.search(line)]
    assert not found, found
    assert [r.label for r in kernel.StopReason] == list(kernel.face._kernel.STOP_REASONS)
