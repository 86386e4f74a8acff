"""Learning from one's mistakes (issue 45): a review's fair mistakes of one player as lessons,
from the player's view, each move judged by the review's fair values."""
import pytest

from scopa_solver import GameRecord, GreedyBot, Position, RandomBot, RoundRecord, play_round
from scopa_solver.core.cards import iter_cards
from scopa_solver.errors import NotationError, ScopaError
from scopa_solver.play.learn import TOLERANCE, lessons
from scopa_solver.play.review import FairReview, review


@pytest.fixture(scope="module")
def reviewed():
    start = Position.new_round(seed=2)
    record = GameRecord(players=("Greedy", "Random"))
    record.add_round(RoundRecord.from_play(start, play_round(start, GreedyBot(), RandomBot(seed=2)).moves))
    return record, review(record, fair=FairReview(worlds=8, seed=0), progress=False)


def test_the_lessons_are_the_fair_mistakes_from_the_players_view(reviewed):
    record, result = reviewed
    found = lessons(result, "Random")
    expected = [d for d in result.decisions if d.name == "Random" and d.verdict == "fair" and d.mark in ("?", "??")]
    assert [(x.round, x.number, x.played) for x in found] == [(d.round, d.number, d.played) for d in expected]
    assert len(found) == 4
    positions = record.replay()[0].positions
    for x in found:
        pos = positions[x.number - 1]
        assert x.view == pos.view(x.seat) and x.seat == pos.to_move == 1
        assert set(x.means) == set(pos.legal_moves())
        assert x.best_mean == max(x.means.values()) and x.means[x.best] == x.best_mean
        assert abs(x.best_mean - x.means[x.played] - x.fair_loss) < 1e-9
        assert not any(str(c) in x.view.to_string() for c in iter_cards(pos.hands[0]))   # no hidden card named
        assert x.view.to_string().split()[0].split("/")[0].startswith("?")      # the opponent's hand: a count


def test_judging_a_move(reviewed):
    _, result = reviewed
    x = lessons(result, "Random")[0]
    best, played = x.judge(str(x.best)), x.judge(x.played)
    assert best.good and best.loss == 0 and not best.played and best.mark == ""
    assert not played.good and played.played and played.loss == pytest.approx(x.fair_loss) and played.mark == x.mark
    assert "as good as the best fair move" in best.text(x) and f"Best: {x.best}" in played.text(x)
    for move in x.means:          # as good as the best exactly when within the tolerance
        assert x.judge(move).good == (x.best_mean - x.means[move] < TOLERANCE)
    with pytest.raises(ScopaError):
        x.judge("Rz")
    other = next(m for m in Position.new_round(seed=9).legal_moves() if m not in x.means)
    with pytest.raises(NotationError, match="not a legal move here"):
        x.judge(other)


def test_no_lessons_without_a_fair_review_and_unknown_players_are_refused(reviewed):
    record, result = reviewed
    assert lessons(review(record, fair=None, progress=False), "Random") == []    # hindsight marks: no lesson
    with pytest.raises(NotationError, match="no player 'Nobody'"):
        lessons(result, "Nobody")
