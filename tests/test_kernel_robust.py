"""The kernel against hostile input (issue 13): table sizes, limits, interrupts, play events,
the exported rule bits and the typed stub."""
import ast
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from helpers import VARIANTS, random_positions
from scopa_solver import Position, _kernel

BEST, PV, ALL, FULL = _kernel.WANT_FLAGS
WANTS = (0, BEST, PV, BEST | PV, ALL, ALL | BEST | PV, FULL, FULL | BEST | PV)
CAPTURES = (1 << 40) - 1
# the position of issue 13: a warm table lets a 100-node search prove the best moves
ISSUE_13 = "5d4s5s/RcAsCb Rd2s2b5b -/- 5c6bFbCs3d6s6dCd4c7dAd7sCcAbFc3cFdFs7b2c3bAc4d6cRs2d4b3s7cRb 0/0 0 1 -"


def bits(mask: int) -> int:
    return bin(mask).count("1")


# -- 1. transposition table size ------------------------------------------------------------

@pytest.mark.parametrize("size", [float("inf"), float("-inf"), float("nan"), -1, -1e-300, 1e13, 10 ** 400,
                                  _kernel.MAX_TT_MB + 1, 1e7])
def test_table_size_out_of_range_is_a_value_error(size):
    with pytest.raises(ValueError, match="MiB"):
        _kernel.Searcher(size)


def test_table_sizes_in_range():
    assert _kernel.MAX_TT_MB == 65536
    assert _kernel.Searcher(0).table_stats()["capacity"] == 0
    assert _kernel.Searcher(1e-9).table_stats()["capacity"] == 4          # one bucket at least
    assert _kernel.Searcher(1).table_stats()["capacity"] == 65536         # 1 MiB of 16-byte entries
    with pytest.raises(TypeError):
        _kernel.Searcher("64")


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux applies it")
def test_table_allocation_failure_names_the_size():
    code = ("import resource; from scopa_solver import _kernel\n"
            "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
            "try:\n    _kernel.Searcher(8192)\nexcept MemoryError as e:\n    print('MemoryError', e)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert "MemoryError cannot allocate a 8192 MiB transposition table" in out.stdout, out.stderr


# -- 2. node limits are exact ---------------------------------------------------------------

def test_node_limit_is_never_exceeded():
    rng = random.Random(13)
    searcher = _kernel.Searcher(1)
    stopped = 0
    for i, pos in enumerate(random_positions(1000, 13)):
        limit = rng.randint(1, 200)
        if rng.random() < 0.5:
            searcher.clear()
        r = searcher.search(pos.kernel_state(), WANTS[i % len(WANTS)], max_nodes=limit)
        assert r.nodes <= limit, (pos, WANTS[i % len(WANTS)], limit, r.nodes)
        if r.stop:
            assert r.stop == 1 and r.nodes == limit
            stopped += 1
    assert stopped > 300


def test_node_limit_in_a_batch():
    positions = [p.kernel_state() for p in random_positions(60, 14, deals_left=2)]
    for r in _kernel.Searcher(1).search_many(positions, ALL | BEST | PV, max_nodes=37):
        assert r.nodes <= 37


# -- 3. a stopped search reports only proven best moves --------------------------------------

def check_stopped(r, full):
    if r.stop == 0:
        return False
    assert r.pv == [] and r.end is None
    if r.best is None:
        return False
    # the best-move phase finished: the value is proven and every move was tested against it
    assert r.lower == r.upper == full.lower
    assert sorted(r.best) == sorted(full.best)
    return True


def test_issue_13_best_moves_are_proven():
    t = Position.from_string(ISSUE_13).kernel_state()
    searcher = _kernel.Searcher(16)
    full = searcher.search(t, BEST | PV)
    r = searcher.search(t, BEST | PV, max_nodes=20)
    assert r.stop == 1 and r.nodes == 20
    assert check_stopped(r, full)
    assert _kernel.Searcher(16).search(t, BEST | PV, max_nodes=20).best is None     # cold: nothing proven


def test_stopped_searches_report_only_optimal_moves():
    rng = random.Random(7)
    warm, cold = _kernel.Searcher(4), _kernel.Searcher(4)
    proven = stopped = 0
    for pos in random_positions(300, 15):
        t = pos.kernel_state()
        full = _kernel.Searcher(0).search(t, BEST)
        warm.search(t, BEST)                    # a warm table proves moves in few nodes
        for want in (BEST | PV, BEST, ALL | BEST | PV):
            for searcher in (warm, cold):
                cold.clear()
                r = searcher.search(t, want, max_nodes=rng.choice((1, 3, 10, 30, 100, 300)))
                stopped += r.stop != 0
                proven += check_stopped(r, full)
                if r.stop and r.move_bounds is not None:
                    for move, (lower, upper) in zip(r.moves, r.move_bounds):
                        if lower == upper:
                            assert (move in full.best) == (lower == full.lower)
    assert stopped > 300 and proven > 20


# -- 4. limits of any size ------------------------------------------------------------------

def test_large_and_bad_limits():
    t = next(random_positions(1, 16, deals_left=0)).kernel_state()
    searcher = _kernel.Searcher(1)
    value = searcher.search(t, 0).lower
    for max_nodes in (2 ** 64 - 1, 2 ** 64, 10 ** 30, 0):
        for time_limit in (0, 0.0, 5.0, float("inf"), 1e300, 10 ** 400):
            r = searcher.search(t, 0, max_nodes=max_nodes, time_limit=time_limit)
            assert r.stop == 0 and r.lower == value
    assert searcher.search_many([t, t], 0, 10 ** 25, float("inf"))[1].lower == value
    for bad in (-1, -(10 ** 30)):
        with pytest.raises(ValueError, match="max_nodes"):
            searcher.search(t, 0, max_nodes=bad)
        with pytest.raises(ValueError, match="max_nodes"):
            searcher.search_many([t], 0, bad)
    with pytest.raises(TypeError):
        searcher.search(t, 0, max_nodes=1.5)
    for bad in (float("nan"), -1.0, float("-inf"), -(10 ** 400)):
        with pytest.raises(ValueError, match="time_limit"):
            searcher.search(t, 0, time_limit=bad)


# -- 5. interrupts --------------------------------------------------------------------------

@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_random_playouts_checks_ctrl_c():
    t = Position.new_round(seed=5).kernel_state()
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    start = time.process_time()     # CPU seconds: the work done, whatever the machine's load
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            _kernel.random_playouts(t, 10 ** 30)
    finally:
        timer.cancel()
    assert time.process_time() - start < 2.0


def test_random_playouts_counts():
    t = Position.new_round(seed=5).kernel_state()
    assert _kernel.random_playouts(t, 10) == 360            # 36 cards played per whole round
    assert _kernel.random_playouts(t, 0) == 0
    with pytest.raises(ValueError):
        _kernel.random_playouts(t, -1)
    pos = Position.new_round(seed=5)
    while not pos.is_round_over():
        pos = pos.play(pos.legal_moves()[0])
    assert _kernel.random_playouts(pos.kernel_state(), 10 ** 30) == 0    # nothing to play: no endless loop


def test_search_many_in_a_thread_stops_soon_after_its_token_is_set():
    batch = [Position.new_round(seed=s).kernel_state() for s in range(3000)]   # seconds of work
    searcher = _kernel.Searcher(8)
    token = _kernel.StopToken()
    out, stopped_at = [], []

    def work():
        out.extend(searcher.search_many(batch, ALL | BEST | PV, stop=token))
        stopped_at.append(time.thread_time())

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.2)
    # the worker's CPU seconds from the request to its stop: the work done, whatever the load
    asked = time.clock_gettime(time.pthread_getcpuclockid(worker.ident))
    token.stop()
    worker.join(60.0)                           # it does not hang (the stop takes moments)
    assert not worker.is_alive() and stopped_at
    assert stopped_at[0] - asked < 0.05         # ~0.1 ms in the kernel
    # the results are returned: the complete ones, then every one after the stop says so
    stops = [r.stop for r in out]
    assert len(out) == len(batch) and stops[0] == 0 and stops[-1] == 4
    assert set(stops[stops.index(4):]) == {4}


def test_a_stop_token_set_before_the_search_is_never_lost():
    """The kernel never clears the caller's token: set before a search starts, it stops it at
    once (the old per-searcher flag was cleared on entry, so such a stop was lost)."""
    token = _kernel.StopToken()
    token.stop()
    assert token.stopped and "stopped" in repr(token)
    searcher = _kernel.Searcher(1)
    r = searcher.search_many([Position.new_round(seed=1).kernel_state()], ALL, stop=token)[0]
    assert r.stop == 4 and r.nodes <= 1
    again = searcher.search_many([Position.new_round(seed=2).kernel_state()], ALL, stop=token)[0]
    assert again.stop == 4 and token.stopped


# -- 6. play events -------------------------------------------------------------------------

def slow_events(before: tuple, move: int, after: tuple):
    """The events, from the piles and hands alone."""
    p, card, captured = before[5], 1 << (move >> 40), move & CAPTURES
    own = (captured | card) if captured else 0
    extra = [after[3][q] & ~before[3][q] & ~(own if q == p else 0) for q in (0, 1)]
    assert not (extra[0] and extra[1])
    to = 0 if extra[0] else 1 if extra[1] else -1
    def hands(t: tuple) -> int:
        return bits(t[1][0]) + bits(t[1][1])
    return after[4][p] > before[4][p], hands(before) == 1 and hands(after) == 6, extra[0] | extra[1], to


def test_play_events_against_a_slow_recomputation():
    rng = random.Random(17)
    seen = {"scopa": 0, "dealt": 0, "leftovers": 0}
    for game in range(120):
        rules = list(VARIANTS.values())[game % len(VARIANTS)]
        pos = Position.new_round(seed=rng.getrandbits(32), rules=rules, dealer=rng.randrange(2))
        t = pos.kernel_state()
        while _kernel.legal_moves(t):
            move = rng.choice(_kernel.legal_moves(t))
            out = _kernel.play(t, move)
            assert len(out) == 5 and type(out[1]) is bool and type(out[2]) is bool
            after, scopa, dealt, leftovers, to = out
            assert (scopa, dealt, leftovers, to) == slow_events(t, move, after)
            if leftovers:
                assert after[2] == 0 and not _kernel.legal_moves(after) and after[7] == to
            seen["scopa"] += scopa
            seen["dealt"] += dealt
            seen["leftovers"] += leftovers != 0
            t = after
    assert min(seen.values()) > 10, seen


# -- 7. rule bits ---------------------------------------------------------------------------

def test_rule_bits_match_the_positions_rules():
    bits_of = dict(_kernel.RULE_BITS)
    assert sorted(bits_of) == ["ace_sweep_is_scopa", "asso_piglia_tutto", "fewest_cards", "fifteen",
                               "last_sweep_counts", "napola", "optional_capture", "primiera_zero", "re_bello"]
    assert sorted(bits_of.values()) == [1 << i for i in range(9)]
    assert _kernel.RULE_ALL == sum(bits_of.values()) == 511
    names = {"default": [], "ace_sweep_is_scopa": ["asso_piglia_tutto", "ace_sweep_is_scopa"]}
    for variant, rules in VARIANTS.items():
        expected = sum(bits_of[n] for n in names.get(variant, [variant]))
        assert Position.new_round(seed=1, rules=rules).kernel_state()[9] == expected


# -- 8. the typed stub ----------------------------------------------------------------------

def test_stub_covers_the_kernel():
    path = os.path.join(os.path.dirname(_kernel.__file__), "_kernel.pyi")
    tree = ast.parse(open(path, encoding="utf-8").read())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)
                                  and not n.name.startswith("_")} | \
                {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    public = {n for n in dir(_kernel) if not n.startswith("_")}
    assert public == top
    for cls in ("Searcher", "KernelResult", "StopToken"):
        assert {n for n in dir(getattr(_kernel, cls)) if not n.startswith("_")} == members[cls]
