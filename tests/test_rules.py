"""Every game's rules in the Python core (docs/FAMILY.md): Rules and its options, notation,
dealing, positions, whole rounds and scoring per side, bad lines and impossible positions, the
match winner of several sides. (The worked examples of the rule books: test_examples.py; the
package against the reference oracle: test_against_reference.py; the search: test_search.py.)"""
import pytest

from scopa_solver import Position, Rules
from scopa_solver.core import flow
from scopa_solver.core.cards import DECK, cards_text, popcount
from scopa_solver.core.position import Move
from scopa_solver.errors import NotationError, PositionError, RulesError
from scopa_solver.search.solver import solve

from helpers import COMBINED, games, round_history

# every game but two-player Scopa under the standard rules
GAMES = games("scopa a 15", "3 players", "4 players", "4 alone", "6 players", "6 alone", "scopone", "scientifico",
              more=COMBINED)


NO_KINGS = [c for c in DECK if c.rank != 10]


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
        history = round_history(rules, seed)
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
        history = round_history(rules, seed)
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


def test_notation_line_of_three_players():
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
def test_bad_lines_of_every_game_name_the_field(line, words):
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
def test_impossible_positions_of_every_game(kwargs, words):
    with pytest.raises(PositionError, match=words) as info:
        Position(**kwargs)
    assert len(str(info.value)) < 300


def test_hand_sizes_follow_the_turn_from_the_leader():
    r = Rules(players=3)
    assert Position(hands=("5c", "5b 4d", "6s 7s"), dealer=2, rules=r).to_move == 1
    assert Position(hands=("5c", "5b", "6s 7s"), dealer=2, rules=r).to_move == 2
    assert Position(hands=("5c 2c", "5b", "6s 7s"), dealer=0, rules=r).to_move == 2   # leader 1
    assert Position(hands=("5c", "5b", "6s"), dealer=1, rules=r).to_move == 2


def test_match_winner_for_several_sides():
    assert flow.match_winner((12, 9, 11), 11) == 0
    assert flow.match_winner((12, 12, 11), 11) is None       # a shared highest total plays on
    assert flow.match_winner((10, 10, 10), 11) is None
    assert flow.match_winner((3, 16, 15, 2), 16) == 1


# -- search ----------------------------------------------------------------------------------------


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


