"""What the analysis board's API answers, as plain functions of plain data (no web framework).

Each function reads request fields (text, numbers), checks them, calls the package's own API and
returns JSON-ready data; bad input raises a `ScopaError` subclass with a short message (the app
turns it into a 422 answer). Every search runs under a time limit, capped here: a tree's build
and a review have their own (`LIMITS["tree_time"]`, `LIMITS["review_time"]`), and the app boxes
each whole request in `LIMITS["request_time"]` (`kernel.time_box`), so a request cannot hold the
server for long.

>>> board(read_state("7d/3c 4s3s -/- - 0/0 0 1 -"))["legal"]
['7dx3s+4s']
>>> analysis("7d/3c 4s3s -/- - 0/0 0 1 -")["moves"]
[{'move': '7dx3s+4s', 'value': 4, 'lower': 4, 'upper': 4, 'best': True, 'horizon': None, 'exact': True}]

Every game of the family (docs/family.md) works the same way; `compose` builds a position from
its places (the board's editor), checked by `Position` itself:

>>> b = compose({"hands": [["7d"], ["3c"], ["Rb"]], "table": ["4s", "3s"], "dealer": 2, "rules": "players=3"})
>>> b["notation"], b["sides"], b["legal"]
('7d/3c/Rb 3s4s -/-/- - 0/0/0 0 2 - players=3', [0, 1, 2], ['7dx3s+4s'])
>>> analysis(b["notation"], objective="maxn")["moves"][0]
{'move': '7dx3s+4s', 'value': 5, 'lower': 5, 'upper': 5, 'best': True, 'horizon': None, 'exact': True}
"""
from __future__ import annotations

import dataclasses
import json
import os
import random
import tempfile
import threading
from typing import Any, Optional, Union, overload

from ..core.cards import SUIT_NAMES, SUITS, RANKS, RANK_NAMES, iter_cards
from ..core.position import Move, Position
from ..core.rules import CAPTURES, GAMES, PLAYERS, Rules
from ..errors import LimitError, NotationError, PositionError, PuzzleError, RecordError, RulesError, excerpt
from ..core.view import View
from ..kernel.limit import Limit
from ..core.flow import match_winner
from ..search.match import MATCH_ONE, MAX_TARGET, Match, MatchError, default_equity, match_text
from ..search.solver import Analysis, SearchResult, analyze, solve
from .live import LiveAnalyses

__all__ = ["LIMITS", "BOTS", "OBJECTIVES", "info", "read_state", "read_position", "board", "board_of", "compose",
           "deal", "analysis", "several_lines",
           "principal_variation", "live_start", "live_poll", "live_stop", "tree_svg", "suggestion", "unseen", "new_game", "game_move", "bot_move", "review_round",
           "annotate", "puzzle", "record_puzzles", "next_round", "game_hint"]

LIMITS: dict[str, Any] = {     # counts (int) and seconds (float)
    "text": 400,              # characters of a notation line or a move
    "record": 1_000_000,      # characters of a game record's JSON (sent as text or as an object)
    "time_limit": 30.0,       # seconds a search may run (analysis, pv, suggestion)
    "default_time": 5.0,
    "max_nodes": 10**10,
    "tree_nodes": 3_000,      # nodes of a tree picture
    "lines": 5,               # lines of /api/lines
    "worlds": 2_000,          # worlds of a suggestion
    "review_worlds": 200,     # worlds per decision of a review
    "bot_time": 5.0,          # seconds a PIMC bot may think per move
    "tree_time": 15.0,        # seconds to build a tree, its searches included
    "review_time": 30.0,      # seconds a review may take (then it returns what it has judged)
    "request_time": 40.0,     # seconds any request may take, whatever it does (then 422)
    "body": 2_000_000,        # bytes of a request body (then 413)
    "small_body": 65_536,     # bytes of a body that needs no search place
    "searches": 4,            # requests searching (or reading a larger body) at once
    "live": 4,                # live analyses at once (a new one stops the oldest)
    "live_idle": 30.0,        # seconds a live analysis goes on with nobody asking about it
    "live_time": 600.0,       # seconds a live analysis may run (its default: 120)
    "queue": 32,              # requests waiting for a search place (more: 503)
    "connections": 64,        # connections the server keeps at once, all clients (more: 503)
    "per_client": 32,         # connections it keeps at once from one address (more: 503)
    "header_time": 10.0,      # seconds a connection has to send a request's headers (then closed)
    "body_time": 20.0,        # seconds a request has to send its body (then 408)
    "keep_alive": 5.0,        # seconds an idle connection is kept after an answer
}
BOTS = {"random": "RandomBot", "greedy": "GreedyBot", "pimc": "PIMCBot(worlds=50)",
        "pimc-match": "PIMCBot(worlds=50, objective='match'): in a match, plays to win it"}
OBJECTIVES = {"value": "the margin (paranoid with three or more sides)",
              "maxn": "max^n: each side maximises its own points"}
_render_lock = threading.Lock()   # the matplotlib fallback draws with pyplot, which is not thread-safe


# -- checking request fields ----------------------------------------------------------------------

def _text(value: Any, what: str, limit: int = LIMITS["text"]) -> str:
    if not isinstance(value, str):
        raise NotationError(f"{what} must be text, not {type(value).__name__}")
    if len(value) > limit:
        raise LimitError(f"{what} is {len(value):,} characters long; at most {limit:,} are read")
    if not value.strip():
        raise NotationError(f"{what} is empty")
    return value.strip()


@overload
def _whole(value: Any, what: str, low: int, high: int, default: int) -> int: ...
@overload
def _whole(value: Any, what: str, low: int, high: int, default: None = None) -> Optional[int]: ...
def _whole(value: Any, what: str, low: int, high: int, default: Optional[int] = None) -> Optional[int]:
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise LimitError(f"{what} must be a whole number from {low:,} to {high:,}, not {excerpt(value)}")
    return value


def _time(value: Any, cap: float = LIMITS["time_limit"], default: float = LIMITS["default_time"]) -> float:
    if value is None:
        return default
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= cap:
        raise LimitError(f"time_limit must be a number of seconds above 0 and at most {cap:g}, "
                         f"not {excerpt(value)}")
    return float(value)


def _seed(value: Any) -> int:
    if value is None:
        return random.SystemRandom().getrandbits(31)
    return _whole(value, "seed", 0, 2**63 - 1)  # type: ignore[return-value]


def read_state(text: Any) -> Union[Position, View]:
    """A position (every card known) or a player's view (hidden cards written ``?``) from its
    notation line."""
    text = _text(text, "the position")
    return View.from_string(text) if "?" in text else Position.from_string(text)


def read_position(text: Any) -> Position:
    state = read_state(text)
    if not isinstance(state, Position):
        raise NotationError("this needs every card known; the text is a player's view (hidden cards '?'): "
                            "/api/suggest gives the fair values from it")
    return state


# -- the board ------------------------------------------------------------------------------------

def info() -> dict:
    """What the page needs to draw cards and fill its forms: the suits (with the tree pictures'
    colours), the ranks, the bots and the limits."""
    from ..tree.render import SUIT_COLOURS
    from .. import __version__
    return {"version": __version__,
            "suits": [{"letter": s, "name": n, "colour": SUIT_COLOURS[s]} for s, n in zip(SUITS, SUIT_NAMES)],
            "ranks": [{"letter": r, "name": n} for r, n in zip(RANKS, RANK_NAMES)],
            "bots": BOTS, "limits": LIMITS, "objectives": OBJECTIVES,
            "family": {"players": list(PLAYERS), "games": list(GAMES), "captures": list(CAPTURES)}}


def _cards(mask: int) -> list[str]:
    return [str(c) for c in iter_cards(mask)]


def board(state: Union[Position, View]) -> dict:
    """Everything the board draws: each seat's hand (hidden cards as counts), the table, each
    seat's pile, the score so far (per side in the family games), scopas, stock, turn, the
    rules, and the legal moves."""
    known = isinstance(state, Position)
    score = state.round_score() if isinstance(state, Position) else _score(state)
    rules = state.rules
    hands = []
    for p in range(rules.players):
        if isinstance(state, Position):
            hands.append({"cards": _cards(state.hands[p]), "hidden": 0})
        elif p == state.player:
            hands.append({"cards": _cards(state.hand), "hidden": 0})
        else:
            hands.append({"cards": [], "hidden": state.hand_sizes()[p]})
    over = state.is_round_over()
    blind = isinstance(state, View) and state.to_move != state.player   # the opponent's moves are hidden
    legal = [] if over or blind else [str(m) for m in state.legal_moves()]
    return {"notation": state.to_string(), "kind": "position" if known else "view",
            "player": getattr(state, "player", None), "hands": hands, "table": _cards(state.table),
            "piles": [_cards(p) for p in state.piles], "scopas": list(state.scopas),
            "stock": state.stock_size(), "stock_cards": [str(c) for c in state.stock] if isinstance(state, Position) else None,
            "to_move": None if over else state.to_move, "dealer": state.dealer,
            "last_capturer": state.last_capturer, "over": over, "legal": legal,
            "players": rules.players, "sides": list(rules.sides),
            "rules": rules.tokens(), "game": rules.name, "score": score.to_dict()}


def _score(view: View) -> Any:
    from ..core.score import RoundScore
    return RoundScore.of_piles(view.piles, view.scopas, view.rules)


def board_of(text: Any, player: Any = None, moves: Any = None) -> dict:
    """The board of a notation line, after `moves` (a list of move text) when given; with
    `player`, that player's view of it."""
    state = read_state(text)
    for before, move in _line(state, moves):
        state = before.play(move)
    if player is not None:
        player = _whole(player, "player", 0, state.rules.players - 1)
        if isinstance(state, View):
            if state.player != player:
                raise NotationError(f"the text is player {state.player}'s view, not player {player}'s")
        else:
            state = state.view(player)
    return board(state)


def _line(state: Union[Position, View], moves: Any) -> list[tuple[Position, Move]]:
    """Each position of the line `moves` (a list of move text, played from `state`) with the
    move played there."""
    if moves is None:
        return []
    if not isinstance(moves, list) or len(moves) > 40:
        raise NotationError("moves must be a list of at most 40 moves like '7dx3s+4s'")
    if not moves:
        return []
    if not isinstance(state, Position):
        raise NotationError("moves are played on a position with every card known")
    line = []
    pos = state
    for text in moves:
        move = Move.parse(_text(text, "a move"), pos)
        line.append((pos, move))
        pos = pos.play(move)
    return line


def read_rules(value: Any) -> Rules:
    """The rule options of a request: notation tokens as one text (``"players=4 game=scopone"``)
    or a list of them; none for two-player Scopa."""
    if value is None:
        return Rules()
    if isinstance(value, str):
        if len(value) > LIMITS["text"]:
            raise LimitError(f"the rules are {len(value):,} characters long; at most {LIMITS['text']} are read")
        tokens = value.split()
    elif isinstance(value, list) and len(value) <= 20:
        tokens = [_text(t, "a rule option") for t in value]
    else:
        raise RulesError(f"rules are option tokens like 'players=4 game=scopone' (text, or a list of "
                         f"at most 20), not {excerpt(value)}")
    return Rules.from_tokens(tokens)


def deal(seed: Any = None, dealer: Any = None, rules: Any = None) -> dict:
    """The board of a new round of the game of `rules` shuffled from `seed` (a fresh seed when None)."""
    seed = _seed(seed)
    game = read_rules(rules)
    dealer = _whole(dealer, "dealer", 0, game.players - 1, game.players - 1)
    out = board(Position.new_round(seed=seed, dealer=dealer, rules=game))
    out["seed"] = seed
    return out


def _place(value: Any, what: str) -> Union[str, list]:
    """The cards of a place: a list of cards like '7d', or card text ('7d 2c', '7d2c', '-')."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "-")):
        return []
    if isinstance(value, str):
        return _text(value, what)
    if not isinstance(value, list) or len(value) > 40:
        raise PositionError(f"{what} must be a list of at most 40 cards like '7d', not {excerpt(value)}")
    return [_text(c, f"a card of {what}", 8) for c in value]


def compose(places: Any) -> dict:
    """The board of a position given by its places (the board's editor): ``hands`` and
    ``piles`` (one list of cards per seat), ``table``, ``stock`` (in deal order), ``scopas``
    (per seat), ``dealer``, ``to_move`` (None: what the hand sizes imply), ``last_capturer`` and
    ``rules`` (as `read_rules`). `Position` checks that the places can occur together; its
    message says what cannot (a card twice, a hand size no deal reaches, a stock that does not
    split into deals, the wrong seat to move...)."""
    if not isinstance(places, dict):
        raise PositionError("a position's places are a JSON object: hands, table, piles, stock, ...")
    unknown = set(places) - {"hands", "table", "piles", "stock", "scopas", "dealer", "to_move",
                             "last_capturer", "rules"}
    if unknown:
        raise PositionError(f"unknown field {excerpt(sorted(unknown)[0])}; the places are hands, table, "
                            "piles, stock, scopas, dealer, to_move, last_capturer, rules")
    rules = read_rules(places.get("rules"))
    n = rules.players

    def per_seat(name: str, default: Any) -> list:
        value = places.get(name)
        if value is None:
            return [default] * n
        if not isinstance(value, list) or len(value) != n:
            raise PositionError(f"{name} must be a list of {n} entries, one per seat ({rules.players} players), "
                                f"not {excerpt(value)}")
        return value

    seats = range(n)
    hands = [_place(h, f"hand {p}") for p, h in zip(seats, per_seat("hands", None))]
    piles = [_place(c, f"pile {p}") for p, c in zip(seats, per_seat("piles", None))]
    scopas = [_whole(x, f"scopas of seat {p}", 0, 20, 0) for p, x in zip(seats, per_seat("scopas", 0))]
    dealer = _whole(places.get("dealer"), "dealer", 0, n - 1, n - 1)
    to_move = _whole(places.get("to_move"), "to_move", 0, n - 1)
    last = _whole(places.get("last_capturer"), "last_capturer", 0, n - 1)
    pos = Position(hands=tuple(hands), table=_place(places.get("table"), "the table"),
                   stock=_place(places.get("stock"), "the stock"), captured=tuple(piles), scopas=tuple(scopas),
                   to_move=to_move, dealer=dealer, last_capturer=last, rules=rules)
    return board(pos)


# -- exact analysis -------------------------------------------------------------------------------

def _limits(time_limit: Any, max_nodes: Any) -> tuple[float, Optional[int]]:
    return _time(time_limit), _whole(max_nodes, "max_nodes", 1, LIMITS["max_nodes"])


def _objective(value: Any) -> str:
    if value is None:
        return "value"
    if not isinstance(value, str) or value not in OBJECTIVES:
        raise RulesError(f"objective must be 'value' or 'maxn', not {excerpt(value)}")
    return value


def _goal(pos: Union[Position, View], objective: Any, match_score: Any = None, target: Any = None) -> Union[str, Match]:
    """What to search: `_objective`'s name, or with a `match_score` (every side's match points
    before this round, side 0 first) `Match(match_score, target)` (objective null or "match";
    target null: the rules'). A score of the wrong length, a match already won, a bad target:
    a `MatchError` (422) naming the field."""
    if match_score is None:
        if target is not None:
            raise MatchError("target is the match's target: give match_score too")
        if objective == "match":
            raise MatchError("objective 'match' needs match_score: every side's match points, like [9, 10]")
        return _objective(objective)
    if objective not in (None, "match"):
        raise MatchError(f"match_score searches to win the match: objective must be 'match' or null, "
                         f"not {excerpt(objective)}")
    rules = pos.rules
    if not isinstance(match_score, list) or len(match_score) != rules.side_count:
        raise MatchError(f"match_score must be a list of {rules.side_count} whole numbers, one per side "
                         f"({rules.side_count} sides here), not {excerpt(match_score)}")
    if any(not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= MAX_TARGET for x in match_score):
        raise MatchError(f"match_score must hold whole match points, 0 to {MAX_TARGET}, not {excerpt(match_score)}")
    goal = _whole(target, "target", *_match_targets(), rules.target)
    winner = match_winner(match_score, goal)
    if winner is not None:
        raise MatchError(f"match_score {excerpt(match_score)}: side {winner} has already won a match to {goal}")
    return Match(tuple(match_score), goal)


def _chances(data: dict, goal: Union[str, Match]) -> dict:
    """An answer under a Match: `chance` (0..1) beside each move's `value` (1/10,000ths of a
    sure win) and the position's, and `match` (the score, the target, the value in words)."""
    if not isinstance(goal, Match):
        return data
    for row in data.get("moves", ()):
        row["chance"] = None if row["value"] is None else row["value"] / MATCH_ONE
    value = data.get("value")
    return dict(data, objective="match", chance=None if value is None else value / MATCH_ONE,
                match={"score": list(goal.score), "target": goal.target, "text": match_text(value)})


def analysis(text: Any, time_limit: Any = None, max_nodes: Any = None, objective: Any = None,
             match_score: Any = None, target: Any = None) -> dict:
    """Every legal move with its value for the side to move, best first, the best moves flagged:
    the exact value when the search reached the round's end within the time limit, else the
    deepest depth-limited estimate (`horizon` plies; each row says whether it is `exact`).
    `complete`, `value`, `lower`..`upper` mean what they mean in `analyze`'s `to_dict()`
    (docs/search.md#what-a-result-proves): `complete` only for proved values."""
    pos = read_position(text)
    seconds, nodes = _limits(time_limit, max_nodes)
    goal = _goal(pos, objective, match_score, target)
    return _moves(pos, analyze(pos, Limit(time=seconds, nodes=nodes), objective=goal), goal)  # deepens within the limit


def _moves(pos: Position, rows: Analysis, goal: Union[str, Match]) -> dict:
    """`analysis`'s answer for the rows of an `Analysis`. At a depth, moves of the best value
    carry the search's finer `order` (1: best by its finer evaluation too; 2: ranked below) and
    `ties` says so."""
    from ..search.lines import depth_ties
    top = rows[0].value if rows else None
    ties = depth_ties(rows)
    finer = set(rows.best_moves) if ties else set()
    return _chances({"ties": ties, "position": pos.to_string(), "to_move": pos.to_move, "complete": rows.complete, "objective": goal,
            "side": None if pos.is_round_over() else pos.rules.sides[pos.to_move], "value": rows.value,
            "lower": rows.lower, "upper": rows.upper, "stopped": rows.stopped,
            "horizon": rows.horizon, "exact": rows.exact,
            "plies_left": sum(pos.hand_sizes()) + pos.stock_size(),
            "moves": [{"move": str(r.move), "value": r.value, "lower": r.lower, "upper": r.upper,
                       "best": top is not None and r.value == top,
                       "horizon": r.horizon, "exact": r.exact,
                       **({"order": 1 if r.move in finer else 2} if ties and r.value == top else {})} for r in rows]},
                    goal)


def several_lines(text: Any, count: Any = None, time_limit: Any = None, max_nodes: Any = None,
                  objective: Any = None) -> dict:
    """`lines`: the best `count` moves (1 to 5, default 3), each with its value and its own
    principal variation, how equal values were ordered (`ties`), and for every line after the
    first why the first is better (`why`: `compare`'s words and categories). The values are
    `analysis`'s under the same limits; three or more sides: paranoid lines from the mover's side, or "maxn"."""
    from ..search.lines import compare, lines
    pos = read_position(text)
    seconds, nodes = _limits(time_limit, max_nodes)
    n = _whole(count, "count", 1, LIMITS["lines"], 3)
    found = lines(pos, Limit(time=seconds, nodes=nodes), count=n, objective=_objective(objective))
    rows = []
    for line in found:
        row = line.to_dict()
        row["why"] = None if line is found[0] else compare(pos, found[0], line, found.objective).to_dict()
        rows.append(row)
    return {**found.to_dict(), "lines": rows, "to_move": pos.to_move, "side": pos.rules.sides[pos.to_move]}


def principal_variation(text: Any, time_limit: Any = None, max_nodes: Any = None, objective: Any = None,
                        match_score: Any = None, target: Any = None) -> dict:
    """`solve`'s value and principal variation (the deepest depth reached, as `analysis`), with
    the board after each of its moves."""
    pos = read_position(text)
    seconds, nodes = _limits(time_limit, max_nodes)
    goal = _goal(pos, objective, match_score, target)
    return _pv_steps(pos, solve(pos, Limit(time=seconds, nodes=nodes), objective=goal), goal)


def _pv_steps(pos: Position, result: SearchResult, goal: Union[str, Match] = "value") -> dict:
    """`principal_variation`'s answer for a `SearchResult`: it, and the board after each move of its pv."""
    steps = [board(pos)]
    for move in result.pv:
        pos = pos.play(move)
        steps.append(board(pos))
    return _chances({**result.to_dict(), "horizon": result.horizon, "objective": result.objective, "steps": steps},
                    goal)


def live_start(live: LiveAnalyses, text: Any, time_limit: Any = None, max_nodes: Any = None,
               objective: Any = None, match_score: Any = None, target: Any = None) -> dict:
    """Start a live analysis of a position (`web.live`): one search that deepens within the time
    limit (at most LIMITS["live_time"] seconds, 120 by default) in a thread of its own while the board reads
    it (`live_poll`) and may stop it (`live_stop`). Its id."""
    pos = read_position(text)
    seconds = _time(time_limit, LIMITS["live_time"], 120.0)
    nodes = _whole(max_nodes, "max_nodes", 1, LIMITS["max_nodes"])
    return {"id": live.start(pos, Limit(time=seconds, nodes=nodes), _goal(pos, objective, match_score, target))}


def live_poll(live: LiveAnalyses, key: Any) -> dict:
    """A live analysis's progress (`info`: the depth being searched, the nodes so far counted
    live, seconds, nodes per second), whether it is `done`, and its latest depth as `analysis`
    (the move values, as `analysis` gives them) and `line` (the value and principal variation,
    as `principal_variation` gives them); both None before the first depth lands."""
    def show(rows: Analysis, goal: Union[str, Match]) -> dict:
        pos = rows.result.position
        return {"moves": _moves(pos, rows, goal), "line": _pv_steps(pos, rows.result, goal)}
    return live.poll(key, show)


def live_stop(live: LiveAnalyses, key: Any) -> dict:
    """Stop a live analysis (what it has found stays readable a little while)."""
    live.stop(key)
    return {"id": key, "stopped": True}


def tree_svg(text: Any, max_nodes: Any = None) -> dict:
    """The principal variation with every alternative at each step (`to_networkx(mode="pv")`)
    drawn by the package's tree renderer, as SVG text."""
    from ..tree import TreeOptions, render, to_networkx
    pos = read_position(text)
    nodes = _whole(max_nodes, "max_nodes", 1, LIMITS["tree_nodes"], LIMITS["tree_nodes"])
    graph = to_networkx(pos, Limit(time=LIMITS["tree_time"]), TreeOptions(max_nodes=nodes), mode="pv")
    with tempfile.TemporaryDirectory() as folder, _render_lock:
        path = render(graph, os.path.join(folder, "tree.svg"))
        with open(path, encoding="utf-8") as f:
            svg = f.read()
    return {"position": pos.to_string(), "nodes": graph.number_of_nodes(), "svg": svg[svg.find("<svg"):]}


# -- hidden cards ---------------------------------------------------------------------------------

def suggestion(text: Any, player: Any = None, worlds: Any = None, seed: Any = None,
               time_limit: Any = None, why: Any = None, match_score: Any = None, target: Any = None) -> dict:
    """`suggest`'s table for the player to move from their view (of a full position, or a view
    given directly): mean, standard error and optimal share of each move over the worlds. With
    `why` (a move's text, or '' for the fair second best): also the fair why of the fair best
    against it (`explain_view` over the worlds `why_worlds` gives), which names no hidden card.
    With `match_score` (and `target`): every world searched under `Match(match_score, target)`,
    the means chances to win the match in 1/10,000ths (`chance` beside each, 0 to 1)."""
    from ..imperfect.pimc import suggest
    view = _view_of(read_state(text), player)
    count = _whole(worlds, "worlds", 1, LIMITS["worlds"], 200)
    if why is not None and not isinstance(why, str):
        raise NotationError("why must be a move's text, or '' for the fair second best")
    goal = _goal(view, None, match_score, target)
    if isinstance(goal, Match) and why is not None:
        raise MatchError("why explains the round's margin: not with match_score")
    result = suggest(view, Limit(time=_time(time_limit)), worlds=count, seed=_seed(seed), progress=False,
                     objective=goal)
    out = {**result.to_dict(), "board": board(view)}
    if isinstance(goal, Match):
        for row in out["moves"]:
            row["chance"] = row["mean"] / MATCH_ONE
        out["match"] = {"score": list(goal.score), "target": goal.target, "text": out["best_text"]}
    if why is not None:
        from ..imperfect.fairwhy import WHY_WORLDS, explain_view, why_worlds
        many, from_seed = why_worlds(result)
        each = Limit(time=_time(time_limit) / WHY_WORLDS)       # a world's search: a share of the request's
        out["why"] = explain_view(view, why or None, None, each, worlds=many, seed=from_seed,
                                  suggestion=result).to_dict()
    return out


def _view_of(state: Union[Position, View], player: Any) -> View:
    """The view of `player` (default: the side to move's) of a position, or a view given directly."""
    if player is None:
        player = state.player if isinstance(state, View) else state.to_move
    player = _whole(player, "player", 0, state.rules.players - 1)
    if isinstance(state, Position):
        return state.view(player)
    if player != state.player:
        raise NotationError(f"the text is player {state.player}'s view, not player {player}'s")
    return state


def unseen(text: Any, player: Any = None, model: Any = None, worlds: Any = None, seed: Any = None,
           moves: Any = None) -> dict:
    """`View.where_unseen` of `player`'s view (of a full position, or a view given directly),
    after `moves` when given: the unseen cards by rank and suit and each hidden place's chance
    of holding each. Only the player's views are read, so the answer never tells a hidden card.
    With `model` (two players), the worlds are weighed as `InferenceBot` weighs them (`worlds`
    drawn with `seed` when there are too many to weigh all), the bot having followed the
    player's views along `moves` (so that it reads the opponent's plays of the deal)."""
    state = read_state(text)
    line = _line(state, moves)
    if line:
        state = line[-1][0].play(line[-1][1])
    view = _view_of(state, player)
    bot = None
    if model:
        from ..play.bots import DECISION_SECONDS
        from ..play.inference import InferenceBot
        count = _whole(worlds, "worlds", 1, LIMITS["worlds"], 1000)
        bot = InferenceBot(Limit(time=DECISION_SECONDS, threads=1), worlds=count,
                           seed=_whole(seed, "seed", 0, 2**63 - 1, 0))
        for before, move in line:
            if before.to_move == view.player:      # the player's own decisions, as it saw them
                bot.remember(before.view(view.player), move)
    odds = view.where_unseen(bot)
    return {**odds.to_dict(), "view": view.to_string(), "about": odds.describe()}


# -- play against a bot ---------------------------------------------------------------------------

def _bot(kind: str, seed: int, rules: Any, record: Any = None) -> Any:
    """The board's bot: PIMC with 50 worlds in two-player Scopa; in the family games the game's
    budget (`PIMCBot`'s worlds and nodes, `decision_seconds`: every bot between two of the
    player's turns within `TURN_SECONDS`), as at the terminal; never over `bot_time` a move.
    "pimc-match" in a match `record` is told the score before the round (`start_round`) and
    plays to win the match (in a game of rounds, the margin)."""
    from ..play.bots import GreedyBot, PIMCBot, RandomBot, decision_seconds
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "greedy":
        return GreedyBot()
    family = rules.players > 2
    bot = PIMCBot(Limit(time=min(LIMITS["bot_time"], decision_seconds(rules))), worlds=None if family else 50,
                  seed=seed, objective="match" if kind == "pimc-match" else "value")
    if kind == "pimc-match" and record is not None and record.kind == "match":
        bot.start_round(record.totals, rules.target)
    return bot


def _read_record(text: Any) -> Any:
    from ..play.record import GameRecord
    if isinstance(text, dict):      # one limit for both forms: the size of the record's JSON
        text = json.dumps(text, ensure_ascii=False, separators=(",", ":"))
    return GameRecord.from_json(_text(text, "the record", LIMITS["record"]))


def _game_meta(record: Any) -> tuple[str, int, int]:
    meta = record.meta.get("web") if isinstance(record.meta, dict) else None
    if (not isinstance(meta, dict) or meta.get("bot") not in BOTS
            or meta.get("seat") not in range(record.rules.players)
            or not isinstance(meta.get("seed"), int)
            or not record.rounds or (record.kind != "match" and len(record.rounds) != 1)):
        raise RecordError("not a game started on this board (its meta.web names the bot, seat and seed)")
    return meta["bot"], meta["seat"], meta["seed"]


def _advance(record: Any, bots: Optional[int] = None) -> dict:
    """Let the bots move until it is the human's turn or the round is over (at most `bots`
    moves when given: the page asks for one at a time, to show each as it lands); the game's
    state."""
    kind, seat, seed = _game_meta(record)
    rnd = record.rounds[-1]
    pos = record.replay()[-1].final
    left = -1 if bots is None else bots
    while not pos.is_round_over() and pos.to_move != seat and left != 0:
        # a bot a move, seeded by the ply: the same game whether the bots' moves come one a
        # request or all at once
        move = _bot(kind, (_round_seed(seed, len(record.rounds) - 1) + len(rnd.moves)) % 2**63,
                    record.rules, record)(pos)
        rnd.moves.append(move)
        pos = pos.play(move)
        left -= 1
    replayed = record.replay()[-1]
    log = []
    for k, move in enumerate(replayed.moves):
        before = replayed.positions[k]
        log.append({"number": k + 1, "player": before.to_move, "name": replayed.players[before.to_move],
                    "move": str(move), "scopa": before.is_scopa(move)})
    over = pos.is_round_over()
    # `start`: the round's deal, so that the page can open the game in its move list
    return {"record": record.to_json(), "seat": seat, "bot": kind, "over": over, "log": log,
            "start": replayed.positions[0].to_string(),
            "board": board(pos if over else pos.view(seat)),
            "score": pos.round_score().to_dict() if over else None,
            **_match_state(record, seat)}


def new_game(bot: Any = "random", seat: Any = 0, seed: Any = None, rules: Any = None, bots: Any = None,
             match: Any = None) -> dict:
    """A new round of the game of `rules` (two-player Scopa by default) against a bot (`BOTS`,
    playing every other seat), the human in `seat`; the bots move first when due (at most
    `bots` moves when given: `bot_move` plays the others one by one)."""
    from ..play.record import GameRecord, RoundRecord
    if not isinstance(bot, str) or bot not in BOTS:
        raise NotationError(f"unknown bot {excerpt(bot)}: choose {', '.join(BOTS)}")
    game = read_rules(rules)
    if match is not None:
        game = _match_rules(game, match)
    seat = _whole(seat, "seat", 0, game.players - 1)
    seed = _seed(seed)
    start = Position.new_round(seed=seed, rules=game)
    name = _bot(bot, seed, game).name
    record = GameRecord(rules=game, players=tuple("you" if p == seat else name for p in range(game.players)),
                        kind="rounds" if match is None else "match",
                        meta={"web": {"bot": bot, "seat": seat, "seed": seed}})
    record.add_round(RoundRecord.from_play(start))
    return _advance(record, _bots(bots))


def _bots(value: Any) -> Optional[int]:
    return _whole(value, "bots", 0, 40)


def _your_turn(record: Any) -> tuple[Position, int]:
    """The position of a game where the human is to move, and the game's seed; a `RecordError`
    when the round is over or a bot is to move."""
    _, seat, game_seed = _game_meta(record)
    pos = record.replay()[-1].final
    if pos.is_round_over():
        raise RecordError(_over(record))
    if pos.to_move != seat:
        raise RecordError(f"it is the bot's turn, not yours (player {pos.to_move} to move)")
    return pos, game_seed


def game_move(record: Any, move: Any, bots: Any = None) -> dict:
    """Play the human's `move` in the game of `record`, then the bots' replies (at most `bots`
    of them when given: 0 answers at once, the page then asks `bot_move` for each)."""
    record = _read_record(record)
    pos, _ = _your_turn(record)
    record.rounds[-1].moves.append(Move.parse(_text(move, "the move"), pos))
    return _advance(record, _bots(bots))


def bot_move(record: Any) -> dict:
    """One bot move in the game of `record` (a bot's turn: the request is one bot's thinking,
    so the page shows each move as it is played and who thinks next)."""
    record = _read_record(record)
    _, seat, _ = _game_meta(record)
    pos = record.replay()[-1].final
    if pos.is_round_over():
        raise RecordError(_over(record))
    if pos.to_move == seat:
        raise RecordError(f"it is your turn (player {seat}), not a bot's")
    return _advance(record, 1)


# -- match play and hints (issue 45) --------------------------------------------------------------

MATCH_TARGETS = (11, 16, 21, 31)
"""The match targets the board's menu offers (`Rules.target`); the API takes any from
`play.equity.MIN_TARGET` to `MAX_TARGET` (2 to 61), as far as the match equity goes."""


def _match_targets() -> tuple[int, int]:
    from ..play.equity import MAX_TARGET as high, MIN_TARGET as low
    return low, high


def _match_rules(rules: Rules, target: Any) -> Rules:
    """`rules` with the match's `target` (2 to 61 points)."""
    low, high = _match_targets()
    if not isinstance(target, int) or isinstance(target, bool) or not low <= target <= high:
        raise RulesError(f"match must be the points that win the match, a whole number from {low} to {high}, "
                         f"not {excerpt(target)}")
    return dataclasses.replace(rules, target=target)


def _round_seed(seed: int, index: int) -> int:
    """The seed of round `index` (0-based) of a board game: the game's seed for the first."""
    return (seed + 1_000_003 * index) % 2**63


def _over(record: Any) -> str:
    """Why no move can be played: the round (or the match) is over."""
    if record.kind != "match":
        return "the round is over: start a new game"
    if record.winner is not None:
        return "the match is over: start a new game"
    return "the round is over: deal the next round of the match"


def _match_state(record: Any, seat: int) -> dict:
    """The match's running score for the page (`match`: None for a single round) and the hints
    the human asked for."""
    hints = sum(1 for rec in record.rounds for h in rec.help if h.seat == seat)
    if record.kind != "match":
        return {"match": None, "hints": hints}
    rules = record.rules
    replayed = record.replay()
    winner = record.winner
    finished = replayed[-1].finished
    dealer = record.rounds[-1].dealer
    return {"hints": hints,
            "match": {"target": rules.target, "round": len(record.rounds), "totals": list(record.totals),
                      "sides": list(record.side_names(len(record.rounds) - 1)),
                      "your_side": rules.sides[seat], "winner": winner,
                      "dealer": dealer,
                      "next": winner is None and finished,
                      "chance": _match_chance(rules, record.totals, (dealer + 1) % rules.players if finished
                                              else dealer, rules.sides[seat])}}


def _match_chance(rules: Rules, totals: tuple[int, ...], dealer: int, side: int) -> Optional[float]:
    """The chance that `side` wins the match from `totals` with seat `dealer` to deal the round
    (the installed match equity's ``chance``, issue 42), rounded to 1/10,000; None when no
    equity is installed for the game and target, or it gives no chance at a score."""
    if match_winner(totals, rules.target) is not None:
        return float(match_winner(totals, rules.target) == side)
    try:
        chance = getattr(default_equity(rules), "chance", None)
        return None if chance is None else round(float(chance(tuple(totals), dealer, side)), 4)
    except (MatchError, ValueError):      # no table for this game or target
        return None


def next_round(record: Any, bots: Any = None) -> dict:
    """Deal the next round of a board match (the round over, the match not won): the deal
    passes to the next seat; then the bots move as in `new_game`."""
    record = _read_record(record)
    _, seat, seed = _game_meta(record)
    if record.kind != "match":
        raise RecordError("a single round has no next round: start a new game")
    if not record.replay()[-1].finished:
        raise RecordError("the round is not over yet")
    if record.winner is not None:
        raise RecordError("the match is over: start a new game")
    from ..play.record import RoundRecord
    dealer = (record.rounds[-1].dealer + 1) % record.rules.players
    start = Position.new_round(seed=_round_seed(seed, len(record.rounds)), rules=record.rules, dealer=dealer)
    record.add_round(RoundRecord.from_play(start))
    return _advance(record, _bots(bots))


def game_hint(record: Any, seed: Any = None) -> dict:
    """A hint for the human (their turn only): the fair suggestion from their view (`play.hints`,
    a short budget), recorded in the record as help; the game's state with `hint` (the move,
    its fair value and the worlds it was judged over). Never a hidden card."""
    from ..play.hints import ask_hint
    record = _read_record(record)
    pos, game_seed = _your_turn(record)
    rnd = record.rounds[-1]
    default = (_round_seed(game_seed, len(record.rounds) - 1) + len(rnd.moves)) % 2**63
    hint, result = ask_hint(pos, rnd, seed=_whole(seed, "seed", 0, 2**63 - 1, default))
    out = _advance(record, 0)
    out["hint"] = {**hint.to_dict(), "worlds": result.worlds, "total_worlds": result.total_worlds,
                   "exact": result.exact}
    return out


# -- review ---------------------------------------------------------------------------------------

def review_round(record: Any, round_number: Any = None, worlds: Any = None, seed: Any = None,
                 match: Any = None) -> dict:
    """`review` of one round of a game record (one round a request keeps each request short):
    every decision with the solver's verdict, mistakes marked, and each decision's position.
    `match` true: judged by the chance to win the match from the score before the round
    (`review(..., match=True)`, a match's record only; losses in percentage points)."""
    from ..play.review import FairReview, review
    rec = _read_record(record)
    if not rec.rounds:
        raise RecordError("the record has no rounds")
    if match and rec.kind != "match":
        raise MatchError("match: the record holds independent rounds, not a match: review it by the round's points")
    number = _whole(round_number, "round", 1, len(rec.rounds), 1)
    count = _whole(worlds, "worlds", 1, LIMITS["review_worlds"], 50)
    result = review(rec, fair=FairReview(count, _whole(seed, "seed", 0, 2**63 - 1, 0)), rounds=[number],
                    progress=False, budget=LIMITS["review_time"], match=bool(match))
    out = result.to_dict()
    out["round"] = number
    out["round_count"] = len(rec.rounds)
    out["record"] = rec.to_json()
    return out


# -- annotations ----------------------------------------------------------------------------------

def annotate(record: Any, round_number: Any = None, move: Any = None, comment: Any = None) -> dict:
    """Set (or, with null or blank text, remove) the player's comment on move `move` of round
    `round_number` (1 by default) of a game record (`GameRecord.comment`): the record with it,
    and the round's comments."""
    from ..play.record import MAX_COMMENT
    rec = _read_record(record)
    if not rec.rounds:
        raise RecordError("the record has no rounds")
    number = _whole(round_number, "round", 1, len(rec.rounds), 1)
    if comment is not None and not (isinstance(comment, str) and not comment.strip()):
        comment = _text(comment, "the comment", MAX_COMMENT)
    else:
        comment = None
    rec.comment(number, _whole(move, "move", 1, 40), comment)
    comments = rec.rounds[number - 1].comments
    return {"record": rec.to_json(), "round": number,
            "comments": {str(k): comments[k] for k in sorted(comments)}}


# -- puzzles --------------------------------------------------------------------------------------

def puzzle(game: Any = None, tag: Any = None, seed: Any = None) -> dict:
    """A shipped puzzle (`play.puzzles`) of `game` with `tag` (None: any), drawn with `seed` (a
    fresh one when None): the puzzle's data, its board, the answer's two lines and the seed."""
    from ..play.puzzles import shipped
    game = None if game is None else _text(game, "game", 40)
    tag = None if tag is None else _text(tag, "tag", 40)
    seed = _seed(seed)
    puzzles = shipped(game, tag)
    if not puzzles:
        raise PuzzleError(f"no shipped puzzle of game {game} with tag {tag}")
    chosen = random.Random(seed).choice(puzzles)
    return {**_puzzle_data(chosen), "seed": seed}


def _puzzle_data(chosen: Any) -> dict:
    """A puzzle as the board shows it: its data, its board and the answer's two lines."""
    from ..play.puzzles import solution
    s = solution(chosen)
    return {"puzzle": dict(chosen.to_dict(), fair=chosen.fair), "board": board(chosen.to_position()),
            "best_line": [str(m) for m in s.best_line], "second_move": str(s.second_move),
            "second_line": [str(m) for m in s.second_line], "scopas": [list(s.scopas[0]), list(s.scopas[1])]}


def record_puzzles(record: Any, round_number: Any = None, player: Any = None) -> dict:
    """Puzzles from a played game (`puzzles_from_record`): the decisions of one round of the
    record (one round a request keeps each request short) of `player` (a name; None: every
    player) where one move alone kept the exact value, each as `puzzle` gives one, with the move
    played there (`puzzle.played`, `puzzle.found`) and where (`puzzle.where`)."""
    from ..play.puzzles import puzzles_from_record
    rec = _read_record(record)
    if not rec.rounds:
        raise RecordError("the record has no rounds")
    number = _whole(round_number, "round", 1, len(rec.rounds), 1)
    who = None if player is None else _text(player, "player", 40)
    found = puzzles_from_record(rec, who, rounds=[number])
    return {"round": number, "player": who, "puzzles": [_puzzle_data(p) for p in found]}
