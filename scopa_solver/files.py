"""Files written whole or not at all: into a temporary file beside the target, then moved onto
it in one step, so that a reader never sees half a file and a failure (a full disk, Ctrl-C)
leaves the old file as it was. One place for every writer of the package (game records, the
command line's outputs, batch results)."""
from __future__ import annotations

import os
import tempfile
from typing import Any, Callable, Union

__all__ = ["write_atomic", "write_text_atomic", "file_mode"]

PathLike = Union[str, "os.PathLike[str]"]


def file_mode(path: str) -> int:
    """The permissions a written file gets: the old file's, else 0o666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: PathLike, write: Callable[[str], Any], *, overwrite: bool = True) -> None:
    """Call `write(temporary_path)` for a temporary file beside `path` (with the same suffix, so
    that writers that go by the suffix choose the same format), then move it onto `path`.
    Without `overwrite` an existing `path` is a FileExistsError, checked again by the move itself
    (a hard link, where the file system has them), so a file that appears meanwhile is never
    replaced. The file gets the old file's permissions, else the usual ones."""
    path = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(path))
    if not overwrite and os.path.lexists(path):
        raise FileExistsError(path)
    prefix, suffix = _temporary_affixes(name)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=suffix)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, file_mode(path))
        if overwrite:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)        # fails if `path` appeared meanwhile: never replaces it
            except FileExistsError:
                raise
            except OSError:               # no hard links here: the check above has to do
                os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _temporary_affixes(name: str) -> tuple[str, str]:
    """The start and end of the name of `write_atomic`'s temporary file for `name` (the same
    suffix as `name`'s, for writers that go by it)."""
    return f".{name}.", f".tmp{os.path.splitext(name)[1]}"


def is_atomic_leftover(name: str, of: str) -> bool:
    """`name` is a temporary file `write_atomic` left beside `of` when its process was killed
    in the middle of a write (a part of the file, never a user's own)."""
    prefix, suffix = _temporary_affixes(of)
    middle = name[len(prefix):len(name) - len(suffix)]      # mkstemp's 8 random letters, digits, _
    return name.startswith(prefix) and name.endswith(suffix) and len(middle) == 8 and \
        all(c.isascii() and (c.isalnum() or c == "_") for c in middle)


def write_text_atomic(path: PathLike, text: str, *, overwrite: bool = True) -> None:
    """`write_atomic` of `text` in UTF-8, flushed to the disk before the move."""
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    write_atomic(path, write, overwrite=overwrite)
