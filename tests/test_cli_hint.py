"""The terminal game's ``hint`` command: the fair suggestion from the human's view, recorded as
help in the saved game record, counted by the review (issue 45)."""
from __future__ import annotations

import builtins
import re

import pytest

from helpers import run_cli
from scopa_solver.play import hints
from scopa_solver.play.record import GameRecord


@pytest.fixture(autouse=True)
def short_hints(monkeypatch):
    monkeypatch.setattr(hints, "HINT_SECONDS", 0.2)


def test_hint_in_the_terminal_is_shown_played_and_recorded(capsys, monkeypatch, tmp_path):
    """The human asks twice, plays what was hinted, then plays the first legal move; the record
    keeps both hints as help and the review counts them."""
    seen: list[str] = []
    state = {"hints": 0, "play_hint": False, "listed": False}

    def scripted(prompt: str = "") -> str:
        seen.append(capsys.readouterr().out)       # what the game said since the last question
        text = "".join(seen)
        if state["play_hint"]:                     # play the move just hinted
            state["play_hint"] = False
            return re.findall(r"hint: play (\S+)", text)[-1]
        if state["hints"] < 2:
            state["hints"] += 1
            state["play_hint"] = True
            return "hint"
        if state["listed"]:                        # play the first legal move listed
            state["listed"] = False
            return re.findall(r"your legal moves: ([^,\s]+)", text)[-1]
        state["listed"] = True
        return "moves"

    monkeypatch.setattr(builtins, "input", scripted)
    path = tmp_path / "game.json"
    code, out, err = run_cli(capsys, "play", "--bot", "greedy", "--seed", "3", "--rounds", "1", "--save", str(path))
    seen.append(out)
    text = "".join(seen)
    assert code == 0, err
    assert len(re.findall(r"hint: play \S+ \(fair value [+-]\d+\.\d\d points\); from your view", text)) == 2
    assert "recorded as help" in text
    rec = GameRecord.load(path)
    help_ = rec.rounds[0].help
    assert [h.seat for h in help_] == [0, 0] and rec.hints_used() == {"you": 2}
    r = rec.replay()[0]
    for h in help_:          # each hint was for the human's move then, and that move was played
        assert r.positions[h.move - 1].to_move == 0 and str(r.moves[h.move - 1]) == h.suggested
    code, out, err = run_cli(capsys, "review", str(path), "--no-fair", "--max-nodes", "1000")
    assert code == 0, err
    assert "hints asked for: you 2" in out
