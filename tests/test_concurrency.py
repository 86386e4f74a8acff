"""Batch calls from many Python threads at once: the one scheduler serves them all, and every
answer equals the serial one."""
from __future__ import annotations

import threading

from scopa_solver import Limit, Position, kernel, suggest
from scopa_solver.search.solver import solve_values


def _positions(n: int, deals_left: int = 1) -> list[Position]:
    """Positions a deal or two before the end: quick to solve exactly, not trivial."""
    out = []
    for seed in range(n):
        pos = Position.new_round(seed=seed)
        while pos.deals_left > deals_left or sum(pos.hand_sizes()) != 6:
            moves = pos.legal_moves()
            pos = pos.play(moves[seed % len(moves)])
        out.append(pos)
    return out


def _run_threads(target, count: int) -> list:
    errors: list = []

    def wrapped(i: int) -> None:
        try:
            target(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return errors


def test_solve_values_from_six_threads_at_once():
    positions = _positions(12)
    serial = solve_values(positions, Limit(threads=1))
    got: dict = {}

    def calls(i: int) -> None:
        for k in range(15):                   # 6 threads x 15 calls = 90, threads 1..6 growing
            threads = 1 + (i + k) % 6
            got[i, k] = solve_values(positions, Limit(threads=threads))

    errors = _run_threads(calls, 6)
    assert errors == []
    assert len(got) == 90 and all(values == serial for values in got.values())
    stats = kernel.pool_stats()
    # at most one searcher a core (searchers kept from earlier tests count too)
    assert stats["busy"] == 0 and stats["kept"] <= max(2, kernel.check_threads(0))


def test_suggest_from_four_threads_agrees_with_serial_runs():
    views = [Position.new_round(seed=s).view(0) for s in (3, 4)]
    serial = {(v, seed): suggest(views[v], Limit(threads=1), worlds=48, seed=seed, progress=False).to_dict()
              for v in range(2) for seed in (1, 2)}
    got: dict = {}

    def calls(i: int) -> None:
        for v in range(2):
            seed = 1 + i % 2
            got[i, v] = suggest(views[v], Limit(threads=1 + i % 2), worlds=48, seed=seed, progress=False).to_dict()

    errors = _run_threads(calls, 4)
    assert errors == []

    def same(a: dict, b: dict) -> bool:
        def keep(d: dict) -> dict:
            return {k: v for k, v in d.items() if k not in ("seconds", "nodes")}
        return keep(a) == keep(b)

    assert len(got) == 8
    assert all(same(got[i, v], serial[v, 1 + i % 2]) for i, v in got)
