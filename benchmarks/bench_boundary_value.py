"""What a deal's start is worth: which estimate predicts how real rounds end, and a learned one.

    python benchmarks/bench_boundary_value.py record --rounds N --seed S --bot model [--against greedy] --out F.jsonl
    python benchmarks/bench_boundary_value.py score F.jsonl [F2.jsonl ...] [--redeals K] [--json] [--fit-out T.json]

The question behind it (docs/play.md, "a value learned at the deal's end"): EPIMC's bottom, in
an early deal, solves each sampled world to the round's end as if both players saw the later
deals. Would a value learned from real play at the deal's end do better?

`record` plays `--rounds` rounds of `--bot` (seat 0; a `make_bot` name) against `--against`
(default: a copy of itself with another seed), the deal's first seat alternating, and writes
per round every position just after a new deal (deals 2 to 6) and the round's final margin of
seat 0, one JSON line a round (a new file: an existing one is never overwritten).

`score` values each boundary for its seat to move, in points still to come (the scopas made
before it left out), and compares per deal how well each estimate predicts the points that
really came (mean squared error, correlation, and the difference from exact's error with its
standard error):

- exact: the mean, over `--redeals` re-deals of the cards neither player has seen (the new
  hands and the stock shuffled together), of the exact value (both players seeing everything);
- static: the mean of the horizon search's static evaluation (family_eval.pxi) over them;
- exact, rescaled: a + b x exact, fitted;
- learned: least squares on the static margin and kernel.LEARNED_FEATURE_NAMES' features;
- learned + exact: the same with the exact mean as one more feature.

Fits are per deal and scored on held-out rounds (five folds by round). The realized points are
the true worth of the boundary to these players plus noise that is the same for every estimate,
so the differences between their errors are the differences in how far each is from that worth.
`--fit-out` writes the learned weights, fitted on every boundary, as the table
`kernel.family_eval_learned` takes (bench_arena.py --learned-eval FILE).
"""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Optional

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from scopa_solver import Position, play_round, solve_many  # noqa: E402
from scopa_solver import kernel  # noqa: E402
from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.core.cards import Card, iter_cards, popcount  # noqa: E402
from scopa_solver.play.arena import make_bot  # noqa: E402


def record(rounds: int, seed: int, bot: str, worlds: int, out: Path, against: Optional[str] = None) -> None:
    """Rounds of `bot` (seat 0) against `against` (default: a copy of itself): each round's
    boundaries and final margin as one JSON line."""
    a = make_bot(bot, worlds=worlds, seed=seed, threads=1)
    b = make_bot(against or bot, worlds=worlds, seed=seed + 10_000, threads=1)
    start = time.perf_counter()
    with open(out, "x") as f:
        for r in range(rounds):
            result = play_round(Position.new_round(seed=f"{seed}:{r}", dealer=r % 2), a, b)
            pos, boundaries = result.start, []
            for move in result.moves:
                after = pos.play(move)
                if len(after.stock) < len(pos.stock) and not after.is_round_over():
                    boundaries.append(after.to_string())
                pos = after
            points = result.points
            f.write(json.dumps({"round": r, "boundaries": boundaries, "margin": points[0] - points[1]}) + "\n")
            f.flush()
            if (r + 1) % 50 == 0:
                print(f"{r + 1} rounds, {time.perf_counter() - start:.0f} s", file=sys.stderr)


def redeal(pos: Position, rng: random.Random) -> Position:
    """The boundary with the new hands and the stock shuffled together."""
    unseen = [c for h in pos.hands for c in iter_cards(h)] + list(pos.stock)
    rng.shuffle(unseen)
    n0, n1 = map(popcount, pos.hands)
    return Position(hands=(unseen[:n0], unseen[n0:n0 + n1]), table=pos.table, stock=unseen[n0 + n1:],
                    captured=pos.piles, scopas=pos.scopas, to_move=pos.to_move, dealer=pos.dealer,
                    last_capturer=pos.last_capturer, rules=pos.rules)


SETTEBELLO = Card("7d")


def features(pos: Position, static: float) -> list[float]:
    """The learned value's features of a fresh deal (kernel.LEARNED_FEATURE_NAMES), for the seat
    to move: written here from the rules, independently of ext/family_eval.pxi."""
    me, other = pos.to_move, 1 - pos.to_move
    mine, theirs = (list(iter_cards(pos.piles[p])) for p in (me, other))

    def lead(test) -> int:
        return sum(map(test, mine)) - sum(map(test, theirs))

    return [1.0, static, len(mine) - len(theirs), lead(lambda c: c.suit == "d"), lead(lambda c: c.rank == 7),
            lead(lambda c: c == SETTEBELLO),
            1.0 if pos.last_capturer == me else -1.0 if pos.last_capturer == other else 0.0,
            len(list(iter_cards(pos.table))), sum(c.value for c in iter_cards(pos.table)) / 10]


def boundaries(files: list[Path], redeals: int, seed: int) -> list[tuple]:
    """Every recorded boundary, for its seat to move: (deals to play, round id, points to come
    realized, exact mean, static mean, features); points to come leave out the scopas made."""
    rows = []
    for fi, path in enumerate(files):
        for n, line in enumerate(open(path), 1):
            try:
                rec = json.loads(line)
                rows += [(fi * 100_000 + int(rec["round"]), Position.from_string(text), int(rec["margin"]))
                         for text in rec["boundaries"]]
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}, line {n}: not a record of `record` ({exc})") from None
    rng = random.Random(seed)
    worlds = [[redeal(pos, rng) for _ in range(redeals)] for _, pos, _ in rows]
    values = [r.value for r in solve_many([w for ws in worlds for w in ws], threads=0)]
    table = []
    for i, (rid, pos, margin) in enumerate(rows):
        me = pos.to_move
        made = pos.scopas[me] - pos.scopas[1 - me]
        static = []
        for w in worlds[i]:
            e, _ = kernel.family_evaluate(w.family_state(), me)
            static.append(e[me] - e[1 - me])
        exact = np.mean(values[i * redeals:(i + 1) * redeals]) - made
        realized = (margin if me == 0 else -margin) - made
        deals = (6 + len(pos.stock)) // 6
        table.append((deals, rid, realized, float(exact), float(np.mean(static)),
                      features(pos, float(np.mean(static)))))
    return table


def run(files: list[Path], redeals: int = 16, seed: int = 1) -> dict:
    """`score`: how well each estimate predicts the realized points to come, per deal; and the learned
    weights (fitted on every boundary) as `table` for kernel.family_eval_learned."""
    start = time.perf_counter()
    table = boundaries(files, redeals, seed)
    out = {"boundaries": len(table), "redeals": redeals, "seconds": time.perf_counter() - start,
           "deals": {}, "table": {}}
    for deals in sorted({t[0] for t in table}, reverse=True):
        sel = [t for t in table if t[0] == deals]
        y = np.array([t[2] for t in sel], float)
        ex = np.array([t[3] for t in sel])
        x_learned = np.array([t[5] for t in sel])
        x_all = np.column_stack([x_learned, ex])
        x_exact = np.column_stack([np.ones(len(sel)), ex])
        folds = np.array([t[1] % 5 for t in sel])

        def held_out(x):
            pred = np.empty_like(y)
            for k in range(5):
                train, test = folds != k, folds == k
                coef, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
                pred[test] = x[test] @ coef
            return pred

        preds = {"exact": ex, "static": np.array([t[4] for t in sel]), "exact, rescaled": held_out(x_exact),
                 "learned": held_out(x_learned), "learned + exact": held_out(x_all)}
        base = (y - ex) ** 2
        entry = {"n": len(sel), "realized_var": float(y.var())}
        for name, p in preds.items():
            err = (y - p) ** 2
            d = err - base
            entry[name] = {"mse": float(err.mean()), "corr": float(np.corrcoef(y, p)[0, 1]),
                           "vs_exact": float(d.mean()), "vs_exact_se": float(d.std(ddof=1) / np.sqrt(len(d)))}
        out["deals"][deals] = entry
        coef, *_ = np.linalg.lstsq(x_learned, y, rcond=None)
        out["table"][deals] = [round(float(c), 4) for c in coef]
    return out


def report(out: dict) -> str:
    lines = [f"{out['boundaries']} boundaries, {out['redeals']} re-deals each ({out['seconds']:.0f} s);"
             " points to come for the seat to move",
             "deals to play  n     var    estimate           MSE     corr   MSE - exact's (SE)"]
    for deals, e in out["deals"].items():
        for name in ("exact", "static", "exact, rescaled", "learned", "learned + exact"):
            f = e[name]
            lines.append(f"{deals:>13}  {e['n']:<5} {e['realized_var']:5.2f}  {name:<17} {f['mse']:6.3f}  "
                         f"{f['corr']:.3f}  {f['vs_exact']:+.3f} ({f['vs_exact_se']:.3f})")
    lines.append("learned weights (" + ", ".join(kernel.LEARNED_FEATURE_NAMES) + "):")
    lines += [f"  {deals}: {w}" for deals, w in out["table"].items()]
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--rounds", type=int, default=100)
    rec.add_argument("--seed", type=int, default=1)
    rec.add_argument("--bot", default="model")
    rec.add_argument("--against", default=None, help="seat 1's bot (default: the same as seat 0's)")
    rec.add_argument("--worlds", type=int, default=50)
    rec.add_argument("--out", type=Path, required=True)
    sc = sub.add_parser("score")
    sc.add_argument("files", type=Path, nargs="+")
    sc.add_argument("--redeals", type=int, default=16)
    sc.add_argument("--seed", type=int, default=1)
    sc.add_argument("--json", action="store_true")
    sc.add_argument("--fit-out", type=Path, help="write the learned weights (kernel.family_eval_learned's table)")
    args = parser.parse_args(argv)
    try:
        if args.command == "record":
            record(args.rounds, args.seed, args.bot, args.worlds, args.out, args.against)
            return
        if args.fit_out and args.fit_out.exists():
            raise FileExistsError(f"{args.fit_out} exists: not overwritten")
        out = run(args.files, args.redeals, args.seed)
        print(json.dumps(out, indent=1) if args.json else report(out))
        if args.fit_out:
            with open(args.fit_out, "x") as f:
                json.dump({"learned": out["table"], "from": [str(p) for p in args.files]}, f, indent=1)
    except (OSError, ValueError, KeyError, TypeError) as exc:     # ScopaError is a ValueError
        parser.error(str(exc))


if __name__ == "__main__":
    main()
