"""The command line for every game of the family, end to end: deal -> show -> solve -> analyze
-> tree (JSON, GraphML, DOT), checked against the library; bad input one line, exit 2 (play,
suggest and review of the family: tests/test_family_table.py)."""
from __future__ import annotations


import pytest

from scopa_solver import Position, Rules, analyze, solve
from scopa_solver.core.cards import iter_cards
from scopa_solver.tree import read_tree

from helpers import cli_text, games, run_cli, run_cli_json

GAMES = {cli_text(rules): 3 if rules.game != "scopa" else 0         # cards a hand (--cards-per-hand)
         for rules in games("3 players", "4 players", "4 alone", "6 players", "6 alone", "scopa a 15", "scopone",
                            "scientifico").values()}


run, run_json = run_cli, run_cli_json


def small(capsys, rules_text: str, seed: int = 5) -> str:
    """`deal` of the game's last deal; for Scopone and scientifico (one deal) with three cards
    a hand, so that the whole round solves in milliseconds."""
    extra = ["--cards-per-hand", str(GAMES[rules_text])] if GAMES[rules_text] else []
    code, out, err = run(capsys, "deal", "--seed", str(seed), "--deals-left", "0", *extra,
                         "--rules", *rules_text.split())
    assert code == 0 and err == "" and out.count("\n") == 1, err
    pos = Position.from_string(out.strip())
    if GAMES[rules_text]:
        assert pos.hand_sizes() == (GAMES[rules_text],) * 4
    return pos.to_string()


@pytest.mark.parametrize("rules_text", list(GAMES))
def test_deal_of_every_game(capsys, rules_text):
    rules = Rules.from_tokens(rules_text.split())
    code, out, err = run(capsys, "deal", "--seed", "9", "--rules", *rules_text.split())
    assert code == 0 and Position.from_string(out.strip()) == Position.new_round(seed=9, rules=rules)
    assert run(capsys, "deal", "--seed", "9", "--rules", *rules_text.split())[1] == out      # seeded
    for left in range(rules.deals):
        code, out, err = run(capsys, "deal", "--seed", "9", "--deals-left", str(left), "--rules", *rules_text.split())
        pos = Position.from_string(out.strip())
        assert pos.rules == rules and pos.deals_left == left
        assert pos.hand_sizes() == (rules.hand_size,) * rules.players      # the first play of a deal
    code, out, err = run(capsys, "deal", "--deals-left", str(rules.deals), "--rules", *rules_text.split())
    assert code == 2 and err.count("\n") == 1 and f"0 to {rules.deals - 1}" in err


@pytest.mark.parametrize("rules_text", list(GAMES))
def test_deal_show_solve_analyze_tree(capsys, tmp_path, rules_text):
    text = small(capsys, rules_text)
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
    data = run_json(capsys, "solve", text)
    assert data["value"] == result.value and data["pv"] == [str(m) for m in result.pv]
    code, out, err = run(capsys, "solve", text)
    assert code == 0 and f"{result.value:+d}" in out and "principal variation" in out
    assert ("paranoid value for side" in out) == (rules.side_count > 2)

    rows = run_json(capsys, "analyze", text)["moves"]
    assert [(r["move"], r["value"]) for r in rows] == [(str(r.move), r.value) for r in analyze(pos)]
    if rules.side_count > 2:
        maxn = run_json(capsys, "analyze", text, "--objective", "maxn")
        assert maxn["objective"] == "maxn"
        assert [r["value"] for r in maxn["moves"]] == [r.value for r in analyze(pos, objective="maxn")]
        data = run_json(capsys, "solve", text, "--objective", "maxn")
        assert data["points"] == list(solve(pos, objective="maxn").points)

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


def test_show_draws_four_seats_around_the_table(capsys):
    text = small(capsys, "players=4")
    code, out, err = run(capsys, "show", text)
    lines = out.splitlines()
    north = next(i for i, line in enumerate(lines) if "N  player 2" in line)
    west = next(i for i, line in enumerate(lines) if line.startswith("W  player 3"))
    south = next(i for i, line in enumerate(lines) if "S  player 0" in line)
    assert north < west < south and "E  player 1" in lines[west]
    assert lines[south].index("S") == lines[north].index("N")


def test_two_player_show_is_unchanged(capsys):
    code, out, err = run(capsys, "show", "7d2c/4c3b 3s4s -/- - 0/0 0 1 -")
    assert out == ("player 0 (to move): hand 7d 2c\n  captured 0 cards (0 coins), scopas 0\n"
                   "table: 3s 4s\nplayer 1 (dealer): hand 4c 3b\n  captured 0 cards (0 coins), scopas 0\n"
                   "stock: 0 cards (0 deals)\n")


@pytest.mark.parametrize("argv, message", [
    (["deal", "--rules", "players=5"], "players must be 2, 3, 4 or 6"),
    (["deal", "--rules", "game=scopone"], "is played by 4 players"),
    (["show", "7d/3c 4s3s -/- - 0/0 0 1 - players=3"], "hands must be three parts"),
    (["solve", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 -"], "hands must be two parts"),
    (["analyze", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 - players=3", "--objective", "best"], "invalid choice"),
    (["tree", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 - players=3", "--mode", "search", "--objective", "maxn"],
     "not objective='maxn'"),
    (["solve", "7d/3c/Rb 4s3s -/-/- - 0/0/0 0 2 - players=3", "--rules", "players=4"], "disagree"),
    (["play", "--rules", "players=4", "game=scientifico", "--seat", "4"], "--seat must be 0 to 3"),
])
def test_bad_family_input_is_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2, (argv, out, err)
    assert err.startswith("scopa-solver: error: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err


@pytest.mark.parametrize("rules_text", ["players=3", "players=4 game=scientifico", "players=6"])
def test_the_example_of_every_game_solves(capsys, rules_text):
    data = run_json(capsys, "solve", "--rules", *rules_text.split())
    pos = Position.from_string(data["position"])
    assert pos.rules == Rules.from_tokens(rules_text.split()) and max(pos.hand_sizes()) <= 3
    assert data["complete"] and data["value"] == solve(pos).value


class FirstMove:
    """A bot that needs no view (the package's bots read views, which come with the views
    work): the first legal move."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, position: Position):
        return position.legal_moves()[0]


@pytest.mark.parametrize("rules_text, bots", [("players=3", 3), ("players=4", 2), ("players=4 partnerships=0", 4)])
def test_arena_of_the_family_saves_a_record_that_reviews(capsys, monkeypatch, tmp_path, rules_text, bots):
    import scopa_solver.cli.commands as commands
    monkeypatch.setattr(commands, "_make_bot", lambda spec, args, seed: FirstMove(spec))
    path = tmp_path / "arena.json"
    names = [f"b{k}" for k in range(bots)]
    data = run_json(capsys, "arena", *names, "--rounds", "1", "--seed", "2", "--save", str(path),
                    "--rules", *rules_text.split())
    assert data["saved"] == str(path) and data["seed"] == 2
    code, out, err = run(capsys, "arena", *names[:-1], "--rounds", "1", "--rules", *rules_text.split()) \
        if bots > 2 else run(capsys, "arena", *names, "b9", "--rounds", "1", "--rules", *rules_text.split())
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
