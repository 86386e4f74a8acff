"""The search's exact pruning: the bounds on what a position can still be worth never
exclude a score that play can reach (checked on every line of small positions and on random
playouts of large ones, in every game); playing one of the moves equivalent by same-rank
exchanges; the table's bounds for the same cards with other piles, moved by what the piles can
change, hold at every end; the search gives the same values and best moves with each pruning
on and off (and the brute-force minimax's on small positions)."""
from __future__ import annotations

import random

import pytest
from helpers import KERNEL_GAMES, RULE_BITS, brute_value, final_points, kernel_deal, play_down

from scopa_solver import _kernel
from scopa_solver.kernel import WANT_ALL, WANT_BEST, WANT_PV, legal_moves, play, score, side_bounds, new_searcher


def inside(bounds, points) -> bool:
    return all(lo <= p <= hi for (lo, hi), p in zip(bounds, points))


def every_end(s, out):
    """Append the final points of every line from s."""
    moves = legal_moves(s)
    if not moves:
        out.append(final_points(s))
        return
    for m in moves:
        every_end(play(s, m)[0], out)


@pytest.mark.parametrize("name", sorted(KERNEL_GAMES))
def test_bounds_hold_on_every_line(name):
    rng = random.Random(f"lines {name}")
    players = KERNEL_GAMES[name]["players"]
    for seed in range(12):
        s = play_down(kernel_deal(seed=300 + seed, **KERNEL_GAMES[name]), rng, rng.randint(1, min(6, 2 * players)))
        bounds = side_bounds(s)
        ends = []
        every_end(s, ends)
        assert ends and all(inside(bounds, p) for p in ends), (name, seed)
        # tight where nothing is left to play
        if not legal_moves(s):
            assert bounds == [(p, p) for p in final_points(s)]


@pytest.mark.parametrize("name", sorted(KERNEL_GAMES))
def test_bounds_hold_along_random_rounds(name):
    rng = random.Random(f"rounds {name}")
    for seed in range(6):
        s = kernel_deal(seed=400 + seed, **KERNEL_GAMES[name])
        seen = []
        while legal_moves(s):
            seen.append(side_bounds(s))
            s, _ = play(s, rng.choice(legal_moves(s)))
        end = final_points(s)
        assert all(inside(b, end) for b in seen), (name, seed)
        # each side's bounds only narrow as the round goes on
        for before, after in zip(seen, seen[1:]):
            assert all(a_lo >= b_lo and a_hi <= b_hi for (b_lo, b_hi), (a_lo, a_hi) in zip(before, after))


SEARCHED = [("4 partnerships", 12), ("scientifico", 12), ("3 players", 12), ("fifteen 2", 14),
            ("6 players", 12), ("4 alone", 10), ("napola re bello zero", 10),
            ("scientifico last sweep", 12), ("fifteen 4 optional", 10), ("asso piglia tutto", 12)]


@pytest.mark.parametrize("name,cards", SEARCHED)
@pytest.mark.parametrize("switch", ["bounds", "equivalence", "both"])
def test_pruning_keeps_values_and_best_moves(name, cards, switch):
    rng = random.Random(f"search {name}")
    on, off = new_searcher(8), new_searcher(8)
    if switch != "equivalence":
        off.set_bounds(0)
    if switch != "bounds":
        off.set_equivalence(False)
    for seed in range(25):
        s = play_down(kernel_deal(seed=500 + seed, **KERNEL_GAMES[name]), rng, rng.randint(3, cards))
        a = on.search(s, WANT_BEST | WANT_ALL)
        b = off.search(s, WANT_BEST | WANT_ALL)
        assert (a.lower, a.upper) == (b.lower, b.upper), (name, seed)
        assert a.move_bounds == b.move_bounds and sorted(a.best) == sorted(b.best), (name, seed)
        assert a.nodes <= b.nodes * 1.5 + 50


def test_the_pruning_prunes():
    # not vacuous: each one saves nodes on the benchmark's kind of position (five cards a hand:
    # with four, the last round solved as one node, the bounds no longer save nodes in total)
    rng = random.Random("prunes")
    saved = {"bounds": 0, "equivalence": 0, "other_piles": 0}
    for seed in range(12):
        s = play_down(kernel_deal(seed=700 + seed, **KERNEL_GAMES["scientifico"]), rng, 20)
        base = new_searcher(8).search(s, 0).nodes
        for switch in saved:
            off = new_searcher(8)
            getattr(off, f"set_{switch}")(0)
            saved[switch] += off.search(s, 0).nodes - base
    assert all(n > 0 for n in saved.values()), saved


RE_BELLO_ZERO = RULE_BITS["re_bello"] | RULE_BITS["primiera_zero"]


def _margin(p0: int, p1: int, rules: int) -> int:
    points = score((p0, p1), (0, 0), (0, 1), rules)["points"]
    return points[0] - points[1]


@pytest.mark.parametrize("rules", [0, RULE_BITS["re_bello"], RE_BELLO_ZERO])
def test_the_other_piles_shift_holds_at_every_end(rules):
    # for piles holding the same cards, split another way between the sides, the margin at every
    # end (each split of the cards in play) moves by no more than the search reckons
    rng = random.Random(f"other piles {rules}")
    narrow = 0
    for case in range(300):
        cards = rng.sample(range(40), 40)
        in_play = cards[:rng.randint(1, 8)]
        taken = cards[len(in_play):len(in_play) + rng.randint(0, 40 - len(in_play))]
        now = [0, 0]
        for c in taken:
            now[rng.random() < 0.5] |= 1 << c
        then = list(now)
        for c in rng.sample(taken, min(len(taken), rng.choice([1, 2, 3, 40]))):   # some change sides
            side = 0 if (then[0] >> c) & 1 else 1
            then[side] &= ~(1 << c)
            then[1 - side] |= 1 << c
        play_mask = sum(1 << c for c in in_play)
        low, high = _kernel.other_piles_shift(tuple(now), tuple(then), play_mask, rules)
        assert _kernel.other_piles_shift(tuple(now), tuple(now), play_mask, rules) == (0, 0)
        for split in range(1 << len(in_play)):
            mine = sum(1 << c for k, c in enumerate(in_play) if (split >> k) & 1)
            theirs = play_mask & ~mine
            moved = (_margin(now[0] | mine, now[1] | theirs, rules)
                     - _margin(then[0] | mine, then[1] | theirs, rules))
            assert low <= moved <= high, (case, now, then, in_play, (low, high), moved)
        narrow += high - low <= 2
    assert narrow > 30             # not vacuous: often narrow enough to answer a null window


def test_the_other_piles_shift_refuses_what_it_cannot_reckon():
    with pytest.raises(ValueError, match="napola"):
        _kernel.other_piles_shift((1, 2), (2, 1), 4, RULE_BITS["napola"])
    with pytest.raises(ValueError, match="same cards"):
        _kernel.other_piles_shift((1, 2), (1, 4), 8, 0)


OTHER_PILES = [("2 players", 14, 0), ("2 players", 14, RE_BELLO_ZERO), ("4 partnerships", 12, 0),
               ("scientifico", 14, 0), ("fifteen 2", 14, 0), ("fifteen 4 optional", 10, 0),
               ("scientifico last sweep", 12, 0), ("asso piglia tutto", 12, 0)]


@pytest.mark.parametrize("name,cards,rules", OTHER_PILES)
def test_other_piles_keep_values_best_moves_and_lines(name, cards, rules):
    rng = random.Random(f"other piles {name} {rules}")
    on, off = new_searcher(8), new_searcher(8)
    off.set_other_piles(False)
    game = dict(KERNEL_GAMES[name])
    game["rules"] = game.get("rules", 0) | rules
    nodes_on = nodes_off = 0
    for seed in range(25):
        s = play_down(kernel_deal(seed=1500 + seed, **game), rng, rng.randint(cards - 4, cards + 8))
        for searcher in (on, off):
            searcher.clear()
        a = on.search(s, WANT_BEST | WANT_ALL | WANT_PV)
        b = off.search(s, WANT_BEST | WANT_ALL | WANT_PV)
        assert (a.lower, a.upper, a.move_bounds, sorted(a.best)) == (b.lower, b.upper, b.move_bounds, sorted(b.best)), \
            (name, seed)
        assert a.pv[0] in a.best
        nodes_on += a.nodes
        nodes_off += b.nodes
    assert nodes_on < nodes_off, (nodes_on, nodes_off)


@pytest.mark.parametrize("name", ["4 partnerships", "3 players", "scientifico", "6 alone", "fifteen 3"])
def test_pruning_agrees_with_brute_force(name):
    rng = random.Random(f"brute {name}")
    searcher = new_searcher(8)
    for seed in range(10):
        s = play_down(kernel_deal(seed=600 + seed, **KERNEL_GAMES[name]), rng, rng.randint(2, 7))
        r = searcher.search(s, 0)
        assert r.lower == r.upper == brute_value(s, s.sides[s.to_move]), (name, seed)


@pytest.mark.parametrize("name", ["3 players", "4 alone", "6 alone", "fifteen 3", "4 partnerships"])
def test_maxn_stop_keeps_the_vector_and_line(name):
    # max^n stops at a node once a move reaches the most its side can get: the same vector,
    # move values and first-best line as without
    rng = random.Random(f"maxn {name}")
    on, off = new_searcher(8), new_searcher(8)
    off.set_bounds(0)
    for seed in range(12):
        players = KERNEL_GAMES[name]["players"]
        s = play_down(kernel_deal(seed=800 + seed, **KERNEL_GAMES[name]), rng, rng.randint(3, 2 * players))
        a = on.search(s, WANT_BEST | WANT_ALL | WANT_PV, objective="maxn")
        b = off.search(s, WANT_BEST | WANT_ALL | WANT_PV, objective="maxn")
        assert (a.points, a.move_bounds, a.pv, sorted(a.best)) == (b.points, b.move_bounds, b.pv, sorted(b.best))
        assert a.nodes <= b.nodes


@pytest.mark.parametrize("name", ["4 partnerships", "scientifico", "3 players", "fifteen 2"])
def test_bounds_stay_out_of_horizon_searches(name):
    # the bounds are of final points, not of a horizon's estimates (counted in finer units):
    # a horizon search gives the same values with the bounds on or off
    rng = random.Random(f"horizon {name}")
    on, off = new_searcher(8), new_searcher(8)
    off.set_bounds(0)
    for seed in range(12):
        s = play_down(kernel_deal(seed=900 + seed, **KERNEL_GAMES[name]), rng, rng.randint(8, 14))
        for objective in ("value", "maxn"):
            a = on.search(s, WANT_BEST | WANT_ALL, objective=objective, horizon=4)
            b = off.search(s, WANT_BEST | WANT_ALL, objective=objective, horizon=4)
            assert (a.lower, a.upper, a.move_bounds) == (b.lower, b.upper, b.move_bounds), (name, seed)
