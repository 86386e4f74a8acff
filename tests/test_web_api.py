"""The analysis board's JSON API, through FastAPI's TestClient: every endpoint, bad input, limits."""
import contextlib
import json
import threading
from fractions import Fraction

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from scopa_solver.core.cards import iter_cards  # noqa: E402
from scopa_solver import GameRecord, Limit, Position, analyze, solve, suggest  # noqa: E402, Limit
from scopa_solver.web import create_app  # noqa: E402
from scopa_solver.web.service import LIMITS  # noqa: E402
from scopa_solver.play.review import mark  # noqa: E402

SMALL = "7d2c/3b4c 3s4s -/- - 0/0 0 1 -"
START = Position.new_round(seed=5).to_string()


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def post(client, path, body, status=200):
    r = client.post(f"/api/{path}", json=body)
    assert r.status_code == status, r.text
    return r.json()


def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "board.js" in page.text
    for name in ("board.js", "board.css", "favicon.svg"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "http" not in page.text.replace("http-equiv", "")   # offline: no external script, font or style


def test_info(client):
    data = client.get("/api/info").json()
    assert [s["letter"] for s in data["suits"]] == list("dcsb")
    assert data["limits"]["worlds"] == LIMITS["worlds"] and set(data["bots"]) == {"random", "greedy", "pimc", "pimc-match"}


def test_board_of_a_position_and_of_a_view(client):
    b = post(client, "board", {"position": START})
    pos = Position.from_string(START)
    assert b["notation"] == START and b["kind"] == "position"
    assert b["hands"][0]["cards"] == [str(c) for c in iter_cards(pos.hands[0])]
    assert len(b["hands"][0]["cards"]) == 3 and len(b["table"]) == 4 and b["stock"] == 30
    assert b["legal"] == [str(m) for m in pos.legal_moves()] and b["to_move"] == pos.to_move
    v = post(client, "board", {"position": START, "player": 1})
    assert v["kind"] == "view" and v["hands"][0] == {"cards": [], "hidden": 3}
    assert v["notation"] == pos.view(1).to_string()
    # a view's own notation reads back as a view
    assert post(client, "board", {"position": v["notation"]})["hands"][0]["hidden"] == 3


def test_board_after_moves_counts_the_piles(client):
    pos = Position.from_string("5c5bFd/Rb4d6s 3c5dRs2b -/- - 0/0 0 1 -")
    b = post(client, "board", {"position": pos.to_string(), "moves": ["5cx5d"]})
    after = pos.play("5cx5d")
    assert b["notation"] == after.to_string()
    assert sorted(b["piles"][0]) == ["5c", "5d"] and b["piles"][1] == []
    assert b["score"] == json.loads(json.dumps(after.round_score().to_dict())) and b["score"]["players"][0]["cards"] == 2


def test_deal_is_new_round_of_the_seed(client):
    b = post(client, "deal", {"seed": 11})
    assert b["notation"] == Position.new_round(seed=11).to_string() and b["seed"] == 11
    assert post(client, "deal", {})["seed"] >= 0


def test_analyze_gives_the_solver_values(client):
    data = post(client, "analyze", {"position": START})
    expected = analyze(Position.from_string(START))
    assert [(m["move"], m["value"]) for m in data["moves"]] == [(str(r.move), r.value) for r in expected]
    assert [m["best"] for m in data["moves"]] == [r.value == expected[0].value for r in expected]
    assert data["complete"] and data["value"] == expected[0].value


def test_analyze_under_a_node_limit_gives_depth_limited_values(client):
    """A limit too small for the exact search: the first depth (4 plies) still values every move."""
    fresh = Position.new_round(seed=991)
    data = post(client, "analyze", {"position": fresh.to_string(), "max_nodes": 20})
    assert data["horizon"] == 4 and not data["exact"] and data["plies_left"] == 36
    expected = analyze(fresh, Limit(horizon=4))
    assert [(m["move"], m["value"]) for m in data["moves"]] == [(str(r.move), r.value) for r in expected]
    assert all(m["horizon"] == 4 and not m["exact"] for m in data["moves"])


@pytest.mark.parametrize("objective", ["value", "maxn"])
def test_a_scientifico_deal_is_analysed_to_a_depth_within_the_time_limit(client, objective):
    """Far too big to solve: the answer is the deepest depth reached in the request's time, every
    move valued (never unbounded); a longer budget reaches at least as deep. solve the same."""
    deal = Position.new_round(seed=3, rules=Rules(players=4, game="scientifico"))
    short = post(client, "analyze", {"position": deal.to_string(), "time_limit": 0.3, "objective": objective})
    assert short["horizon"] >= 4 and short["horizon"] % 4 == 0 and not short["exact"] and short["plies_left"] == 40
    assert len(short["moves"]) == len(deal.legal_moves())
    assert all(isinstance(m["value"], int) and not m["exact"] for m in short["moves"])
    expected = analyze(deal, Limit(horizon=short["horizon"]), objective=objective)
    assert sorted((m["move"], m["value"]) for m in short["moves"]) == sorted((str(r.move), r.value) for r in expected)
    longer = post(client, "analyze", {"position": deal.to_string(), "time_limit": 1.5, "objective": objective})
    assert longer["horizon"] >= short["horizon"]
    line = post(client, "solve", {"position": deal.to_string(), "time_limit": 0.3, "objective": objective})
    assert line["horizon"] >= 4 and len(line["pv"]) == line["horizon"] and len(line["steps"]) == line["horizon"] + 1


def test_solve_steps_through_the_pv(client):
    data = post(client, "solve", {"position": SMALL})
    result = solve(Position.from_string(SMALL))
    assert data["pv"] == [str(m) for m in result.pv] and data["value"] == result.value
    assert len(data["steps"]) == len(result.pv) + 1
    pos = Position.from_string(SMALL)
    for move, step in zip(result.pv, data["steps"][1:]):
        pos = pos.play(move)
        assert step["notation"] == pos.to_string()
    assert data["steps"][-1]["over"]


def test_tree_is_svg_with_values(client):
    data = post(client, "tree", {"position": SMALL})
    assert data["svg"].startswith("<svg") and data["nodes"] >= 3
    too_big = post(client, "tree", {"position": START, "max_nodes": 3}, 422)
    assert too_big["type"] == "TreeTooLargeError"
    assert post(client, "tree", {"position": SMALL, "max_nodes": 10**9}, 422)["type"] == "LimitError"


def test_suggest_matches_the_package(client):
    data = post(client, "suggest", {"position": START, "player": 0, "worlds": 40, "seed": 3})
    expected = suggest(Position.from_string(START).view(0), worlds=40, seed=3, progress=False)
    assert [(m["move"], round(m["mean"], 9)) for m in data["moves"]] == \
        [(str(m.move), round(m.mean, 9)) for m in expected.moves]
    assert data["worlds"] == 40 and data["seed"] == 3 and data["board"]["kind"] == "view"
    # the other player is not to move
    assert "not player 1" in post(client, "suggest", {"position": START, "player": 1}, 422)["error"]


@pytest.mark.parametrize("body, status, words", [
    ({"position": "7d/3c 4s3s -/- - 0/0 0 1"}, 422, "fields"),
    ({"position": "7d7d/3c 4s3s -/- - 0/0 0 1 -"}, 422, "7d"),
    ({"position": "x" * 5000}, 422, "at most"),
    ({"position": 42}, 400, "position must be a position's notation (text), not 42"),
    ({}, 400, "position is missing"),
    ({"position": SMALL, "moves": ["3b"]}, 422, "does not hold"),
    ({"position": SMALL, "moves": "7d"}, 400, "moves must be a list"),
    ({"position": SMALL, "player": 3}, 422, "player"),
])
def test_bad_board_input_is_a_readable_4xx(client, body, status, words):
    r = client.post("/api/board", json=body)
    assert r.status_code == status, r.text
    data = r.json()
    assert set(data) == {"error", "type"} and len(data["error"]) < 300 and "Traceback" not in data["error"]
    assert words.lower() in data["error"].lower()


@pytest.mark.parametrize("path, body, words", [
    ("analyze", {"position": START, "time_limit": 1000}, "time_limit"),
    ("analyze", {"position": START, "max_nodes": -1}, "max_nodes"),
    ("analyze", {"position": "?3/7c2s3s 7dAc5s7s -/- ?30 0/0 0 1 -"}, "hidden"),
    ("suggest", {"position": START, "worlds": LIMITS["worlds"] + 1}, "worlds"),
    ("play/new", {"bot": "oracle"}, "bot"),
    ("play/new", {"seat": 2}, "seat"),
    ("play/move", {"record": "{", "move": "7d"}, "JSON"),
    ("review", {"record": {"format": "other"}}, "record"),
    ("review", {"record": "[]"}, "record"),
])
def test_limits_and_bad_requests(client, path, body, words):
    data = post(client, path, body, 422)
    assert words.lower() in data["error"].lower()


def test_malformed_body_is_400(client):
    r = client.post("/api/board", content=b"[1, 2]", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    r = client.post("/api/board", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]


def test_a_game_against_the_random_bot_then_its_review(client):
    g = post(client, "play/new", {"bot": "random", "seat": 1, "seed": 4})
    assert g["seat"] == 1 and len(g["log"]) == 1 and g["log"][0]["name"] == "Random"  # the bot led
    assert g["board"]["kind"] == "view" and g["board"]["hands"][0]["hidden"] == 2
    assert post(client, "play/move", {"record": g["record"], "move": "Rz"}, 422)["type"] == "IllegalMoveError"
    while not g["over"]:
        g = post(client, "play/move", {"record": g["record"], "move": g["board"]["legal"][0]})
    record = GameRecord.from_json(g["record"])
    final = record.replay()[0].final
    assert final.is_round_over() and g["score"]["total"] == list(final.round_score().total)
    assert len(g["log"]) == len(record.rounds[0].moves) == 36
    assert g["start"] == record.replay()[0].positions[0].to_string()      # the deal, to open the game in the move list
    assert "over" in post(client, "play/move", {"record": g["record"], "move": "7d"}, 422)["error"]

    r = post(client, "review", {"record": g["record"], "worlds": 5})
    assert r["round"] == 1 and r["round_count"] == 1 and len(r["decisions"]) == 36
    d = r["decisions"][0]
    assert d["position"] == record.replay()[0].positions[0].to_string()
    # the marks follow the fair verdict (hindsight only where there is none), hindsight has its own
    for x in r["decisions"]:
        verdict = x["fair"] if x["verdict"] == "fair" else x["hindsight"]
        assert x["mark"] == mark(verdict["loss"] if not x["forced"] else 0)
        assert x["hindsight"]["mark"] == mark(x["hindsight"]["loss"])
    assert any(x["verdict"] == "fair" for x in r["decisions"])
    # each side's margin split into its skill and the cards, exactly
    score = r["rounds"][0]["score"]
    assert [(x["side"], x["margin"]) for x in r["splits"]] == [(0, score[0] - score[1]), (1, score[1] - score[0])]
    assert all(Fraction(x["skill"]) + Fraction(x["cards"]) == x["margin"] for x in r["splits"])
    assert [s["split"]["skill"] for s in r["summary"]] == [x["skill"] for x in r["splits"]]   # seat 0 first
    assert post(client, "review", {"record": g["record"], "worlds": 201}, 422)["type"] == "LimitError"
    assert post(client, "review", {"record": g["record"], "round": 2}, 422)["type"] == "LimitError"


def test_a_move_out_of_turn_or_illegal_is_refused(client):
    g = post(client, "play/new", {"bot": "greedy", "seat": 0, "seed": 9})
    assert g["log"] == []      # the human (non-dealer) leads
    bad = post(client, "play/move", {"record": g["record"], "move": "AdxRd"}, 422)
    assert bad["type"] == "IllegalMoveError"
    # a record not made by the board
    plain = json.loads(g["record"])
    del plain["meta"]
    assert "board" in post(client, "play/move", {"record": json.dumps(plain), "move": "7d"}, 422)["error"]


def test_a_four_seat_game_with_the_bots_moves_one_a_request(client):
    """`bots: 0` answers right after the human's move; /api/play/bot then plays one bot move a
    request (the page shows each as it lands): the same game as all the bots' moves at once."""
    body = {"bot": "random", "seat": 2, "seed": 11, "rules": "players=4 game=scientifico"}
    g = post(client, "play/new", dict(body, bots=0))
    assert g["log"] == [] and g["board"]["to_move"] == 0        # the bots before seat 2 have not moved yet
    steps = [g]
    while steps[-1]["board"]["to_move"] != 2:
        steps.append(post(client, "play/bot", {"record": steps[-1]["record"]}))
        assert len(steps[-1]["log"]) == len(steps) - 1           # one move a request
    assert len(steps) == 3 and [e["player"] for e in steps[-1]["log"]] == [0, 1]
    once = post(client, "play/new", body)                        # every bot move in one request
    assert once["log"] == steps[-1]["log"] and once["record"] == steps[-1]["record"]
    assert "your turn" in post(client, "play/bot", {"record": once["record"]}, 422)["error"]

    move = once["board"]["legal"][0]
    mine = post(client, "play/move", {"record": once["record"], "move": move, "bots": 0})
    assert [e["move"] for e in mine["log"]][-1] == move and mine["board"]["to_move"] == 3
    assert move.split("x")[0] not in mine["board"]["hands"][2]["cards"]       # the card left the hand
    one = post(client, "play/bot", {"record": mine["record"]})
    assert len(one["log"]) == len(mine["log"]) + 1 and one["log"][-1]["player"] == 3 and one["board"]["to_move"] == 0
    rest = post(client, "play/move", {"record": once["record"], "move": move})
    assert rest["board"]["to_move"] == 2 and rest["log"][:len(one["log"])] == one["log"]
    assert "bots" in post(client, "play/move", {"record": once["record"], "move": move, "bots": -1}, 422)["error"]
    assert post(client, "play/bot", {"record": once["record"], "bots": 1}, 400)["type"] == "BadRequest"


def test_the_boards_pimc_bot_plays_within_the_games_budget(client, monkeypatch):
    """In a family game the board's PIMC bot decides with the game's budget, as at the terminal
    (every bot between two of the player's turns within TURN_SECONDS); 50 worlds in two-player
    Scopa. It was 50 worlds and 5 s a move in every game (15 s between turns with four seats)."""
    from scopa_solver.play import bots as bots_module
    seen: list = []
    monkeypatch.setattr(bots_module.PIMCBot, "choose",
                        lambda self, view: seen.append((self.budget(view.rules), self.limit.time))
                        or view.legal_moves()[0])
    post(client, "play/new", {"bot": "pimc", "seat": 3, "seed": 5, "rules": "players=4 game=scientifico"})
    from scopa_solver import Rules
    rules = Rules(players=4, game="scientifico")
    family = ((bots_module.FAMILY_WORLDS, bots_module.FAMILY_WORLD_NODES), bots_module.decision_seconds(rules))
    assert len(seen) == 3 and set(seen) == {family} and family[1] * 3 <= bots_module.TURN_SECONDS
    seen.clear()
    post(client, "play/new", {"bot": "pimc", "seat": 1, "seed": 5})
    assert seen == [((50, bots_module.WORLD_NODES), bots_module.decision_seconds())]


def test_concurrent_requests(client):
    """Searches run in the threadpool: parallel requests all answer, and answer right."""
    expected = [(str(r.move), r.value) for r in analyze(Position.from_string(START))]
    out, errors = [], []

    def ask():
        try:
            data = post(client, "analyze", {"position": START})
            out.append([(m["move"], m["value"]) for m in data["moves"]])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and out == [expected] * 6


def test_serve_refuses_a_busy_port_in_one_line(capsys):
    import socket
    from scopa_solver.web.__main__ import main
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert main(["--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scopa-solver: cannot listen on 127.0.0.1:") and err.count("\n") == 1
    with pytest.raises(SystemExit):
        main(["--port", "70000"])


# -- every game of the family, and the position editor ---------------------------------------------

from scopa_solver import Rules  # noqa: E402

import helpers  # noqa: E402

SCOPONE = Rules(players=4, game="scopone")


def late(rules, seed, left):
    """A position of `rules` with `left` cards still to play, reached from a seeded deal by
    playing the middle legal move each time."""
    return helpers.late(rules, seed, left, choose=helpers.middle)


@pytest.mark.parametrize("rules", [Rules(players=3), SCOPONE, Rules(players=6), Rules(capture="fifteen")])
def test_board_of_a_family_position_has_every_seat(client, rules):
    pos = late(rules, 5, 12)
    b = post(client, "board", {"position": pos.to_string()})
    n = rules.players
    assert b["players"] == n and b["sides"] == list(rules.sides) and b["game"] == rules.name
    assert [h["cards"] for h in b["hands"]] == [[str(c) for c in iter_cards(h)] for h in pos.hands]
    assert [sorted(p) for p in b["piles"]] == [sorted(str(c) for c in iter_cards(p)) for p in pos.piles]
    assert len(b["scopas"]) == n and b["stock_cards"] == [str(c) for c in pos.stock]
    assert b["score"]["total"] == list(pos.round_score().total) and len(b["score"]["players"]) == rules.side_count
    assert b["legal"] == [str(m) for m in pos.legal_moves()] and b["rules"] == rules.tokens()


@pytest.mark.parametrize("rules", [Rules(players=3), SCOPONE, Rules(players=4, game="scientifico"), Rules(players=6)])
@pytest.mark.parametrize("objective", ["value", "maxn"])
def test_analyze_and_solve_a_family_position(client, rules, objective):
    pos = late(rules, 5, 12)
    data = post(client, "analyze", {"position": pos.to_string(), "objective": objective})
    expected = analyze(pos, objective=objective)
    assert [(m["move"], m["value"]) for m in data["moves"]] == [(str(r.move), r.value) for r in expected]
    assert data["objective"] == objective and data["side"] == rules.sides[pos.to_move]
    s = post(client, "solve", {"position": pos.to_string(), "objective": objective})
    result = solve(pos, objective=objective)
    assert s["pv"] == [str(m) for m in result.pv] and s["value"] == result.value
    assert s["objective"] == objective and s["points"] == list(result.points)
    assert s["steps"][-1]["over"] and len(s["steps"][-1]["hands"]) == rules.players


def test_deal_a_game_of_the_family(client):
    b = post(client, "deal", {"seed": 4, "rules": "players=4 game=scopone"})
    assert b["notation"] == Position.new_round(seed=4, rules=SCOPONE).to_string()
    assert [len(h["cards"]) for h in b["hands"]] == [9] * 4 and b["game"] == "Scopone"
    assert post(client, "deal", {"seed": 4, "rules": ["players=3"], "dealer": 2})["dealer"] == 2
    assert "players" in post(client, "deal", {"rules": "players=5"}, 422)["error"]
    assert "dealer" in post(client, "deal", {"rules": "players=3", "dealer": 3}, 422)["error"]


def test_family_trees_views_and_suggestions(client):
    four = late(Rules(players=4), 3, 8)               # two sides (teams)
    data = post(client, "tree", {"position": four.to_string(), "max_nodes": 400})
    assert data["svg"].startswith("<svg")
    three = late(Rules(players=3), 3, 6)               # three sides: the paranoid value's tree
    data = post(client, "tree", {"position": three.to_string()})
    assert data["svg"].startswith("<svg") and data["nodes"] >= 3 and "</svg>" in data["svg"]
    # seat 3's view of a four-player position: the other hands (partner's too) are counts only
    b = post(client, "board", {"position": four.to_string(), "player": 3})
    view = four.view(3)
    assert b["kind"] == "view" and b["player"] == 3 and b["notation"] == view.to_string()
    assert [h["hidden"] for h in b["hands"]] == [n if p != 3 else 0 for p, n in enumerate(view.hand_sizes())]
    assert [h["cards"] for h in b["hands"]] == [[] if p != 3 else [str(c) for c in iter_cards(view.hand)]
                                                 for p in range(4)]
    assert b["stock_cards"] is None and b["stock"] == view.stock_size()
    assert "player" in post(client, "board", {"position": four.to_string(), "player": 4}, 422)["error"]
    # the suggestion of the seat to move, from the view given as its notation: the package's own
    seat = four.to_move
    text = four.view(seat).to_string()
    data = post(client, "suggest", {"position": text, "worlds": 20, "seed": 7})
    expected = suggest(four.view(seat), worlds=20, seed=7, progress=False)
    assert [(m["move"], round(m["mean"], 9)) for m in data["moves"]] == \
        [(str(m.move), round(m.mean, 9)) for m in expected.moves]
    assert data["exact_worlds"] == expected.exact_worlds and data["horizon"] == expected.horizon
    assert data["board"]["player"] == seat and data["seed"] == 7


def test_a_big_family_suggestion_reports_its_horizon(client):
    """At the first play of Scopone a world is searched to a horizon: the answer says so."""
    start = Position.new_round(seed=2, rules=SCOPONE)
    data = post(client, "suggest", {"position": start.to_string(), "worlds": 4, "seed": 1})
    expected = suggest(start.view(start.to_move), worlds=4, seed=1, progress=False)
    assert [m["move"] for m in data["moves"]] == [str(m.move) for m in expected.moves]
    assert data["horizon"] == expected.horizon and data["exact_worlds"] == expected.exact_worlds
    assert data["horizon"] is not None and data["exact_worlds"] < 4


def test_compose_builds_the_position_of_its_places(client):
    pos = late(SCOPONE, 8, 16)
    body = {"hands": [[str(c) for c in iter_cards(h)] for h in pos.hands],
            "table": [str(c) for c in iter_cards(pos.table)],
            "piles": [[str(c) for c in iter_cards(p)] for p in pos.piles],
            "stock": [str(c) for c in pos.stock], "scopas": list(pos.scopas), "dealer": pos.dealer,
            "last_capturer": pos.last_capturer, "rules": "players=4 game=scopone"}
    b = post(client, "compose", body)
    assert b["notation"] == pos.to_string() and b["to_move"] == pos.to_move
    # two-player Scopa: the defaults (seat 1 deals, nothing captured), the stock in deal order kept
    two = post(client, "compose", {"hands": ["7d 2c", ["3b", "4c"]], "table": ["3s", "4s"],
                                   "stock": ["Ad", "2d", "3d", "Ac", "Rb", "Cb"]})
    expected = Position(hands=("7d 2c", "3b 4c"), table="3s 4s", stock="Ad 2d 3d Ac Rb Cb")
    assert two["notation"] == expected.to_string() and two["stock_cards"] == ["Ad", "2d", "3d", "Ac", "Rb", "Cb"]
    assert post(client, "compose", {})["notation"] == Position().to_string()
    # places as card text, as in the notation
    text = post(client, "compose", {"hands": ["7d2c", "3b 4c"], "table": "3s4s", "piles": ["-", ""]})
    assert text["notation"] == Position(hands=("7d 2c", "3b 4c"), table="3s 4s").to_string()


@pytest.mark.parametrize("body, words", [
    ({"hands": [["7d"], ["7d"]]}, "7d"),                                   # a card twice
    ({"hands": [["7z"], []]}, "7z"),                                       # not a card
    ({"hands": [["7d"], ["3c"]], "stock": ["Ad", "2d", "3d", "4d", "5d"]}, "deals"),   # no deal leaves 5
    ({"hands": [["7d", "2c", "3c"], []]}, "cannot occur"),                # hand sizes no turn order gives
    ({"hands": [["7d"], ["3c"]], "to_move": 1}, "turn"),
    ({"hands": [["7d"], ["3c"]], "piles": [["Rb"], []]}, "last_capturer"),
    ({"hands": [["7d"], ["3c"]], "scopas": [1, 0]}, "scopa"),
    ({"hands": [["7d"], ["3c"]], "scopas": [21, 0]}, "scopas"),
    ({"hands": [["7d"], ["3c"], ["Rb"]]}, "2 entries, one per seat"),       # 3 hands, 2 players
    ({"hands": [["7d"], ["3c"]], "rules": "game=scopone"}, "4 players"),
    ({"hands": [["7d"], ["3c"]], "rules": "players=4"}, "4 entries"),
    ({"hands": [["7d"], ["3c"]], "dealer": 2}, "dealer"),
    ({"hands": [["7d"], ["3c"]], "table": ["Ad"] * 41}, "40"),
    ({"hands": [["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Fd", "Cd", "Rd"], [], [], []],
      "rules": "players=4 game=scopone"}, "at most 9"),
])
def test_compose_refuses_an_impossible_position_readably(client, body, words):
    data = post(client, "compose", body, 422)
    assert set(data) == {"error", "type"} and "Traceback" not in data["error"]
    assert words.lower() in data["error"].lower(), data["error"]


@pytest.mark.parametrize("path, body, words", [
    ("analyze", {"position": START, "time_limit": True}, "time_limit"),
    ("suggest", {"position": START, "seed": "x"}, "seed"),
    ("solve", {"position": START, "objective": 1}, "objective"),
    ("solve", {"position": START, "objective": ["maxn"]}, "objective"),
    ("play/new", {"bot": ["random"]}, "bot"),
    ("compose", {"hands": [["7d"], ["3c"]], "rules": 7}, "rules must be"),
    ("compose", {"hands": [["7d"], ["3c"]], "table": [7]}, "table must be"),
    ("compose", {"hands": [["7d"], ["3c"]], "where": 1}, "unknown field 'where'"),
])
def test_fields_of_the_wrong_type_or_unknown_are_400(client, path, body, words):
    data = post(client, path, body, 400)
    assert data["type"] == "BadRequest" and words.lower() in data["error"].lower(), data["error"]


def test_compose_needs_a_json_object(client):
    r = client.post("/api/compose", content=b"[1]", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json()["error"]


@pytest.mark.parametrize("path, body, words", [
    ("analyze", {"position": START, "objective": "paranoid"}, "objective"),
    ("analyze", {"position": SMALL + " players=4"}, "four parts"),
    ("board", {"position": "7d/3c/Rb 3s4s -/- - 0/0 0 2 - players=3"}, "three parts"),
])
def test_bad_family_requests(client, path, body, words):
    assert words.lower() in post(client, path, body, 422)["error"].lower()


@pytest.mark.parametrize("rules", ["players=3", "players=4 game=scopone", "capture=fifteen"])
def test_a_game_of_the_family_is_played_then_reviewed(client, monkeypatch, rules):
    """A round of the family against the random bot, the human's moves picked by the package,
    then its review: a decision for every move of every seat. Scopone's review has a 1 s budget
    (judging its early decisions takes 7 s): it returns every decision, the late ones judged."""
    game = Rules.from_tokens(rules.split())
    g = post(client, "play/new", {"bot": "random", "seat": 0, "seed": 3, "rules": rules})
    assert len(g["board"]["hands"]) == game.players and g["board"]["rules"] == game.tokens()
    assert g["board"]["kind"] == "view" and g["board"]["player"] == 0
    assert all(h["hidden"] > 0 and not h["cards"] for h in g["board"]["hands"][1:])
    while not g["over"]:
        pos = GameRecord.from_json(g["record"]).replay()[0].final
        assert pos.to_move == 0 and g["board"]["legal"] == [str(m) for m in pos.legal_moves()]
        g = post(client, "play/move", {"record": g["record"], "move": str(pos.legal_moves()[-1])})
    record = GameRecord.from_json(g["record"])
    final = record.replay()[0].final
    assert final.is_round_over() and g["score"]["total"] == list(final.round_score().total)
    dealt = 40 - len(list(iter_cards(record.replay()[0].positions[0].table)))   # every card dealt is played
    assert len(g["log"]) == len(record.rounds[0].moves) == dealt and record.rules == game
    assert {e["player"] for e in g["log"]} == set(range(game.players))

    if game.game == "scopone":
        monkeypatch.setitem(LIMITS, "review_time", 1.0)
    r = post(client, "review", {"record": g["record"], "worlds": 3})
    assert len(r["decisions"]) == dealt
    assert any(d["hindsight"]["judged"] and not d["forced"] for d in r["decisions"])
    assert {d["player"] for d in r["decisions"]} == set(range(game.players))
    assert r["decisions"][0]["position"] == record.replay()[0].positions[0].to_string()
    assert "seat" in post(client, "play/new", {"rules": rules, "seat": 6}, 422)["error"]
    assert "players" in post(client, "play/new", {"rules": "players=5"}, 422)["error"]


def test_info_names_the_family(client):
    data = client.get("/api/info").json()
    assert data["family"]["players"] == [2, 3, 4, 6] and "scientifico" in data["family"]["games"]
    assert set(data["objectives"]) == {"value", "maxn"}


# -- the server's limits (issue 29): time, bodies, memory, stopping ------------------------------

import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402
from pathlib import Path  # noqa: E402

from scopa_solver import RoundRecord, Rules, kernel  # noqa: E402
from scopa_solver.errors import ScopaError, TimeLimitError  # noqa: E402
from scopa_solver.play.bots import GreedyBot  # noqa: E402
from scopa_solver.play.review import FairReview, review  # noqa: E402
from scopa_solver.tree import TreeOptions, to_networkx  # noqa: E402
from scopa_solver.web.app import free_port, make_server  # noqa: E402

# A Scopone deal whose pv tree needs minutes of search (issue 29: no answer in 90 s)
SCOPONE_DEAL = ("4d6d4c5cCc7sFs2b6b/2d3dRdAc2c7cRc2s3b/3cAs3s5s6sCsRs4bRb/Ad5d7dFdFc4sAb7bCb Cd6c5bFb "
                "-/-/-/- - 0/0/0/0 0 3 - players=4 game=scopone")
HANG = 120     # seconds: a loose bound, many times what a bounded request takes; the point is "no hang"


def finishes(call, seconds=HANG):
    """`call()`'s result, run in a thread; fails if it is still running after `seconds`."""
    out = {}

    def run():
        try:
            out["result"] = call()
        except BaseException as exc:
            out["error"] = exc
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in out:
        raise out["error"]
    return out["result"]


def until(condition, seconds=HANG):
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.01)


def greedy_record(rules, seed, rounds=1):
    rec = GameRecord(rules=rules, players=tuple(f"p{i}" for i in range(rules.players)), kind="rounds")
    for k in range(rounds):
        start = pos = Position.new_round(seed=seed + k, rules=rules)
        moves = []
        while not pos.is_round_over():
            moves.append(GreedyBot()(pos))
            pos = pos.play(moves[-1])
        rec.add_round(RoundRecord.from_play(start, moves))
    return rec


def test_a_time_box_reaches_every_search_and_can_be_cancelled():
    pos = Position.from_string(SCOPONE_DEAL)
    with pytest.raises(TimeLimitError, match="the solve needs more than 0.2 s"):
        with kernel.time_box(0.2, "the solve"):
            solve(pos)
    boxes = []

    def cancelled():
        with pytest.raises(TimeLimitError, match="stop now"):
            with kernel.time_box(1e6) as box:
                boxes.append(box)
                solve(pos)
    thread = threading.Thread(target=cancelled)
    thread.start()
    until(lambda: boxes and boxes[0].tokens)
    boxes[0].cancel("stop now")     # once is enough: the search's stop token stays set
    thread.join(HANG)
    assert not thread.is_alive() and kernel.pool_stats()["busy"] == 0
    assert solve(Position.from_string(SMALL)).value == analyze(Position.from_string(SMALL))[0].value  # no box now


def test_the_tree_is_bounded_in_time(monkeypatch):
    """Issue 29, 1: to_networkx(mode="pv") solved the root without a limit."""
    with pytest.raises(TimeLimitError, match="the pv tree needs more than 0.3 s"):
        finishes(lambda: to_networkx(Position.from_string(SCOPONE_DEAL), Limit(time=0.3),
                                     TreeOptions(max_nodes=3000), mode="pv"))
    monkeypatch.setitem(LIMITS, "tree_time", 0.3)
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        r = finishes(lambda: c.post("/api/tree", json={"position": SCOPONE_DEAL, "max_nodes": 3000}))
    assert r.status_code == 422 and r.json()["type"] == "TimeLimitError", r.text
    assert kernel.pool_stats()["busy"] == 0          # its searches stopped with it


def test_a_review_is_bounded_in_time_and_returns_what_it_has(monkeypatch):
    """Issue 29, 2: a 6-player round at 50 worlds took more than 150 s."""
    rec = greedy_record(Rules(players=6), seed=4)
    r = finishes(lambda: review(rec, fair=FairReview(worlds=50), budget=1.0, progress=False))
    assert not r.complete and len(r.decisions) == len(rec.rounds[0].moves)
    assert any(d.hindsight_reason == "not judged: the review needs more than 1 s"
               or (d.fair_reason or "").startswith("not judged: the review") for d in r.decisions)
    assert all(d.judged or d.hindsight_reason for d in r.decisions)
    monkeypatch.setitem(LIMITS, "review_time", 1.0)
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        out = finishes(lambda: post(c, "review", {"record": rec.to_json()}))
    assert out["complete"] is False and out["budget"] == 1.0 and len(out["decisions"]) == len(r.decisions)
    assert any((d["fair"] or {}).get("reason", "") and "not judged" in d["fair"]["reason"] for d in out["decisions"])
    small = greedy_record(Rules(), seed=4)           # a budget that suffices changes nothing
    assert review(small, fair=FairReview(worlds=4), budget=600, progress=False).to_dict()["decisions"] == \
        review(small, fair=FairReview(worlds=4), progress=False).to_dict()["decisions"]


def test_a_record_object_has_the_record_limit(client, monkeypatch):
    """Issue 29, 3: a record sent as a JSON object skipped the record limit."""
    rec = greedy_record(Rules(), seed=1, rounds=4)
    text = rec.to_json()
    monkeypatch.setitem(LIMITS, "record", len(text) // 2)
    for form in (text, json.loads(text)):
        e = post(client, "review", {"record": form}, 422)
        assert e["type"] == "LimitError" and f"at most {len(text) // 2:,}" in e["error"]


def test_a_body_over_the_cap_is_refused_before_it_is_parsed(client):
    """Issue 29, 3: bodies had no size limit (and 413 comes before the body is read)."""
    big = b'{"position": "' + b"x" * LIMITS["body"] + b'"}'
    for content in (big, iter([big[:1000], big[1000:]])):      # with a length, and chunked without
        r = client.post("/api/board", content=content, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["type"] == "BodyTooLarge", r.text
    deep = b"[" * 100_000 + b"]" * 100_000
    r = client.post("/api/board", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["type"] == "BadRequest"


def test_cheap_requests_never_wait_behind_searches(monkeypatch):
    """All search places taken and nobody may wait: a search is refused (503), the board is not."""
    monkeypatch.setitem(LIMITS, "searches", 1)
    monkeypatch.setitem(LIMITS, "queue", 0)
    app = create_app()
    with TestClient(app, raise_server_exceptions=False) as c:
        slow = threading.Thread(target=lambda: c.post("/api/tree", json={"position": SCOPONE_DEAL}))
        slow.start()
        until(lambda: kernel.pool_stats()["busy"])
        busy = c.post("/api/analyze", json={"position": SMALL})
        assert busy.status_code == 503 and busy.json()["type"] == "ServerBusy", busy.text
        assert c.post("/api/board", json={"position": SMALL}).status_code == 200
        assert c.get("/api/info").status_code == 200
        while slow.is_alive():
            for box in list(app.state.time_boxes):
                box.cancel("the test is over")
            slow.join(0.01)
        assert post(c, "analyze", {"position": SMALL})["value"] is not None   # the place is free again


def _serve_in_thread():
    port = free_port()
    server = make_server(port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    until(lambda: server.started)
    return server, thread, port


def test_a_client_that_leaves_stops_its_search(monkeypatch):
    """Abandoned requests stop their search at once, not at their time limit."""
    monkeypatch.setitem(LIMITS, "tree_time", 600.0)
    monkeypatch.setitem(LIMITS, "request_time", 600.0)
    server, thread, port = _serve_in_thread()
    try:
        body = json.dumps({"position": SCOPONE_DEAL}).encode()
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /api/tree HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            until(lambda: kernel.pool_stats()["busy"])
        until(lambda: not kernel.pool_stats()["busy"], 30)      # 600 s were allowed
    finally:
        server.should_exit = True
        thread.join(HANG)


def test_stopping_the_server_stops_a_running_search(monkeypatch):
    monkeypatch.setitem(LIMITS, "tree_time", 600.0)
    monkeypatch.setitem(LIMITS, "request_time", 600.0)
    server, thread, port = _serve_in_thread()
    answer = {}

    def ask():
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tree", data=json.dumps(
            {"position": SCOPONE_DEAL}).encode(), headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=HANG)
        except urllib.error.HTTPError as exc:
            answer.update(status=exc.code, **json.loads(exc.read()))
    asking = threading.Thread(target=ask)
    asking.start()
    until(lambda: kernel.pool_stats()["busy"])
    server.should_exit = True
    thread.join(HANG)
    asking.join(HANG)
    assert not thread.is_alive() and answer == {"status": 422, "error": "the server is stopping",
                                                "type": "TimeLimitError"}


def test_ctrl_c_stops_the_server_mid_search():
    """Issue 29, 4: the server could not be stopped with Ctrl-C while a search ran."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    proc = subprocess.Popen([sys.executable, "-m", "scopa_solver.web", "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        until(lambda: _answers(port), 60)
        answer = {}
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tree", data=json.dumps(
            {"position": SCOPONE_DEAL}).encode(), headers={"Content-Type": "application/json"})

        def ask():
            try:
                urllib.request.urlopen(req, timeout=HANG)
            except urllib.error.HTTPError as exc:
                answer.update(json.loads(exc.read()))
            except OSError:
                pass
        asking = threading.Thread(target=ask)
        asking.start()
        time.sleep(1.0)             # the tree's search is under way (it takes minutes)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(HANG) == 0
        asking.join(HANG)
        assert answer.get("error") == "the server is stopping"      # it was stopped mid-search
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def _answers(port):
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5).status == 200
    except OSError:
        return False


# -- the request fields (hardening issue, section 3): every route declares its fields ------------

REC = greedy_record(Rules(), seed=2).to_json()
# route -> its fields: a valid value and one of the wrong type; the required ones come first
FIELDS = {
    "board": {"position": (SMALL, 42), "player": (0, "0"), "moves": (["7dx3s+4s"], "7dx3s+4s")},
    "deal": {"seed": (1, "1"), "dealer": (1, 1.0), "rules": ("players=3", 3)},
    "compose": {"hands": ([["7d"], ["3c"]], "7d"), "table": (["4s"], 4), "piles": ([[], []], {}),
                "stock": ([], True), "scopas": ([0, 0], 0), "dealer": (1, "1"), "to_move": (0, [0]),
                "last_capturer": (None, "x"), "rules": (["players=2"], {"players": 2})},
    "analyze": {"position": (SMALL, ["x"]), "time_limit": (0.5, "1"), "max_nodes": (1000, 1e3),
                "objective": ("value", 1), "match_score": (None, "9-10"), "target": (None, "11")},
    "solve": {"position": (SMALL, None), "time_limit": (1, True), "max_nodes": (None, "9"),
              "objective": ("maxn", ["maxn"]), "match_score": (None, [9, 1.5]), "target": (None, 11.0)},
    "tree": {"position": (SMALL, {}), "max_nodes": (50, 50.5)},
    "lines": {"position": (SMALL, 3), "time_limit": (0.5, "1"), "max_nodes": (None, "9"),
              "objective": ("value", 1), "count": (2, 2.5)},
    "suggest": {"position": (SMALL, 7), "player": (0, False), "worlds": (5, "5"), "seed": (1, 1.5),
                "time_limit": (1, "1 s"), "why": ("", 3), "match_score": (None, [True]), "target": (None, "21")},
    "unseen": {"position": (SMALL, 7), "player": (0, "0"), "model": (True, "yes"), "worlds": (5, "5"),
               "seed": (1, 1.5), "moves": (["7dx3s+4s"], "7dx3s+4s")},
    "play/new": {"bot": ("greedy", ["greedy"]), "seat": (0, "0"), "seed": (3, "3"), "rules": (None, 2),
                 "bots": (1, "1"), "match": (None, "11")},
    "play/move": {"record": (REC, 1), "move": ("7d", 7), "bots": (0, 0.5)},
    "play/bot": {"record": (REC, ["x"])},
    "review": {"record": (REC, ["x"]), "round": (1, "1"), "worlds": (2, 2.0), "seed": (0, "0"), "match": (None, 1)},
    "puzzle": {"game": ("scopone", 4), "tag": ("sweep", ["sweep"]), "seed": (3, "3")},
    "play/next": {"record": (REC, 1), "bots": (0, 0.5)},
    "play/hint": {"record": (REC, ["x"]), "seed": (1, 1.5)},
}
TEXT_FIELDS = {"position", "moves", "rules", "objective", "bot", "record", "move", "hands", "table", "piles",
               "stock"}


def _valid(route):
    """The route's required fields, valid (a body it answers 200)."""
    return {k: v for k, (v, _) in FIELDS[route].items() if k in ("position", "record") or
            (route == "play/move" and k == "move")}


def refused(client, route, content, field):
    """`content` (bytes) is answered 400 with a message naming `field`."""
    r = client.post(f"/api/{route}", content=content, headers={"content-type": "application/json"})
    assert r.status_code == 400, (route, content[:80], r.status_code, r.text[:200])
    data = r.json()
    assert data["type"] == "BadRequest" and field in data["error"], (route, content[:80], data)
    return data["error"]


@pytest.mark.parametrize("route", sorted(FIELDS))
def test_unknown_and_ill_formed_fields_are_a_4xx_naming_the_field(client, route):
    """Section 3: `{"position": "\\ud800"}` (a lone surrogate) or a truncated string sent to
    /api/deal and /api/play/new was ignored and a random position dealt (200)."""
    from scopa_solver.web.fields import ROUTES
    assert [list(m.model_fields) for m, path in ROUTES.items() if path == f"/api/{route}"] == [list(FIELDS[route])]
    base = _valid(route)
    head = json.dumps(base)[:-1].encode() + (b", " if base else b"")    # the valid fields, the object left open
    every = {k: v for k, (v, _) in FIELDS[route].items()}
    assert client.post(f"/api/{route}", json=every).status_code in (200, 422)     # the valid values are read
    unknown = "position" if "position" not in FIELDS[route] else "positio"
    for value in ("\ud800", "7d/3c 4s", 1):
        error = refused(client, route, head + json.dumps({unknown: value})[1:].encode(), unknown)
        assert "unknown field" in error, error
    for name, (_, wrong) in FIELDS[route].items():
        refused(client, route, json.dumps({**base, name: wrong}).encode(), name)      # the wrong type
        if name not in TEXT_FIELDS:
            continue
        refused(client, route, head + b'"%s": "7d\\ud800"}' % name.encode(), name)     # a lone surrogate
        refused(client, route, head + b'"%s": ["\\udc00"]}' % name.encode(), name)
        refused(client, route, head + b'"%s": "7d\xe2\x99"}' % name.encode(), name)   # a character cut short
        refused(client, route, head + b'"%s": "7d/3c 4s' % name.encode(), name)        # the text cut short


# -- connections (hardening issue, section 3): idle sockets, slow requests, one client's share ---

def _closed(s):
    """Whether the server has closed socket `s` (without waiting)."""
    s.setblocking(False)
    try:
        return s.recv(1 << 16) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _get_info(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=10) as r:
        return r.status


@contextlib.contextmanager
def _served(held):
    """A server in a thread (its port), stopped after; the sockets `held` closed too."""
    server, thread, port = _serve_in_thread()
    try:
        yield server, port
    finally:
        for s in held:
            s.close()
        server.should_exit = True
        thread.join(HANG)


def test_idle_connections_lock_nobody_out_and_are_closed(monkeypatch):
    """Section 3: 66 connections that sent nothing (or half a header) made /api/info answer 503
    for as long as they stayed open (uvicorn counted them and never timed them out)."""
    monkeypatch.setitem(LIMITS, "header_time", 1.0)
    held = []
    with _served(held) as (server, port):
        for k in range(LIMITS["connections"] + 10):
            s = socket.create_connection(("127.0.0.1", port))
            if k == 0:              # a request answered, then half of the next one on the same connection
                s.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n")
                assert s.recv(1 << 16).startswith(b"HTTP/1.1 200 ")
                s.sendall(b"GET /api/info HTTP/1.1\r\nHo")
            elif k % 2:
                s.sendall(b"POST /api/board HTTP/1.1\r\nHost: x\r\nContent-Type: appl")    # half a header
            held.append(s)
        # every one accepted (counted by the server, or closed by it already)
        until(lambda: len(server.server_state.connections) + sum(map(_closed, held)) >= len(held), 30)
        assert [_get_info(port) for _ in range(5)] == [200] * 5
        assert len(server.server_state.connections) <= LIMITS["per_client"]        # one client's share
        until(lambda: all(map(_closed, held)), 30)          # closed after the header time (1 s here)
        assert not server.server_state.connections
        assert _get_info(port) == 200


def test_a_slow_body_is_cut_off_and_one_client_gets_its_share(monkeypatch):
    """A body that does not arrive in `body_time` is answered 408 and its connection closed; a
    client holding `per_client` busy connections gets 503 on one more, and a place again once
    they are gone."""
    monkeypatch.setitem(LIMITS, "body_time", 1.0)
    monkeypatch.setitem(LIMITS, "per_client", 3)
    slow = []
    with _served(slow) as (server, port):
        for _ in range(LIMITS["per_client"]):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /api/board HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"position\": ")                # the body never ends
            slow.append(s)
        until(lambda: len(server.server_state.tasks) == len(slow), 30)
        with pytest.raises(urllib.error.HTTPError) as busy:
            _get_info(port)
        assert busy.value.code == 503 and "connections" in json.loads(busy.value.read())["error"]
        for s in slow:
            s.settimeout(HANG)
            answer = b""
            while not answer.endswith(b"}") and (part := s.recv(4096)):
                answer += part
            assert answer.startswith(b"HTTP/1.1 408 ") and b"connection: close" in answer.lower(), answer
        until(lambda: all(map(_closed, slow)), 30)
        assert _get_info(port) == 200


# -- a player's view never gets a hidden card back ------------------------------------------------------

def _hidden_cards(pos: Position, player: int) -> set:
    """The cards `player` cannot see in `pos`: every other hand and the stock."""
    cards = {str(c) for p in range(pos.rules.players) if p != player for c in iter_cards(pos.hands[p])}
    return cards | {str(c) for c in pos.stock}


def _strings(data) -> list:
    """Every text in a JSON answer, keys included."""
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *_strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return [data] if isinstance(data, str) else []


@pytest.mark.parametrize("player", [0, 1])
def test_a_view_never_gets_a_hidden_card_back_from_any_route(client, player):
    pos = Position.new_round(seed=5)
    view = pos.view(player).to_string()
    hidden = _hidden_cards(pos, player)
    assert len(hidden) == 33 and "?" in view
    answers = {}
    for route in ("analyze", "solve", "tree"):      # an exact search of a view would name the hidden cards
        answers[route] = post(client, route, {"position": view}, 422)
        assert "player's view" in answers[route]["error"] and "/api/suggest" in answers[route]["error"]
    answers["board"] = post(client, "board", {"position": view})
    answers["board of the position"] = post(client, "board", {"position": START, "player": player})
    if pos.to_move == player:
        answers["suggest"] = post(client, "suggest", {"position": view, "worlds": 20, "seed": 1})
        assert answers["suggest"]["moves"]
    for route, answer in answers.items():
        told = [c for c in hidden for s in _strings(answer) if c in s]
        assert not told, (route, told)
    assert answers["board"]["stock_cards"] is None and answers["board"] == answers["board of the position"]
    # `unseen` lists the unseen cards (the player knows which they are), never where: the same
    # answer from the view alone as from the whole position
    unseen = {"model": True, "worlds": 20, "seed": 1}
    assert post(client, "unseen", {"position": view, **unseen}) == \
        post(client, "unseen", {"position": START, "player": player, **unseen})


# -- live analyses (/api/live/*): one search deepening between requests, read and stopped ------

def _poll_until(client, key, done, seconds=60.0):
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        p = client.post("/api/live/poll", json={"id": key}).json()
        if done(p):
            return p
        time.sleep(0.05)
    raise AssertionError(f"no poll answer matched: {str(p)[:500]}")


def test_a_live_analysis_deepens_reports_live_nodes_and_stops(client):
    deal = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))
    key = client.post("/api/live/start", json={"position": deal.to_string(), "time_limit": 30}).json()["id"]
    _poll_until(client, key, lambda p: p["analysis"] is not None)
    # the nodes move while a depth is searched (read live from the kernel), not only when it lands
    seen: list = []

    def moved(p):
        seen.append(p)
        before = seen[-2] if len(seen) > 1 else None
        return (before is not None and not p["done"] and p["info"]["nodes"] > before["info"]["nodes"]
                and p["analysis"]["moves"]["horizon"] == before["analysis"]["moves"]["horizon"])
    later = _poll_until(client, key, moved)
    assert later["info"]["depth"] > later["analysis"]["moves"]["horizon"] and later["info"]["nps"] > 0
    moves, line = later["analysis"]["moves"], later["analysis"]["line"]
    assert len(moves["moves"]) == len(deal.legal_moves()) and moves["exact"] is False
    assert line["pv"] and len(line["steps"]) == len(line["pv"]) + 1 and line["value"] == moves["value"]
    assert client.post("/api/live/stop", json={"id": key}).json() == {"id": key, "stopped": True}
    end = _poll_until(client, key, lambda p: p["done"])
    assert end["analysis"]["moves"]["stopped"] == "request" and end["analysis"]["moves"]["value"] is not None


def test_a_live_analysis_ends_exact_or_at_its_time_limit(client):
    late = Position.from_string("7d2c/3b4c 3s4s -/- - 0/0 0 1 -")
    key = client.post("/api/live/start", json={"position": late.to_string()}).json()["id"]
    end = _poll_until(client, key, lambda p: p["done"])
    assert end["analysis"]["moves"]["complete"] and end["analysis"]["moves"]["value"] == analyze(late).value
    deal = Position.new_round(seed=8, rules=Rules(players=4, game="scientifico"))
    key = client.post("/api/live/start", json={"position": deal.to_string(), "time_limit": 0.5}).json()["id"]
    end = _poll_until(client, key, lambda p: p["done"])
    assert end["analysis"]["moves"]["stopped"] == "time"


def test_live_analyses_are_capped_and_bad_requests_refused(client):
    deal = Position.new_round(seed=9, rules=Rules(players=4, game="scientifico")).to_string()
    keys = [client.post("/api/live/start", json={"position": deal, "time_limit": 60}).json()["id"]
            for _ in range(LIMITS["live"] + 1)]
    assert len(set(keys)) == len(keys)
    # past the cap the oldest was stopped: it ends (stopped at the request), the newest goes on
    assert _poll_until(client, keys[0], lambda p: p["done"])["done"]
    assert not client.post("/api/live/poll", json={"id": keys[-1]}).json()["done"]
    for key in keys:
        client.post("/api/live/stop", json={"id": key})
    r = client.post("/api/live/poll", json={"id": "no-such-analysis"})
    assert r.status_code == 422 and r.json()["type"] == "NoSuchAnalysis"
    assert client.post("/api/live/poll", json={"id": 3}).status_code == 400
    assert client.post("/api/live/poll", json={}).status_code == 400
    for bad in (0, -1, LIMITS["live_time"] + 1, "5"):
        r = client.post("/api/live/start", json={"position": deal, "time_limit": bad})
        assert r.status_code in (400, 422) and "time_limit" in r.json()["error"], (bad, r.json())
    assert client.post("/api/live/start", json={"position": "not a position"}).status_code == 422


# -- annotations (issue 45) --------------------------------------------------------------------------

def _finished_game(client, seed=4):
    g = post(client, "play/new", {"bot": "random", "seat": 0, "seed": seed})
    while not g["over"]:
        g = post(client, "play/move", {"record": g["record"], "move": g["board"]["legal"][0]})
    return g


def test_a_comment_is_saved_in_the_record_and_the_review_shows_it(client):
    g = _finished_game(client)
    a = post(client, "annotate", {"record": g["record"], "move": 3, "comment": "  too early for the 7  "})
    assert a["round"] == 1 and a["comments"] == {"3": "too early for the 7"}
    assert GameRecord.from_json(a["record"]).rounds[0].comments == {3: "too early for the 7"}
    b = post(client, "annotate", {"record": a["record"], "round": 1, "move": 5, "comment": "ok"})
    assert b["comments"] == {"3": "too early for the 7", "5": "ok"}
    # the review returns each move's comment, and every legal move's fair value
    r = post(client, "review", {"record": b["record"], "worlds": 3})
    assert [d["comment"] for d in r["decisions"][:6]] == [None, None, "too early for the 7", None, "ok", None]
    assert GameRecord.from_json(r["record"]).rounds[0].comments == {3: "too early for the 7", 5: "ok"}
    for d in r["decisions"]:
        if d["verdict"] == "fair":
            means = d["fair"]["means"]
            assert len(means) == d["legal_moves"] and means[d["played"]] == d["fair"]["played_mean"]
            assert max(means.values()) == d["fair"]["best_mean"]
    # an empty comment (or null) removes it
    c = post(client, "annotate", {"record": b["record"], "move": 3, "comment": " "})
    assert c["comments"] == {"5": "ok"}
    assert post(client, "annotate", {"record": c["record"], "move": 5})["comments"] == {}


@pytest.mark.parametrize("body, status, words", [
    ({"move": 99, "comment": "x"}, 422, "move"),
    ({"move": 36, "round": 2, "comment": "x"}, 422, "round"),
    ({"move": 1, "comment": "x" * 1001}, 422, "1,000"),
    ({"move": "1", "comment": "x"}, 400, "move"),
    ({"comment": "x"}, 400, "move is missing"),
    ({"move": 1, "comment": 5}, 400, "comment"),
])
def test_bad_annotations_are_refused_readably(client, body, status, words):
    g = _finished_game(client)
    answer = post(client, "annotate", dict(body, record=g["record"]), status)
    assert words in answer["error"]


def test_a_live_analysis_nobody_asks_about_stops_without_another_request():
    """A closed tab: the analysis stops `idle` seconds after its last poll, even when the server
    gets no other request (the reaper), not at its time limit."""
    from scopa_solver.web.live import LiveAnalyses
    from scopa_solver.web.service import live_poll, live_start
    live = LiveAnalyses(most=2, idle=0.3)
    deal = Position.new_round(seed=5, rules=Rules(players=4, game="scientifico")).to_string()
    key = live_start(live, deal, 60)["id"]
    run = live._runs[key]
    run.thread.join(HANG)           # no poll at all: stopped long before its 60 s
    assert not run.thread.is_alive() and run.latest is not None and run.latest.stopped == "request"
    until(lambda: key not in live._runs)        # then dropped: asking now is a clear error
    with pytest.raises(ScopaError, match="no such analysis"):
        live_poll(live, key)
