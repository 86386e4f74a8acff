"""/api/puzzle: a shipped puzzle with its board and the answer's lines; bad games and tags are 422."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from scopa_solver.play.puzzles import Puzzle, shipped, solution  # noqa: E402
from scopa_solver.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def test_a_puzzle_with_its_board_and_lines(client):
    r = client.post("/api/puzzle", json={"game": "scopone", "tag": "sweep", "seed": 5})
    assert r.status_code == 200, r.text
    data = r.json()
    expected = random.Random(5).choice(shipped("scopone", "sweep"))
    assert Puzzle.from_dict(data["puzzle"]) == expected and data["puzzle"]["fair"] is False
    assert data["board"]["notation"] == expected.position and expected.best in data["board"]["legal"]
    s = solution(expected)
    assert data["best_line"] == [str(m) for m in s.best_line] and data["second_move"] == str(s.second_move)
    assert data["seed"] == 5


def test_any_puzzle_and_a_fresh_seed(client):
    data = client.post("/api/puzzle", json={}).json()
    assert Puzzle.from_dict(data["puzzle"]) in shipped() and isinstance(data["seed"], int)


@pytest.mark.parametrize("body,message", [
    ({"game": "chess"}, "no game 'chess'"),
    ({"tag": "mate"}, "no tag 'mate'"),
    ({"game": "scopa-3", "tag": "re-bello"}, "no shipped puzzle"),
    ({"seed": -1}, "seed"),
])
def test_bad_games_tags_and_seeds_are_422(client, body, message):
    r = client.post("/api/puzzle", json=body)
    assert r.status_code == 422 and message in r.json()["error"], r.text


# -- puzzles from my games: /api/puzzle/record ----------------------------------------------------------

def _record():
    from scopa_solver import GameRecord, GreedyBot, Position, RandomBot, RoundRecord, play_round
    start = Position.new_round(seed=2)
    record = GameRecord(players=("Greedy", "Random"))
    record.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=2)).moves))
    return record


def test_puzzles_from_a_round_of_a_record(client):
    from scopa_solver.play.puzzles import puzzles_from_record
    record = _record()
    expected = puzzles_from_record(record, "Random", rounds=[1])
    assert expected
    r = client.post("/api/puzzle/record", json={"record": record.to_json(), "round": 1, "player": "Random"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["round"] == 1 and data["player"] == "Random"
    assert [Puzzle.from_dict(d["puzzle"]) for d in data["puzzles"]] == expected
    for d, p in zip(data["puzzles"], expected):
        assert d["board"]["notation"] == p.position and d["puzzle"]["where"].endswith(", Random")
        assert d["best_line"] == [str(m) for m in solution(p).best_line]
    every = client.post("/api/puzzle/record", json={"record": record.to_json()}).json()
    assert len(every["puzzles"]) == len(puzzles_from_record(record)) > len(expected)


@pytest.mark.parametrize("body,message", [
    ({"round": 2}, "round"),
    ({"player": "Zed"}, "no player 'Zed'"),
    ({"record": "{}"}, "record"),
])
def test_bad_record_puzzle_requests_are_422(client, body, message):
    r = client.post("/api/puzzle/record", json={"record": _record().to_json(), **body})
    assert r.status_code == 422 and message in r.json()["error"], r.text
