"""Random-playout speed: moves per second through the kernel and through the Python API.

Both engines play uniformly random moves from the same seeded new-round deals to the end of the
round: the kernel in C (``scopa_solver._kernel.random_playouts``), the Python API with
``Position.legal_moves()``, ``random.choice`` and ``Position.play()``. The kernel plays
``kernel_factor`` times as many rounds so that both timings are long enough to measure. Each
figure is the median over ``repeats`` runs.

    python benchmarks/bench_movegen.py [--rounds N] [--seed S] [--repeats R] [--json]

``run(**options)`` returns the figures as a dict, ``report(figures)`` the text table, ``main(argv)``
is the command line.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver import Position, Rules, kernel  # noqa: E402
from scopa_solver.cli.parser import OneLineParser  # noqa: E402

DEFAULT_ROUNDS = 2000
DEFAULT_REPEATS = 5
DEFAULT_KERNEL_FACTOR = 100


def deals(count: int, seed: int, rules: Rules = Rules()) -> list[Position]:
    """`count` seeded new-round positions, the dealer alternating."""
    rng = random.Random(seed)
    return [Position.new_round(seed=rng.getrandbits(64), rules=rules, dealer=i % 2) for i in range(count)]


def kernel_playouts(positions: Sequence[Position], per_position: int, seed: int) -> tuple[int, float]:
    """Play `per_position` random rounds from each position in the kernel: (moves, seconds)."""
    tuples = [p.kernel_state() for p in positions]
    start = time.perf_counter()
    moves = 0
    for i, t in enumerate(tuples):
        moves += kernel.random_playouts(t, per_position, seed * 1000003 + i + 1)
    return moves, time.perf_counter() - start


def python_playouts(positions: Sequence[Position], seed: int) -> tuple[int, float]:
    """Play one random round from each position through the Python API: (moves, seconds)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    moves = 0
    for pos in positions:
        while not pos.is_round_over():
            pos = pos.play(rng.choice(sorted(pos.legal_moves(), key=str)))
            moves += 1
    return moves, time.perf_counter() - start


def _summary(rounds: int, runs: list[tuple[int, float]]) -> dict:
    seconds = statistics.median(s for _, s in runs)
    moves = runs[0][0]
    return {"rounds": rounds, "moves": moves, "seconds": seconds,
            "moves_per_second": moves / seconds if seconds > 0 else float("inf"),
            "runs": [s for _, s in runs]}


def run(rounds: int = DEFAULT_ROUNDS, seed: int = 1, repeats: int = DEFAULT_REPEATS,
        kernel_factor: int = DEFAULT_KERNEL_FACTOR, rules: Rules = Rules()) -> dict:
    """Measure both engines on `rounds` seeded deals; the kernel plays `kernel_factor` rounds
    per deal, the Python API one. Returns {"kernel": {...}, "python": {...}, "ratio": ...}, each
    engine with rounds, moves, the median seconds and moves_per_second."""
    if rounds < 1 or repeats < 1 or kernel_factor < 1:
        raise ValueError("rounds, repeats and kernel_factor must be 1 or more")
    positions = deals(rounds, seed, rules)
    kernel_runs, python_runs = [], []
    for r in range(repeats):
        kernel_runs.append(kernel_playouts(positions, kernel_factor, seed + r))
        python_runs.append(python_playouts(positions, seed + r))
    kernel = _summary(rounds * kernel_factor, kernel_runs)
    python = _summary(rounds, python_runs)
    return {"seed": seed, "repeats": repeats, "rules": repr(rules), "kernel": kernel, "python": python,
            "ratio": kernel["moves_per_second"] / python["moves_per_second"]}


def report(result: dict) -> str:
    """The figures of `run` as an aligned text table."""
    header = ("engine", "rounds", "moves", "seconds", "moves/s")
    rows = [header]
    for name in ("kernel", "python"):
        e = result[name]
        rows.append((name, f"{e['rounds']:,}", f"{e['moves']:,}", f"{e['seconds']:.3f}",
                     f"{e['moves_per_second']:,.0f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [f"random playouts from new rounds: seed {result['seed']}, {result['rules']}, "
             f"median of {result['repeats']} repeats"]
    for row in rows:
        lines.append("  ".join(row[0].ljust(widths[0]) if i == 0 else cell.rjust(widths[i])
                               for i, cell in enumerate(row)))
    lines.append(f"kernel/python: {result['ratio']:,.0f}x")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help=f"deals played through the Python API per repeat (default {DEFAULT_ROUNDS})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the random moves")
    parser.add_argument("--repeats", type=int, default=DEFAULT_REPEATS,
                        help=f"runs per engine; the median is reported (default {DEFAULT_REPEATS})")
    parser.add_argument("--kernel-factor", type=int, default=DEFAULT_KERNEL_FACTOR,
                        help=f"kernel rounds per deal (default {DEFAULT_KERNEL_FACTOR})")
    parser.add_argument("--rules", nargs="*", default=[], metavar="OPTION",
                        help="rule options as in the notation: napola target=21 ...")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.repeats < 1 or args.kernel_factor < 1:
        parser.error("--rounds, --repeats and --kernel-factor must be 1 or more")
    try:
        rules = Rules.from_tokens(args.rules)
    except ValueError as exc:
        parser.error(str(exc))
    result = run(rounds=args.rounds, seed=args.seed, repeats=args.repeats, kernel_factor=args.kernel_factor,
                 rules=rules)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
