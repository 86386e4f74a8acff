"""Property tests: the package (kernel + Python layer) against the slow reference oracle.

(a) legal moves and successors on random positions reached by random play, every variant;
(b) the round score of random splits of the deck, every variant, total and breakdown;
(c) the notation round-trips on all of those positions;
(d) whole random rounds: the 40 cards are conserved, and the two engines agree step by step.
Everything is seeded, so a failure names a reproducible position.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Optional

import pytest

from helpers import VARIANTS, move_set, random_positions, ref_rules, to_ref
import reference
from reference import DECK, RefState
from scopa_solver import Move, Position, Rules
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
