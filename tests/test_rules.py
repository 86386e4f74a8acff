"""The Scopa family in the Python core and the solver (docs/FAMILY.md): rules, notation, positions,
dealing, scoring per side and search. The independent cross-checks against the slow reference
are in test_family_reference.py / test_family_kernel.py; this file checks the Python layer."""
import random

import pytest

from scopa_solver import Position, Rules
from scopa_solver.core import flow
from scopa_solver.core.cards import DECK, KINGS_MASK, Card, cards_text, popcount
from scopa_solver.core.position import Move
from scopa_solver.errors import NotationError, PositionError, RulesError, ViewError
from scopa_solver.core.view import View
from scopa_solver.search.solver import analyze, analyze_many, solve, solve_many, solve_values

from helpers import games

GAMES = games("scopa a 15", "3 players", "4 players", "4 alone", "6 players", "6 alone", "scopone", "scientifico",
              more={"scopa a 15, optional capture": Rules(capture="fifteen", optional_capture=True),
                    "scopa, last sweep": Rules(last_sweep_counts=True),
                    "3 players, a 15": Rules(players=3, capture="fifteen"),
                    "scientifico last sweep napola": Rules(players=4, game="scientifico", last_sweep_counts=True,
                                                           napola=True)})


NO_KINGS = [c for c in DECK if c.rank != 10]


def moves_of(pos, card):
    return {m for m in pos.legal_moves() if m.card == Card.parse(card)}


def random_round(rules, seed):
    """Every position of one round played at random from `new_round(seed)`, with the events."""
    rng = random.Random(seed)
    pos = Position.new_round(seed=seed, rules=rules, dealer=rng.randrange(rules.players))
    out = [(pos, None)]
    while not pos.is_round_over():
        pos, events = pos.play_events(rng.choice(pos.legal_moves()))
        out.append((pos, events))
    return out


def finished(piles, scopas, last, rules, dealer=0):
    n = rules.players
    return Position(hands=("",) * n, captured=piles, scopas=scopas, dealer=dealer, last_capturer=last, rules=rules)


# -- the worked examples of FAMILY.md ----------------------------------------------------------

def test_example_1_scopa_a_15_takes_sets_making_15():
    pos = Position(hands=("7d Rb", "2c 4s"), table="5c 3s 8b Ad", dealer=1, rules=Rules(capture="fifteen"))
    assert moves_of(pos, "7d") == {Move.parse("7dxFb"), Move.parse("7dx5c+3s")}
    assert moves_of(pos, "Rb") == {Move.parse("Rbx5c")}
    assert {str(m) for m in pos.legal_moves()} == {"7dxFb", "7dx5c+3s", "Rbx5c"}   # compulsory capture


def test_example_2_scopa_a_15_has_no_single_priority():
    pos = Position(hands=("7c", "2b"), table="8c 5s 3b", dealer=1, rules=Rules(capture="fifteen"))
    assert moves_of(pos, "7c") == {Move.parse("7cxFc"), Move.parse("7cx5s+3b")}
    # the same table in standard Scopa: 7c takes nothing (no 7, no two cards making 7)
    assert [str(m) for m in Position(hands=("7c", "2b"), table="8c 5s 3b", dealer=1).legal_moves()] == ["7c"]


def test_example_2b_optional_capture_adds_the_lay_down():
    pos = Position(hands=("7c", "2b"), table="8c 5s 3b", dealer=1,
                   rules=Rules(capture="fifteen", optional_capture=True))
    assert moves_of(pos, "7c") == {Move.parse("7cxFc"), Move.parse("7cx5s+3b"), Move.parse("7c")}


def test_example_3_partnerships_pool_their_piles():
    rules = Rules(players=4)
    piles = (DECK[0:14], DECK[14:24], DECK[24:32], DECK[32:40])        # 14, 10, 8, 8 cards
    score = finished(piles, (0, 0, 0, 0), 0, rules).round_score()
    assert score.seat_sides == (0, 1, 0, 1)
    assert [s.cards for s in score.sides] == [22, 18]
    assert score.carte == 0
    assert len(score.total) == 2


def test_example_4_three_players_ties_give_nobody_the_point():
    rules = Rules(players=3)
    coins, others = DECK[:10], DECK[10:]
    piles = (coins[0:4] + others[0:10], coins[4:7] + others[10:21], coins[7:10] + others[21:30])
    score = finished(piles, (0, 0, 0), 0, rules).round_score()
    assert [s.cards for s in score.sides] == [14, 14, 12]
    assert [s.coins for s in score.sides] == [4, 3, 3]
    assert score.carte is None
    assert score.denari == 0
    assert score.settebello == 1 and score.sides[1].settebello


def test_example_5_scientifico_leader_can_only_lay_down():
    for seed in range(5):
        pos = Position.new_round(seed=seed, rules=Rules(players=4, game="scientifico"))
        assert pos.table == 0 and pos.hand_sizes() == (10, 10, 10, 10) and not pos.stock
        moves = pos.legal_moves()
        assert len(moves) == 10 and not any(m.is_capture for m in moves)
        assert pos.to_move == (pos.dealer + 1) % 4


def test_example_6_scopone_three_kings_are_dealt_again():
    rules = Rules(players=4, game="scopone")
    table = flow.deal_slices(3, rules)[-2]
    assert table == slice(36, 40)
    kings = [c for c in DECK if c.rank == 10]
    deck = [c for c in DECK if c not in kings[:3]]
    deck = deck[:36] + kings[:3] + deck[36:]
    assert flow.redeal_needed(deck[table], rules)
    assert not flow.redeal_needed(deck[table], Rules(players=4, game="scopone", redeal_three_kings=False))
    # a seed whose first shuffle puts 3 kings on the table is shuffled again
    for seed in range(20000):
        first = list(DECK)
        random.Random(seed).shuffle(first)
        if flow.redeal_needed(first[table], rules):
            break
    else:  # pragma: no cover
        pytest.fail("no seed with three kings on the table")
    dealt = flow.shuffled_deck(seed, rules)
    assert dealt != first and not flow.redeal_needed(dealt[table], rules)
    assert flow.shuffled_deck(seed, Rules(players=4, game="scopone", redeal_three_kings=False)) == first
    start = Position.new_round(seed, rules)
    assert start.is_round_start() and popcount(start.table & KINGS_MASK) < 3


def _paranoid_end(dealer, rules=Rules(players=3)):
    """A last play (Rb on an empty table) after which the points are 5 / 3 / 4: seat 0 has
    every category and 1 scopa, seat 1 three scopas, seat 2 four."""
    last = dealer          # the dealer plays the round's last card
    hands = ["", "", ""]
    hands[last] = "Rb"
    rest = [c for c in DECK if str(c) not in ("Rb", "Fs", "Cs", "Fc", "Cc")]
    return Position(hands=tuple(hands), captured=(rest, "Fs Cs", "Fc Cc"), scopas=(1, 3, 4), dealer=dealer,
                    last_capturer=0, rules=rules)


def test_example_7_paranoid_value():
    for dealer in (2, 0):
        pos = _paranoid_end(dealer)
        assert pos.to_move == dealer
        result = solve(pos)
        assert result.points == (5, 3, 4)
        assert result.outcome.total == (5, 3, 4)
        expected = {2: 4 - 5, 0: 5 - 4}[dealer]
        assert result.value == expected
        assert result.outcome.margin(dealer) == expected
        assert solve(pos, objective="maxn").value == (4 if dealer == 2 else 5)


# -- rules ---------------------------------------------------------------------------------------

def test_rules_derived_figures():
    assert [Rules(players=n).deals for n in (2, 3, 4, 6)] == [6, 4, 3, 2]
    for rules in GAMES.values():
        n = rules.players
        assert rules.table_start + rules.deals * rules.hand_size * n == 40
        assert len(rules.sides) == n and rules.sides[0] == 0
        assert not rules.is_standard
    assert Rules(players=6).sides == (0, 1, 0, 1, 0, 1)
    assert Rules(players=4, game="scientifico").hand_size == 10 and Rules(players=4, game="scientifico").table_start == 0
    assert Rules(players=4, game="scopone").hand_size == 9
    assert Rules().is_standard and Rules(napola=True).is_standard
    assert not Rules(capture="fifteen").is_standard and not Rules(last_sweep_counts=True).is_standard


@pytest.mark.parametrize("kwargs, words", [
    (dict(players=5), "players must be 2, 3, 4 or 6"),
    (dict(players=4.0), "players must be"),
    (dict(players=True), "players must be"),
    (dict(game="scopone"), "played by 4 players"),
    (dict(players=3, game="scientifico"), "played by 4 players"),
    (dict(game="briscola", players=4), "game must be"),
    (dict(partnerships=False), "partnerships=0 applies to 4 or 6"),
    (dict(players=3, partnerships=False), "partnerships=0 applies to 4 or 6"),
    (dict(capture="sixteen"), "capture must be"),
    (dict(optional_capture=True), "only to Scopa a 15"),
    (dict(capture="fifteen", asso_piglia_tutto=True), "asso_piglia_tutto cannot be combined"),
    (dict(last_sweep_counts=1), "must be True or False"),
])
def test_incompatible_options_are_one_clear_error(kwargs, words):
    with pytest.raises(RulesError, match=words) as info:
        Rules(**kwargs)
    assert len(str(info.value)) < 300


def test_rule_tokens_and_flags():
    r = Rules(players=4, game="scientifico", partnerships=False, last_sweep_counts=True, napola=True)
    assert r.tokens() == ["players=4", "game=scientifico", "partnerships=0", "last_sweep_counts", "napola"]
    assert Rules.from_tokens(r.tokens()) == r
    f = Rules(capture="fifteen", optional_capture=True, last_sweep_counts=True)
    from scopa_solver import kernel
    assert f.flags == kernel.RULE_BITS["fifteen"] | kernel.RULE_BITS["optional_capture"] | \
        kernel.RULE_BITS["last_sweep_counts"]
    assert Rules(players=3).flags == 0
    with pytest.raises(RulesError):
        Rules.from_tokens(["players=x"])


# -- notation, dealing and whole rounds ----------------------------------------------------------

@pytest.mark.parametrize("name", list(GAMES))
def test_whole_rounds_round_trip_and_conserve_the_deck(name):
    rules = GAMES[name]
    for seed in range(6):
        history = random_round(rules, seed)
        assert history[0][0].is_round_start()
        assert len(history) - 1 == 40 - rules.table_start          # one card a move
        for pos, _ in history:
            text = pos.to_string()
            assert Position.from_string(text) == pos
            assert Position.from_dict(pos.to_dict()) == pos
            assert text.split()[0].count("/") == rules.players - 1
            assert popcount(pos.cards_in_play()) + sum(map(popcount, pos.piles)) == 40
            assert pos.deals_left == len(pos.stock) // (3 * rules.players)
        end = history[-1][0]
        assert end.is_round_over() and not end.legal_moves()
        score = end.round_score()
        assert len(score.total) == rules.side_count
        assert sum(s.cards for s in score.sides) == 40 - (popcount(end.table))
        assert sum(s.scopas for s in score.sides) == sum(end.scopas)


@pytest.mark.parametrize("name", ["3 players", "4 players", "6 players", "scopa a 15"])
def test_stock_goes_to_the_leader_first_and_the_dealer_last(name):
    rules = GAMES[name]
    n = rules.players
    for seed in range(4):
        history = random_round(rules, seed)
        for (before, _), (after, events) in zip(history, history[1:]):
            if events.dealt:
                leader = (before.dealer + 1) % n
                for k in range(n):
                    part = before.stock[3 * k:3 * k + 3]
                    assert after.hands[(leader + k) % n] == sum(c.mask for c in part)
                assert after.to_move == leader
                assert after.stock == before.stock[3 * n:]


def test_deck_order_of_every_game():
    deck = list(DECK)
    pos = Position.from_deck(deck, dealer=2, rules=Rules(players=3))       # seat 0 leads
    assert [cards_text(h, "") for h in pos.hands] == [cards_text(sum(c.mask for c in deck[i:i + 3]), "")
                                                       for i in (0, 3, 6)]
    assert pos.table == sum(c.mask for c in deck[9:13]) and pos.stock == tuple(deck[13:])
    pos = Position.from_deck(deck, dealer=0, rules=Rules(players=4, game="scopone"))   # seat 1 leads
    assert pos.hands[1] == sum(c.mask for c in deck[0:9]) and pos.hands[0] == sum(c.mask for c in deck[27:36])
    assert pos.table == sum(c.mask for c in deck[36:40]) and not pos.stock and pos.to_move == 1
    pos = Position.from_deck(deck, dealer=3, rules=Rules(players=4, game="scientifico"))
    assert pos.hands[0] == sum(c.mask for c in deck[0:10]) and pos.table == 0
    # two players: 3 to the non-dealer, 3 to the dealer, 4 to the table, the stock (unchanged)
    assert flow.deal_slices(1) == (slice(0, 3), slice(3, 6), slice(6, 10), slice(10, 40))
    assert flow.deal_slices(0) == (slice(3, 6), slice(0, 3), slice(6, 10), slice(10, 40))
    assert Position.new_round(seed=11).view(1).to_string() == "?3/7c2s3s 7dAc5s7s -/- ?30 0/0 0 1 -"


def test_family_notation_line():
    pos = Position(hands=("5c 5b", "Rb 4d", "6s Ac"), table="3c 5d Rs 2b", dealer=2, rules=Rules(players=3))
    assert pos.to_string() == "5c5b/4dRb/Ac6s 5d3cRs2b -/-/- - 0/0/0 0 2 - players=3"
    after = pos.play("5cx5d")
    assert after.to_string() == "5b/4dRb/Ac6s 3cRs2b 5d5c/-/- - 0/0/0 1 2 0 players=3"
    assert str(Position.new_round(seed=1, rules=Rules(players=4, game="scopone"))).endswith(
        " 0/0/0/0 0 3 - players=4 game=scopone")


def test_two_player_notation_and_data_unchanged():
    line = "Fd5b/4d6sRb 3cRs2b 5d5c/- - 0/0 1 1 0"
    pos = Position.from_string(line)
    assert pos.to_string() == line and pos.rules == Rules() and Rules().tokens() == []
    assert Position.from_string(line + " napola target=21").rules.tokens() == ["napola", "target=21"]
    score = Position.from_string("-/- - 7d6cAdRs/3b - 1/0 0 1 0").round_score()
    assert "seat_sides" not in score.to_dict() and score.to_dict()["total"] == [4, 0]
    result = solve(Position(hands=("7d 2c", "3b 4c"), table="3s 4s", dealer=1))
    assert result.objective == "value" and result.points == (5, 0)     # one result shape for every game
    assert result.to_dict()["points"] == [5, 0] and result.to_dict()["objective"] == "value"


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("line, words", [
    ("5c5b/4dRb 3c5dRs2b -/-/- - 0/0/0 0 2 - players=3", "hands must be three parts"),
    ("5c5b/4dRb/Ac6s 3c5dRs2b -/- - 0/0/0 0 2 - players=3", "capture piles must be three parts"),
    ("5c5b/4dRb/Ac6s 3c5dRs2b -/-/- - 0/0 0 2 - players=3", "scopas must be three parts"),
    ("5c5b/4dRb/Ac6s 3c5dRs2b -/-/- - 0/0/x 0 2 - players=3", "scopas must be three numbers like 0/0/0"),
    ("5c5b/4dRb/Ac6s 3c5dRs2b -/-/- - 0/0/0 0 3 - players=3", "dealer must be one of 0, 1, 2"),
    ("5c5b/4dRb/Ac6s 3c5dRs2b -/-/- - 0/0/0 3 2 - players=3", "seat to move"),
    ("5c5b/4dRb/Ac6s/- 3c5dRs2b -/-/- - 0/0/0 0 2 - players=3", "hands must be three parts"),
    ("-/-/- - -/-/- - 0/0/0 0 2 - players=5", "players must be"),
    ("-/- - -/- - 0/0 0 1 - game=scopone", "played by 4 players"),
    ("5c5b/4dRb/Ac6s 3c5dRs2b -/-/- - 0/0/0 0 2 - players=3 partnerships=0", "partnerships=0"),
    ("-/- 5c5b -/- - 0/0 0 1 - optional_capture", "only to Scopa a 15"),
])
def test_bad_family_lines_name_the_field(line, words):
    with pytest.raises(NotationError, match=words) as info:
        Position.from_string(line)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("kwargs, words", [
    (dict(hands=("5c5b4d6d", "Rb4c5s", "6sAc7b"), rules=Rules(players=3)), "at most 3"),
    (dict(hands=(DECK[0:10],) + ((),) * 3, rules=Rules(players=4, game="scopone")), "at most 9"),
    (dict(hands=("5c", "5b4d", "6s"), dealer=2, rules=Rules(players=3)), "cannot occur with seat 2 dealing"),
    (dict(hands=("5c", "5b", "6s7c8c"), dealer=2, rules=Rules(players=3)), "cannot occur"),
    (dict(hands=("5c", "5b", "6s"), stock=DECK[20:25], dealer=2, rules=Rules(players=3)), "deals of 3"),
    (dict(hands=("Rb", "Rs", "Rc"), stock=NO_KINGS[:36], dealer=2, rules=Rules(players=3)), "at most 27"),
    (dict(hands=("Rb", "Rs", "Rc", "Rd"), stock=NO_KINGS[:12], rules=Rules(players=4, game="scopone")), "at most 0"),
    (dict(hands=("5c", "5b", "6s"), dealer=2, to_move=1, rules=Rules(players=3)), "seat 0's turn"),
    (dict(hands=("", "", ""), stock=DECK[0:9], rules=Rules(players=3)), "every hand is empty"),
    (dict(hands=("5c", "5b", "6s"), scopas=(0, 1, 0), dealer=2, rules=Rules(players=3)), "seat 1 has 1 scopa"),
    (dict(hands=("5c", "5b", "6s"), captured=("", "", "7d"), dealer=2, rules=Rules(players=3)), "last_capturer"),
    (dict(hands=("5c", "5b", "6s"), captured=("", "", "7d"), last_capturer=0, dealer=2, rules=Rules(players=3)),
     "captured nothing"),
    (dict(hands=("5c", "5b"), rules=Rules(players=3)), "one per seat, 3 in all"),
    (dict(hands=("5c", "5b", "6s"), dealer=3, rules=Rules(players=3)), "dealer must be 0, 1 or 2"),
])
def test_impossible_family_positions(kwargs, words):
    with pytest.raises(PositionError, match=words) as info:
        Position(**kwargs)
    assert len(str(info.value)) < 300


def test_hand_sizes_follow_the_turn_from_the_leader():
    r = Rules(players=3)
    assert Position(hands=("5c", "5b 4d", "6s 7s"), dealer=2, rules=r).to_move == 1
    assert Position(hands=("5c", "5b", "6s 7s"), dealer=2, rules=r).to_move == 2
    assert Position(hands=("5c 2c", "5b", "6s 7s"), dealer=0, rules=r).to_move == 2   # leader 1
    assert Position(hands=("5c", "5b", "6s"), dealer=1, rules=r).to_move == 2


def test_views_of_family_positions_work():
    # issue 15: the family has views (tests/test_family_views.py tests them in depth)
    pos = Position.new_round(seed=3, rules=Rules(players=3))
    assert pos.view(2).to_string().startswith("?3/?3/")
    view = View.from_string("?3/?3/7c2s3s 7dAc5s7s -/-/- ?27 0/0/0 0 2 - players=3")
    assert view.player == 2 and view.hidden_hands == (3, 3, 0)
    with pytest.raises(ViewError, match=r"39 cards are hidden .* no deal of the game \(Scopa a 15\)"):
        View(0, hand="7c", rules=Rules(capture="fifteen"))


def test_match_winner_for_several_sides():
    assert flow.match_winner((12, 9, 11), 11) == 0
    assert flow.match_winner((12, 12, 11), 11) is None       # a shared highest total plays on
    assert flow.match_winner((10, 10, 10), 11) is None
    assert flow.match_winner((3, 16, 15, 2), 16) == 1


# -- search ----------------------------------------------------------------------------------------

def late_positions(rules, count, cards_left=7):
    out = []
    for seed in range(count):
        for pos, _ in random_round(rules, seed):
            if sum(pos.hand_sizes()) + len(pos.stock) <= cards_left:
                out.append(pos)
                break
    return out


@pytest.mark.parametrize("name", list(GAMES))
def test_search_every_game(name):
    rules = GAMES[name]
    positions = late_positions(rules, 3)
    results = solve_many(positions)
    for pos, result in zip(positions, results):
        assert result.complete and result.objective == "value"
        single = solve(pos)
        assert single.value == result.value
        values = analyze(pos)
        assert max(mv.value for mv in values) == result.value
        assert {str(m) for m in result.best_moves} == {str(mv.move) for mv in values if mv.value == result.value}
        end = pos
        for move in result.pv:
            end = end.play(move)
        assert end.is_round_over()
        assert end.round_score().total == result.outcome.total == result.points
        side = rules.sides[pos.to_move]
        assert result.outcome.margin(side) == result.value          # margin, or paranoid
        maxn = solve(pos, objective="maxn")
        assert maxn.objective == "maxn" and maxn.value == maxn.points[side]
        assert maxn.to_dict()["objective"] == "maxn"
    assert solve_values(positions) == [r.value for r in results]
    assert [[mv.value for mv in a] for a in analyze_many(positions)] == \
        [[mv.value for mv in analyze(p)] for p in positions]


def test_batches_mix_two_player_and_family_positions():
    two = late_positions(Rules(), 2)
    three = late_positions(Rules(players=3), 2)
    mixed = [two[0], three[0], two[1], three[1]]
    assert [r.value for r in solve_many(mixed)] == [solve(p).value for p in mixed]
    assert solve_values(mixed, objective="maxn") == [solve(p, objective="maxn").value for p in mixed]


def test_objective_is_checked():
    pos = late_positions(Rules(players=3), 1)[0]
    with pytest.raises(RulesError, match="objective must be"):
        solve(pos, objective="best")
    with pytest.raises(RulesError, match="objective must be"):
        solve_many([], objective=None)


def test_maxn_limits_stop_the_search():
    pos = Position.new_round(seed=4, rules=Rules(players=3))
    result = solve(pos, objective="maxn", max_nodes=500)
    assert not result.complete and result.stopped == "nodes"
    assert not result.exact and result.horizon is not None and result.value is not None


def test_optional_capture_lay_down_text_reads_back():
    # with optional_capture the lay-down of a card that could take is written as the bare card;
    # that text must read back as the lay-down (not be refused as ambiguous)
    pos = Position(hands=("7c", "2b"), table="8c 5s 3b", dealer=1,
                   rules=Rules(capture="fifteen", optional_capture=True))
    for move in pos.legal_moves():
        assert Move.parse(str(move), pos) == move
    # without the option the bare card still stands for the only capture
    forced = Position(hands=("7c", "2b"), table="Fc 3b", dealer=1, rules=Rules(capture="fifteen"))
    assert str(Move.parse("7c", forced)) == "7cxFc"


def test_empty_batches_under_every_objective():
    from scopa_solver import analyze_many, solve_many
    for objective in ("value", "maxn"):
        assert solve_many([], objective=objective) == []
        assert analyze_many([], objective=objective) == []
