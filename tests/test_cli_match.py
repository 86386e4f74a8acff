"""The match objective on the command line (issue 42): `--match-score A-B` [`--target N`] on
solve and analyze search to win the match; the values are the chance to win it. The equity is
the tests' stand-in (helpers.RaceEquity), installed as the default the CLI's Match takes."""
from __future__ import annotations

import json

import pytest

from scopa_solver import Match, Rules, analyze, solve
from scopa_solver.play.record import GameRecord

from helpers import disagreement, late, race_equity, run_cli as run

SCORE = (9, 7)


@pytest.fixture(autouse=True)
def equity():
    with race_equity():
        yield


@pytest.fixture(scope="module")
def split():
    """A position where the margin's best moves and the match's differ, at 9-7."""
    with race_equity():
        return disagreement(SCORE)


def _json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_analyze_gives_every_move_its_chance_to_win_the_match(capsys, split):
    pos, best_margin, best_match = split
    data = _json(capsys, "analyze", pos.to_string(), "--match-score", "9-7")
    want = analyze(pos, objective=Match(SCORE))
    assert data["objective"] == "match"
    assert data["value"] == want.value
    assert {m["move"]: m["value"] for m in data["moves"]} == {str(r.move): r.value for r in want}
    assert set(data["best_moves"]) == best_match != best_margin
    assert data["match"] == {"score": [9, 7], "target": 11, "text": f"{want.value / 100:.2f}% to win the match",
                             "unit": "1/10000 of a sure win"}
    margin = analyze(pos)       # beside each chance, the round's margin and where they disagree
    assert {m["move"]: m["margin"] for m in data["moves"]} == {str(r.move): r.value for r in margin}
    assert set(data["margin_best_moves"]) == best_margin and data["disagree"] is True


def test_the_moves_where_the_objectives_disagree_are_marked(capsys):
    with race_equity():
        pos, best_margin, best_match = disagreement(SCORE, strict=True)
    code, out, err = run(capsys, "analyze", pos.to_string(), "--match-score", "9-7")
    assert code == 0, err
    margin = {str(r.move): r.value for r in analyze(pos)}
    marked = {line.split()[0]: line.split(None, 4)[4] for line in out.splitlines()
              if line.split()[:1] and line.split()[0] in margin and len(line.split()) > 4}
    assert marked == {**{m: "best for the match" for m in best_match},
                      **{m: "best for the round only" for m in best_margin}}
    for line in out.splitlines():
        if line.split()[:1] and line.split()[0] in margin:
            assert line.split()[3] == f"{margin[line.split()[0]]:+d}"
    assert f"the objectives disagree: {', '.join(sorted(best_match))} win" in out


def test_no_mark_where_the_objectives_agree(capsys):
    for seed in range(20):         # a position where the margin's best moves are best for the match too
        pos = late(Rules(), seed, 9)
        margin, match = analyze(pos), analyze(pos, objective=Match(SCORE))
        if {r.move for r in margin if r.value == margin[0].value} <= {r.move for r in match if r.value == match.value}:
            break
    data = _json(capsys, "analyze", pos.to_string(), "--match-score", "9-7")
    assert data["disagree"] is False
    code, out, err = run(capsys, "analyze", pos.to_string(), "--match-score", "9-7")
    assert "the round's margin agrees" in out and "best for the" not in out


def test_solve_under_the_match_and_a_target(capsys):
    pos = late(Rules(), 3, 12)
    for target in (11, 21):
        data = _json(capsys, "solve", pos.to_string(), "--match-score", "9-7", "--target", str(target))
        want = solve(pos, objective=Match(SCORE, target))
        assert (data["value"], data["objective"], data["match"]["target"]) == (want.value, "match", target)
        assert data["best_moves"] == [str(m) for m in want.best_moves]
    code, out, err = run(capsys, "solve", pos.to_string(), "--match-score", "9-7")
    assert code == 0, err
    assert f"{solve(pos, objective=Match(SCORE)).value / 100:.2f}% to win the match" in out


def test_the_score_from_a_game_record(capsys, tmp_path):
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--auto", "--bot", "random", "--rounds", "2", "--seed", "4",
                         "--save", str(path))
    assert code == 0, err
    totals = GameRecord.load(path).totals
    pos = late(Rules(), 3, 9)
    data = _json(capsys, "analyze", pos.to_string(), "--match-score", str(path))
    assert data["match"]["score"] == list(totals)
    assert data["value"] == analyze(pos, objective=Match(totals)).value


@pytest.mark.parametrize("argv, says", [
    (["--match-score", "9-x"], "expected every side's match points joined by '-'"),
    (["--match-score", "9"], "expected every side's match points joined by '-'"),
    (["--match-score", "9--1"], "expected every side's match points joined by '-'"),
    (["--match-score", "9-10-3"], "gives 3 sides' match points; two-player Scopa has 2 sides"),
    (["--match-score", "12-10"], "side 0 has already won a match to 11"),
    (["--match-score", "12-10", "--target", "21"], None),
    (["--match-score", "9-10", "--target", "0"], "the match target is 2 to 61 points, not 0"),
    (["--match-score", "9-10", "--target", "1"], "the match target is 2 to 61 points, not 1"),
    (["--match-score", "9-10", "--target", "62"], "the match target is 2 to 61 points, not 62"),
    (["--match-score", "12-10", "--target", "16"], None),
    (["--target", "21"], "--target is the match's target: give --match-score too"),
    (["--match-score", "9-10", "--objective", "maxn"], "not with --objective maxn"),
    (["--match-score", "9-10", "--lines", "2"], "not with --match-score"),
    (["--match-score", "missing.json"], "missing.json"),
])
def test_bad_match_input_is_one_line_and_exit_2(capsys, argv, says):
    code, out, err = run(capsys, "analyze", late(Rules(), 3, 9).to_string(), *argv)
    if says is None:        # 12-10 to 21 is a match still being played
        assert code == 0, err
        return
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err, err


def test_a_job_is_refused_under_the_match(capsys, tmp_path):
    code, out, err = run(capsys, "solve", "--match-score", "9-10", "--job", str(tmp_path / "job"))
    assert code == 2 and "not with --match-score" in err


def test_suggest_under_the_match(capsys):
    from scopa_solver import Limit, suggest
    with race_equity():
        pos, _, _ = disagreement(SCORE, strict=True)
    view = pos.view(pos.to_move)
    data = _json(capsys, "suggest", view.to_string(), "--match-score", "9-7", "--worlds", "30", "--seed", "1",
                 "--time-limit", "inf", "--threads", "1")
    want = suggest(view, Limit(threads=1), worlds=30, seed=1, objective=Match(SCORE))
    assert [(m["move"], m["mean"]) for m in data["moves"]] == [(str(m.move), m.mean) for m in want.moves]
    assert data["match"]["score"] == [9, 7] and data["match"]["target"] == 11
    code, out, err = run(capsys, "suggest", view.to_string(), "--match-score", "9-7", "--worlds", "30", "--seed",
                         "1", "--time-limit", "inf", "--threads", "1")
    assert code == 0, err
    assert (f"best for player {view.player}: {want.best} (mean chance to win the match "
            f"{want.moves[0].mean / 100:.2f}%, from 9-7") in out
    code, out, err = run(capsys, "suggest", view.to_string(), "--match-score", "9-7", "--why")
    assert code == 2 and "--why explains the round's margin" in err


def test_review_by_the_chance_to_win_the_match(capsys, tmp_path):
    from scopa_solver import Limit
    from scopa_solver.play.review import review
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--auto", "--bot", "random", "--rounds", "2", "--seed", "4",
                         "--save", str(path))
    assert code == 0, err
    data = _json(capsys, "review", str(path), "--match", "--no-fair", "--round", "2")
    want = review(GameRecord.load(path), Limit(), fair=None, rounds=[2], match=True)
    assert data["loss_unit"] == "percentage points of the chance to win the match"
    assert [(d["played"], d["hindsight"]["loss"], d["match"]) for d in data["decisions"]] == \
        [(str(d.played), d.loss, {"score": list(d.match.score), "target": d.match.target}) for d in want.decisions]
    assert {tuple(d["match"]["score"]) for d in data["decisions"]} == {GameRecord.load(path).running_totals()[0]}
    code, out, err = run(capsys, "review", str(path), "--match", "--equilibrium")
    assert code == 2 and "not with --match" in err


@pytest.fixture
def shipped():
    """The shipped match equity (installed when the package is imported), not the stand-in."""
    from scopa_solver.play.equity import MatchEquity
    from scopa_solver.search.match import set_default_equity
    previous = set_default_equity(MatchEquity.of)
    try:
        yield MatchEquity
    finally:
        set_default_equity(previous)


def test_the_shipped_equity_by_default(capsys, shipped):
    pos = late(Rules(), 3, 12)
    data = _json(capsys, "analyze", pos.to_string(), "--match-score", "9-7", "--target", "21")
    want = analyze(pos, objective=Match(SCORE, 21, equity=shipped.of(Rules(target=21))))
    assert {m["move"]: m["value"] for m in data["moves"]} == {str(r.move): r.value for r in want}
    # any target from 2 to 61: 16 too, from the same shipped round outcomes
    data = _json(capsys, "analyze", pos.to_string(), "--match-score", "9-7", "--target", "16")
    want = analyze(pos, objective=Match(SCORE, 16, equity=shipped.of(Rules(target=16))))
    assert {m["move"]: m["value"] for m in data["moves"]} == {str(r.move): r.value for r in want}
    assert data["match"]["target"] == 16


def test_three_sides_to_16_with_the_shipped_equity(capsys, shipped):
    rules = Rules(players=3, target=16)
    pos = late(Rules(players=3), 2, 7)
    data = _json(capsys, "solve", pos.to_string(), "--match-score", "3-5-7", "--target", "16")
    want = solve(pos, objective=Match((3, 5, 7), 16, equity=shipped.of(rules)))
    assert (data["value"], data["match"]["score"], data["match"]["target"]) == (want.value, [3, 5, 7], 16)
    assert 0 < data["value"] < 10000
