"""Rebuilding the shipped suites and the perft file from their seeds (`scopa-solver bench
--make-suite DIR`): the same positions every time; the values, best moves and node counts those
of the engine that runs it."""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from .. import kernel
from ..files import write_text_atomic
from ..progress import progress_bar
from .perft import make_perft, perft_text
from .run import best_moves, solve_one
from .suites import SUITES, Suite, SuiteEntry, suite_positions, suite_text

__all__ = ["make_suite", "make_suites"]


def make_suite(name: str, progress: Optional[bool] = None) -> Suite:
    """The shipped suite `name` solved afresh (one thread, a 64 MiB table, unlimited)."""
    spec = SUITES[name]
    searcher = kernel.new_searcher(64.0)
    want = kernel.WANT_BEST | kernel.WANT_PV
    how = (f"--deals-left {spec.deals_left}" if spec.deals_left is not None
           else f"--cards-per-hand {spec.cards_per_hand}")
    rules = " ".join(spec.rules.tokens())
    suite = Suite(name, header=[
        f"scopa-solver suite {name}: {spec.about}",
        f"{spec.count} positions: scopa-solver deal --seed S {how}" + (f" --rules {rules}" if rules else "")
        + f" for S = {spec.seed} .. {spec.seed + spec.count - 1}",
        "POSITION ; id ID ; value V (exact, for the side to move) ; best MOVES (every optimal move) ;"
        " nodes N (this engine's solve, one thread, empty 64 MiB table)",
        "Rebuilt by: scopa-solver bench --make-suite DIR (docs/benchmarks.md#suites)"])
    bar = progress_bar(spec.count, name, progress, unit="pos")
    for ident, pos in suite_positions(spec):
        raw, _ = solve_one(searcher, pos, want)
        suite.entries.append(SuiteEntry(ident, pos, raw.lower, best_moves(raw), raw.nodes))
        bar.update(1)
    bar.close()
    return suite


def make_suites(folder: str, names: Optional[Sequence[str]] = None, perft: bool = True,
                progress: Optional[bool] = None) -> list[Path]:
    """Write the suites `names` (default: every shipped one) and perft.txt into `folder`."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or list(SUITES):
        path = out / f"{name}.txt"
        write_text_atomic(path, suite_text(make_suite(name, progress)))
        written.append(path)
    if perft:
        path = out / "perft.txt"
        write_text_atomic(path, perft_text(make_perft(progress)))
        written.append(path)
    return written
