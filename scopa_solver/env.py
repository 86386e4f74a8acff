"""Every game of the family as a PettingZoo AEC environment (Gymnasium spaces).

One episode is one round (`ScopaEnv(rules)`; docs/research.md). Agents are ``player_0`` ...
``player_{N-1}`` (seat numbers); the agent to act is the seat to move.

- Actions: ``Discrete(81)``, the fixed actions of `scopa_solver.play.actions`: a card's index
  (0-39) plays it; when it can take in several ways the same agent then names the cards taken
  (``TAKE + t``, in index order) and ``DONE`` closes the move where needed. The mask gives the
  legal ones; an illegal action is an `IllegalMoveError`.
- Observations: ``{"observation": Box, "action_mask": Box(81)}``; the observation is what the
  seat sees, never a hidden card (`actions.fill_observation`): its hand, the table, every pile,
  the card being played and the cards taken so far, every seat's scopas and hand size, the seat
  to move, the dealer, the last capturer, the seat itself and the stock's size.
- Rewards: at the round's end only, the seat's side's points minus the mean of the other
  sides' (the margin with two sides); zero-sum.
- Seeding: ``reset(seed=S)`` deals the package's shuffled deck of seed S (`Position.new_round`,
  the three-kings redeal included); a reset without a seed deals the next deal of the last seed.

The rules are the kernel's (`kernel.play`, `kernel.legal_moves`). Needs the rl extra:
``pip install 'scopa-solver[rl]'``.

>>> env = ScopaEnv()
>>> env.reset(seed=1)
>>> env.agent_selection, [env.action_text(a) for a in env.legal_actions()]
('player_0', ['3c', 'Cs', 'Rb'])
>>> env.step(39)                     # the king can take in two ways: name the cards taken
>>> env.agent_selection, [env.action_text(a) for a in env.legal_actions()]
('player_0', ['take 7c', 'take As'])
>>> env.step(56)
>>> str(env.moves[-1][1]), env.agent_selection
('Rbx7c+3s', 'player_1')
"""
from __future__ import annotations

import random
from typing import Any, Optional

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError:
    raise ImportError("scopa_solver.env needs PettingZoo and Gymnasium: pip install 'scopa-solver[rl]'") from None

from . import kernel
from .core.position import Move, Position
from .core.rules import Rules
from .errors import RulesError, excerpt
from .play import actions
from .play.actions import NUM_ACTIONS

__all__ = ["ScopaEnv", "env"]


class ScopaEnv(AECEnv):
    """One round of a game of the family as an AEC environment (see the module docstring).
    `dealer` is the seat that deals (None: the last seat)."""

    metadata = {"render_modes": ["ansi"], "name": "scopa_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules = Rules(), dealer: Optional[int] = None, render_mode: Optional[str] = None) -> None:
        super().__init__()
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules value (e.g. Rules(players=4)), not {excerpt(rules)}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {excerpt(render_mode)}")
        n = rules.players
        self.rules, self.dealer, self.render_mode = rules, n - 1 if dealer is None else dealer, render_mode
        if not isinstance(self.dealer, int) or not 0 <= self.dealer < n:
            raise RulesError(f"dealer must be a seat from 0 to {n - 1}, not {excerpt(dealer)}")
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.agents = self.possible_agents[:]
        size = actions.observation_size(n)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=0, high=40, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: Optional[kernel.KernelState] = None
        self.pending: actions.Pending = None
        self.moves: list[tuple[int, Move]] = []

    def _live(self) -> kernel.KernelState:
        """The kernel state of the round being played."""
        if self.state is None:
            raise RuntimeError("no round yet: call reset() first")
        return self.state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            for space in self.action_spaces.values():
                space.seed(seed)
        self.start = Position.new_round(seed=self._rng.getrandbits(64), rules=self.rules, dealer=self.dealer)
        state = self.state = self.start.kernel_state()
        self.pending = None
        self.moves = []
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[state.to_move]

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to act."""
        state = self._live()
        return [] if actions.is_over(state) else actions.legal_actions(state, self.pending)

    def bot_action(self, bot: Any) -> int:
        """The next action of one of our bots (a chooser: position -> move, like
        `make_bot("greedy")`) as the agent to act: the first action of its move, or the next
        one of the move being named (the bot decides from the seat's view, so the same move)."""
        position = Position.from_kernel_state(self._live(), self.rules)
        move = Move.parse(bot(position), position)
        return actions.move_actions(self._live(), move.packed, self.pending)[0]

    def action_text(self, action: int) -> str:
        return actions.action_text(action)

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        vector = np.zeros(actions.observation_size(self.rules.players), np.float32)
        mine = self.pending if self._live().to_move == seat else None
        actions.fill_observation(vector, self._live(), seat, mine)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if agent == self.agent_selection:
            mask[self.legal_actions()] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        state = self._live()
        self.pending, packed = actions.step(state, self.pending, int(action))
        if packed is not None:
            seat = state.to_move
            state = self.state = kernel.play(state, packed)[0]
            self.moves.append((seat, Move.from_packed(packed)))
        self.rewards = {a: 0.0 for a in self.agents}
        if actions.is_over(state):
            for a, value in zip(self.possible_agents, actions.returns(state, self.rules)):
                self.rewards[a] = value
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[state.to_move]
        self._accumulate_rewards()

    def position(self) -> Position:
        """The round as it stands (every card: the referee's, not an agent's)."""
        return Position.from_kernel_state(self._live(), self.rules, self.start.stock)

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self.position().to_string()
        return None

    def close(self) -> None:
        pass


def env(rules: Rules = Rules(), dealer: Optional[int] = None, render_mode: Optional[str] = None) -> ScopaEnv:
    """The environment with PettingZoo's order enforcing wrapper."""
    from pettingzoo.utils import wrappers
    return wrappers.OrderEnforcingWrapper(ScopaEnv(rules, dealer, render_mode))
