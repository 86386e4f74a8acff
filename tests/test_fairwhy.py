"""The fair why (scopa_solver.imperfect.fairwhy.explain_view): `explain` averaged over the worlds of
a player's view, against `suggest`'s fair means, and never naming a hidden card."""
from __future__ import annotations

import json

import pytest

from helpers import late

from scopa_solver import Rules
from scopa_solver.core.cards import iter_cards
from scopa_solver.imperfect.pimc import suggest
from scopa_solver.imperfect.fairwhy import explain_view
from scopa_solver.search.lines import CATEGORIES, LinesError

GAMES = {"scopa": Rules(), "napola re bello": Rules(napola=True, re_bello=True),
         "scopa a 15": Rules(capture="fifteen"), "4 players": Rules(players=4)}


def _views(rules: Rules, cards: int, seeds: range):
    for seed in seeds:
        pos = late(rules, seed, cards)
        if pos.is_round_over():
            continue
        view = pos.view(pos.to_move)
        if len(view.legal_moves()) >= 2:
            yield view


def test_all_worlds_add_up_and_agree_with_suggest():
    seen = 0
    for view in _views(Rules(), 9, range(8)):
        if view.count_worlds() > 400:
            continue
        why = explain_view(view, worlds="all")
        fair = suggest(view, worlds="all", progress=False)
        means = {m.move: m.mean for m in fair.moves}
        assert why.exact and not why.sampled and why.worlds == why.total_worlds == view.count_worlds()
        assert why.move == fair.moves[0].move and why.against == fair.moves[1].move
        assert why.mean_move == pytest.approx(means[why.move])
        assert why.mean_against == pytest.approx(means[why.against])
        assert sum(why.categories.values()) == pytest.approx(why.difference)
        assert set(why.categories) == set(CATEGORIES)
        for cat in CATEGORIES:
            assert why.better[cat] + why.worse[cat] <= why.worlds
        for cat, (won, won_b) in why.won.items():     # a whole category: +1 taken, -1 lost, 0 shared
            lost, lost_b = why.lost[cat]
            assert why.categories[cat] * why.worlds == pytest.approx((won - lost) - (won_b - lost_b))
        seen += 1
    assert seen >= 3


@pytest.mark.parametrize("name", GAMES)
def test_never_names_a_hidden_card(name):
    checked = 0
    for view in _views(GAMES[name], 12, range(5)):
        hidden = [str(c) for c in iter_cards(view.unseen)]
        assert hidden
        why = explain_view(view, worlds=4, seed=1)
        for text in (str(why), json.dumps(why.to_dict())):
            named = [c for c in hidden if c in text]
            assert not named, f"{named} named in {text}"
        assert str(why.move) in str(why) and str(why.against) in str(why)
        checked += 1
    assert checked >= 2


def test_a_move_named_alone_is_set_against_the_fair_best():
    view = next(v for v in _views(Rules(), 9, range(8)) if len(v.legal_moves()) >= 3)
    fair = suggest(view, worlds=20, seed=0, progress=False)
    last = fair.moves[-1].move
    why = explain_view(view, str(last), worlds=20, seed=0, suggestion=fair)
    assert why.move == fair.moves[0].move and why.against == last
    assert "better" in str(why) or "as good" in str(why)
    both = explain_view(view, last, fair.moves[0].move, worlds=20, seed=0)
    assert both.move == last and both.difference == pytest.approx(-why.difference)


def test_refusals():
    view = next(_views(Rules(), 9, range(8)))
    move = view.legal_moves()[0]
    with pytest.raises(LinesError, match="itself"):
        explain_view(view, move, move, worlds=2)
    with pytest.raises(LinesError, match="legal"):
        explain_view(view, "Xx", worlds=2)
    with pytest.raises(LinesError, match="worlds"):
        explain_view(view, worlds=0)
    with pytest.raises(TypeError):
        explain_view(late(Rules(), 1, 9), worlds=2)


LATE = "?/7sCs 5dAc6b 2dFd2c4c3sFsRsAb2b4bRb/Ad4dCdRd5c6c7cCcRc4s5s6s3b5b7bFbCb ?6 0/1 1 1 1"


def test_cli_suggest_why(capsys):
    from helpers import run_cli, run_cli_json
    from scopa_solver import View
    view = View.from_string(LATE)
    expected = explain_view(view, worlds="all")
    data = run_cli_json(capsys, "suggest", LATE, "--why")
    assert data["why"]["text"] == str(expected) and data["why"]["worlds"] == view.count_worlds()
    assert data["why"]["move"] == data["best"]
    code, out, err = run_cli(capsys, "suggest", LATE, "--why", "Cs")
    assert code == 0 and err == ""
    assert f"why: {explain_view(view, None, 'Cs', worlds='all')}" in out
    assert "why:" not in run_cli(capsys, "suggest", LATE)[1]
    code, out, err = run_cli(capsys, "suggest", LATE, "--why", "9z")
    assert code == 2 and "not a legal move" in err and err.count("\n") == 1


def test_api_suggest_why():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from scopa_solver import View
    from scopa_solver.web import create_app
    view = View.from_string(LATE)
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        r = client.post("/api/suggest", json={"position": LATE, "why": ""})
        assert r.status_code == 200, r.text
        why = r.json()["why"]
        assert why["text"] == str(explain_view(view, worlds="all"))
        assert sum(why["categories"].values()) == pytest.approx(why["difference"])
        r = client.post("/api/suggest", json={"position": LATE, "why": "Cs"})
        assert r.status_code == 200 and r.json()["why"]["against"] == "Cs"
        assert "why" not in client.post("/api/suggest", json={"position": LATE}).json()
        r = client.post("/api/suggest", json={"position": LATE, "why": "9z"})
        assert r.status_code == 422 and "not a legal move" in r.json()["error"]
        assert client.post("/api/suggest", json={"position": LATE, "why": 3}).status_code == 400


def test_early_family_worlds_are_searched_to_a_horizon_by_default():
    from scopa_solver import Position
    pos = Position.new_round(seed=3, rules=Rules(players=4, game="scientifico"))
    why = explain_view(pos.view(pos.to_move), worlds=2)
    assert not why.exact and "some lines estimated at a horizon" in str(why)
    hidden = [str(c) for c in iter_cards(pos.view(pos.to_move).unseen)]
    assert not [c for c in hidden if c in json.dumps(why.to_dict())]


def test_three_players_fair_why_is_paranoid_as_suggest():
    # the margin over the best other side, as suggest's values; exact lines add up to it
    from helpers import late
    for seed in range(3):
        pos = late(Rules(players=3), seed, 7)
        view = pos.view(pos.to_move)
        if len(view.legal_moves()) < 2:
            continue
        why = explain_view(view, worlds=6, seed=1)
        assert why.measure == "margin" and why.exact
        assert abs(sum(why.categories.values()) - why.difference) < 1e-9
        hidden = [str(c) for c in iter_cards(view.unseen)]
        assert not [c for c in hidden if c in json.dumps(why.to_dict())]
