"""Train a simple agent in the PettingZoo environment and evaluate it against our Greedy bot.

    python examples/pettingzoo_agent.py [--episodes N] [--games M] [--seed S]

The agent is a linear softmax policy over the legal actions (the environment's mask), trained by
REINFORCE with a running baseline on the round margin, seated in turn as player 0 and player 1
against `GreedyBot` in two-player Scopa. It shows the loop, not a learner that works: measured
with the defaults' 3,000 episodes (`--episodes 3000 --games 200`), it is no better than the
random agent (-1.57 against -1.56 a round over 200 new deals). Needs the rl extra
(pip install 'scopa-solver[rl]').
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # the checkout's package

from scopa_solver.env import ScopaEnv  # noqa: E402
from scopa_solver.play.bots import GreedyBot  # noqa: E402


class LinearAgent:
    """Softmax over the legal actions of W @ (observation, 1)."""

    def __init__(self, size: int, actions: int, seed: int) -> None:
        self.w = np.zeros((actions, size + 1))
        self.rng = np.random.default_rng(seed)

    def policy(self, observation: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x = np.append(observation["observation"], 1.0)
        legal = np.flatnonzero(observation["action_mask"])
        logits = self.w[legal] @ x
        p = np.exp(logits - logits.max())
        return x, legal, p / p.sum()

    def act(self, observation: dict, greedy: bool = False) -> tuple[int, tuple]:
        x, legal, p = self.policy(observation)
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), (x, legal, p, k)


def play(env: ScopaEnv, agent: Optional[LinearAgent], seat: int, seed: int, greedy: bool = False,
         rng: Optional[np.random.Generator] = None) -> tuple[float, list]:
    """One round, the agent (None: uniform over the mask) at `seat`, Greedy at the other; the
    agent's return and its decisions."""
    env.reset(seed=seed)
    me, opponent, steps, total = f"player_{seat}", GreedyBot(), [], 0.0
    for name in env.agent_iter():
        observation, reward, done, _, _ = env.last()
        if name == me:
            total += reward
        if done:
            env.step(None)
        elif name != me:
            env.step(env.bot_action(opponent))
        elif agent is None:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        else:
            action, step = agent.act(observation, greedy)
            steps.append(step)
            env.step(action)
    return total, steps


def main(argv: Optional[Sequence[str]] = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.01)
    args = parser.parse_args(argv)
    env = ScopaEnv()
    size = env.observation_space("player_0")["observation"].shape[0]
    agent = LinearAgent(size, env.action_space("player_0").n, args.seed)
    baseline = 0.0
    for episode in range(args.episodes):
        ret, steps = play(env, agent, episode % 2, seed=args.seed * 1_000_003 + episode)
        baseline += 0.01 * (ret - baseline)
        for x, legal, p, k in steps:         # REINFORCE: grad log p[k] = x (onehot(k) - p)
            grad = -p
            grad[k] += 1.0
            agent.w[legal] += args.rate * (ret - baseline) * np.outer(grad, x)
    rng = np.random.default_rng(args.seed)
    evaluation = range(10 ** 6, 10 ** 6 + args.games)       # deals never trained on
    trained = [play(env, agent, g % 2, g, greedy=True)[0] for g in evaluation]
    uniform = [play(env, None, g % 2, g, rng=rng)[0] for g in evaluation]
    figures = {"trained_episodes": args.episodes, "evaluated": args.games,
               "trained_margin": float(np.mean(trained)), "random_margin": float(np.mean(uniform))}
    print(f"after {args.episodes} episodes, over {args.games} new deals against Greedy: "
          f"trained agent {figures['trained_margin']:+.2f} a round, random agent {figures['random_margin']:+.2f}")
    return figures


if __name__ == "__main__":
    main()
