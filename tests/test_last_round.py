"""The last-round solver (ext/family_lastround.pxi: every seat plays its last card in turn, only
the captures left to choose) against the general search with it switched off and
against the slow reference (tests/reference.py), on random last-round positions of every
game (2-6 players, partnerships, Scopone, scientifico, Scopa a 15, optional capture, the last
sweep, napola, re bello...), and through the searches above it (the last two rounds, deeper
positions with the table's probe policy as before)."""
from __future__ import annotations

import random

import pytest

import reference as fr
from helpers import REF_GAME_NAMES, REF_GAMES, kernel_order, to_kernel, unpack
from scopa_solver.kernel import WANT_ALL, WANT_BEST, WANT_PV, new_searcher

WANT = WANT_ALL | WANT_BEST | WANT_PV


def searchers():
    fast = new_searcher(1)
    plain = new_searcher(1)
    plain.set_last_round(False)
    plain.set_table_min_cards(5)        # the probe policy before the solver: every node from 5 cards
    return fast, plain


def outcome(r):
    return (r.lower, r.upper, sorted(r.best or ()), tuple(r.move_bounds or ()), tuple(r.pv), r.points,
            r.end)


def states(name: str, count: int, seed: int, plays: tuple) -> list:
    rng = random.Random(f"last round {name} {seed}")
    return [fr.random_state(rng, REF_GAMES[name], plays_left=rng.choice(plays)) for _ in range(count)]


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_last_round_agrees_with_the_reference(name: str) -> None:
    players = REF_GAMES[name].players
    fast, plain = searchers()
    for s in states(name, 60, 1, tuple(range(1, players + 1))):
        k = to_kernel(s)
        values = fr.move_values(s)
        best = max(values.values())
        for searcher in (fast, plain):
            searcher.clear()
            r = searcher.search(k, WANT)
            assert (r.lower, r.upper) == (best, best), s.show()
            assert {unpack(m) for m in r.best} == {m for m, v in values.items() if v == best}, s.show()
            for move, (lo, hi) in zip((unpack(m) for m in r.moves), r.move_bounds):
                assert lo == hi == values[move], (s.show(), move)
        fast.clear()
        r = fast.search(k, WANT_BEST, objective="maxn")
        points, move = fr.maxn(s, order=kernel_order)
        assert tuple(r.points) == points and unpack(r.best[0]) == move, s.show()


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_solver_on_and_off_agree_above_the_last_round(name: str) -> None:
    """Everything the searches report, with the solver (and the new probe policy) and without."""
    players = REF_GAMES[name].players
    fast, plain = searchers()
    deep = (3 * players, 4 * players) if REF_GAMES[name].optional_capture else (3 * players, 4 * players, 12 + players)
    plays = tuple(range(players + 1, 2 * players + 1)) + tuple(p for p in deep if p <= 14)
    for s in states(name, 30, 2, plays):
        k = to_kernel(s)
        for objective in ("value", "maxn"):
            fast.clear()
            plain.clear()
            a = fast.search(k, WANT, objective=objective)
            b = plain.search(k, WANT, objective=objective)
            assert outcome(a) == outcome(b), (objective, s.show())
