"""Game records for every game of the family: whole matches round-trip (JSON, files) and replay
exactly what `play_match` played, version 1 files still load, tampered or inconsistent records
are refused with one clear message naming where, saving is atomic (the review of the family's
records: tests/test_review.py)."""
from __future__ import annotations

import functools
import json
import os
import random
import stat
from pathlib import Path

import pytest

from helpers import count_plays, games

from scopa_solver import GreedyBot, Move, Position, RandomBot, Rules, arena, play_match, play_round
from scopa_solver.core.cards import DECK
from scopa_solver.core import flow
from scopa_solver.errors import RecordError, ScopaError
from scopa_solver.play import record as record_module
from scopa_solver.play.record import FORMAT, VERSION, GameRecord, RoundRecord
from scopa_solver.play.recording import RecordingBot, rounds_from_log

GAMES = games("scopa", "scopa a 15", "3 players", "4 players", "4 alone", "6 players", "scopone",
              more={"3 players a 15": Rules(players=3, capture="fifteen"),
                    "scientifico napola": Rules(players=4, game="scientifico", napola=True)})
V1_FIXTURE = Path(__file__).parent / "data" / "record-v1.json"
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 6: "six"}


class Chooser:
    """A seeded random chooser at the position level that remembers every position it saw."""

    def __init__(self, seed: int, seen: list) -> None:
        self.rng, self.seen = random.Random(seed), seen

    def __call__(self, pos: Position):
        self.seen.append(pos)
        return self.rng.choice(pos.legal_moves())


def random_match(rules: Rules, seed: int = 1):
    """A whole match (`play_match`) of seeded random players, one per seat, played by
    RecordingBots: its record, every position in play order, the MatchResult, and the log of the
    RecordingBots."""
    n = rules.players
    names = [f"Random {chr(65 + p)}" for p in range(n)]
    seen: list[Position] = []
    log: list = []
    seats = []
    for p in range(n):
        bot = RecordingBot(Chooser(seed * 10 + p, seen), log)
        bot.name = names[p]
        seats.append(bot)
    result = play_match(*seats, rules=rules, seed=seed, max_rounds=60)
    rec = GameRecord(rules=rules, players=names, meta={"seed": seed})
    for i, r in enumerate(result.rounds):
        replayed = rec.add_round(RoundRecord.from_play(r.start, r.moves))
        assert replayed.points == r.final.round_score().total and replayed.dealer == (n - 1 + i) % n
    return rec, seen, result, log


@functools.lru_cache(maxsize=None)
def _match(game: str):
    return (GAMES[game],) + random_match(GAMES[game], seed=len(game))


@pytest.fixture(scope="module", params=list(GAMES), ids=list(GAMES))
def match(request):
    """(rules, record, positions seen, MatchResult, RecordingBots' log) of every game's match."""
    return _match(request.param)


@pytest.fixture(scope="module")
def scopa_match():
    """The two-player match of `match`."""
    return _match("scopa")


def test_a_whole_match_round_trips(match, tmp_path):
    rules, rec, seen, result, log = match
    n, sides = rules.players, rules.side_count
    finals = [r.final for r in result.rounds]
    totals = tuple(sum(f.round_score().total[s] for f in finals) for s in range(sides))
    assert len(rec.rounds) == len(result.rounds) >= 1
    assert rec.totals == totals == result.totals
    assert rec.winner == result.winner == flow.match_winner(totals, rules.target) is not None
    text = rec.to_json()
    data = json.loads(text)
    # a two-player record is written as version 1, which every scopa-solver reads
    assert data["format"] == FORMAT and data["kind"] == "match"
    assert data["version"] == (1 if n == 2 else 2) and 1 < VERSION and data["rules"] == rules.tokens()
    assert data["players"] == list(rec.players) and len(data["players"]) == n
    assert ("sides" in data) == (n != 2)
    if n != 2:
        assert data["sides"] == [[seat for seat in range(n) if rules.sides[seat] == s] for s in range(sides)]
    assert [r["dealer"] for r in data["rounds"]] == [(n - 1 + i) % n for i in range(len(finals))]
    assert [r["dealer"] for r in data["rounds"]] == [r.start.dealer for r in result.rounds]
    assert all(len(r["deck"]) == 80 for r in data["rounds"])
    assert all(len(r["score"]) == len(r["totals"]) == sides for r in data["rounds"])
    assert data["totals"] == list(totals) and data["winner"] == rec.winner
    # JSON text and files, read back exactly; every position of the match replayed exactly
    again = GameRecord.from_json(text)
    assert again.to_json() == text and again.rules == rules and again.players == rec.players
    replayed = again.replay()
    assert [p for r in replayed for p in r.positions[:-1]] == seen
    assert [r.final for r in replayed] == finals
    for r, original in zip(replayed, result.rounds):
        assert r.start == original.start and r.final == original.final
        assert r.score == original.score and r.finished
    path = rec.save(tmp_path / "match.json")
    assert Path(path).read_text(encoding="utf-8") == text
    assert GameRecord.load(path).to_json() == text
    # version 2 for every game, two players included
    v2 = rec.to_json(version=2)
    assert json.loads(v2)["version"] == 2 == VERSION
    assert GameRecord.from_json(v2).to_json(version=2) == v2
    assert GameRecord.from_json(v2).to_json() == text
    # the RecordingBots' log gives the same rounds, with each seat's name
    logged = rounds_from_log(log)
    assert [(r.dealer, r.deck, r.moves) for r in logged] == [(r.dealer, r.deck, r.moves) for r in rec.rounds]
    assert all(r.players == rec.players for r in logged)


def test_version_1_files_still_load():
    text = V1_FIXTURE.read_text(encoding="utf-8")
    rec = GameRecord.load(V1_FIXTURE)
    assert rec.rules == Rules(napola=True, target=6) and rec.players == ("Greedy", "Random")
    replayed = rec.replay()
    assert rec.totals == tuple(map(sum, zip(*(r.score.total for r in replayed))))
    assert rec.winner == flow.match_winner(rec.totals, 6) is not None
    assert rec.to_json() == text                  # still written as version 1, byte for byte
    data = json.loads(text)
    data.update(version=2, sides=[[0], [1]])      # the same record as version 2
    assert GameRecord.from_dict(data).to_json() == text


def test_players_are_named_per_seat():
    assert GameRecord(rules=Rules(players=3)).players == ("player 0", "player 1", "player 2")
    with pytest.raises(RecordError, match=r"players must be four names \(one per seat, players=4\)"):
        GameRecord(rules=Rules(players=4), players=("a", "b"))
    with pytest.raises(RecordError, match="a version 1 record is two-player; 6 players need version 2"):
        GameRecord(rules=Rules(players=6)).to_dict(version=1)
    rec = GameRecord(rules=Rules(players=6), players="A B C D E F".split())
    rec.new_round(5, Position.shuffled_deck(1, Rules(players=6)))
    assert rec.side_names(0) == ("A & C & E", "B & D & F")
    assert GameRecord(rules=Rules(players=3), players="A B C".split()).players == ("A", "B", "C")


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


# -- tampered and inconsistent records ---------------------------------------------------------------

def _error(data) -> str:
    with pytest.raises(RecordError) as info:
        if isinstance(data, str):
            GameRecord.from_json(data)
        else:
            GameRecord.from_dict(data)
    message = str(info.value)
    assert "\n" not in message and len(message) < 300, message
    return message


def _data(match) -> dict:
    return json.loads(match[1].to_json())


def test_a_changed_deck_card_is_refused(match):
    data = _data(match)
    deck = data["rounds"][0]["deck"]
    data["rounds"][0]["deck"] = deck[2:4] + deck[2:]          # the second card twice, the first gone
    message = _error(data)
    assert message.startswith("round 1: deck: ") and "twice" in message


def test_swapped_deck_cards_are_refused(match):
    """Two cards of a round's deck swapped (still 40 different cards): a move no longer replays
    or the round no longer scores what the record says."""
    rules = match[0]
    data = _data(match)
    cards = [data["rounds"][0]["deck"][i:i + 2] for i in range(0, 80, 2)]
    dealer = data["rounds"][0]["dealer"]
    leader_hand = flow.deal_slices(dealer, rules)[(dealer + 1) % rules.players]
    first_move = data["rounds"][0]["moves"].split()[0]
    i = next(k for k in range(leader_hand.start, leader_hand.stop) if cards[k] == first_move[:2])
    cards[i], cards[-1] = cards[-1], cards[i]                 # the leader's first card goes elsewhere
    data["rounds"][0]["deck"] = "".join(cards)
    message = _error(data)
    assert message.startswith("round 1")
    assert ("move 1 (" in message and "does not hold" in message) or "kings on the table" in message


def test_an_illegal_move_names_round_move_seat_and_player(match):
    rules, rec = match[0], match[1]
    data = _data(match)
    k = 5
    pos = rec.replay()[1].positions[k]
    moves = data["rounds"][1]["moves"].split()
    bad = next(str(c) for c in Position.shuffled_deck(0) if not c.mask & pos.hands[pos.to_move])
    moves[k] = bad
    moves[k + 4] = "Zz"                  # a later error is not the one reported
    data["rounds"][1]["moves"] = " ".join(moves)
    seat = "player" if rules.players == 2 else "seat"
    message = _error(data)
    assert message.startswith(f"round 2, move {k + 1} ({seat} {pos.to_move}, {rec.players[pos.to_move]}): ")
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
    if n > 40:                  # every card was played (Scopone): the move count is refused first
        assert message.startswith("round 1: more than 40 moves")
    else:
        assert message.startswith(f"round 1, move {n}:") and "round is over" in message


def test_bad_decks(match):
    data = _data(match)
    data["rounds"][0]["deck"] = data["rounds"][0]["deck"][:-2]
    assert "round 1: deck: the deck has 39 cards" in _error(data)
    data = _data(match)
    deck = data["rounds"][0]["deck"]
    data["rounds"][0]["deck"] = deck[:-2] + deck[:2]
    message = _error(data)
    assert "round 1: deck:" in message and "twice" in message
    data = _data(match)
    data["rounds"][0]["deck"] = "7dXx" + deck[4:]
    assert "round 1: deck:" in _error(data)


def test_three_kings_on_the_first_table_are_dealt_again():
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


def test_wrong_points_are_refused(match):
    data = _data(match)
    score = data["rounds"][0]["score"]
    data["rounds"][0]["score"] = [score[0] + 1] + score[1:]
    assert _error(data).startswith("round 1: the record says the score is ")
    data = _data(match)
    data["rounds"][0]["totals"] = [0] * len(score)
    assert "the record says the match stands at" in _error(data) or sum(score) == 0
    data = _data(match)
    data["totals"] = [t + 1 for t in data["totals"]]
    assert "disagree with its rounds" in _error(data)
    data = _data(match)
    data["totals"] = [0] * len(score)
    assert "totals" in _error(data)
    data = _data(match)
    data["winner"] = (data["winner"] + 1) % len(score)
    message = _error(data)
    assert message.startswith("the record names ") and "winner" in message


def test_wrong_field_counts_are_refused(match):
    rules = match[0]
    n, sides = rules.players, rules.side_count
    data = _data(match)
    data["players"] = data["players"][:-1]
    assert _error(data).startswith(f"players must be {WORDS[n]} names")
    data = _data(match)
    data["rounds"][0]["players"] = data["players"] + ["extra"]
    assert _error(data).startswith("round 1: players must be")
    data = _data(match)
    data["rounds"][0]["score"] = data["rounds"][0]["score"] + [0]
    assert _error(data).startswith(f"round 1: score must be {WORDS[sides]} whole numbers")
    data = _data(match)
    data["totals"] = data["totals"][:1]
    assert _error(data).startswith("totals must be")
    data = _data(match)
    data["rounds"][0]["dealer"] = n
    message = _error(data)
    assert message.startswith("round 1: the dealer must be 0") and message.endswith(f"{n - 1}, not {n}")
    data = _data(match)
    data["winner"] = sides
    assert _error(data).startswith(f"winner must be {', '.join(map(str, range(sides)))} or null")


def test_wrong_versions_and_sides_are_refused(match):
    rules = match[0]
    data = _data(match)
    data["version"] = VERSION + 1
    assert "newer scopa-solver; this one reads versions 1 to 2" in _error(data)
    data["version"] = 0
    assert "version must be a whole number from 1" in _error(data)
    data = _data(match)
    if rules.players == 2:
        data = json.loads(match[1].to_json(version=2))
    data["sides"] = [[seat] for seat in range(rules.players)][::-1]
    assert _error(data).startswith("sides must be the seats of each side as the rules make them")
    if rules.players != 2:
        data = _data(match)
        data["version"] = 1
        assert _error(data).startswith(f"a version 1 record is two-player, but its rules say players={rules.players}")


def test_the_deal_passes_to_the_next_seat(match):
    rules = match[0]
    n = rules.players
    data = _data(match)
    data["rounds"][1]["dealer"] = (data["rounds"][0]["dealer"] + 2) % n if n > 2 else data["rounds"][0]["dealer"]
    due = (data["rounds"][0]["dealer"] + 1) % n
    expected = (f"round 2: the deal alternates, so player {due} deals" if n == 2
                else f"round 2: the deal passes to the next seat, so seat {due} deals")
    assert _error(data).startswith(expected)
    data["kind"] = "rounds"                          # independent rounds: any dealer
    for r in data["rounds"]:
        del r["totals"]
    del data["winner"]
    data["rounds"][1] = _data(match)["rounds"][1]
    del data["rounds"][1]["totals"]
    assert len(GameRecord.from_dict(data).rounds) == len(match[1].rounds)

def test_a_round_cut_short_must_be_the_last(match):
    data = _data(match)
    data["rounds"][0]["moves"] = " ".join(data["rounds"][0]["moves"].split()[:10])
    del data["rounds"][0]["score"]
    assert "round 1: stops after 10 moves" in _error(data)


def test_no_round_after_the_match_is_won(scopa_match):
    data = _data(scopa_match)
    data["rounds"].append(dict(data["rounds"][-2]))      # a round after the match was won
    del data["totals"], data["winner"]
    assert "the match was already won" in _error(data)
    # the same rounds as independent rounds are fine
    data = _data(scopa_match)
    data["kind"] = "rounds"
    data["rounds"].append(dict(data["rounds"][-2]))
    del data["totals"], data["winner"], data["rounds"][-1]["totals"]   # (the match score after it)
    assert len(GameRecord.from_dict(data).rounds) == len(scopa_match[1].rounds) + 1


def test_header_errors(scopa_match, tmp_path):
    assert "not a scopa-solver game record" in _error({"rounds": []})
    assert "not a scopa-solver game record" in _error([1, 2])
    data = _data(scopa_match)
    data["version"] = VERSION + 1
    assert "newer scopa-solver" in _error(data)
    data["version"] = "one"
    assert "version" in _error(data)
    data = _data(scopa_match)
    data["rules"] = ["no_such_rule"]
    assert _error(data).startswith("rules: unknown rule option")
    data = _data(scopa_match)
    data["players"] = ["only one"]
    assert "players" in _error(data)
    data = _data(scopa_match)
    data["kind"] = "tournament"
    assert "kind" in _error(data)
    data = _data(scopa_match)
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


# -- saving ------------------------------------------------------------------------------------------

def _small_record() -> GameRecord:
    rules = Rules(players=3)
    start = Position.new_round(seed=3, rules=rules)
    rec = GameRecord(rules=rules, players=("A", "B", "C"), kind="rounds")
    rec.add_round(RoundRecord.from_play(start, [start.legal_moves()[0]]))
    return rec


def test_save_does_not_overwrite_unless_asked(tmp_path):
    rec = _small_record()
    path = tmp_path / "game.json"
    assert rec.save(path) == str(path)
    old = path.read_text()
    rec.rounds[0].moves.append(rec.replay()[0].final.legal_moves()[0])
    with pytest.raises(RecordError, match=r"game.json exists: not overwriting it \(save\(\.\.\., overwrite=True\)"):
        rec.save(path)
    assert path.read_text() == old
    rec.save(path, overwrite=True)
    assert GameRecord.load(path).to_json() == rec.to_json() != old
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert sorted(os.listdir(tmp_path)) == ["game.json"]
    with pytest.raises(RecordError, match="cannot write"):
        rec.save(tmp_path / "no such folder" / "game.json")


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failure_mid_save_leaves_the_old_file_intact(tmp_path, monkeypatch, failure):
    rec = _small_record()
    path = tmp_path / "game.json"
    rec.save(path)
    old = path.read_bytes()
    rec.rounds[0].moves.append(rec.replay()[0].final.legal_moves()[0])

    def fail(fd):
        raise failure

    monkeypatch.setattr(record_module.os, "fsync", fail)   # after some bytes are written
    with pytest.raises(RecordError if isinstance(failure, OSError) else KeyboardInterrupt) as info:
        rec.save(path, overwrite=True)
    if isinstance(failure, OSError):
        assert str(info.value).startswith("cannot write ")
        assert str(info.value).endswith("game.json: No space left on device")
    assert path.read_bytes() == old                       # untouched, and no temporary file left
    assert os.listdir(tmp_path) == ["game.json"]
    monkeypatch.undo()
    rec.save(path, overwrite=True)
    assert GameRecord.load(path).to_json() == rec.to_json()


# -- hostile version 2 files ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def four():
    return random_match(Rules(players=4), seed=3)[0]


@pytest.mark.parametrize("where, field, value, expected", [
    (None, "sides", "[" * 10_000,
     "sides must be the seats of each side as the rules make them, [[0, 2], [1, 3]], not '[[[["),
    (None, "sides", [[0, 1], [2, 3]], "sides must be the seats of each side"),
    (None, "sides", [[0, 2], [1, 3.0]], "sides must be the seats of each side"),
    (None, "players", ["a", "b", "c", 4], "players must be four names (one per seat, players=4)"),
    (None, "players", "abcd", "players must be four names"),
    (None, "totals", [1, 2, 3, 4], "totals must be two whole numbers (one per side, sides 0 to 1)"),
    (None, "winner", 3, "winner must be 0, 1 or null, not 3"),
    (None, "rules", ["players=5"], "rules: players must be 2, 3, 4 or 6"),
    (None, "rules", ["players=4", "game=tressette"], "rules: game must be"),
    (0, "dealer", -1, "round 1: the dealer must be 0, 1, 2 or 3, not -1"),
    (0, "dealer", True, "round 1: the dealer must be 0, 1, 2 or 3, not True"),
    (0, "players", ["a", "b"], "round 1: players must be four names"),
    (0, "score", [1, 2, 3, 4], "round 1: score must be two whole numbers (one per side, sides 0 to 1)"),
    (0, "score", [1, -2], "round 1: score must be two whole numbers"),
    (0, "totals", {"0": 1}, "round 1: totals must be two whole numbers"),
    (0, "moves", "7d " * 1000, "round 1: more than 40 moves"),
    (0, "deck", "7d" * 1000, "round 1: the deck must be the 40 cards in deal order"),
])
def test_version_2_fields_are_checked(four, where, field, value, expected):
    data = json.loads(four.to_json())
    assert data["version"] == 2
    (data if where is None else data["rounds"][where])[field] = value
    assert _error(data).startswith(expected)


def test_a_version_2_record_is_replayed_once(four, monkeypatch):
    text = four.to_json()
    calls = count_plays(monkeypatch)
    rec = GameRecord.from_json(text)
    assert len(calls) == sum(len(r.moves) for r in four.rounds)
    assert rec.to_json() == text and rec.totals == four.totals and len(calls) == sum(len(r.moves) for r in four.rounds)


def test_a_shared_lead_at_the_target_plays_on():
    """Three players, target 1: when the highest total at the target is shared, nobody has won
    and the record goes on; the winner is the flow's."""
    found = 0
    for seed in range(40):
        rec = random_match(Rules(players=3, target=1), seed=seed)[0]
        running = rec.running_totals()
        shared = [t for t in running[:-1] if max(t) >= 1]
        assert all(flow.match_winner(t, 1) is None for t in running[:-1])
        assert rec.winner == flow.match_winner(running[-1], 1) is not None
        if shared:
            found += 1
            assert all(list(t).count(max(t)) > 1 for t in shared)
            assert GameRecord.from_json(rec.to_json()).winner == rec.winner
            data = json.loads(rec.to_json())
            data["rounds"] = data["rounds"][:len(shared)]     # stopped at a shared lead: nobody won
            del data["totals"], data["winner"]
            assert GameRecord.from_dict(data).winner is None
    assert found


def test_save_never_replaces_a_file_that_appears_meanwhile(tmp_path, monkeypatch):
    """Without overwrite the rename is a hard link, which fails if the file exists, even when
    it appeared after the first check; without hard links the check has to do."""
    rec = _small_record()
    path = tmp_path / "game.json"
    path.write_text("someone else's file")
    monkeypatch.setattr(record_module.os.path, "lexists", lambda p: False)   # the check missed it
    with pytest.raises(RecordError, match="exists: not overwriting it"):
        rec.save(path)
    assert path.read_text() == "someone else's file" and os.listdir(tmp_path) == ["game.json"]
    monkeypatch.undo()

    def no_links(src, dst):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(record_module.os, "link", no_links)
    fresh = tmp_path / "fresh.json"
    rec.save(fresh)
    assert GameRecord.load(fresh).to_json() == rec.to_json()
    assert sorted(os.listdir(tmp_path)) == ["fresh.json", "game.json"]


def test_a_round_built_in_python_is_checked_too():
    rules = Rules(players=4)
    start = Position.new_round(seed=1, rules=rules)
    rec = GameRecord(rules=rules)
    with pytest.raises(RecordError, match=r"round 1: players must be four names"):
        rec.add_round(RoundRecord(dealer=start.dealer, deck=RoundRecord.from_play(start).deck, players=("a", "b")))
    assert rec.rounds == []
    with pytest.raises(RecordError, match=r"not the start of a round: 3 cards in every hand, 4 on the table"):
        RoundRecord.from_play(start.play(start.legal_moves()[0]))
    with pytest.raises(RecordError, match=r"round 1: the dealer must be 0, 1, 2 or 3, not 4"):
        rec.add_round(RoundRecord(dealer=4, deck=RoundRecord.from_play(start).deck))


# -- the player's comments on moves (issue 45) -------------------------------------------------------

@pytest.mark.parametrize("game", ["scopa", "4 players"])
def test_comments_on_moves_round_trip(game, tmp_path):
    rec = GameRecord.from_json(_match(game)[1].to_json())
    rec.comment(1, 3, "too greedy: the settebello was there")
    rec.comment(len(rec.rounds), 1, "un'apertura — «prudente»")
    rec.comment(1, 5, "removed soon")
    rec.comment(1, 5, None)
    data = json.loads(rec.to_json())
    assert data["rounds"][0]["comments"] == {"3": "too greedy: the settebello was there"} \
        or len(rec.rounds) == 1
    assert data["rounds"][-1]["comments"]["1"] == "un'apertura — «prudente»"
    assert all("comments" not in r for r in data["rounds"][1:-1])
    again = GameRecord.load(rec.save(tmp_path / "commented.json"))
    assert again.rounds[0].comments[3] == "too greedy: the settebello was there"
    assert 5 not in again.rounds[0].comments
    assert again.to_json() == rec.to_json()
    assert data["version"] == (1 if game == "scopa" else 2)       # a two-player record stays version 1


def test_a_record_without_comments_loads_with_none():
    rec = GameRecord.load(V1_FIXTURE)
    assert all(r.comments == {} for r in rec.rounds)
    assert "comments" not in rec.to_json()


def test_bad_comments_are_refused(scopa_match):
    moves = len(scopa_match[1].rounds[0].moves)
    for comments, says in [([1], "comments must be an object"), ({"0": "x"}, "not a move number"),
                           ({str(moves + 1): "x"}, f"1 to {moves}"), ({"1.5": "x"}, "not a move number"),
                           ({"1": ""}, "the comment on move 1 must be text"),
                           ({"1": 7}, "the comment on move 1 must be text"),
                           ({"1": "x" * (record_module.MAX_COMMENT + 1)}, "1 to 1,000 characters")]:
        data = _data(scopa_match)
        data["rounds"][0]["comments"] = comments
        message = _error(data)
        assert message.startswith("round 1: ") and says in message, message
    rec = GameRecord.from_json(scopa_match[1].to_json())
    for args, says in [((0, 1, "x"), "no round 0"), ((1, moves + 1, "x"), "no move"),
                       ((1, 1, "y" * 1001), "1 to 1,000 characters")]:
        with pytest.raises(RecordError, match=says):
            rec.comment(*args)
