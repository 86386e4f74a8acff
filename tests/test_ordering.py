"""The search's move ordering (ext/family_ordering.pxi): MTD(f)'s first guess from a shallow
horizon search of the root, whose stored moves then order the search, never changes a value, a
move's value or the set of best moves, and the pv stays optimal (its ties may resolve
differently); node limits count the guess search's nodes."""
from __future__ import annotations

import random

import pytest
from helpers import KERNEL_GAMES, kernel_deal, play_down

from scopa_solver.kernel import WANT_ALL, WANT_BEST, WANT_PV, StopReason, new_searcher


@pytest.mark.parametrize("name,cards", [("4 partnerships", 24), ("3 players", 24), ("scientifico", 20),
                                        ("fifteen 2", 22)])
def test_first_guess_keeps_values_and_best_moves(name, cards):
    rng = random.Random(f"guess {name}")
    searchers = {}
    for depth in (-1, 0, 4, 99):        # by the plies, the piles' margin, a fixed depth, static
        searchers[depth] = new_searcher(16)
        searchers[depth].set_first_guess(depth)
    differ = 0
    for seed in range(4):
        s = play_down(kernel_deal(seed=1100 + seed, **KERNEL_GAMES[name]), rng, cards)
        results = {d: se.search(s, WANT_BEST | WANT_ALL | WANT_PV) for d, se in searchers.items()}
        a = results[0]
        for d, r in results.items():
            assert (r.lower, r.upper, r.move_bounds, sorted(r.best)) == (a.lower, a.upper, a.move_bounds,
                                                                        sorted(a.best)), (name, seed, d)
            # the pv starts with a best move and runs to the end of the round
            assert r.pv and r.pv[0] in r.best and r.points is not None, (name, seed, d)
        differ += results[-1].nodes != results[0].nodes
    assert differ > 0                   # not vacuous: the guess search ran and changed the search


def test_node_limit_counts_the_guess_search():
    s = kernel_deal(seed=1200, **KERNEL_GAMES["scientifico"])     # a whole deal: the guess search runs
    searcher = new_searcher(8)
    for limit in (1, 10, 1000):
        r = searcher.search(s, WANT_BEST, max_nodes=limit)
        assert r.stop == StopReason.NODES and 0 < r.nodes <= limit


def test_first_guess_without_a_table():
    """No table (tt_mb=0, or switched off): the guess search has no moves to store, and the
    search that follows must not look for them (it read a missing table before)."""
    rng = random.Random("guess without a table")
    s = play_down(kernel_deal(seed=1300, **KERNEL_GAMES["scientifico"]), rng, 20)
    exact = new_searcher(16).search(s, WANT_BEST | WANT_PV)
    off = new_searcher(16)
    off.set_table(False)
    for searcher in (new_searcher(0), off):
        r = searcher.search(s, WANT_BEST | WANT_PV)
        assert (r.lower, r.upper, sorted(r.best)) == (exact.lower, exact.upper, sorted(exact.best))
