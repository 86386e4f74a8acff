"""Several lines (MultiPV), why a move is best, ties ordered: scopa_solver.search.lines against
the solver (`analyze`, `solve`) and the reference's scoring."""
from __future__ import annotations

import pytest

from helpers import VARIANTS, late

from scopa_solver import Limit, Move, Position, Rules, analyze, solve
from scopa_solver.search.lines import CATEGORIES, LinesError, category_points, explain, lines

GAMES = {"scopa": Rules(), "napola re bello": Rules(napola=True, re_bello=True),
         "4 players": Rules(players=4), "scopa a 15": Rules(capture="fifteen"), "3 players": Rules(players=3)}


def _positions(rules: Rules, cards: int = 8, seeds: range = range(6)) -> list[Position]:
    return [p for p in (late(rules, seed, cards) for seed in seeds) if not p.is_round_over()]


def _walk(pos: Position, pv) -> Position:
    for move in pv:
        assert move in pos.legal_moves(), f"{move} is not legal in {pos.to_string()}"
        pos = pos.play(move)
    return pos


@pytest.mark.parametrize("name", GAMES)
def test_exact_lines_agree_with_analyze_and_end_the_round(name):
    for pos in _positions(GAMES[name]):
        values = {mv.move: mv.value for mv in analyze(pos)}
        found = lines(pos, count=len(values))
        assert found.exact and len(found) == len(values)
        assert {ln.move for ln in found} == set(values)
        side = pos.rules.sides[pos.to_move]
        for ln in found:
            assert ln.exact and ln.value == values[ln.move]
            end = _walk(pos, ln.pv)
            assert ln.pv[0] == ln.move and end.is_round_over()
            assert end.round_score() == ln.outcome
            assert ln.outcome.margin(side) == ln.value       # the line's end is worth the move's value
            child = pos.play(ln.move)
            if not child.is_round_over() and pos.rules.side_count == 2:
                assert -solve(child).value == ln.value
        # best first, equal values by the side's points at the line's end (more first)
        keys = [(ln.value, ln.points) for ln in found]
        assert keys == sorted(keys, reverse=True)
        assert [ln.rank for ln in found] == list(range(1, len(found) + 1))


def test_count_keeps_the_best_lines_first():
    pos = _positions(Rules())[0]
    every = lines(pos, count=20)
    for n in (1, 2, 3):
        some = lines(pos, count=n)
        assert [ln.move for ln in some] == [ln.move for ln in every[:n]]
    assert lines(pos, count=1)[0].value == analyze(pos).value


def test_ties_are_ordered_and_said():
    tied = 0
    for seed in range(30):
        pos = late(Rules(), seed, 9)
        found = lines(pos, count=6)
        best = [ln for ln in found if ln.value == found[0].value]
        if len(best) > 1:
            tied += 1
            assert found.ties.startswith(f"{len(best)} moves share the best value")
            points = [ln.points for ln in best]
            assert points == sorted(points, reverse=True)
            assert all(str(p) in found.ties for p in points)
        else:
            assert found.ties == ""
    assert tied      # the positions include ties


def test_depth_limited_lines_say_so():
    pos = Position.new_round(seed=3, rules=Rules(players=4, game="scientifico"))
    rows = analyze(pos, Limit(horizon=4))
    found = lines(pos, Limit(horizon=4), count=3)
    assert not found.exact and found.horizon == 4
    values = {mv.move: mv.value for mv in rows}
    for ln in found:
        assert not ln.exact and ln.horizon == 4 and ln.value == values[ln.move]
        assert 1 < len(ln.pv) <= 4
        _walk(pos, ln.pv)
    best = [m for m in rows.best_moves]
    assert found[0].move == best[0]       # the search's finer order among equal values


def test_maxn_lines_with_three_players():
    rules = Rules(players=3)
    for pos in _positions(rules, cards=6, seeds=range(3)):
        found = lines(pos, count=3, objective="maxn")
        side = rules.sides[pos.to_move]
        for ln in found:
            child = pos.play(ln.move)
            if not child.is_round_over():
                assert solve(child, objective="maxn").points[side] == ln.value
            assert _walk(pos, ln.pv).is_round_over()


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=4, partnerships=False)],
                         ids=["3 players", "4 players alone"])
def test_paranoid_lines_are_searched_from_the_movers_side(rules):
    # each line after its first move is the paranoid play of the mover's side (it maximises, the
    # others minimise): its end is worth the move's value, points minus the best other side's
    for pos in _positions(rules, cards=7, seeds=range(4)):
        values = {mv.move: mv.value for mv in analyze(pos)}
        side = rules.sides[pos.to_move]
        found = lines(pos, count=len(values))
        assert found.exact and {ln.move for ln in found} == set(values)
        for ln in found:
            end = _walk(pos, ln.pv)
            assert end.is_round_over() and end.round_score() == ln.outcome
            total = ln.outcome.total
            best_other = max(t for s, t in enumerate(total) if s != side)
            assert total[side] - best_other == ln.value == values[ln.move]


def test_refusals():
    pos = _positions(Rules())[0]
    for bad in (0, -1, True, 1.5):
        with pytest.raises(LinesError, match="count"):
            lines(pos, count=bad)
    with pytest.raises(LinesError, match="legal"):
        explain(pos, "7dx9z")
    one = Position(hands=("7d", "3c"), table="4s 3s", to_move=0, dealer=1)
    with pytest.raises(LinesError, match="fewer than two"):
        explain(one)
    assert issubclass(LinesError, ValueError)


@pytest.mark.parametrize("rules", list(VARIANTS.values()) + [Rules(players=4)], ids=list(VARIANTS) + ["4 players"])
def test_categories_add_up_to_the_points(rules):
    for seed in range(8):
        pos = late(rules, seed, 0)
        score = pos.round_score()
        for side in range(rules.side_count):
            assert sum(category_points(score, side).values()) == score.total[side]


@pytest.mark.parametrize("name", ["scopa", "napola re bello", "4 players", "3 players"])
def test_why_adds_up_to_the_difference(name):
    for pos in _positions(GAMES[name]):
        rows = analyze(pos)
        if len(rows) < 2:
            continue
        first = lines(pos, count=1)[0].move
        for other in rows:
            if other.move == first:
                continue
            why = explain(pos, other.move)
            assert why.exact and why.move.move == first
            assert why.against.move == other.move
            assert why.difference == why.move.value - other.value
            assert sum(why.categories.values()) == why.difference
            assert set(why.categories) == set(CATEGORIES)
            said = str(why)
            assert str(other.move) in said
            for cat, pts in why.categories.items():
                if pts:
                    assert f"{pts:+d}" in said
            data = why.to_dict()
            assert data["difference"] == why.difference and data["text"] == said


def test_why_names_a_scopa_given_away():
    # 2c leaves 2c+3s+4s (9) on the table, which Cb takes: a scopa for the opponent
    pos = Position(hands=("7d 2c", "Cb Ab"), table="3s 4s", dealer=1)
    why = explain(pos, "2c")
    assert str(why.against.move) == "2c"
    assert any("2c leaves 9 on the table: a scopa for the opponent (Cbx" in r for r in why.reasons), why.reasons


# -- the command line: analyze --lines N, --why [MOVE] ----------------------------------------------

SMALL = "7d2c/4c3b 3s4s -/- - 0/0 0 1 -"


def test_cli_lines_and_why(capsys):
    from helpers import run_cli, run_cli_json
    pos = Position.from_string(SMALL)
    found = lines(pos, count=2)
    data = run_cli_json(capsys, "analyze", SMALL, "--lines", "2", "--why")
    assert [ln["move"] for ln in data["lines"]] == [str(ln.move) for ln in found]
    assert [ln["pv"] for ln in data["lines"]] == [[str(m) for m in ln.pv] for ln in found]
    assert [ln["value"] for ln in data["lines"]] == [ln.value for ln in found]
    assert data["why"]["text"] == str(explain(pos)) and data["why"]["difference"] == 9
    code, out, err = run_cli(capsys, "analyze", SMALL, "--lines", "2", "--why", "2c")
    assert code == 0 and err == ""
    assert "the best 2 lines (exact, each to the end of the round):" in out
    assert f" 1. {found[0].move}" in out and " ".join(map(str, found[1].pv)) in out
    assert f"why: {explain(pos, '2c')}" in out
    plain = run_cli(capsys, "analyze", SMALL)[1]
    assert "lines" not in plain and "why:" not in plain


def test_cli_lines_ties_and_refusals(capsys):
    from helpers import run_cli
    tied = "2cCcCs/Rc6sAb 5dCd6b 2d4d6dFdRdAc3c4c6cAs2s3s4sFs4bRb/Ad7d5cFcRs5b7bFbCb 2b3b7c3d7s5s 0/0 0 1 1"
    code, out, _ = run_cli(capsys, "analyze", tied, "--lines", "3")
    assert code == 0 and "ties: 3 moves share the best value +0" in out
    for argv, message in ((["--lines", "0"], "expected 1 or more"),
                          (["--why", "9z"], "not a legal move")):
        code, out, err = run_cli(capsys, "analyze", SMALL, *argv)
        assert code == 2 and message in err and err.count("\n") == 1, err
    # three players: the paranoid lines of the mover's side
    code, out, err = run_cli(capsys, "analyze", "7d4c/3c2b/Rb5d 4s3s -/-/- - 0/0/0 0 2 - players=3", "--lines", "2")
    assert code == 0 and err == "" and "the best 2 lines" in out, out + err


# -- the board's API: /api/lines ----------------------------------------------------------------------

def test_web_lines_route():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from scopa_solver.web import create_app
    pos = Position.from_string(SMALL)
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        r = client.post("/api/lines", json={"position": SMALL, "count": 2})
        assert r.status_code == 200, r.text
        data = r.json()
        found = lines(pos, count=2)
        assert [ln["move"] for ln in data["lines"]] == [str(ln.move) for ln in found]
        assert [ln["pv"] for ln in data["lines"]] == [[str(m) for m in ln.pv] for ln in found]
        assert data["exact"] and data["lines"][0]["why"] is None
        assert data["lines"][1]["why"]["text"] == str(explain(pos, found[1].move))
        assert sum(data["lines"][1]["why"]["categories"].values()) == data["lines"][1]["why"]["difference"] == 9
        for body, words in (({"position": SMALL, "count": 9}, "count must be a whole number from 1 to 5"),
                            ({"position": "7cRs4b/?3 3d4c7sRb Fd3c2sAbFb/Ad2d6dCdAc2c5c6cFcCcRc3s5sFsCs2b3b6bCb ?6 0/0 0 1 0"},
                             "every card known")):
            r = client.post("/api/lines", json=body)
            assert r.status_code == 422 and words in r.json()["error"], r.text
        three = client.post("/api/lines", json={"position": "7d2c/3c4c/RbAs 4s3s -/-/- - 0/0/0 0 2 - players=3",
                                                "objective": "maxn", "count": 2}).json()
        assert three["objective"] == "maxn" and len(three["lines"]) == 2
        paranoid = client.post("/api/lines", json={"position": "7d2c/3c4c/RbAs 4s3s -/-/- - 0/0/0 0 2 - players=3",
                                                   "count": 2}).json()
        assert paranoid["objective"] == "value" and len(paranoid["lines"]) == 2
        why = paranoid["lines"][1]["why"]
        assert why["measure"] == "margin" and sum(why["categories"].values()) == why["difference"]


# -- a player's view: the fair values' ties (Suggestion.ties) -------------------------------------------

def test_fair_ties_are_said():
    from scopa_solver import suggest
    said = {"equal": 0, "close": 0}
    for seed in range(6):
        pos = late(Rules(), seed, 12)
        s = suggest(pos.view(pos.to_move), worlds=60, seed=1, progress=False)
        best = s.moves[0]
        tied = [m for m in s.moves if abs(m.mean - best.mean) < 1e-9]
        close = [m for m in s.moves if m not in tied and m.delta_stderr > 0 and -m.delta <= m.delta_stderr]
        assert [m.optimal for m in tied] == sorted((m.optimal for m in tied), reverse=True)
        if len(tied) > 1:
            said["equal"] += 1
            assert s.ties.startswith(f"{len(tied)} moves share the best fair mean {best.mean:+.3f}")
            assert all(f"{m.move} {100 * m.optimal:.1f}%" in s.ties for m in tied)
        for m in close:
            said["close"] += 1
            assert f"{m.move} ({m.delta:+.3f} ± {m.delta_stderr:.3f})" in s.ties
        if len(tied) < 2 and not close:
            assert s.ties == ""
        assert s.to_dict()["ties"] == s.ties
    assert said["equal"] and said["close"]


def test_cli_suggest_says_its_ties(capsys):
    from helpers import run_cli
    from scopa_solver import suggest
    pos = late(Rules(), 0, 12)
    view = pos.view(pos.to_move)
    s = suggest(view, worlds=40, seed=3, progress=False)
    assert s.ties
    code, out, err = run_cli(capsys, "suggest", view.to_string(), "--worlds", "40", "--seed", "3",
                             "--time-limit", "inf")
    assert code == 0, err
    assert f"ties: {s.ties}\n" in out


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3)], ids=["two players", "three players"])
def test_maxn_why_adds_up_in_the_sides_own_points(rules):
    for pos in _positions(rules, cards=6, seeds=range(3)):
        found = lines(pos, count=3, objective="maxn")
        for other in found[1:]:
            why = explain(pos, found[0].move, other.move, objective="maxn")
            assert why.measure == "points" and why.difference == found[0].value - other.value
            assert sum(why.categories.values()) == why.difference
            assert f"({found[0].value})" in str(why) and "(+" not in str(why)


def test_depth_ties_follow_the_searchs_best_moves():
    from scopa_solver.search.lines import depth_ties
    from scopa_solver.web.service import _moves
    said = 0
    for seed in range(4):
        pos = Position.new_round(seed=seed, rules=Rules(players=4, game="scientifico"))
        rows = analyze(pos, Limit(horizon=8))
        tied = [r.move for r in rows if r.value == rows[0].value]
        text = depth_ties(rows)
        data = _moves(pos, rows, "value")
        assert data["ties"] == text
        if len(tied) < 2:
            assert text == "" and all("order" not in m for m in data["moves"])
            continue
        said += 1
        assert text.startswith(f"{len(tied)} moves share the best value {rows[0].value:+d} at depth 8")
        firsts = [m for m in rows.best_moves if m in tied]
        for m in data["moves"]:
            if m["best"]:
                assert m["order"] == (1 if Move.parse(m["move"]) in firsts else 2)
        if len(firsts) < len(tied):
            assert all(str(m) in text for m in firsts)
    assert depth_ties(analyze(late(Rules(), 1, 9))) == ""      # exact values: lines orders them
    assert said
