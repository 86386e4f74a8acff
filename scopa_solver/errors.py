"""The errors raised on bad input. All are ValueError subclasses, so one except clause catches them."""


class ScopaError(ValueError):
    """Base class of every bad-input error of scopa-solver."""


class CardError(ScopaError):
    """Card text that names no card, or a card list that cannot be read."""


class DuplicateCardError(ScopaError):
    """The same card in two places (or twice in one)."""


class PositionError(ScopaError):
    """A position that cannot occur: hand sizes, stock length, side to move, counts."""


class NotationError(ScopaError):
    """Position text that does not follow the notation."""


class IllegalMoveError(ScopaError):
    """A move that is not legal in the position, or move text that cannot be read."""


class RulesError(ScopaError):
    """An unknown rule option or a bad option value."""


class ViewError(ScopaError):
    """A player's view that cannot occur (counts that do not add up to 40, a hand that should
    be hidden or known, a stock written with known cards), or a request the view cannot answer."""


class RecordError(ScopaError):
    """A game record that cannot be read: not the format, an unknown version, a bad field, or
    moves that do not replay (the message names the first bad move)."""


class LimitError(ScopaError):
    """A limit that cannot be honoured: a table size, thread count, node or time limit, or
    number of worlds out of range, or more memory than the machine can give."""


class TimeLimitError(LimitError):
    """Work that ran out of its time before it had an answer: a tree not built within its
    `time_limit`, a request over the web server's limit, or work cancelled (`kernel.time_box`)."""


def excerpt(value: object, limit: int = 40) -> str:
    """A short quotation of bad input for an error message (never the whole of a long input)."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return repr(text) if isinstance(value, str) else text


class MatchError(ScopaError):
    """A `Match` that cannot be searched: a bad score, target or equity, a score that does not
    give one entry per side, a chance that is not from 0 to 1, a leaf table too large."""


class PuzzleError(ScopaError):
    """A puzzle that cannot be read (a bad field), an unknown game or tag, or no puzzle to show."""
