"""Game records against hostile input: deep nesting, wrong types and sizes, huge files, a BOM,
reordered rounds; each read once, in bounded memory; `scopa-solver review` prints one line."""
from __future__ import annotations

import itertools
import json
import os
import tracemalloc

import pytest
from helpers import count_plays, named_pipe

from scopa_solver import GreedyBot, Position, RandomBot, Rules, play_match, play_round
from scopa_solver.cli import main
from scopa_solver.core import flow
from scopa_solver.errors import RecordError
from scopa_solver import jsontext
from scopa_solver.play import record as record_module
from scopa_solver.play.record import MAX_BYTES, MAX_DEPTH, MAX_NAME, GameRecord, RoundRecord


def first(pos):
    return pos.legal_moves()[0]


def last(pos):
    return pos.legal_moves()[-1]


@pytest.fixture(scope="module")
def match():
    """A match of Greedy against Random: its record and JSON data (5 rounds, dealers 1, 0, 1, 0, 1)."""
    rules = Rules(target=11)
    result = play_match(GreedyBot(), RandomBot(seed=2), rules=rules, seed=3)
    rec = GameRecord(rules=rules, players=("Greedy", "Random"))
    for r in result.rounds:
        rec.add_round(RoundRecord.from_play(r.start, r.moves))
    return rec, result


def data_of(match):
    return json.loads(match[0].to_json())


def error(data) -> str:
    """The message of the RecordError that reading `data` (JSON data or text) raises."""
    with pytest.raises(RecordError) as info:
        if isinstance(data, str):
            GameRecord.from_json(data)
        else:
            GameRecord.from_dict(data)
    message = str(info.value)
    assert len(message) < 300, message
    return message


def many_rounds(n: int) -> GameRecord:
    rounds = []
    for i in range(n):
        start = Position.new_round(seed=i, dealer=i % 2)
        rounds.append(RoundRecord.from_play(start, play_round(start, first, last).moves))
    return GameRecord(players=("a", "b"), rounds=rounds, kind="rounds")


# -- the shape of the JSON ---------------------------------------------------------------------------

def test_deep_nesting_is_refused_before_parsing(match):
    deep = "[" * 50_000 + "]" * 50_000
    assert "nested 50,000 deep" in error(deep) and f"at most {MAX_DEPTH}" in error(deep)
    assert "nested 50,000 deep" in error("[" * 50_000)              # not even closed
    data = data_of(match)
    text = json.dumps(data)
    inner = '{"x": ' + "[" * 200 + "]" * 200 + "}"
    assert "nested 202 deep" in error(text[:-1] + ', "meta": ' + inner + "}")
    # a record nested exactly MAX_DEPTH deep is read: the record object, meta, then lists
    ok = '{"x": ' + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "}"
    loaded = GameRecord.from_json(text[:-1] + ', "meta": ' + ok + "}")
    depth, value = 0, loaded.meta["x"]
    while value:
        depth, value = depth + 1, value[0]
    assert depth == MAX_DEPTH - 3
    # brackets and quotes inside text are not nesting
    data["meta"] = {"note": "[" * 500 + '\\"{' * 300, "q": '"]]]'}
    assert GameRecord.from_json(json.dumps(data)).meta["note"].startswith("[[[")


def test_too_many_values_are_refused(monkeypatch, match):
    monkeypatch.setattr(jsontext, "MAX_VALUES", 1000)
    assert "more than 1,000 values" in error("[" + "[]," * 2000 + "[]]")
    assert "more than 1,000 values" in error("[" + "1," * 2000 + "1]")
    GameRecord.from_json(match[0].to_json())      # a real record has a few values a round


def test_numbers_too_long_and_not_json(match):
    data = data_of(match)
    text = json.dumps(data).replace('"version": 1', '"version": ' + "9" * 5000)
    message = error(text)
    assert "version" in message and "5,000 digits" in message
    text = json.dumps(data).replace('"dealer": 1', '"dealer": ' + "1" * 5000, 1)
    assert error(text).startswith("round 1: the dealer must be 0 or 1, not <a number of 5,000 digits>")
    data["meta"] = {"seed": 1}
    text = json.dumps(data).replace('"seed": 1', '"seed": -' + "1" * 5000)
    assert error(text).startswith("meta: <a number of 5,000 digits> is not a JSON value")
    data = data_of(match)
    data["meta"] = {"x": float("nan")}
    assert "NaN is not a JSON number" in error(json.dumps(data))


@pytest.mark.parametrize("field, value, expected", [
    ("version", "1", "version must be a whole number"),
    ("version", True, "version must be a whole number"),
    ("kind", ["match"] * 1000, "kind must be one of match, rounds, not ['match'"),
    ("rules", 21, "rules must be a list of option tokens"),
    ("rules", ["x" * 10_000], "rules: unknown rule option"),
    ("players", ["a", "b" * (MAX_NAME + 1)], f"players must be two names (player 0, player 1) of 1 to {MAX_NAME}"),
    ("players", {"a": 1, "b": 2}, "players must be two names"),
    ("date", 20250501, "date must be text"),
    ("date", "2025" * 1000, "date must be text of at most 100 characters"),
    ("meta", ["program", "x"], "meta must be an object (text keys and JSON values), not ['program'"),
    ("meta", "x" * 10_000, "meta must be an object"),
    ("rounds", {"1": {}}, "rounds must be a list of rounds"),
    ("totals", 12, "totals must be two whole numbers (player 0's and player 1's points), not 12"),
    ("totals", [1, 2, 3], "totals must be two whole numbers"),
    ("totals", [True, 2], "totals must be two whole numbers"),
    ("winner", "0", "winner must be 0, 1 or null, not '0'"),
    ("winner", 2, "winner must be 0, 1 or null"),
    ("winner", False, "winner must be 0, 1 or null"),
])
def test_every_header_field_is_checked(match, field, value, expected):
    data = data_of(match)
    data[field] = value
    assert expected in error(data)


@pytest.mark.parametrize("field, value, expected", [
    ("score", 7, "round 2: score must be two whole numbers (player 0's and player 1's points), not 7"),
    ("score", [1, -2], "round 2: score must be two whole numbers"),
    ("score", [1.0, 2], "round 2: score must be two whole numbers"),
    ("totals", "3-2", "round 2: totals must be two whole numbers"),
    ("dealer", "1", "round 2: the dealer must be 0 or 1, not '1'"),
    ("dealer", None, "round 2: the dealer must be 0 or 1, not None"),
    ("deck", "7d" * 100_000, "round 2: the deck must be the 40 cards in deal order"),
    ("deck", 7, "round 2: the deck must be the 40 cards in deal order, as text or a list, not 7"),
    ("deck", ["7d", 7], "round 2: deck:"),
    ("moves", 7, "round 2: moves must be move text"),
    ("moves", ["7d", 7], "round 2: moves must be move text"),
    ("moves", "7d " * 1_000_000, "round 2: more than 40 moves"),
    ("moves", ["7d"] * 1_000, "round 2: more than 40 moves"),
    ("players", "Ann", "round 2: players must be two names"),
])
def test_every_round_field_is_checked(match, field, value, expected):
    data = data_of(match)
    data["rounds"][1][field] = value
    assert error(data).startswith(expected)
    data["rounds"][1] = [1, 2]
    assert error(data).startswith("round 2: expected an object with dealer, deck and moves, not [1, 2]")


def test_constructor_checks_meta_names_and_rounds():
    with pytest.raises(RecordError, match="meta must be an object"):
        GameRecord(meta=[("program", "x")])
    with pytest.raises(RecordError, match="meta: the keys of an object are text, not 1"):
        GameRecord(meta={1: "x"})
    deep: list = []
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(RecordError, match=f"meta: nested more than {MAX_DEPTH} deep"):
        GameRecord(meta={"x": deep})
    with pytest.raises(RecordError, match="players must be two names"):
        GameRecord(players=("a", "b" * (MAX_NAME + 1)))
    with pytest.raises(TypeError, match="rounds must be RoundRecords, not dict"):
        GameRecord(rounds=[{"dealer": 1}])
    assert GameRecord(meta={"bots": ["greedy", {"worlds": 3}], "seed": None}).meta["bots"][1] == {"worlds": 3}


# -- the file ----------------------------------------------------------------------------------------

def test_byte_order_mark_is_accepted(match, tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + match[0].to_json().encode("utf-8"))
    assert GameRecord.load(path).to_json() == match[0].to_json()
    assert GameRecord.from_json("\ufeff" + match[0].to_json()).totals == match[0].totals
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match=r"bom.json: not UTF-8 text \(byte 0\)"):
        GameRecord.load(path)


def test_file_size_cap_is_checked_before_reading(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(MAX_BYTES + 1)                 # sparse: nothing is written
    tracemalloc.start()
    try:
        with pytest.raises(RecordError) as info:
            GameRecord.load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(info.value).endswith(f"huge.json: {MAX_BYTES + 1:,} bytes; a record has at most {MAX_BYTES:,} (64 MiB)")
    assert peak < 2 ** 20
    with pytest.raises(RecordError, match="a record has at most"):
        GameRecord.from_json(" " * (MAX_BYTES + 1))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_file_that_never_ends_is_not_read(monkeypatch):
    monkeypatch.setattr(record_module, "MAX_BYTES", 5000)
    with pytest.raises(RecordError, match="/dev/zero is a device, not a regular file"):   # not even up to the cap
        GameRecord.load("/dev/zero")


def test_long_file_names_are_shortened(tmp_path):
    path = tmp_path / ("d" * 150) / "missing.json"
    with pytest.raises(RecordError) as info:
        GameRecord.load(path)
    assert str(info.value).startswith("cannot read ...") and "missing.json" in str(info.value)
    assert len(str(info.value)) < 150


# -- the match flow ------------------------------------------------------------------------------------

def test_rounds_out_of_order_are_refused(match):
    data = data_of(match)
    dealers = [r["dealer"] for r in data["rounds"]]
    assert dealers == [1, 0, 1, 0, 1]
    for i, j in itertools.combinations(range(len(dealers)), 2):
        data = data_of(match)
        rounds = data["rounds"]
        rounds[i], rounds[j] = rounds[j], rounds[i]
        message = error(data)
        if dealers[i] == dealers[j]:                # the deal still alternates: the totals tell
            assert message.startswith(f"round {i + 1}: the record says the match stands at ")
            assert "(rounds out of order?)" in message
        else:
            assert "the deal alternates" in message
    # a record written without running totals (before they were written) is still read
    data = data_of(match)
    for r in data["rounds"]:
        del r["totals"]
    assert GameRecord.from_dict(data).totals == match[0].totals


def test_running_totals_and_winner_agree_with_the_rounds(match):
    data = data_of(match)
    assert [r["totals"] for r in data["rounds"]] == [list(t) for t in match[0].running_totals()]
    assert data["rounds"][-1]["totals"] == data["totals"] == list(match[1].totals)
    data["rounds"][2]["totals"] = [0, 0]
    assert error(data).startswith("round 3: the record says the match stands at 0-0 after this round")
    data = data_of(match)
    data["winner"] = None                          # the match was won: null is wrong too
    assert error(data).startswith(f"the record names nobody the winner, but the match ({data['totals'][0]}-")
    data = data_of(match)
    data["kind"] = "rounds"
    data["winner"] = 1
    assert "set of independent rounds, which has no winner" in error(data)
    del data["winner"]
    assert GameRecord.from_dict(data).winner is None


def test_the_match_winner_is_the_flow_rule():
    # target 1: both players often reach it in one round; equal totals play on
    for seed in range(6):
        result = play_match(first, last, rules=Rules(target=1), seed=seed)
        assert result.winner == flow.match_winner(result.totals, 1) is not None
        totals = [0, 0]
        for r in result.rounds[:-1]:
            totals = [totals[p] + r.score.total[p] for p in (0, 1)]
            assert flow.match_winner(totals, 1) is None
        rec = GameRecord(rules=Rules(target=1), rounds=[RoundRecord.from_play(r.start, r.moves)
                                                        for r in result.rounds])
        assert rec.winner == result.winner and rec.totals == result.totals


def test_the_deck_follows_the_deal_order():
    for dealer in (0, 1):
        start = Position.new_round(seed=7, dealer=dealer)
        rnd = RoundRecord.from_play(start)
        assert rnd.start() == start and rnd.dealer == dealer
        deck = flow.shuffled_deck(7)                # hands and table come back in card order
        for part in (slice(0, 3), slice(3, 6), slice(6, 10)):
            assert set(rnd.deck[part]) == set(deck[part])
        assert list(rnd.deck[10:]) == deck[10:]


# -- one replay, bounded memory ----------------------------------------------------------------------



def test_loading_replays_each_round_once(match, monkeypatch):
    text = match[0].to_json()
    moves = sum(len(r.moves) for r in match[0].rounds)
    calls = count_plays(monkeypatch)
    rec = GameRecord.from_json(text)
    assert len(calls) == moves
    assert rec.totals == match[1].totals and rec.winner == match[1].winner
    assert rec.to_json() == text and len(rec.replay()) == len(match[1].rounds)
    assert len(calls) == moves                   # none of these replays a move
    r = rec.replay()[1]
    assert r.final == match[1].rounds[1].final and len(calls) == moves + len(r.moves)
    # appending a round replays that round only
    more = GameRecord(rules=rec.rules, players=rec.players, rounds=rec.rounds[:-1])
    more.totals
    calls.clear()
    more.add_round(rec.rounds[-1])
    assert len(calls) == len(rec.rounds[-1].moves)


def test_a_changed_round_is_checked_again(match):
    rec = GameRecord.from_json(match[0].to_json())
    moves = rec.rounds[1].moves
    pos = rec.replay()[1].positions[3]
    moves[3] = next(m for m in pos.legal_moves() if m != moves[3])   # a different, legal move
    with pytest.raises(RecordError, match="round 2, move"):
        rec.replay()                             # the rest of the round no longer replays
    del moves[4:]                                # round 2 unfinished, but rounds follow it
    with pytest.raises(RecordError, match="round 2: stops after 4 moves, before the end of the round, but round 3"):
        rec.replay()
    del rec.rounds[2:]
    assert rec.replay()[1].moves == moves and not rec.replay()[1].finished


def test_memory_of_a_long_record_is_bounded(tmp_path):
    """Loading keeps each round's deck and moves, no positions (before, a 300-round record kept
    about 42 times its size and peaked at 310 times; now about 7 and 12)."""
    path = tmp_path / "long.json"
    many_rounds(300).save(path)
    size = path.stat().st_size
    tracemalloc.start()
    try:
        rec = GameRecord.load(path)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(rec.rounds) == 300 and all(r.finished for r in rec.replay())
    assert kept < 12 * size and peak < 25 * size, (size, kept, peak)


# -- the command line ----------------------------------------------------------------------------------

def tampered(match):
    """(name, file text) of records that must be refused."""
    good = match[0].to_json()
    data = data_of(match)
    swapped = data_of(match)
    swapped["rounds"][0], swapped["rounds"][2] = swapped["rounds"][2], swapped["rounds"][0]
    out = {
        "deep": "[" * 50_000 + "]" * 50_000,
        "score-number": good.replace('"score": [', '"score": 5, "x": [', 1),
        "totals-number": json.dumps(dict(data, totals=12)),
        "long-version": good.replace('"version": 1', '"version": ' + "1" * 5000),
        "meta-list": json.dumps(dict(data, meta=["a", "b"])),
        "swapped": json.dumps(swapped),
        "winner-text": json.dumps(dict(data, winner="1")),
        "not-utf8": None,
        "nan": json.dumps(dict(data, meta={"x": float("inf")})),
    }
    return out


def test_review_of_a_tampered_file_prints_one_line(match, tmp_path, capsys):
    for name, text in tampered(match).items():
        path = tmp_path / f"{name}.json"
        if text is None:
            path.write_bytes(b"\xef\xbb\xbf{\"format\": \"\xff\"}")
        else:
            path.write_text(text, encoding="utf-8")
        code = main(["review", str(path), "--no-fair"])
        out, err = capsys.readouterr()
        assert code == 2 and out == "", name
        assert err.startswith("scopa-solver: error: ") and f"{path.name}: " in err, (name, err)
        assert err.count("\n") == 1, (name, err)
        assert len(err) < 300 + len(str(path)) and "Traceback" not in err, (name, err)
    # the untampered record (with a BOM) is reviewed
    path = tmp_path / "good.json"
    path.write_bytes(b"\xef\xbb\xbf" + match[0].to_json().encode())
    assert main(["review", str(path), "--no-fair", "--round", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["score"] for r in report["rounds"]] == [list(r.score.total) for r in match[1].rounds]


@pytest.mark.parametrize("kind", ["pipe", "device", "folder"])
def test_a_record_that_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    """A named pipe waited for a writer (the command hung); a device may never end."""
    path = {"pipe": lambda: named_pipe(tmp_path / "game.json"), "device": lambda: os.devnull,
            "folder": lambda: tmp_path}[kind]()
    expected = {"pipe": "is a named pipe, not a regular file", "device": "is a device, not a regular file",
                "folder": "is a folder, not a regular file"}[kind]
    with pytest.raises(RecordError, match=expected):
        GameRecord.load(path)
