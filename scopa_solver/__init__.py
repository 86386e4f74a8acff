"""scopa-solver: an exact solver and endgame analyzer for Scopa.

>>> from scopa_solver import Position, solve
>>> pos = Position(hands=("7d", "3c"), table="4s 3s", to_move=0, dealer=1)
>>> [str(m) for m in pos.legal_moves()]
['7dx3s+4s']
>>> solve(pos).value
4

The core (cards, rules, positions) and the exact search load with the package; the rest (views
and suggestions, bots, records, trees, with numpy and networkx behind them) on first use.
"""
import importlib as _importlib
import typing as _typing

try:
    from . import _kernel  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "scopa_solver._kernel (the compiled Cython search kernel) is missing: build it with "
        "'pip install -e .' or 'python setup.py build_ext --inplace' from the project folder"
    ) from exc

from .core.cards import Card
from .core.position import Move, Position
from .core.rules import Rules
from .core.score import PlayerScore, RoundScore
from .errors import (CardError, DuplicateCardError, IllegalMoveError, LimitError, MatchError, NotationError,
                     PositionError, RecordError, RulesError, ScopaError, ViewError)
from .kernel.limit import Limit
from .search.match import Match
from .search.match import set_default_equity as _set_default_equity
from .search.solver import (Analysis, AnalysisHandle, MoveValue, SearchInfo, SearchResult, analysis, analyze,
                            analyze_many, solve, solve_many)


def _shipped_equity(rules: Rules) -> "MatchEquity":
    """A `Match` without an equity uses the shipped tables (play sits above search, which cannot
    import them; the package wires them, loading them on a match's first search)."""
    from .play.equity import MatchEquity
    return MatchEquity.of(rules)


_set_default_equity(_shipped_equity)

if _typing.TYPE_CHECKING:  # the lazy names below, for type checkers
    from .core.view import View
    from .imperfect.equilibrium import Equilibrium, EquilibriumEndgame, equilibrium
    from .imperfect.pimc import MoveStats, Suggestion, suggest
    from .play.arena import ArenaResult, MultiArenaResult, arena
    from .play.bots import Bot, GreedyBot, OracleBot, PIMCBot, RandomBot
    from .play.epimc import EPIMCBot
    from .play.equity import EquityError, MatchEquity
    from .play.game import MatchResult, RoundResult, play_match, play_round
    from .play.inference import InferenceBot
    from .play.record import GameRecord, RoundRecord
    from .play.puzzles import Puzzle, find_puzzles, puzzles_from_record
    from .play.review import FairReview, Review, review
    from .imperfect.fairwhy import FairWhy, explain_view
    from .search.lines import Lines, Why, explain, lines
    from .tree.base import TreeOptions, TreeTooLargeError
    from .tree.build import to_networkx
    from .tree.io import read_tree, write_tree

# name -> module that defines it, imported on first use (PEP 562)
_LAZY = {
    "View": "core.view",
    "suggest": "imperfect.pimc", "Suggestion": "imperfect.pimc", "MoveStats": "imperfect.pimc",
    "InferenceBot": "play.inference", "EPIMCBot": "play.epimc",
    "equilibrium": "imperfect.equilibrium", "Equilibrium": "imperfect.equilibrium",
    "EquilibriumEndgame": "imperfect.equilibrium",
    "play_round": "play.game", "play_match": "play.game", "RoundResult": "play.game", "MatchResult": "play.game",
    "Bot": "play.bots", "RandomBot": "play.bots", "GreedyBot": "play.bots", "PIMCBot": "play.bots",
    "OracleBot": "play.bots",
    "arena": "play.arena", "ArenaResult": "play.arena", "MultiArenaResult": "play.arena",
    "GameRecord": "play.record", "RoundRecord": "play.record",
    "review": "play.review", "Review": "play.review", "FairReview": "play.review",
    "to_networkx": "tree.build", "TreeOptions": "tree.base", "TreeTooLargeError": "tree.base",
    "write_tree": "tree.io", "read_tree": "tree.io",
    "lines": "search.lines", "explain": "search.lines", "Lines": "search.lines", "Why": "search.lines",
    "explain_view": "imperfect.fairwhy", "FairWhy": "imperfect.fairwhy",
    "Puzzle": "play.puzzles", "find_puzzles": "play.puzzles", "puzzles_from_record": "play.puzzles",
    "MatchEquity": "play.equity", "EquityError": "play.equity",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'scopa_solver' has no attribute {name!r}")
    value = getattr(_importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


# The public API (docs/api.md): what a user builds, calls, receives or catches. Nothing else is
# importable from here; every other name lives in its module (scopa_solver.core.cards.DECK, ...).
__all__ = [
    "Card", "Rules", "Position", "Move", "RoundScore", "PlayerScore",
    "Limit", "solve", "analyze", "analysis", "solve_many", "analyze_many", "SearchResult", "Analysis", "Match",
    "MoveValue", "AnalysisHandle", "SearchInfo", "lines", "explain", "Lines", "Why",
    "explain_view", "FairWhy",
    "View", "suggest", "Suggestion", "MoveStats", "equilibrium", "Equilibrium", "EquilibriumEndgame",
    "Bot", "RandomBot", "GreedyBot", "PIMCBot", "InferenceBot", "EPIMCBot", "OracleBot",
    "play_round", "play_match", "RoundResult", "MatchResult", "arena", "ArenaResult", "MultiArenaResult",
    "GameRecord", "RoundRecord", "review", "Review", "FairReview",
    "to_networkx", "TreeOptions", "write_tree", "read_tree", "Puzzle", "find_puzzles", "puzzles_from_record",
    "MatchEquity",
    "ScopaError", "CardError", "DuplicateCardError", "IllegalMoveError", "NotationError", "PositionError",
    "RulesError", "LimitError", "ViewError", "RecordError", "TreeTooLargeError", "MatchError",
    "EquityError",
]
__version__ = "0.1.0"
