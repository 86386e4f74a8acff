"""The kernel face proper: the only module that imports the compiled kernel (``_kernel``, see
``ext/``). The named states a position crosses the boundary as (card sets as 40-bit masks), legal
moves, `play` (the next state and its `PlayEvents`), scoring, and the kernel's types and constants.

>>> from scopa_solver import Position
>>> state = Position(hands=("7d", "3c"), table="4s 3s", dealer=1).kernel_state()
>>> after, events = play(state, legal_moves(state)[0])
>>> events.scopa, after.hands, after.to_move
(True, (0, 4096), 1)
"""
from __future__ import annotations

import enum
from typing import NamedTuple, Optional, Sequence

from .. import _kernel

__all__ = ["KernelState", "PlayEvents", "legal_moves", "play", "random_playouts",
           "lone_card_state", "Searcher", "KernelResult", "RULE_BITS", "WANT_BEST", "WANT_PV", "WANT_ALL", "FULL_WINDOW",
           "StopReason", "StopToken", "VALUE_INF", "MAX_TT_MB", "score", "OBJECTIVES", "RULE_ALL",
           "evaluate", "side_bounds", "MatchTable"]


Searcher = _kernel.Searcher
KernelResult = _kernel.KernelResult
MatchTable = _kernel.MatchTable
"""The match objective's leaf table (ext/api.pxi): pass one as `Searcher.search_many`'s objective."""
OBJECTIVES: tuple = tuple(_kernel.OBJECTIVES)
RULE_ALL: int = _kernel.RULE_ALL
WANT_BEST, WANT_PV, WANT_ALL, FULL_WINDOW = _kernel.WANT_FLAGS
RULE_BITS: dict = dict(_kernel.RULE_BITS)
"""The kernel's rule switches by option name (``primiera_zero`` for ``primiera_missing_suit="zero"``,
``fifteen`` for capture="fifteen", ``optional_capture``, ``last_sweep_counts``)."""
StopToken = _kernel.StopToken
"""A caller's stop for any number of searches (`search_many(..., stop=token)`): `stop()` ends
them all, and it stays set (a new piece of work takes a new token)."""


class StopReason(enum.IntEnum):
    """Why a search stopped: the kernel's codes (`KernelResult.stop`) and their names, the one
    list Python and the kernel share (`label`: the name results report, None for NONE)."""

    NONE = 0            # complete (or a horizon search that went as deep as asked)
    NODES = 1           # the node limit
    TIME = 2            # the time limit or a deadline
    INTERRUPT = 3       # Ctrl-C: the kernel raises KeyboardInterrupt
    REQUEST = 4         # the caller's StopToken: the stopped result is returned

    @property
    def label(self) -> Optional[str]:
        return None if self is StopReason.NONE else self.name.lower()


if tuple(r.label for r in StopReason) != tuple(_kernel.STOP_REASONS):    # pragma: no cover
    raise ImportError(f"the kernel's stop reasons {_kernel.STOP_REASONS} are not StopReason's: rebuild it")
VALUE_INF = 127
MAX_TT_MB = float(_kernel.MAX_TT_MB)     # the kernel's cap on one table


class KernelState(NamedTuple):
    """A fully known round state of any game as the kernel reads it: seats 0..players-1 in
    playing order, one 40-bit mask per seat in `hands` and `piles` (bit = suit * 10 + rank - 1),
    `deals` the stock's future deals next first (each one 3-card mask per seat), `rules` the
    `RULE_BITS`, `sides` each seat's side, numbered 0.. in order of first seat: (0, 1) for two
    players, (0, 1, 0, 1) for partnerships, (0, 1, 2) for three players."""

    players: int
    hands: tuple
    table: int
    piles: tuple
    scopas: tuple
    to_move: int
    dealer: int
    last_capturer: int     # -1: nobody has captured yet
    deals: tuple
    rules: int
    sides: tuple


class PlayEvents(NamedTuple):
    """What a move did besides moving cards: a scopa, a fresh deal from the stock, and at the end
    of the round the leftover table cards (mask) and the seat that took them (-1: none)."""

    scopa: bool
    dealt: bool
    leftovers: int
    leftovers_to: int


def legal_moves(state: KernelState) -> list[int]:
    """The legal moves of the seat to move, packed (card index << 40 | captured mask), in the
    canonical order (cards by index; for each, single captures, then sums, then the lay-down)."""
    return _kernel.legal_moves(state)


def play(state: KernelState, packed_move: int) -> tuple[KernelState, PlayEvents]:
    """The state after a legal packed move and its events; ValueError if the move is illegal."""
    after, scopa, dealt, leftovers, leftovers_to = _kernel.play(state, packed_move)
    return KernelState._make(after), PlayEvents(bool(scopa), bool(dealt), leftovers, leftovers_to)


def lone_card_state(table: int, card: int, rules: int) -> KernelState:
    """A two-player state in which seat 0 leads with `card` (a mask) alone onto `table`, the
    other seat holding one spare card, so that the play is never the round's last: the moves of
    one card on a table and whether each sweeps, which depend on nothing else."""
    spare = (1 << 40) - 1 & ~(table | card)
    spare &= -spare
    return KernelState(2, (card, spare), table, (0, 0), (0, 0), 0, 1, -1, (), rules, (0, 1))


def random_playouts(state: KernelState, playouts: int, seed: int = 1) -> int:
    """Play `playouts` uniformly random rounds from `state` in C; the number of moves made."""
    return _kernel.random_playouts(state, playouts, seed)


def score(piles: Sequence[int], scopas: Sequence[int], sides: Sequence[int], rules: int) -> dict:
    """The end-of-round breakdown per side: lists (one entry per side) `cards`, `coins`,
    `primiera` (None when disqualified), `napola`, `scopas`, `points` (round points, scopas
    included); the category winners `carte`, `denari`, `settebello`, `primiera_winner`,
    `re_bello` as a side or None (a shared top scores for nobody)."""
    return _kernel.score(tuple(piles), tuple(scopas), tuple(sides), rules)


def evaluate(state: KernelState, root_seat: Optional[int] = None) -> tuple[tuple[float, ...], float]:
    """The horizon search's static evaluation (ext/eval.pxi; docs/family.md): every
    side's expected round points from its pile and the cards still in play (scopas made not
    included), and the value a "value" search rooted at `root_seat` (default: the seat to move)
    gives the position at its horizon, for the seat to move: with two sides the expected margin
    of points to come, with more the paranoid value (scopas made included). The search counts
    quarter points (this value's resolution) and reports its results rounded to whole points;
    its best moves are those of the finer values."""
    return _kernel.evaluate(state, root_seat)


def side_bounds(state: KernelState) -> list[tuple[int, int]]:
    """Every side's (low, high): its final round points, scopas included, lie between them
    whatever is played from `state`; the bounds the family search cuts on (for tests)."""
    return _kernel.side_bounds(state)
