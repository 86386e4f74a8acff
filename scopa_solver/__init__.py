"""scopa-solver: an exact solver and endgame analyzer for Scopa.

>>> from scopa_solver import Position, solve
>>> pos = Position(hands=("7d", "3c"), table="4s 3s", to_move=0, dealer=1)
>>> [str(m) for m in pos.legal_moves()]
['7dx3s+4s']
>>> solve(pos).value
4
"""
try:
    from . import _kernel  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "scopa_solver._kernel (the compiled Cython search kernel) is missing: build it with "
        "'pip install -e .' or 'python setup.py build_ext --inplace' from the project folder"
    ) from exc

from .cards import Card, DECK
from .errors import (CardError, DuplicateCardError, IllegalMoveError, NotationError,
                     PositionError, RulesError, ScopaError)
from .rules import Rules
from .position import Move, Position, RoundScore, PlayerScore
from .game import play_round, play_match, RoundResult, MatchResult
from .solver import solve, analyze, solve_many, analyze_many, SearchResult, MoveValue
from .errors import ViewError
from .view import View
from .pimc import suggest, Suggestion, MoveStats
from .bots import Bot, RandomBot, GreedyBot, PIMCBot, OracleBot
from .inference import InferenceBot
from .arena import arena, ArenaResult

from .tree import to_networkx, write_tree, read_tree, TreeTooLargeError
from .errors import RecordError
from .record import GameRecord, RoundRecord
from .review import review, Review

__all__ = [
    "Card", "DECK", "Rules", "Move", "Position", "RoundScore", "PlayerScore",
    "play_round", "play_match", "RoundResult", "MatchResult",
    "solve", "analyze", "solve_many", "analyze_many", "SearchResult", "MoveValue",
    "ScopaError", "CardError", "DuplicateCardError", "IllegalMoveError", "NotationError",
    "PositionError", "RulesError",
    "View", "ViewError", "suggest", "Suggestion", "MoveStats",
    "Bot", "RandomBot", "GreedyBot", "PIMCBot", "InferenceBot", "OracleBot", "arena", "ArenaResult",
    "to_networkx", "write_tree", "read_tree", "TreeTooLargeError",
    "GameRecord", "RoundRecord", "RecordError", "review", "Review",
]
__version__ = "0.1.0"
