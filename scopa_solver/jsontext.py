"""JSON text read within limits and written for people.

`parse_json` reads text of any origin (a game record, a batch job's JSON line) without the
stack or the memory running out: nesting, the count of values and the digits of a number are
bounded before `json.loads` runs, and anything over a limit is a `RecordError`; `read_at_most`
reads a file of unknown size within a byte limit. `dumps` writes short lists and objects on one
line and the rest indented.

>>> parse_json('{"a": [1, 2]}'), dumps({"a": [1, 2]})
({'a': [1, 2]}, '{"a": [1, 2]}')
>>> parse_json("[" * 101 + "]" * 101)
Traceback (most recent call last):
  ...
scopa_solver.errors.RecordError: lists and objects nested 101 deep; a record nests at most 100
"""
from __future__ import annotations

import itertools
import json
import re
from typing import Any, Union

from .errors import RecordError

__all__ = ["parse_json", "read_at_most", "dumps", "LongNumber", "MAX_DEPTH", "MAX_VALUES", "MAX_DIGITS"]

MAX_DEPTH = 100
"""The deepest nesting of lists and objects read (a record itself nests 4 deep)."""
MAX_VALUES = 4_000_000
"""The most list items and object members read (a round written by scopa-solver has about 12)."""
MAX_DIGITS = 30
"""The most digits of a whole number read as a number (a longer one is a `LongNumber`)."""


class LongNumber:
    """A whole number of more than MAX_DIGITS digits, as read (no field takes one)."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"<a number of {self.digits:,} digits>"


def _parse_int(text: str) -> Union[int, LongNumber]:
    return int(text) if len(text) <= MAX_DIGITS else LongNumber(text)


def parse_json(text: str) -> Any:
    """JSON text read within a record's limits (`MAX_DEPTH`, `MAX_VALUES`, whole numbers of at
    most 30 digits, no NaN), else a `RecordError`: `json.loads` alone recurses once per level
    and ends in a RecursionError on deep input. The game records' reader and the batch jobs'
    reader of JSON lines."""
    _check_shape(text)
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def _refuse_constant(name: str) -> None:
    raise RecordError(f"not JSON: {name} is not a JSON number")


_STRING = re.compile(r'"[^"]*"?')           # once escapes are gone; an open string runs to the end
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DEPTH_STEP = [0] * 256
_DEPTH_STEP[ord("[")] = _DEPTH_STEP[ord("{")] = 1
_DEPTH_STEP[ord("]")] = _DEPTH_STEP[ord("}")] = -1


def _check_shape(text: str) -> None:
    """Refuse JSON nested more than MAX_DEPTH deep or with more than about MAX_VALUES values,
    before `json.loads` (which recurses once per level and takes up to 60 bytes a value). Each
    step runs at C speed: text may be 64 MiB of anything."""
    # Inside a string every backslash escapes the next character: drop the escaped backslashes,
    # then the escaped quotes, and every string is a quote, non-quotes, and a quote.
    text = text.replace("\\\\", "").replace('\\"', "")
    too_many = f"more than {MAX_VALUES:,} values (list items and object members); too many for a record"
    if text.count('"') > 4 * MAX_VALUES:
        raise RecordError(too_many)
    bare = _STRING.sub("", text)
    del text
    if bare.count(",") + bare.count("[") + bare.count("{") > MAX_VALUES:
        raise RecordError(too_many)
    brackets = bare.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    depth = max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)
    if depth > MAX_DEPTH:
        raise RecordError(f"lists and objects nested {depth:,} deep; a record nests at most {MAX_DEPTH}")


def read_at_most(f: Any, size: int, limit: int) -> bytes:
    """At most `limit` bytes of `f`, whose size is said to be `size` (a special file says 0 and
    may never end; reading `limit` bytes at once would take that much memory first)."""
    parts = [f.read(min(size + 1, limit))]
    got = len(parts[0])
    while parts[-1] and got < limit:
        parts.append(f.read(min(2 ** 20, limit - got)))
        got += len(parts[-1])
    return b"".join(parts)


def dumps(obj: Any, indent: str = "", width: int = 100) -> str:
    """`obj` as JSON text for people: a list or an object that fits in `width` columns on one
    line, else one item a line, indented."""
    flat = json.dumps(obj, ensure_ascii=False)
    if len(flat) + len(indent) <= width or not isinstance(obj, (dict, list)) or not obj:
        return flat
    inner = indent + "  "
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, inner, width)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [inner + dumps(v, inner, width) for v in obj]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"
