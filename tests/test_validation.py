"""Bad input: each rule of the input checks raises its own error type with a message naming the
problem; and the kernel's entry points reject garbage tuples with ValueError instead of crashing."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scopa_solver import (Card, CardError, DuplicateCardError, IllegalMoveError, Move, NotationError,
                          Position, PositionError, Rules, RulesError, ScopaError, _kernel)
from scopa_solver.play.game import play_round

VALID_LINE = "7d/Rb 4c -/- - 0/0 0 1 -"


def test_every_error_is_a_value_error() -> None:
    for error in (CardError, DuplicateCardError, PositionError, NotationError, IllegalMoveError, RulesError):
        assert issubclass(error, ScopaError) and issubclass(error, ValueError)


def test_the_valid_line_used_below_is_valid() -> None:
    assert Position.from_string(VALID_LINE).to_string() == VALID_LINE


# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Zz", "7x", "x7", "0d", "11d", "77d", "7dd", "d7", "7", "", "7 d", "R",
                                  "Hd"])
def test_unknown_card_text(text: str) -> None:
    with pytest.raises(CardError, match=re.escape(repr(text))):
        Card.parse(text)


@pytest.mark.parametrize("value", [7, None, 3.5, ("7", "d")])
def test_card_from_something_that_is_not_text(value) -> None:
    with pytest.raises(CardError, match=type(value).__name__):
        Card.parse(value)


@pytest.mark.parametrize("index", [-1, 40, 100, 6.0])
def test_card_index_out_of_range(index) -> None:
    with pytest.raises(CardError, match=re.escape(repr(index))):
        Card(index)


def test_unknown_card_in_a_position_names_the_card_and_the_place() -> None:
    with pytest.raises(CardError, match="Zz") as info:
        Position(hands=(["7d", "Zz"], ()), dealer=0)
    assert "hand 0" in str(info.value)
    with pytest.raises(CardError, match="Xb"):
        Position(hands=("7d", "Rb"), table="4c Xb")


# --------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, card, places", [
    (dict(hands=("7d", "7d")), "7d", ["hand 0", "hand 1"]),
    (dict(hands=("7d 7d", "Rb 4c")), "7d", ["hand 0"]),
    (dict(hands=("7d", "Rb"), table="Rb 4c"), "Rb", ["hand 1", "table"]),
    (dict(hands=("7d", "Rb"), table="4c", stock="Ac 2c 3c 4c 5c 6c"), "4c", ["table", "stock"]),
    (dict(hands=("7d", "Rb"), captured=("3s", "3s"), last_capturer=0), "3s", ["pile 0", "pile 1"]),
])
def test_a_card_in_two_places(kwargs: dict, card: str, places: list) -> None:
    with pytest.raises(DuplicateCardError, match=card) as info:
        Position(**kwargs)
    for place in places:
        assert place in str(info.value)


def test_more_than_40_cards() -> None:
    deck = [str(c) for c in Card._all]
    with pytest.raises(PositionError, match="41 cards"):
        Position(hands=(deck[:3], deck[3:6]), table=deck[6:40], captured=("Ad", ()), last_capturer=0)


def test_four_cards_in_a_hand() -> None:
    with pytest.raises(PositionError, match="4 and 3 cards"):
        Position(hands=("Ad 2d 3d 4d", "Ac 2c 3c"))


@pytest.mark.parametrize("hands, dealer", [(("Ad 2d 3d", "Ac"), 1), (("Ad", "Ac 2c 3c"), 0),
                                           (("Ad 2d 3d", "Ac"), 0), (("Ad 2d", ()), 1)])
def test_hand_sizes_that_cannot_occur(hands, dealer) -> None:
    sizes = [len(h.split()) if h else 0 for h in hands]
    with pytest.raises(PositionError, match=f"{sizes[0]} and {sizes[1]} cards"):
        Position(hands=hands, dealer=dealer)


@pytest.mark.parametrize("stock, problem", [
    ("Ab 2b 3b", "3 cards"),
    ("Ab 2b 3b 4b 5b 6b 7b", "7 cards"),
    ([str(c) for c in Card._all[4:40]], "36 cards"),      # a whole multiple of 6, but more than 30
])
def test_a_stock_that_does_not_split_into_deals(stock, problem: str) -> None:
    with pytest.raises(PositionError, match=problem):
        Position(hands=("Ad", "2d"), stock=stock)


def test_a_stock_with_both_hands_empty() -> None:
    with pytest.raises(PositionError, match="stock"):
        Position(hands=((), ()), stock="Ab 2b 3b 4b 5b 6b")


@pytest.mark.parametrize("hands, dealer, to_move, expected", [
    (("7d", "Rb"), 1, 1, 0),        # equal hands: the non-dealer is to move
    (("7d", "Rb"), 0, 0, 1),
    (("7d", "Rb 4c"), 1, 0, 1),     # the dealer holds one more: the dealer is to move
])
def test_side_to_move_that_disagrees_with_the_hand_sizes(hands, dealer, to_move, expected) -> None:
    with pytest.raises(PositionError, match=f"player {expected}'s turn"):
        Position(hands=hands, dealer=dealer, to_move=to_move)


@pytest.mark.parametrize("kwargs, problem", [
    (dict(to_move=2), "to_move"),
    (dict(to_move=True), "to_move"),
    (dict(dealer=2), "dealer"),
    (dict(last_capturer=3), "last_capturer"),
    (dict(scopas=(-1, 0)), "scopas"),
    (dict(scopas=(0,)), "scopas"),
    (dict(scopas=(1, 0)), "scopa"),                                  # a scopa without a capture
    (dict(captured=("3s", ()),), "last_capturer"),                 # captures, nobody captured last
    (dict(captured=("3s", ()), last_capturer=1), "last_capturer"),
    (dict(rules="napola"), "Rules"),
])
def test_bad_position_fields(kwargs: dict, problem: str) -> None:
    with pytest.raises(PositionError, match=problem):
        Position(**{"hands": ("7d", "Rb"), **kwargs})


def test_a_finished_round_cannot_leave_cards_on_the_table_of_a_capturer() -> None:
    with pytest.raises(PositionError, match="last capturer"):
        Position(hands=((), ()), table="4c", captured=("3s", ()), last_capturer=0)


@pytest.mark.parametrize("kwargs", [dict(hands=("7d",)), dict(hands=("7d", "Rb"), captured=("3s",))])
def test_hands_and_piles_must_be_pairs(kwargs: dict) -> None:
    with pytest.raises(PositionError):
        Position(**kwargs)


def test_deck_for_from_deck_must_have_40_cards() -> None:
    with pytest.raises(PositionError, match="39"):
        Position.from_deck([str(c) for c in Card._all[:39]])


# --------------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------------

@pytest.fixture
def example_1() -> Position:
    # player 0 holds 7s and 5c; the table is 7c 5s 2b Ad (RULES.md example 1)
    return Position(hands=("7s 5c", "Rb 2c"), table="7c 5s 2b Ad", dealer=1)


def test_illegal_move_card_not_in_hand(example_1: Position) -> None:
    with pytest.raises(IllegalMoveError, match="does not hold 7d"):
        example_1.play("7dx7c")
    with pytest.raises(IllegalMoveError, match="does not hold Rb"):      # the opponent's card
        example_1.play("Rb")


def test_illegal_move_wrong_capture(example_1: Position) -> None:
    with pytest.raises(IllegalMoveError, match=re.escape("5cx3d")):      # 3d is not on the table
        example_1.play("5cx3d")
    with pytest.raises(IllegalMoveError, match=re.escape("5cx5s+2b")):   # 7 is not 5
        example_1.play("5cx5s+2b")


def test_illegal_move_sum_when_a_single_match_is_compulsory(example_1: Position) -> None:
    with pytest.raises(IllegalMoveError, match=re.escape("7sx5s+2b")) as info:
        example_1.play("7sx5s+2b")
    assert "7sx7c" in str(info.value)                                   # names the legal move
    with pytest.raises(IllegalMoveError):
        example_1.is_scopa("7sx5s+2b")


def test_illegal_lay_down_of_a_card_that_must_capture(example_1: Position) -> None:
    with pytest.raises(IllegalMoveError, match="7s"):
        example_1.play(Move(Card.parse("7s")))


def test_bare_card_with_several_captures_is_ambiguous() -> None:
    pos = Position(hands=("5b", "Rb"), table="5c 5s 2d", dealer=1)
    with pytest.raises(IllegalMoveError, match=re.escape("5bx5c, 5bx5s")):
        pos.play("5b")


@pytest.mark.parametrize("text", ["Zz", "7sx", "7sxZz", "7sx7c+7c", "x7c"])
def test_unreadable_move_text(example_1: Position, text: str) -> None:
    with pytest.raises(IllegalMoveError, match=re.escape(repr(text))):
        example_1.play(text)


def test_move_that_is_not_text(example_1: Position) -> None:
    with pytest.raises(IllegalMoveError, match="int"):
        example_1.play(42)


def test_moves_on_a_finished_round() -> None:
    over = Position(hands=((), ()), captured=("7d 3c", "Rb"), last_capturer=0)
    assert over.is_round_over() and over.legal_moves() == []
    for text in ("7d", "Ad", "4cx4s"):
        with pytest.raises(IllegalMoveError, match="round is over"):
            over.play(text)
        with pytest.raises(IllegalMoveError, match="round is over"):
            over.is_scopa(text)


def test_chooser_returning_garbage_names_the_player() -> None:
    pos = Position(hands=("7d", "Rb"), table="4c", dealer=1)
    with pytest.raises(IllegalMoveError, match="player 0"):
        play_round(pos, lambda p: "Zz", lambda p: p.legal_moves()[0])


# --------------------------------------------------------------------------------------------
# Notation
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, words", [
    ("", ["0 fields"]),
    ("7d/Rb 4c -/- - 0/0 0 1", ["7 fields"]),
    ("7dRb 4c -/- - 0/0 0 1 -", ["hands", "'/'"]),
    ("7d/Rb/3c 4c -/- - 0/0 0 1 -", ["hands", "'/'"]),
    ("7d/Rb 4c - - 0/0 0 1 -", ["capture piles", "'/'"]),
    ("7d/Rb 4c -/- - 00 0 1 -", ["scopas", "'/'"]),
    ("7d/? 4c -/- - 0/0 0 1 -", ["hand 1", "hidden"]),
    ("7d/Rb 4c? -/- - 0/0 0 1 -", ["table", "hidden"]),
    ("7d/Rb 4c -/- ?6 0/0 0 1 -", ["stock", "hidden"]),
    ("7d/Rb 4c -/? - 0/0 0 1 -", ["pile 1", "hidden"]),
    ("7d/Rb 4x -/- - 0/0 0 1 -", ["table", "4x"]),
    ("7d/Rb 4c -/- - a/0 0 1 -", ["scopas", "a/0"]),
    ("7d/Rb 4c -/- - 0/0 2 1 -", ["side to move", "'2'"]),
    ("7d/Rb 4c -/- - 0/0 0 7 -", ["dealer", "'7'"]),
    ("7d/Rb 4c -/- - 0/0 0 1 x", ["last capturer", "'x'"]),
    ("7d/Rb 4c -/- - 0/0 0 1 - foo", ["unknown rule option", "'foo'"]),
    ("7d/Rb 4c -/- - 0/0 0 1 - napola=maybe", ["napola", "'maybe'"]),
    ("7d/Rb 4c -/- - 0/0 0 1 - target=x", ["target", "'x'"]),
    ("7d/Rb 4c -/- - 0/0 0 1 - target=0", ["target", "0"]),
    ("7d/Rb 4c -/- - 0/0 0 1 - primiera_missing_suit=half", ["primiera_missing_suit", "'half'"]),
])
def test_malformed_notation(line: str, words: list) -> None:
    with pytest.raises(NotationError) as info:
        Position.from_string(line)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_notation_that_is_not_text() -> None:
    with pytest.raises(NotationError, match="NoneType"):
        Position.from_string(None)


@pytest.mark.parametrize("line, error, problem", [
    ("7d/Rb 4c -/- - 25/0 0 1 -", PositionError, "scopas"),
    ("7d/Rb 4c -/- - -1/0 0 1 -", PositionError, "scopas"),
    ("7d/Rb 4c -/- - 0/0 1 1 -", PositionError, "player 0's turn"),
    ("7d/Rb 7d -/- - 0/0 0 1 -", DuplicateCardError, "7d"),
    ("7d2d3d4d/Rb 4c -/- - 0/0 0 1 -", PositionError, "at most 3"),
    ("7d/Rb 4c -/- AbAc 0/0 0 1 -", PositionError, "stock"),
])
def test_notation_that_reads_but_describes_an_impossible_position(line, error, problem) -> None:
    with pytest.raises(error, match=re.escape(problem)):
        Position.from_string(line)


# --------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, words", [
    (dict(napola=1), ["napola", "1"]),
    (dict(re_bello="yes"), ["re_bello", "'yes'"]),
    (dict(redeal_three_kings=None), ["redeal_three_kings", "None"]),
    (dict(primiera_missing_suit="ignore"), ["primiera_missing_suit", "'ignore'"]),
    (dict(target=0), ["target", "0"]),
    (dict(target=-5), ["target", "-5"]),
    (dict(target=True), ["target", "True"]),
    (dict(target="11"), ["target", "'11'"]),
    (dict(target=10.5), ["target", "10.5"]),
])
def test_bad_rules_values(kwargs: dict, words: list) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    for word in words:
        assert word in str(info.value), str(info.value)


@pytest.mark.parametrize("tokens, word", [
    (["foo"], "'foo'"), (["napola=2"], "'2'"), (["target="], "target"), (["target=eleven"], "'eleven'"),
])
def test_bad_rule_tokens(tokens: list, word: str) -> None:
    with pytest.raises(RulesError, match=re.escape(word)):
        Rules.from_tokens(tokens)


# --------------------------------------------------------------------------------------------
# The kernel's entry points: garbage in, ValueError out
# --------------------------------------------------------------------------------------------

BASE = Position.new_round(seed=5)
BASE_TUPLE = BASE.kernel_state()
A_LEGAL_MOVE = BASE.legal_moves()[0].packed


def with_field(index: int, value) -> tuple:
    return BASE_TUPLE[:index] + (value,) + BASE_TUPLE[index + 1:]


def with_seat(index: int, seat: int, value) -> tuple:
    """The base tuple with one seat's entry of a per-seat field (hands, piles, scopas) changed."""
    entries = list(BASE_TUPLE[index])
    entries[seat] = value
    return with_field(index, tuple(entries))


GARBAGE = {
    "hand bit beyond 40": with_seat(1, 0, 1 << 40),
    "hand bit 63": with_seat(1, 1, 1 << 63),
    "table beyond 64 bits": with_field(2, 1 << 70),
    "pile all ones": with_seat(3, 0, (1 << 64) - 1),
    "negative hand": with_seat(1, 0, -1),
    "negative pile": with_seat(3, 1, -8),
    "negative scopas": with_seat(4, 0, -1),
    "huge scopas": with_seat(4, 1, 10 ** 30),
    "to_move 2": with_field(5, 2),
    "negative dealer": with_field(6, -1),
    "last capturer -2": with_field(7, -2),
    "4-card hand": with_seat(1, 0, 0b1111),
    "40-card hand": with_seat(1, 1, (1 << 40) - 1),
    "a card in two hands": with_seat(1, 1, BASE_TUPLE[1][0]),
    "7 deals": with_field(8, ((0b111, 0b111 << 3),) * 7),
    "deal with 4 cards": with_field(8, ((0b1111, 0),)),
    "deal of 3 parts": with_field(8, ((1, 2, 4),)),
    "negative deal": with_field(8, ((-1, 0),)),
    "rules 512": with_field(9, 512),
    "negative rules": with_field(9, -1),
    "one side": with_field(10, (0, 0)),
    "three hands for two players": with_field(1, BASE_TUPLE[1] + (0,)),
    "seven players": with_field(0, 7),
    "10-tuple": BASE_TUPLE[:10],
    "12-tuple": BASE_TUPLE + (0,),
    "empty tuple": (),
}


@pytest.fixture(scope="module")
def searcher():
    return _kernel.Searcher(1.0)


KERNEL_CALLS = {
    "legal_moves": lambda t, s: _kernel.legal_moves(t),
    "play": lambda t, s: _kernel.play(t, A_LEGAL_MOVE),
    "Searcher.search": lambda t, s: s.search(t, max_nodes=10000),
    "random_playouts": lambda t, s: _kernel.random_playouts(t, 2, 1),
}


@pytest.mark.parametrize("call", list(KERNEL_CALLS))
@pytest.mark.parametrize("garbage", list(GARBAGE))
def test_kernel_rejects_garbage_tuples(call: str, garbage: str, searcher) -> None:
    with pytest.raises(ValueError):
        KERNEL_CALLS[call](GARBAGE[garbage], searcher)


def test_kernel_accepts_the_base_tuple(searcher) -> None:
    # the garbage above differs from a tuple the kernel accepts in one field only
    assert _kernel.legal_moves(BASE_TUPLE)
    assert _kernel.play(BASE_TUPLE, A_LEGAL_MOVE)[0][5] == 1 - BASE.to_move
    assert _kernel.random_playouts(BASE_TUPLE, 2, 1) == 72
    assert searcher.search(BASE_TUPLE, max_nodes=10000).moves == _kernel.legal_moves(BASE_TUPLE)


@pytest.mark.parametrize("move", [1 << 46, (1 << 64) - 1, 0, 6 << 40])
def test_kernel_play_rejects_a_move_that_is_not_legal(move: int) -> None:
    with pytest.raises(ValueError, match="illegal"):
        _kernel.play(BASE_TUPLE, move)


@pytest.mark.parametrize("args", [
    ((1 << 40, 0), (0, 0), (0, 1), 0), ((0, 1 << 41), (0, 0), (0, 1), 0), ((-1, 0), (0, 0), (0, 1), 0),
    ((0, -1), (0, 0), (0, 1), 0), ((0, 0), (0, 0), (0, 1), 512), ((0, 0), (0, 0), (0, 1), -1),
    ((1 << 80, 0), (0, 0), (0, 1), 0), ((0, 0), (-1, 0), (0, 1), 0), ((0, 0), (0, 0), (0, 0), 0),
    ((0,), (0,), (0,), 0), ((0, 0), (0, 0, 0), (0, 1), 0),
])
def test_kernel_score_rejects_garbage(args: tuple) -> None:
    with pytest.raises(ValueError):
        _kernel.score(*args)


def run_isolated(code: str) -> subprocess.CompletedProcess:
    """Run kernel calls in a child interpreter, so that a hard crash fails one test, not the run."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, cwd=str(Path(__file__).resolve().parent.parent))


KINGS = 1 << 9 | 1 << 19 | 1 << 29 | 1 << 39

# In-range but inconsistent tuples: whichever kernel call gets them must return or raise ValueError.
INCONSISTENT = {
    # player 1 is to move but holds nothing, while player 0 still holds a card
    "side to move holds no card": (1, 0, 0, 0, 0, 0, 0, 1, 1, -1, (), 0),
    # both hands empty and a deal of nothing left in the stock
    "an empty deal": (0, 0, 0, 0, 0, 0, 0, 0, 1, -1, ((0, 0),), 0),
    # 3 cards against none, player 0 to move: after one play player 1 has to move without cards
    "3 cards against 0": (0b111, 0, 1 << 39, 0, 0, 0, 0, 0, 1, -1, (), 0),
    # 1 card against 2, the single card to move: two plays later player 0 moves without cards
    "1 card against 2": (1, 0b110 << 10, 0, 0, 0, 0, 0, 0, 1, -1, (), 0),
    # three kings in hand against the 36 other cards on the table: the most moves a node can have
    "most moves": (KINGS & ~(1 << 39), 0, ((1 << 40) - 1) & ~KINGS, 0, 0, 0, 0, 0, 1, -1, (), 0),
    # cards in two places at once: the hands are also on the table, in the piles and in the stock
    "overlapping places": (0b111, 0b111 << 10, (1 << 40) - 1, (1 << 40) - 1, (1 << 40) - 1, 0, 0, 0, 1, 1,
                           ((0b111, 0b111 << 20),) * 6, 63),
}


@pytest.mark.parametrize("call", ["legal_moves", "play", "search", "random_playouts"])
def test_kernel_survives_inconsistent_tuples(call: str) -> None:
    code = f"""
        from scopa_solver import _kernel
        calls = dict(
            legal_moves=lambda t: _kernel.legal_moves(t),
            play=lambda t: [_kernel.play(t, m) for m in _kernel.legal_moves(t)[:50]],
            search=lambda t: _kernel.Searcher(1.0).search(t, max_nodes=20000),
            random_playouts=lambda t: _kernel.random_playouts(t, 20, 1),
        )
        for name, t in {INCONSISTENT!r}.items():
            print(name, flush=True)
            try:
                calls[{call!r}](t)
            except ValueError:
                pass
        print("survived")
    """
    done = run_isolated(code)
    last = done.stdout.splitlines()[-1:]
    assert done.returncode == 0 and last == ["survived"], (
        f"{call} died (exit code {done.returncode}) on {last}\n{done.stderr[-2000:]}")
