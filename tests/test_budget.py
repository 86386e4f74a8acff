"""A decision's time budget (`kernel.time_budget`): it reaches every search a bot runs, and a bot
whose budget is spent still answers with a legal move (its fallback). No wall-clock figure is
asserted: the searches report the stop themselves (stop reasons, solved worlds, visits).
Decision-time figures are benchmarks/bench_decision.py's (docs/play.md, "Time budgets")."""
from __future__ import annotations

import time

import pytest

from helpers import run_cli

from scopa_solver import Position, Rules, kernel, suggest, Limit
from scopa_solver.core.cards import popcount
from scopa_solver.imperfect.pimc import SUGGEST_SECONDS, WORLD_NODES, solve_worlds
from scopa_solver.play.bot_names import make_bot
from scopa_solver.play.bots import (DECISION_SECONDS, FAMILY_WORLD_NODES, FAMILY_WORLDS, TURN_SECONDS, GreedyBot,
                                    OracleBot, PIMCBot, decision_seconds, is_exact)

# the two last-but-one-deal decisions of issue 29 that took 22-29 s of CPU with epimc:q=12
HARD = ("Ad6dRd/2cRcRs 7cAs5s6sRb 4d5d4c5cFc2sFs2b/3d7dFdAc3cCc3s4s7sCs3b5b7bFbCb 6c4b6bCd2dAb 0/0 1 0 0",
        "2d4c5b/FcCs4b 6cRc2s3sFs7b Ad3d4d5d7d2c5c4sRs3bRb/CdAc7cCc5s6s7sAb2b6bCb FbFdAs6dRd3c 1/0 1 0 1")


def _deal(deal: int, seed: int = 5) -> Position:
    """A position at the first play of `deal` (1: the round's start), reached by Greedy."""
    pos = Position.new_round(seed=seed)
    while len(pos.stock) > 30 - 6 * (deal - 1) or popcount(pos.hands[0] | pos.hands[1]) < 6:
        pos = pos.play(GreedyBot()(pos))
    return pos


@pytest.mark.parametrize("threads", [1, 2])
def test_a_budget_cuts_every_kernel_search_started_inside(threads):
    states = list(_deal(1).view(0).sample_states(400, seed=2))     # 400 exact solves: seconds at least
    with kernel.time_budget(0.05):
        with kernel.time_budget(1e6):                       # nested: the earlier end counts
            raws = kernel.run_batch(states, limit=Limit(threads=threads), want=kernel.WANT_ALL)
        assert kernel.budget_left() is not None
    assert kernel.budget_left() is None
    assert len([raw for raw in raws if raw is not None and raw.stop == 0]) < len(states)


def test_a_search_that_needs_every_world_is_told_the_budget_is_spent():
    view = _deal(1).view(0)
    states = list(view.sample_states(40, seed=1))
    with kernel.time_budget(0.01):
        with pytest.raises(kernel.BudgetSpent):
            solve_worlds(states, Limit(threads=1))
        with pytest.raises(kernel.BudgetSpent):
            kernel.check_time()
        partial = solve_worlds(states, Limit(threads=1, time=60))      # a limit of its own: partial results
    assert any(raw is None for raw in partial)


def test_suggest_stops_at_the_budget_it_runs_in():
    view = _deal(1).view(0)
    with kernel.time_budget(0.3):
        s = suggest(view, Limit(threads=1, time=None), worlds=20_000, seed=1, progress=False)
    assert s.stopped == "time" and 0 < s.worlds < 20_000


@pytest.mark.parametrize("spec", ["pimc", "model", "infer", "epimc", "epimc:q=12"])
@pytest.mark.parametrize("text", [None, HARD[0]])
def test_every_bot_answers_legally_when_its_budget_is_spent(spec, text):
    pos = Position.from_string(text) if text else Position.new_round(seed=3)
    bot = make_bot(spec, Limit(time=1e-4, threads=1), worlds=200, seed=1)
    assert bot.limit.time == 1e-4
    move = bot(pos)
    assert move in pos.legal_moves()
    if spec == "epimc:q=12" and text:
        assert bot.endgame.calls == 0       # the budget reached the equilibrium: it gave up, EPIMC decided


def test_the_endgame_equilibrium_gives_way_to_epimc_in_its_share_of_the_budget():
    pos = Position.from_string(HARD[1])      # its game takes over 10 s to build
    bot = make_bot("epimc:q=12", Limit(time=0.2, threads=1), seed=1)
    assert bot(pos) in pos.legal_moves() and bot.endgame.calls == 0


def test_an_oracle_with_a_budget_falls_back_in_scientifico():
    pos = Position.new_round(seed=1, rules=Rules(players=4, game="scientifico"))
    bot = OracleBot(Limit(time=0.05))
    assert bot(pos) in pos.legal_moves() and not is_exact(bot) and bot.name == "Oracle(0.05 s)"
    assert is_exact(OracleBot()) and is_exact(make_bot("greedy/oracle"))


def test_the_defaults(monkeypatch):
    assert PIMCBot().limit.time == DECISION_SECONDS == 2.0
    for spec in ("pimc", "model", "epimc", "epimc:q=12", "greedy/pimc"):
        bot = make_bot(spec)
        assert (bot.late if hasattr(bot, "late") else bot).limit == Limit(time=DECISION_SECONDS, threads=1), spec
    assert make_bot("pimc", Limit()).limit.time is None       # a Limit given is taken as it is
    assert make_bot("oracle").limit.time is None             # exact: the reference has no budget
    ends = []           # suggest with no limit ends SUGGEST_SECONDS from its start
    real = kernel.budget_deadline
    monkeypatch.setattr(kernel, "budget_deadline", lambda end=None: ends.append(end) or real(end))
    start = time.monotonic()
    suggest(_deal(6).view(0), progress=False)
    assert start + SUGGEST_SECONDS <= ends[0] <= time.monotonic() + SUGGEST_SECONDS


def test_the_cli_suggest_has_the_default_time_limit(capsys, monkeypatch):
    import scopa_solver.imperfect.pimc as pimc
    seen = []
    real = pimc.suggest
    monkeypatch.setattr(pimc, "suggest", lambda *a, **kw: seen.append(a[1].time) or real(*a, **kw))
    deal = "6dRsFb/?3 FdRc RdAc2c4c5c3s5sCs4bCbRb/Ad2d4d5d7dCd6c7cCc2s4s6s7s5b6b ?6 1/0 0 1 1"
    assert run_cli(capsys, "suggest", deal, "--threads", "1")[0] == 0
    assert run_cli(capsys, "suggest", deal, "--threads", "1", "--time-limit", "inf")[0] == 0
    assert seen == [SUGGEST_SECONDS, None]            # inf: no time limit


@pytest.mark.parametrize("command", [["play", "--bot", "oracle", "--auto", "--no-save"],
                                     ["play", "--bot", "greedy/oracle", "pimc", "oracle", "--no-save"],
                                     ["arena", "oracle", "pimc"]])
@pytest.mark.parametrize("game", ["scopone", "scientifico"])
def test_an_exact_bot_in_scopone_or_scientifico_is_refused_without_allow_slow(capsys, command, game):
    code, out, err = run_cli(capsys, *command, "--rules", "players=4", f"game={game}")
    assert code == 2 and "--allow-slow" in err and "hours" in err and not out


# -- the family games' budgets: a player's wait between two turns (docs/play.md, "Time budgets")

def test_a_decision_budget_is_the_games_share_of_a_players_wait():
    assert [decision_seconds(None), decision_seconds(Rules(players=3))] == [DECISION_SECONDS] * 2
    assert decision_seconds(Rules(players=4, game="scopone")) == TURN_SECONDS / 3   # three bots in 4 s
    assert decision_seconds(Rules(players=6)) == TURN_SECONDS / 5
    assert make_bot("pimc", rules=Rules(players=4, game="scientifico")).limit.time == TURN_SECONDS / 3
    assert make_bot("greedy/pimc", rules=Rules(players=6)).late.limit.time == TURN_SECONDS / 5
    assert make_bot("pimc", Limit(), rules=Rules(players=4)).limit.time is None


def test_pimc_takes_the_games_worlds_and_node_budget():
    family, two = Rules(players=4, game="scientifico"), Rules()
    assert PIMCBot().budget(two) == (100, WORLD_NODES)
    assert PIMCBot().budget(family) == (FAMILY_WORLDS, FAMILY_WORLD_NODES) == (30, 200_000)
    assert PIMCBot(Limit(nodes=9_000), worlds=7).budget(family) == (7, 9_000)      # what is asked is kept
    assert make_bot("pimc", rules=family).budget(family) == (FAMILY_WORLDS, FAMILY_WORLD_NODES)
    assert make_bot("pimc:80", rules=family).budget(family)[0] == 80
    assert make_bot("pimc").budget(two) == (50, WORLD_NODES)                     # two players: as before


def test_a_family_decision_is_bounded_by_nodes_and_reproducible():
    # six cards a hand into a scientifico deal: a million nodes a world reach a 12-ply horizon
    # (8 times the time of 8 plies); the game's 200,000 stop at 8, and with no time budget the
    # decision is the same on every run (the probe's horizon is a node count)
    pos = Position.new_round(seed=7, rules=Rules(players=4, game="scientifico"))
    for _ in range(16):
        pos = pos.play(GreedyBot()(pos))
    reports = []
    for _ in range(2):
        bot = PIMCBot(Limit(threads=2, time=None), seed=1)
        reports.append((str(bot(pos)), {k: v for k, v in bot.last.items() if k != "nodes"}))  # threads share work
    (move, last), again = reports
    assert again == (move, last)
    assert last["worlds"] == last["solved"] == FAMILY_WORLDS and last["max_nodes"] == FAMILY_WORLD_NODES
    assert last["stopped"] is None and last["horizon"] == 8
    before = PIMCBot(Limit(threads=1, time=None, nodes=WORLD_NODES), worlds=1, seed=1)
    before(pos)
    assert before.last["horizon"] == 12 and before.last["solved"] == 1


@pytest.mark.parametrize("rules, worlds, limit", [([], 100, DECISION_SECONDS),
                                                  (["--rules", "players=4", "game=scopone"], None, TURN_SECONDS / 3)])
def test_the_cli_bots_take_the_games_budgets(capsys, monkeypatch, rules, worlds, limit):
    import scopa_solver.play.bot_names as names
    seen = []
    monkeypatch.setattr(names, "make_bot", lambda spec, lim, **kw: seen.append((kw, lim)) or GreedyBot())
    assert run_cli(capsys, "arena", "pimc", "greedy", "--rounds", "1", "--seed", "1", *rules)[0] == 0
    assert [(kw["worlds"], lim.time) for kw, lim in seen] == [(worlds, limit)] * 2
