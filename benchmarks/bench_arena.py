"""Bot against bot in duplicate deals: the figures of README and docs/play.md.

    python benchmarks/bench_arena.py A B [C ...] [--rules OPTION ...] [--rounds N] [--matches M] [--seed S]
                                     [--worlds W] [--threads T] [--json]

A and B are random, greedy, pimc, infer, model, epimc (epimc:d=3,n=30,...) or oracle, or
EARLY/LATE (EARLY until the last three deals, LATE in them: greedy/pimc). `--rules` names the game with the notation's options
(`--rules players=4 game=scientifico`, `--rules players=3 target=16`; default two-player Scopa):
with two sides (two players, partnerships) A plays every seat of its side against B's; with
three or more sides every deal is played in every seating, and the bots are A, B, C, ... one
per side, B filling the sides not named (`pimc greedy --rules players=3`: PIMC against two
Greedy bots). `--worlds` is the PIMC bot's worlds per decision
(every world when there are at most 2,000, as at the last-but-one deal), `--threads` its workers.
Two more bots measure what the opponent's hidden hand is worth (docs/benchmarks.md, "What the hidden hand
costs"): `sees-hand` is PIMC that is shown the opponent's hand and draws only the stock,
`sees-hand-after` is shown it only once the opponent has played a card of the deal. Both see
it only while there are more than 2,000 worlds (the first four deals); later they are `pimc`.
`pimc-before` is PIMC with the family games' settings before the game's budgets (docs/play.md,
"Time budgets"): 100 worlds of `WORLD_NODES` nodes each, 2 s a decision; `pimc` (without
`--worlds`) has the game's (`PIMCBot`, `decision_seconds`).
``run(**options)`` returns the figures as a dict, ``report(figures)`` the text, ``main(argv)`` the
command line. Bot names are read by the package's `make_bot`, and here the two hand seers.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, Sequence, Union

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import random  # noqa: E402

from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.kernel import Limit  # noqa: E402
from scopa_solver.core.rules import Rules  # noqa: E402
from scopa_solver.errors import ScopaError  # noqa: E402
from scopa_solver.play.arena import ArenaResult, arena  # noqa: E402
from scopa_solver.play.bot_names import BOT_NAMES, make_bot  # noqa: E402
from scopa_solver.core.view import view_seed  # noqa: E402
from scopa_solver.play.bots import DECISION_SECONDS, Bot, PIMCBot, decision_seconds  # noqa: E402
from scopa_solver.core.cards import iter_cards  # noqa: E402
from scopa_solver.imperfect.pimc import EXACT_LIMIT, WORLD_NODES, solve_worlds, value_matrix  # noqa: E402

SEER_NAMES = ("sees-hand", "sees-hand-after")
BEFORE = "pimc-before"


class HandSeer(Bot):
    """A measuring device, not a player: PIMC shown the opponent's current hand (with `after`,
    only once the opponent has played a card of the deal), its worlds drawing only the stock.
    It peeks at the position, like the oracle."""

    def __init__(self, after: bool, worlds: int, seed: int, threads: Optional[int]) -> None:
        self.after, self.worlds, self.seed, self.threads = after, worlds, seed, threads
        self.pimc = PIMCBot(Limit(time=DECISION_SECONDS, threads=threads), worlds=worlds, seed=seed)
        self.name = f"PIMC({worlds}) shown the hand" + (" after a play" if after else "")

    def __call__(self, position):
        view = position.view(position.to_move)
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if view.count_worlds() <= EXACT_LIMIT or (self.after and view.opponent_cards == 3):
            return self.pimc.choose(view)
        rng = random.Random(view_seed(self.seed, view))
        hand = position.hands[1 - position.to_move]
        tuples = []
        for _ in range(self.worlds):
            stock = [c.mask for c in iter_cards(view.unseen & ~hand)]
            rng.shuffle(stock)
            tuples.append(view.state_of([hand] + [sum(stock[i:i + 3]) for i in range(0, len(stock), 3)]))
        values, _ = value_matrix(moves, solve_worlds(tuples, Limit(threads=self.threads)))
        mean = values.mean(axis=0)
        return moves[min(range(len(moves)), key=lambda j: (-mean[j], str(moves[j])))]


def bot(spec: str, worlds: Optional[int], seed: int, threads: Optional[int], rules: Optional[Rules] = None):
    """A hand seer by its name, `pimc-before`, else the bot `make_bot` makes of `spec` for the
    game of `rules` (`worlds` None: make_bot's default)."""
    if spec in SEER_NAMES:
        return HandSeer(spec.endswith("after"), worlds or 50, seed, threads)
    if spec == BEFORE:
        before = PIMCBot(Limit(time=DECISION_SECONDS, nodes=WORLD_NODES, threads=threads), worlds=worlds or 100,
                         seed=seed)
        before.name = f"PIMC({worlds or 100}) before"
        return before
    return make_bot(spec, Limit(time=decision_seconds(rules), threads=threads), worlds=worlds, seed=seed, rules=rules)


def run(bot_a: str, bot_b: str, rounds: int = 100, matches: int = 0, seed: int = 1, worlds: Optional[int] = None,
        threads: Optional[int] = 1, progress: Optional[bool] = None, rules: Union[Rules, str, Sequence[str]] = (),
        others: Sequence[str] = ()) -> dict:
    """Play `rounds` duplicate deals (and `matches` duplicate match pairs) of bot A against B in
    the game of `rules` (a Rules value or its option tokens); with three or more sides, A, B and
    `others` one per side (B filling the sides left), every deal in every seating."""
    if not isinstance(rules, Rules):
        rules = Rules.from_tokens(rules)
    sides = rules.side_count
    specs = [bot_a, bot_b, *others]
    if len(specs) > sides:
        raise ScopaError(f"{' '.join(rules.tokens()) or 'two-player Scopa'} has {sides} sides: "
                         f"at most {sides} bots, not {len(specs)}")
    if not rules.is_standard and any(spec in SEER_NAMES for spec in specs):
        raise ScopaError("the hand seers measure two-player Scopa only")
    specs += [bot_b] * (sides - len(specs))
    bots = [bot(spec, worlds, seed + j, threads, rules) for j, spec in enumerate(specs)]
    names = [getattr(b, "name", spec) for b, spec in zip(bots, specs)]
    if len(set(names)) < len(names) and sides > 2:      # tell the copies apart in the figures
        for j, b in enumerate(bots):
            b.name = f"{names[j]} {chr(ord('A') + j)}"
    if sides == 2:
        r = arena(bots[0], bots[1], rounds=rounds, seed=seed, matches=matches, progress=progress, rules=rules)
    else:
        r = arena(bots=bots, rounds=rounds, seed=seed, matches=matches, progress=progress, rules=rules)
    d = r.to_dict()   # JSON-ready: a figure that is not finite (one deal's spread) is None
    common = {"rules": rules.tokens(), "matches": r.matches, "decisions": d["decisions"],
              "bot_seconds": d["bot_seconds"], "seconds": r.seconds, "seed": seed, "worlds": worlds,
              "threads": threads, "text": str(r)}
    if not isinstance(r, ArenaResult):
        return {"bots": list(r.bots), "deals": r.deals, "seatings": r.seatings, "rounds": r.rounds_played,
                "mean_points": d["mean_points"], "ci95": d["ci95"], "round_wins": d["round_wins"],
                "round_ties": d["round_ties"], "match_win_rate": d["match_win_rate"],
                "match_ci95": d["match_ci95"], "points": d["points"], **common}
    return {"bot_a": r.bot_a, "bot_b": r.bot_b, "deals": r.deals, "rounds": r.rounds_played,
            "mean_margin": d["mean"], "ci95": d["ci95"], "stderr": d["stderr"],
            "a_points": d["a_points"], "b_points": d["b_points"], "round_wins": d["round_wins"],
            "round_ties": d["round_ties"], "match_win_rate": r.match_win_rate,
            "match_ci95": d["match_ci95"], "decisions_per_second": d["decisions_per_second"],
            "margins": d["margins"], **common}


def report(figures: dict) -> str:
    """The figures of `run` as text (ArenaResult's summary, kept in the figures as "text")."""
    return figures["text"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = OneLineParser(prog=Path(__file__).name, description="Bot against bot, duplicate deals, for every game of the family.")
    parser.add_argument("bot_a", help=f"{', '.join(BOT_NAMES + SEER_NAMES)}, pimc:N, infer:T, "
                        "or EARLY/LATE (e.g. greedy/pimc)")
    parser.add_argument("bot_b", help="as bot_a")
    parser.add_argument("others", nargs="*", help="with three or more sides: the bots of the next sides "
                        "(bot_b fills the sides not named)")
    parser.add_argument("--rules", nargs="+", default=[], metavar="OPTION",
                        help="the game as notation options: players=4 game=scientifico target=21 ...")
    parser.add_argument("--rounds", type=int, default=100, help="duplicate deals (each played twice, "
                        "or in every seating with three or more sides)")
    parser.add_argument("--matches", type=int, default=0, help="duplicate sets of matches to the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=None,
                        help="worlds per PIMC decision (default 50; pimc in a family game: the game's)")
    parser.add_argument("--threads", type=int, default=1, help="workers per PIMC decision (0: every core)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    try:
        result = run(args.bot_a, args.bot_b, rounds=args.rounds, matches=args.matches, seed=args.seed,
                     worlds=args.worlds, threads=args.threads, rules=args.rules, others=args.others)
    except ScopaError as exc:
        parser.error(str(exc))
    print(json.dumps(result, indent=2, allow_nan=False) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
