"""Benchmark suites: positions with their proven values, best moves and this engine's node counts,
as plain text (docs/benchmarks.md#suites), and the recipe that rebuilds the shipped ones.

One position a line, then fields after ` ; ` (like chess's EPD):

    POSITION ; id ID ; value V ; best MOVE MOVE ... ; nodes N

POSITION is the project's notation (docs/notation.md), rule options included; V the exact value
for the side to move (the round margin; three or more sides the paranoid value); the best moves
every optimal move; N the nodes of this engine's solve (value, best moves, pv) from an empty
table on one thread. `#` starts a comment line. Perft files (perft.py) share the layout."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

from ..core.position import Position
from ..core.rules import Rules
from ..errors import ScopaError, excerpt
from ..text import plural

__all__ = ["SuiteError", "SuiteEntry", "Suite", "SuiteSpec", "SUITES", "DEFAULT_SUITES", "SUITE_DIR",
           "read_suite", "parse_fields", "suite_text", "load_suites", "suite_positions"]

SUITE_DIR = Path(__file__).resolve().parent / "suites"
SEPARATOR = " ; "


class SuiteError(ScopaError):
    """A suite file that cannot be read, or a suite name that is not shipped."""


@dataclass(frozen=True)
class SuiteEntry:
    """One line of a suite: a position and what the suite says of it."""
    id: str
    position: Position
    value: int
    best: tuple[str, ...]        # every optimal move, as written by str(Move), sorted
    nodes: Optional[int] = None  # this engine's nodes when the suite was made (None: not given)


@dataclass
class Suite:
    name: str
    entries: list[SuiteEntry] = field(default_factory=list)
    header: list[str] = field(default_factory=list)     # the comment lines, without '#'


@dataclass(frozen=True)
class SuiteSpec:
    """How a shipped suite is made: `count` positions of `rules` from seeds `seed`, `seed + 1`,
    ..., each `play.game.random_position(seed, deals_left, rules, cards_per_hand)` (the same
    positions `scopa-solver deal --seed S --deals-left K` prints)."""
    name: str
    rules: Rules
    count: int
    seed: int
    deals_left: Optional[int] = None        # deals still in the stock (0: the last deal)
    cards_per_hand: Optional[int] = None    # Scopone, scientifico: cards in every hand
    default: bool = True                    # in `scopa-solver bench` without names
    about: str = ""


def _deals(name: str, about: str, rules: Rules, seed: int, count: int, round_count: Optional[int] = None,
           slow_from: int = 99) -> list[SuiteSpec]:
    """One suite per depth of a game dealt in deals: the last deal, two deals, ..., the whole
    round (`round_count` positions, default `count`)."""
    out = []
    for left in range(rules.deals):
        depth = "round" if left == rules.deals - 1 else f"{left + 1}deal" + ("s" if left else "")
        n = round_count if depth == "round" and round_count else count
        out.append(SuiteSpec(f"{name}-{depth}", rules, n, seed + 100 * left, deals_left=left,
                             default=left < slow_from,
                             about=f"{about}, {'the whole round' if depth == 'round' else plural(left + 1, 'deal') + ' left'}"))
    return out


def _cards(name: str, about: str, rules: Rules, seed: int, sizes: Iterable[tuple[int, int]],
           slow_from: int) -> list[SuiteSpec]:
    """One suite per hand size k of a one-deal game (Scopone, scientifico), the leader to play."""
    return [SuiteSpec(f"{name}-{k}", rules, count, seed + 100 * k, cards_per_hand=k, default=k < slow_from,
                      about=f"{about}, {k} cards in every hand") for k, count in sizes]


# The shipped suites: every game of the family at several depths. The ones marked default=False
# (a position takes seconds) run by name or with --all.
SUITES: dict[str, SuiteSpec] = {s.name: s for s in [
    *_deals("scopa", "two-player Scopa", Rules(), 2026, 20),
    *_deals("scopa15", "Scopa a 15, two players", Rules(capture="fifteen"), 2126, 20),
    *_deals("options", "two-player Scopa with napola, re bello, asso piglia tutto (scopa), last sweep",
            Rules(napola=True, re_bello=True, asso_piglia_tutto=True, ace_sweep_is_scopa=True,
                  last_sweep_counts=True), 2226, 20),
    *_deals("3p", "three players (paranoid value)", Rules(players=3), 2326, 20),
    *_deals("4p", "four players in partnerships", Rules(players=4), 2426, 20),
    *_deals("4alone", "four players each alone (paranoid value)", Rules(players=4, partnerships=False), 2526, 20),
    *_deals("6p", "six players in two sides of three", Rules(players=6), 2626, 20),
    *_deals("6alone", "six players each alone (paranoid value)", Rules(players=6, partnerships=False), 2726, 20,
            round_count=10),
    *_cards("scopone", "Scopone", Rules(players=4, game="scopone"), 2826,
            [(3, 20), (4, 20), (5, 20), (6, 8), (7, 3)], slow_from=7),
    *_cards("scientifico", "Scopone scientifico", Rules(players=4, game="scientifico"), 2926,
            [(3, 20), (4, 20), (5, 20), (6, 8), (7, 3)], slow_from=7),
]}
DEFAULT_SUITES = [name for name, spec in SUITES.items() if spec.default]


def suite_positions(spec: SuiteSpec) -> list[tuple[str, Position]]:
    """The spec's positions with their ids (deterministic: seeds and the rules only)."""
    from ..play.game import random_position
    return [(f"{spec.name}-{i + 1:02d}",
             random_position(spec.seed + i, spec.deals_left, spec.rules, spec.cards_per_hand))
            for i in range(spec.count)]


# -- the text format ------------------------------------------------------------------------------

def parse_fields(line: str, where: str) -> tuple[str, dict[str, str]]:
    """A suite or perft line: its position text and {field: rest of the field}."""
    parts = [p.strip() for p in line.split(";")]
    fields: dict[str, str] = {}
    for part in parts[1:]:
        if not part:
            continue
        name, _, rest = part.partition(" ")
        if name in fields:
            raise SuiteError(f"{where}: the field {excerpt(name)} twice")
        fields[name] = rest.strip()
    return parts[0], fields


def _int(text: Optional[str], what: str, where: str) -> int:
    try:
        return int(text)     # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise SuiteError(f"{where}: {what} must be a whole number, not {excerpt(text)}") from None


def read_suite(source: Union[str, os.PathLike], name: Optional[str] = None) -> Suite:
    """A suite from a file (its name the file's stem) or, with `name`, from text."""
    if name is None:
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise SuiteError(f"{excerpt(str(path))} is not a text file") from None
        name = path.stem
    else:
        text = str(source)
    suite = Suite(name)
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name} line {number}"
        if not line:
            continue
        if line.startswith("#"):
            suite.header.append(line[1:].strip())
            continue
        position_text, fields = parse_fields(line, where)
        try:
            position = Position.from_string(position_text)
        except ScopaError as exc:
            raise SuiteError(f"{where}: {exc}") from None
        ident = fields.get("id") or f"{name}-{len(suite.entries) + 1}"
        if ident in seen:
            raise SuiteError(f"{where}: the id {excerpt(ident)} twice")
        seen.add(ident)
        if "value" not in fields:
            raise SuiteError(f"{where}: no value field (POSITION ; id ID ; value V ; best MOVES ; nodes N)")
        nodes = _int(fields["nodes"], "nodes", where) if "nodes" in fields else None
        suite.entries.append(SuiteEntry(ident, position, _int(fields["value"], "the value", where),
                                        tuple(sorted(fields.get("best", "").split())), nodes))
    if not suite.entries:
        raise SuiteError(f"{name}: no position")
    return suite


def suite_text(suite: Suite) -> str:
    """The suite as its file's text (read_suite reads it back)."""
    lines = [f"# {line}" if line else "#" for line in suite.header]
    for e in suite.entries:
        fields = [e.position.to_string(), f"id {e.id}", f"value {e.value}", f"best {' '.join(e.best)}"]
        if e.nodes is not None:
            fields.append(f"nodes {e.nodes}")
        lines.append(SEPARATOR.join(fields))
    return "\n".join(lines) + "\n"


def load_suites(names: Sequence[str]) -> list[Suite]:
    """Shipped suites by name (`scopa-1deal`, ...) or suite files by path."""
    out = []
    for name in names:
        if name in SUITES:
            path = SUITE_DIR / f"{name}.txt"
            if not path.is_file():
                raise SuiteError(f"the suite {name} is not built (scopa-solver bench --make-suite)")
            out.append(read_suite(path))
        elif os.path.isfile(name):
            out.append(read_suite(name))
        else:
            raise SuiteError(f"no suite or suite file {excerpt(name)}; suites: {', '.join(SUITES)}")
    return out
