"""Game records: round trips, exact replay, and the rejection of corrupt or inconsistent records."""
from __future__ import annotations

import json
import random

import pytest

from scopa_solver import DECK, GreedyBot, Move, Position, RandomBot, Rules, arena, play_match, play_round
from scopa_solver.errors import RecordError, ScopaError
from scopa_solver.play.record import FORMAT, VERSION, GameRecord, RoundRecord
from scopa_solver.play.recording import RecordingBot, rounds_from_log


class Logger:
    """A chooser that plays like `bot` and remembers every position it was asked about."""

    def __init__(self, bot, seen):
        self.bot, self.seen = bot, seen

    def __call__(self, pos):
        self.seen.append(pos)
        return self.bot(pos)


def match_record(seed=3, target=11):
    """A whole match of Greedy against Random, its record, and every position the bots saw."""
    seen: list[Position] = []
    rules = Rules(target=target)
    result = play_match(Logger(GreedyBot(), seen), Logger(RandomBot(seed=2), seen), rules=rules, seed=seed)
    rec = GameRecord(rules=rules, players=("Greedy", "Random"))
    for r in result.rounds:
        rec.add_round(RoundRecord.from_play(r.start, r.moves))
    return rec, result, seen


@pytest.fixture(scope="module")
def match():
    return match_record()


def test_match_round_trip_and_exact_replay(match, tmp_path):
    rec, result, seen = match
    assert len(rec.rounds) == len(result.rounds) >= 2
    assert rec.totals == result.totals and rec.winner == result.winner
    path = tmp_path / "game.json"
    rec.save(path)
    data = json.loads(path.read_text())
    # a two-player record is written as version 1, which every scopa-solver reads
    assert data["format"] == FORMAT and data["version"] == 1 < VERSION and data["kind"] == "match"
    assert data["players"] == ["Greedy", "Random"] and data["rules"] == []
    assert data["totals"] == list(result.totals) and data["winner"] == result.winner
    assert [r["dealer"] for r in data["rounds"]] == [r.start.dealer for r in result.rounds]
    assert all(len(Position.shuffled_deck(0)) == 40 == len(r["deck"]) // 2 for r in data["rounds"])
    loaded = GameRecord.load(path)
    assert loaded.to_json() == rec.to_json()
    # every position of the game, in order, reproduced exactly by the replay
    replayed = [pos for r in loaded.replay() for pos in r.positions[:-1]]
    assert replayed == seen
    for r, original in zip(loaded.replay(), result.rounds):
        assert r.start == original.start and r.final == original.final
        assert r.score == original.score and r.finished


def test_rules_and_variants_round_trip(tmp_path):
    rules = Rules(napola=True, target=1, primiera_missing_suit="zero")
    start = Position.new_round(seed=9, rules=rules)
    moves = play_round(start, GreedyBot(), GreedyBot()).moves
    rec = GameRecord(rules=rules, players=("a", "b"))
    rec.add_round(RoundRecord.from_play(start, moves))
    again = GameRecord.from_json(rec.to_json())
    assert again.rules == rules and json.loads(rec.to_json())["rules"] == rules.tokens()
    assert again.replay()[0].start.rules == rules
    assert again.replay()[0].final == play_round(start, GreedyBot(), GreedyBot()).final


def test_unfinished_last_round_is_kept():
    start = Position.new_round(seed=4)
    moves = play_round(start, GreedyBot(), GreedyBot()).moves[:7]
    rec = GameRecord()
    r = rec.add_round(RoundRecord.from_play(start, moves))
    assert not r.finished and r.score is None and len(r.positions) == 8
    again = GameRecord.from_json(rec.to_json())
    assert again.replay()[0].final == r.final and again.totals == (0, 0) and again.winner is None
    assert "score" not in json.loads(rec.to_json())["rounds"][0]


def test_new_round_and_moves_as_list():
    deck = Position.shuffled_deck(12)
    rec = GameRecord(players=("x", "y"))
    rnd = rec.new_round(1, [str(c) for c in deck])
    pos = rnd.start()
    for _ in range(4):
        move = pos.legal_moves()[-1]
        rnd.moves.append(move)
        pos = pos.play(move)
    data = rec.to_dict()
    data["rounds"][0]["moves"] = data["rounds"][0]["moves"].split()     # a list is read too
    data["rounds"][0]["deck"] = [str(c) for c in deck]
    assert GameRecord.from_dict(data).replay()[0].final == pos


def test_recording_bots_in_an_arena():
    log: list = []
    a, b = RecordingBot(GreedyBot(), log), RecordingBot(RandomBot(seed=5), log)
    result = arena(a, b, rounds=2, seed=8, progress=False)
    rounds = rounds_from_log(log)
    assert len(rounds) == 4
    assert [r.players for r in rounds] == [("Greedy", "Random"), ("Random", "Greedy")] * 2
    rec = GameRecord(players=("Greedy", "Random"), rounds=rounds, kind="rounds")
    again = GameRecord.from_json(rec.to_json())
    replayed = again.replay()
    assert all(r.finished for r in replayed)
    greedy = sum(r.score.total[r.players.index("Greedy")] for r in replayed)
    random_ = sum(r.score.total[r.players.index("Random")] for r in replayed)
    assert greedy / 4 == pytest.approx(result.a_points) and random_ / 4 == pytest.approx(result.b_points)
    assert again.winner is None and json.loads(rec.to_json())["rounds"][1]["players"] == ["Random", "Greedy"]


# -- corrupt and inconsistent records ---------------------------------------------------------------

def _data(match):
    return json.loads(match[0].to_json())


def _error(data) -> str:
    with pytest.raises(RecordError) as info:
        GameRecord.from_dict(data)
    return str(info.value)


def test_illegal_move_names_the_first_bad_move(match):
    data = _data(match)
    moves = data["rounds"][1]["moves"].split()
    pos = GameRecord.from_dict(_data(match)).replay()[1].positions[4]
    bad = next(str(c) for c in DECK if not c.mask & pos.hands[pos.to_move])
    moves[4] = bad
    moves[9] = "Zz"                  # a later error is not the one reported
    data["rounds"][1]["moves"] = " ".join(moves)
    message = _error(data)
    assert message.startswith(f"round 2, move 5 (player {pos.to_move}, ")
    assert f"does not hold {bad}" in message


def test_bad_move_text():
    rec = GameRecord()
    rnd = rec.new_round(1, "7dAc2s 7c3b4d RbCcFs5s".replace(" ", "") + "".join(
        str(c) for c in DECK
        if str(c) not in {"7d", "Ac", "2s", "7c", "3b", "4d", "Rb", "Cc", "Fs", "5s"}))
    data = rec.to_dict()
    data["rounds"][0]["moves"] = "7dx"
    assert "round 1, move 1 (player 0, player 0)" in _error(data)
    data["rounds"][0]["moves"] = "Ac 4d 2sx5s"
    message = _error(data)
    assert message.startswith("round 1, move 3") and "2sx5s is illegal" in message
    assert rnd.start().legal_moves()


def test_moves_after_the_end_of_the_round(match):
    data = _data(match)
    data["rounds"][0]["moves"] += " 7d"
    n = len(data["rounds"][0]["moves"].split())
    message = _error(data)
    assert message.startswith(f"round 1, move {n}:") and "round is over" in message


def test_bad_decks(match):
    data = _data(match)
    data["rounds"][0]["deck"] = data["rounds"][0]["deck"][:-2]
    assert "round 1: deck: the deck has 39 cards" in _error(data)
    data = _data(match)
    deck = data["rounds"][0]["deck"]
    data["rounds"][0]["deck"] = deck[:-2] + deck[:2]
    assert "round 1: deck:" in _error(data) and "twice" in _error(data)
    data = _data(match)
    data["rounds"][0]["deck"] = "7dXx" + deck[4:]
    assert "round 1: deck:" in _error(data)
    # three kings on the first table: the rules deal again
    others = [c for c in DECK if c.rank != 10]
    kings = [c for c in DECK if c.rank == 10]
    deck = others[:6] + kings[:3] + others[6:7] + others[7:] + kings[3:]
    bad = GameRecord(rules=Rules(target=1))
    bad.new_round(1, deck)
    with pytest.raises(RecordError, match="3 kings on the table"):
        bad.replay()
    ok = GameRecord(rules=Rules(redeal_three_kings=False))
    ok.new_round(1, deck)
    assert bin(ok.replay()[0].start.table).count("1") == 4


def test_inconsistent_scores_totals_winner(match):
    data = _data(match)
    data["rounds"][0]["score"] = [data["rounds"][0]["score"][0] + 1, data["rounds"][0]["score"][1]]
    assert "round 1: the record says the score is" in _error(data)
    data = _data(match)
    data["totals"] = [0, 0]
    assert "totals" in _error(data)
    data = _data(match)
    data["winner"] = 1 - data["winner"]
    assert "winner" in _error(data)


def test_match_structure(match):
    data = _data(match)
    data["rounds"][1]["dealer"] = data["rounds"][0]["dealer"]
    assert _error(data).startswith("round 2: the deal alternates")
    data = _data(match)
    data["rounds"][0]["moves"] = " ".join(data["rounds"][0]["moves"].split()[:10])
    del data["rounds"][0]["score"]
    assert "round 1: stops after 10 moves" in _error(data)
    data = _data(match)
    data["rounds"].append(dict(data["rounds"][-2]))      # a round after the match was won
    del data["totals"], data["winner"]
    assert "the match was already won" in _error(data)
    # the same rounds as independent rounds are fine
    data = _data(match)
    data["kind"] = "rounds"
    data["rounds"].append(dict(data["rounds"][-2]))
    del data["totals"], data["winner"], data["rounds"][-1]["totals"]   # (the match score after it)
    assert len(GameRecord.from_dict(data).rounds) == len(match[0].rounds) + 1


def test_header_errors(match, tmp_path):
    assert "not a scopa-solver game record" in _error({"rounds": []})
    assert "not a scopa-solver game record" in _error([1, 2])
    data = _data(match)
    data["version"] = VERSION + 1
    assert "newer scopa-solver" in _error(data)
    data["version"] = "one"
    assert "version" in _error(data)
    data = _data(match)
    data["rules"] = ["no_such_rule"]
    assert _error(data).startswith("rules: unknown rule option")
    data = _data(match)
    data["players"] = ["only one"]
    assert "players" in _error(data)
    data = _data(match)
    data["kind"] = "tournament"
    assert "kind" in _error(data)
    data = _data(match)
    data["rounds"][0]["dealer"] = 2
    assert "round 1: the dealer must be 0 or 1" in _error(data)
    with pytest.raises(RecordError, match="not JSON"):
        GameRecord.from_json("{not json")
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("[]")
    with pytest.raises(RecordError, match="broken.json: not a scopa-solver game record"):
        GameRecord.load(broken)
    assert issubclass(RecordError, ScopaError) and issubclass(RecordError, ValueError)


def test_from_play_checks_the_start():
    pos = Position.new_round(seed=1)
    after = pos.play(pos.legal_moves()[0])
    with pytest.raises(RecordError, match="not the start of a round"):
        RoundRecord.from_play(after)
    rnd = RoundRecord.from_play(pos, [str(m) for m in [pos.legal_moves()[0]]])
    assert isinstance(rnd.moves[0], Move) and rnd.start() == pos


def test_a_bare_card_with_several_captures_is_ambiguous():
    deck = Position.shuffled_deck(random.Random(1).getrandbits(64))
    rec = GameRecord(players=("Ann", "Bob"))
    rec.new_round(1, deck)
    data = rec.to_dict()
    data["rounds"][0]["moves"] = "Rb"
    message = _error(data)
    assert message.startswith("round 1, move 1 (player 0, Ann): Rb can take several ways")
    data["rounds"][0]["moves"] = "Rbx7c+3s"
    assert str(GameRecord.from_dict(data).replay()[0].moves[0]) == "Rbx7c+3s"
