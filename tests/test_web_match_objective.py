"""The match objective in the board's API (issue 42): /api/analyze, /api/solve and
/api/live/start take `match_score` (a list, every side's match points) and `target`; the answer
then holds every move's chance to win the match (`value` in 1/10,000ths, `chance` from 0 to 1)
and `match`. Bad values are 422 naming the field. The equity is the tests' stand-in
(helpers.RaceEquity), installed as the default the board's Match takes."""
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from scopa_solver import Match, Rules, analyze, solve  # noqa: E402
from scopa_solver.web import create_app  # noqa: E402

from helpers import disagreement, late, race_equity  # noqa: E402

SCORE = (9, 7)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(autouse=True)
def equity():
    with race_equity():
        yield


def post(client, path, body, status=200):
    r = client.post(f"/api/{path}", json=body)
    assert r.status_code == status, r.text
    return r.json()


def test_analyze_gives_every_move_its_chance_to_win_the_match(client):
    pos, best_margin, best_match = disagreement(SCORE)
    margin = post(client, "analyze", {"position": pos.to_string()})
    data = post(client, "analyze", {"position": pos.to_string(), "match_score": list(SCORE)})
    want = analyze(pos, objective=Match(SCORE))
    assert data["objective"] == "match" and margin["objective"] == "value"
    assert {m["move"]: (m["value"], m["chance"]) for m in data["moves"]} == \
        {str(r.move): (r.value, r.value / 10000) for r in want}
    assert {m["move"] for m in data["moves"] if m["best"]} == best_match
    assert {m["move"] for m in margin["moves"] if m["best"]} == best_margin != best_match
    assert data["chance"] == want.value / 10000
    assert data["match"] == {"score": list(SCORE), "target": 11, "text": f"{want.value / 100:.2f}% to win the match"}


def test_the_target_and_objective_match(client):
    pos = late(Rules(), 3, 12)
    for target in (11, 16, 21):
        data = post(client, "solve", {"position": pos.to_string(), "match_score": [9, 7], "target": target,
                                      "objective": "match"})
        want = solve(pos, objective=Match(SCORE, target))
        assert (data["value"], data["chance"], data["match"]["target"]) == (want.value, want.value / 10000, target)
        assert data["pv"] == [str(m) for m in want.pv]


def test_a_live_analysis_under_the_match(client):
    pos = late(Rules(), 3, 12)
    started = post(client, "live/start", {"position": pos.to_string(), "match_score": [9, 7], "time_limit": 5})
    deadline = time.monotonic() + 60
    p = {"done": False}
    while not p["done"] and time.monotonic() < deadline:
        time.sleep(0.05)
        p = post(client, "live/poll", {"id": started["id"]})
    want = analyze(pos, objective=Match(SCORE))
    assert p["analysis"]["moves"]["match"]["score"] == [9, 7]
    assert [(m["move"], m["chance"]) for m in p["analysis"]["moves"]["moves"]] == \
        [(str(r.move), r.value / 10000) for r in want]
    assert p["analysis"]["line"]["chance"] == want.value / 10000


@pytest.mark.parametrize("body, status, says", [
    ({"match_score": [9, 10, 3]}, 422, "match_score must be a list of 2 whole numbers"),
    ({"match_score": [9, -1]}, 422, "match_score must hold whole match points"),
    ({"match_score": [12, 10]}, 422, "side 0 has already won a match to 11"),
    ({"match_score": [9, 10], "target": 0}, 422, "target must be"),
    ({"match_score": [9, 10], "target": 1}, 422, "target must be a whole number from 2 to 61, not 1"),
    ({"match_score": [9, 10], "target": 62}, 422, "target must be a whole number from 2 to 61, not 62"),
    ({"target": 21}, 422, "target is the match's target: give match_score too"),
    ({"objective": "match"}, 422, "objective 'match' needs match_score"),
    ({"match_score": [9, 10], "objective": "maxn"}, 422, "objective must be 'match' or null"),
    ({"match_score": "9-10"}, 400, "match_score must be a list of whole numbers"),
    ({"match_score": [9, "x"]}, 400, "match_score must be a list of whole numbers"),
])
@pytest.mark.parametrize("route", ["analyze", "solve", "live/start"])
def test_bad_match_values_name_the_field(client, route, body, status, says):
    data = post(client, route, dict(body, position=late(Rules(), 3, 9).to_string()), status)
    assert says in data["error"], data


def test_lines_take_no_match_score(client):
    data = post(client, "lines", {"position": late(Rules(), 3, 9).to_string(), "match_score": [9, 10]}, 400)
    assert "unknown field 'match_score'" in data["error"]


def test_match_play_says_your_chance_to_win_the_match(client):
    from helpers import RaceEquity
    equity = RaceEquity(11)
    g = post(client, "play/new", {"bot": "greedy", "seat": 1, "seed": 5, "match": 11})
    assert g["match"]["chance"] == round(equity.chance((0, 0), 0, 1), 4)     # seat 0 deals (no dealer effect here)
    while not g["over"]:
        g = post(client, "play/move", {"record": g["record"], "move": g["board"]["legal"][0]})
    m = g["match"]
    assert m["chance"] == round(equity.chance(tuple(m["totals"]), 1, 1), 4)       # the deal passes to seat 1
    assert m["chance"] != 0.5 or m["totals"][0] == m["totals"][1]


def test_no_chance_without_an_equity(client):
    from scopa_solver.search.match import set_default_equity
    previous = set_default_equity(None)
    try:
        g = post(client, "play/new", {"bot": "greedy", "seat": 0, "seed": 5, "match": 11})
    finally:
        set_default_equity(previous)
    assert g["match"]["chance"] is None


def _match_record(client, rounds=2):
    """A board match against Greedy, the human playing the first legal move, `rounds` rounds."""
    g = post(client, "play/new", {"bot": "greedy", "seat": 0, "seed": 5, "match": 11})
    for k in range(rounds):
        if k:
            g = post(client, "play/next", {"record": g["record"]})
        while not g["over"]:
            g = post(client, "play/move", {"record": g["record"], "move": g["board"]["legal"][0]})
    return g["record"]


def test_a_review_by_the_chance_to_win_the_match(client):
    from scopa_solver import GameRecord
    from scopa_solver.play.review import FairReview, review
    record = _match_record(client)
    data = post(client, "review", {"record": record, "round": 2, "worlds": 2, "match": True})
    rec = GameRecord.from_json(record)
    want = review(rec, fair=FairReview(2, 0), rounds=[2], progress=False, match=True)
    assert data["match"] is True and data["loss_unit"] == "percentage points of the chance to win the match"
    assert [(d["played"], d["hindsight"]["best_value"], d["hindsight"]["loss"], d["fair"]["loss"], d["match"])
            for d in data["decisions"]] == \
        [(str(d.played), d.best_value, d.loss, d.fair_loss, {"score": list(rec.running_totals()[0]), "target": 11})
         for d in want.decisions]
    margin = post(client, "review", {"record": record, "round": 2, "worlds": 2})
    assert margin["match"] is False and margin["decisions"][0]["match"] is None


def test_a_review_by_the_match_needs_a_match(client):
    g = post(client, "play/new", {"bot": "greedy", "seat": 0, "seed": 5})
    while not g["over"]:
        g = post(client, "play/move", {"record": g["record"], "move": g["board"]["legal"][0]})
    data = post(client, "review", {"record": g["record"], "match": True}, 422)
    assert "match: the record holds independent rounds" in data["error"]


def test_default_equity_is_the_installed_one():
    from scopa_solver.search.match import MatchError, default_equity, set_default_equity
    from helpers import RaceEquity
    assert isinstance(default_equity(Rules()), RaceEquity) and default_equity(Rules(target=21)).target == 21
    previous = set_default_equity(None)
    try:
        with pytest.raises(MatchError, match="no match equity is installed"):
            default_equity(Rules())
    finally:
        set_default_equity(previous)


def test_a_suggestion_under_the_match(client):
    from scopa_solver import Limit, suggest
    pos, _, _ = disagreement(SCORE, strict=True)
    view = pos.view(pos.to_move)
    data = post(client, "suggest", {"position": view.to_string(), "worlds": 20, "seed": 3, "time_limit": 30,
                                    "match_score": [9, 7]})
    want = suggest(view, Limit(time=30), worlds=20, seed=3, objective=Match(SCORE))
    assert data["objective"] == "match" and data["match"]["score"] == [9, 7] and data["match"]["target"] == 11
    assert [(m["move"], m["mean"], m["chance"]) for m in data["moves"]] == \
        [(str(m.move), m.mean, m.mean / 10000) for m in want.moves]
    refused = post(client, "suggest", {"position": view.to_string(), "match_score": [9, 7], "why": ""}, 422)
    assert "why explains the round's margin" in refused["error"]
    refused = post(client, "suggest", {"position": view.to_string(), "match_score": [9, 7, 1]}, 422)
    assert "match_score must be a list of 2 whole numbers" in refused["error"]


def test_match_play_chance_from_the_shipped_equity(client):
    from scopa_solver.play.equity import MatchEquity
    from scopa_solver.search.match import set_default_equity
    previous = set_default_equity(MatchEquity.of)
    try:
        g = post(client, "play/new", {"bot": "greedy", "seat": 0, "seed": 5, "match": 21})
        three = post(client, "play/new", {"bot": "greedy", "seat": 0, "seed": 5, "match": 11,
                                         "rules": "players=3"})
        pos = late(Rules(), 3, 12)
        data = post(client, "analyze", {"position": pos.to_string(), "match_score": [9, 7]})
    finally:
        set_default_equity(previous)
    eq = MatchEquity.of(Rules(target=21))
    assert g["match"]["chance"] == round(eq.chance((0, 0), 1, 0), 4)        # seat 1 deals the first round
    assert three["match"]["chance"] == round(MatchEquity.of(Rules(players=3)).chance((0, 0, 0), 2, 0), 4)
    want = analyze(pos, objective=Match(SCORE, equity=MatchEquity.of(Rules())))
    assert [(m["move"], m["value"]) for m in data["moves"]] == [(str(r.move), r.value) for r in want]


def test_the_boards_match_bot_is_told_the_score_before_its_round(client):
    # "pimc-match": in a match it plays under Match(the totals so far, the target); in a game
    # of rounds, the margin
    from scopa_solver import GameRecord, GreedyBot, RandomBot, RoundRecord, play_match
    from scopa_solver.web.service import _bot
    played = play_match(GreedyBot(), RandomBot(seed=4), seed=9)
    match = GameRecord(rules=Rules(), players=("you", "PIMC"), kind="match")
    for r in played.rounds[:2]:
        match.add_round(RoundRecord.from_play(r.start, r.moves))
    assert match.totals != (0, 0)
    bot = _bot("pimc-match", 1, match.rules, match)
    assert bot.objective == "match" and bot.match == Match(match.totals, 11)
    rounds = GameRecord(rules=Rules(), players=("you", "PIMC"), kind="rounds")
    assert _bot("pimc-match", 1, rounds.rules, rounds).match is None
    assert _bot("pimc", 1, match.rules, match).objective == "value"
    data = post(client, "play/new", {"bot": "pimc-match", "seat": 1, "seed": 3, "match": 11, "bots": 1})
    assert data["bot"] == "pimc-match" and len(data["log"]) == 1
