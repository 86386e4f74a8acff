"""Puzzles: the shipped set re-verified against the exact solver, the finder's puzzles unique-best,
the tags what the two lines say, puzzles from a played game."""
from __future__ import annotations

import json

import pytest

from scopa_solver import Limit, Position, Rules, analyze
from scopa_solver.errors import PuzzleError
from scopa_solver.play.puzzles import (GAMES, TAGS, Puzzle, find_puzzles, game_name, puzzle_at, puzzles_from_record,
                                       read_puzzles, shipped, solution, tag, verify)
from scopa_solver.play.record import GameRecord, RoundRecord

SETTEBELLO = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1)


def is_unique_best(p: Puzzle) -> bool:
    """Straight from `analyze`: one move of the puzzle's value, every other a point or more below."""
    rows = analyze(p.to_position())
    values = [r.value for r in rows]
    return (str(rows[0].move) == p.best and values[0] == p.value and values.count(p.value) == 1
            and max(values[1:]) == p.second <= p.value - 1)


# -- the shipped set --------------------------------------------------------------------------------

def test_the_shipped_set_covers_every_game_with_500_puzzles_or_more():
    puzzles = shipped()
    assert len(puzzles) >= 500
    assert {p.game for p in puzzles} == set(GAMES)
    assert all(len(shipped(game)) >= 50 for game in GAMES)
    assert len({p.position for p in puzzles}) == len(puzzles)
    assert all(p.tags and set(p.tags) <= set(TAGS) for p in puzzles)


def test_every_shipped_puzzle_solves_again_to_its_answer():
    # every shipped puzzle, re-solved by the exact solver (a few seconds in all)
    wrong = [p for p in shipped() if not is_unique_best(p) or not verify(p)]
    assert not wrong, wrong[:3]


def test_every_shipped_puzzle_is_of_its_game():
    for p in shipped():
        assert game_name(p.to_position().rules) == p.game


def test_shipped_puzzles_by_game_and_tag():
    scopone = shipped("scopone", "settebello")
    assert scopone and all(p.game == "scopone" and "settebello" in p.tags for p in scopone)
    with pytest.raises(PuzzleError, match="no game 'chess'"):
        shipped("chess")
    with pytest.raises(PuzzleError, match="no tag 'mate'"):
        shipped(tag="mate")


def test_the_two_player_puzzles_show_only_what_the_player_knows():
    # the last deal of two-player Scopa: the unseen cards are the opponent's hand
    assert all(p.fair for p in shipped("scopa"))
    assert not all(p.fair for p in shipped("scopa-4"))


def test_the_shipped_tags_are_the_lines_tags():
    for game in GAMES:
        for p in shipped(game)[:8]:
            assert tag(p) == p.tags


# -- the finder -------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", list(GAMES))
def test_the_finder_finds_unique_best_puzzles(game):
    puzzles = find_puzzles(game, 4, seed=3)
    assert len(puzzles) == 4
    for p in puzzles:
        assert is_unique_best(p)
        assert p.game == game and len(p.to_position().legal_moves()) >= 3
        assert not p.to_position().stock        # the last deal
    assert find_puzzles(game, 4, seed=3) == puzzles       # seeded
    assert find_puzzles(game, 4, seed=4) != puzzles


def test_the_finder_takes_rules_and_refuses_unknown_games():
    assert find_puzzles(Rules(players=3), 1, seed=1)[0].game == "scopa-3"
    with pytest.raises(PuzzleError, match="no game 'scopa-5'"):
        find_puzzles("scopa-5", 1)


def test_a_position_with_two_best_moves_is_no_puzzle():
    # both lay-downs lose the same; the capture is best: a puzzle. One card, two equal
    # captures: no puzzle.
    assert puzzle_at(SETTEBELLO) is not None
    tie = Position(hands=("5d 5c", "Rb"), table="2s", dealer=0)
    rows = analyze(tie)
    assert rows[0].value == rows[1].value
    assert puzzle_at(tie) is None


def test_verify_rejects_a_wrong_answer():
    p = puzzle_at(SETTEBELLO)
    assert p is not None and verify(p)
    assert not verify(Puzzle(**{**p.__dict__, "best": "2c"}))
    assert not verify(Puzzle(**{**p.__dict__, "value": 4}))
    assert not verify(Puzzle(**{**p.__dict__, "second": -5}))
    assert not verify(Puzzle(**{**p.__dict__, "game": "scopa-3"}))


# -- the tags ---------------------------------------------------------------------------------------

def test_the_lines_margins_add_up_to_the_values():
    # the best line ends at the puzzle's value, the second-best line at the second-best value: the
    # lines are optimal play, and the tags are where the best one does better
    for game in GAMES:
        for p in shipped(game)[::25]:
            s = solution(p)
            best, second = s.margins(s.best_score), s.margins(s.second_score)
            assert sum(best.values()) == p.value and sum(second.values()) == p.second
            assert s.best_line[0] == p.best_move()
            assert s.tags() == tuple(t for t in TAGS if best[t] > second[t])


def test_the_settebello_capture_is_tagged():
    s = solution(SETTEBELLO)
    assert s.best_score.settebello == 0 and s.second_score.settebello == 1
    assert {"settebello", "sweep"} <= set(tag(SETTEBELLO))
    assert s.scopas[0] == (0,)      # the best move itself sweeps


def test_a_scopa_denied_is_tagged():
    # player 1 holds 2d Fd 3c, player 0 Fc 5b, the table 6s: laying 2d lets Fc take 2d + 6s, a
    # scopa; 3c keeps the table out of the 8's reach
    pos = Position.from_string("Fc5b/2dFd3c 6s Ad3d4dCdCcAs2s4sCsAb2b4bCb/5d6d7dRdAc2c4c5c6c7cRc3s5s7sFsRs3b6b"
                               "7bFbRb - 1/0 1 1 0")
    p = puzzle_at(pos)
    assert p is not None and p.best == "3c"
    assert "scopa-denied" in p.tags and "sweep" not in p.tags
    s = solution(p)
    assert [str(m) for m in s.second_line[:2]] == ["2d", "Fcx2d+6s"]
    assert s.scopas == ((), (1,))


# -- the value type ---------------------------------------------------------------------------------

def test_a_puzzle_round_trips_through_dict_json_and_repr():
    p = puzzle_at(SETTEBELLO)
    assert Puzzle.from_dict(json.loads(json.dumps(p.to_dict()))) == p
    assert eval(repr(p)) == p
    mine = Puzzle(**{**p.__dict__, "played": "2c", "where": "round 1, move 1, Ann"})
    assert mine.found is False and eval(repr(mine)) == mine
    assert Puzzle.from_dict(mine.to_dict()) == mine and mine.to_dict()["found"] is False


@pytest.mark.parametrize("data,message", [
    ([], "a JSON object"),
    ({"position": "x", "best": "7d", "value": 1}, "needs second"),
    ({"position": "x", "best": "7d", "value": 1, "second": 2}, "below its value"),
    ({"position": "x", "best": "7d", "value": "1", "second": 0}, "value is a whole number"),
    ({"position": "x", "best": "7d", "value": 1, "second": 0, "tags": "sweep"}, "tags are a list"),
])
def test_bad_puzzle_data_is_a_puzzle_error(data, message):
    with pytest.raises(PuzzleError, match=message):
        Puzzle.from_dict(data)


def test_bad_lines_name_their_number():
    with pytest.raises(PuzzleError, match="set.jsonl, line 2"):
        read_puzzles(['{"position": "-/- - - 0/0 0 1 -", "best": "x", "value": 1, "second": 0}', "{"], "set.jsonl")


# -- puzzles from my games --------------------------------------------------------------------------

def played_record(rules: Rules = Rules(), seed: int = 5) -> GameRecord:
    start = pos = Position.new_round(seed=seed, rules=rules)
    moves = []
    k = 0
    while not pos.is_round_over():
        legal = pos.legal_moves()
        moves.append(legal[k % len(legal)])
        pos = pos.play(moves[-1])
        k += 1
    rec = GameRecord(rules=rules, players=[f"P{i}" for i in range(rules.players)], kind="rounds")
    rec.add_round(RoundRecord.from_play(start, moves))
    return rec


def test_puzzles_from_a_record_are_its_unique_best_decisions():
    rec = played_record()
    puzzles = puzzles_from_record(rec)
    assert puzzles
    played = {pos.to_string(): move for _, _, pos, move in rec.positions() if move is not None}
    for p in puzzles:
        assert verify(p) and p.played == str(played[p.position])
        assert p.found == (p.played == p.best)
        assert p.where.startswith("round 1, move ")
    # every decision that is a puzzle is found
    expected = [pos for pos in map(Position.from_string, played) if puzzle_at(pos, tags=False) is not None
                and len(pos.legal_moves()) >= 2]
    assert len(puzzles) == len(expected)


def test_puzzles_from_a_record_of_one_player():
    rec = played_record()
    mine = puzzles_from_record(rec, "P1")
    assert mine and all(p.where.endswith(", P1") for p in mine)
    assert puzzles_from_record(rec, 1) == mine
    with pytest.raises(PuzzleError, match="no player 'Zed'"):
        puzzles_from_record(rec, "Zed")
    assert puzzles_from_record(rec, "P1", rounds=[1]) == mine
    for bad in (0, 2, True):
        with pytest.raises(PuzzleError, match=f"no round {bad!r}: the record has rounds 1 to 1"):
            puzzles_from_record(rec, rounds=[bad])


def test_puzzles_from_a_family_record_pass_over_the_slow_decisions():
    rec = played_record(Rules(players=4, game="scopone"), seed=2)
    puzzles = puzzles_from_record(rec, limit=Limit(nodes=20_000))
    assert puzzles and all(verify(p) for p in puzzles)
    assert all(p.game == "scopone" for p in puzzles)


def test_the_script_rebuilds_the_shipped_set(tmp_path):
    from scopa_solver.play.puzzles import SET_FOLDER, main
    assert main([str(tmp_path), "scopa-15"]) == 0
    assert (tmp_path / "scopa-15.jsonl").read_bytes() == (SET_FOLDER / "scopa-15.jsonl").read_bytes()
