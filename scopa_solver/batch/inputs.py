"""The inputs of a batch job, read into `Item`s with stable keys.

- a text file: one item per line (position or view notation); the key is the line number
  (1-based); blank lines and lines starting with ``#`` are skipped;
- a JSON lines file (``.jsonl``/``.ndjson``): one JSON value per line, a string of notation or
  an object (``{"position": ...}``, ``{"view": ...}``, a game record, ``{"record": ...}``); the key
  is the object's ``"key"`` field when it has one, else the line number;
- a folder: every ``*.json`` game record in it (sorted by name); the key is the file name;
- ``random:N``: N generated items, keys ``0`` to ``N-1`` (new deals, or for `label` rounds
  played to a ply drawn from each item's seed).

The text is read here; each item is parsed by the job (so a bad line is that item's error).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "positions.txt")
>>> _ = open(path, "w").write("# two positions\\n7d/3c 4s3s -/- - 0/0 0 1 -\\n\\n7d/3c 4s -/- - 0/0 0 1 -\\n")
>>> [(item.key, item.index) for item in read_items(path)]
[('2', 0), ('4', 1)]
>>> [item.key for item in read_items("random:3")]
['0', '1', '2']
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator, Union

from ..errors import excerpt
from ..files import open_regular
from .jobs import BatchItemError, Item, json_line

__all__ = ["read_items", "BatchInputError", "MAX_RECORD_BYTES", "MAX_LINE_CHARS"]

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""A game record file larger than this is that item's error (not read whole into memory)."""
MAX_LINE_CHARS = 16 * 1024 * 1024
"""A line longer than this (in characters) is that item's error (not read whole into memory)."""

_RANDOM = re.compile(r"random:(\d{1,9})")


class BatchInputError(BatchItemError):
    """An input that cannot be read at all: a missing file, an empty folder, duplicate keys."""


def read_items(source: Union[str, "os.PathLike[str]"]) -> list[Item]:
    """Every item of `source` (a file, a folder or ``random:N``) in input order."""
    text = os.fspath(source)
    match = _RANDOM.fullmatch(text) if isinstance(text, str) else None
    if match:
        return [Item(str(i), i, "random", "") for i in range(int(match.group(1)))]
    path = Path(text)
    if path.is_dir():
        items = list(_records(path))
        if not items:
            raise BatchInputError(f"no game records (*.json) in the folder {excerpt(text)}")
    elif path.exists():     # a file: a regular one, else refused at once (a named pipe would wait)
        items = list(_lines(path, json_lines=path.suffix.lower() in (".jsonl", ".ndjson")))
    else:
        raise BatchInputError(f"no such input file or folder: {excerpt(text)} (or random:N for generated items)")
    seen: set = set()
    for item in items:
        if item.key in seen:
            raise BatchInputError(f"the key {excerpt(item.key)} is used twice in {excerpt(text)}: keys must be unique")
        seen.add(item.key)
    return items


def _lines(path: Path, json_lines: bool) -> Iterator[Item]:
    index = 0
    with open_regular(path, encoding="utf-8", errors="replace", error=BatchInputError) as f:
        for number, line in enumerate(iter(lambda: f.readline(MAX_LINE_CHARS + 1), ""), 1):
            if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):   # not read whole: skipped
                while line and not line.endswith("\n"):
                    line = f.readline(1 << 20)
                yield Item(str(number), index, "unread", f"line {number} has over {MAX_LINE_CHARS:,} characters")
                index += 1
                continue
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            key = str(number)
            if json_lines:
                key = _json_key(stripped) or key
            yield Item(key, index, "json" if json_lines else "text", stripped)
            index += 1


def _json_key(line: str) -> str:
    """An object's own "key" (text or a whole number), read cheaply here; a bad line or a bad key
    keeps its line number (the job then reports a bad line)."""
    if not line.startswith("{"):
        return ""
    try:
        data = json_line(line)
    except BatchItemError:
        return ""
    key = data.get("key") if isinstance(data, dict) else None
    key = str(key) if isinstance(key, (str, int)) and not isinstance(key, bool) else ""
    try:
        key.encode("utf-8")     # a lone surrogate ("\ud800") is no text to write or hash
    except UnicodeEncodeError:
        return ""
    return key


def _records(folder: Path) -> Iterator[Item]:
    """Every *.json of `folder` but its subfolders: a record's text, or (too large, not a regular
    file, unreadable) an item that says why it was not read."""
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".json" and not p.is_dir())
    for index, path in enumerate(files):
        try:
            with open_regular(path, encoding="utf-8", errors="replace", error=BatchItemError) as f:
                size = os.fstat(f.fileno()).st_size
                text = None if size > MAX_RECORD_BYTES else f.read()
        except BatchItemError as exc:
            yield Item(path.name, index, "unread", str(exc))
            continue
        except OSError as exc:
            yield Item(path.name, index, "unread", f"cannot read {path.name}: {exc.strerror or exc}")
            continue
        if text is None:
            yield Item(path.name, index, "unread", f"a file of {size:,} bytes, over {MAX_RECORD_BYTES:,}")
        else:
            yield Item(path.name, index, "record", text)
