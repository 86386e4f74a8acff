"""The parallel search of one position (ext/family_parallel.pxi): on every game, two and
three threads give the one-thread search's values, best moves, pv, every move's value and
points (exact, horizon and paranoid searches); limits, stops and Ctrl-C requests end every
thread and leave the searcher usable; solve / analyze take `threads`."""
from __future__ import annotations

import random
import threading

import pytest

from scopa_solver import Position, Rules, analyze, solve, Limit
from scopa_solver.errors import LimitError
from scopa_solver import kernel
from scopa_solver.kernel import clear_tables, WANT_ALL, WANT_BEST, WANT_PV, new_searcher
from helpers import KERNEL_GAMES, kernel_deal, play_down

EVERYTHING = WANT_BEST | WANT_PV | WANT_ALL


def walk(name: str, seed: int, left: int):
    """A position of game `name` reached by random play with at most `left` cards to play."""
    return play_down(kernel_deal(seed=seed, **KERNEL_GAMES[name]), random.Random(f"{name}-{seed}"), left)


def same(a, b) -> None:
    assert (a.lower, a.upper) == (b.lower, b.upper)
    assert a.best == b.best and a.pv == b.pv and a.move_bounds == b.move_bounds
    assert a.points == b.points and a.end == b.end and a.horizon == b.horizon
    assert a.stop == b.stop == 0


# (game, cards left at most, positions): four-player games with the busy moves' deferral at work
CASES = [("2 players", 18, 6), ("3 players", 15, 6), ("4 partnerships", 16, 6), ("4 alone", 14, 4),
         ("6 players", 18, 4), ("scopone", 16, 6), ("scientifico", 20, 8), ("fifteen 2", 18, 6),
         ("fifteen 4 optional", 14, 4), ("scientifico last sweep", 16, 4), ("asso piglia tutto", 16, 4)]


@pytest.mark.parametrize("name,left,count", CASES)
def test_threads_agree_with_one(name: str, left: int, count: int) -> None:
    one, many = new_searcher(16), new_searcher(16)
    for seed in range(count):
        s = walk(name, seed, left)
        for want in (0, EVERYTHING):
            one.clear()
            a = one.search(s, want)
            for threads in (2, 3):
                many.clear()
                same(a, many.search(s, want, threads=threads))
            b = many.search(s, want, threads=2)      # a warm table shared by the threads
            same(a, b)


def test_threads_agree_on_horizon_and_maxn() -> None:
    one, many = new_searcher(16), new_searcher(16)
    for seed in range(4):
        s = walk("scientifico", seed, 28)
        one.clear()
        many.clear()
        same(one.search(s, EVERYTHING, horizon=6), many.search(s, EVERYTHING, horizon=6, threads=2))
        s = walk("3 players", seed, 12)
        same(one.search(s, EVERYTHING, objective="maxn"), many.search(s, EVERYTHING, objective="maxn", threads=2))


def test_a_tiny_table_and_no_table() -> None:
    tiny, off = new_searcher(0.1), new_searcher(0)
    for seed in range(4):
        s = walk("scientifico", seed, 20)
        a = new_searcher(16).search(s, EVERYTHING)
        same(a, tiny.search(s, EVERYTHING, threads=2))     # a crowded table: replacement races
        same(a, off.search(s, EVERYTHING, threads=2))      # no table: one thread


def test_node_limit_stops_every_thread() -> None:
    searcher = new_searcher(16)
    s = walk("scientifico", 1, 24)
    for limit in (1, 1000, 50_000):
        searcher.clear()
        r = searcher.search(s, EVERYTHING, max_nodes=limit, threads=2)
        assert r.stop == 1 and r.best is None and r.pv == []
        assert r.nodes <= limit + 2 * 1024         # each thread its share, checked every 1024 nodes
        assert r.lower <= r.upper
    exact = new_searcher(16).search(s, 0)
    same(exact, searcher.search(s, 0, threads=2))       # the searcher still works


def test_time_limit_and_a_stop_token_end_every_thread() -> None:
    searcher = new_searcher(16)
    s = walk("scientifico", 2, 32)                      # minutes of search
    # minutes of search end at once: each says which stop ended every thread (the limit, the token)
    r = searcher.search(s, 0, time_limit=0.2, threads=2)
    assert r.stop == kernel.StopReason.TIME
    token = kernel.StopToken()
    stopper = threading.Timer(0.2, token.stop)
    stopper.start()
    r = searcher.search(s, 0, check_signals=False, threads=2, stop=token)
    assert r.stop == kernel.StopReason.REQUEST
    stopper.join()
    small = walk("scientifico", 2, 16)
    same(new_searcher(16).search(small, EVERYTHING), searcher.search(small, EVERYTHING, threads=2))


def test_solve_and_analyze_take_threads() -> None:
    rules = Rules(players=4, game="scientifico")
    rng = random.Random(5)
    for seed in range(3):
        pos = Position.new_round(seed=seed, rules=rules)
        while sum(pos.hand_sizes()) > 16:
            pos = pos.play(rng.choice(pos.legal_moves()))
        a, b = solve(pos), solve(pos, Limit(threads=2))
        assert (a.value, a.best_moves, a.pv, a.exact) == (b.value, b.best_moves, b.pv, b.exact)
        rows = [(str(m.move), m.value) for m in analyze(pos)]
        assert rows == [(str(m.move), m.value) for m in analyze(pos, Limit(threads=2))]
        assert rows == [(str(m.move), m.value) for m in analyze(pos, Limit(threads=0))]
        clear_tables()
        limited = solve(pos, Limit(threads=2, nodes=2000))          # the exact try stops: depths follow
        assert not limited.complete and limited.value is not None
    two = Position.new_round(seed=1)
    assert solve(two, Limit(threads=2)).value == solve(two).value      # two-player Scopa too
    with pytest.raises(LimitError):
        solve(two, Limit(threads=-1))
