"""`scopa-solver puzzle`: a shipped puzzle asked and checked, its answer, JSON, lists, a record's puzzles."""
from __future__ import annotations

import json
import random

import pytest

from helpers import run_cli

from scopa_solver import Position, Rules, analyze
from scopa_solver.play.puzzles import GAMES, Puzzle, shipped, verify
from scopa_solver.play.record import GameRecord, RoundRecord


def chosen(seed: int, game=None, tag=None) -> Puzzle:
    return random.Random(seed).choice(shipped(game, tag))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_answer_of_a_puzzle_of_every_game(capsys, game):
    code, out, err = run_cli(capsys, "puzzle", "--game", game, "--seed", "4", "--answer")
    assert code == 0 and err == "", err
    p = chosen(4, game)
    pos = p.to_position()
    assert f"Puzzle: {pos.rules.name}" in out
    assert f"Player {pos.to_move} to move: one move keeps {p.value:+d}, every other gets {p.second:+d}" in out
    assert f"answer: {p.best} keeps {p.value:+d}" in out
    assert "best line:    " + p.best in out
    assert ("All cards are shown" in out) == (not p.fair)


def test_a_right_move_typed_is_told_so(capsys):
    p = chosen(7, "scopa", "primiera")
    code, out, err = run_cli(capsys, "puzzle", "--game", "scopa", "--tag", "primiera", "--seed", "7",
                             stdin=f"zz\n{p.best}\n")
    assert code == 0, err
    assert "'zz' is not a card" in out           # bad input explained, asked again
    assert f"right: {p.best} keeps {p.value:+d}" in out and "primiera" in out.split("what decides it:")[1]


def test_a_wrong_move_typed_gets_its_value(capsys):
    p = chosen(7, "scopa-6")
    rows = analyze(p.to_position())
    wrong = next(r for r in rows if str(r.move) != p.best)
    code, out, err = run_cli(capsys, "puzzle", "--game", "scopa-6", "--seed", "7", stdin=f"{wrong.move}\n")
    assert code == 0, err
    assert f"not the one: {wrong.move} gets {wrong.value:+d} ({p.value - wrong.value} less)" in out
    assert f"answer: {p.best}" in out


def test_end_of_input_shows_the_answer(capsys):
    code, out, err = run_cli(capsys, "puzzle", "--seed", "1", stdin="")
    assert code == 0 and "(no move given)" in out and "answer: " in out


def test_json_and_list(capsys):
    code, out, err = run_cli(capsys, "puzzle", "--game", "scientifico", "--seed", "2", "--json")
    data = json.loads(out)
    p = chosen(2, "scientifico")
    assert code == 0 and Puzzle.from_dict(data) == p and data["best_line"][0] == p.best
    assert data["fair"] is False and data["name"] == "Scopone scientifico"
    code, out, err = run_cli(capsys, "puzzle", "--tag", "settebello", "--list", "--json")
    data = json.loads(out)
    assert data["count"] == len(shipped(tag="settebello")) == len(data["puzzles"])
    code, out, err = run_cli(capsys, "puzzle", "--game", "scopa-15", "--list")
    assert code == 0 and len(out.splitlines()) == len(shipped("scopa-15"))


@pytest.mark.parametrize("argv,message", [
    (["--game", "chess"], "invalid choice: 'chess'"),
    (["--tag", "mate"], "invalid choice: 'mate'"),
    (["--game", "scopa-3", "--tag", "re-bello"], "no puzzle shipped of game scopa-3 and tag re-bello"),
    (["--player", "Ann"], "--player picks a player of a game record"),
    (["--from", "/no/such/file.json"], "cannot read"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "puzzle", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_puzzles_from_a_record(capsys, tmp_path):
    start = pos = Position.new_round(seed=5)
    moves = []
    while not pos.is_round_over():
        moves.append(pos.legal_moves()[-1])
        pos = pos.play(moves[-1])
    rec = GameRecord(rules=Rules(), players=("Ann", "Bob"), kind="rounds")
    rec.add_round(RoundRecord.from_play(start, moves))
    path = tmp_path / "game.json"
    rec.save(path)
    code, out, err = run_cli(capsys, "puzzle", "--from", str(path), "--player", "Ann", "--list", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["count"] >= 1
    for d in data["puzzles"]:
        p = Puzzle.from_dict(d)
        assert verify(p) and p.where.endswith(", Ann") and d["found"] == (p.played == p.best)
    code, out, err = run_cli(capsys, "puzzle", "--from", str(path), "--player", "Ann", "--seed", "1", "--answer")
    assert code == 0 and "Puzzle: Scopa, from round 1, move " in out and "in the game: " in out
    code, out, err = run_cli(capsys, "puzzle", "--from", str(path), "--player", "Zed")
    assert code == 2 and "no player 'Zed'" in err
