"""Playing to win the match (issue 42): the hook by which a chooser learns the match score
(`start_round`, called by play_match, arena and the terminal's play), and the bots with the match
objective (`OracleBot` / `PIMCBot` with ``objective="match"``, make_bot's ``:match``), which at a
late match score choose the move that most often wins the match where the margin's differs."""
from __future__ import annotations

import io

import pytest

from scopa_solver import (GameRecord, Limit, Match, MatchError, OracleBot, PIMCBot, Position, Rules, analyze, arena,
                          play_match, solve)
from scopa_solver.core.view import view_seed
from scopa_solver.imperfect.pimc import suggest
from scopa_solver.play.bot_names import make_bot
from scopa_solver.play.bots import Bot, PhaseBot
from scopa_solver.play.terminal import play_game


class TargetEquity:
    """A made-up match equity for the tests: a side at the target and ahead has won; below it,
    a logistic of the lead after the round."""

    def __init__(self, target: int = 11) -> None:
        self.target = target

    def after_round(self, score, round_points, dealer, side):
        totals = [s + p for s, p in zip(score, round_points)]
        other = max(t for i, t in enumerate(totals) if i != side)
        if max(totals) >= self.target and totals[side] != other:
            return 1.0 if totals[side] > other else 0.0
        return 1.0 / (1.0 + 2.718281828 ** (-0.35 * (totals[side] - other)))


class Told(Bot):
    """Plays the first legal move and keeps what start_round told it."""

    def __init__(self) -> None:
        self.told: list = []
        self.name = "Told"

    def start_round(self, score, target):
        self.told.append((score, target))

    def __call__(self, position):
        return position.legal_moves()[0]


# -- the hook --------------------------------------------------------------------------------------

def test_play_match_tells_every_chooser_the_score_before_each_round():
    a, b = Told(), Told()
    match = play_match(a, b, seed=3, target=11)
    totals, expected = (0, 0), []
    for r in match.rounds:
        expected.append((totals, 11))
        totals = tuple(t + p for t, p in zip(totals, r.points))
    assert a.told == b.told == expected and totals == match.totals
    one = Told()                # one chooser in both seats: told once a round
    assert len(one.told) == 0 and len(play_match(one, one, seed=3).rounds) == len(one.told)
    plain = play_match(lambda pos: pos.legal_moves()[0], lambda pos: pos.legal_moves()[0], seed=3)
    assert plain.totals == match.totals         # a chooser without the hook plays as before
    Bot().start_round((1, 2), 11)               # the base class: a no-op


def test_arena_tells_the_bots_of_matches_and_partners_and_none_before_lone_rounds():
    a, b = Told(), Told()
    arena(a, b, rounds=1, matches=1, seed=2, progress=False)
    assert a.told[0] == (None, None) and a.told[1] == ((0, 0), 11) and len(a.told) > 3
    assert all(score is None or len(score) == 2 for score, _ in a.told)
    p, q, r = Told(), Told(), Told()        # partners given one per seat: each is told
    arena((p, q), r, rounds=0, matches=1, seed=2, progress=False, rules=Rules(players=4, target=6))
    assert p.told == q.told and p.told[0] == ((0, 0), 6)
    phase = PhaseBot(Told(), Told())
    phase.start_round((3, 4), 11)
    assert phase.early.told == phase.late.told == [((3, 4), 11)]


def test_the_terminal_game_tells_its_bots():
    bot = Told()
    record = GameRecord(rules=Rules(target=6), players=("A", "B"))
    play_game(bot, record=record, human=None, seed=1, out=io.StringIO())
    assert len(record.rounds) > 1
    assert bot.told == [((0, 0), 6)] + [(tuple(t), 6) for t in record.running_totals()[:-1]]


# -- the bots --------------------------------------------------------------------------------------

SCORES = [(10, 9), (9, 10), (9, 9), (10, 8), (8, 10), (10, 10)]
LATE = [(8, 9), (9, 8), (7, 9), (9, 7), (6, 9), (9, 6), (5, 9), (9, 5)]


def disagreeing(rounds: int = 30):
    """A position of a round the oracle plays and a late match score where the margin's best move
    (the first the exact search gives) is not among the match's best moves (`TargetEquity`, to
    11), found by scanning seeded rounds; with the margin's and the match's best moves."""
    equity, oracle = TargetEquity(), OracleBot(Limit(threads=1))
    for seed in range(rounds):
        pos = Position.new_round(seed=seed)
        while not pos.is_round_over():
            if len(pos.legal_moves()) > 1:
                margin = solve(pos).best_moves
                for score in LATE:
                    match = solve(pos, objective=Match(score, 11, equity)).best_moves
                    if margin[0] not in match:
                        return pos, score, margin, match
            pos = pos.play(oracle(pos))
    raise AssertionError("no position where the objectives differ")


def test_the_oracle_with_the_match_objective_picks_the_match_best_move():
    pos, score, margin, match = disagreeing()
    bot = OracleBot(Limit(threads=1), objective="match", equity=TargetEquity())
    assert bot.name == "Oracle(match)" and bot(pos) == margin[0]     # the margin until told the score
    bot.start_round(score, 11)
    assert bot(pos) in match
    bot.start_round(None, None)
    assert bot(pos) == margin[0]
    plain = OracleBot(Limit(threads=1))
    plain.start_round(score, 11)            # the margin objective ignores the score
    assert plain(pos) == margin[0] not in match


def test_the_match_oracle_breaks_ties_by_the_margin():
    # 10-9 up, the mover's side: a round it cannot lose wins the match whatever it plays, so
    # every move has the same chance; among them the oracle plays the margin's best
    equity = TargetEquity()
    for seed in range(20):
        pos = Position.new_round(seed=seed)
        match = solve(pos, objective=Match((10, 9), 11, equity))
        rows = analyze(pos)
        best_margin = max(row.value for row in rows)
        if match.value == 10000 and len(match.best_moves) == len(rows) and \
                [row.value for row in rows].count(best_margin) == 1:
            bot = OracleBot(Limit(threads=1), objective="match", equity=equity)
            bot.start_round((10, 9), 11)
            assert bot(pos) == next(row.move for row in rows if row.value == best_margin)
            return
    raise AssertionError("no position where every move wins the match")


def _late_views(equity):
    """(position, its mover's view, the margin's suggestion, a suggestion under a Match): every
    decision of the last two deals the oracle plays in 40 seeded rounds, each suggestion over the
    40 worlds the bot below samples (its seed and the view's); `chance(score)` searches one score."""
    oracle = OracleBot(Limit(threads=1))
    for seed in range(40):
        pos = Position.new_round(seed=seed)
        while not pos.is_round_over():
            view = pos.view(pos.to_move)
            if pos.deals_left <= 1 and len(view.legal_moves()) > 1:
                drawn = dict(worlds=40, seed=view_seed(1, view), progress=False)

                def chance(score, view=view, drawn=drawn):
                    return suggest(view, Limit(threads=1), objective=Match(score, 11, equity), **drawn)
                yield pos, suggest(view, Limit(threads=1), **drawn), chance
            pos = pos.play(oracle(pos))


def _match_pimc(equity):
    return PIMCBot(Limit(threads=1), worlds=40, seed=1, exact_limit=0, objective="match", equity=equity)


def test_pimc_with_the_match_objective_picks_the_best_mean_chance():
    # at late scores, until the best mean chance and the best mean margin (each alone at the
    # top) are different moves
    equity = TargetEquity()
    for pos, value, chance_at in _late_views(equity):
        for score in SCORES + LATE:
            chance = chance_at(score)
            if chance.best != value.best and chance.moves[0].mean > chance.moves[1].mean \
                    and value.moves[0].mean > value.moves[1].mean:
                bot = _match_pimc(equity)
                assert bot(pos) == value.best
                bot.start_round(score, 11)
                assert bot(pos) == chance.best and bot.name == "PIMC(40)(match)"
                return
    raise AssertionError("no view where the objectives differ")


def test_pimc_breaks_equal_chances_by_the_mean_margin():
    equity = TargetEquity()
    for pos, value, chance_at in _late_views(equity):
        chance = chance_at((10, 9))
        tied = [row.move for row in chance.moves if row.mean == chance.moves[0].mean]
        margins = [row.mean for row in value.moves if row.move in tied]
        if len(tied) > 1 and chance.best != value.best and margins[0] > margins[1]:
            bot = _match_pimc(equity)
            bot.start_round((10, 9), 11)
            assert bot(pos) == next(row.move for row in value.moves if row.move in tied)
            return
    raise AssertionError("no view with equal chances")


def test_pimc_for_the_match_plays_a_match_of_four_players_alone():
    # four sides, the shipped (exact) equity: told the score before each round, the bots play
    # the match to its end under the match objective
    rules = Rules(players=4, partnerships=False, target=5)
    bots = [make_bot("pimc:3:match", Limit(threads=1, nodes=5_000), seed=seat, rules=rules) for seat in range(4)]
    match = play_match(*bots, rules=rules, seed=2)
    assert match.winner is not None and max(match.totals) >= 5 and len(match.totals) == 4
    assert match.totals[match.winner] == max(match.totals) and match.totals.count(max(match.totals)) == 1
    before = tuple(t - p for t, p in zip(match.totals, match.rounds[-1].points))
    assert all(bot.objective == "match" and bot.match == Match(before, 5) for bot in bots)


def test_bot_objectives_by_name_and_bad_ones():
    assert make_bot("pimc:match").objective == "match" and make_bot("pimc:match").worlds == 50
    assert make_bot("pimc:200:match").worlds == 200 and make_bot("pimc").objective == "value"
    assert make_bot("oracle:match").objective == "match" and make_bot("oracle").objective == "value"
    with pytest.raises(MatchError, match="objective"):
        OracleBot(objective="maxn")
    with pytest.raises(MatchError, match="objective"):
        PIMCBot(objective=Match((1, 2)))        # a bot learns the score from start_round
    with pytest.raises(MatchError, match="target"):
        OracleBot(objective="match", equity=TargetEquity()).start_round((1, 2), 0)
