"""The family at the table, end to end through the command line: for every game deal ->
suggest on a view -> play a few moves typed on standard input (you with bot partners against
bot opponents, the other hands hidden), quit -> the saved record loads and replays -> review;
a whole match of bots (``play --auto``) for Scopone scientifico and 4-player Scopa, reviewed;
bad input one line and exit 2."""
from __future__ import annotations

import json
import random

import pytest

from scopa_solver import GameRecord, Position, Rules
from scopa_solver.core.cards import iter_cards
from scopa_solver.play.bots import GreedyBot
from scopa_solver.play.display import cards_line

from helpers import cli_text, games, run_cli, run_cli_json

# each game, and the cards a hand of the position `suggest` is asked about (a last deal, or
# three cards a hand in the one-deal games, so that the worlds solve in milliseconds)
GAMES = {cli_text(rules): 3 if rules.game != "scopa" else None      # cards a hand (--cards-per-hand)
         for rules in games("3 players", "4 players", "scopone", "scientifico", "6 players", "scopa a 15").values()}


def run(capsys, *argv, stdin: str = ""):
    return run_cli(capsys, *argv, stdin=stdin)


run_json = run_cli_json


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


@pytest.mark.parametrize("rules_text", list(GAMES))
def test_deal_suggest_play_review(capsys, tmp_path, rules_text):
    rules = Rules.from_tokens(rules_text.split())
    tokens = rules_text.split()

    # deal, then suggest from the side to move's view
    extra = ["--cards-per-hand", str(GAMES[rules_text])] if GAMES[rules_text] else ["--deals-left", "0"]
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


def test_a_family_match_replaces_an_older_record_saying_so(capsys, tmp_path):
    path = tmp_path / "again.json"
    for expected in ("", "replaces the older game record"):
        data = run(capsys, "play", "--rules", "players=3", "target=1", "--bot", "random", "--auto", "--seed", "1",
                   "--save", str(path))
        assert data[0] == 0 and expected in data[1]
    (tmp_path / "notes.txt").write_text("mine")
    code, out, err = run(capsys, "play", "--rules", "players=3", "--bot", "random", "--auto",
                         "--save", str(tmp_path / "notes.txt"))
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


@pytest.mark.parametrize("argv, message", [
    (["play", "--rules", "players=4", "game=scientifico", "--seat", "4"], "--seat must be 0 to 3"),
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
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv, stdin="quit\n")
    assert code == 2, (argv, out, err)
    assert err.startswith("scopa-solver: error: ") and message in err, err
    assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []       # nothing played, nothing saved


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
