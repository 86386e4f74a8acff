"""Property tests: the package (kernel + Python layer) against the slow reference oracle
(tests/reference.py; the reference itself is pinned to the rule books in test_reference.py).

Two-player Scopa under each rule variant (helpers.VARIANTS), through Position:
(a) legal moves and successors on random positions reached by random play;
(b) the round score of random splits of the deck, total and breakdown;
(c) the notation round-trips on all of those positions;
(d) whole random rounds: the 40 cards are conserved, and the package and the reference agree
step by step.
Every game, with rule options combined (helpers.REF_GAMES):
(e) through the kernel: moves, plays and events, the last play's sweep, scores, values, every
move's value and max^n;
(f) through the Python face (Position, Rules, solve), two players with options combined, and the
rule that deals three kings on the table again.
Everything is seeded, so a failure names a reproducible position (``RefState.show()``).
"""
from __future__ import annotations

import dataclasses
import random
from functools import lru_cache
from typing import Optional

import pytest

from helpers import (REF_GAME_NAMES, REF_GAMES, VARIANTS, card_mask, from_kernel, kernel_order, move_set,
                     package_rules, random_positions, ref_rules, rule_bits, to_kernel, to_ref, unpack)
import reference
from reference import DECK, RefRules, RefState
from scopa_solver import Card, Move, Position, Rules, kernel, solve
from scopa_solver.core.flow import redeal_needed
from scopa_solver.core.cards import ALL_MASK, iter_cards

VARIANT_NAMES = list(VARIANTS)
POSITIONS_PER_VARIANT = 720        # x 7 variants = 5,040 positions reached by random play
SPLITS = 5000                      # each scored under every variant
ROUNDS_PER_VARIANT = 25

# Rules with the options that only the notation cares about, so their tokens round-trip too.
EXTRA_RULES = {
    "everything": Rules(asso_piglia_tutto=True, ace_sweep_is_scopa=True, re_bello=True, napola=True,
                        fewest_cards=True, primiera_missing_suit="zero", redeal_three_kings=False,
                        target=21),
    "single_round": Rules(target=1, re_bello=True),
}


def texts(mask: int) -> frozenset[str]:
    return frozenset(str(c) for c in iter_cards(mask))


def package_state(pos: Position) -> tuple:
    """The package's position; its stock as the deals it makes, 3 cards to each player, the
    non-dealer first (read by the reference's rule; the order within a 3-card part plays no part)."""
    deals = reference.deals_of_stock([str(c) for c in pos.stock], 2, pos.dealer)
    return (texts(pos.hands[0]), texts(pos.hands[1]), texts(pos.table), texts(pos.piles[0]),
            texts(pos.piles[1]), tuple(pos.scopas), pos.to_move, pos.dealer, pos.last_capturer, deals)


def reference_state(state: RefState) -> tuple:
    return (state.hands[0], state.hands[1], state.table, state.piles[0], state.piles[1], tuple(state.scopas),
            state.to_move, state.dealer, state.last_capturer, state.deals)


@lru_cache(maxsize=None)
def played_positions(variant: str) -> tuple[Position, ...]:
    seed = 1000 + VARIANT_NAMES.index(variant)
    return tuple(random_positions(POSITIONS_PER_VARIANT, seed=seed, rules=VARIANTS[variant]))


# --------------------------------------------------------------------------------------------
# (a) legal moves and successors
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_legal_moves_and_successors_match_reference(variant: str) -> None:
    rng = random.Random(7 + VARIANT_NAMES.index(variant))
    positions = played_positions(variant)
    assert len(positions) == POSITIONS_PER_VARIANT
    finished = 0
    for pos in positions:
        ref = to_ref(pos)
        assert reference_state(ref) == package_state(pos), pos.to_string()
        assert move_set(pos) == ref.moves(), pos.to_string()
        if pos.is_round_over():
            finished += 1
            continue
        move = rng.choice(pos.legal_moves())
        after = pos.play(move)
        ref_after = ref.play((str(move.card), frozenset(str(c) for c in move.captures)))
        assert package_state(after) == reference_state(ref_after), f"{pos.to_string()} {move}"
        scored = ref_after.scopas[pos.to_move] - ref.scopas[pos.to_move]
        assert pos.is_scopa(move) == bool(scored), f"{pos.to_string()} {move}"
    # the sample covers the start, the middle and the end of rounds
    assert 0 < finished < len(positions) // 10
    assert {p.deals_left for p in positions} == {0, 1, 2, 3, 4, 5}


# --------------------------------------------------------------------------------------------
# (b) scoring random splits of the deck
# --------------------------------------------------------------------------------------------

def random_split(rng: random.Random) -> tuple[list[str], list[str], tuple[int, int]]:
    """Random piles 0 and 1 (the rest is out of play) and scopas for players who captured."""
    style = rng.randrange(4)
    piles: list[list[str]] = [[], []]
    p_out = (0.0, 0.0, 0.15, 0.6)[style]
    for card in DECK:
        r = rng.random()
        if r < p_out:
            continue
        piles[rng.random() < (0.5 if style != 1 else 0.3)].append(card)
    if style == 0 and rng.random() < 0.3:      # a long coin run in one pile: napola of every length
        owner = rng.randrange(2)
        run = [r + "d" for r in "A234567FCR"[:rng.randrange(3, 11)]]
        piles[owner] = [c for c in piles[owner] if c not in run] + run
        piles[1 - owner] = [c for c in piles[1 - owner] if c not in run]
    scopas = tuple(rng.randrange(4) if piles[p] else 0 for p in (0, 1))
    return piles[0], piles[1], scopas  # type: ignore[return-value]


@lru_cache(maxsize=None)
def deck_splits() -> tuple:
    rng = random.Random(2024)
    return tuple(random_split(rng) for _ in range(SPLITS))


def split_position(pile0: list[str], pile1: list[str], scopas: tuple[int, int], rules: Rules) -> Position:
    last: Optional[int] = 0 if pile0 else (1 if pile1 else None)
    return Position(hands=((), ()), captured=(pile0, pile1), scopas=scopas, last_capturer=last, rules=rules)


def strictly_more(a: int, b: int) -> Optional[int]:
    return 0 if a > b else 1 if b > a else None


def holder(card: str, piles: tuple[list[str], list[str]]) -> Optional[int]:
    return 0 if card in piles[0] else 1 if card in piles[1] else None


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_round_score_matches_reference_on_random_splits(variant: str) -> None:
    rules = VARIANTS[variant]
    rref = ref_rules(rules)
    seen = {"carte tie": 0, "denari tie": 0, "primiera tie": 0, "missing suit": 0, "napola": 0,
            "nobody has the settebello": 0}
    for pile0, pile1, scopas in deck_splits():
        pos = split_position(pile0, pile1, scopas, rules)
        assert pos.is_round_over()
        score = pos.round_score()
        where = pos.to_string()
        want = reference.score((pile0, pile1), scopas, rref)
        assert score.total == tuple(want["points"]), where

        piles = (pile0, pile1)
        prim = tuple(reference.primiera_of(p, rules.primiera_missing_suit) for p in piles)
        for p in (0, 1):
            player = score.players[p]
            assert player.cards == len(piles[p]), where
            assert player.coins == sum(c.endswith("d") for c in piles[p]), where
            assert player.settebello == ("7d" in piles[p]), where
            assert player.primiera == prim[p], where
            assert player.napola == (reference.napola_of(piles[p]) if rules.napola else 0), where
            assert player.scopas == scopas[p], where
            assert player.points == score.total[p], where
        assert score.carte == strictly_more(len(pile0), len(pile1)), where
        assert score.denari == strictly_more(score.players[0].coins, score.players[1].coins), where
        assert score.settebello == holder("7d", piles), where
        assert score.re_bello == (holder("Rd", piles) if rules.re_bello else None), where
        if prim[0] is not None and prim[1] is not None:
            expected_primiera = strictly_more(prim[0], prim[1])
        else:
            expected_primiera = 0 if prim[0] is not None else 1 if prim[1] is not None else None
        assert score.primiera == expected_primiera, where
        # the reference's breakdown, player by player and category by category
        assert [(pl.cards, pl.coins, pl.primiera, pl.napola, pl.scopas) for pl in score.players] == \
            list(zip(want["cards"], want["coins"], want["primiera"], want["napola"], want["scopas"])), where
        assert (score.carte, score.denari, score.settebello, score.primiera, score.re_bello) == \
            (want["carte"], want["denari"], want["settebello"], want["primiera_winner"], want["re_bello"]), where

        seen["carte tie"] += score.carte is None
        seen["denari tie"] += score.denari is None
        seen["primiera tie"] += prim[0] is not None and prim[0] == prim[1]
        seen["missing suit"] += any(reference.primiera_of(p) is None for p in piles)
        seen["napola"] += max(reference.napola_of(p) for p in piles) > 0
        seen["nobody has the settebello"] += score.settebello is None
    # the random splits reach every special case of the scoring rules
    assert all(count > 0 for count in seen.values()), seen


# --------------------------------------------------------------------------------------------
# (c) notation round trips
# --------------------------------------------------------------------------------------------

def assert_round_trip(pos: Position) -> None:
    text = pos.to_string()
    again = Position.from_string(text)
    assert again == pos, text
    assert again.to_string() == text
    assert hash(again) == hash(pos)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_notation_round_trips_on_played_positions(variant: str) -> None:
    for pos in played_positions(variant):
        assert_round_trip(pos)


def test_notation_round_trips_on_split_positions() -> None:
    rules_cycle = list(VARIANTS.values()) + list(EXTRA_RULES.values())
    for i, (pile0, pile1, scopas) in enumerate(deck_splits()):
        assert_round_trip(split_position(pile0, pile1, scopas, rules_cycle[i % len(rules_cycle)]))


@pytest.mark.parametrize("name", list(EXTRA_RULES))
def test_notation_round_trips_with_notation_only_options(name: str) -> None:
    rules = EXTRA_RULES[name]
    positions = list(random_positions(150, seed=99, rules=rules))
    for pos in positions:
        assert_round_trip(pos)
        assert Position.from_string(pos.to_string()).rules == rules
    assert any(p.stock for p in positions) and any(p.piles[0] | p.piles[1] for p in positions)


# --------------------------------------------------------------------------------------------
# (d) whole random rounds
# --------------------------------------------------------------------------------------------

def random_round(seed: int, rules: Rules) -> tuple[list[Position], list[Move]]:
    """Every position of one random round from a new deal, and the moves played."""
    rng = random.Random(seed)
    pos = Position.new_round(seed=rng.getrandbits(32), rules=rules, dealer=rng.randrange(2))
    line, moves = [pos], []
    while not pos.is_round_over():
        moves.append(rng.choice(pos.legal_moves()))
        pos = pos.play(moves[-1])
        line.append(pos)
    return line, moves


def places(pos: Position) -> list[int]:
    return [pos.hands[0], pos.hands[1], pos.table, pos.piles[0], pos.piles[1],
            sum(c.mask for c in pos.stock)]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_cards_are_conserved_through_whole_rounds(variant: str) -> None:
    for k in range(ROUNDS_PER_VARIANT):
        line, _ = random_round(500 + 31 * k + VARIANT_NAMES.index(variant), VARIANTS[variant])
        assert len(line) == 37                                   # 36 plays from a new round
        for pos in line:
            masks = places(pos)
            assert sum(bin(m).count("1") for m in masks) == 40, pos.to_string()
            union = 0
            for m in masks:
                assert union & m == 0, pos.to_string()
                union |= m
            assert union == ALL_MASK, pos.to_string()
            assert len(pos.stock) == 6 * pos.deals_left
        end = line[-1]
        assert end.is_round_over() and not end.stock and not end.hands[0] and not end.hands[1]
        if end.last_capturer is None:
            assert end.table == ALL_MASK
        else:
            assert end.table == 0
            assert end.piles[0] | end.piles[1] == ALL_MASK


def test_without_any_capture_the_cards_stay_on_the_table() -> None:
    pos = Position(hands=("Rb", "Cc"), table="5d", dealer=0)     # Cc, then Rb: 5+9 is no 10
    cards = pos.cards_in_play()
    while not pos.is_round_over():
        (move,) = pos.legal_moves()
        assert not move.is_capture
        pos = pos.play(move)
        assert pos.cards_in_play() == cards
    assert pos.last_capturer is None
    assert pos.table == cards and pos.piles == (0, 0)
    assert pos.round_score().total == to_ref(pos).points() == (0, 0)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_whole_rounds_agree_with_reference_step_by_step(variant: str) -> None:
    for k in range(ROUNDS_PER_VARIANT):
        line, moves = random_round(9000 + 17 * k + VARIANT_NAMES.index(variant), VARIANTS[variant])
        ref = to_ref(line[0])
        for before, move, after in zip(line, moves, line[1:]):
            assert move_set(before) == ref.moves(), before.to_string()
            ref = ref.play((str(move.card), frozenset(str(c) for c in move.captures)))
            assert package_state(after) == reference_state(ref), f"{before.to_string()} {move}"
        assert ref.is_over()
        assert line[-1].round_score().total == ref.points(), line[-1].to_string()


# --------------------------------------------------------------------------------------------
# (e) every game through the kernel
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
    """Walk one round in the kernel and the reference from ``s``; every position: the moves agree,
    the package keeps its state as the reference does, the successors (of every move, or of the
    one played) agree with their events; at the end the scores agree. Returns the positions checked."""
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
    assert same_score(kernel_score(s), reference.score(s.piles, s.scopas, rules)), s.show()
    return seen


def rounds_agree(name: str, rounds: int, seed: int) -> None:
    rules = REF_GAMES[name]
    rng = random.Random(seed * 100 + REF_GAME_NAMES.index(name))
    positions = 0
    for r in range(rounds):
        start = reference.random_state(rng, rules, plays_left=40 - rules.table_size())
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
        s = reference.random_state(rng, rules, plays_left=1)
        (card,) = s.hands[s.to_move]
        need = 15 - reference.card_value(card) if rules.capture == "fifteen" else reference.card_value(card)
        takers = [(seat, c) for seat, p in enumerate(s.piles) for c in sorted(p) if reference.card_value(c) == need]
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
    for card in reference.DECK:
        if rng.random() >= out:
            piles[rng.choices(range(n), weights=skew)[0]].append(card)
    if rng.random() < 0.3:                       # a coin run: napola of every length
        owner, run = rng.randrange(n), [r + "d" for r in reference.RANK_LETTERS[:rng.randrange(3, 11)]]
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
        want = reference.score(piles, scopas, rules)
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
    return [reference.random_state(rng, rules, plays_left=rng.choice(plays)) for _ in range(count)]


def values_agree(name: str, count: int, seed: int, plays: tuple) -> None:
    states = end_positions(name, count, seed, plays)
    results = kernel.run_batch([to_kernel(s) for s in states], want=kernel.WANT_ALL | kernel.WANT_BEST,
                               objective="value")
    for s, res in zip(states, results):
        values = reference.move_values(s)
        best = max(values.values())
        assert (res.lower, res.upper) == (best, best), s.show()
        assert reference.minimax(s, memo={}) == best
        moves = [unpack(p) for p in res.moves]
        assert set(moves) == set(values) and len(moves) == len(values), s.show()
        for move, (lo, hi) in zip(moves, res.move_bounds):
            assert lo <= values[move] <= hi, (s.show(), move, lo, hi, values[move])
            assert lo == hi or hi <= best, (s.show(), move)     # only a worse move may stay a bound
        assert {unpack(p) for p in res.best} == {m for m, v in values.items() if v == best}, s.show()


MANY_SIDES = [n for n in REF_GAME_NAMES if len(set(REF_GAMES[n].sides())) > 2]


@pytest.mark.parametrize("name", MANY_SIDES)
def test_paranoid_value_for_any_seat_agrees(name: str) -> None:
    # search_many(seat=...): the paranoid value of that seat's side (it maximises, the others
    # minimise), given for the side to move: negated when the mover is its opponent
    searcher = kernel.Searcher(16)
    for s in end_positions(name, 6, seed=5, plays=(3, 4, 5)):
        if s.is_over():
            continue
        sides = s.rules.sides()
        for seat in range(s.rules.players):
            got = searcher.search_many([to_kernel(s)], kernel.WANT_BEST, seat=seat)[0].lower
            want = reference.minimax(s, sides[seat], memo={})
            assert got == (want if sides[seat] == s.side_to_move() else -want), (seat, s.show())
    with pytest.raises(ValueError, match="seat"):
        searcher.search_many([to_kernel(s)], seat=s.rules.players)
    with pytest.raises(ValueError, match="seat"):
        searcher.search_many([to_kernel(s)], seat=-2)


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
        points, move = reference.maxn(s, order=kernel_order)
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
# (f) every game through the Python face (Position, Rules, solve)
# --------------------------------------------------------------------------------------------

def move_texts(moves) -> set:
    return {(str(m.card), frozenset(str(c) for c in m.captures)) for m in moves}


def positions_agree(name: str, rounds: int, seed: int) -> None:
    rules = REF_GAMES[name]
    prules = package_rules(rules)
    rng = random.Random(seed * 100 + REF_GAME_NAMES.index(name))
    for _ in range(rounds):
        deck = Position.shuffled_deck(seed=rng.getrandbits(32), rules=prules)
        dealer = rng.randrange(rules.players)
        s = reference.deal_round([str(c) for c in deck], rules, dealer)     # refuses a table to deal again
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
        got, want = pos.round_score(), reference.score(s.piles, s.scopas, rules)
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
    return Position.from_kernel_state(to_kernel(s), package_rules(s.rules))


@pytest.mark.parametrize("name", REF_GAME_NAMES)
def test_solve_agrees(name: str) -> None:
    for s in end_positions(name, 4, seed=3, plays=small_plays(name)[:3]):
        pos = package_position(s)
        assert from_kernel(pos.kernel_state(), s.rules) == s
        values = reference.move_values(s)
        best = max(values.values())
        result = solve(pos)
        assert result.value == best, s.show()
        assert move_texts(result.best_moves) == {m for m, v in values.items() if v == best}, s.show()
        points, move = reference.maxn(s, order=kernel_order)
        result = solve(pos, objective="maxn")
        assert result.value == points[s.side_to_move()] and tuple(result.points) == points, s.show()
        assert move_texts(result.best_moves[:1]) == {move}, s.show()


# Two players with rule options combined (the sections (a) to (d) take them one at a time):
# the reference's moves, plays, points and values against the package, from every point of a round.
TWO_PLAYERS = {
    "default": RefRules(),
    "apt-napola": RefRules(asso_piglia_tutto=True, napola=True),
    "fewest-rebello-zero": RefRules(fewest_cards=True, re_bello=True, primiera_missing_suit="zero"),
}


@pytest.mark.parametrize("name", list(TWO_PLAYERS))
def test_two_players_with_options_combined_agree(name: str) -> None:
    rules = TWO_PLAYERS[name]
    rng = random.Random(3)
    for _ in range(120):
        s = reference.random_state(rng, rules)
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
        s = reference.random_state(rng, rules, plays_left=rng.randrange(2, 7))
        assert solve(package_position(s)).value == reference.minimax(s), s.show()


@pytest.mark.parametrize("name", ["3p", "6p", "scopone", "scientifico"])
def test_redeal_rule_agrees(name: str) -> None:
    rules = REF_GAMES[name]
    rng = random.Random(REF_GAME_NAMES.index(name))
    kings = [c for c in reference.DECK if c[0] == "R"]
    for flag in (True, False):
        flagged = dataclasses.replace(rules, redeal_three_kings=flag)
        prules = package_rules(flagged)
        for _ in range(200):
            table = rng.sample(kings, rng.randrange(5)) + rng.sample(reference.DECK[:30], 2)
            table = table[:4] if rules.table_size() else []
            want = reference.needs_redeal(table, flagged)
            assert redeal_needed([Card.parse(c) for c in table], prules) == want, table
    prules = package_rules(rules)
    start = rules.players * rules.hand_size()
    for seed in range(200):
        deck = [str(c) for c in Position.shuffled_deck(seed=seed, rules=prules)]
        assert not reference.needs_redeal(deck[start:start + rules.table_size()], rules)
