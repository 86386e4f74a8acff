"""Fit the learned opponent model (scopa_solver/imperfect/learned.py) to a bot's self-play.

    python benchmarks/fit_opponent.py [--rounds N] [--seed S] [--worlds W] [--bot model]

Records the decisions of bot A (`make_bot` name, default `model`: InferenceBot) playing
against a copy of itself with another seed, fits `GreedyBot`'s weights (temperature 1) to four
fifths of the rounds and reports the mean log-likelihood of the held-out fifth under the fit and
under the fixed model (Greedy's weights at temperature 0.5), then prints the weights as JSON.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

try:
    import scopa_solver  # noqa: F401
except ImportError:  # run from a checkout that is not installed: use the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopa_solver.imperfect.learned import FEATURES, fit_policy, log_likelihood, record_decisions  # noqa: E402
from scopa_solver.play.arena import make_bot  # noqa: E402
from scopa_solver.play.bots import GreedyBot  # noqa: E402


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=30)
    parser.add_argument("--bot", default="model")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    bot = make_bot(args.bot, worlds=args.worlds, seed=args.seed, threads=1)
    other = make_bot(args.bot, worlds=args.worlds, seed=args.seed + 1, threads=1)
    samples = record_decisions(bot, other, args.rounds, seed=args.seed)
    cut = len(samples) * 4 // 5
    train, test = samples[:cut], samples[cut:]
    weights = fit_policy(train)
    fixed = {k: v / 0.5 for k, v in GreedyBot().weights.items()}
    out = {"bot": getattr(bot, "name", args.bot), "rounds": args.rounds, "seed": args.seed,
           "decisions": len(samples), "weights": weights,
           "held_out_loglik": {"learned": log_likelihood(test, weights), "greedy_T0.5": log_likelihood(test, fixed)},
           "train_loglik": {"learned": log_likelihood(train, weights), "greedy_T0.5": log_likelihood(train, fixed)},
           "seconds": time.perf_counter() - start}
    print(json.dumps(out, indent=1))
    assert tuple(weights) == FEATURES
    return out


if __name__ == "__main__":
    main()
