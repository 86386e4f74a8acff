"""Hints in play: the fair suggestion from the player's own view (`suggest` on the view, with
a short budget), recorded in the game record as help (`record.Hint`). The board's Hint
button and the terminal's ``hint`` command both ask here; only the player's view is read, so
a hint never tells a hidden card.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..core.position import Position
from ..kernel import Limit
from .record import Hint, RoundRecord

if TYPE_CHECKING:
    from ..imperfect.pimc import Suggestion

__all__ = ["HINT_SECONDS", "HINT_WORLDS", "ask_hint", "describe_hint"]

HINT_SECONDS = 2.0
"""The budget of a hint (seconds of `suggest`)."""
HINT_WORLDS = 100
"""The worlds a hint samples at most (fewer when the view has fewer: then every one)."""


def ask_hint(pos: Position, rec: RoundRecord, limit: Optional[Limit] = None,
             seed: Optional[int] = None) -> tuple[Hint, "Suggestion"]:
    """The fair suggestion for the seat to move at `pos` (the last position of the round `rec`),
    from that seat's view only, appended to `rec.help`; returns the `Hint` and the `Suggestion`
    (`limit`: default `Limit(time=HINT_SECONDS)`; `seed`: the worlds' seed)."""
    from ..imperfect.pimc import suggest
    if pos.is_round_over():
        raise ValueError("the round is over: there is no move to hint")
    result = suggest(pos.view(pos.to_move), limit if limit is not None else Limit(time=HINT_SECONDS),
                     worlds=HINT_WORLDS, seed=seed, progress=False)
    best = result.best_stats
    hint = Hint(move=len(rec.moves) + 1, seat=pos.to_move, suggested=str(best.move),
                value=round(float(best.mean), 2))
    rec.help.append(hint)
    return hint, result


def describe_hint(hint: Hint) -> str:
    """``hint: play 7dx3s+4s (fair value +1.25 points)``."""
    value = "" if hint.value is None else f" (fair value {hint.value:+.2f} points)"
    return f"hint: play {hint.suggested}{value}"
