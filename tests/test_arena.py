"""The arena for every game (docs/FAMILY.md, docs/play.md): duplicate deals, seatings, figures,
matches, results, bad arguments, with position-level choosers written here and the package's
bots (the bots themselves are tested in test_bots.py; play_round, play_match and
random_position for every game in test_game.py)."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from scopa_solver import (ArenaResult, GreedyBot, Limit, MultiArenaResult, OracleBot, PIMCBot, Position, RandomBot, Rules,
                          RulesError, ScopaError, arena)
from scopa_solver.play import arena as arena_module

from helpers import games

# helpers' games, Scopa a 15 with the optional capture, and scientifico with its last sweep counted
GAMES = games("scopa", "scopa a 15", "3 players", "4 players", "4 alone", "6 players", "6 alone", "scopone",
              more={"scopa a 15, optional capture": Rules(capture="fifteen", optional_capture=True),
                    "scientifico, last sweep": Rules(players=4, game="scientifico", last_sweep_counts=True)})
TWO_SIDED = [name for name, rules in GAMES.items() if rules.side_count == 2]
MANY_SIDED = [name for name, rules in GAMES.items() if rules.side_count > 2]


def random_chooser(seed: int, name: str = "Random"):
    rng = random.Random(seed)

    def choose(pos: Position):
        return rng.choice(pos.legal_moves())
    choose.__name__ = name
    return choose


def first_move(pos: Position):
    return pos.legal_moves()[0]


def capture_greedy(pos: Position):
    """Sweep if it can, else take the most cards (coins and sevens breaking ties), else lay down
    the lowest card."""
    def key(move):
        taken = sum(c.mask for c in move.captures)
        sweep = bool(move.captures) and taken == pos.table
        cards = list(move.captures) + ([move.card] if move.captures else [])
        return (sweep, len(move.captures), sum(c.suit == "d" for c in cards), sum(c.rank == 7 for c in cards),
                -move.card.rank, str(move))
    return max(pos.legal_moves(), key=key)


# --------------------------------------------------------------------------------------------
# the arena: who sat where
# --------------------------------------------------------------------------------------------

def record_plays(monkeypatch) -> list:
    """Make the arena's plays recorded: (deal, the bot of each seat)."""
    seen = []
    real = arena_module.play_round

    def recording(position, *choosers):
        seen.append((position, tuple(c.bot for c in choosers)))
        return real(position, *choosers)
    monkeypatch.setattr(arena_module, "play_round", recording)
    return seen


@pytest.mark.parametrize("name", TWO_SIDED)
def test_duplicate_arena_swaps_the_sides(monkeypatch, name: str) -> None:
    rules = GAMES[name]
    a, b = random_chooser(1, "A"), random_chooser(2, "B")
    seen = record_plays(monkeypatch)
    result = arena(a, b, rounds=3, seed=5, rules=rules, progress=False)
    assert isinstance(result, ArenaResult) and result.rules == rules and len(seen) == 6
    side_seats = [tuple(s for s in range(rules.players) if rules.sides[s] == side) for side in (0, 1)]
    for d in range(3):
        (deal1, bots1), (deal2, bots2) = seen[2 * d:2 * d + 2]
        assert deal1 == deal2 and deal1.is_round_start() and deal1.dealer == (rules.players - 1 + d) % rules.players
        # A holds one side's hands (every seat of it), then the other side's: each pair of hands once
        held = [tuple(seat for seat, bot in enumerate(bots) if bot is a) for bots in (bots1, bots2)]
        assert held == side_seats
        assert [tuple(seat for seat, bot in enumerate(bots) if bot is b) for bots in (bots1, bots2)] == side_seats[::-1]
    assert len({deal for deal, _ in seen}) == 3


@pytest.mark.parametrize("name", MANY_SIDED)
def test_arena_of_three_or_more_sides_rotates_every_seat(monkeypatch, name: str) -> None:
    rules = GAMES[name]
    k = rules.side_count
    bots = [random_chooser(j, f"R{j}") for j in range(k)]
    seen = record_plays(monkeypatch)
    result = arena(bots=bots, rounds=2, seed=3, rules=rules, progress=False)
    assert isinstance(result, MultiArenaResult) and result.bots == tuple(f"R{j}" for j in range(k))
    plays = result.seatings
    assert plays == (6 if k == 3 else 24 if k == 4 else k) and len(seen) == 2 * plays
    for d in range(2):
        part = seen[d * plays:(d + 1) * plays]
        assert len({deal for deal, _ in part}) == 1
        seatings = [tuple(bots.index(bot) for bot in seated) for _, seated in part]
        assert len(set(seatings)) == plays
        # every bot sits in every seat equally often
        for seat in range(k):
            assert Counter(s[seat] for s in seatings) == {j: plays // k for j in range(k)}
        if k <= 4:
            assert set(seatings) == set(itertools.permutations(range(k)))


# --------------------------------------------------------------------------------------------
# the arena: figures
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", TWO_SIDED)
@pytest.mark.parametrize("bot", [first_move, capture_greedy])
def test_a_deterministic_bot_against_itself_has_margin_zero(name: str, bot) -> None:
    result = arena(bot, bot, rounds=3, seed=9, rules=GAMES[name], progress=False)
    assert result.margins == [0.0] * 3 and result.a_points == result.b_points
    assert result.round_wins == pytest.approx((1 - result.round_ties) / 2)


@pytest.mark.parametrize("name", MANY_SIDED)
def test_a_deterministic_bot_in_every_seat_scores_the_same(name: str) -> None:
    rules = GAMES[name]
    result = arena(bots=[capture_greedy] * rules.side_count, rounds=2, seed=9, rules=rules, progress=False)
    assert len(set(result.mean_points)) == 1
    for row in result.points:
        assert len(set(row)) == 1
    assert sum(result.round_wins) + result.round_ties == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["4 players", "3 players", "scopone"])
def test_arena_seeds_reproduce(name: str) -> None:
    rules = GAMES[name]
    def run(seed):
        bots = [random_chooser(j) for j in range(rules.side_count)]
        r = arena(bots=bots, rounds=2, seed=seed, rules=rules, progress=False)
        return r.margins if isinstance(r, ArenaResult) else r.points
    assert run(4) == run(4) and run(4) != run(5)


def test_oracle_beats_random_in_partnership_scopa() -> None:
    result = arena(OracleBot(), random_chooser(1), rounds=24, seed=11, rules=Rules(players=4), progress=False)
    low, _ = result.ci95
    assert result.mean > 1.5 and low > 0, str(result)
    assert result.a_points > result.b_points and result.round_wins > 0.5


def test_capture_greedy_beats_random_in_scopone_and_scientifico() -> None:
    for rules in (Rules(players=4, game="scopone"), Rules(players=4, game="scientifico")):
        result = arena(capture_greedy, random_chooser(2), rounds=30, seed=12, rules=rules, progress=False)
        assert result.ci95[0] > 0, str(result)


def test_oracle_scores_most_among_three_players() -> None:
    rules = Rules(players=3)
    result = arena(bots=[OracleBot(), random_chooser(1), random_chooser(2)], rounds=4, seed=13, rules=rules,
                   progress=False)
    oracle, r1, r2 = result.mean_points
    assert oracle > r1 + 0.5 and oracle > r2 + 0.5 and result.ci95[0][0] > max(r1, r2), str(result)
    assert result.round_wins[0] > max(result.round_wins[1:])
    assert result.decisions[0] == 4 * 6 * 12


def test_matches_in_the_family() -> None:
    two = arena(capture_greedy, random_chooser(3), rounds=0, matches=3, seed=2,
                rules=Rules(players=4, target=6), progress=False)
    assert two.matches == 3 and len(two.match_scores) == 3 and 0 <= two.match_win_rate <= 1
    assert "matches won by capture_greedy" in str(two) and "nan" not in str(two)
    many = arena(bots=[capture_greedy, random_chooser(3), random_chooser(4)], rounds=1, matches=2, seed=2,
                 rules=Rules(players=3, target=4), progress=False)
    assert many.matches == 2 and sum(many.match_win_rate) == pytest.approx(1.0)
    for low, high in many.match_ci95:
        assert 0.0 <= low <= high <= 1.0
    assert "matches won (of 12)" in str(many)
    assert "no 95% CI from fewer than two deals" in str(many) and "inf" not in str(many)
    only = arena(bots=[capture_greedy, random_chooser(3), random_chooser(4)], rounds=0, matches=1, seed=2,
                 rules=Rules(players=3, target=4), progress=False)    # matches only: no per-round lines
    assert "per round" not in str(only) and "nan" not in str(only) and "matches won (of 6)" in str(only)


def test_results_round_trip_through_their_dicts() -> None:
    two = arena(capture_greedy, first_move, rounds=2, seed=1, rules=Rules(players=6), progress=False)
    again = ArenaResult.from_dict(two.to_dict())
    assert again.rules == Rules(players=6) and again.margins == two.margins and str(again) == str(two)
    assert str(two).startswith("capture_greedy vs first_move: 2 duplicate deals (4 rounds), players=6")
    many = arena(bots=[capture_greedy, first_move, first_move], rounds=2, matches=1, seed=1,
                 rules=Rules(players=3), progress=False)
    data = many.to_dict()
    back = MultiArenaResult.from_dict(data)
    assert back.to_dict() == data and str(back) == str(many)
    assert str(many).startswith("capture_greedy vs first_move vs first_move: 2 deals, each in 6 seatings")
    # the two-player result keeps its shape (and reads the dicts written before the family)
    plain = arena(capture_greedy, first_move, rounds=1, seed=1, progress=False).to_dict()
    assert plain["rules"] == []
    del plain["rules"]
    assert ArenaResult.from_dict(plain).rules == Rules()


def test_arena_bad_arguments() -> None:
    three = Rules(players=3)
    with pytest.raises(ScopaError, match="players=3 has 3 sides: give 3 bots \\(bots=\\[...\\]\\), one per side, not 2"):
        arena(first_move, first_move, rounds=1, rules=three)
    with pytest.raises(ScopaError, match="players=4 has 2 sides: give 2 bots \\(bot_a, bot_b\\), one per side, not 4"):
        arena(bots=[first_move] * 4, rounds=1, rules=Rules(players=4))
    with pytest.raises(ScopaError, match="not both"):
        arena(first_move, bots=[first_move] * 3, rounds=1, rules=three)
    with pytest.raises(ScopaError, match="needs two bots"):
        arena(first_move, rounds=1)
    with pytest.raises(RulesError, match="rules must be a Rules value"):
        arena(first_move, first_move, rounds=1, rules="players=4")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="players must be 2, 3, 4 or 6"):
        arena(first_move, first_move, rounds=1, rules=Rules(players=5))
    with pytest.raises(ScopaError, match="nothing to play"):
        arena(bots=[first_move] * 3, rounds=0, rules=three)
    with pytest.raises(TypeError, match="callables"):
        arena(bots=[first_move, first_move, "greedy"], rounds=1, rules=three)  # type: ignore[list-item]


# --------------------------------------------------------------------------------------------
# benchmarks/bench_arena.py in the family
# --------------------------------------------------------------------------------------------

def load_bench_arena():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_arena.py"
    spec = importlib.util.spec_from_file_location("test_bench_arena", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_arena_takes_the_game(capsys) -> None:
    import json
    bench = load_bench_arena()
    two = bench.run("oracle", "oracle", rounds=1, rules=["players=4"])
    json.dumps(two, allow_nan=False)
    assert two["rules"] == ["players=4"] and two["margins"] == [0.0] and two["rounds"] == 2
    three = bench.run("oracle", "oracle", rounds=1, rules=Rules(players=3))
    json.dumps(three, allow_nan=False)
    assert three["bots"] == ["Oracle A", "Oracle B", "Oracle C"] and three["seatings"] == 6
    assert len(set(three["mean_points"])) == 1 and bench.report(three).startswith("Oracle A vs Oracle B vs Oracle C")
    for argv, message in ((["oracle", "oracle", "--rules", "players=5"], "players must be 2, 3, 4 or 6"),
                          (["oracle", "oracle", "oracle", "--rules", "players=4"], "has 2 sides: at most 2 bots"),
                          (["sees-hand", "oracle", "--rules", "players=4"], "two-player Scopa only")):
        with pytest.raises(SystemExit) as info:
            bench.main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


def test_a_side_of_partners_one_bot_per_seat(monkeypatch) -> None:
    rules = Rules(players=6)                          # two teams of three: seats 0 2 4 and 1 3 5
    asked = []

    def partner(k):
        def choose(pos):
            asked.append((k, pos.to_move))
            return first_move(pos)
        choose.__name__ = "First"
        return choose
    team = (partner(0), partner(1), partner(2))
    result = arena(team, first_move, rounds=2, seed=3, rules=rules, progress=False)
    # partner k plays seat k of the side: 2k or 2k + 1, whichever side the team sits on
    assert {seat // 2 for k, seat in asked if k == 0} == {0} and {seat // 2 for k, seat in asked if k == 2} == {2}
    assert {seat % 2 for k, seat in asked} == {0, 1}
    assert result.bot_a == "First" and result.margins == [0.0, 0.0]   # the same play as one first_move
    assert arena(partner(0), partner(1), rounds=1, seed=3, rules=Rules(players=4), progress=False).bot_a == "First"
    with pytest.raises(ScopaError, match="has 3 seat\\(s\\): give one bot for all of them or 3 partners, not 2"):
        arena(team[:2], first_move, rounds=1, rules=rules)
    with pytest.raises(TypeError, match="callables"):
        arena((first_move, "x", first_move), first_move, rounds=1, rules=rules)


# --------------------------------------------------------------------------------------------
# the package's bots in the arena
# --------------------------------------------------------------------------------------------

def test_arena_duplicate_bookkeeping() -> None:
    # a deterministic bot against itself: each deal's two plays are mirror images
    same = arena(GreedyBot(), GreedyBot(), rounds=6, seed=2, progress=False)
    assert isinstance(same, ArenaResult)
    assert same.margins == [0.0] * 6 and same.mean == 0.0 and same.a_points == same.b_points
    assert same.decisions == (6 * 36, 6 * 36) and same.rounds_played == 12
    a = arena(GreedyBot(), RandomBot(seed=1), rounds=10, seed=3, progress=False)
    b = arena(GreedyBot(), RandomBot(seed=1), rounds=10, seed=3, progress=False)
    assert a.margins == b.margins and a.seed == 3
    low, high = a.ci95
    assert low < a.mean < high and a.stderr > 0
    assert a.a_points - a.b_points == pytest.approx(a.mean)
    assert 0 <= a.round_wins + a.round_ties <= 1 and a.decisions_per_second > 0
    assert "Greedy vs Random: 10 duplicate deals (20 rounds)" in str(a)


def test_arena_matches() -> None:
    result = arena(GreedyBot(), GreedyBot(), rounds=0, matches=2, seed=4, progress=False,)
    assert result.match_win_rate == 0.5 and result.matches == 2 and result.margins == []
    assert "0 duplicate deals" in str(result) and "per round" not in str(result) and "nan" not in str(result)
    result = arena(GreedyBot(), RandomBot(seed=2), rounds=1, matches=3, seed=5, progress=False)
    assert 0.0 <= result.match_win_rate <= 1.0
    low, high = result.match_ci95
    assert 0.0 <= low <= result.match_win_rate <= high <= 1.0
    assert "matches won by Greedy" in str(result)
    # one deal has no spread: the report says so rather than printing an infinite interval
    assert "margin of Greedy per round" in str(result) and "no 95% CI from fewer than two deals" in str(result)
    assert "inf" not in str(result)
    two = arena(GreedyBot(), RandomBot(seed=2), rounds=2, seed=5, progress=False)
    assert "95% CI" in str(two) and "fewer than two deals" not in str(two)


def test_arena_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        arena(GreedyBot(), GreedyBot(), rounds=-1)
    with pytest.raises(ValueError, match="nothing to play"):
        arena(GreedyBot(), GreedyBot(), rounds=0)
    with pytest.raises(TypeError):
        arena(GreedyBot(), "greedy", rounds=1)  # type: ignore[arg-type]


def test_the_packages_bots_in_the_family_arena() -> None:
    two = arena(GreedyBot(), RandomBot(seed=1), rounds=20, seed=1, rules=Rules(players=4), progress=False)
    assert two.ci95[0] > 0, str(two)
    many = arena(bots=[GreedyBot(), RandomBot(seed=1), RandomBot(seed=2)], rounds=6, seed=1, rules=Rules(players=3),
                 progress=False)
    assert many.mean_points[0] > max(many.mean_points[1:]), str(many)
    pimc = arena(PIMCBot(Limit(threads=1), worlds=3), GreedyBot(), rounds=1, seed=1, rules=Rules(players=4), progress=False)
    assert pimc.decisions == (36, 36) and pimc.rules == Rules(players=4)


def test_the_lead_of_one_bot_over_another_is_paired_by_deal() -> None:
    many = arena(bots=[capture_greedy, first_move, first_move], rounds=4, seed=2,
                 rules=Rules(players=3), progress=False)
    lead, (low, high) = many.lead(0, 1)
    diffs = [row[0] - row[1] for row in many.points]
    assert lead == pytest.approx(sum(diffs) / len(diffs)) and low <= lead <= high
    assert lead == pytest.approx(many.mean_points[0] - many.mean_points[1])
    assert many.lead(1, 2)[0] == pytest.approx(0.0)   # the same deterministic bot in every seat
    assert "paired by deal" in str(many)
    with pytest.raises(ScopaError, match="bot numbers"):
        many.lead(0, 3)


def test_bench_arena_match_objective_and_its_stand_in_equity() -> None:
    import json
    bench = load_bench_arena()
    coin = bench.RoundEquity({(1, 0): 1, (0, 1): 1}, target=2)       # a point to either side
    assert coin.chance((1, 0), 0) == coin.chance((1, 0), 1) == 0.75 and coin.chance((1, 1), 0) == 0.5
    assert coin.after_round((1, 0), (0, 1), dealer=1, side=1) == 0.5 and coin.chance((2, 0), 0, side=1) == 0.0
    dealer_wins = bench.RoundEquity({(1, 0): 3, (0, 1): 1}, target=1)    # level over the target: replay
    assert dealer_wins.chance((1, 1), 0) > 0.5 > dealer_wins.chance((1, 1), 1)
    figures = bench.match_objective("oracle", matches=1, equity_rounds=4)
    json.dumps(figures, allow_nan=False)
    assert figures["pairs"] == 1 and figures["matches"] == 2 and figures["bot_a"] == "Oracle(match)"
    assert 0.0 <= figures["match_win_rate"] <= 1.0 and figures["equity"].startswith(("RoundEquity", "MatchEquity"))
    total = figures["differ_total"]
    assert 0 <= total["differ"] <= total["decisions"] <= figures["decisions"][0]
    assert "matches won by the match objective" in bench.match_report(figures)
