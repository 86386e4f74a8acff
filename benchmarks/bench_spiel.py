"""Our PIMC against OpenSpiel's IS-MCTS at equal time per move, in duplicate deals: the figures
of docs/benchmarks.md and docs/research.md.

    python benchmarks/bench_spiel.py [--game scopa|scopone] [--seconds T] [--rounds N] [--seed S] [--json]

Both bots get `--seconds` of wall clock a decision: PIMC (`PIMCBot`, one thread, up to 10,000
worlds, every world once there are at most 2,000) stops at its budget and plays the best move
of the worlds solved by then (Greedy when not one was); IS-MCTS (OpenSpiel's Python ISMCTSBot,
random rollouts, UCT c = 2, the most visited move) runs simulations until the same budget.
A decision with one legal move takes no time for either. Each deal is played twice with the
sides swapped (our duplicate arena); the figure is PIMC's mean round margin with its 95% CI.
A progress bar shows on a terminal; Ctrl-C stops the run.
``run(**options)`` returns the figures as a dict, ``report(figures)`` the text, ``main(argv)``
the command line. Needs the spiel extra (pip install 'scopa-solver[spiel]').
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, Sequence

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.core.rules import Rules  # noqa: E402
from scopa_solver.play.arena import arena  # noqa: E402
from scopa_solver.kernel import Limit  # noqa: E402
from scopa_solver.play.bots import PIMCBot  # noqa: E402

GAMES = {"scopa": Rules(), "scopone": Rules(players=4, game="scopone")}


def run(game: str = "scopa", seconds: float = 0.5, rounds: int = 10, seed: int = 1,
        simulations: int = 10 ** 9, progress: Optional[bool] = None) -> dict:
    """PIMC against IS-MCTS on `rounds` duplicate deals of `game`, `seconds` a decision each;
    with IS-MCTS's simulations per decision (mean over its decisions with a choice)."""
    from scopa_solver.spiel import ismcts_chooser
    pimc = PIMCBot(Limit(time=seconds, threads=1), worlds=10_000, seed=seed)
    ismcts = ismcts_chooser(seconds=seconds, simulations=simulations, seed=seed)
    counts: list[int] = []

    def counted(position):
        ismcts.last_bot = None
        move = ismcts(position)
        if ismcts.last_bot is not None:
            counts.append(ismcts.last_bot.simulations)
        return move

    counted.name = ismcts.name
    result = arena(pimc, counted, rounds=rounds, seed=seed, rules=GAMES[game], progress=progress)
    return {"game": game, "decision_seconds": seconds, "simulations": simulations, **result.to_dict(),
            "ismcts_simulations": sum(counts) / len(counts) if counts else None, "text": str(result)}


def report(figures: dict) -> str:
    sims = figures["ismcts_simulations"]
    return (f"{GAMES[figures['game']].name}, {figures['decision_seconds']:g} s a decision "
            f"({figures['seconds']:.0f} s in all; IS-MCTS: "
            f"{'-' if sims is None else format(sims, '.0f')} simulations a decision)\n{figures['text']}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = OneLineParser(prog=Path(__file__).name,
                           description="PIMC against OpenSpiel's IS-MCTS at equal time per move")
    parser.add_argument("--game", choices=sorted(GAMES), default="scopa")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be above 0 and --rounds at least 1")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        parser.error("OpenSpiel is missing: pip install 'scopa-solver[spiel]'")
    figures = run(args.game, args.seconds, args.rounds, args.seed)
    print(json.dumps(figures, allow_nan=False) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
