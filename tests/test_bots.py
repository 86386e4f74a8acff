"""The bots: legal play, no hidden card leaking into a decision, the documented heuristic,
the oracle's optimality (the arena they meet in: test_arena.py); the bots of every
game of the family (views that leak nothing, the greedy weighing of the next seat by side and
of sums to fifteen, the oracle and the phase bot, whole rounds of mixed bots)."""
from __future__ import annotations

import pytest

from helpers import few_worlds, games, played, random_positions

from scopa_solver import (GreedyBot, Limit, Move, OracleBot, PIMCBot, Position, RandomBot, Rules, View, ViewError,
                          play_round, solve)
from scopa_solver.play.bot_names import make_bot
from scopa_solver.core.cards import DECK, card_list, popcount
from scopa_solver.play.bots import Bot, PhaseBot
from scopa_solver.play.inference import InferenceBot

GAMES = games("scopa", "3 players", "4 players", "4 alone", "6 players", "scopone", "scientifico", "scopa a 15",
              more={"4 players, a 15": Rules(players=4, capture="fifteen")})


def twins(count: int, seed: int, **kw) -> list[tuple[Position, Position]]:
    """Pairs of different positions that look the same to the side to move."""
    out = []
    for i, pos in enumerate(random_positions(count, seed, **kw)):
        view = pos.view(pos.to_move)
        if view.count_worlds() < 2:
            continue
        other = next(w for w in view.sample_worlds(20, seed=i) if w.hands != pos.hands or w.stock != pos.stock)
        assert other.view(pos.to_move) == view and other != pos
        out.append((pos, other))
    return out


FAST_BOTS = [RandomBot(seed=7), GreedyBot(), PIMCBot(Limit(threads=1), worlds=6, seed=3, exact_limit=60),
             PhaseBot(GreedyBot(), PIMCBot(Limit(threads=1), worlds=6, seed=3, exact_limit=60))]


@pytest.mark.parametrize("bot", FAST_BOTS, ids=lambda b: b.name)
def test_no_hidden_card_leaks_into_a_decision(bot: Bot) -> None:
    pairs = twins(12, 21) + twins(6, 22, deals_left=1)
    assert len(pairs) >= 12
    for pos, other in pairs:
        move = bot(pos)
        assert move in pos.legal_moves()
        assert bot(other) == move
        assert bot.choose(pos.view(pos.to_move)) == move


@pytest.mark.parametrize("bot", [RandomBot(seed=1), GreedyBot(), OracleBot()], ids=lambda b: b.name)
def test_bots_play_whole_rounds(bot: Bot) -> None:
    for seed in range(2):
        result = play_round(Position.new_round(seed=seed), bot, RandomBot(seed=seed))
        assert result.final.is_round_over() and len(result.moves) == 36


def test_pimc_bot_plays_a_round_and_matches_suggest() -> None:
    bot = PIMCBot(Limit(threads=1), worlds=4, seed=1, exact_limit=100)
    result = play_round(Position.new_round(seed=3), bot, GreedyBot())
    assert result.final.is_round_over()
    view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    assert str(PIMCBot(Limit(threads=1), worlds=10, exact_limit=2000).choose(view)) == "FbxFd"   # exact: 1680 worlds


def test_random_bot_is_seeded() -> None:
    view = Position.new_round(seed=9).view(0)
    picks = {str(RandomBot(seed=s).choose(view)) for s in range(40)}
    assert picks == {str(m) for m in view.legal_moves()}    # every move comes up
    assert RandomBot(seed=4).choose(view) == RandomBot(seed=4).choose(view)


def test_greedy_takes_the_settebello_and_sweeps() -> None:
    # seed 11: player 0 holds Fd Cc 4s, the table is 7d Ac 5s 7s: Fd takes 7d + Ac
    view = Position.new_round(seed=11).view(0)
    assert str(GreedyBot().choose(view)) == "Fdx7d+Ac"
    # a sweep beats a larger capture; with a choice, it does not leave a sweepable table
    for pos in random_positions(150, 23):
        if pos.is_round_over():
            continue
        view = pos.view(pos.to_move)
        scored = GreedyBot().scores(view)
        best = scored[0][0]
        sweeps = [m for m in view.legal_moves() if view.is_scopa(m)]
        if sweeps:
            assert view.is_scopa(best), view
        assert [sc for _, sc in scored] == sorted((sc for _, sc in scored), reverse=True)


def test_greedy_avoids_leaving_a_sweepable_table() -> None:
    # player 0 holds three figures and none captures the Ad on the table; Fb would leave 9
    # (swept by any unseen Cavallo), Cb 10 (by any Re), Rb 11: safe. Without the sweep term the
    # three lay-downs score the same and the tie would go to Cb (text order).
    pos = Position.from_string("FbCbRb/2c3c4c Ad 2d3d4d/- 5d6d7dFdCdRdAc5c6c7cFcCcRcAs2s3s4s5s6s7sFsCsRsAb2b3b4b5b6b7b 0/0 0 1 0")
    view = pos.view(0)
    assert {str(m) for m in view.legal_moves()} == {"Fb", "Cb", "Rb"}
    assert str(GreedyBot().choose(view)) == "Rb"
    assert str(GreedyBot(sweepable=0.0).choose(view)) == "Cb"


def test_a_bots_limit_reaches_its_searches(monkeypatch) -> None:
    """A bot's Limit: its time is the decision's budget; threads, tt_mb and nodes (each
    world's budget) go to suggest, and the opponent model's worlds get its threads and tt_mb."""
    import scopa_solver.play.bots as bots
    import scopa_solver.play.inference as inference
    asked, solved = [], []
    real_suggest, real_solve = bots.suggest, inference.solve_worlds
    monkeypatch.setattr(bots, "suggest", lambda view, limit, **kw: asked.append(limit) or real_suggest(view, limit, **kw))
    monkeypatch.setattr(inference, "solve_worlds", lambda states, limit=None, **kw: solved.append(limit)
                        or real_solve(states, limit, **kw))
    view = View.from_string("6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1")
    limit = Limit(time=30, threads=2, tt_mb=8, nodes=50_000)
    assert str(PIMCBot(limit, worlds=10, seed=1).choose(view)) == "FbxFd"
    assert asked == [Limit(threads=2, tt_mb=8, nodes=50_000)]      # the time: the budget around it
    InferenceBot(limit, worlds=6, seed=1, exact_limit=60).choose(Position.new_round(seed=3).view(0))
    assert solved and all(lim == Limit(threads=2, tt_mb=8) for lim in solved)


def test_oracle_plays_an_optimal_move() -> None:
    for pos in random_positions(6, 24, deals_left=1):
        move = OracleBot()(pos)
        assert move in solve(pos).best_moves
    with pytest.raises(TypeError, match="Position"):
        OracleBot().choose(Position.new_round(seed=1).view(0))


class _Named(Bot):
    """Plays the first legal move and remembers that it was asked."""

    def __init__(self, name: str) -> None:
        self.name, self.asked = name, 0

    def choose(self, view: View) -> Move:
        self.asked += 1
        return view.legal_moves()[0]


def test_phase_bot_hands_the_last_three_deals_to_the_late_bot() -> None:
    for deals_left, late in ((5, False), (3, False), (2, True), (0, True)):
        for pos in random_positions(3, 40 + deals_left, deals_left=deals_left):
            early_bot, late_bot = _Named("early"), _Named("late")
            bot = PhaseBot(early_bot, late_bot)
            assert bot(pos) == pos.legal_moves()[0]
            assert bot.choose(pos.view(pos.to_move)) == pos.legal_moves()[0]
            assert (late_bot.asked, early_bot.asked) == ((2, 0) if late else (0, 2)), (deals_left, pos.to_string())
    assert PhaseBot(GreedyBot(), RandomBot(), late_deals=6).name == "Greedy/Random@6"
    with pytest.raises(ValueError, match="late_deals"):
        PhaseBot(GreedyBot(), RandomBot(), late_deals=7)


def test_make_bot_reads_phase_specs() -> None:
    bot = make_bot("greedy/pimc:7", seed=2)
    assert isinstance(bot, PhaseBot) and isinstance(bot.early, GreedyBot)
    assert isinstance(bot.late, PIMCBot) and bot.late.worlds == 7
    oracle_late = make_bot("random/oracle")
    pos = next(random_positions(1, 5, deals_left=0))
    assert oracle_late(pos) in solve(pos).best_moves          # the oracle still sees the position
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("greedy/chess")


def test_make_bot_reads_weights_and_the_opponent_model() -> None:
    greedy = make_bot("greedy:scopa=8, sweepable=4")
    assert greedy.weights["scopa"] == 8 and greedy.weights["sweepable"] == 4 and greedy.weights["card"] == 1
    assert greedy.name == "Greedy(scopa=8, sweepable=4)" and make_bot("greedy").name == "Greedy"
    model, infer = make_bot("model:1", worlds=9), make_bot("infer")
    assert (model.reply, model.temperature, model.worlds) == (True, 1.0, 9)
    assert (infer.reply, infer.temperature) == (False, 0.5)
    for spec, message in [("greedy:luck=3", "weight 'luck'"), ("greedy:scopa=many", "numbers"),
                          ("model:0", "positive temperature"), ("infer:hot", "positive temperature"),
                          ("oracle:2", "unknown bot")]:
        with pytest.raises(ValueError, match=message):
            make_bot(spec)


# -- every game of the family ------------------------------------------------------------------

def twin_worlds(view: View, seed: int) -> tuple[Position, Position]:
    """Two different worlds with the same view."""
    worlds = view.sample_worlds(30, seed=seed)
    a = worlds[0]
    b = next(w for w in worlds if w.hands != a.hands)
    return a, b


@pytest.mark.parametrize("name", list(GAMES))
def test_views_leak_nothing_to_the_bots(name: str) -> None:
    rules = GAMES[name]
    cheap = name in ("scopa", "3 players", "4 players", "6 players", "scopa a 15")     # worlds within the node budget from the start
    for seed, plays in ((1, 0), (2, 6), (3, 25)):
        pos = played(rules, seed, plays)
        if pos.is_round_over():
            continue
        view = pos.view(pos.to_move)
        a, b = twin_worlds(view, seed)
        assert a.view(view.player) == b.view(view.player) == view
        # PIMC early in the big games: its worlds to a horizon, the tables warm from the last call
        budget = None if cheap or plays >= 25 else 20_000
        bots = [RandomBot(seed=7), GreedyBot(), PIMCBot(Limit(threads=1, nodes=budget), worlds=4, seed=2)]
        for bot in bots:
            assert bot(a) == bot(b) == bot.choose(view), bot


def test_greedy_weighs_the_next_seat_by_side() -> None:
    bot = GreedyBot()
    lay = Move.parse("5c")
    unseen = sum(c.mask for c in card_list("6d 6c 2b 3s"))
    table = sum(c.mask for c in card_list("Ac"))
    cost = bot.move_score(lay, table, scopa=False, unseen=unseen, next_hand=2)
    gain = bot.move_score(lay, table, scopa=False, unseen=unseen, next_hand=2, next_is_partner=True)
    plain = bot.move_score(lay, table, scopa=False, unseen=unseen, next_hand=0)
    assert cost < plain < gain and gain - plain == pytest.approx(plain - cost)
    # at the table: four players, seat 0 to move, the next seat (an opponent) may hold the 6d;
    # laying 5c leaves Ac+5c = 6 for it to sweep, laying 4d leaves 5 and every 5 is seen
    hands = ("5c 4d", "6d 2b", "3c 3s", "Rb Rs")
    rest = [c for c in DECK if str(c) not in " ".join(hands) + " Ac"]
    pos = Position(hands=hands, table="Ac", captured=(rest, (), (), ()), last_capturer=0, dealer=3,
                   rules=Rules(players=4))
    scores = {str(m): score for m, score in bot.scores(pos.view(0))}
    assert scores["5c"] < scores["4d"] and str(bot(pos)) == "4d"
    assert scores["5c"] == pytest.approx(-0.02 * DECK[14].primiera - 8.0 / 3)


def test_greedy_sweeps_to_fifteen_in_scopa_a_15() -> None:
    bot = GreedyBot()
    lay = Move.parse("5c")
    table = sum(c.mask for c in card_list("3d"))            # 5c on 3d leaves 8: a 7 sweeps to 15
    sevens = sum(c.mask for c in card_list("7d 7s 2b"))
    eights = sum(c.mask for c in card_list("8d 8s 2b"))
    assert bot.move_score(lay, table, False, sevens, 3, fifteen=True) < bot.move_score(lay, table, False, sevens, 3)
    assert bot.move_score(lay, table, False, eights, 3, fifteen=True) > bot.move_score(lay, table, False, eights, 3)


def test_oracle_and_phase_bots_play_the_family() -> None:
    pos = few_worlds(Rules(players=4), 3, most=2000)
    assert OracleBot()(pos) == solve(pos).best_moves[0]
    bot = PhaseBot(GreedyBot(), RandomBot(seed=1), late_deals=1)
    start = Position.new_round(seed=1, rules=Rules(players=4))
    assert bot(start) == GreedyBot()(start)          # 2 deals left in the stock: early
    assert bot(pos) == (RandomBot(seed=1) if pos.deals_left < 1 else GreedyBot())(pos)
    last = played(Rules(players=4), 5, 26)          # the last deal: the late bot plays
    assert last.deals_left == 0 and bot(last) == RandomBot(seed=1)(last)


def test_a_whole_round_of_every_game_with_mixed_bots() -> None:
    for name, rules in GAMES.items():
        pos = Position.new_round(seed=2, rules=rules)
        bots = [GreedyBot(), RandomBot(seed=3)] * 3
        while not pos.is_round_over():
            pos = pos.play(bots[pos.to_move](pos))
        assert pos.is_round_over() and sum(map(popcount, pos.piles)) == 40


def test_the_opponent_model_is_two_player_only() -> None:
    pos = Position.new_round(seed=3, rules=Rules(players=4))
    with pytest.raises(ViewError, match="two-player Scopa only"):
        InferenceBot(worlds=4)(pos)
