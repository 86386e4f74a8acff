"""The command line through `main(argv)`: output, --json against the library, bad input, play, review.

deal -> show -> solve -> analyze -> tree (JSON, GraphML, DOT) run for every game (helpers.GAMES)
and checked against the library; the arena and review of every game too. Every game at the table,
end to end: deal -> suggest on a view -> play a few moves typed on standard input (you with bot
partners against bot opponents, the other hands hidden), quit -> the saved record loads and
replays -> review; whole matches of bots (``play --auto``) for Scopone scientifico and 4-player
Scopa, reviewed."""
from __future__ import annotations

import builtins
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scopa_solver import (GreedyBot, Limit, Position, RandomBot, Rules, View, analyze, arena, solve, suggest)
import scopa_solver.cli.commands as commands
from scopa_solver.cli import main
from scopa_solver.core.cards import iter_cards
from scopa_solver.play.display import cards_line
from scopa_solver.play.record import GameRecord
from scopa_solver.play.review import FairReview, review
from scopa_solver.tree import read_tree

from helpers import GAMES, cli_text, games, run_cli, run_cli_json

ROOT = Path(__file__).resolve().parent.parent
LAST = "5c5bFd/4d6sRb 3c5dRs2b -/- - 0/0 0 1 -"
SMALL = "7d2c/4c3b 3s4s -/- - 0/0 0 1 -"
VIEW = "7cRs4b/?3 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb ?6 0/0 0 1 0"


run, run_json = run_cli, run_cli_json


# -- deal, show, solve, analyze, tree: every game ---------------------------------------------------

def rules_args(rules: Rules) -> list[str]:
    """`--rules` and the game's options, or nothing for the default game (two-player Scopa)."""
    return ["--rules", *rules.tokens()] if rules.tokens() else []


def small(capsys, rules: Rules, seed: int = 5) -> str:
    """`deal` of the game's last deal; for Scopone and scientifico (one deal) with three cards
    a hand, so that the whole round solves in milliseconds."""
    per_hand = 3 if rules.game != "scopa" else 0            # cards a hand (--cards-per-hand)
    extra = ["--cards-per-hand", str(per_hand)] if per_hand else []
    code, out, err = run(capsys, "deal", "--seed", str(seed), "--deals-left", "0", *extra, *rules_args(rules))
    assert code == 0 and err == "" and out.count("\n") == 1, err
    pos = Position.from_string(out.strip())
    if per_hand:
        assert pos.hand_sizes() == (per_hand,) * 4
    return pos.to_string()


@pytest.mark.parametrize("game", list(GAMES))
def test_deal_of_every_game(capsys, game):
    rules = GAMES[game]
    code, out, err = run(capsys, "deal", "--seed", "9", *rules_args(rules))
    assert code == 0 and err == "" and out.count("\n") == 1          # one line of notation
    assert Position.from_string(out.strip()) == Position.new_round(seed=9, rules=rules)
    assert run(capsys, "deal", "--seed", "9", *rules_args(rules))[1] == out      # seeded
    for left in range(rules.deals):
        code, out, err = run(capsys, "deal", "--seed", "9", "--deals-left", str(left), *rules_args(rules))
        pos = Position.from_string(out.strip())
        assert pos.rules == rules and pos.deals_left == left
        assert pos.hand_sizes() == (rules.hand_size,) * rules.players      # the first play of a deal
    code, out, err = run(capsys, "deal", "--deals-left", str(rules.deals), *rules_args(rules))
    assert code == 2 and err.count("\n") == 1 and f"0 to {rules.deals - 1}" in err


def test_deal_shows_answers_json_and_takes_a_rule_variant(capsys):
    code, out, _ = run(capsys, "deal", "--seed", "7", "--deals-left", "1")
    code, shown, _ = run(capsys, "deal", "--seed", "7", "--deals-left", "1", "--show")
    assert shown.splitlines()[0] == out.strip() and "table:" in shown and "stock:" in shown
    data = run_json(capsys, "deal", "--seed", "7", "--deals-left", "1")
    assert data["position"] == out.strip() and data["deals_left"] == 1
    code, out, _ = run(capsys, "deal", "--seed", "3", "--rules", "napola")
    assert Position.from_string(out.strip()).rules.napola


@pytest.mark.parametrize("game", list(GAMES))
def test_deal_show_solve_analyze_tree(capsys, tmp_path, game):
    text = small(capsys, GAMES[game])
    pos = Position.from_string(text)
    rules = pos.rules

    code, shown, err = run(capsys, "show", text)
    assert code == 0 and err == ""
    for p in range(rules.players):
        assert f"player {p}" in shown
        assert f"hand {' '.join(str(c) for c in iter_cards(pos.hands[p])) or '(none)'}" in shown
    assert "table:" in shown and f"stock: {len(pos.stock)} cards" in shown
    if rules.side_count < rules.players:
        assert all(f"side {k} (players" in shown for k in range(rules.side_count))
    assert run_json(capsys, "show", text)["position"] == pos.to_string()

    result = solve(pos)
    code, out, err = run(capsys, "solve", text)
    assert code == 0 and f"{result.value:+d}" in out
    if rules.players == 2:
        assert f"value for player {pos.to_move}: {result.value:+d}" in out
    assert ("paranoid value for side" in out) == (rules.side_count > 2)
    assert "best moves: " + " ".join(map(str, result.best_moves)) in out
    assert "principal variation: " + " ".join(map(str, result.pv)) in out
    assert "settebello" in out and "primiera" in out and "points" in out
    data = run_json(capsys, "solve", text)
    assert data["value"] == result.value and data["complete"]
    assert data["best_moves"] == [str(m) for m in result.best_moves]
    assert data["pv"] == [str(m) for m in result.pv]
    assert data["outcome"]["total"] == list(result.outcome.total)
    assert [p["points"] for p in data["outcome"]["players"]] == list(result.outcome.total)
    assert data["outcome"]["settebello"] == result.outcome.settebello
    assert set(data) == set(result.to_dict()) and data["position"] == pos.to_string()

    rows = analyze(pos)
    data = run_json(capsys, "analyze", text)
    assert [(r["move"], r["value"]) for r in data["moves"]] == [(str(r.move), r.value) for r in rows]
    assert data["to_move"] == pos.to_move
    if rules.players == 2:
        code, out, err = run(capsys, "analyze", text)
        assert code == 0
        for r in rows:
            assert re.search(rf"^{re.escape(str(r.move))}\s+{re.escape(f'{r.value:+d}')}\s", out, re.M)
        assert f"value for player {pos.to_move}: {rows[0].value:+d}" in out
    if rules.side_count > 2:
        maxn = run_json(capsys, "analyze", text, "--objective", "maxn")
        assert maxn["objective"] == "maxn"
        assert [r["value"] for r in maxn["moves"]] == [r.value for r in analyze(pos, objective="maxn")]
        data = run_json(capsys, "solve", text, "--objective", "maxn")
        assert data["points"] == list(solve(pos, objective="maxn").points)

    if rules.players == 2 and rules.capture == "standard":
        return          # the two-player trees of Scopa: tests/test_tree.py
    objective = "maxn" if rules.side_count > 2 else "value"
    for suffix in (".json", ".graphml", ".dot"):
        path = tmp_path / f"tree{suffix}"
        code, out, err = run(capsys, "tree", text, "--depth", "2", "--objective", objective, "-o", str(path))
        assert code == 0 and err == "" and out.startswith("minimax tree:"), err
        if suffix == ".dot":
            assert path.read_text().startswith("digraph")
            continue
        g = read_tree(path)
        assert g.nodes["/"]["value"] == (solve(pos, objective=objective).value)
        assert g.number_of_nodes() == 1 + len(pos.legal_moves()) + sum(
            len(pos.play(m).legal_moves()) for m in pos.legal_moves())
    data = run_json(capsys, "tree", text, "--mode", "pv")      # node-link data
    assert data["graph"]["pv"] == " ".join(map(str, result.pv))
    assert {e["move"] for e in data["edges"] if e["source"] == "/"} == {str(m) for m in pos.legal_moves()}
    code, out, err = run(capsys, "tree", text, "--depth", "1")
    assert code == 0 and out.splitlines()[0].startswith(pos.to_string())


def test_analyze_example(capsys):
    code, out, err = run(capsys, "analyze", "example")
    assert code == 0 and "move" in out and "value" in out
    assert run(capsys, "analyze")[1] == out


@pytest.mark.parametrize("game", ["3 players", "scientifico", "6 players"])
def test_the_example_of_every_game_solves(capsys, game):
    data = run_json(capsys, "solve", *rules_args(GAMES[game]))
    pos = Position.from_string(data["position"])
    assert pos.rules == GAMES[game] and max(pos.hand_sizes()) <= 3
    assert data["complete"] and data["value"] == solve(pos).value


def test_show(capsys):
    """The two-player picture (one line a player); four players sit around the table."""
    code, out, err = run(capsys, "show", SMALL)
    assert code == 0 and out == ("player 0 (to move): hand 7d 2c\n  captured 0 cards (0 coins), scopas 0\n"
                                 "table: 3s 4s\nplayer 1 (dealer): hand 4c 3b\n  captured 0 cards (0 coins), "
                                 "scopas 0\nstock: 0 cards (0 deals)\n")
    data = run_json(capsys, "show", SMALL)
    assert data["position"] == SMALL and data["legal_moves"] == ["7dx3s+4s", "2c"]


def test_show_draws_four_seats_around_the_table(capsys):
    text = small(capsys, GAMES["4 players"])
    code, out, err = run(capsys, "show", text)
    lines = out.splitlines()
    north = next(i for i, line in enumerate(lines) if "N  player 2" in line)
    west = next(i for i, line in enumerate(lines) if line.startswith("W  player 3"))
    south = next(i for i, line in enumerate(lines) if "S  player 0" in line)
    assert north < west < south and "E  player 1" in lines[west]
    assert lines[south].index("S") == lines[north].index("N")


def test_rules_option_applies_to_a_position(capsys):
    data = run_json(capsys, "analyze", SMALL, "--rules", "napola")
    assert data["position"].endswith(" napola")
    assert run_json(capsys, "analyze", SMALL + " napola", "--rules", "napola")["position"].endswith(" napola")
    code, _, err = run(capsys, "analyze", SMALL + " napola", "--rules", "re_bello")
    assert code == 2 and "disagree" in err


# -- suggest ---------------------------------------------------------------------------------------

def test_suggest_view_json_agrees_with_the_library(capsys):
    data = run_json(capsys, "suggest", VIEW, "--worlds", "30", "--seed", "5", "--threads", "1")
    s = suggest(View.from_string(VIEW), Limit(threads=1), worlds=30, seed=5, progress=False)
    assert data["view"] == VIEW and data["player"] == 0 and data["best"] == str(s.best)
    assert data["worlds"] == 30 and data["seed"] == 5 and not data["exact"] and data["total_worlds"] == 1680
    assert [(m["move"], m["mean"]) for m in data["moves"]] == [(str(m.move), pytest.approx(m.mean)) for m in s.moves]


def test_suggest_human_output_and_a_full_position(capsys):
    code, out, err = run(capsys, "suggest", VIEW, "--worlds", "all", "--threads", "1")
    assert code == 0
    assert "mean" in out and "stderr" in out and "1,680 of 1,680 worlds (all worlds, exact)" in out
    assert "best for player 0:" in out and "hidden cards" in out
    # a full position: the side to move's view
    pos = Position.from_string(run(capsys, "deal", "--seed", "7", "--deals-left", "1")[1].strip())
    data = run_json(capsys, "suggest", pos.to_string(), "--worlds", "10", "--seed", "1", "--threads", "1")
    assert data["view"] == pos.view(pos.to_move).to_string() and data["player"] == pos.to_move
    assert set(m["move"] for m in data["moves"]) == {str(m) for m in pos.legal_moves()}


# -- arena -----------------------------------------------------------------------------------------

def test_arena_json_agrees_and_saves_a_record(capsys, tmp_path):
    path = tmp_path / "arena.json"
    data = run_json(capsys, "arena", "greedy", "random", "--rounds", "2", "--seed", "4", "--save", str(path))
    lib = arena(GreedyBot(), RandomBot(seed=4), rounds=2, seed=4, progress=False)
    assert data["bot_a"] == "Greedy" and data["bot_b"] == "Random" and data["deals"] == 2
    assert data["mean"] == pytest.approx(lib.mean) and data["margins"] == pytest.approx(lib.margins)
    assert data["a_points"] == pytest.approx(lib.a_points) and data["saved"] == str(path)
    rec = GameRecord.load(path)
    assert rec.kind == "rounds" and len(rec.rounds) == 4 and rec.players == ("Greedy", "Random")
    replayed = rec.replay()
    greedy = sum(r.score.total[r.players.index("Greedy")] for r in replayed)
    assert greedy / 4 == pytest.approx(lib.a_points)
    code, out, err = run(capsys, "arena", "greedy", "greedy", "--rounds", "1", "--seed", "1")
    assert code == 0 and "Greedy A vs Greedy B" in out and "margin of Greedy A per round: +0.000" in out


class FirstMove:
    """A bot that needs no view: the first legal move."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, position: Position):
        return position.legal_moves()[0]


@pytest.mark.parametrize("game", ["3 players", "4 players", "4 alone"])
def test_arena_of_the_family_saves_a_record_that_reviews(capsys, monkeypatch, tmp_path, game):
    rules = GAMES[game]
    bots = rules.side_count
    monkeypatch.setattr(commands, "_make_bot", lambda spec, args, seed: FirstMove(spec))
    path = tmp_path / "arena.json"
    names = [f"b{k}" for k in range(bots)]
    data = run_json(capsys, "arena", *names, "--rounds", "1", "--seed", "2", "--save", str(path), *rules_args(rules))
    assert data["saved"] == str(path) and data["seed"] == 2
    code, out, err = run(capsys, "arena", *names[:-1], "--rounds", "1", *rules_args(rules)) \
        if bots > 2 else run(capsys, "arena", *names, "b9", "--rounds", "1", *rules_args(rules))
    assert code == 2 and f"has {bots} sides: give {bots} bots" in err and err.count("\n") == 1
    # the hindsight within a node cap: every decision of every round reviewed, the last plays
    # judged and the early ones over the cap (an exact review of the 24 rounds of four players
    # each alone took 14 s)
    review = run_json(capsys, "review", str(path), "--no-fair", "--max-nodes", "20000")
    assert review["game"] == str(path) and review["decisions"]
    assert {d["round"] for d in review["decisions"]} == {r["round"] for r in review["rounds"]}
    judged = [d["hindsight"]["judged"] for d in review["decisions"]]
    assert any(judged) and not all(judged)
    code, out, err = run(capsys, "review", str(path), "--no-fair", "--rules", "players=6")
    assert code == 2 and "disagrees with the record's own rules" in err


# -- play ------------------------------------------------------------------------------------------

class ScriptedPlayer:
    """Answers `input()` for player 0 against the GreedyBot in the game of `seed`: it mirrors the
    game, starts with bad input, prefers a card that can capture in several ways (answering the
    capture question wrongly once), and otherwise plays the first legal move."""

    def __init__(self, seed: int, stop_after: int = 10 ** 9, interrupt=EOFError):
        rng = random.Random(seed)
        self.pos = Position.from_deck(Position.shuffled_deck(rng.getrandbits(64)), dealer=1)
        self.bot = GreedyBot()
        self.script = ["", "zz", "help", "moves", "4", "Rs"]  # (seed 1: the hand is 3c Cs Rb)
        self.pending = None
        self.prompts: list[str] = []
        self.played: list[str] = []
        self.stop_after = stop_after
        self.interrupt = interrupt
        self.asked_capture = 0

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if prompt.startswith("which"):
            self.asked_capture += 1
            if self.asked_capture == 1:
                return "7"                      # not a choice: explained, asked again
            move, self.pending = self.pending, None
            self.pos = self.pos.play(move)
            self.played.append(str(move))
            return "1"
        if self.script:
            return self.script.pop(0)
        if len(self.played) >= self.stop_after:
            raise self.interrupt
        while self.pos.to_move != 0:
            self.pos = self.pos.play(self.bot(self.pos))
        moves = self.pos.legal_moves()
        multi = [m for m in moves if sum(1 for x in moves if x.card == m.card) > 1]
        if multi and self.asked_capture == 0:
            self.pending = multi[0]
            return str(multi[0].card)
        move = moves[0]
        if sum(1 for x in moves if x.card == move.card) > 1:
            self.pos = self.pos.play(move)
            self.played.append(str(move))
            return str(move)                    # a whole move
        self.pos = self.pos.play(move)
        self.played.append(str(move))
        return str(move.card)


def test_play_a_round_with_scripted_input(capsys, monkeypatch, tmp_path):
    player = ScriptedPlayer(seed=1)
    monkeypatch.setattr(builtins, "input", player)
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--bot", "greedy", "--seed", "1", "--rounds", "1", "--save", str(path))
    assert code == 0, err
    # the table, the hand, the piles and the score are shown
    assert "=== round 1: Greedy deals; score you 0, Greedy 0 ===" in out
    assert "table             7c As 3s 6b" in out and "you               3c Cs Rb" in out
    assert "captured  0 cards (0 coins), scopas 0" in out and "stock             30 cards (5 more deals)" in out
    # bad input is explained and asked again
    assert "type a card from your hand" in out
    assert "'zz' is not a card" in out and "Cards are rank then suit" in out
    assert "your legal moves: 3cx3s, Csx3s+6b, Rbx7c+3s, RbxAs+3s+6b" in out
    assert "you hold no card of that rank" in out and "you do not hold" in out
    assert "Rb can capture in 2 ways:" in out and "answer with a number from 1 to 2" in out
    assert "you play Rb and take 7c + 3s" in out
    assert "round 1 over:" in out and "points" in out and "match: you" in out
    assert f"game record saved to {path}" in out
    # the record replays the game exactly
    rec = GameRecord.load(path)
    assert rec.players == ("you", "Greedy") and rec.meta["seed"] == 1 and len(rec.rounds) == 1
    r = rec.replay()[0]
    assert r.finished and [str(m) for p, m in zip(r.positions, r.moves) if p.to_move == 0] == player.played
    assert r.start == Position.from_deck(Position.shuffled_deck(random.Random(1).getrandbits(64)), dealer=1)


def test_play_stops_cleanly_on_end_of_input_and_ctrl_c(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(builtins, "input", lambda prompt="": (_ for _ in ()).throw(EOFError))
    code, out, err = run(capsys, "play", "--bot", "random", "--seed", "2", "--save", str(tmp_path / "none.json"))
    assert code == 0 and "game stopped" in out and "nothing to save" in out
    assert not (tmp_path / "none.json").exists()
    # end of input after a few moves: the unfinished game is saved
    player = ScriptedPlayer(seed=1, stop_after=3)
    player.script = []
    monkeypatch.setattr(builtins, "input", player)
    path = tmp_path / "eof.json"
    code, out, err = run(capsys, "play", "--bot", "greedy", "--seed", "1", "--save", str(path))
    assert code == 0 and "game stopped" in out
    r = GameRecord.load(path).replay()[0]
    assert not r.finished and sum(1 for p in r.positions[:-1] if p.to_move == 0) == 3
    # Ctrl-C: saved too, exit code 130
    player = ScriptedPlayer(seed=1, stop_after=2, interrupt=KeyboardInterrupt)
    player.script = []
    monkeypatch.setattr(builtins, "input", player)
    path = tmp_path / "int.json"
    code, out, err = run(capsys, "play", "--bot", "greedy", "--seed", "1", "--save", str(path), "--json")
    assert code == 130 and "Traceback" not in err
    data = json.loads(out)
    assert data["record"] == str(path) and data["stopped"] == "interrupted" and data["winner"] is None
    assert len(GameRecord.load(path).replay()[0].moves) >= 2


def test_play_default_file_name(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    player = ScriptedPlayer(seed=1, stop_after=1)
    player.script = []
    monkeypatch.setattr(builtins, "input", player)
    code, out, err = run(capsys, "play", "--bot", "greedy", "--seed", "1")
    files = list(tmp_path.glob("scopa-game-*.json"))
    assert code == 0 and len(files) == 1 and re.fullmatch(r"scopa-game-\d{8}-\d{6}\.json", files[0].name)
    assert GameRecord.load(files[0]).players == ("you", "Greedy")


# -- review ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def arena_record(tmp_path_factory):
    path = tmp_path_factory.mktemp("review") / "game.json"
    assert main(["arena", "greedy", "random", "--rounds", "1", "--seed", "3", "--save", str(path), "--json"]) == 0
    return path


def test_review_output_and_json(capsys, arena_record):
    code, out, err = run(capsys, "review", str(arena_record), "--worlds", "3", "--threads", "1")
    assert code == 0
    assert "round 1:" in out and "round 2:" in out and "best (hindsight)" in out and "best (fair)" in out
    assert "summary" in out and re.search(r"^\s+Greedy\s+\d+\s+\d+", out, re.M)
    data = run_json(capsys, "review", str(arena_record), "--worlds", "3", "--threads", "1")
    lib = review(GameRecord.load(arena_record), Limit(threads=1), fair=FairReview(worlds=3, seed=0), progress=False)
    assert len(data["decisions"]) == len(lib.decisions) == 72
    assert [d["hindsight"]["loss"] for d in data["decisions"]] == [d.loss for d in lib.decisions]
    assert [d["mark"] for d in data["decisions"]] == [d.mark for d in lib.decisions]
    assert [s["name"] for s in data["summary"]] == ["Greedy", "Random"]
    # the seats swap between the rounds: each name's split adds up the rounds of that name's side
    for s in data["summary"]:
        mine = [x for x in data["splits"] if x["name"] == s["name"]]
        assert len(mine) == s["split"]["rounds"] == 2
        assert s["split"]["margin"] == sum(x["margin"] for x in mine) == s["split"]["skill"] + s["split"]["cards"]
        assert s["split"]["skill"] == sum(x["skill"] for x in mine)
    assert "margin = skill + cards: Greedy" in out
    assert data["game"] == str(arena_record)
    data = run_json(capsys, "review", str(arena_record), "--no-fair", "--round", "2", "--player", "Random")
    assert data["worlds"] is None and {(d["round"], d["name"]) for d in data["decisions"]} == {(2, "Random")}
    code, out, err = run(capsys, "review", str(arena_record), "--no-fair", "--mistakes")
    assert code == 0 and all(("?" in line) for line in out.splitlines()
                             if line.startswith("  ") and line.split()[0].isdigit())


def test_review_bad_records(capsys, tmp_path, arena_record):
    data = json.loads(arena_record.read_text())
    moves = data["rounds"][1]["moves"].split()
    moves[6] = "7dx" + moves[6]
    data["rounds"][1]["moves"] = " ".join(moves)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, out, err = run(capsys, "review", str(bad))
    assert code == 2 and out == ""
    assert err.startswith(f"scopa-solver: error: {bad}: round 2, move 7 (player ") and err.count("\n") == 1
    code, out, err = run(capsys, "review", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err
    code, out, err = run(capsys, "review", str(arena_record), "--player", "Nobody")
    assert code == 2 and "no player 'Nobody'" in err
    code, out, err = run(capsys, "review", str(arena_record), "--round", "9")
    assert code == 2 and "rounds 1 to 2" in err


# -- every game at the table: deal, suggest, play, save, review ---------------------------------

# each game, and the cards a hand of the position `suggest` is asked about (a last deal, or
# three cards a hand in the one-deal games, so that the worlds solve in milliseconds)
TABLE_GAMES = {cli_text(rules): 3 if rules.game != "scopa" else None      # cards a hand (--cards-per-hand)
         for rules in games("3 players", "4 players", "scopone", "scientifico", "6 players", "scopa a 15").values()}


def first_round(rules: Rules, seed: int, seat: int) -> Position:
    """The first round `play --seed SEED --seat SEAT` deals: the seat before yours deals, the
    deck drawn from the seed as the terminal game draws it."""
    deck = Position.shuffled_deck(random.Random(seed).getrandbits(64), rules)
    return GameRecord(rules=rules).new_round((seat - 1) % rules.players, deck).start(rules)


def scripted(start: Position, seat: int, count: int) -> list[str]:
    """The moves a human at `seat` types (their first legal move each time) while Greedy bots
    play every other seat, up to `count` of the human's moves."""
    bot, pos, typed = GreedyBot(), start, []
    while len(typed) < count and not pos.is_round_over():
        move = pos.legal_moves()[0] if pos.to_move == seat else bot(pos)
        if pos.to_move == seat:
            typed.append(str(move))
        pos = pos.play(move)
    return typed


@pytest.mark.parametrize("rules_text", list(TABLE_GAMES))
def test_deal_suggest_play_review(capsys, tmp_path, rules_text):
    rules = Rules.from_tokens(rules_text.split())
    tokens = rules_text.split()

    # deal, then suggest from the side to move's view
    extra = ["--cards-per-hand", str(TABLE_GAMES[rules_text])] if TABLE_GAMES[rules_text] else ["--deals-left", "0"]
    code, out, err = run(capsys, "deal", "--seed", "4", *extra, "--rules", *tokens)
    assert code == 0, err
    pos = Position.from_string(out.strip())
    view = pos.view(pos.to_move)
    data = run_json(capsys, "suggest", view.to_string(), "--worlds", "6", "--seed", "1", "--threads", "1")
    assert sorted(m["move"] for m in data["moves"]) == sorted(str(m) for m in view.legal_moves())
    assert data["player"] == view.player and data["view"] == view.to_string()
    assert data["exact_worlds"] == data["worlds"] and data["horizon"] is None      # few cards: all exact
    code, shown, err = run(capsys, "suggest", pos.to_string(), "--worlds", "6", "--seed", "1", "--threads", "1")
    assert code == 0 and err == ""
    assert f"hand {cards_line(pos.hands[view.player])}" in shown
    for p in range(rules.players):      # every other hand is a count, its cards nowhere
        if p != view.player and pos.hands[p]:
            assert f"hand {len(list(iter_cards(pos.hands[p])))} hidden card" in shown
            assert cards_line(pos.hands[p]) not in shown
    assert f"best for player {view.player}: {data['best']}" in shown
    assert "searched to the end of the round" in shown

    # play: seat 1, bots in every other seat, three moves typed (after some bad input), then quit
    seat, seed = 1, 11
    start = first_round(rules, seed, seat)
    typed = scripted(start, seat, 3)
    lines = ["help", "zz", "moves", *typed, "quit"]
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--rules", *tokens, "--seat", str(seat), "--bot", "greedy",
                         "--seed", str(seed), "--save", str(path), stdin="\n".join(lines) + "\n")
    assert code == 0 and err == "", err
    assert "'zz' is not a card" in out and "your legal moves:" in out and "game stopped" in out
    assert cards_line(start.hands[seat]) in out
    for p in range(rules.players):      # partners and opponents: hidden
        if p != seat:
            assert cards_line(start.hands[p]) not in out
    assert f"game record saved to {path}" in out

    record = GameRecord.load(path)
    assert record.rules == rules and record.kind == "match" and len(record.rounds) == 1
    assert json.loads(path.read_text())["version"] == (1 if rules.players == 2 else 2)
    replayed = record.replay()[0]
    assert replayed.start == start and not replayed.finished
    mine = [str(m) for p, m in zip(replayed.iter_positions(), replayed.moves) if p.to_move == seat]
    assert mine == typed
    assert record.players[seat] == "you" and all(name.startswith("Greedy") for p, name in
                                                  enumerate(record.players) if p != seat)
    if rules.players > 2:       # the bots are told apart by their seats
        assert len(set(record.players)) == rules.players

    # review (hindsight within a small budget, fair by PIMC with a few worlds)
    data = run_json(capsys, "review", str(path), "--max-nodes", "20000", "--worlds", "2", "--threads", "1",
                    "--fair-time-limit", "2")
    assert data["game"] == str(path) and len(data["decisions"]) == len(replayed.moves)


@pytest.mark.parametrize("rules_text, bot", [("players=4 game=scientifico", "greedy"),
                                             ("players=4 target=4", "random")])
def test_a_whole_match_of_bots_plays_and_reviews(capsys, tmp_path, rules_text, bot):
    """The issue's target: a Scopone scientifico match to 11 with bots in every seat (the
    human's seat too: --auto) plays through the CLI, and its record reviews."""
    path = tmp_path / "match.json"
    data = run_json(capsys, "play", "--rules", *rules_text.split(), "--bot", bot, "--auto", "--seed", "3",
                    "--save", str(path))
    rules = Rules.from_tokens(rules_text.split())
    assert data["record"] == str(path) and data["stopped"] is None and data["winner"] in (0, 1)
    assert max(data["totals"]) >= rules.target
    record = GameRecord.load(path)
    assert record.winner == data["winner"] and record.totals == tuple(data["totals"])
    assert all(r.finished for r in record.replay()) and record.meta["human"] is None
    assert [r.dealer for r in record.rounds] == [(3 + k) % 4 for k in range(len(record.rounds))]
    review = run_json(capsys, "review", str(path), "--no-fair", "--max-nodes", "20000")
    assert len(review["decisions"]) == sum(len(r.moves) for r in record.rounds)
    code, out, err = run(capsys, "review", str(path), "--no-fair", "--max-nodes", "20000", "--round", "1")
    assert code == 0 and "summary" in out and "not judged by hindsight" in out


def test_a_partner_and_opponents_of_different_kinds(capsys, tmp_path):
    path = tmp_path / "mixed.json"
    typed = scripted(first_round(Rules(players=4), 5, 2), 2, 1)     # seat 2 leads: its first move
    code, out, err = run(capsys, "play", "--rules", "players=4", "--seat", "2", "--bot", "greedy", "random:x",
                         "greedy", "--seed", "5", "--save", str(path), stdin="quit\n")
    assert code == 2 and "unknown bot" in err and not path.exists()
    code, out, err = run(capsys, "play", "--rules", "players=4", "--seat", "2", "--bot", "greedy", "random",
                         "greedy", "--name", "Ann", "--seed", "5", "--save", str(path), stdin=typed[0] + "\nquit\n")
    assert code == 0, err
    record = GameRecord.load(path)
    assert record.players == ("Greedy 0", "Random", "Ann", "Greedy 3")
    assert record.meta["bot"] == ["greedy", "random", "greedy"] and record.meta["human"] == 2
    assert [str(m) for m in record.rounds[0].moves][0] == typed[0]
    assert "Greedy 0 (player 0) and Ann (player 2) against Random (player 1) and Greedy 3 (player 3)" in out


def test_a_match_of_three_keeps_an_older_record_saying_so(capsys, tmp_path):
    path = tmp_path / "again.json"
    for seed, expected in (("1", ""), ("2", f"the older game record there is kept as {tmp_path / 'again-1.json'}")):
        data = run(capsys, "play", "--rules", "players=3", "target=1", "--bot", "random", "--auto", "--seed", seed,
                   "--save", str(path), stdin="")
        assert data[0] == 0 and expected in data[1]
    assert GameRecord.load(tmp_path / "again-1.json").meta["seed"] == 1 and GameRecord.load(path).meta["seed"] == 2
    (tmp_path / "notes.txt").write_text("mine")
    code, out, err = run(capsys, "play", "--rules", "players=3", "--bot", "random", "--auto",
                         "--save", str(tmp_path / "notes.txt"), stdin="")
    assert code == 2 and "not a game record" in err and (tmp_path / "notes.txt").read_text() == "mine"


def test_suggest_reports_the_horizon_and_takes_a_node_budget(capsys):
    code, out, err = run(capsys, "deal", "--seed", "3", "--rules", "players=4", "game=scientifico")
    text = out.strip()
    data = run_json(capsys, "suggest", text, "--worlds", "2", "--seed", "1", "--threads", "1",
                    "--max-nodes", "20000")
    assert data["exact_worlds"] == 0 and data["horizon"] >= 1 and data["worlds"] == 2
    code, out, err = run(capsys, "suggest", text, "--worlds", "2", "--seed", "1", "--threads", "1",
                         "--max-nodes", "20000")
    assert code == 0 and f"0 of 2 worlds searched to the end of the round, the others to a horizon of " \
                         f"{data['horizon']} plies" in out
    assert out.count("10 hidden cards") == 3 and "mean round margin of side 0" in out


def test_the_viewer_sits_south_and_sees_only_counts():
    from scopa_solver.play.display import show_view
    pos = Position.new_round(seed=2, rules=Rules(players=4, game="scopone"))
    for seat in range(4):
        picture = show_view(pos.view(seat), names=("Ann", "Bob", "Cid", "Dan"))
        marks = {line.split()[0]: line.split()[2].rstrip(",") for line in picture.splitlines()
                 if line.strip()[:3] in ("N  ", "S  ")}
        assert marks == {"N": str((seat + 2) % 4), "S": str(seat)}
        assert picture.count("hand 9 hidden cards") == 3 and cards_line(pos.hands[seat]) in picture
        assert all(cards_line(pos.hands[p]) not in picture for p in range(4) if p != seat)
        assert f"player {seat}, {('Ann', 'Bob', 'Cid', 'Dan')[seat]}" in picture


# -- bad input, interrupts, the console script ------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["analyze", "garbage"], "position text has 1 fields"),
    (["solve", "5c5bFd/4d6sRb 3c5dRs2b -/- - 0/0 1 1 -"], "it is player 0's turn"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
    (["deal", "--deals-left", "9"], "deals_left must be 0 to 5"),
    (["deal", "--rules", "no_such_rule"], "unknown rule option"),
    (["analyze", "--rules", "napola", LAST], "put --rules after the position"),
    (["suggest", VIEW, "--worlds", "0"], "expected 1 or more"),
    (["suggest", VIEW, "--worlds", "many"], "expected a whole number"),
    (["suggest", "7cRs4b/?3 3d4cAbCs -/- 5d????? 0/0 0 1 -"], "the stock is hidden in a view"),
    (["suggest", SMALL], "a view needs all 40"),
    (["analyze", "7cRs4b/?3 3d4cAbCs -/- ?30 0/0 0 1 -"], "hidden cards ('?')"),
    (["arena", "greedy", "chess"], "unknown bot 'chess'"),
    (["arena", "greedy", "pimc:x"], "pimc:N needs a positive number"),
    (["arena", "greedy", "random", "--rounds", "-1"], "rounds must be a whole number"),
    (["play", "--seat", "2"], "--seat must be 0 or 1"),
    (["solve", LAST, "--max-nodes", "0"], "max_nodes must be a positive"),
    # the games of more players, Scopone, Scopa a 15
    (["deal", "--rules", "players=5"], "players must be 2, 3, 4 or 6"),
    (["deal", "--rules", "game=scopone"], "is played by 4 players"),
    (["show", "7d/3c 4s3s -/- - 0/0 0 1 - players=3"], "hands must be three parts"),
    (["solve", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 -"], "hands must be two parts"),
    (["analyze", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 - players=3", "--objective", "best"], "invalid choice"),
    (["tree", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 - players=3", "--mode", "search", "--objective", "maxn"],
     "not objective='maxn'"),
    (["solve", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 - players=3", "--rules", "players=4"], "disagree"),
    # every game at the table
    (["play", "--rules", "players=3", "--seat", "-1"], "--seat must be 0 to 2"),
    (["play", "--rules", "players=4", "--bot", "model"], "two-player Scopa only"),
    (["play", "--rules", "players=4", "--bot", "greedy/infer"], "two-player Scopa only"),
    (["play", "--rules", "players=4", "--bot", "nonsense"], "unknown bot"),
    (["play", "--rules", "players=4", "--bot", "greedy", "pimc"], "one for every seat but yours"),
    (["play", "--rules", "players=4", "--auto", "--bot", "greedy", "pimc", "pimc"], "one for every seat (--auto)"),
    (["play", "--rules", "players=5"], "players"),
    (["play", "--rules", "players=4", "game=nonsense"], "game"),
    (["arena", "model", "greedy", "--rules", "players=4"], "two-player Scopa only"),
    (["suggest", "--rules", "players=4", "--max-nodes", "0"], "max-nodes"),
    (["review", "nothing-here.json", "--max-nodes", "-3"], "max-nodes"),
    (["play", "--rules", "players=4", "game=scientifico", "--seat", "4"], "--seat must be 0 to 3"),
])
def test_bad_input_exit_code_2_and_one_line(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv, stdin="quit\n")
    assert code == 2, (argv, out, err)
    assert err.startswith("scopa-solver: error: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err
    assert list(tmp_path.iterdir()) == []       # nothing played, nothing saved


def test_help_exits_0(capsys):
    code, out, err = run(capsys, "--help")
    assert code == 0 and "suggest" in out and "review" in out and "arena" in out
    code, out, err = run(capsys, "review", "--help")
    assert code == 0 and "--worlds" in out


def test_ctrl_c_stops_cleanly(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(commands, "analysis", interrupted)
    code, out, err = run(capsys, "analyze", LAST)
    assert code == 130 and err == "scopa-solver: interrupted\n"


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_console_script_in_a_subprocess():
    """The console script's entry point (pyproject [project.scripts]), run for real, and
    ``python -m scopa_solver``: the deal | analyze pipeline of the README."""
    text = (ROOT / "pyproject.toml").read_text()
    target = re.search(r'^scopa-solver\s*=\s*"([\w.]+):(\w+)"', text, re.M)
    assert target, "pyproject.toml declares the scopa-solver console script"
    module, func = target.groups()
    script = shutil.which("scopa-solver")
    entry = ([script] if script else
             [sys.executable, "-c", f"import sys; from {module} import {func}; sys.exit({func}())"])
    deal = subprocess.run(entry + ["deal", "--seed", "7", "--deals-left", "1"], capture_output=True, text=True,
                          env=_env(), cwd=ROOT, timeout=60)
    assert deal.returncode == 0 and deal.stderr == ""
    line = deal.stdout.strip()
    analyzed = subprocess.run([sys.executable, "-m", "scopa_solver", "analyze", line, "--json"],
                              capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=60)
    assert analyzed.returncode == 0
    data = json.loads(analyzed.stdout)
    assert data["moves"][0]["value"] == analyze(Position.from_string(line))[0].value
    # every game's JSON has the objective and the mover's side
    assert data["objective"] == "value" and data["side"] == Position.from_string(line).to_move
    bad = subprocess.run(entry + ["analyze", "garbage"], capture_output=True, text=True, env=_env(), cwd=ROOT,
                         timeout=60)
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.startswith("scopa-solver: error:")
    assert "Traceback" not in bad.stderr


def test_play_a_whole_match_from_seat_1(capsys, monkeypatch, tmp_path):
    from scopa_solver.play import terminal
    monkeypatch.setattr(terminal, "ask_move", lambda pos, ask, say: pos.legal_moves()[-1])
    path = tmp_path / "match.json"
    code, out, err = run(capsys, "play", "--bot", "greedy", "--seat", "1", "--seed", "5", "--name", "Ann",
                         "--rules", "target=4", "--save", str(path))
    assert code == 0, err
    rec = GameRecord.load(path)
    assert rec.players == ("Greedy", "Ann") and rec.rules.target == 4 and rec.winner is not None
    assert [r.dealer for r in rec.rounds] == [i % 2 for i in range(len(rec.rounds))]   # Ann deals first
    assert f"{rec.players[rec.winner]} win" in out and f"match: Greedy {rec.totals[0]}, Ann {rec.totals[1]}" in out


def test_serve_refuses_a_bad_port(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err.strip()
    assert "65535" in err and len(err.splitlines()) == 1


# -- progress bars ---------------------------------------------------------------------------------

class _Terminal:
    """A standard error that keeps what is written to it (`isatty` set by the test)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


@pytest.fixture
def bars(monkeypatch):
    """Every progress bar made (tqdm replaced by a recorder: no clock in the test), and the
    switch that makes standard error a terminal (True) or a pipe (False)."""
    tqdm = pytest.importorskip("tqdm")
    made: list = []

    class Bar:
        def __init__(self, total=None, desc="", unit="it", leave=True, delay=0.0, **_) -> None:
            self.total, self.desc, self.unit, self.delay, self.n, self.closed = total, desc, unit, delay, 0, False
            made.append(self)

        def update(self, n: int = 1) -> None:
            self.n += n

        def set_postfix_str(self, s: str) -> None:
            pass

        def close(self) -> None:
            self.closed = True

    monkeypatch.setattr(tqdm, "tqdm", Bar)

    def tty(on: bool) -> None:     # in the test itself: pytest's capture resets sys.stderr after setup
        terminal = _Terminal()
        terminal.isatty = lambda: on        # type: ignore[method-assign]
        monkeypatch.setattr(sys, "stderr", terminal)
    return made, tty


@pytest.mark.parametrize("argv,desc,unit,total", [
    (["arena", "greedy", "random", "--rounds", "3", "--seed", "1"], "Greedy vs Random", "deal", 3),
    (["suggest", VIEW, "--worlds", "5", "--seed", "1", "--threads", "1"], "worlds", "world", 5),
    (["tree", "example", "--depth", "2"], "minimax tree", "nodes", None),
])
def test_long_commands_draw_a_bar_on_a_terminal_only(bars, argv, desc, unit, total):
    made, tty = bars
    tty(True)
    assert main(argv) == 0
    bar = next(b for b in made if b.desc == desc)
    assert bar.unit == unit and bar.closed and bar.delay == 1.0          # shown after a second
    assert bar.n == (total if total is not None else bar.total) and (total is None or bar.total == total)
    made.clear()
    assert main(argv + ["--json"]) == 0 and made == []                   # stdout is data: no bar
    tty(False)
    assert main(argv) == 0 and made == []                                # a pipe: no bar


def test_review_draws_a_bar_over_the_moves_on_a_terminal(bars, arena_record):
    made, tty = bars
    tty(True)
    assert main(["review", str(arena_record), "--no-fair"]) == 0
    bar, = [b for b in made if b.desc == "review"]
    assert bar.unit == "move" and bar.total == bar.n == 72 and bar.closed
    made.clear()
    assert main(["review", str(arena_record), "--no-fair", "--json"]) == 0 and made == []


def test_counts_of_one_are_singular(capsys, tmp_path):
    """"1 coin", "1 deal", "1 duplicate deal", not "1 coins" (issue 30)."""
    code, out, _ = run(capsys, "show", "7cRs4b/7d4s7b 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb "
                                       "5b5d4d6sRdAs 0/0 0 1 0")
    assert code == 0 and "captured 5 cards (1 coin), scopas 0" in out and "stock: 6 cards (1 deal)" in out
    code, out, _ = run(capsys, "arena", "greedy", "random", "--rounds", "1", "--seed", "1",
                       "--save", str(tmp_path / "g.json"))
    assert code == 0 and "1 duplicate deal (2 rounds)" in out and "2 rounds saved" in out
    code, out, _ = run(capsys, "tree", "7d/3c 4s -/- - 0/0 0 1 -", "-o", str(tmp_path / "t.json"))
    assert code == 0 and "minimax tree: 3 nodes, 2 edges" in out
    over = Position.from_string("7d/3c 4s -/- - 0/0 0 1 -")
    for _ in range(2):
        over = over.play(over.legal_moves()[0])
    code, out, _ = run(capsys, "tree", over.to_string(), "-o", str(tmp_path / "t.json"))
    assert code == 0 and "minimax tree: 1 node, 0 edges" in out


# -- annotations and learning from mistakes (issue 45) ---------------------------------------------

@pytest.fixture(scope="module")
def mistakes_record(tmp_path_factory):
    """Deal 2, Greedy against Random: Random makes four fair mistakes (? and ??)."""
    from scopa_solver.play.record import RoundRecord
    from scopa_solver import play_round
    start = Position.new_round(seed=2)
    record = GameRecord(players=("Greedy", "Random"))
    record.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=2)).moves))
    return record.save(tmp_path_factory.mktemp("learn") / "game.json")


def test_annotate_a_move_then_review_shows_the_comment(capsys, mistakes_record, tmp_path):
    out_path = tmp_path / "annotated.json"
    code, out, err = run(capsys, "annotate", str(mistakes_record), "--move", "2", "--comment", "why not 6cx6b?",
                         "-o", str(out_path))
    assert code == 0 and "commented round 1, move 2" in out and str(out_path) in out
    assert GameRecord.load(out_path).rounds[0].comments == {2: "why not 6cx6b?"}
    assert GameRecord.load(mistakes_record).rounds[0].comments == {}          # the original is untouched
    # a second comment in place: the older record is kept beside it, never lost
    data = run_json(capsys, "annotate", str(out_path), "--move", "3", "--comment", "fine")
    assert data["record"] == str(out_path) and data["kept"] == str(tmp_path / "annotated-1.json")
    assert GameRecord.load(data["kept"]).rounds[0].comments == {2: "why not 6cx6b?"}
    assert GameRecord.load(out_path).rounds[0].comments == {2: "why not 6cx6b?", 3: "fine"}
    code, out, err = run(capsys, "review", str(out_path), "--worlds", "3", "--threads", "1", "--mistakes")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(r"\s+3\s+Greedy\s", line))    # unmarked, commented
    assert lines[at + 1].split() == ["comment:", "fine"]
    assert any(line.split() == ["comment:", "why", "not", "6cx6b?"] for line in lines)
    data = run_json(capsys, "review", str(out_path), "--no-fair")
    assert [d["comment"] for d in data["decisions"][:4]] == [None, "why not 6cx6b?", "fine", None]
    # bad input: one line, exit 2, nothing written
    for argv, says in [(["--move", "99", "--comment", "x"], "no move 99"), (["--round", "2", "--move", "1", "--comment", "x"],
                                                                              "no round 2")]:
        code, out, err = run(capsys, "annotate", str(out_path), *argv)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "annotated-2.json").exists()


def test_review_learn_lists_the_fair_mistakes(capsys, mistakes_record):
    from scopa_solver.play.learn import lessons
    lib = lessons(review(GameRecord.load(mistakes_record), Limit(threads=1), fair=FairReview(worlds=8, seed=0),
                         progress=False), "Random")
    data = run_json(capsys, "review", str(mistakes_record), "--learn", "--player", "Random", "--worlds", "8",
                    "--threads", "1")
    assert [(x["round"], x["move"], x["played"], x["mark"], x["best"]) for x in data["lessons"]] \
        == [(x.round, x.number, str(x.played), x.mark, str(x.best)) for x in lib]
    assert len(lib) == 4 and all(x["mark"] in ("?", "??") and x["name"] == "Random" for x in data["lessons"])
    for x, lesson in zip(data["lessons"], lib):
        hands = x["view"].split()[0].split("/")          # the own hand named, the other's hidden ("?3")
        assert "?" not in hands[x["player"]] and hands[1 - x["player"]].startswith("?")
        assert x["view"] == lesson.view.to_string()
        assert set(x["means"]) == {str(m) for m in lesson.view.legal_moves()}
        assert max(x["means"].values()) == x["best_mean"]
    code, out, err = run(capsys, "review", str(mistakes_record), "--learn", "--worlds", "3")
    assert code == 2 and "--learn needs one --player" in err


def test_review_learn_asks_for_a_better_play_and_shows_the_best(capsys, mistakes_record):
    from scopa_solver.play.learn import lessons
    lib = lessons(review(GameRecord.load(mistakes_record), Limit(threads=1), fair=FairReview(worlds=8, seed=0),
                         progress=False), "Random")
    first, second = lib[0], lib[1]
    answers = f"{first.best}\n{second.played}\n"          # then the input ends
    code, out, err = run(capsys, "review", str(mistakes_record), "--learn", "--player", "Random", "--worlds", "8",
                         "--threads", "1", stdin=answers)
    assert code == 0, err
    assert "4 fair mistakes of Random" in out and f"1/4  round 1, move {first.number}" in out
    assert f"{first.best}: as good as the best fair move" in out
    assert f"{second.played}: the move played in the game" in out and f"Best: {second.best}" in out
    assert "stopped" in out and "found 1 of 4" in out
    # the view hides the opponent's hand: none of its cards is named
    positions = GameRecord.load(mistakes_record).replay()[0].positions
    hidden = positions[first.number - 1].hands[0]
    shown = out.split("1/4")[1].split("2/4")[0]
    assert "hidden cards" in shown and not any(str(c) in shown for c in iter_cards(hidden))
