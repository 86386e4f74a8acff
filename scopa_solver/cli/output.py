"""What the command line writes: JSON on stdout (always valid JSON), and files that are written
whole or not at all (a temporary file in the same folder, then `os.replace`), never over a file
that is not a game record unless asked to."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from datetime import datetime
from typing import Any, Callable, Optional

from ..files import open_regular, write_text_atomic
from .parser import UsageError

RECORD_CHECK_BYTES = 64 << 20   # a file larger than this is not read to see whether it is a record


def print_json(data: Any) -> None:
    """One JSON object on stdout; NaN and infinity are refused (they are not JSON): every
    to_dict of the package gives None for them."""
    print(json.dumps(data, allow_nan=False))


def is_game_record(path: str) -> bool:
    """Does `path` hold a scopa-solver game record (JSON with its "format" mark)?"""
    from ..play.record import FORMAT
    try:
        if os.path.getsize(path) > RECORD_CHECK_BYTES:
            return False
        with open_regular(path, encoding="utf-8", error=UsageError) as f:     # a named pipe: no, at once
            data = json.load(f)
    except (OSError, ValueError):   # unreadable, not a regular file, not text, not JSON
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def check_writable(path: str, *, force: bool = False, records_only: bool = True) -> None:
    """Before any work: can a file be saved at `path`? The folder must exist and be writable;
    with `records_only`, an existing file that is not a game record is kept unless `force`.
    A `UsageError` says why not."""
    name = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(name))
    if not name or name.endswith(os.sep) or os.path.isdir(name):
        raise UsageError(f"cannot save to {name!r}: it is a folder; give a file name")
    if not os.path.isdir(folder):
        raise UsageError(f"cannot save to {name}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"cannot save to {name}: the folder {folder} is not writable")
    if os.path.exists(name) and records_only and not force and not is_game_record(name):
        raise UsageError(f"{name} exists and is not a game record: not overwriting it "
                         "(choose another file, or --force)")


def save_record(record: Any, path: str) -> str:
    """Write a `GameRecord` to `path` atomically; returns the path. An OSError names the file."""
    text = record.to_json()
    try:
        write_text_atomic(path, text)
    except OSError as exc:
        raise UsageError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}") from None
    return os.fspath(path)


def new_file(folder: str, stem: str, suffix: str = ".json", numbered: bool = False) -> str:
    """A path in `folder` no file has: STEM.json, else STEM-2.json, ... (`numbered`: STEM-1.json,
    STEM-2.json, ...). The name is claimed at once (an empty file, created only if absent), so
    two games saved in the same second, even by two programs, never get the same one."""
    for n in range(1, 10_000):
        path = os.path.join(folder, f"{stem}{suffix}" if n == 1 and not numbered else f"{stem}-{n}{suffix}")
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        return path
    raise UsageError(f"no free file name for {stem}{suffix} in {folder}")


def save_game(record: Any, path: Optional[str], say: Callable[[str], None]) -> Optional[str]:
    """Save a played game whatever happens: at `path` (None: a new scopa-game-DATE-TIME.json
    here); if that fails, in a new file here, else in the temporary folder, saying so. Returns
    where it went (None only if nothing could be written anywhere)."""
    stem = f"scopa-game-{datetime.now():%Y%m%d-%H%M%S}"
    places = [] if path is None else [path]
    places += [os.curdir, tempfile.gettempdir()]
    first_error = None
    for place in places:
        claimed = None
        try:
            if place is path:
                target = path
            else:
                target = claimed = new_file(place, stem)
                if place == os.curdir:
                    target = claimed = os.path.relpath(claimed)
            saved = save_record(record, target)
        except (UsageError, OSError) as exc:
            if claimed:
                try:
                    os.unlink(claimed)
                except OSError:
                    pass
            first_error = first_error or exc
            continue
        if first_error is not None:
            say(f"could not save the game where asked ({first_error}); saved it to {saved} instead")
        return saved
    say(f"could not save the game anywhere ({first_error})")
    return None


def keep_older(path: str) -> Optional[str]:
    """Copy the game record at `path` to the first free PATH-1.json, PATH-2.json, ... beside it
    (before a new game is saved over it: a second run of the same command keeps the first game);
    returns the copy's path, None when there is no record to keep."""
    if not is_game_record(path):
        return None
    stem, suffix = os.path.splitext(path)
    copy = new_file(os.path.dirname(stem) or os.curdir, os.path.basename(stem), suffix or ".json", numbered=True)
    try:
        shutil.copy2(path, copy)
    except OSError as exc:
        os.unlink(copy)
        raise UsageError(f"cannot keep the older game record {path} as {copy}: {exc.strerror or exc}") from None
    return os.path.relpath(copy) if not os.path.isabs(path) else copy


def stream_ok(stream: Any) -> bool:
    """Is `stream` an open stream (a closed stdout or stdin is None in Python, or closed)?"""
    return stream is not None and not getattr(stream, "closed", False)
