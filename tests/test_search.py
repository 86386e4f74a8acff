"""Correctness of the exact search (solve, analyze, their batch forms) against the reference oracle.

The oracle is tests/reference.py: plain minimax over RefState, memoized by a dict (`memo`). It can
value positions with up to three deals left in reasonable time; whole rounds are checked for
self-consistency instead (every table setting and driver agree, the principal variation is
optimal for both sides, each move's value is the negated value of the position it leads to).
"""
from __future__ import annotations

import random

import pytest

from helpers import COMBINED, VARIANTS, games, random_positions, round_history, texts, to_ref, with_limit
from reference import RefState, minimax

from scopa_solver import Position, Rules, RulesError, analyze, analyze_many, solve, solve_many, Limit
from scopa_solver.kernel import WANT_ALL, WANT_BEST, WANT_PV, clear_tables
from scopa_solver.search.solver import solve_values

VARIANT_NAMES = list(VARIANTS)


def variant_seed(name: str, *parts: int) -> int:
    """A fixed seed per variant and sub-case (str hashes vary between runs; this does not)."""
    seed = VARIANT_NAMES.index(name) + 1
    for part in parts:
        seed = seed * 1009 + part
    return seed


def ref_move(move) -> tuple[str, frozenset[str]]:
    return str(move.card), frozenset(str(c) for c in move.captures)


def ref_value(pos: Position, cache: dict | None = None) -> int:
    """The reference value of `pos` for its side to move."""
    return minimax(to_ref(pos), memo={} if cache is None else cache)


def ref_move_value(state: RefState, move, cache: dict) -> int:
    """The reference value, for the side to move at `state`, of playing `move` there."""
    return minimax(state.play(ref_move(move)), state.side_to_move(), cache)


def mixed_positions(rules: Rules, seed: int, count: int) -> list[Position]:
    """`count` positions with zero, one or (late in the deal) two deals left in the stock."""
    shapes = [(0, None), (1, None), (0, 6), (1, 6), (1, 3), (2, 1), (2, 2), (0, 3), (1, 1), (1, 4)]
    out = []
    for i in range(count):
        deals_left, in_hands = shapes[i % len(shapes)]
        out.extend(random_positions(1, seed * 100 + i, rules, deals_left=deals_left, cards_in_hands=in_hands))
    return out


def whole_rounds(rules: Rules, seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    return [Position.new_round(seed=rng.getrandbits(32), rules=rules, dealer=rng.randrange(2))
            for _ in range(count)]


def play_out(pos: Position, moves) -> Position:
    for move in moves:
        pos = pos.play(move)
    return pos


def with_rules(text: str, rules: Rules) -> Position:
    """A position from its notation, played under `rules`."""
    return Position.from_string(" ".join([text, *rules.tokens()]))


def report(mismatches: list) -> str:
    lines = [f"{len(mismatches)} problem(s); the first ones:"]
    lines += [f"  {m}" for m in mismatches[:8]]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# The oracle itself
# --------------------------------------------------------------------------------------------

def test_minimax_memo_equals_plain_minimax() -> None:
    """The oracle with a memo is the plain minimax, only faster."""
    checked = 0
    for name, rules in VARIANTS.items():
        for deals_left, in_hands in ((0, None), (1, 2), (1, 1)):
            for pos in random_positions(3, variant_seed(name, 7, deals_left, in_hands or 0), rules,
                                        deals_left=deals_left, cards_in_hands=in_hands):
                state = to_ref(pos)
                assert minimax(state, memo={}) == minimax(state), pos.to_string()
                checked += 1
    assert checked == 3 * 3 * len(VARIANTS)


# --------------------------------------------------------------------------------------------
# Values against the oracle
# --------------------------------------------------------------------------------------------

ONE_OR_TWO_DEALS_EACH = 25      # per (deals left, cards in hands): 2 x 6 x 25 = 300 per variant
THREE_DEALS_SHAPES = {1: 4, 2: 4, 3: 4, 4: 3, 5: 1, 6: 1}   # cards in hands -> count: 17 per variant


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_values_match_reference_with_one_or_two_deals_left(variant: str) -> None:
    rules = VARIANTS[variant]
    mismatches, checked = [], 0
    for deals_left in (0, 1):
        for in_hands in range(1, 7):
            for pos in random_positions(ONE_OR_TWO_DEALS_EACH, variant_seed(variant, deals_left, in_hands),
                                        rules, deals_left=deals_left, cards_in_hands=in_hands):
                got = solve(pos).value
                expected = ref_value(pos)
                checked += 1
                if got != expected:
                    mismatches.append((pos.to_string(), expected, got))
    assert checked == 2 * 6 * ONE_OR_TWO_DEALS_EACH
    assert not mismatches, report(mismatches)


@pytest.mark.parametrize("variant", [v if v == "default" else pytest.param(v, marks=pytest.mark.slow)
                                     for v in VARIANT_NAMES])   # every variant by default with 1-2 deals
def test_values_match_reference_with_three_deals_left(variant: str) -> None:
    rules = VARIANTS[variant]
    mismatches, checked = [], 0
    for in_hands, count in THREE_DEALS_SHAPES.items():
        for pos in random_positions(count, variant_seed(variant, 3, in_hands), rules,
                                    deals_left=2, cards_in_hands=in_hands):
            assert pos.deals_left == 2
            got = solve(pos).value
            expected = ref_value(pos)
            checked += 1
            if got != expected:
                mismatches.append((pos.to_string(), expected, got))
    assert checked == sum(THREE_DEALS_SHAPES.values())
    assert not mismatches, report(mismatches)


# Hand-made corner cases of the end of the round and of the variants, valued under every variant.
SPECIAL_POSITIONS = [
    # nobody ever captures: the leftovers belong to nobody
    "5d/6c RbRs -/- - 0/0 0 1 -",
    # the very last play sweeps the table: no scopa
    "Rb/7c 3s4sRc Ad2d/Ac - 0/0 0 1 0",
    # the last play of an earlier deal sweeps: a scopa
    "Rb/7c 3s4sRc Ad2d/Ac 5b6b5sFc2sCc 0/0 0 1 0",
    # an ace on a table without aces (asso piglia tutto sweeps it, scopa or not by the variant)
    "Ac5s/2bRs 4d3b Ad2d/7d - 0/0 0 1 0",
    # an ace on the table is taken normally; the other ace may then sweep
    "AcAb/2b3b As3d4d -/- - 0/0 0 1 -",
    # napola within reach: A 2 3 4 5 of coins
    "3c5b/4cCb 3d4d2s Ad2d/Rb - 0/0 0 1 1",
    # scopas already made count in the value
    "7c/3b 2s5s Ad/Ac - 3/1 0 1 1",
    # a sum capture with several choices, fewest-cards matters
    "Rc/Cb Ad2s3b4c6d -/- - 0/0 0 1 -",
]


@pytest.mark.parametrize("text", SPECIAL_POSITIONS)
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_special_positions_match_reference(variant: str, text: str) -> None:
    pos = with_rules(text, VARIANTS[variant])
    result = solve(pos)
    assert result.complete
    assert result.value == ref_value(pos), pos.to_string()
    end = play_out(pos, result.pv)
    assert end.is_round_over()
    assert end.round_score().margin(pos.to_move) == result.value


# --------------------------------------------------------------------------------------------
# analyze against solve and the oracle
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_analyze_agrees_with_solve_and_reference(variant: str) -> None:
    rules = VARIANTS[variant]
    checked_moves = 0
    for pos in mixed_positions(rules, variant_seed(variant, 11), 30):
        where = pos.to_string()
        rows = analyze(pos)
        result = solve(pos)
        # every legal move once, each with an exact value, best first
        assert sorted(map(str, (r.move for r in rows))) == sorted(map(str, pos.legal_moves())), where
        assert all(r.value is not None and r.lower == r.value == r.upper for r in rows), where
        assert [r.value for r in rows] == sorted((r.value for r in rows), reverse=True), where
        best = rows[0].value
        assert best == result.value, where
        assert set(result.best_moves) == {r.move for r in rows if r.value == best}, where
        assert len(result.best_moves) == len(set(result.best_moves)), where
        # each move's value is the reference value of playing it
        state, cache = to_ref(pos), {}
        for r in rows:
            assert r.value == ref_move_value(state, r.move, cache), (where, str(r.move))
            checked_moves += 1
        assert best == minimax(state, memo=cache), where
    assert checked_moves > 30


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_move_values_are_negated_child_values_on_whole_rounds(variant: str) -> None:
    """Beyond the oracle's reach: a move's value is minus the value of the position it leads to
    (scopas made included in that position), and solve's best moves are the maximizers."""
    rules = VARIANTS[variant]
    for pos in whole_rounds(rules, variant_seed(variant, 12), 2):
        rows = analyze(pos)
        result = solve(pos)
        assert rows and rows[0].value == result.value, pos.to_string()
        for r in rows:
            assert r.value == -solve(pos.play(r.move)).value, (pos.to_string(), str(r.move))
        assert set(result.best_moves) == {r.move for r in rows if r.value == result.value}


# --------------------------------------------------------------------------------------------
# The table and the driver do not change the value
# --------------------------------------------------------------------------------------------

SETTINGS = [
    dict(),                             # the default table
    dict(tt_mb=0),                      # no table
    dict(tt_mb=0.001),                  # 64 entries: constant replacement
    dict(tt_mb=1e-6),                   # a single bucket
    dict(full_window=True),             # plain alpha-beta
    dict(full_window=True, tt_mb=0),
]


def _setting_id(kw: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in kw.items()) or "default"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_value_and_best_moves_do_not_depend_on_table_or_window(variant: str) -> None:
    rules = VARIANTS[variant]
    positions = mixed_positions(rules, variant_seed(variant, 21), 20)
    expected = [ref_value(p) for p in positions]
    mismatches = []
    first_best = first_pv = None
    for kw in SETTINGS:     # one setting at a time: the searcher keeps one table per thread
        results = [with_limit(solve, p, **kw) for p in positions]
        best = [set(r.best_moves) for r in results]
        pvs = [[str(m) for m in r.pv] for r in results]     # the pv too: a rule, not the table's luck
        first_best = first_best or best
        first_pv = first_pv or pvs
        for p, r, e, b, b0, pv, pv0 in zip(positions, results, expected, best, first_best, pvs, first_pv):
            if not r.complete or r.value != e or b != b0 or pv != pv0:
                mismatches.append((p.to_string(), _setting_id(kw), e, r.value,
                                   sorted(map(str, b0)), sorted(map(str, b)), pv0, pv))
    assert not mismatches, report(mismatches)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_analyze_does_not_depend_on_table(variant: str) -> None:
    rules = VARIANTS[variant]
    positions = mixed_positions(rules, variant_seed(variant, 23), 10) + whole_rounds(rules, variant_seed(variant, 24), 1)
    expected = [{r.move: r.value for r in analyze(p)} for p in positions]
    for kw in (dict(tt_mb=0), dict(tt_mb=0.001)):
        for p, want in zip(positions, expected):
            assert {r.move: r.value for r in with_limit(analyze, p, **kw)} == want, (p.to_string(), kw)


def test_same_cards_under_every_rule_set_in_one_batch() -> None:
    """One table serves all the rule sets: the same cards under each of them, in one batch."""
    base = mixed_positions(Rules(), 81, 12)
    batch = [with_rules(" ".join(p.to_string().split()[:8]), rules) for p in base for rules in VARIANTS.values()]
    got = [r.value for r in solve_many(batch, Limit(threads=1))]
    want = [ref_value(p) for p in batch]
    mismatches = [(p.to_string(), e, g) for p, e, g in zip(batch, want, got) if e != g]
    assert not mismatches, report(mismatches)
    n = len(VARIANTS)
    assert any(len(set(want[i:i + n])) > 1 for i in range(0, len(want), n))   # the rules matter


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_scopas_already_made_shift_the_value(variant: str) -> None:
    """Scopas made stay out of the table key and are added back: extra scopas move the value by
    exactly their difference, for the side to move."""
    rules = VARIANTS[variant]
    positions = [p for p in mixed_positions(rules, variant_seed(variant, 82), 30) if p.piles[0] and p.piles[1]]
    assert len(positions) >= 10
    for pos in positions[:10]:
        base = solve(pos).value
        for extra in ((1, 0), (0, 2), (3, 1)):
            scopas = (pos.scopas[0] + extra[0], pos.scopas[1] + extra[1])
            other = Position(hands=(texts(pos.hands[0]), texts(pos.hands[1])), table=texts(pos.table),
                             stock=[str(c) for c in pos.stock],
                             captured=(texts(pos.piles[0]), texts(pos.piles[1])), scopas=scopas,
                             to_move=pos.to_move, dealer=pos.dealer, last_capturer=pos.last_capturer,
                             rules=rules)
            shift = extra[pos.to_move] - extra[1 - pos.to_move]
            r = solve(other)
            assert r.value == base + shift, (other.to_string(), base, shift, r.value)
            assert r.outcome.margin(pos.to_move) == r.value
            assert max(mv.value for mv in analyze(other)) == r.value


def _swap_piles(pos: Position, rng: random.Random) -> Position:
    """`pos` with some cards traded between the capture piles (the same cards still in play, the
    same pile sizes): a different score history that the table key may or may not merge."""
    piles = [sorted(texts(pile)) for pile in pos.piles]
    k = rng.randint(1, min(map(len, piles)))
    give, take = rng.sample(piles[0], k), rng.sample(piles[1], k)
    captured = ([c for c in piles[0] if c not in give] + take, [c for c in piles[1] if c not in take] + give)
    return Position(hands=(texts(pos.hands[0]), texts(pos.hands[1])), table=texts(pos.table),
                    stock=[str(c) for c in pos.stock], captured=(captured[0], captured[1]),
                    scopas=pos.scopas, to_move=pos.to_move, dealer=pos.dealer,
                    last_capturer=pos.last_capturer, rules=pos.rules)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_positions_with_traded_piles_share_one_table_soundly(variant: str) -> None:
    """The table key summarises the piles (a settled primiera, say, only by its result), so
    positions whose piles differ can share entries: searched one after the other on one table,
    each still gets its reference value."""
    rules = VARIANTS[variant]
    rng = random.Random(variant_seed(variant, 86))
    positions = [p for p in mixed_positions(rules, variant_seed(variant, 85), 40)
                 if p.piles[0] and p.piles[1] and len(p.stock) <= 6]
    batch = [q for p in positions[:16] for q in (p, _swap_piles(p, rng), _swap_piles(p, rng))]
    got = [r.value for r in solve_many(batch, Limit(threads=1))]
    want = [ref_value(p) for p in batch]
    mismatches = [(p.to_string(), e, g) for p, e, g in zip(batch, want, got) if e != g]
    assert not mismatches, report(mismatches)
    assert len(set(want)) > 2       # the trades change values: the piles are not ignored

@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_whole_round_value_does_not_depend_on_table_or_window(variant: str) -> None:
    rules = VARIANTS[variant]
    pos = whole_rounds(rules, variant_seed(variant, 22), 1)[0]
    got = {}
    for kw in SETTINGS:
        r = with_limit(solve, pos, **kw)
        assert r.complete and r.stopped is None
        got[_setting_id(kw)] = (r.value, tuple(sorted(map(str, r.best_moves))))
    assert len(set(got.values())) == 1, (pos.to_string(), got)


# --------------------------------------------------------------------------------------------
# The principal variation
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_pv_plays_to_the_end_of_the_round_with_the_value(variant: str) -> None:
    rules = VARIANTS[variant]
    positions = (mixed_positions(rules, variant_seed(variant, 31), 12)
                 + [p for d in (3, 4) for p in random_positions(1, variant_seed(variant, 32, d), rules, deals_left=d)]
                 + whole_rounds(rules, variant_seed(variant, 33), 2))
    for pos in positions:
        where = pos.to_string()
        result = solve(pos)
        assert result.complete and result.pv, where
        assert result.pv[0] in result.best_moves, where
        end = play_out(pos, result.pv)          # play() rejects an illegal move
        assert end.is_round_over(), where
        assert end.round_score().margin(pos.to_move) == result.value, where
        assert result.outcome is not None, where
        assert result.outcome.margin(pos.to_move) == result.value, where
        assert result.outcome == end.round_score(), where
        # both sides play perfectly along the pv: every position on it keeps the value
        node = pos
        for move in result.pv:
            margin = end.round_score().margin(node.to_move)
            here = solve(node)
            assert here.value == margin, (where, node.to_string())
            assert move in here.best_moves, (where, node.to_string(), str(move))
            node = node.play(move)
    # the pv of positions the oracle can value
    for pos in mixed_positions(rules, variant_seed(variant, 34), 6):
        result = solve(pos)
        assert play_out(pos, result.pv).round_score().margin(pos.to_move) == ref_value(pos)


# --------------------------------------------------------------------------------------------
# Batches
# --------------------------------------------------------------------------------------------

def _solve_key(r) -> tuple:
    return (r.value, r.lower, r.upper, r.complete, r.stopped, [str(m) for m in r.best_moves],
            [str(m) for m in r.pv], r.outcome)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_batches_equal_single_calls(variant: str, threads: int) -> None:
    rules = VARIANTS[variant]
    positions = (mixed_positions(rules, variant_seed(variant, 41), 16)
                 + whole_rounds(rules, variant_seed(variant, 42), 1))
    assert len(positions) % 2 == 1          # uneven chunks for two threads
    singles = [solve(p) for p in positions]
    batch = solve_many(positions, Limit(threads=threads))
    assert len(batch) == len(positions)
    for p, s, b in zip(positions, singles, batch):
        assert _solve_key(b) == _solve_key(s), p.to_string()
        assert b.position == p
    single_rows = [analyze(p) for p in positions]
    batch_rows = analyze_many(positions, Limit(threads=threads))
    assert batch_rows == single_rows
    assert solve_values(positions, Limit(threads=threads)) == [s.value for s in singles]


def test_empty_batches() -> None:
    for objective in ("value", "maxn"):
        for threads in (None, 2):
            assert solve_many([], Limit(threads=threads), objective=objective) == []
            assert analyze_many([], Limit(threads=threads), objective=objective) == []
    assert solve_values([]) == []


# --------------------------------------------------------------------------------------------
# Every game: solve, analyze and their batches agree, the pv and the points, max^n
# --------------------------------------------------------------------------------------------

# every game, and rule options combined with them
SEARCH_GAMES = games(more=COMBINED)


def late_positions(rules: Rules, count: int, cards_left: int = 7) -> list[Position]:
    """The first position of `count` random rounds with at most `cards_left` cards to play."""
    out = []
    for seed in range(count):
        for pos, _ in round_history(rules, seed):
            if sum(pos.hand_sizes()) + len(pos.stock) <= cards_left:
                out.append(pos)
                break
    return out


@pytest.mark.parametrize("name", list(SEARCH_GAMES))
def test_search_every_game(name):
    rules = SEARCH_GAMES[name]
    positions = late_positions(rules, 3)
    results = solve_many(positions)
    for pos, result in zip(positions, results):
        assert result.complete and result.objective == "value"
        single = solve(pos)
        assert single.value == result.value
        values = analyze(pos)
        assert max(mv.value for mv in values) == result.value
        assert {str(m) for m in result.best_moves} == {str(mv.move) for mv in values if mv.value == result.value}
        end = pos
        for move in result.pv:
            end = end.play(move)
        assert end.is_round_over()
        assert end.round_score().total == result.outcome.total == result.points
        side = rules.sides[pos.to_move]
        assert result.outcome.margin(side) == result.value          # margin, or paranoid
        maxn = solve(pos, objective="maxn")
        assert maxn.objective == "maxn" and maxn.value == maxn.points[side]
        assert maxn.to_dict()["objective"] == "maxn"
    assert solve_values(positions) == [r.value for r in results]
    assert [[mv.value for mv in a] for a in analyze_many(positions)] == \
        [[mv.value for mv in analyze(p)] for p in positions]


def test_batches_mix_games():
    two = late_positions(Rules(), 2)
    three = late_positions(Rules(players=3), 2)
    mixed = [two[0], three[0], two[1], three[1]]
    assert [r.value for r in solve_many(mixed)] == [solve(p).value for p in mixed]
    assert solve_values(mixed, objective="maxn") == [solve(p, objective="maxn").value for p in mixed]


def test_objective_is_checked():
    pos = late_positions(Rules(players=3), 1)[0]
    with pytest.raises(RulesError, match="objective must be"):
        solve(pos, objective="best")
    with pytest.raises(RulesError, match="objective must be"):
        solve_many([], objective=None)


def test_maxn_limits_stop_the_search():
    pos = Position.new_round(seed=4, rules=Rules(players=3))
    result = solve(pos, Limit(nodes=500), objective="maxn")
    assert not result.complete and result.stopped == "nodes"
    assert not result.exact and result.horizon is not None and result.value is not None


# --------------------------------------------------------------------------------------------
# Limits
# --------------------------------------------------------------------------------------------

def _brackets(result, true_value: int) -> bool:
    return ((result.lower is None or result.lower <= true_value)
            and (result.upper is None or true_value <= result.upper))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_node_limit_stops_a_whole_round(variant: str) -> None:
    rules = VARIANTS[variant]
    pos = whole_rounds(rules, variant_seed(variant, 51), 1)[0]
    clear_tables()      # nothing known about the position in advance
    limited = solve(pos, Limit(nodes=50))
    assert limited.complete is False
    assert limited.stopped == "nodes"
    # the exact search stopped: the deepest depth-limited search stands (and the bounds the
    # exact try proved)
    assert not limited.exact and limited.horizon is not None and limited.value is not None
    assert limited.outcome is None and limited.best_moves and limited.pv
    assert limited.nodes >= 50
    full = solve(pos)
    assert full.complete and full.stopped is None and full.value is not None
    assert _brackets(limited, full.value), (pos.to_string(), limited.lower, limited.upper, full.value)
    assert full.value == solve(pos, Limit(tt_mb=0), full_window=True).value
    assert play_out(pos, full.pv).round_score().margin(pos.to_move) == full.value


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_time_limit_stops_a_first_deal_position(variant: str) -> None:
    rules = VARIANTS[variant]
    pos = whole_rounds(rules, variant_seed(variant, 52), 1)[0]
    pos = pos.play(pos.legal_moves()[0])     # still in the first deal
    assert pos.deals_left == 5
    clear_tables()
    limited = solve(pos, Limit(time=1e-4))
    assert limited.complete is False
    assert limited.stopped == "time"
    assert not limited.exact and limited.horizon is not None and limited.value is not None
    full = solve(pos)
    assert full.complete and full.stopped is None
    assert _brackets(limited, full.value)
    assert full.value == solve(pos, Limit(tt_mb=0.001), full_window=True).value
    assert play_out(pos, full.pv).round_score().margin(pos.to_move) == full.value


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_node_limit_bounds_bracket_the_reference_value(variant: str) -> None:
    """Searches stopped at various node counts bound the true value; a later full search finds it."""
    rules = VARIANTS[variant]
    positions = list(random_positions(6, variant_seed(variant, 53), rules, deals_left=2, cards_in_hands=4))
    stopped = bounded = 0
    for pos in positions:
        true_value = ref_value(pos)
        for max_nodes in (50, 1100, 2100, 3100):
            r = solve(pos, Limit(tt_mb=0, nodes=max_nodes))
            if r.complete:
                assert r.value == true_value, pos.to_string()
                continue
            stopped += 1
            assert r.stopped == "nodes" and not r.exact and r.horizon is not None and r.nodes >= max_nodes
            assert _brackets(r, true_value), (pos.to_string(), max_nodes, r.lower, r.upper, true_value)
            bounded += r.lower is not None or r.upper is not None
        clear_tables()
        r = solve(pos, Limit(nodes=1100))
        assert r.complete or _brackets(r, true_value)
        full = solve(pos)
        assert full.complete and full.value == true_value, pos.to_string()
    assert stopped >= len(positions)    # max_nodes=50 stops every one of them
    assert bounded > 0                  # and some stopped searches bound the value


def test_analyze_with_a_node_limit_lists_every_move() -> None:
    """A stopped analyze still lists every legal move, each with its depth-limited value and
    bounds (from the stopped exact try) around the true value."""
    pos = whole_rounds(Rules(), 54, 1)[0]
    clear_tables()
    rows = analyze(pos, Limit(nodes=50))
    exact = {r.move: r.value for r in analyze(pos)}
    assert sorted(map(str, (r.move for r in rows))) == sorted(map(str, pos.legal_moves()))
    assert not rows.exact and rows.horizon is not None and rows.stopped == "nodes"
    for r in rows:
        assert r.value is not None and not r.exact and r.horizon == rows.horizon
        assert _brackets(r, exact[r.move])


def _check_stopped_moves(pos: Position, r) -> list:
    """Problems with what a stopped search reports: every move it calls best must be optimal and
    its (possibly partial) principal variation must be optimal play for both sides."""
    problems = []
    true_best = set(solve(pos).best_moves)
    wrong = [str(m) for m in r.best_moves if m not in true_best]
    if wrong:
        problems.append(("best_moves", wrong, sorted(map(str, true_best))))
    node = pos
    for i, move in enumerate(r.pv):
        here = set(solve(node).best_moves)
        if move not in here:
            problems.append(("pv", i, str(move), sorted(map(str, here))))
            break
        node = node.play(move)
    return problems


# Found by test_stopped_searches_report_only_optimal_moves: stopped (max_nodes=1024, no table)
# while it marks the best root moves, solve lists 4d among them; 4d is worth -2, the value is 0.
STOPPED_WRONG_BEST = "4dCcCb/3s2b4b 2d7d3c5c 6d6cFcRc6sFsRs6b/Ad5dFdRdAc2c7cAs2s5sCsAb5b7bFbRb 3d4s7s4cCd3b 0/0 0 1 0"
# Stopped while it builds the pv, solve gives the pv ['4sx4d'], a move worth -6; the value is -5.
STOPPED_WRONG_PV = "5c4sRs/Ad7d2c 4d7b 3dFd3cRc2s3s5sFb/2d5d6dCdRdAc4c6c7cFcAs7sFsCs3b5bCbRb 6b2b6sAbCc4b 0/2 0 1 1"


@pytest.mark.parametrize("text", [STOPPED_WRONG_BEST, STOPPED_WRONG_PV], ids=["wrong_best", "wrong_pv"])
def test_stopped_search_reproducers(text: str) -> None:
    pos = Position.from_string(text)
    r = solve(pos, Limit(tt_mb=0, nodes=1024, horizon=0))     # the exact search alone
    assert _brackets(r, ref_value(pos))
    assert not _check_stopped_moves(pos, r), (text, _check_stopped_moves(pos, r))


@pytest.mark.parametrize("variant", ["default", "napola"])
def test_stopped_searches_report_only_optimal_moves(variant: str) -> None:
    """Whatever phase a limit interrupts (the value, the best moves, the pv), nothing reported is
    wrong: bounds hold the value, listed best moves are optimal, pv moves are optimal play, and
    analyze's exact move values are right."""
    rules = VARIANTS[variant]
    problems, stopped = [], 0
    for pos in random_positions(25, variant_seed(variant, 55), rules, deals_left=1, cards_in_hands=6):
        true_value = solve(pos).value
        move_values = {r.move: r.value for r in analyze(pos)}
        for max_nodes in (256, 512, 768):
            r = solve(pos, Limit(tt_mb=0, nodes=max_nodes, horizon=0))     # the exact search alone
            if r.complete:
                break
            stopped += 1
            if not _brackets(r, true_value):
                problems.append((pos.to_string(), max_nodes, "bounds", r.lower, r.upper, true_value))
            problems += [(pos.to_string(), max_nodes, *p) for p in _check_stopped_moves(pos, r)]
            for row in analyze(pos, Limit(tt_mb=0, nodes=max_nodes, horizon=0)):
                exact = move_values[row.move]
                if not _brackets(row, exact) or row.value not in (None, exact):
                    problems.append((pos.to_string(), max_nodes, "analyze", str(row.move), row, exact))
    assert stopped >= 10
    assert not problems, report(problems)


# --------------------------------------------------------------------------------------------
# Figures, and the end of the round
# --------------------------------------------------------------------------------------------

def _sane_table_figures(r) -> None:
    assert 0 <= r.tt_hits <= r.tt_probes
    assert r.tt_stores >= 0
    assert 0.0 <= r.tt_fill <= 1.0
    assert 0.0 <= r.tt_hit_rate <= 1.0
    assert r.seconds >= 0.0


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_node_counts_and_table_figures(variant: str) -> None:
    rules = VARIANTS[variant]
    positions = mixed_positions(rules, variant_seed(variant, 61), 6) + whole_rounds(rules, variant_seed(variant, 62), 1)
    for pos in positions:
        for kw in (dict(), dict(tt_mb=0.001), dict(full_window=True)):
            r = with_limit(solve, pos, **kw)
            assert r.nodes > 0, pos.to_string()
            _sane_table_figures(r)
        r = solve(pos, Limit(tt_mb=0))
        assert r.nodes > 0
        _sane_table_figures(r)
        assert r.tt_probes == r.tt_hits == r.tt_stores == 0 and r.tt_fill == 0.0
    # a whole round needs many nodes and uses the table (tiny endgames may skip it)
    pos = whole_rounds(rules, variant_seed(variant, 63), 1)[0]
    for kw in (dict(tt_mb=1.0), dict(tt_mb=0.001), dict(tt_mb=1.0, full_window=True)):
        r = with_limit(solve, pos, **kw)
        assert r.nodes > 1000 and r.tt_probes > 100 and r.tt_stores > 100 and r.tt_hits > 0, kw
        assert 0.0 < r.tt_fill <= 1.0
        _sane_table_figures(r)


def _random_round_ends(rules: Rules, seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    ends = []
    for pos in whole_rounds(rules, seed, count):
        while not pos.is_round_over():
            pos = pos.play(rng.choice(pos.legal_moves()))
        ends.append(pos)
    return ends


ROUND_OVER_POSITIONS = [
    "-/- - AdAc2d7d6c6s5bRbFsCs/7c7s6d6bAsAb3c - 2/1 1 1 0",
    "-/- 5d6cRbRs -/- - 0/0 0 1 -",             # nobody captured: the table is nobody's
    "-/- - 7d/Rb - 0/1 1 0 1",
]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_round_over_positions_solve_to_their_score(variant: str) -> None:
    rules = VARIANTS[variant]
    positions = (_random_round_ends(rules, variant_seed(variant, 71), 5)
                 + [with_rules(t, rules) for t in ROUND_OVER_POSITIONS])
    for pos in positions:
        for to_move in (0, 1):
            pos = Position(hands=((), ()), table=texts(pos.table), captured=(texts(pos.piles[0]), texts(pos.piles[1])),
                           scopas=pos.scopas, to_move=to_move, dealer=pos.dealer,
                           last_capturer=pos.last_capturer, rules=rules)
            assert pos.is_round_over() and pos.legal_moves() == []
            margin = pos.round_score().margin(to_move)
            assert margin == ref_value(pos), pos.to_string()
            r = solve(pos)
            assert r.complete and r.value == r.lower == r.upper == margin, pos.to_string()
            assert r.best_moves == [] and r.pv == []
            assert r.outcome == pos.round_score()
            assert analyze(pos) == []
            assert solve_many([pos, pos], Limit(threads=2))[1].value == margin
            assert solve_values([pos]) == [margin]


def test_ctrl_c_interrupts_a_long_search_promptly() -> None:
    """SIGINT during a kernel search (GIL released) raises KeyboardInterrupt within moments."""
    import os
    import signal
    import threading
    import time

    pos = whole_rounds(Rules(), 61, 1)[0]
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    start = time.process_time()     # CPU seconds: the work done, whatever the machine's load
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        for _ in range(1000):                   # without the table a whole round takes long
            solve(pos, Limit(tt_mb=0))
    assert time.process_time() - start < 2.0
    timer.join()
    assert solve(pos).complete                  # the next search runs normally


def test_ctrl_c_interrupts_a_threaded_batch() -> None:
    import os
    import signal
    import threading
    import time

    positions = whole_rounds(Rules(), 62, 40)
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    start = time.process_time()     # CPU seconds: the work done, whatever the machine's load
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solve_many(positions, Limit(threads=2, tt_mb=0))
    assert time.process_time() - start < 2.0
    timer.join()
    assert all(r.complete for r in solve_many(positions[:2], Limit(threads=2)))


def test_table_region_grows_with_the_search_and_shrinks_on_clear() -> None:
    """The table works in a cache-sized region of its memory, doubles it (moving entries) when
    one search fills half of it and halves it after searches that use little; values do not
    change; clear() goes back to the start."""
    from scopa_solver import _kernel
    everything = WANT_BEST | WANT_PV | WANT_ALL
    table, plain = _kernel.Searcher(64.0), _kernel.Searcher(0)
    first = table.table_stats()["active"]
    assert 0 < first < table.table_stats()["capacity"]
    regions = []
    # under napola (no answers from other piles there) round 30 stores about 19,000 entries:
    # more than half the first region
    for seed in (0, 1, 30):
        pos = Position.new_round(seed=seed, rules=Rules(napola=True)).kernel_state()
        got, want = table.search(pos, everything), plain.search(pos, everything)
        assert (got.lower, got.upper, sorted(got.best), got.move_bounds) == (want.lower, want.upper, sorted(want.best), want.move_bounds)
        regions.append(table.table_stats()["active"])
    assert regions[0] == first and regions[-1] >= 2 * first
    # searches that use little of the region halve it again, one step each
    small = [p.kernel_state() for p in random_positions(6, 77, deals_left=0, cards_in_hands=6)]
    shrinking = []
    for pos in small:
        got, want = table.search(pos, everything), plain.search(pos, everything)
        assert (got.lower, sorted(got.best), got.move_bounds) == (want.lower, sorted(want.best), want.move_bounds)
        shrinking.append(table.table_stats()["active"])
    assert shrinking[-1] == first and all(a >= b for a, b in zip(shrinking, shrinking[1:]))
    table.clear()
    stats = table.table_stats()
    assert stats["active"] == first and stats["filled"] == 0
