"""Hostile requests to every route of the board's server (Hypothesis, derandomized): bodies of
random bytes, JSON of the wrong shape or types, huge and deeply nested JSON, over-long fields.
Every answer is 200 or a JSON error (400, 404, 405, 413, 422, 503) with a short message; never a
500, a traceback or a hang. The server's time limits are lowered here, so that a request that
does reach a search ends in a second or two and the suite stays short."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from scopa_solver import GameRecord, Position, RoundRecord, kernel  # noqa: E402
from scopa_solver.web import create_app  # noqa: E402
from scopa_solver.web.service import LIMITS  # noqa: E402

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
ROUTES = {          # every POST route and its fields
    "board": ("position", "player", "moves"),
    "deal": ("seed", "dealer", "rules"),
    "compose": ("hands", "piles", "table", "stock", "scopas", "dealer", "to_move", "last_capturer", "rules"),
    "analyze": ("position", "time_limit", "max_nodes", "objective"),
    "solve": ("position", "time_limit", "max_nodes", "objective"),
    "lines": ("position", "count", "time_limit", "max_nodes", "objective"),
    "tree": ("position", "max_nodes"),
    "suggest": ("position", "player", "worlds", "seed", "time_limit", "why"),
    "unseen": ("position", "player", "model", "worlds", "seed", "moves"),
    "play/new": ("bot", "seat", "seed", "rules"),
    "play/move": ("record", "move"),
    "review": ("record", "round", "worlds", "seed"),
    "puzzle": ("game", "tag", "seed"),
    "play/next": ("record", "bots"),
    "play/hint": ("record", "seed"),
    "annotate": ("record", "round", "move", "comment"),
}
ERRORS = {400, 404, 405, 413, 422, 503}
SMALL = "7d2c/3b4c 3s4s -/- - 0/0 0 1 -"
THREE = "7d2c/3c4c/RbAs 4s3s -/-/- - 0/0/0 0 2 - players=3"


def _record() -> str:
    start = pos = Position.new_round(seed=3)
    moves = []
    while not pos.is_round_over():
        moves.append(pos.legal_moves()[0])
        pos = pos.play(moves[-1])
    rec = GameRecord(players=("a", "b"))
    rec.add_round(RoundRecord.from_play(start, moves))
    return rec.to_json()


RECORD = _record()


@pytest.fixture(scope="module")
def client():
    with pytest.MonkeyPatch.context() as mp:    # short limits: a search reached ends quickly
        for name, seconds in (("request_time", 3.0), ("tree_time", 1.0), ("review_time", 1.0),
                              ("default_time", 0.5), ("time_limit", 1.0), ("bot_time", 0.2)):
            mp.setitem(LIMITS, name, seconds)
        with TestClient(create_app(), raise_server_exceptions=False) as c:
            yield c
    assert kernel.pool_stats()["busy"] == 0


def check(response) -> None:
    """200 with JSON, or an error the page can show: {"error": short text, "type": name}."""
    assert response.status_code == 200 or response.status_code in ERRORS, (response.status_code, response.text[:300])
    data = response.json()
    if response.status_code != 200:
        assert set(data) == {"error", "type"}, data
        assert isinstance(data["error"], str) and 0 < len(data["error"]) <= 300, data
        assert data["type"] not in ("InternalError",), data


def send(client, route: str, content: bytes, content_type: str = "application/json"):
    response = client.post(f"/api/{route}", content=content, headers={"content-type": content_type})
    check(response)
    return response


# -- values: JSON of every type, near-valid ones, hostile ones ------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
near_valid = st.sampled_from([
    SMALL, THREE, SMALL.replace("7d", "?"), "players=4 game=scopone", "players=3", ["players=6"], "random",
    "greedy", "value", "maxn", "7dx3s+4s", "3b", 0, 1, 2, 3, -1, 40, 2**63, 2**64, 10**30, 0.001, 1e308, 1e-300,
    True, RECORD, json.loads(RECORD), [["7d"], ["3c"]], ["7d", "7d"], "", " ", "x" * 401, "\x00", "\ud7ff",
    {"format": "scopa-solver-record"}, [None] * 41])
values = near_valid | json_values


@settings(max_examples=150, **SETTINGS)
@given(route=st.sampled_from(sorted(ROUTES)), data=st.data())
def test_objects_of_wrong_types_and_values(client, route, data):
    fields = ROUTES[route]
    body = data.draw(st.dictionaries(st.sampled_from(fields) | st.text(max_size=6), values, max_size=len(fields) + 1))
    send(client, route, json.dumps(body).encode())


@settings(max_examples=60, **SETTINGS)
@given(route=st.sampled_from(sorted(ROUTES)), body=json_values.filter(lambda v: not isinstance(v, dict)))
def test_bodies_that_are_not_objects(client, route, body):
    assert send(client, route, json.dumps(body).encode()).status_code == 400


@settings(max_examples=60, **SETTINGS)
@given(route=st.sampled_from(sorted(ROUTES)), body=st.binary(max_size=200),
       content_type=st.sampled_from(["application/json", "text/plain", "", "application/json; charset=latin-1"]))
def test_bodies_of_random_bytes(client, route, body, content_type):
    send(client, route, body, content_type)


def _hostile_bodies() -> dict:
    cap = LIMITS["body"]
    return {
        "deep lists": b"[" * 200_000 + b"]" * 200_000,
        "deep objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        "deep field": b'{"position":' + b"[" * 5_000 + b"]" * 5_000 + b"}",
        "deep record": b'{"record":' + b'{"r":' * 900 + b"1" + b"}" * 900 + b"}",
        "just under the cap": b'{"position": "' + b"7" * (cap - 20) + b'"}',
        "over the cap": b'{"position": "' + b"x" * cap + b'"}',
        "a huge list": b'{"moves": [' + b"0," * 400_000 + b"0]}",
        "many keys": b"{" + b",".join(b'"k%d":0' % i for i in range(20_000)) + b"}",
        "a long number": b'{"seed": ' + b"9" * 100_000 + b"}",
        "constants": b'{"seed": NaN, "time_limit": Infinity, "worlds": -Infinity}',
        "duplicate keys": b'{"position": 1, "position": "' + SMALL.encode() + b'"}',
        "a byte order mark": b"\xef\xbb\xbf{}",
        "bad UTF-8": b'{"position": "\xff\xfe"}',
        "a lone surrogate": b'{"position": "\\ud800"}',
        "nothing": b"",
        "a record over its limit": json.dumps({"record": "x" * (LIMITS["record"] + 1)}).encode(),
        "a record object of many rounds": json.dumps(
            {"record": {**json.loads(RECORD), "rounds": json.loads(RECORD)["rounds"] * 200}}).encode(),
    }


@pytest.mark.parametrize("name", sorted(_hostile_bodies()))
def test_huge_and_deep_bodies_on_every_route(client, name):
    body = _hostile_bodies()[name]
    for route in sorted(ROUTES):
        r = send(client, route, body)
        if name == "over the cap":
            assert r.status_code == 413
        elif name in ("deep lists", "deep objects"):
            assert r.status_code == 400


def test_a_length_that_lies_and_chunked_bodies(client):
    for route in sorted(ROUTES):
        r = client.post(f"/api/{route}", content=iter([b'{"position": ', b'"' + SMALL.encode() + b'"}']),
                        headers={"content-type": "application/json"})
        check(r)
        over = iter([b'{"position": "', b"x" * LIMITS["body"], b'"}'])
        r = client.post(f"/api/{route}", content=over, headers={"content-type": "application/json"})
        check(r)
        assert r.status_code == 413
        r = client.post(f"/api/{route}", content=b"{}",
                        headers={"content-type": "application/json", "content-length": "-1"})
        check(r)


def test_wrong_methods_and_unknown_routes(client):
    for route in sorted(ROUTES):
        check(client.get(f"/api/{route}"))
    check(client.post("/api/info", json={}))
    check(client.post("/api/nowhere", json={}))
    check(client.get("/api/nowhere"))
    info = client.get("/api/info")
    check(info)
    assert info.status_code == 200 and info.json()["limits"]["body"] == LIMITS["body"]
