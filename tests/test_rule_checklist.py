"""Every rule bit of the kernel is checked against the reference (docs/search.md, "Adding or
changing a scoring rule: the checklist").

The property tests of tests/test_against_reference.py compare the kernel with the slow
reference (tests/reference.py) game by game: the games are the tables REF_GAMES
(tests/helpers.py: every table of seats, options combined; moves, plays, scores, values, max^n)
and TWO_PLAYERS (test_against_reference.py: two players, options combined; values by solve), and
helpers.rule_bits turns a reference game's options into the kernel's bits. A rule bit those
comparisons never set is never checked: a mistake in it (a key summary that leaves it out, a
bound that forgets it) would give wrong values silently. So, for every name of kernel.RULE_BITS
(a new bit is a new case here, failing until it is covered):

1. an option of the reference's RefRules turns into that bit through helpers.rule_bits;
2. at least one game of REF_GAMES has it;
3. the reference reads the option and the kernel reads the bit: with it off, on the same
   seeded positions of such a game, the reference's moves, plays or score change, and so do the
   kernel's;
4. a scoring bit (one that changes the reference's round points) changes, in the kernel, the
   score (score.pxi), the bounds (bounds.pxi) and the static evaluation (eval.pxi), and is
   compared on values in a game of two sides and in one of three or more: the two are scored,
   keyed and bounded by different code (points_difference, piles_summary, two_bounds_cut;
   score_sides, side_summary, sides_bounds).

The last tests show the checks failing: a made-up bit added to RULE_BITS, a reference that
ignores napola, a kernel whose score, bounds, evaluation, moves or plays ignore a bit, tables
without a two-sided napola game.
"""
from __future__ import annotations

import dataclasses
import itertools
import random
import re
from functools import cache
from pathlib import Path

import pytest

import reference
from helpers import REF_GAMES, card_mask, rule_bits, to_kernel, unpack
from reference import RefRules, RefState
from scopa_solver import kernel
from test_against_reference import TWO_PLAYERS

ROOT = Path(__file__).resolve().parent.parent
BIT_NAMES = list(kernel.RULE_BITS)
STATES = 400            # seeded positions tried at most, per game, to see a bit read
SCORING_STATES = 150    # of them, tried to see a bit change the reference's points
PLAYS_LEFT = (1, 1, 2, 3, 4, 6, 9, 14, 20, 28, 36)   # the last plays often: a last sweep is read there


def all_games() -> list:
    return list(REF_GAMES.values()) + list(TWO_PLAYERS.values())


def reference_options() -> dict:
    """Each option of RefRules away from its default, (field, value) -> the kernel bits
    helpers.rule_bits gives it. The values tried are those the reference games use."""
    base = RefRules()
    options = {}
    for field in dataclasses.fields(RefRules):
        values = {getattr(g, field.name) for g in all_games()} | ({True} if isinstance(field.default, bool) else set())
        for value in values - {field.default}:
            try:
                rules = dataclasses.replace(base, **{field.name: value})
            except ValueError:
                continue                        # e.g. a four-player game with two players
            options[(field.name, value)] = rule_bits(rules) ^ rule_bits(base)
    return options


def option_for(name: str):
    """The (field, value) of RefRules that sets the kernel bit `name` alone; None when none does."""
    bit = kernel.RULE_BITS[name]
    return next((option for option, bits in reference_options().items() if bits == bit), None)


def games_with(name: str, games: dict) -> list:
    bit = kernel.RULE_BITS[name]
    return [key for key, rules in games.items() if rule_bits(rules) & bit]


def translation_problems(name: str, games: dict = REF_GAMES) -> list:
    problems = []
    if option_for(name) is None:
        problems.append(f"{name}: no option of reference.RefRules gives this kernel bit through "
                        "helpers.rule_bits (add the rule to tests/reference.py and to rule_bits)")
    if not games_with(name, games):
        problems.append(f"{name}: no game of helpers.REF_GAMES has it (add one, with two sides or more)")
    return problems


# -- what the reference and the kernel do, with the bit and without -------------------------------

def with_rules(s: RefState, rules: RefRules) -> RefState:
    return RefState(s.hands, s.table, s.piles, s.scopas, to_move=s.to_move, dealer=s.dealer,
                    last_capturer=s.last_capturer, rules=rules, deals=s.deals)


def reference_points(s: RefState) -> tuple:
    return tuple(reference.score(s.piles, s.scopas, s.rules)["points"])


def reference_play(s: RefState) -> dict:
    """Every move and what it leads to (the rules left out)."""
    if s.is_over():
        return {}
    out = {}
    for move in s.moves():
        after = s.play(move)
        out[move] = (after.hands, after.table, after.piles, tuple(after.scopas), after.last_capturer, after.deals)
    return out


def kernel_points(s: RefState) -> tuple:
    got = kernel.score(tuple(card_mask(p) for p in s.piles), tuple(s.scopas), s.rules.sides(), rule_bits(s.rules))
    return tuple(got["points"])


def kernel_play(s: RefState) -> dict:
    k = to_kernel(s)
    if s.is_over():
        return {}
    out = {}
    for packed in kernel.legal_moves(k):
        try:
            after, events = kernel.play(k, packed)
            out[unpack(packed)] = (after._replace(rules=0), events)
        except ValueError as error:            # a move listed but refused: a difference too
            out[unpack(packed)] = str(error)
    return out


def kernel_bounds(s: RefState) -> list:
    return kernel.side_bounds(to_kernel(s))


def kernel_evaluation(s: RefState) -> tuple:
    return kernel.evaluate(to_kernel(s))[0] if not s.is_over() else ()


def changes(states, off: RefRules, what) -> bool:
    """Does `what` (a function of a state) give something else on one of `states` with the
    option off?"""
    return any(what(s) != what(with_rules(s, off)) for s in states)


class Positions:
    """Seeded positions of one game played at random from a deal, made as they are asked for."""

    def __init__(self, rules: RefRules, seed: int) -> None:
        self.rules, self.rng, self.made = rules, random.Random(seed), []

    def __iter__(self):
        total = 40 - self.rules.table_size()
        for index in range(STATES):
            if index == len(self.made):
                plays_left = min(self.rng.choice(PLAYS_LEFT), total)
                self.made.append(reference.random_state(self.rng, self.rules, plays_left=plays_left))
            yield self.made[index]


@cache
def positions(rules: RefRules, seed: int) -> Positions:
    return Positions(rules, seed)


def is_scoring(name: str) -> bool:
    """Does the bit change the reference's round points (on random piles of its games)?"""
    option = option_for(name)
    if option is None:
        return False
    for key in games_with(name, REF_GAMES):
        on = REF_GAMES[key]
        off = dataclasses.replace(on, **{option[0]: getattr(RefRules(), option[0])})
        if changes(itertools.islice(positions(on, 5), SCORING_STATES), off, reference_points):
            return True
    return False


def reading_problems(name: str, games: dict = REF_GAMES) -> list:
    """With the option off, the reference and the kernel must behave otherwise somewhere."""
    option = option_for(name)
    keys = games_with(name, games)
    if option is None or not keys:
        return [f"{name}: nothing compares it (see above), so nothing shows it is read"]
    field, default = option[0], getattr(RefRules(), option[0])
    scoring = is_scoring(name)
    wanted = {"the reference's moves, plays or points": lambda s: (reference_points(s), reference_play(s)),
              "the kernel's moves, plays or score": lambda s: (kernel_points(s), kernel_play(s))}
    if scoring:
        wanted.update({"the kernel's score (score.pxi)": kernel_points,
                       "the kernel's bounds (bounds.pxi, sides_bounds)": kernel_bounds,
                       "the kernel's static evaluation (eval.pxi, expected_points)": kernel_evaluation})
    missing = dict(wanted)
    for index, key in enumerate(keys):
        on = games[key]
        off = dataclasses.replace(on, **{field: default})
        states = positions(on, 100 + index)
        for label, what in list(missing.items()):
            if changes(states, off, what):
                del missing[label]
        if not missing:
            break
    return [f"{name}: turning {field}={option[1]!r} off changes nothing in {label} on {STATES} "
            f"positions of each of {keys}" for label in missing]


def value_coverage_problems(name: str, tables: tuple = (REF_GAMES, TWO_PLAYERS)) -> list:
    """A scoring bit is compared on values with two sides and with three or more."""
    if not is_scoring(name):
        return []
    found = {"two sides": [], "three or more sides": []}
    for games in tables:
        for key in games_with(name, games):
            found["two sides" if games[key].side_count() == 2 else "three or more sides"].append(key)
    return [f"{name}: a scoring rule compared on values in no game of {kind} (REF_GAMES, TWO_PLAYERS): "
            "its key summary, bounds and leaf value there go unchecked" for kind, keys in found.items() if not keys]


def all_problems(name: str) -> list:
    return translation_problems(name) + reading_problems(name) + value_coverage_problems(name)


@pytest.mark.parametrize("name", BIT_NAMES)
def test_every_rule_bit_is_in_the_reference_comparison(name: str) -> None:
    problems = all_problems(name)
    assert not problems, "\n".join(problems)


def test_the_scoring_bits_are_told_apart() -> None:
    # the scoring rules of RULES.md / FAMILY.md, and not the capture rules
    scoring = {name for name in BIT_NAMES if is_scoring(name)}
    assert {"napola", "re_bello", "primiera_zero"} <= scoring
    assert not scoring & {"fifteen", "optional_capture", "fewest_cards", "asso_piglia_tutto"}


# -- the checks fail when a bit is left out ------------------------------------------------------

def test_a_new_bit_without_a_reference_option_fails(monkeypatch) -> None:
    bits = dict(kernel.RULE_BITS, new_rule=2 * max(kernel.RULE_BITS.values()))
    monkeypatch.setattr(kernel, "RULE_BITS", bits)
    problems = all_problems("new_rule")
    assert any("no option of reference.RefRules" in p for p in problems), problems
    assert any("no game of helpers.REF_GAMES" in p for p in problems), problems
    assert all_problems("napola") == []        # the others are still covered


def test_a_reference_that_ignores_a_rule_fails(monkeypatch) -> None:
    monkeypatch.setattr(reference, "napola_of", lambda pile: 0)
    problems = reading_problems("napola")
    assert any("the reference's moves, plays or points" in p for p in problems), problems


def _score_without(real, bit):
    return lambda piles, scopas, sides, rules: real(piles, scopas, sides, rules & ~bit)


def _state_without(real, bit):
    return lambda state, *rest: real(state._replace(rules=state.rules & ~bit), *rest)


@pytest.mark.parametrize("functions,name,label", [
    (("score",), "napola", "the kernel's score (score.pxi)"),
    (("side_bounds",), "re_bello", "the kernel's bounds (bounds.pxi, sides_bounds)"),
    (("evaluate",), "primiera_zero", "the kernel's static evaluation (eval.pxi, expected_points)"),
    (("play",), "last_sweep_counts", "the kernel's moves, plays or score"),
    (("legal_moves", "play"), "fewest_cards", "the kernel's moves, plays or score"),
])
def test_a_kernel_part_that_ignores_a_rule_fails(monkeypatch, functions: tuple, name: str, label: str) -> None:
    bit = kernel.RULE_BITS[name]
    for function in functions:
        real = getattr(kernel, function)
        monkeypatch.setattr(kernel, function, (_score_without if function == "score" else _state_without)(real, bit))
    problems = reading_problems(name)
    assert any(label in p for p in problems), problems


def test_a_scoring_bit_without_a_two_sided_game_fails() -> None:
    games = {key: rules for key, rules in REF_GAMES.items() if not (rules.napola and rules.side_count() == 2)}
    two = {key: rules for key, rules in TWO_PLAYERS.items() if not rules.napola}
    problems = value_coverage_problems("napola", (games, two))
    assert problems == [("napola: a scoring rule compared on values in no game of two sides (REF_GAMES, "
                         "TWO_PLAYERS): its key summary, bounds and leaf value there go unchecked")]


# -- the checklist names every place a rule bit is read ---------------------------------------------

def checklist_text() -> str:
    text = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    match = re.search(r"^## Adding or changing a scoring rule: the checklist\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, "docs/search.md has no section 'Adding or changing a scoring rule: the checklist'"
    return match.group(1)


def test_the_checklist_names_every_kernel_file_that_reads_a_rule_bit() -> None:
    section = checklist_text()
    readers = sorted(p.name for p in (ROOT / "ext").glob("*.pxi")
                     if re.search(r"\bRULE_[A-Z_]+\b", p.read_text(encoding="utf-8")))
    assert len(readers) >= 8
    missing = [name for name in readers if name not in section]
    assert not missing, f"ext files reading a rule bit that the checklist does not name: {missing}"


def test_the_checklist_names_every_rule_bit() -> None:
    section = checklist_text()
    defined = re.findall(r"^\s+(RULE_[A-Z_]+) = ", (ROOT / "ext" / "rules.pxi").read_text(encoding="utf-8"), re.M)
    assert len(defined) == len(kernel.RULE_BITS) + 1          # RULE_ALL besides the bits
    missing = [name for name in defined if name != "RULE_ALL" and name not in section]
    assert not missing, f"rule bits the checklist does not name: {missing}"
