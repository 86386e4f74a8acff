"""The kernel's own checks on every game (2, 3, 4 and 6 players, partnerships, Scopone,
scientifico, Scopa a 15, rule bits alone and combined): move generation and play conserve the 40
cards through whole rounds; the worked examples of FAMILY.md at the kernel; bad states are refused;
a small brute-force minimax over legal_moves / play / score agrees with the search (two sides,
paranoid, max^n) on small positions, and a two-player result's points and end are those of its
line; limits stop searches. (The independent oracle, tests/reference.py, in
test_against_reference.py; the kernel against hostile input in test_kernel_robust.py.)"""
from __future__ import annotations

import random
import threading
import time

import pytest

from scopa_solver.kernel import (
    Limit, RULE_BITS, StopReason, StopToken, WANT_ALL, WANT_BEST, WANT_PV, KernelState, legal_moves, new_searcher, play, run_batch, score,
)

from helpers import (FIFTEEN, KERNEL_GAMES, LAST_SWEEP, OPTIONAL, brute_value, final_points, kernel_deal,
                     play_down)

CARD = {f"{r}{s}": i * 10 + j for i, s in enumerate("dcsb") for j, r in enumerate("A234567FCR")}
CARD.update({f"{j + 1}{s}": i * 10 + j for i, s in enumerate("dcsb") for j in range(10)})


def mask(text: str) -> int:
    return sum(1 << CARD[c] for c in text.split())


def move(card: str, takes: str = "") -> int:
    return CARD[card] << 40 | (mask(takes) if takes else 0)


def cards_in_play(s: KernelState) -> list[int]:
    return list(s.hands) + [s.table] + list(s.piles) + [m for d in s.deals for m in d]


# -- rules, moves, play ---------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(KERNEL_GAMES))
def test_whole_rounds_conserve_the_cards(name):
    rng = random.Random(name)
    seen = {"scopa": 0, "dealt": 0, "leftovers": 0}
    for seed in range(12):
        s = kernel_deal(seed=seed, **KERNEL_GAMES[name])
        plies = 0
        while True:
            masks = cards_in_play(s)
            assert sum(masks) == (1 << 40) - 1 and sum(bin(m).count("1") for m in masks) == 40
            moves = legal_moves(s)
            if not moves:
                break
            assert len(set(moves)) == len(moves)
            before = s
            m = rng.choice(moves)
            s, ev = play(s, m)
            plies += 1
            card, takes = m >> 40, m & ((1 << 40) - 1)
            mover = before.to_move
            assert not s.hands[mover] >> card & 1
            if takes:
                assert s.piles[mover] & (takes | 1 << card) == takes | 1 << card
                assert s.last_capturer == mover
            assert s.scopas[mover] == before.scopas[mover] + ev.scopa
            seen["scopa"] += ev.scopa
            seen["dealt"] += ev.dealt
            seen["leftovers"] += ev.leftovers != 0
        assert plies == 40 - (0 if KERNEL_GAMES[name].get("game") == "scientifico" else 4)
        assert s.table == 0 or s.last_capturer == -1
        detail = score(s.piles, s.scopas, s.sides, s.rules)
        assert sum(detail["cards"]) == 40 - bin(s.table).count("1")
    assert seen["scopa"] > 0 and seen["leftovers"] > 0
    assert seen["dealt"] > 0 or KERNEL_GAMES[name].get("game") in ("scopone", "scientifico")


def _state(players, hands, table, to_move=0, dealer=None, rules=FIFTEEN, sides=None, piles=None):
    dealer = (to_move - 1) % players if dealer is None else dealer
    return KernelState(players, tuple(mask(h) if h else 0 for h in hands), mask(table),
                       piles or (0,) * players, (0,) * players, to_move, dealer, -1, (), rules,
                       sides or tuple(range(players)))


def test_fifteen_examples():
    # FAMILY.md example 1: 7d on 5c 3s 8b Ad: 7dx8b and 7dx5c+3s; Rb on the same table: only Rbx5c
    s = _state(2, ["7d Rb", "2c 2s"], "5c 3s 8b Ad")
    moves = set(legal_moves(s))
    assert {m for m in moves if m >> 40 == CARD["7d"]} == {move("7d", "8b"), move("7d", "5c 3s")}
    assert {m for m in moves if m >> 40 == CARD["Rb"]} == {move("Rb", "5c")}
    # example 2: 7c on 8c 5s 3b: both; no priority of the single card
    s = _state(2, ["7c", "2c"], "8c 5s 3b")
    assert set(legal_moves(s)) == {move("7c", "8c"), move("7c", "5s 3b")}
    # optional capture: the lay-down too; fewest cards: only the single
    assert set(legal_moves(s._replace(rules=FIFTEEN | OPTIONAL))) == {
        move("7c", "8c"), move("7c", "5s 3b"), move("7c")}
    assert legal_moves(s._replace(rules=FIFTEEN | RULE_BITS["fewest_cards"])) == [move("7c", "8c")]


def test_standard_rule_and_scientifico_lead():
    s = _state(4, ["7d", "Ac", "2c", "3c"], "7c 5s 2b Ad", rules=0, sides=(0, 1, 0, 1))
    assert legal_moves(s) == [move("7d", "7c")]
    s = kernel_deal(4, seed=3, game="scientifico")
    moves = legal_moves(s)
    assert len(moves) == 10 and all(m & ((1 << 40) - 1) == 0 for m in moves)


def test_last_play_sweep():
    # a sweep on the round's last play scores only under last_sweep_counts
    s = _state(2, ["7d", ""], "4s 3s", to_move=0, dealer=0, rules=0)
    assert not play(s, move("7d", "4s 3s"))[1].scopa
    assert play(s._replace(rules=LAST_SWEEP), move("7d", "4s 3s"))[1].scopa
    s = _state(2, ["7d", "Ac"], "4s 3s", rules=0)
    after, ev = play(s, move("7d", "4s 3s"))
    assert ev.scopa and after.scopas == (1, 0) and after.to_move == 1


def test_scoring_per_side():
    # FAMILY.md example 3: 14 + 8 cards for side {0, 2} against 10 + 8
    deck = list(range(40))
    piles = [sum(1 << c for c in deck[a:b]) for a, b in ((0, 14), (22, 32), (14, 22), (32, 40))]
    detail = score(piles, (0, 1, 2, 0), (0, 1, 0, 1), 0)
    assert detail["cards"] == [22, 18] and detail["carte"] == 0 and detail["scopas"] == [2, 1]
    assert all(len(detail[k]) == 2 for k in ("cards", "coins", "primiera", "napola", "scopas", "points"))
    # example 4: three players, cards 14 / 14 / 12: carte shared, nobody; coins 4 / 3 / 3: seat 0
    coins = [list(range(0, 4)), list(range(4, 7)), list(range(7, 10))]
    rest = list(range(10, 40))
    piles = [coins[0] + rest[:10], coins[1] + rest[10:21], coins[2] + rest[21:30]]
    detail = score([sum(1 << c for c in p) for p in piles], (0, 2, 0), (0, 1, 2), 0)
    assert detail["cards"] == [14, 14, 12] and detail["carte"] is None
    assert detail["coins"] == [4, 3, 3] and detail["denari"] == 0
    assert detail["settebello"] == 1 and detail["scopas"] == [0, 2, 0]
    assert detail["points"][1] == 3 + (detail["primiera_winner"] == 1)
    # primiera: a side missing a suit cannot win it, unless "zero"
    piles = [mask("7d 7c 7s"), mask("Ad Ac As Ab"), 0]
    detail = score(piles, (0, 0, 0), (0, 1, 2), 0)
    assert detail["primiera"][0] is None and detail["primiera_winner"] == 1
    detail = score(piles, (0, 0, 0), (0, 1, 2), RULE_BITS["primiera_zero"])
    assert detail["primiera"] == [63, 64, 0] and detail["primiera_winner"] == 1
    # two sides: the two-player breakdown
    piles = [mask("7d 6c 7b 5s"), mask("6d 7c Ab 7s")]
    assert score(piles, (0, 0), (0, 1), 0)["primiera"] == [75, 76]


def test_bad_states_are_refused():
    s = kernel_deal(4, seed=1)
    for bad in (s._replace(players=7), s._replace(hands=s.hands[:3]), s._replace(sides=(1, 0, 1, 0)),
                s._replace(to_move=(s.to_move + 1) % 4), s._replace(table=s.table | s.hands[0]),
                s._replace(rules=1 << 12), s._replace(deals=s.deals[:1] + ((7, 0, 0, 0),)),
                s._replace(sides=(0, 0, 0, 0))):
        with pytest.raises(ValueError):
            legal_moves(bad)
    with pytest.raises(TypeError):
        legal_moves(list(s))
    with pytest.raises(ValueError):
        play(s, 12345)


# -- two players: the search's answers and results -----------------------------------------------

def test_two_players_values_points_and_ends():
    """Two-player Scopa under six rule sets: the value is brute force's, and the result's end
    and points are those of the line it found, with one repr for every game."""
    rng = random.Random(7)
    searcher = new_searcher(16)
    for seed in range(30):
        s = play_down(kernel_deal(2, seed=seed, rules=rng.choice([0, 8, 4, 16, 32, 3])), rng, rng.choice([5, 7, 9]))
        r = searcher.search(s, WANT_BEST | WANT_PV)
        assert r.lower == r.upper == brute_value(s, s.sides[s.to_move])
        assert r.evaluations == 0 and r.horizon is None
        assert r.points[s.sides[s.to_move]] - r.points[1 - s.sides[s.to_move]] == r.lower
        piles, scopas = r.end
        assert list(r.points) == score(piles, scopas, s.sides, s.rules)["points"]
        assert repr(r) == (f"<KernelResult lower={r.lower} upper={r.upper} stop=0 nodes={r.nodes} "
                           "objective='value' horizon=None>")


# -- brute force ------------------------------------------------------------------------------

def brute_maxn(s: KernelState) -> list[int]:
    moves = legal_moves(s)
    if not moves:
        return final_points(s)
    me, best = s.sides[s.to_move], None
    for m in moves:
        v = brute_maxn(play(s, m)[0])
        if best is None or v[me] > best[me]:
            best = v
    return best


SMALL = [("2 players", 6), ("fifteen 2", 6), ("4 partnerships", 8), ("scopone", 8), ("scientifico", 8),
         ("scientifico last sweep", 7), ("6 players", 8), ("fifteen 4 optional", 7), ("asso piglia tutto", 8),
         ("3 players", 7), ("fifteen 3", 7), ("4 alone", 7), ("6 alone", 7), ("napola re bello zero", 7),
         ("fewest fifteen", 7)]


@pytest.mark.parametrize("name,cards", SMALL)
def test_search_agrees_with_brute_force(name, cards):
    rng = random.Random(name)
    searcher = new_searcher(8)
    for seed in range(8):
        s = play_down(kernel_deal(seed=100 + seed, **KERNEL_GAMES[name]), rng, rng.randint(2, cards))
        me = s.sides[s.to_move]
        value = brute_value(s, me)
        r = searcher.search(s, WANT_BEST | WANT_PV | WANT_ALL)
        assert r.stop == 0 and r.lower == r.upper == value, (name, seed)
        moves = legal_moves(s)
        assert r.moves == moves
        each = [brute_value(play(s, m)[0], me) for m in moves]
        assert r.move_bounds == [(v, v) for v in each]
        assert sorted(r.best) == sorted(m for m, v in zip(moves, each) if v == value)
        # the pv ends where its points say, and those points give the value
        end = s
        for m in r.pv:
            end, _ = play(end, m)
        assert not legal_moves(end) and list(r.points) == final_points(end)
        assert r.points[me] - max(v for i, v in enumerate(r.points) if i != me) == value
        # value alone and best alone, on a fresh table
        searcher.clear()
        r2 = searcher.search(s, WANT_BEST)
        assert r2.lower == value and sorted(r2.best) == sorted(r.best) and r2.nodes > 0


@pytest.mark.parametrize("name", ["3 players", "fifteen 3", "4 alone", "2 players", "4 partnerships"])
def test_maxn_agrees_with_brute_force(name):
    rng = random.Random(name)
    searcher = new_searcher(8)
    for seed in range(6):
        s = play_down(kernel_deal(seed=200 + seed, **KERNEL_GAMES[name]), rng, 3 * KERNEL_GAMES[name]["players"])
        want = brute_maxn(s)
        r = searcher.search(s, WANT_BEST | WANT_PV | WANT_ALL, objective="maxn")
        me = s.sides[s.to_move]
        assert r.objective == "maxn" and list(r.points) == want and r.lower == r.upper == want[me]
        moves = legal_moves(s)
        each = [brute_maxn(play(s, m)[0]) for m in moves]
        assert r.move_bounds == [(v[me], v[me]) for v in each]
        assert sorted(r.best) == sorted(m for m, v in zip(moves, each) if v[me] == want[me])
        end = s
        for m in r.pv:                  # the max^n line: the first best move at each seat
            end, _ = play(end, m)
        assert final_points(end) == want


def test_paranoid_example():
    # FAMILY.md example 7: the value is own points minus the best other side's
    s = play_down(kernel_deal(3, seed=5), random.Random(5), 1)
    p = final_points(play(s, legal_moves(s)[0])[0])
    r = new_searcher(1).search(s, WANT_PV)
    me = s.to_move
    assert r.points == tuple(p) and r.lower == p[me] - max(p[(me + 1) % 3], p[(me + 2) % 3])


# -- limits -----------------------------------------------------------------------------------

def test_node_and_time_limits():
    s = kernel_deal(4, seed=11, game="scientifico")
    searcher = new_searcher(8)
    for limit in (1, 2, 17, 1000, 54321):
        for objective in ("value", "maxn"):
            r = searcher.search(s, WANT_BEST | WANT_PV | WANT_ALL, max_nodes=limit, objective=objective)
            assert r.stop == 1 and 0 < r.nodes <= limit
            assert r.best is None and r.pv == [] and r.points is None
    start = time.process_time()     # CPU seconds: the work done, whatever the machine's load
    r = searcher.search(s, WANT_BEST, time_limit=0.05)
    assert r.stop == 2 and time.process_time() - start < 1.0


def test_stop_token_and_batches():
    s = kernel_deal(4, seed=12, game="scientifico")
    searcher = new_searcher(8)
    token = StopToken()
    timer = threading.Timer(0.05, token.stop)
    timer.start()
    start = time.process_time()     # CPU seconds: the work done, whatever the machine's load
    r = searcher.search_many([s], WANT_BEST, 0, 0.0, False, "value", stop=token)[0]
    assert r.stop == StopReason.REQUEST and time.process_time() - start < 2.0
    rng = random.Random(3)
    states = [play_down(kernel_deal(3, seed=k), rng, 5) for k in range(20)]
    out = run_batch(states, limit=Limit(threads=2, tt_mb=4), want=WANT_BEST)
    assert [r.lower for r in out] == [brute_value(st, st.sides[st.to_move]) for st in states]
    out = run_batch(states, limit=Limit(tt_mb=4), want=WANT_BEST, objective="maxn")
    assert [r.points for r in out] == [tuple(brute_maxn(st)) for st in states]
