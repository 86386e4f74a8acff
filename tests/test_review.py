"""The whole-game review: a known blunder is flagged, optimal play is not, figures agree with the solver."""
from __future__ import annotations

import json

import pytest

from scopa_solver import DECK, OracleBot, Position, analyze, suggest
from scopa_solver.play.record import GameRecord, RoundRecord
from scopa_solver.play.review import BLUNDER, MISTAKE, Review, mark, review

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
    return rec, start, review(rec, worlds=8, seed=3, threads=1, progress=False)


def test_the_settebello_giveaway_is_flagged(reviewed):
    rec, start, r = reviewed
    first = r.decisions[0]
    assert (first.round, first.number, first.player, first.name, str(first.played)) == (1, 1, 0, "Ann", "Ac")
    assert str(rec.rounds[0].moves[1]) == "7cx7d"      # the dealer takes the settebello at once
    rows = analyze(start)
    values = {str(row.move): row.value for row in rows}
    assert first.best_value == rows[0].value == values["7sx7d"] and first.played_value == values["Ac"]
    assert first.loss == values["7sx7d"] - values["Ac"] >= BLUNDER
    assert first.mark == "??" == mark(first.loss)
    assert [str(m) for m in first.best] == ["7sx7d"]
    # from Ann's own view too, leaving the settebello on the table is a blunder
    assert str(first.fair_best) == "7sx7d" and first.fair_loss >= MISTAKE and first.fair_mark
    assert r.mistakes() == [first]


def test_optimal_play_loses_nothing(reviewed):
    rec, start, r = reviewed
    assert len(r.decisions) == 36
    for d in r.decisions[1:]:
        assert d.loss == 0 and d.mark == "", (d.number, str(d.played))
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
    assert ann.loss == r.decisions[0].loss and (ann.mistakes, ann.blunders) == (0, 1)
    assert oracle.loss == 0 and oracle.mistakes == oracle.blunders == 0 and oracle.accuracy == 1.0
    assert ann.accuracy == (ann.decisions - 1) / ann.decisions
    assert oracle.fair_judged == oracle.decisions and oracle.agreement is not None


def test_fair_figures_are_pimc_on_the_players_view(reviewed):
    rec, start, r = reviewed
    first = r.decisions[0]
    from scopa_solver.play.review import _decision_seed
    s = suggest(start.view(0), worlds=8, seed=_decision_seed(3, 1, 1), threads=1, progress=False)
    assert first.fair_best == s.best and first.fair_worlds == s.worlds == 8
    assert first.fair_best_mean == pytest.approx(s.moves[0].mean)
    assert first.fair_played_mean == pytest.approx(next(m.mean for m in s.moves if str(m.move) == "Ac"))
    # the same seed gives the same review
    again = review(rec, worlds=8, seed=3, threads=1, progress=False, rounds=[1], players=["Ann"])
    assert [d.fair_loss for d in again.decisions] == [d.fair_loss for d in r.decisions if d.name == "Ann"]


def test_report_text_and_json(reviewed):
    rec, start, r = reviewed
    text = r.format()
    first_line = next(line for line in text.splitlines() if line.strip().startswith("1  Ann"))
    assert "Ac" in first_line and "??" in first_line and "7sx7d" in first_line
    assert "round 1: Oracle deals" in text and "summary" in text and "Oracle" in text
    marked = r.format(all_moves=False)
    rows = [line.split() for line in marked.splitlines() if line.startswith("  ") and line.split()[0].isdigit()]
    assert [row[:4] for row in rows if row[3] in ("?", "??")] == [["1", "Ann", "Ac", "??"]]
    assert all(row[3] in ("?", "??") or row[-1] in ("?", "??") for row in rows)   # only marked moves
    data = json.loads(json.dumps(r.to_dict()))
    assert len(data["decisions"]) == 36 and data["decisions"][0]["played"] == "Ac"
    assert data["decisions"][0]["hindsight"]["loss"] == r.decisions[0].loss
    assert data["decisions"][0]["mark"] == r.decisions[0].mark
    assert data["summary"][0]["name"] == "Ann" and data["thresholds"] == {"mistake": MISTAKE, "blunder": BLUNDER}


def test_hindsight_only_and_filters(reviewed):
    rec, start, r = reviewed
    h = review(rec, worlds=None, progress=False, players=["Ann"])
    assert isinstance(h, Review) and h.worlds is None
    assert len(h.decisions) == 18 and all(d.name == "Ann" for d in h.decisions)
    assert [d.loss for d in h.decisions] == [d.loss for d in r.decisions if d.name == "Ann"]
    assert all(d.fair_best is None for d in h.decisions) and "no fair review" in h.format()
    assert review(rec, worlds=None, progress=False, rounds=[2]).decisions == []
    with pytest.raises(ValueError):
        review(rec, worlds=0, progress=False)


def test_marks():
    assert mark(None) == "" and mark(0) == "" and mark(0.99) == ""
    assert mark(MISTAKE) == "?" and mark(BLUNDER) == "??" and mark(7) == "??"


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
    r = review(rec, worlds=None, threads=2, progress=False, equilibrium=True, players=("Bob",))
    assert {d.player for d in r.decisions} == {start.dealer}
    late = [d for d in r.decisions if d.position.deals_left <= 1 and not d.forced]
    assert late and all(d.eq_loss is not None and d.eq_loss >= 0 and 0 <= d.eq_probability <= 1 for d in late)
    assert all(d.eq_loss is None for d in r.decisions if d.position.deals_left > 1)
    last = [d for d in late if d.position.deals_left == 0]
    assert last and any(d.loss > 0 for d in last)       # (seed 16: a point lost at the last deal)
    for d in last:
        assert d.eq_loss == d.loss
    d = late[1]
    eq = equilibrium(d.position.view(d.player), threads=1, max_iterations=EQUILIBRIUM_ITERATIONS)
    assert d.eq_loss > 0 and d.eq_loss == pytest.approx(eq.losses[d.played]) and d.eq_best == eq.best
    text = r.format()
    assert "best (equilibrium)" in text and "points lost against the endgame equilibrium" in text
    data = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert data["equilibrium"] is True
    assert data["decisions"][r.decisions.index(late[0])]["equilibrium"]["loss"] == late[0].eq_loss
