"""Horizon search benchmark: how good the static evaluation is where the exact answer is known.

On seeded positions whose exact values are affordable (random play from `Position.new_round`),
every position is solved exactly and searched to several horizons (plies below the position);
per row and horizon: the mean absolute error of the value against the exact value, their
correlation, how often the horizon search's chosen move (the first of its best moves, in the
kernel's order) is an exact best move, the mean regret of that move (the exact value lost by
playing it, in round points), and the median nodes and milliseconds of a search from a cleared
table (the exact search's: the value and every optimal move). Horizon "static" is the evaluation of the position itself, "score so far" the
round points the piles hold now (scopas included): the baseline the evaluation has to beat.
Run from the repository root with PYTHONPATH=. so that the package of this checkout is measured.

    python benchmarks/bench_horizon.py [--positions 20] [--seed 2026] [--rows NAME,...] [--json FILE]
"""
from __future__ import annotations

import json
import math
import os
import random
import statistics
import sys
from typing import Optional, Sequence

from scopa_solver import Position, Rules
from scopa_solver.cli.parser import OneLineParser, names_arg
from scopa_solver.kernel import (
    WANT_ALL, WANT_BEST, evaluate, legal_moves, play, score, new_searcher,
)

# name: (rules, plies left: cards in hands + stock)
ROWS = {
    "two-2deals": (Rules(), 12),
    "two-round": (Rules(), 30),
    "scientifico-4": (Rules(players=4, game="scientifico"), 16),
    "scientifico-5": (Rules(players=4, game="scientifico"), 20),
    "scientifico-6": (Rules(players=4, game="scientifico"), 24),
    "scopone-5": (Rules(players=4, game="scopone"), 20),
    "scopa4-2deals": (Rules(players=4), 24),
    "paranoid3-2deals": (Rules(players=3), 18),
    "paranoid3-3deals": (Rules(players=3), 27),
    "paranoid6-round": (Rules(players=6), 30),
    "fifteen-round": (Rules(capture="fifteen"), 30),
}
HORIZONS = (2, 4, 6, 8, 12)


def plies_left(state) -> int:
    return sum(bin(m).count("1") for m in state.hands) + 3 * state.players * len(state.deals)


def positions(name: str, count: int, seed: int) -> list:
    rules, left = ROWS[name]
    rng = random.Random(f"{seed}-{name}")
    out = []
    for _ in range(count):
        state = Position.new_round(seed=rng.getrandbits(32), rules=rules).kernel_state()
        while plies_left(state) > left:
            state, _ = play(state, rng.choice(legal_moves(state)))
        out.append(state)
    return out


def score_so_far(state) -> int:
    """The mover's side's round points now minus the best other side's (scopas included)."""
    points = score(state.piles, state.scopas, state.sides, state.rules)["points"]
    me = state.sides[state.to_move]
    return points[me] - max(p for side, p in enumerate(points) if side != me)


def static_value(state) -> int:
    """The evaluation of the position itself as a value for the seat to move (the search's)."""
    _, value = evaluate(state)
    me = state.sides[state.to_move]
    if len(set(state.sides)) == 2:              # points to come: add the scopas made
        made = [0, 0]
        for seat, scopas in enumerate(state.scopas):
            made[state.sides[seat]] += scopas
        value += made[me] - made[1 - me]
    return value


def _correlation(x: list, y: list) -> Optional[float]:
    if len(x) < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    mx, my = statistics.fmean(x), statistics.fmean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sx = math.sqrt(sum((a - mx) ** 2 for a in x))
    sy = math.sqrt(sum((b - my) ** 2 for b in y))
    return sxy / (sx * sy)


def _summary(values: list, exact: list, agree: list, nodes: list, ms: list, regret: list = ()) -> dict:
    return {"mae": statistics.fmean(abs(v - e) for v, e in zip(values, exact)),
            "regret": statistics.fmean(regret) if regret else None,
            "bias": statistics.fmean(v - e for v, e in zip(values, exact)),
            "correlation": _correlation(values, exact),
            "best_move_agrees": statistics.fmean(agree) if agree else None,
            "median_nodes": statistics.median(nodes) if nodes else None,
            "median_ms": statistics.median(ms) if ms else None}


def run(rows: Optional[Sequence[str]] = None, count: int = 20, seed: int = 2026,
        horizons: Sequence[int] = HORIZONS, tt_mb: float = 16.0, progress: bool = False) -> dict:
    """Figures per row: the exact search's effort, then per horizon (and "static", "score so
    far") the value's error against the exact value and the best move's agreement."""
    searcher = new_searcher(tt_mb)
    figures: dict = {"seed": seed, "positions": count, "rows": {}}
    for name in rows or list(ROWS):
        states = positions(name, count, seed)
        exact, best, move_values, nodes, ms = [], [], [], [], []
        for state in states:
            searcher.clear()
            r = searcher.search(state, WANT_BEST)
            exact.append(r.lower)
            best.append(set(r.best))
            nodes.append(r.nodes)
            ms.append(1000 * r.seconds)
            searcher.clear()
            every = searcher.search(state, WANT_ALL)
            move_values.append({m: lo for m, (lo, _) in zip(every.moves, every.move_bounds)})
        row = {"plies": ROWS[name][1], "exact": {"median_nodes": statistics.median(nodes),
                                                 "median_ms": statistics.median(ms)}}
        row["score so far"] = _summary([score_so_far(s) for s in states], exact, [], [], [])
        row["static"] = _summary([static_value(s) for s in states], exact, [], [], [])
        for h in horizons:
            values, agree, regret, nodes, ms = [], [], [], [], []
            for state, good, value, by_move in zip(states, best, exact, move_values):
                searcher.clear()
                r = searcher.search(state, WANT_BEST, horizon=h)
                values.append(r.lower)
                agree.append(r.best[0] in good)
                regret.append(value - by_move[r.best[0]])
                nodes.append(r.nodes)
                ms.append(1000 * r.seconds)
            row[str(h)] = _summary(values, exact, agree, nodes, ms, regret)
        figures["rows"][name] = row
        if progress:
            print(report({"rows": {name: row}, "seed": seed, "positions": count}, header=False),
                  file=sys.stderr, flush=True)
    return figures


def report(figures: dict, header: bool = True) -> str:
    lines = []
    if header:
        lines.append(f"{figures['positions']} positions a row, seed {figures['seed']}; values in round "
                     f"points; agree = the horizon's move is an exact best move")
        lines.append(f"{'row':17} {'horizon':>12} {'MAE':>5} {'bias':>6} {'corr':>5} {'agree':>6} "
                     f"{'regret':>6} {'med nodes':>10} {'med ms':>8}")
    for name, row in figures["rows"].items():
        for key, s in row.items():
            if key in ("plies", "exact"):
                continue
            corr = "" if s["correlation"] is None else f"{s['correlation']:.2f}"
            agree = "" if s["best_move_agrees"] is None else f"{100 * s['best_move_agrees']:.0f}%"
            nodes = "" if s["median_nodes"] is None else f"{s['median_nodes']:.0f}"
            ms = "" if s["median_ms"] is None else f"{s['median_ms']:.2f}"
            regret = "" if s["regret"] is None else f"{s['regret']:.2f}"
            lines.append(f"{name:17} {key:>12} {s['mae']:5.2f} {s['bias']:+6.2f} {corr:>5} {agree:>6} "
                         f"{regret:>6} {nodes:>10} {ms:>8}")
        e = row["exact"]
        lines.append(f"{name:17} {'exact':>12} {'':5} {'':6} {'':5} {'':6} {'':6} {e['median_nodes']:10.0f} "
                     f"{e['median_ms']:8.2f}   ({row['plies']} plies left)")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = OneLineParser(prog=os.path.basename(__file__), description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rows", type=names_arg(ROWS, "row"), default=",".join(ROWS))
    ap.add_argument("--horizons", default=",".join(map(str, HORIZONS)))
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    figures = run(args.rows, args.positions, args.seed,
                  [int(h) for h in args.horizons.split(",")], progress=True)
    print(report(figures))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
