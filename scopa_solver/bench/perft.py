"""Perft for Scopa: the number of legal play sequences N plays deep from a position, the rules'
fingerprint (as chess's perft is). The deal is chance, and it is already fixed inside a
position (the stock in deal order), so a perft counts plays only; a sequence the round ends
before N plays is not counted (like a chess mate before the depth). Another implementation of
the rules that gets the shipped counts right agrees with this one on every move of those trees.

The shipped counts (perft.txt beside the suites) are lines of the suites' layout:

    POSITION ; id ID ; D1 N1 ; D2 N2 ; ...
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

from .. import kernel
from ..core.position import Position
from ..core.rules import Rules
from ..errors import ScopaError, excerpt
from ..progress import progress_bar
from .suites import SUITE_DIR, SuiteError, parse_fields

__all__ = ["perft", "PerftEntry", "read_perft", "perft_text", "PERFT_FILE", "PERFT_SPECS", "make_perft",
           "check_perft"]

PERFT_FILE = SUITE_DIR / "perft.txt"
MAX_DEPTH = 40          # more plies than any round has


def perft(position: Position, depth: int) -> int:
    """The number of legal play sequences `depth` plays long from `position` (depth 0: 1). In
    Python over the kernel's move generation (a million sequences a second or so: the last
    level's moves are counted, not played); Ctrl-C stops it."""
    if type(depth) is not int or not 0 <= depth <= MAX_DEPTH:
        raise ScopaError(f"the perft depth must be 0 to {MAX_DEPTH}, not {excerpt(depth)}")
    legal, play = kernel.legal_moves, kernel.play

    def count(state, left: int) -> int:
        moves = legal(state)
        if left == 1:
            return len(moves)
        return sum(count(play(state, m)[0], left - 1) for m in moves)

    return 1 if depth == 0 else count(position.kernel_state(), depth)


@dataclass(frozen=True)
class PerftEntry:
    id: str
    position: Position
    counts: tuple[int, ...]     # counts[d - 1]: perft(d)


# The shipped perft positions: every game of the family at a round start and at a late point.
# (name, rules, seed, deals still in the stock or None for the round start, cards per hand, depth)
PERFT_SPECS = [
    ("scopa", Rules(), 1, None, None, 16),
    ("scopa-2deals", Rules(), 2, 1, None, 12),
    ("scopa15", Rules(capture="fifteen"), 3, None, None, 13),
    ("scopa15-2deals", Rules(capture="fifteen"), 4, 1, None, 12),
    ("options", Rules(napola=True, re_bello=True, asso_piglia_tutto=True, ace_sweep_is_scopa=True,
                      last_sweep_counts=True, fewest_cards=True), 5, 1, None, 12),
    ("optional-capture", Rules(capture="fifteen", optional_capture=True), 6, 1, None, 6),
    ("3p", Rules(players=3), 7, None, None, 18),
    ("3p-2deals", Rules(players=3), 8, 1, None, 15),
    ("4p", Rules(players=4), 9, None, None, 17),
    ("4p-2deals", Rules(players=4), 10, 1, None, 16),
    ("6p", Rules(players=6), 11, None, None, 13),
    ("6alone-last", Rules(players=6, partnerships=False), 12, 0, None, 14),
    ("scopone", Rules(players=4, game="scopone"), 13, None, None, 6),
    ("scopone-5", Rules(players=4, game="scopone"), 14, None, 5, 9),
    ("scientifico", Rules(players=4, game="scientifico"), 15, None, None, 6),
    ("scientifico-4", Rules(players=4, game="scientifico"), 16, None, 4, 11),
]


def make_perft(progress: Optional[bool] = None) -> list[PerftEntry]:
    """The shipped perft positions with their counts at every depth up to theirs."""
    from ..play.game import random_position
    out = []
    bar = progress_bar(len(PERFT_SPECS), "perft", progress, unit="pos")
    for name, rules, seed, deals_left, per_hand, depth in PERFT_SPECS:
        pos = random_position(seed, deals_left, rules, per_hand)
        out.append(PerftEntry(name, pos, tuple(perft(pos, d) for d in range(1, depth + 1))))
        bar.update(1)
    bar.close()
    return out


def read_perft(source: Union[str, Path] = PERFT_FILE) -> list[PerftEntry]:
    """A perft file's entries (the shipped one by default)."""
    path = Path(source)
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name} line {number}"
        text, fields = parse_fields(line, where)
        try:
            pos = Position.from_string(text)
        except ScopaError as exc:
            raise SuiteError(f"{where}: {exc}") from None
        counts = []
        for d in range(1, MAX_DEPTH + 1):
            if f"D{d}" not in fields:
                break
            try:
                counts.append(int(fields[f"D{d}"]))
            except ValueError:
                raise SuiteError(f"{where}: D{d} must be a whole number, not {excerpt(fields[f'D{d}'])}") from None
        if not counts:
            raise SuiteError(f"{where}: no count (POSITION ; id ID ; D1 N1 ; D2 N2 ...)")
        out.append(PerftEntry(fields.get("id", f"perft-{number}"), pos, tuple(counts)))
    return out


def perft_text(entries: list[PerftEntry]) -> str:
    lines = ["# scopa-solver perft: the legal play sequences N plays deep from each position",
             "# (docs/benchmarks.md#perft). POSITION ; id ID ; D1 N1 ; D2 N2 ; ...",
             "# Rebuilt by: scopa-solver bench --make-suite DIR (positions: scopa_solver/bench/perft.py)"]
    for e in entries:
        lines.append(" ; ".join([e.position.to_string(), f"id {e.id}"]
                                + [f"D{d} {n}" for d, n in enumerate(e.counts, 1)]))
    return "\n".join(lines) + "\n"


def check_perft(entries: list[PerftEntry], progress: Optional[bool] = None,
                max_depth: Optional[int] = None) -> list[dict]:
    """Every entry's counts recomputed: [{id, depth, expected, counted, ok}] (up to `max_depth`)."""
    rows = []
    todo = [(e, d) for e in entries for d in range(1, len(e.counts) + 1) if max_depth is None or d <= max_depth]
    bar = progress_bar(len(todo), "perft", progress, unit="count")
    for e, d in todo:
        counted = perft(e.position, d)
        rows.append(dict(id=e.id, depth=d, expected=e.counts[d - 1], counted=counted, ok=counted == e.counts[d - 1]))
        bar.update(1)
    bar.close()
    return rows
