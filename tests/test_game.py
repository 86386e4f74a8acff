"""Playing rounds and matches with move choosers, and dealing new rounds."""
from __future__ import annotations

import random

import pytest

from scopa_solver import IllegalMoveError, Move, Position, Rules, play_match, play_round
from scopa_solver.core.cards import ALL_MASK, iter_cards


def random_chooser(seed: int):
    rng = random.Random(seed)
    return lambda pos: rng.choice(pos.legal_moves())


def first_move(pos: Position) -> Move:
    return pos.legal_moves()[0]


def kings_on_table(pos: Position) -> int:
    return sum(1 for i in (9, 19, 29, 39) if pos.table >> i & 1)


# --------------------------------------------------------------------------------------------
# play_round
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_play_round_from_a_new_round_plays_36_moves_to_the_end(seed: int) -> None:
    start = Position.new_round(seed=seed, dealer=seed % 2)
    result = play_round(start, random_chooser(seed), random_chooser(seed + 100))
    assert result.start == start
    assert len(result.moves) == 36
    assert len({m.card for m in result.moves}) == 36
    assert result.final.is_round_over()
    assert result.final.piles[0] | result.final.piles[1] | result.final.table == ALL_MASK
    assert result.score == result.final.round_score()
    # replaying the recorded moves reaches the same end
    pos = start
    for move in result.moves:
        pos = pos.play(move)
    assert pos == result.final


def test_play_round_choosers_play_only_their_own_turns() -> None:
    start = Position.new_round(seed=3)
    turns = []

    def chooser(player: int):
        def choose(pos: Position) -> Move:
            assert pos.to_move == player
            turns.append(player)
            return pos.legal_moves()[-1]
        return choose

    result = play_round(start, chooser(0), chooser(1))
    assert turns.count(0) == turns.count(1) == 18
    assert turns[0] == 1 - start.dealer


def test_play_round_accepts_move_text() -> None:
    start = Position.new_round(seed=8)
    as_text = play_round(start, lambda p: str(first_move(p)), lambda p: str(first_move(p)))
    as_moves = play_round(start, first_move, first_move)
    assert as_text.moves == as_moves.moves and as_text.final == as_moves.final


def test_play_round_from_the_middle_of_a_round() -> None:
    pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)
    result = play_round(pos, first_move, first_move)
    assert len(result.moves) == 4
    assert result.final.is_round_over()
    assert result.score.total == result.final.round_score().total


def test_play_round_on_a_finished_round_plays_nothing() -> None:
    over = Position(hands=((), ()), captured=("7d 3c", "Rb"), last_capturer=0)
    result = play_round(over, first_move, first_move)
    assert result.moves == [] and result.final == over


@pytest.mark.parametrize("cheater", [0, 1])
def test_play_round_illegal_choice_names_the_player(cheater: int) -> None:
    start = Position.new_round(seed=21)

    def cheat(pos: Position) -> Move:
        return Move(next(iter_cards(pos.hands[1 - pos.to_move])))     # a card of the opponent

    choosers = [first_move, first_move]
    choosers[cheater] = cheat
    with pytest.raises(IllegalMoveError, match=f"player {cheater}") as info:
        play_round(start, *choosers)
    assert "does not hold" in str(info.value)


def test_play_round_illegal_capture_names_the_player() -> None:
    pos = Position(hands=("7s 5c", "Rb 2c"), table="7c 5s 2b Ad", dealer=1)
    with pytest.raises(IllegalMoveError, match="player 0") as info:
        play_round(pos, lambda p: "7sx5s+2b", first_move)
    assert "7sx5s+2b" in str(info.value)


# --------------------------------------------------------------------------------------------
# play_match
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, first_dealer, target", [(1, 1, 11), (2, 0, 11), (3, 1, 21), (4, 0, 1)])
def test_play_match_reaches_the_target_alternating_the_deal(seed, first_dealer, target) -> None:
    rules = Rules(target=target)
    result = play_match(random_chooser(seed), random_chooser(seed + 50), rules=rules, seed=seed,
                        first_dealer=first_dealer)
    assert [r.start.dealer for r in result.rounds] == [(first_dealer + i) % 2 for i, _ in enumerate(result.rounds)]
    assert all(r.start.rules == rules and len(r.moves) == 36 for r in result.rounds)
    totals = [0, 0]
    for i, r in enumerate(result.rounds):
        assert r.score == r.final.round_score()
        totals = [totals[p] + r.score.total[p] for p in (0, 1)]
        decided = max(totals) >= target and totals[0] != totals[1]
        assert decided == (i == len(result.rounds) - 1), (i, totals)
    assert tuple(totals) == result.totals
    w = result.winner
    assert result.totals[w] >= target and result.totals[w] > result.totals[1 - w]


def test_play_match_is_deterministic_for_a_seed() -> None:
    a = play_match(first_move, first_move, seed=77)
    b = play_match(first_move, first_move, seed=77)
    assert [r.start for r in a.rounds] == [r.start for r in b.rounds]
    assert a.totals == b.totals and a.winner == b.winner
    c = play_match(first_move, first_move, seed=78)
    assert [r.start for r in c.rounds] != [r.start for r in a.rounds]


# --------------------------------------------------------------------------------------------
# new_round
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 12345, 2 ** 63 + 5])
def test_new_round_is_deterministic_for_a_seed(seed: int) -> None:
    a, b = Position.new_round(seed=seed), Position.new_round(seed=seed)
    assert a == b and a.to_string() == b.to_string()
    assert Position.new_round(seed=seed + 1) != a


@pytest.mark.parametrize("dealer", [0, 1])
def test_new_round_deals_3_3_4_and_a_stock_of_30(dealer: int) -> None:
    pos = Position.new_round(seed=9, dealer=dealer)
    assert [bin(h).count("1") for h in pos.hands] == [3, 3]
    assert bin(pos.table).count("1") == 4
    assert len(pos.stock) == 30 and pos.deals_left == 5
    assert pos.piles == (0, 0) and pos.scopas == (0, 0) and pos.last_capturer is None
    assert pos.dealer == dealer and pos.to_move == 1 - dealer
    assert pos.cards_in_play() == ALL_MASK


def test_new_round_never_leaves_three_kings_on_the_table() -> None:
    assert all(kings_on_table(Position.new_round(seed=s)) < 3 for s in range(3000))


def test_new_round_can_leave_three_kings_without_the_redeal_rule() -> None:
    off = Rules(redeal_three_kings=False)
    seeds = [s for s in range(6000) if kings_on_table(Position.new_round(seed=s, rules=off)) >= 3]
    assert seeds, "no deal with 3+ kings on the table in 6000 seeds"
    for s in seeds:
        # the same seed with the rule on was dealt again
        assert kings_on_table(Position.new_round(seed=s)) < 3
    # without three kings the rule changes nothing: the same deal either way
    assert Position.new_round(seed=1, rules=off).hands == Position.new_round(seed=1).hands
