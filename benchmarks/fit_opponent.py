"""Fit the learned opponent model (scopa_solver/imperfect/learned.py) to a bot's self-play.

    python benchmarks/fit_opponent.py [--rounds N] [--seed S] [--worlds W] [--bot model] [--json]

Records the decisions of bot A (`make_bot` name, default `model`: InferenceBot) playing
against a copy of itself with another seed, fits `GreedyBot`'s weights (temperature 1) to four
fifths of the rounds and reports the mean log-likelihood of the held-out fifth under the fit and
under the fixed model (Greedy's weights at temperature 0.5), and the weights.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver.cli.parser import OneLineParser  # noqa: E402
from scopa_solver.errors import ScopaError  # noqa: E402
from scopa_solver.imperfect.learned import FEATURES, fit_policy, log_likelihood, record_decisions  # noqa: E402
from scopa_solver.play.arena import make_bot  # noqa: E402
from scopa_solver.play.bots import GreedyBot  # noqa: E402


def run(rounds: int = 100, seed: int = 1, worlds: int = 30, bot: str = "model") -> dict:
    """Record, fit and score (see the module docstring): the figures as a dict."""
    start = time.perf_counter()
    player = make_bot(bot, worlds=worlds, seed=seed, threads=1)
    other = make_bot(bot, worlds=worlds, seed=seed + 1, threads=1)
    samples = record_decisions(player, other, rounds, seed=seed)
    cut = len(samples) * 4 // 5
    train, test = samples[:cut], samples[cut:]
    weights = fit_policy(train)
    assert tuple(weights) == FEATURES
    fixed = {k: v / 0.5 for k, v in GreedyBot().weights.items()}
    return {"bot": getattr(player, "name", bot), "rounds": rounds, "seed": seed, "decisions": len(samples),
            "weights": weights,
            "held_out_loglik": {"learned": log_likelihood(test, weights), "greedy_T0.5": log_likelihood(test, fixed)},
            "train_loglik": {"learned": log_likelihood(train, weights), "greedy_T0.5": log_likelihood(train, fixed)},
            "seconds": time.perf_counter() - start}


def report(out: dict) -> str:
    """The figures of `run` as text."""
    held, train = out["held_out_loglik"], out["train_loglik"]
    return "\n".join([
        f"{out['bot']}: {out['decisions']} decisions over {out['rounds']} rounds (seed {out['seed']})",
        "  weights (temperature 1): " + ", ".join(f"{k}={v:g}" for k, v in out["weights"].items()),
        f"  mean log-likelihood, held out: learned {held['learned']:.4f}, Greedy at T=0.5 {held['greedy_T0.5']:.4f}",
        f"  mean log-likelihood, fitted on: learned {train['learned']:.4f}, Greedy at T=0.5 {train['greedy_T0.5']:.4f}"])


def main(argv=None) -> None:
    parser = OneLineParser(prog=Path(__file__).name, description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=30)
    parser.add_argument("--bot", default="model")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        out = run(args.rounds, args.seed, args.worlds, args.bot)
    except ScopaError as exc:      # an unknown bot: one line naming the known ones
        parser.error(str(exc))
    print(json.dumps(out, indent=1) if args.json else report(out))


if __name__ == "__main__":
    main()
