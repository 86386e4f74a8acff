"""The kernel's windowed search (`search_many(window=(alpha, beta))`): one fail-soft search that
proves only where a position's value lies against the window. On random positions of every game
the bound it returns is always true of the exact value, on the right side of the window, and the
value itself when it falls inside."""
from __future__ import annotations

import random

import pytest
from helpers import COMBINED, cards_to_play, games, late

from scopa_solver.kernel import VALUE_INF, WANT_BEST, new_searcher

GAMES = games(more=COMBINED)


def check(found, value: int, alpha: int, beta: int) -> str:
    """Which side of (alpha, beta) `found` proved, asserting it is true of `value`."""
    lo, hi = found.lower, found.upper
    assert found.stop == 0
    if alpha < value < beta:
        assert lo == hi == value
        return "inside"
    if value <= alpha:
        assert lo == -VALUE_INF and value <= hi <= alpha, (value, alpha, beta, lo, hi)
        return "low"
    assert hi == VALUE_INF and beta <= lo <= value, (value, alpha, beta, lo, hi)
    return "high"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_null_window_proves_the_right_side(name):
    rules = GAMES[name]
    rng = random.Random(f"window {name}")
    searcher = new_searcher(4)
    sides = set()
    for seed in range(24):
        pos = late(rules, 500 + seed, rng.randint(3, 12 if rules.players <= 4 else 14))
        state = pos.kernel_state()
        value = searcher.search_many([state], 0)[0].lower
        for t in (value, value + 1, value - 1 + rng.randint(-3, 3) * 2):
            searcher.clear() if rng.random() < 0.5 else None   # with a warm table and a cold one
            found = searcher.search_many([state], 0, window=(t - 1, t))[0]
            side = check(found, value, t - 1, t)
            assert side == ("high" if value >= t else "low")
            sides.add(side)
        a = value - rng.randint(0, 3)
        b = a + rng.randint(1, 5)
        check(searcher.search_many([state], 0, window=(a, b))[0], value, a, b)
        assert cards_to_play(pos) <= 14
    assert sides == {"high", "low"}


@pytest.mark.parametrize("name", ["3 players", "4 alone", "6 alone"])
def test_window_in_a_seats_paranoid_frame(name):
    """With `seat`, the window is in the frame the values are given in (the side to move's)."""
    rules = GAMES[name]
    rng = random.Random(f"seat {name}")
    searcher = new_searcher(4)
    for seed in range(12):
        pos = late(rules, 700 + seed, rng.randint(3, 10))
        if pos.is_round_over():
            continue
        seat = (pos.to_move + 1) % rules.players
        state = pos.kernel_state()
        value = searcher.search_many([state], 0, seat=seat)[0].lower
        for t in (value, value + 1):
            found = searcher.search_many([state], 0, seat=seat, window=(t - 1, t))[0]
            check(found, value, t - 1, t)


@pytest.mark.parametrize("name", ["scientifico", "4 alone", "3 players", "scopa"])
def test_a_windowed_search_on_two_threads_proves_the_same(name):
    """With threads (ext/parallel.pxi; two players search on one), every thread proves against
    the window and the first to end answers: a true bound on the same side of it."""
    rules = GAMES[name]
    rng = random.Random(f"threads {name}")
    searcher = new_searcher(8)
    for seed in range(8):
        pos = late(rules, 900 + seed, rng.randint(12, 16 if rules.players > 2 else 12))
        state = pos.kernel_state()
        value = searcher.search_many([state], 0)[0].lower
        for a, b in ((value - 1, value), (value, value + 1), (value - 2, value + 3)):
            searcher.clear()
            one = searcher.search_many([state], 0, window=(a, b))[0]
            searcher.clear()
            two = searcher.search_many([state], 0, threads=2, window=(a, b))[0]
            assert check(two, value, a, b) == check(one, value, a, b)


def test_window_refuses_what_it_cannot_prove():
    searcher = new_searcher(1)
    state = late(GAMES["scopa"], 1, 6).kernel_state()
    for bad in ((2, 2), (3, 1), (1,), "ab", (1.5, 3), None.__class__):
        with pytest.raises(ValueError, match="window"):
            searcher.search_many([state], 0, window=bad)
    for kw in (dict(want=WANT_BEST), dict(objective="maxn"), dict(horizon=2)):
        with pytest.raises(ValueError, match="bounds only"):
            searcher.search_many([state], window=(0, 1), **dict(dict(want=0), **kw))
    # without a window, the exact value as before
    assert searcher.search_many([state], 0)[0].lower == searcher.search_many([state], 0, window=None)[0].lower
