"""Hints recorded as help in a game record (`Hint`, a round's ``help``): they round-trip through
JSON, are checked against the round's positions, old records without them still load, and the
review counts them (issue 45)."""
import json

import pytest

from scopa_solver import Position, Rules
from scopa_solver.errors import RecordError
from scopa_solver.play.record import GameRecord, Hint, RoundRecord


def _record(rules=Rules(), seed=5, moves=4):
    start = pos = Position.new_round(seed=seed, rules=rules)
    played = []
    for _ in range(moves):
        played.append(pos.legal_moves()[0])
        pos = pos.play(played[-1])
    rec = GameRecord(rules=rules, players=tuple(f"P{p}" for p in range(rules.players)))
    rnd = RoundRecord.from_play(start, played)
    return rec, rnd, start, played


def _at(start, played, k):
    pos = start
    for m in played[:k]:
        pos = pos.play(m)
    return pos


@pytest.mark.parametrize("rules", [Rules(), Rules(players=4, game="scientifico")])
def test_hints_round_trip_through_json(rules):
    rec, rnd, start, played = _record(rules)
    for k in (1, 3, 4):                 # before moves 2, 4 and 5 (the next, not yet played)
        pos = _at(start, played, k)
        rnd.help.append(Hint(k + 1, pos.to_move, str(pos.legal_moves()[-1]), -0.25 if k == 1 else None))
    rec.add_round(rnd)
    data = json.loads(rec.to_json())
    assert data["rounds"][0]["help"][0] == {"move": 2, "seat": _at(start, played, 1).to_move,
                                            "suggested": str(_at(start, played, 1).legal_moves()[-1]),
                                            "value": -0.25}
    assert "value" not in data["rounds"][0]["help"][1]
    again = GameRecord.from_json(rec.to_json())
    assert again.rounds[0].help == rnd.help
    assert again.to_json() == rec.to_json()
    seats = [h.seat for h in rnd.help]
    assert again.hints_used() == {f"P{s}": seats.count(s) for s in dict.fromkeys(seats)}


def test_a_record_without_help_still_loads_and_writes_none():
    rec, rnd, _, _ = _record()
    rec.add_round(rnd)
    data = json.loads(rec.to_json())
    assert "help" not in data["rounds"][0]
    again = GameRecord.from_dict(data)
    assert again.rounds[0].help == [] and again.hints_used() == {}


@pytest.mark.parametrize("change, words", [
    (lambda h: dict(h, seat=1 - h["seat"]), "was to move"),
    (lambda h: dict(h, move=9), "asked before move 9"),
    (lambda h: dict(h, move=0), "move must be"),
    (lambda h: dict(h, suggested="RzxAz"), "suggested move"),
    (lambda h: dict(h, suggested=7), "suggested must be move text"),
    (lambda h: dict(h, value="much"), "value must be a number"),
    (lambda h: dict(h, value=True), "value must be a number"),
    (lambda h: [h], "expected an object"),
])
def test_a_bad_hint_is_refused_naming_it(change, words):
    rec, rnd, start, played = _record()
    pos = _at(start, played, 2)
    rnd.help.append(Hint(3, pos.to_move, str(pos.legal_moves()[0]), 1.0))
    rec.add_round(rnd)
    data = json.loads(rec.to_json())
    data["rounds"][0]["help"][0] = change(data["rounds"][0]["help"][0])
    with pytest.raises(RecordError, match="round 1.*hint 1") as err:
        GameRecord.from_dict(data)
    assert words in str(err.value)


def test_help_must_be_a_list():
    rec, rnd, _, _ = _record()
    rec.add_round(rnd)
    data = json.loads(rec.to_json())
    data["rounds"][0]["help"] = {"move": 1}
    with pytest.raises(RecordError, match="help must be a list"):
        GameRecord.from_dict(data)


def test_a_hint_added_later_is_checked_again():
    rec, rnd, start, played = _record()
    rec.add_round(rnd)
    rnd.help.append(Hint(2, _at(start, played, 1).to_move, "RzxAz"))
    with pytest.raises(RecordError, match="hint 1"):
        rec.to_json()


def test_the_review_says_how_many_hints_a_player_used():
    from scopa_solver import Limit
    from scopa_solver.play.review import review
    rec, rnd, start, played = _record(moves=2)
    for k in (0, 1):
        pos = _at(start, played, k)
        rnd.help.append(Hint(k + 1, pos.to_move, str(pos.legal_moves()[0])))
    rnd.help.append(Hint(3, _at(start, played, 2).to_move, str(_at(start, played, 2).legal_moves()[0])))
    rec.add_round(rnd)
    result = review(rec, Limit(nodes=1000), fair=None, progress=False)
    used = rec.hints_used()
    assert result.to_dict()["hints"] == used and sum(used.values()) == 3
    text = result.format()
    assert "hints asked for: " + ", ".join(f"{n} {c}" for n, c in used.items()) in text
