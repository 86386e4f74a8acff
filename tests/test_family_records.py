"""Game records and review for every game of the family: whole matches round-trip (JSON, files),
version 1 files still load, tampered records are refused with one clear message, saving is
atomic, and the review's hindsight losses are analyze's value differences."""
from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import pytest

from scopa_solver import Position, Rules, analyze
from scopa_solver.core import flow
from scopa_solver.errors import RecordError
from scopa_solver.play import record as record_module
from scopa_solver.play.record import VERSION, GameRecord, RoundRecord
from scopa_solver.play.recording import RecordingBot, rounds_from_log
from scopa_solver.play.review import review

GAMES = {
    "two players": Rules(),
    "two players, Scopa a 15": Rules(capture="fifteen"),
    "three players": Rules(players=3),
    "three players, Scopa a 15": Rules(players=3, capture="fifteen"),
    "four players, partnerships": Rules(players=4),
    "four players, each alone": Rules(players=4, partnerships=False),
    "six players, two teams": Rules(players=6),
    "Scopone": Rules(players=4, game="scopone"),
    "Scopone scientifico": Rules(players=4, game="scientifico", napola=True),
}
V1_FIXTURE = Path(__file__).parent / "data" / "record-v1.json"
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 6: "six"}


class Chooser:
    """A seeded random chooser at the position level that remembers every position it saw."""

    def __init__(self, seed: int, seen: list) -> None:
        self.rng, self.seen = random.Random(seed), seen

    def __call__(self, pos: Position):
        self.seen.append(pos)
        return self.rng.choice(pos.legal_moves())


def play_match(rules: Rules, seed: int = 1):
    """A whole match of seeded random players, one per seat, the deal passing to the next seat:
    its record, every position in play order, the final position of every round, and the log
    of the RecordingBots that played it."""
    n = rules.players
    names = [f"Random {chr(65 + p)}" for p in range(n)]
    seen: list[Position] = []
    log: list = []
    seats = []
    for p in range(n):
        bot = RecordingBot(Chooser(seed * 10 + p, seen), log)
        bot.name = names[p]
        seats.append(bot)
    rec = GameRecord(rules=rules, players=names, meta={"seed": seed})
    deals = random.Random(seed)
    dealer, totals, finals = n - 1, [0] * rules.side_count, []
    while flow.match_winner(totals, rules.target) is None:
        assert len(rec.rounds) < 60
        start = pos = Position.new_round(seed=deals.getrandbits(64), rules=rules, dealer=dealer)
        moves = []
        while not pos.is_round_over():
            moves.append(seats[pos.to_move](pos))
            pos = pos.play(moves[-1])
        replayed = rec.add_round(RoundRecord.from_play(start, moves))
        assert replayed.points == pos.round_score().total and replayed.dealer == dealer
        totals = [t + p for t, p in zip(totals, pos.round_score().total)]
        finals.append(pos)
        dealer = (dealer + 1) % n
    return rec, seen, finals, log


@pytest.fixture(scope="module", params=list(GAMES), ids=list(GAMES))
def match(request):
    rules = GAMES[request.param]
    return (rules,) + play_match(rules, seed=len(request.param))


def test_a_whole_match_round_trips(match, tmp_path):
    rules, rec, seen, finals, log = match
    n, sides = rules.players, rules.side_count
    totals = tuple(sum(f.round_score().total[s] for f in finals) for s in range(sides))
    assert rec.totals == totals and rec.winner == flow.match_winner(totals, rules.target) is not None
    text = rec.to_json()
    data = json.loads(text)
    assert data["version"] == (1 if n == 2 else 2) and data["rules"] == rules.tokens()
    assert data["players"] == list(rec.players) and len(data["players"]) == n
    assert ("sides" in data) == (n != 2)
    if n != 2:
        assert data["sides"] == [[seat for seat in range(n) if rules.sides[seat] == s] for s in range(sides)]
    assert [r["dealer"] for r in data["rounds"]] == [(n - 1 + i) % n for i in range(len(finals))]
    assert all(len(r["score"]) == len(r["totals"]) == sides for r in data["rounds"])
    assert data["totals"] == list(totals) and data["winner"] == rec.winner
    # JSON text and files, read back exactly; every position of the match replayed exactly
    again = GameRecord.from_json(text)
    assert again.to_json() == text and again.rules == rules and again.players == rec.players
    assert [p for r in again.replay() for p in r.positions[:-1]] == seen
    assert [r.final for r in again.replay()] == finals
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


# -- tampered records --------------------------------------------------------------------------------

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
    data["rounds"][1]["moves"] = " ".join(moves)
    seat = "player" if rules.players == 2 else "seat"
    message = _error(data)
    assert message.startswith(f"round 2, move {k + 1} ({seat} {pos.to_move}, {rec.players[pos.to_move]}): ")
    assert f"does not hold {bad}" in message


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
    data["winner"] = (data["winner"] + 1) % len(score)
    assert _error(data).startswith("the record names ")


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


# -- review ------------------------------------------------------------------------------------------

REVIEWED = ["three players", "four players, partnerships", "six players, two teams", "Scopone", "Scopone scientifico"]


@pytest.mark.parametrize("game", REVIEWED)
def test_review_losses_are_analyze_differences(game):
    """One round of random play reviewed within a small budget: every judged decision's loss
    is analyze's best value minus the played move's; the last deal is always judged; what is
    not judged says why."""
    rules = GAMES[game]
    rng = random.Random(7)
    start = pos = Position.new_round(seed=7, rules=rules)
    moves = []
    while not pos.is_round_over():
        moves.append(rng.choice(pos.legal_moves()))
        pos = pos.play(moves[-1])
    names = [f"P{p}" for p in range(rules.players)]
    rec = GameRecord(rules=rules, players=names, kind="rounds")
    rec.add_round(RoundRecord.from_play(start, moves))
    budget = 300_000
    r = review(rec, worlds=None, max_nodes=budget, progress=False, threads=1)
    assert [d.played for d in r.decisions] == moves and len(r.decisions) == len(moves)
    judged = [d for d in r.decisions if not d.forced and d.judged]
    assert judged and all(d.judged for d in r.decisions[-2 * rules.players:])
    for d in judged:
        values = {row.move: row.value for row in analyze(d.position)}
        assert d.best_value == max(values.values()) and d.played_value == values[d.played]
        assert d.loss == d.best_value - d.played_value >= 0
        assert set(d.best) == {m for m, v in values.items() if v == d.best_value}
        assert d.side == rules.sides[d.player] and d.name == names[d.player]
    unjudged = [d for d in r.decisions if not d.judged]
    for d in unjudged:
        assert d.loss is None and d.best_value is None and d.mark == ""
        assert "300,000 nodes" in d.hindsight_reason
    if unjudged:                    # only a round's first plays: every later one is judged
        assert max(d.number for d in unjudged) < min(d.number for d in judged)
    if game in ("Scopone", "Scopone scientifico"):
        assert unjudged and r.decisions[0].hindsight_reason.startswith("not searched")
    # summaries per name and per seat count every decision once
    for by in ("name", "seat"):
        s = r.summaries(by)
        assert sum(x.decisions + x.forced for x in s.values()) == len(moves)
        assert sum(x.judged for x in s.values()) == len(judged)
        assert sum(x.loss for x in s.values()) == sum(d.loss for d in judged)
    data = json.loads(json.dumps(r.to_dict()))
    assert data["rounds"][0]["score"] == list(pos.round_score().total)
    assert data["rounds"][0]["sides"] == list(rec.side_names(0)) and data["seat_sides"] == list(rules.sides)
    assert [x["name"] for x in data["seat_summary"]] == [f"seat {p}" for p in range(rules.players)]
    text = r.format()
    head = f"round 1: {names[rules.players - 1]} deals; " + ", ".join(
        f"{side} {points}" for side, points in zip(rec.side_names(0), pos.round_score().total))
    assert head in text
    assert ("not judged by hindsight" in text) == bool(unjudged)


def test_fair_review_works_or_says_why():
    """The fair judgement needs the player's view: for a game whose views are not supported
    (yet), each decision says so instead of failing; where they are, it is PIMC's figures."""
    rules = Rules(players=4)
    start = Position.new_round(seed=2, rules=rules)
    pos, moves = start, []
    while not pos.is_round_over():
        moves.append(pos.legal_moves()[-1])
        pos = pos.play(moves[-1])
    rec = GameRecord(rules=rules, players=("A", "B", "C", "D"), kind="rounds")
    rec.add_round(RoundRecord.from_play(start, moves))
    r = review(rec, worlds=2, seed=1, rounds=[1], players=["A"], progress=False, threads=1)
    assert {d.name for d in r.decisions} == {"A"} and len(r.decisions) == len(moves) // 4
    for d in r.decisions:
        if d.forced:
            continue
        if d.fair_reason is not None:
            assert d.fair_loss is None and d.fair_best is None and "view" in d.fair_reason
            assert d.to_dict()["fair"]["reason"] == d.fair_reason
        else:
            assert d.fair_best in d.position.legal_moves() and d.fair_loss >= 0
    text = r.format()
    assert "not judged fairly" in text or "not judged" not in text


# -- hostile version 2 files ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def four():
    return play_match(Rules(players=4), seed=3)[0]


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
    calls = []
    play = Position.play_events

    def counting(self, move):
        calls.append(1)
        return play(self, move)

    monkeypatch.setattr(Position, "play_events", counting)
    rec = GameRecord.from_json(text)
    assert len(calls) == sum(len(r.moves) for r in four.rounds)
    assert rec.to_json() == text and rec.totals == four.totals and len(calls) == sum(len(r.moves) for r in four.rounds)


def test_a_shared_lead_at_the_target_plays_on():
    """Three players, target 1: when the highest total at the target is shared, nobody has won
    and the record goes on; the winner is the flow's."""
    found = 0
    for seed in range(40):
        rec = play_match(Rules(players=3, target=1), seed=seed)[0]
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
