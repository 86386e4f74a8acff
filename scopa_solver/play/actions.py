"""A move as a few actions of a fixed set, the common language of the OpenSpiel game
(`scopa_solver.spiel`) and the PettingZoo environment (`scopa_solver.env`).

Action ``c`` (0-39, a card's index) plays card ``c``. When that card can take in several ways,
the same seat then names the cards it takes one by one in index order (``TAKE + t``), and
``DONE`` closes the move where a take is part of another one's (a lay-down under
``optional_capture``, the ace's sweep of ``asso_piglia_tutto``). A move is played as soon as one
legal move is left, so most moves are one action, and every legal move has exactly one
sequence (`move_actions`). The rules are the kernel's: this module only names its moves.

>>> from scopa_solver import Position
>>> pos = Position(hands=("7d 2c", "3b 4c"), table="3s 4s 5d 2d", dealer=1)
>>> state = pos.kernel_state()
>>> [(str(m), move_actions(state, m.packed)) for m in pos.legal_moves()]
[('7dx2d+5d', [6, 41]), ('7dx3s+4s', [6, 62]), ('2cx2d', [11])]
>>> legal_actions(state, None), step(state, None, 6), legal_actions(state, (6, 0))
([6, 11], ((6, 0), None), [41, 62])
>>> step(state, (6, 0), 62)[1] == pos.legal_moves()[1].packed
True
"""
from __future__ import annotations

from typing import Optional, Protocol

from .. import kernel
from ..core.cards import ALL_MASK, DECK, popcount
from ..core.rules import Rules
from ..core.score import RoundScore
from ..errors import IllegalMoveError

__all__ = ["TAKE", "DONE", "NUM_ACTIONS", "Pending", "legal_actions", "step", "move_actions", "action_text",
           "returns", "is_over", "observation_size", "fill_observation"]

TAKE = 40           # TAKE + t: take the table card of index t
DONE = 80           # close the move with the cards taken so far
NUM_ACTIONS = 81
Pending = Optional[tuple[int, int]]     # a move being named: (card index, mask taken so far)


def _takes(state: kernel.KernelState, card: int, taken: int) -> list[int]:
    """The takes (masks) of `card`'s legal moves that extend `taken` with higher cards only."""
    below = (1 << taken.bit_length()) - 1
    return [m & ALL_MASK for m in kernel.legal_moves(state)
            if m >> 40 == card and m & taken == taken and not (m & ~taken) & below]


def legal_actions(state: kernel.KernelState, pending: Pending) -> list[int]:
    """The legal actions of the seat to move, ascending (empty when the round is over)."""
    if pending is None:
        return sorted({m >> 40 for m in kernel.legal_moves(state)})
    card, taken = pending
    takes = _takes(state, card, taken)
    low = {TAKE + ((m & ~taken) & -(m & ~taken)).bit_length() - 1 for m in takes if m != taken}
    return sorted(low | ({DONE} if taken in takes else set()))


def step(state: kernel.KernelState, pending: Pending, action: int) -> tuple[Pending, Optional[int]]:
    """The move being named after `action`, and the packed move once it is complete (then the
    pending move is None); an IllegalMoveError for an action that is not legal."""
    if action not in legal_actions(state, pending):
        raise IllegalMoveError(f"action {action} ({action_text(action)}) is not legal here; legal: "
                               f"{', '.join(map(str, legal_actions(state, pending)))}")
    if pending is None:
        pending = (action, 0)
    elif action == DONE:
        return None, pending[0] << 40 | pending[1]
    else:
        pending = (pending[0], pending[1] | 1 << (action - TAKE))
    takes = _takes(state, *pending)
    if len(takes) == 1:
        return None, pending[0] << 40 | takes[0]
    return pending, None


def move_actions(state: kernel.KernelState, packed: int, pending: Pending = None) -> list[int]:
    """The actions that play the legal `packed` move (from `pending`, a start of it)."""
    actions = []
    while True:
        if pending is None:
            action = packed >> 40
        else:
            rest = packed & ALL_MASK & ~pending[1]
            action = TAKE + (rest & -rest).bit_length() - 1 if rest else DONE
        actions.append(action)
        pending, done = step(state, pending, action)
        if done is not None:
            return actions


def action_text(action: int) -> str:
    if 0 <= action < 40:
        return str(DECK[action])
    if TAKE <= action < DONE:
        return f"take {DECK[action - TAKE]}"
    return "done" if action == DONE else f"action {action}"


def is_over(state: kernel.KernelState) -> bool:
    return not any(state.hands) and not state.deals


def returns(state: kernel.KernelState, rules: Rules) -> list[float]:
    """Each seat's return at the end of the round: its side's points minus the mean of the
    other sides' (the margin with two sides), so the sum over the seats is zero."""
    total = RoundScore.of_piles(state.piles, state.scopas, rules).total
    sides = rules.sides
    return [float(total[sides[p]] - (sum(total) - total[sides[p]]) / (len(total) - 1)) for p in range(rules.players)]


def observation_size(players: int) -> int:
    """The length of `fill_observation`'s vector."""
    return 40 * (players + 4) + 6 * players + 1


class Writable(Protocol):
    """What an observation is written into: a float32 numpy vector, a list of floats."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


def fill_observation(out: Writable, state: kernel.KernelState, player: int, pending: Pending) -> None:
    """Write what `player` sees into `out` (zeros, `observation_size` long), in this order: its
    hand (40), the table (40), every seat's pile (40 each), the card being played and the cards
    taken so far (40 + 40), then per seat: its scopas, its hand's size, the seat to move, the
    dealer, the last capturer, the player itself (one-hot, `players` each), and the stock's
    size. Cards are bits at the card's index (suit * 10 + rank - 1)."""
    n = state.players
    rows = [state.hands[player], state.table, *state.piles,
            1 << pending[0] if pending else 0, pending[1] if pending else 0]
    for r, mask in enumerate(rows):
        for i in range(40):
            if mask >> i & 1:
                out[40 * r + i] = 1
    at = 40 * len(rows)
    for seat in range(n):
        out[at + seat] = state.scopas[seat]
        out[at + n + seat] = popcount(state.hands[seat])
    at += 2 * n
    if not is_over(state):
        out[at + state.to_move] = 1
    out[at + n + state.dealer] = 1
    if state.last_capturer >= 0:
        out[at + 2 * n + state.last_capturer] = 1
    out[at + 3 * n + player] = 1
    out[at + 4 * n] = sum(popcount(m) for deal in state.deals for m in deal)
