"""Playing rounds and matches with move choosers (every game of the family), dealing new
rounds, and random_position."""
from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest

from helpers import games

from scopa_solver import IllegalMoveError, Move, Position, Rules, RulesError, ScopaError, play_match, play_round
from scopa_solver.core.cards import ALL_MASK, iter_cards, popcount
from scopa_solver.core.flow import match_winner
from scopa_solver.errors import PositionError
from scopa_solver.play import game
from scopa_solver.play.game import random_position

GAMES = games("scopa", "scopa a 15", "3 players", "4 players", "4 alone", "6 players", "6 alone", "scopone",
              more={"scopa a 15 optional": Rules(capture="fifteen", optional_capture=True),
                    "scientifico last sweep": Rules(players=4, game="scientifico", last_sweep_counts=True)})


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

ROUNDS = [("scopa", seed) for seed in range(6)] + [(name, len(name)) for name in GAMES if name != "scopa"]


@pytest.mark.parametrize("name, seed", ROUNDS)
def test_play_round_plays_every_game_to_the_end(name: str, seed: int) -> None:
    rules = GAMES[name]
    n = rules.players
    start = Position.new_round(seed=seed, rules=rules, dealer=seed % n)
    turns = []

    def seat_chooser(seat: int):
        rng = random.Random(seed + 100 * seat)

        def choose(pos: Position):
            assert pos.to_move == seat          # each chooser plays its own seat only
            turns.append(seat)
            return rng.choice(pos.legal_moves())
        return choose

    result = play_round(start, *[seat_chooser(s) for s in range(n)])
    final = result.final
    assert result.start == start and final.is_round_over()
    assert len(result.moves) == 40 - rules.table_start == len(turns) == len({m.card for m in result.moves})
    assert rules.players != 2 or len(result.moves) == 36
    assert Counter(turns) == {s: (40 - rules.table_start) // n for s in range(n)}
    assert turns[0] == (start.dealer + 1) % n
    # the 40 cards are all in the piles (or on the table, for the leftovers of no capture at all)
    masks = list(final.piles) + [final.table]
    assert sum(map(popcount, masks)) == 40 and (final.table | sum(final.piles)) == ALL_MASK
    assert result.score == final.round_score()
    assert result.points == final.round_score().total and len(result.points) == rules.side_count
    data = result.to_dict()
    assert data["points"] == list(result.points) and Position.from_string(data["final"]) == final
    assert data["moves"] == [str(m) for m in result.moves]
    # replaying the recorded moves reaches the same end
    pos = start
    for move in result.moves:
        pos = pos.play(move)
    assert pos == final


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


@pytest.mark.parametrize("name, seed, cheater", [("scopa", 21, 0), ("scopa", 21, 1), ("4 players", 4, "leader")])
def test_play_round_illegal_choice_names_the_player(name: str, seed: int, cheater) -> None:
    rules = GAMES[name]
    n = rules.players
    start = Position.new_round(seed=seed, rules=rules)
    if cheater == "leader":
        cheater = (start.dealer + 1) % n

    def cheat(pos: Position) -> Move:
        return Move(next(iter_cards(pos.hands[(pos.to_move + 1) % n])))     # the next seat's card

    choosers = [first_move] * n
    choosers[cheater] = cheat
    with pytest.raises(IllegalMoveError, match=f"player {cheater}'s chooser returned an illegal move.*does not hold"):
        play_round(start, *choosers)


@pytest.mark.parametrize("name", ["3 players", "4 players", "scientifico last sweep"])
def test_play_round_wants_one_chooser_per_seat(name: str) -> None:
    rules = GAMES[name]
    start = Position.new_round(seed=1, rules=rules)
    with pytest.raises(ScopaError, match=f"one chooser per seat: {rules.players} for {rules.players} players, not 2"):
        play_round(start, first_move, first_move)
    with pytest.raises(TypeError, match="seat 1"):
        play_round(start, first_move, "first", *[first_move] * (rules.players - 2))


def test_play_round_illegal_capture_names_the_player() -> None:
    pos = Position(hands=("7s 5c", "Rb 2c"), table="7c 5s 2b Ad", dealer=1)
    with pytest.raises(IllegalMoveError, match="player 0") as info:
        play_round(pos, lambda p: "7sx5s+2b", first_move)
    assert "7sx5s+2b" in str(info.value)


# --------------------------------------------------------------------------------------------
# play_match
# --------------------------------------------------------------------------------------------

MATCHES = ([("scopa", seed, first_dealer, target) for seed, first_dealer, target in [(1, 1, 11), (2, 0, 11), (3, 1, 21), (4, 0, 1)]]
           + [(name, 7, None, 4) for name in GAMES])


@pytest.mark.parametrize("name, seed, first_dealer, target", MATCHES)
def test_play_match_reaches_the_target_rotating_the_deal(name: str, seed: int, first_dealer, target: int) -> None:
    """From the first dealer (the last seat unless given) the deal passes to the next seat; the
    match ends at the first round after which one side alone has the highest total, at the target."""
    rules = Rules(**{**GAMES[name].changes(), "target": target})
    n = rules.players
    result = play_match(*[random_chooser(seed + 50 * s) for s in range(n)], rules=rules, seed=seed,
                        first_dealer=first_dealer)
    first = n - 1 if first_dealer is None else first_dealer
    assert [r.start.dealer for r in result.rounds] == [(first + i) % n for i in range(len(result.rounds))]
    totals = [0] * rules.side_count
    for i, r in enumerate(result.rounds):
        assert r.start.rules == rules and r.final.is_round_over() and r.score == r.final.round_score()
        assert len(r.moves) == 40 - rules.table_start
        totals = [t + p for t, p in zip(totals, r.points)]
        decided = max(totals) >= target and totals.count(max(totals)) == 1
        assert decided == (i == len(result.rounds) - 1) == (match_winner(totals, target) is not None), (i, totals)
    assert tuple(totals) == result.totals and len(result.totals) == rules.side_count
    w = result.winner
    assert result.totals[w] >= target and all(result.totals[w] > t for s, t in enumerate(result.totals) if s != w)
    data = result.to_dict()
    assert data["totals"] == list(result.totals) and len(data["rounds"]) == len(result.rounds)
    again = play_match(*[random_chooser(seed + 50 * s) for s in range(n)], rules=GAMES[name], seed=seed,
                       first_dealer=first_dealer, target=target)
    assert again.totals == result.totals and [r.moves for r in again.rounds] == [r.moves for r in result.rounds]
    assert again.rounds[0].start.rules == rules


def test_play_match_is_deterministic_for_a_seed() -> None:
    a = play_match(first_move, first_move, seed=77)
    b = play_match(first_move, first_move, seed=77)
    assert [r.start for r in a.rounds] == [r.start for r in b.rounds]
    assert a.totals == b.totals and a.winner == b.winner
    c = play_match(first_move, first_move, seed=78)
    assert [r.start for r in c.rounds] != [r.start for r in a.rounds]


def scripted(monkeypatch, totals: list) -> list:
    """Make play_match's rounds score `totals` in order; return the positions dealt."""
    dealt, scores = [], iter(totals)

    def fake_play_round(position, *choosers):
        dealt.append(position)
        return game.RoundResult(start=position, final=position, moves=[],
                                score=SimpleNamespace(total=next(scores)))  # type: ignore[arg-type]
    monkeypatch.setattr(game, "play_round", fake_play_round)
    return dealt


def never_called(pos):
    raise AssertionError("chooser called")


def test_three_sides_tied_at_the_target_play_on_and_the_highest_total_wins(monkeypatch) -> None:
    # 11 / 11 / 4: two sides reached the target together with the same total, nobody has won;
    # then 11 / 11 / 12: the third side passes both and wins
    dealt = scripted(monkeypatch, [(6, 6, 0), (5, 5, 4), (0, 0, 8)])
    result = play_match(never_called, never_called, never_called, rules=Rules(players=3), seed=1)
    assert result.totals == (11, 11, 12) and result.winner == 2 and len(result.rounds) == 3
    assert [p.dealer for p in dealt] == [2, 0, 1]


def test_three_sides_over_the_target_the_unique_highest_wins(monkeypatch) -> None:
    scripted(monkeypatch, [(6, 6, 0), (6, 7, 5)])
    result = play_match(never_called, never_called, never_called, rules=Rules(players=3), seed=1)
    assert result.totals == (12, 13, 5) and result.winner == 1


def test_partnerships_tied_over_the_target_play_another_round(monkeypatch) -> None:
    dealt = scripted(monkeypatch, [(5, 6), (7, 6), (1, 1), (0, 2)])
    result = play_match(*[never_called] * 4, rules=Rules(players=4, game="scientifico"), seed=1, first_dealer=1)
    assert result.totals == (13, 15) and result.winner == 1 and len(result.rounds) == 4
    assert [p.dealer for p in dealt] == [1, 2, 3, 0]


def test_play_match_bad_arguments() -> None:
    with pytest.raises(ScopaError, match="one chooser per seat: 3 for 3 players, not 2"):
        play_match(first_move, first_move, rules=Rules(players=3))
    with pytest.raises(ScopaError, match="first_dealer must be a seat, 0 to 3"):
        play_match(*[first_move] * 4, rules=Rules(players=4), first_dealer=4)
    with pytest.raises(ScopaError, match="rules must be a Rules value"):
        play_match(first_move, first_move, rules="players=4")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="target must be a whole number of points, 1 or more, not 0"):
        play_match(first_move, first_move, target=0)


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


# --------------------------------------------------------------------------------------------
# random_position: a seeded position of any game, for the CLI and the benchmarks
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_random_position_every_game(name: str) -> None:
    rules = GAMES[name]
    n, deals = rules.players, rules.deals
    start = random_position(5, rules=rules)
    assert start.is_round_start() and start == random_position(5, rules=rules)
    for left in range(deals):
        pos = random_position(5, left, rules)
        assert pos.deals_left == left and pos.hand_sizes() == (rules.hand_size,) * n and pos == random_position(5, left, rules)
        assert pos.to_move == (pos.dealer + 1) % n
    for k in range(1, rules.hand_size + 1):
        pos = random_position(5, rules=rules, cards_per_hand=k)
        assert pos.hand_sizes() == (k,) * n and pos.deals_left == deals - 1
        assert pos.to_move == (pos.dealer + 1) % n
    last = random_position(5, 0, rules, cards_per_hand=1)
    assert last.deals_left == 0 and last.hand_sizes() == (1,) * n


def test_random_position_two_players_unchanged() -> None:
    # the seeded two-player positions of the CLI and the benchmarks stay the same
    pos = random_position(11, 2)
    rng = random.Random(11)
    expect = Position.new_round(seed=11)
    while expect.deals_left > 2 or sum(expect.hand_sizes()) != 6:
        expect = expect.play(rng.choice(expect.legal_moves()))
    assert pos == expect


def test_random_position_bad_arguments() -> None:
    with pytest.raises(PositionError, match="deals_left must be 0 to 0"):
        random_position(1, 1, Rules(players=4, game="scopone"))
    with pytest.raises(PositionError, match="deals_left must be 0 to 3"):
        random_position(1, 4, Rules(players=3))
    with pytest.raises(PositionError, match="cards_per_hand must be 1 to 10"):
        random_position(1, rules=Rules(players=4, game="scientifico"), cards_per_hand=11)
    with pytest.raises(PositionError, match="cards_per_hand must be 1 to 3"):
        random_position(1, rules=Rules(players=3), cards_per_hand=0)
    with pytest.raises(PositionError, match="rules must be a Rules value"):
        random_position(1, rules="players=3")  # type: ignore[arg-type]
