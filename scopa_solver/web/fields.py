"""The JSON API's request fields: one pydantic model a route, which declares its fields and their
types and takes no other, and `read`, which turns a request's body into one or refuses it with a
`FieldError` naming the field (the app answers 400). The values themselves (a notation, a seat
in range, a limit) are checked by `service`, whose refusals are 422.

Text must be Unicode: a lone surrogate (``"\\ud800"``) or bytes that are not UTF-8 (a character
cut short) are refused wherever they are, a record's inner fields too.

>>> read(Deal, b'{"seed": 3, "rules": "players=3"}')
Deal(seed=3, dealer=None, rules='players=3')
>>> read(Deal, b'{"position": "7d"}')
Traceback (most recent call last):
  ...
scopa_solver.web.fields.FieldError: unknown field 'position': /api/deal takes seed, dealer, rules
>>> read(Board, b'{"position": "7d\\\\ud800"}')
Traceback (most recent call last):
  ...
scopa_solver.web.fields.FieldError: position is not Unicode text at character 2 (a lone surrogate, or bytes that are not UTF-8: a character cut short)
>>> read(Board, b'{"position": "7d/3c 4s')
Traceback (most recent call last):
  ...
scopa_solver.web.fields.FieldError: the request body is not JSON (line 1, column 14: Unterminated string starting at), in field 'position'
"""
from __future__ import annotations

import json
import re
from typing import Annotated, Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from ..errors import RecordError, excerpt
from ..jsontext import MAX_DIGITS, LongNumber, parse_json

__all__ = ["FieldError", "read", "ROUTES", "Board", "Deal", "Compose", "Analyze", "Solve", "Tree", "Suggest",
           "Unseen", "PlayNew", "PlayMove", "PlayBot", "Review", "LiveStart", "LivePoll", "LiveStop", "PuzzleFields",
           "PuzzleRecord", "Lines", "Annotate", "PlayNext", "PlayHint"]


class FieldError(ValueError):
    """A request body that is not a JSON object of the route's fields, each of its type."""


def _about(what: str) -> Any:
    return Field(description=what)


# Lists are checked up to their first wrong item (FailFast: a list of a million wrong items would
# otherwise make a million errors, gigabytes). Written out, not made by a function, so that type
# checkers read them as types.
FailFast = Field(fail_fast=True)
Texts = Annotated[list[str], FailFast]
Notation = Annotated[str, _about("a position's notation (text)")]
Seat = Annotated[Optional[int], _about("a seat (a whole number)")]
Whole = Annotated[Optional[int], _about("a whole number")]
Seconds = Annotated[Optional[float], _about("a number of seconds")]
Name = Annotated[Optional[str], _about("text")]
Flag = Annotated[Optional[bool], _about("true or false")]
RuleTokens = Annotated[Optional[Union[str, Texts]], _about("rule tokens: text, or a list of texts")]
Cards = Annotated[Optional[Union[str, Texts]], _about("cards: text, or a list of texts")]
SeatCards = Annotated[Optional[Annotated[list[Optional[Union[str, Texts]]], FailFast]],
                      _about("a list of cards a seat (each text, or a list of texts)")]
Record = Annotated[Union[str, dict[str, Any]], _about("a game record (its JSON text, or a JSON object)")]


class _Fields(BaseModel):
    # strict: no text read as a number nor a number as text; forbid: a misspelt field is an error
    model_config = ConfigDict(extra="forbid", strict=True)


class Board(_Fields):
    position: Notation
    player: Seat = None
    moves: Annotated[Optional[Texts], _about("a list of moves (text)")] = None


class Deal(_Fields):
    seed: Whole = None
    dealer: Seat = None
    rules: RuleTokens = None


class Compose(_Fields):
    hands: SeatCards = None
    table: Cards = None
    piles: SeatCards = None
    stock: Cards = None
    scopas: Annotated[Optional[Annotated[list[Optional[int]], FailFast]],
                      _about("a list of whole numbers, one a seat")] = None
    dealer: Seat = None
    to_move: Seat = None
    last_capturer: Seat = None
    rules: RuleTokens = None


class Analyze(_Fields):
    position: Notation
    time_limit: Seconds = None
    max_nodes: Whole = None
    objective: Name = None
    match_score: Annotated[Optional[Annotated[list[int], FailFast]],
                           _about("a list of whole numbers, every side's match points")] = None
    target: Whole = None      # the match's target (null: the rules'), with match_score


class Solve(Analyze):
    pass


class LiveStart(Analyze):
    pass


class Lines(_Fields):
    position: Notation
    time_limit: Seconds = None
    max_nodes: Whole = None
    objective: Name = None
    count: Whole = None


class LivePoll(_Fields):
    id: Annotated[str, _about("a live analysis's id (text)")]


class LiveStop(LivePoll):
    pass


class Tree(_Fields):
    position: Notation
    max_nodes: Whole = None


class Suggest(_Fields):
    position: Notation
    player: Seat = None
    worlds: Whole = None
    seed: Whole = None
    time_limit: Seconds = None
    why: Annotated[Optional[str], _about("a move to explain the fair best against (text; '' for the fair "
                                         "second best)")] = None
    match_score: Annotated[Optional[Annotated[list[int], FailFast]],
                           _about("a list of whole numbers, every side's match points")] = None
    target: Whole = None      # the match's target (null: the rules'), with match_score


class Unseen(_Fields):
    position: Notation
    player: Seat = None
    model: Flag = None
    worlds: Whole = None
    seed: Whole = None
    moves: Annotated[Optional[Texts], _about("a list of moves (text)")] = None


class PlayNew(_Fields):
    bot: Name = None
    seat: Seat = None
    seed: Whole = None
    rules: RuleTokens = None
    bots: Whole = None        # the bot moves to play (null: all, until the human's turn)
    match: Whole = None       # a match to this target (2 to 61 points); null: one round


class PlayMove(_Fields):
    record: Record
    move: Annotated[str, _about("a move (text)")]
    bots: Whole = None        # the bot moves to play (null: all, until the human's turn)


class PlayBot(_Fields):
    record: Record


class Review(_Fields):
    record: Record
    round: Whole = None
    worlds: Whole = None
    seed: Whole = None
    match: Flag = None        # judge by the chance to win the match (a match's record)


class Annotate(_Fields):
    record: Record
    round: Whole = None
    move: Annotated[int, _about("a move's number in the round (a whole number)")]
    comment: Annotated[Optional[str], _about("the comment (text; null or empty removes it)")] = None


class PuzzleFields(_Fields):
    game: Name = None
    tag: Name = None
    seed: Whole = None


class PuzzleRecord(_Fields):
    record: Record
    round: Whole = None
    player: Name = None


class PlayNext(_Fields):
    record: Record
    bots: Whole = None        # the bot moves to play (null: all, until the human's turn)


class PlayHint(_Fields):
    record: Record
    seed: Whole = None        # the hint's worlds (null: from the game's seed and the ply)


ROUTES: dict[type[BaseModel], str] = {Board: "/api/board", Deal: "/api/deal", Compose: "/api/compose", Analyze: "/api/analyze",
          Solve: "/api/solve", Tree: "/api/tree", Suggest: "/api/suggest",
          Unseen: "/api/unseen", PlayNew: "/api/play/new",
          PlayMove: "/api/play/move", PlayBot: "/api/play/bot", Review: "/api/review",
          LiveStart: "/api/live/start", LivePoll: "/api/live/poll", LiveStop: "/api/live/stop",
          PuzzleFields: "/api/puzzle", PuzzleRecord: "/api/puzzle/record", Lines: "/api/lines",
          Annotate: "/api/annotate", PlayNext: "/api/play/next", PlayHint: "/api/play/hint"}


def read(model: type[BaseModel], body: bytes, content_type: Optional[str] = None) -> Any:
    """The fields of `model` from a request's `body` (JSON, UTF-8; empty: no fields), else a
    `FieldError` that names the field."""
    kind = (content_type or "").split(";")[0].strip().lower()
    if kind and kind != "application/json" and not kind.endswith("+json"):
        raise FieldError(f"the request body must be JSON (Content-Type: application/json), not {excerpt(kind)}")
    text = body.decode("utf-8", "surrogateescape")      # a byte that is not UTF-8: a lone surrogate, found below
    try:
        data = parse_json(text) if text else {}
    except RecordError as exc:
        # parse_json raises from None; its context is still json's error, with the position
        verb = "is" if str(exc).startswith("not JSON") else "has"
        raise FieldError(f"the request body {verb} {exc}{_field_at(text, getattr(exc.__context__, 'pos', None))}") \
            from None
    if not isinstance(data, dict):
        raise FieldError(f"the request body must be a JSON object of fields, not {type(data).__name__}")
    try:
        fields = model.model_validate(data)
    except ValidationError as exc:
        raise FieldError(_message(model, data, exc.errors()[0])) from None
    if re.search(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]|\d{%d}" % (MAX_DIGITS + 1), text):
        _check_values(data)
    return fields


def _message(model: type[BaseModel], data: dict[str, Any], error: ErrorDetails) -> str:
    name = str(error["loc"][0]) if error["loc"] else "the body"
    if error["type"] == "extra_forbidden":
        return f"unknown field {excerpt(name)}: {ROUTES[model]} takes {', '.join(model.model_fields)}"
    what = model.model_fields[name].description if name in model.model_fields else "of another type"
    if error["type"] == "missing":
        return f"{name} is missing: {what}"
    return f"{name} must be {what}, not {excerpt(data.get(name))}"


def _field_at(text: str, pos: Optional[int]) -> str:
    """', in field NAME': the last field name before character `pos` of the JSON text."""
    names = re.findall(r'"((?:[^"\\]|\\.){1,60})"\s*:', text[:pos]) if pos else []
    return f", in field {excerpt(names[-1])}" if names else ""


def _check_values(data: dict) -> None:
    """Refuse text that is not Unicode and numbers too long to read, anywhere in `data` (the
    record's inner fields too): the message names where."""
    found = _bad_value(data)
    if found is not None:
        path, problem = found
        raise FieldError(f"{_where(path)} {problem}")


def _bad_value(value: Any) -> Optional[tuple]:
    """(the path to the first bad value in `value`, what is wrong with it), or None. Recursive:
    `parse_json` bounds the depth to 100."""
    if isinstance(value, str):
        at = _not_unicode(value)
        return None if at is None else ((), f"is not Unicode text at character {at} (a lone surrogate, "
                                             f"or bytes that are not UTF-8: a character cut short)")
    if isinstance(value, LongNumber):
        return (), f"is a number of {value.digits:,} digits; at most {MAX_DIGITS} are read"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and _not_unicode(key) is not None:
            return (key,), "is a field name that is not Unicode text"
        found = _bad_value(item)
        if found is not None:
            return (key,) + found[0], found[1]
    return None


def _not_unicode(text: str) -> Optional[int]:
    """The first character of `text` that UTF-8 cannot write (a surrogate), or None."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as exc:
        return exc.start


def _where(path: tuple) -> str:
    return ".".join(str(p) if isinstance(p, int) or (p.isidentifier() and p.isascii()) else json.dumps(p)
                    for p in path) or "the body"
