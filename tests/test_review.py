"""The whole-game review: a known blunder is flagged, optimal play is not, figures agree with the solver."""
from __future__ import annotations

import importlib
import json
import random
import time

import pytest

from helpers import games

from scopa_solver import OracleBot, Position, Rules, analyze, suggest, Limit
from scopa_solver.core.cards import DECK
from scopa_solver.play.record import GameRecord, RoundRecord
from fractions import Fraction

from scopa_solver import GreedyBot, RandomBot, play_round
from scopa_solver.errors import LimitError
from scopa_solver.play.review import (BLUNDER, HINDSIGHT_NODES, INACCURACY, MISTAKE, FairReview, Review, mark,
                                     review)

review_module = importlib.import_module("scopa_solver.play.review")

# Player 0 (the non-dealer, first to play) holds 7s, Ac and 2b; the dealer holds 7c, 3b and 4d.
# On the table: the settebello 7d, Rb, Cc, Fs. Taking the settebello with 7s is the obvious move;
# laying the ace down leaves it to the dealer's 7c: the blunder the review must flag.
FIRST = "7s Ac 2b 7c 3b 4d 7d Rb Cc Fs".split()
DECK_ORDER = FIRST + [str(c) for c in DECK if str(c) not in FIRST]


def blunder_record() -> tuple[GameRecord, Position]:
    """A round played perfectly by both players (OracleBot) except player 0's first move, Ac."""
    start = Position.from_deck(DECK_ORDER, dealer=1)
    oracle = OracleBot()
    moves = ["Ac"]
    pos = start.play("Ac")
    while not pos.is_round_over():
        move = oracle(pos)
        moves.append(str(move))
        pos = pos.play(move)
    rec = GameRecord(players=("Ann", "Oracle"))
    rec.add_round(RoundRecord.from_play(start, moves))
    return rec, start


@pytest.fixture(scope="module")
def reviewed():
    rec, start = blunder_record()
    return rec, start, review(rec, Limit(threads=1), fair=FairReview(worlds=8, seed=3), progress=False)


def test_the_settebello_giveaway_is_flagged(reviewed):
    rec, start, r = reviewed
    first = r.decisions[0]
    assert (first.round, first.number, first.player, first.name, str(first.played)) == (1, 1, 0, "Ann", "Ac")
    assert str(rec.rounds[0].moves[1]) == "7cx7d"      # the dealer takes the settebello at once
    rows = analyze(start)
    values = {str(row.move): row.value for row in rows}
    assert first.best_value == rows[0].value == values["7sx7d"] and first.played_value == values["Ac"]
    assert first.loss == values["7sx7d"] - values["Ac"] >= BLUNDER
    assert first.hindsight_mark == "??" == mark(first.loss)
    assert [str(m) for m in first.best] == ["7sx7d"]
    # from Ann's own view too, leaving the settebello on the table is a blunder
    assert str(first.fair_best) == "7sx7d" and first.fair_loss >= MISTAKE and first.fair_mark
    assert first.verdict == "fair" and first.mark == first.fair_mark == mark(first.fair_loss)
    assert [d for d in r.decisions if d.hindsight_mark] == [first] and first in r.mistakes()


def test_optimal_play_loses_nothing(reviewed):
    rec, start, r = reviewed
    assert len(r.decisions) == 36
    for d in r.decisions[1:]:
        assert d.loss == 0 and d.hindsight_mark == "", (d.number, str(d.played))
        if d.forced:
            assert d.best_value is None and d.legal == 1
        else:
            assert d.played in d.best
    oracle_moves = [d for d in r.decisions if d.name == "Oracle"]
    assert len(oracle_moves) == 18 and all(d.player == 1 for d in oracle_moves)


def test_summary_per_player(reviewed):
    rec, start, r = reviewed
    s = r.summaries()
    assert list(s) == ["Ann", "Oracle"]
    ann, oracle = s["Ann"], s["Oracle"]
    assert ann.decisions + ann.forced == 18 == oracle.decisions + oracle.forced
    assert ann.loss == r.decisions[0].loss and (ann.hindsight_mistakes, ann.hindsight_blunders) == (0, 1)
    assert oracle.loss == 0 and oracle.hindsight_mistakes == oracle.hindsight_blunders == 0 and oracle.accuracy == 1.0
    for s_, who in ((ann, "Ann"), (oracle, "Oracle")):   # the marks counted are the verdict's (fair)
        marks = [d.mark for d in r.decisions if d.name == who and not d.forced]
        assert (s_.inaccuracies, s_.mistakes, s_.blunders) == (marks.count("?!"), marks.count("?"), marks.count("??"))
    assert ann.accuracy == (ann.decisions - 1) / ann.decisions
    assert oracle.fair_judged == oracle.decisions and oracle.agreement is not None


def test_fair_figures_are_pimc_on_the_players_view(reviewed):
    rec, start, r = reviewed
    first = r.decisions[0]
    from scopa_solver.play.review import _decision_seed
    s = suggest(start.view(0), Limit(threads=1), worlds=8, seed=_decision_seed(3, 1, 1), progress=False)
    assert first.fair_best == s.best and first.fair_worlds == s.worlds == 8
    assert first.fair_best_mean == pytest.approx(s.moves[0].mean)
    assert first.fair_played_mean == pytest.approx(next(m.mean for m in s.moves if str(m.move) == "Ac"))
    # the same seed gives the same review
    again = review(rec, Limit(threads=1), fair=FairReview(worlds=8, seed=3), progress=False, rounds=[1], players=["Ann"])
    assert [d.fair_loss for d in again.decisions] == [d.fair_loss for d in r.decisions if d.name == "Ann"]


def test_report_text_and_json(reviewed):
    rec, start, r = reviewed
    text = r.format()
    first_line = next(line for line in text.splitlines() if line.strip().startswith("1  Ann"))
    assert "Ac" in first_line and r.decisions[0].mark in first_line.split()[3] and "7sx7d" in first_line
    assert first_line.split()[-1] == "??"              # the hindsight column's own mark
    assert "round 1: Oracle deals" in text and "summary" in text and "Oracle" in text
    marked = r.format(all_moves=False)
    rows = [line.split() for line in marked.splitlines() if line.startswith("  ") and line.split()[0].isdigit()]
    marks = ("?!", "?", "??")
    assert [row[:4] for row in rows if row[3] in marks] == [[str(d.number), d.name, str(d.played), d.mark]
                                                           for d in r.mistakes()]
    assert all(row[3] in marks or row[-1] in marks for row in rows)   # only marked moves
    data = json.loads(json.dumps(r.to_dict()))
    assert len(data["decisions"]) == 36 and data["decisions"][0]["played"] == "Ac"
    assert data["decisions"][0]["hindsight"]["loss"] == r.decisions[0].loss
    assert data["decisions"][0]["mark"] == r.decisions[0].mark
    assert data["decisions"][0]["hindsight"]["mark"] == "??" and data["decisions"][0]["verdict"] == "fair"
    assert data["summary"][0]["name"] == "Ann"
    assert data["thresholds"] == {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER}


def test_hindsight_only_and_filters(reviewed):
    rec, start, r = reviewed
    h = review(rec, fair=None, progress=False, players=["Ann"])
    assert isinstance(h, Review) and h.worlds is None
    assert len(h.decisions) == 18 and all(d.name == "Ann" for d in h.decisions)
    assert [d.loss for d in h.decisions] == [d.loss for d in r.decisions if d.name == "Ann"]
    assert all(d.fair_best is None for d in h.decisions) and "no fair review" in h.format()
    assert h.splits() == [] and "margin = skill + cards:" not in h.format()   # one player: no split
    assert h.summaries()["Ann"].rounds == 0
    assert review(rec, fair=None, progress=False, rounds=[2]).decisions == []
    with pytest.raises(ValueError):
        review(rec, fair=FairReview(worlds=0), progress=False)


def test_marks():
    assert mark(None) == "" and mark(0) == "" and mark(0.49) == ""
    assert mark(INACCURACY) == "?!" == mark(0.99)
    assert mark(MISTAKE) == "?" == mark(1.12) and mark(BLUNDER) == "??" and mark(7) == "??"


# -- the fair verdict leads; hindsight is its own column ---------------------------------------

def greedy_against_random(seed: int) -> GameRecord:
    """A round of Greedy (Ann, the leader) against the random bot (Bob), from deal `seed`."""
    start = Position.new_round(seed=seed)
    rec = GameRecord(players=("Ann", "Bob"))
    rec.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=seed)).moves))
    return rec


@pytest.fixture(scope="module")
def disagreeing():
    """Deal 4 (the issue's game: Greedy's first move Fsx3d+5c loses 2 by hindsight, and is
    PIMC's own choice) and deal 2 (Ann's 25th move Cc loses nothing by hindsight, 1.12 fairly),
    found by reviewing Greedy against Random on deals 0-39 with 8 worlds, seed 1."""
    return {seed: review(greedy_against_random(seed), Limit(threads=1), fair=FairReview(worlds=8, seed=1), progress=False)
            for seed in (4, 2)}


def test_a_hindsight_loss_that_was_the_fair_best_move_is_not_marked(disagreeing):
    r = disagreeing[4]
    d = r.decisions[0]
    assert (d.number, d.name, str(d.played)) == (1, "Ann", "Fsx3d+5c")
    assert d.loss == 2 and d.hindsight_mark == "??" and d.played not in d.best
    assert d.fair_best == d.played and d.fair_loss == 0
    assert d.verdict == "fair" and d.mark == "" and d not in r.mistakes()
    data = r.to_dict()["decisions"][0]
    assert (data["mark"], data["verdict"], data["hindsight"]["mark"], data["fair"]["mark"]) == ("", "fair", "??", "")
    row = next(line for line in r.format().splitlines() if line.startswith("    1  Ann"))
    assert row.split()[:4] == ["1", "Ann", "Fsx3d+5c", "Fsx3d+5c"] and row.split()[-1] == "??"
    assert r.summaries()["Ann"].blunders == 0 < r.summaries()["Ann"].hindsight_blunders


def test_a_fair_loss_over_a_point_is_marked_though_hindsight_lost_nothing(disagreeing):
    r = disagreeing[2]
    d = r.decisions[24]
    assert (d.number, d.name, str(d.played)) == (25, "Ann", "Cc")
    assert d.loss == 0 and d.hindsight_mark == "" and d.played in d.best
    assert MISTAKE < d.fair_loss < BLUNDER and d.fair_best != d.played
    assert d.verdict == "fair" and d.mark == "?" and d in r.mistakes()
    assert r.to_dict()["decisions"][24]["mark"] == "?"
    row = next(line for line in r.format(all_moves=False).splitlines() if line.startswith("   25  Ann"))
    assert row.split()[3] == "?"


def test_without_a_fair_verdict_the_mark_is_hindsights_and_says_so():
    rec = greedy_against_random(4)
    r = review(rec, fair=None, progress=False)
    d = r.decisions[0]
    assert d.verdict == "hindsight" and d.mark == d.hindsight_mark == "??"
    assert all(x.mark == x.hindsight_mark for x in r.decisions)
    assert r.to_dict()["decisions"][0]["verdict"] == "hindsight"
    text = r.format()
    assert next(line for line in text.splitlines() if line.startswith("    1  Ann")).split()[3] == "??*"
    assert "no fair review: marks by hindsight" in text
    assert r.summaries()["Ann"].by_hindsight == r.summaries()["Ann"].decisions


# -- the luck/skill split --------------------------------------------------------------------------

def check_splits(r: Review) -> None:
    """Every finished round's split: margin = skill + cards exactly; skill = the others' (mean)
    loss minus the side's own, by the decisions' verdicts; the summaries add the rounds up."""
    rules = r.record.rules
    count = max(rules.sides) + 1
    splits = r.splits()
    rounds = sorted({d.round for d in r.decisions if r.scores[d.round - 1] is not None
                     and sum(x.round == d.round for x in r.decisions) == len(r.record.rounds[d.round - 1].moves)})
    assert [(sp.round, sp.side) for sp in splits] == [(n, side) for n in rounds for side in range(count)]
    for sp in splits:
        score = r.scores[sp.round - 1]
        assert sp.margin == score[sp.side] - max(p for t, p in enumerate(score) if t != sp.side)
        assert Fraction(sp.skill) + Fraction(sp.cards) == sp.margin          # exactly
        mine = [d.verdict_loss for d in r.decisions if d.round == sp.round and d.side == sp.side and not d.forced]
        theirs = [d.verdict_loss for d in r.decisions if d.round == sp.round and d.side != sp.side and not d.forced]
        assert sp.lost == pytest.approx(sum(x for x in mine if x is not None))
        assert sp.others_lost == pytest.approx(sum(x for x in theirs if x is not None) / (count - 1))
        assert sp.skill == pytest.approx(sp.others_lost - sp.lost, abs=1 / 2048)
        assert sp.name == r.record.side_names(sp.round - 1)[sp.side]
    for n in rounds:                 # the skill parts of a round sum to nothing
        assert sum(sp.skill for sp in splits if sp.round == n) == pytest.approx(0, abs=count / 2048)
    for by in ("name", "seat"):
        for s in r.summaries(by).values():
            assert Fraction(s.skill) + Fraction(s.cards) == s.margin
    for s in r.summaries("seat").values():
        seat = int(s.name.split()[1])
        mine = [sp for sp in splits if sp.side == rules.sides[seat]]
        assert (s.rounds, s.margin) == (len(mine), sum(sp.margin for sp in mine))
        assert s.skill == sum(sp.skill for sp in mine)
    data = json.loads(json.dumps(r.to_dict()))
    assert data["splits"] == [sp.to_dict() for sp in splits]
    for x in data["splits"]:
        assert Fraction(x["skill"]) + Fraction(x["cards"]) == x["margin"]
    assert [x["split"] for x in data["seat_summary"]] == [
        {"rounds": s.rounds, "margin": s.margin, "skill": s.skill, "cards": s.cards} for s in r.summaries("seat").values()]


def test_the_luck_skill_split_of_two_players_adds_up(disagreeing):
    r = disagreeing[4]
    check_splits(r)
    ann, bob = r.splits()
    # Bob's fair losses in deal 4 (his 7b above all) are Ann's skill
    assert ann.skill > 0 and ann.skill == -bob.skill and ann.margin == -bob.margin
    text = r.format()
    assert f"margin = skill + cards: Ann {ann.margin:+d} = {ann.skill:+.2f}" in text
    assert r.to_dict()["summary"][0]["split"] == {"rounds": 1, "margin": ann.margin, "skill": ann.skill,
                                                  "cards": ann.cards}


def test_the_luck_skill_split_of_the_family_adds_up():
    """Three players (three sides, the margin against the best other) and four in partnerships."""
    for rules, seed in ((Rules(players=3), 3), (Rules(players=4), 2)):
        rng = random.Random(seed)
        start = pos = Position.new_round(seed=seed, rules=rules)
        moves = []
        while not pos.is_round_over():
            moves.append(rng.choice(pos.legal_moves()))
            pos = pos.play(moves[-1])
        rec = GameRecord(rules=rules, players=[f"P{p}" for p in range(rules.players)], kind="rounds")
        rec.add_round(RoundRecord.from_play(start, moves))
        r = review(rec, Limit(threads=1), fair=FairReview(worlds=2, seed=1), progress=False)
        check_splits(r)
        assert len(r.splits()) == max(rules.sides) + 1
        assert any(sp.skill != 0 for sp in r.splits())


def test_equilibrium_judges_the_last_two_deals():
    """`equilibrium=True`: the decisions of the last two deals get the endgame equilibrium's
    figures (the same as `equilibrium` on the player's view), the earlier ones none; at the last
    deal (perfect information) the loss is the hindsight loss. Only the dealer (Bob) is
    reviewed: the leader's first play of the last-but-one deal, with three unknown cards
    against three, takes 7 s of equilibrium; the dealer's decisions are the same code."""
    from scopa_solver import equilibrium
    from scopa_solver.play.review import EQUILIBRIUM_ITERATIONS
    from scopa_solver.play.game import play_round
    from scopa_solver import GreedyBot
    start = Position.new_round(seed=16)
    bot = GreedyBot()
    rec = GameRecord(players=("Ann", "Bob"))
    rec.add_round(RoundRecord.from_play(start, play_round(start, bot, bot).moves))
    r = review(rec, Limit(threads=2), fair=None, progress=False, equilibrium=True, players=("Bob",))
    assert {d.player for d in r.decisions} == {start.dealer}
    late = [d for d in r.decisions if d.position.deals_left <= 1 and not d.forced]
    assert late and all(d.eq_loss is not None and d.eq_loss >= 0 and 0 <= d.eq_probability <= 1 for d in late)
    assert all(d.eq_loss is None for d in r.decisions if d.position.deals_left > 1)
    last = [d for d in late if d.position.deals_left == 0]
    assert last and any(d.loss > 0 for d in last)       # (seed 16: a point lost at the last deal)
    for d in last:
        assert d.eq_loss == d.loss
    d = late[1]
    eq = equilibrium(d.position.view(d.player), Limit(threads=1), max_iterations=EQUILIBRIUM_ITERATIONS)
    assert d.eq_loss > 0 and d.eq_loss == pytest.approx(eq.losses[d.played]) and d.eq_best == eq.best
    text = r.format()
    assert "best (equilibrium)" in text and "points lost against the endgame equilibrium" in text
    data = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert data["equilibrium"] is True
    assert data["decisions"][r.decisions.index(late[0])]["equilibrium"]["loss"] == late[0].eq_loss


# -- the review of every game of the family ------------------------------------------------------------------------------------------

# the family's games, reviewed (the two-player review: the tests above)
REVIEWED = games("3 players", "4 players", "6 players", "scopone",
                 more={"scientifico napola": Rules(players=4, game="scientifico", napola=True)})


@pytest.mark.parametrize("game", REVIEWED)
def test_review_losses_are_analyze_differences(game):
    """One round of random play reviewed within a small budget: every judged decision's loss
    is analyze's best value minus the played move's; the last deal is always judged; what is
    not judged says why."""
    rules = REVIEWED[game]
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
    r = review(rec, Limit(nodes=budget, threads=1), fair=None, progress=False)
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
    if rules.game != "scopa":
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
    r = review(rec, Limit(threads=1), fair=FairReview(worlds=2, seed=1), rounds=[1], players=["A"], progress=False)
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


def test_review_takes_one_limit_for_its_searches(monkeypatch):
    """Issue 40: `review(record, limit, fair=FairReview(...), equilibrium=...)`. The limit's
    nodes default to HINDSIGHT_NODES (a Limit of a time alone keeps that budget), a horizon is
    refused (the hindsight search is exact), its deadline ends the whole review as `budget`
    does; each fair search takes the FairReview's limit (else the review's table and threads)."""
    rec, _ = blunder_record()
    assert review(rec, Limit(time=600), fair=None, progress=False).max_nodes == HINDSIGHT_NODES
    assert review(rec, fair=None, progress=False).to_dict()["max_nodes"] == HINDSIGHT_NODES
    for bad in (dict(limit=Limit(horizon=4)), dict(limit={"nodes": 5}), dict(fair=8), dict(equilibrium="yes")):
        with pytest.raises(LimitError):
            review(rec, progress=False, **bad)
    for bad in (dict(worlds=True), dict(seed=1.5), dict(limit=2.0)):
        with pytest.raises(LimitError):
            FairReview(**bad)
    seen = []
    real = review_module._suggest
    monkeypatch.setattr(review_module, "_suggest", lambda d, fair, limit: seen.append(limit) or real(d, fair, limit))
    review(rec, Limit(tt_mb=8, threads=1), fair=FairReview(2, 1), rounds=[1], players=["Oracle"], progress=False)
    review(rec, Limit(tt_mb=8), fair=FairReview(2, 1, Limit(time=30, threads=1)), players=["Oracle"],
           progress=False)
    assert seen and {seen[0], seen[-1]} == {Limit(tt_mb=8, threads=1), Limit(time=30, threads=1)}
    late = review(rec, Limit(deadline=time.monotonic() - 1), fair=None, progress=False)   # already past
    assert not late.complete and all(d.forced or "not judged: the review" in d.hindsight_reason
                                     for d in late.decisions)


# -- a match review (issue 42): by the chance to win the match -----------------------------------

def match_record(target: int = 6) -> GameRecord:
    """A whole match to `target` of Greedy against Random, as a record."""
    from scopa_solver import play_match
    played = play_match(GreedyBot(), RandomBot(seed=4), seed=9, target=target)
    rec = GameRecord(rules=Rules(target=target), players=("Gia", "Rex"))
    for r in played.rounds:
        rec.add_round(RoundRecord.from_play(r.start, r.moves))
    assert len(rec.rounds) >= 2 and rec.running_totals()[-1] == played.totals
    return rec


def test_a_match_review_judges_by_the_chance_to_win_the_match():
    from test_bots_match import TargetEquity
    from scopa_solver import Match
    equity = TargetEquity(6)
    rec = match_record()
    r = review(rec, Limit(threads=1), fair=FairReview(worlds=4, seed=2), match=equity, progress=False)
    befores = [(0, 0)] + rec.running_totals()[:-1]
    assert r.match and r.splits() == [] and len(r.decisions) == sum(len(x.moves) for x in rec.rounds)
    lost = 0
    for i, d in enumerate(r.decisions):
        match = Match(tuple(befores[d.round - 1]), 6, equity)
        assert d.match == match
        if d.forced:
            continue
        rows = analyze(d.position, objective=match)          # hindsight: every card seen
        values = {row.move: row.value for row in rows}
        assert d.best_value == rows[0].value and d.played_value == values[d.played]
        assert 0 <= d.played_value <= d.best_value <= 10000
        assert d.loss == pytest.approx((d.best_value - d.played_value) / 100)
        assert d.hindsight_mark == mark(d.loss, match=True)
        assert d.fair_loss == pytest.approx((d.fair_best_mean - d.fair_played_mean) / 100)
        if i % 9 == 0:      # fair: suggest under the match on the player's view, the decision's seed
            s = suggest(d.position.view(d.player), Limit(threads=1), worlds=4, progress=False, objective=match,
                        seed=review_module._decision_seed(2, d.round, d.number))
            assert d.fair_best_mean == s.moves[0].mean and d.fair_means == {m.move: m.mean for m in s.moves}
        lost += d.loss > 0
    assert lost > 0         # Random loses match chances somewhere
    data = r.to_dict()
    assert data["match"] and data["loss_unit"].startswith("percentage points")
    assert data["decisions"][0]["match"] == {"score": [0, 0], "target": 6}
    assert "chance to win the match" in r.format()
    plain = review(rec, Limit(threads=1), fair=None, rounds=[1], progress=False)
    assert not plain.match and plain.decisions[0].match is None and plain.splits()


def test_match_marks_and_bad_match_arguments():
    assert [mark(x, match=True) for x in (1.9, 2.0, 5.0, 10.0)] == ["", "?!", "?", "??"]
    assert [mark(x) for x in (0.4, 0.5, 1.0, 2.0)] == ["", "?!", "?", "??"]
    from scopa_solver import MatchError
    with pytest.raises(MatchError, match="match must be"):
        review(match_record(), fair=None, match="yes", progress=False)
