"""The package against the reference (tests/reference.py) on every game: the family engine's
moves, plays, scores, values and max^n through the kernel, and the Python face (Position, Rules,
solve), two players included. The reference itself is pinned to the rule books in
test_reference.py.

Everything is seeded, so a failure names a reproducible position (``RefState.show()``).
"""
from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import (REF_GAME_NAMES, REF_GAMES, card_mask, cards_of, from_kernel, kernel_order, package_rules,
                     rule_bits, to_kernel, to_ref, unpack)

import reference as ref
from reference import RefRules, RefState, score
from scopa_solver import kernel

E = frozenset()


# --------------------------------------------------------------------------------------------
# The package's family engine against the reference
# --------------------------------------------------------------------------------------------

SCORE_KEYS = ("cards", "coins", "primiera", "napola", "scopas", "points", "carte", "denari", "settebello",
              "primiera_winner", "re_bello")


def kernel_score(s: RefState) -> dict:
    return kernel.score(tuple(card_mask(p) for p in s.piles), tuple(s.scopas), s.rules.sides(),
                               rule_bits(s.rules))


def same_score(got: dict, want: dict) -> bool:
    """The package's score breakdown equals the reference's (lists and tuples alike)."""
    return all((list(got[k]) if isinstance(got[k], (list, tuple)) else got[k]) == want[k] for k in SCORE_KEYS)


def check_round(s: RefState, rng: random.Random, every_move: bool) -> int:
    """Walk one round in both engines from ``s``; every position: the moves agree, the package
    keeps its state as the reference does, the successors (of every move, or of the one played)
    agree with their events; at the end the scores agree. Returns the positions checked."""
    rules, seen = s.rules, 0
    k = to_kernel(s)
    while True:
        assert from_kernel(k, rules) == s, s.show()
        assert sum(bin(m).count("1") for m in (*k.hands, k.table, *k.piles, *(h for d in k.deals for h in d))) == 40
        packed = kernel.legal_moves(k)
        assert len(set(packed)) == len(packed), s.show()
        assert {unpack(p) for p in packed} == s.moves(), s.show()
        seen += 1
        if s.is_over():
            break
        chosen = rng.randrange(len(packed))
        for i, p in enumerate(packed):
            if not every_move and i != chosen:
                continue
            move = unpack(p)
            where = f"{s.show()} move {move[0]}x{sorted(move[1])}"
            try:
                after, events = kernel.play(k, p)
            except ValueError as error:
                raise AssertionError(f"{where}: {error}") from None
            ref_after = s.play(move)
            assert from_kernel(after, rules) == ref_after, where
            assert events.scopa == (sum(ref_after.scopas) > sum(s.scopas)), where
            assert events.dealt == (len(ref_after.deals) < len(s.deals)), where
            table_left = (s.table - move[1]) if move[1] else s.table | {move[0]}
            ends_with_leftovers = ref_after.is_over() and ref_after.last_capturer is not None
            assert events.leftovers == (card_mask(table_left) if ends_with_leftovers else 0), where
            if ends_with_leftovers and table_left:
                assert events.leftovers_to == ref_after.last_capturer, where
            if i == chosen:
                next_pair = after, ref_after
        k, s = next_pair
    assert same_score(kernel_score(s), score(s.piles, s.scopas, rules)), s.show()
    return seen


def rounds_agree(name: str, rounds: int, seed: int) -> None:
    rules = REF_GAMES[name]
    rng = random.Random(seed * 100 + REF_GAME_NAMES.index(name))
    positions = 0
    for r in range(rounds):
        start = ref.random_state(rng, rules, plays_left=40 - rules.table_size())
        positions += check_round(start, rng, every_move=r % 2 == 0)
    assert positions == rounds * (41 - rules.table_size())


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_moves_plays_and_scores_agree(name: str) -> None:
    rounds_agree(name, 10, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_moves_plays_and_scores_agree_slow(name: str) -> None:
    rounds_agree(name, 300, seed=2)


def last_sweeps(name: str, count: int, seed: int) -> list:
    """Last plays that can sweep: a random state with one play left whose table is replaced by
    one card (taken from a pile) that the last card captures."""
    rules = REF_GAMES[name]
    rng = random.Random(seed * 100 + REF_GAME_NAMES.index(name))
    made = []
    while len(made) < count:
        s = ref.random_state(rng, rules, plays_left=1)
        (card,) = s.hands[s.to_move]
        need = 15 - ref.card_value(card) if rules.capture == "fifteen" else ref.card_value(card)
        takers = [(seat, c) for seat, p in enumerate(s.piles) for c in sorted(p) if ref.card_value(c) == need]
        if not takers:
            continue
        seat, taken = rng.choice(takers)
        piles = list(s.piles)
        piles[seat] = piles[seat] - {taken}
        piles[rng.randrange(rules.players)] |= s.table
        made.append(RefState(s.hands, [taken], piles, s.scopas, to_move=s.to_move, dealer=s.dealer,
                             last_capturer=seat, rules=rules))
    return made


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_the_last_play_sweep(name: str) -> None:
    rules = REF_GAMES[name]
    for s in last_sweeps(name, 20, seed=1):
        (move,) = [m for m in s.moves() if m[1]]
        after = s.play(move)
        assert after.is_over() and sum(after.scopas) - sum(s.scopas) == int(rules.last_sweep_counts)
        packed = [p for p in kernel.legal_moves(to_kernel(s)) if unpack(p) == move]
        k_after, events = kernel.play(to_kernel(s), packed[0])
        assert from_kernel(k_after, rules) == after, s.show()
        assert events.scopa == rules.last_sweep_counts and events.leftovers == 0, s.show()
        assert kernel_score(after)["points"] == after.score()["points"], s.show()


def random_piles(rng: random.Random, rules: RefRules) -> tuple:
    """Random piles per seat (some cards out of play) and scopas for seats that captured."""
    n = rules.players
    piles: list = [[] for _ in range(n)]
    out = rng.choice((0.0, 0.0, 0.2, 0.7))
    skew = [rng.random() + 0.05 for _ in range(n)]
    for card in ref.DECK:
        if rng.random() >= out:
            piles[rng.choices(range(n), weights=skew)[0]].append(card)
    if rng.random() < 0.3:                       # a coin run: napola of every length
        owner, run = rng.randrange(n), [r + "d" for r in ref.RANK_LETTERS[:rng.randrange(3, 11)]]
        piles = [[c for c in p if c not in run] for p in piles]
        piles[owner] += run
    scopas = tuple(rng.randrange(4) if p else 0 for p in piles)
    return tuple(frozenset(p) for p in piles), scopas


def scores_agree(name: str, count: int, seed: int) -> None:
    rules = REF_GAMES[name]
    rng = random.Random(seed * 100 + REF_GAME_NAMES.index(name))
    ties = 0
    for _ in range(count):
        piles, scopas = random_piles(rng, rules)
        got = kernel.score(tuple(card_mask(p) for p in piles), scopas, rules.sides(), rule_bits(rules))
        want = score(piles, scopas, rules)
        assert same_score(got, want), (piles, scopas)
        ties += want["carte"] is None or want["primiera_winner"] is None
    assert ties > 0          # shared tops and disqualified primiera are reached


@pytest.mark.parametrize("name", ["2p", "3p", "4p", "4p-alone-aces", "6p", "6p-alone-zero", "scopone"])
def test_score_lists_have_one_entry_per_side(name: str) -> None:
    rules = REF_GAMES[name]
    piles, scopas = random_piles(random.Random(1), rules)
    got = kernel.score(tuple(card_mask(p) for p in piles), scopas, rules.sides(), rule_bits(rules))
    for key in ("cards", "coins", "primiera", "napola", "scopas", "points"):
        assert len(got[key]) == rules.side_count(), (key, got[key])


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_scores_agree_on_random_piles(name: str) -> None:
    scores_agree(name, 400, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_scores_agree_on_random_piles_slow(name: str) -> None:
    scores_agree(name, 20000, seed=2)


def end_positions(name: str, count: int, seed: int, plays: tuple) -> list:
    rules = REF_GAMES[name]
    rng = random.Random(seed * 100 + REF_GAME_NAMES.index(name))
    return [ref.random_state(rng, rules, plays_left=rng.choice(plays)) for _ in range(count)]


def values_agree(name: str, count: int, seed: int, plays: tuple) -> None:
    states = end_positions(name, count, seed, plays)
    results = kernel.run_batch([to_kernel(s) for s in states], want=kernel.WANT_ALL | kernel.WANT_BEST,
                               objective="value")
    for s, res in zip(states, results):
        values = ref.move_values(s)
        best = max(values.values())
        assert (res.lower, res.upper) == (best, best), s.show()
        assert ref.minimax(s, memo={}) == best
        moves = [unpack(p) for p in res.moves]
        assert set(moves) == set(values) and len(moves) == len(values), s.show()
        for move, (lo, hi) in zip(moves, res.move_bounds):
            assert lo <= values[move] <= hi, (s.show(), move, lo, hi, values[move])
            assert lo == hi or hi <= best, (s.show(), move)     # only a worse move may stay a bound
        assert {unpack(p) for p in res.best} == {m for m, v in values.items() if v == best}, s.show()


def small_plays(name: str) -> tuple:
    """The last 4..8 plays; 3..6 where every card may also be laid down (the reference's trees
    grow much faster there)."""
    return (3, 4, 5, 6) if REF_GAMES[name].optional_capture else (4, 5, 6, 7, 8)


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_values_agree_on_round_ends(name: str) -> None:
    values_agree(name, 12, seed=1, plays=small_plays(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_values_agree_on_round_ends_slow(name: str) -> None:
    values_agree(name, 100, seed=2, plays=(4, 5, 6, 7) if REF_GAMES[name].optional_capture else (6, 8, 9, 10))


def maxn_agrees(name: str, count: int, seed: int, plays: tuple) -> None:
    states = end_positions(name, count, seed, plays)
    results = kernel.run_batch([to_kernel(s) for s in states], want=kernel.WANT_BEST,
                               objective="maxn")
    for s, res in zip(states, results):
        points, move = ref.maxn(s, order=kernel_order)
        mine = points[s.side_to_move()]
        assert (res.lower, res.upper) == (mine, mine), s.show()
        assert tuple(res.points) == points, s.show()
        if res.best is not None:
            assert unpack(res.best[0]) == move, s.show()


def last_deal(name: str) -> int:
    rules = REF_GAMES[name]
    return 3 * rules.players if rules.game == "scopa" else 8


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_maxn_agrees_on_the_last_plays(name: str) -> None:
    full = last_deal(name)
    maxn_agrees(name, 10, seed=1, plays=tuple(p for p in small_plays(name) if p <= full))


@pytest.mark.slow
@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_maxn_agrees_on_the_last_deal_slow(name: str) -> None:
    full = last_deal(name)
    if REF_GAMES[name].optional_capture:         # every card may also be laid down: a bushier tree
        plays = (4, 5, 6, 7)
    else:
        plays = (full,) if full <= 12 else (12, 13)
    maxn_agrees(name, 20, seed=2, plays=plays)


# --------------------------------------------------------------------------------------------
# The package's Python face (Position, Rules, solve) against the reference
# --------------------------------------------------------------------------------------------

def move_texts(moves) -> set:
    return {(str(m.card), frozenset(str(c) for c in m.captures)) for m in moves}


def positions_agree(name: str, rounds: int, seed: int) -> None:
    from scopa_solver import Position
    rules = REF_GAMES[name]
    prules = package_rules(rules)
    rng = random.Random(seed * 100 + REF_GAME_NAMES.index(name))
    for _ in range(rounds):
        deck = Position.shuffled_deck(seed=rng.getrandbits(32), rules=prules)
        dealer = rng.randrange(rules.players)
        s = ref.deal_round([str(c) for c in deck], rules, dealer)     # refuses a table to deal again
        pos = Position.from_deck(deck, dealer=dealer, rules=prules)
        assert pos.is_round_start()
        while True:
            assert from_kernel(pos.kernel_state(), rules) == s, s.show()
            assert move_texts(pos.legal_moves()) == s.moves(), s.show()
            if s.is_over():
                break
            move = rng.choice(pos.legal_moves())
            after = s.play((str(move.card), frozenset(str(c) for c in move.captures)))
            assert pos.is_scopa(move) == (sum(after.scopas) > sum(s.scopas)), s.show()
            pos, s = pos.play(move), after
        assert pos.is_round_over()
        got, want = pos.round_score(), score(s.piles, s.scopas, rules)
        assert list(got.total) == want["points"], s.show()
        assert [p.cards for p in got.sides] == want["cards"] and [p.primiera for p in got.sides] == want["primiera"]
        assert (got.carte, got.denari, got.settebello, got.primiera) == \
            (want["carte"], want["denari"], want["settebello"], want["primiera_winner"]), s.show()


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_package_positions_agree(name: str) -> None:
    positions_agree(name, 3, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_package_positions_agree_slow(name: str) -> None:
    positions_agree(name, 100, seed=2)


def package_position(s: RefState):
    from scopa_solver import Position
    return Position.from_kernel_state(to_kernel(s), package_rules(s.rules))


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_solve_agrees(name: str) -> None:
    from scopa_solver import solve
    for s in end_positions(name, 4, seed=3, plays=small_plays(name)[:3]):
        pos = package_position(s)
        assert from_kernel(pos.kernel_state(), s.rules) == s
        values = ref.move_values(s)
        best = max(values.values())
        result = solve(pos)
        assert result.value == best, s.show()
        assert move_texts(result.best_moves) == {m for m, v in values.items() if v == best}, s.show()
        points, move = ref.maxn(s, order=kernel_order)
        result = solve(pos, objective="maxn")
        assert result.value == points[s.side_to_move()] and tuple(result.points) == points, s.show()
        assert move_texts(result.best_moves[:1]) == {move}, s.show()


# Two players with rule options combined (test_against_reference.py takes them one at a time):
# the reference's moves, plays, points and values against the package, from every point of a round.
TWO_PLAYERS = {
    "default": RefRules(),
    "apt-napola": RefRules(asso_piglia_tutto=True, napola=True),
    "fewest-rebello-zero": RefRules(fewest_cards=True, re_bello=True, primiera_missing_suit="zero"),
}


@pytest.mark.parametrize("name", list(TWO_PLAYERS))
def test_two_players_with_options_combined_agree(name: str) -> None:
    from scopa_solver import solve
    rules = TWO_PLAYERS[name]
    rng = random.Random(3)
    for _ in range(120):
        s = ref.random_state(rng, rules)
        pos = package_position(s)
        assert to_ref(pos) == s, s.show()
        assert move_texts(pos.legal_moves()) == s.moves(), s.show()
        assert pos.round_score().total == s.points(), s.show()
        if s.is_over():
            continue
        move = rng.choice(pos.legal_moves())
        after = s.play((str(move.card), frozenset(str(c) for c in move.captures)))
        assert to_ref(pos.play(move)) == after, s.show()
    for _ in range(20):
        s = ref.random_state(rng, rules, plays_left=rng.randrange(2, 7))
        assert solve(package_position(s)).value == ref.minimax(s), s.show()


@pytest.mark.parametrize("name", ["3p", "6p", "scopone", "scientifico"])
def test_redeal_rule_agrees(name: str) -> None:
    from scopa_solver import Card, Position
    from scopa_solver.core.flow import redeal_needed
    rules = REF_GAMES[name]
    rng = random.Random(REF_GAME_NAMES.index(name))
    kings = [c for c in ref.DECK if c[0] == "R"]
    for flag in (True, False):
        flagged = dataclasses.replace(rules, redeal_three_kings=flag)
        prules = package_rules(flagged)
        for _ in range(200):
            table = rng.sample(kings, rng.randrange(5)) + rng.sample(ref.DECK[:30], 2)
            table = table[:4] if rules.table_size() else []
            want = ref.needs_redeal(table, flagged)
            assert redeal_needed([Card.parse(c) for c in table], prules) == want, table
    prules = package_rules(rules)
    start = rules.players * rules.hand_size()
    for seed in range(200):
        deck = [str(c) for c in Position.shuffled_deck(seed=seed, rules=prules)]
        assert not ref.needs_redeal(deck[start:start + rules.table_size()], rules)
