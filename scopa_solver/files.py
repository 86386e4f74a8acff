"""Files written whole or not at all: into a temporary file beside the target, then moved onto
it in one step, so that a reader never sees half a file and a failure (a full disk, Ctrl-C)
leaves the old file as it was. One place for every writer of the package (game records, the
command line's outputs, batch results).

And files read only if they are regular files (`open_regular`, `file_kind`): a named pipe would
wait for a writer, a device may never end, so records, batch inputs and outputs and job folders
refuse them at once, here, with the caller's error type."""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import IO, Any, Callable, Optional, Union

__all__ = ["write_atomic", "write_text_atomic", "file_mode", "file_kind", "open_regular", "shown_path"]

PathLike = Union[str, "os.PathLike[str]"]

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> Optional[str]:
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def file_kind(path: PathLike) -> Optional[str]:
    """None for a regular file (through symbolic links), else what it is ("a named pipe", "a
    device", "a folder", "a socket"); an OSError if there is nothing there."""
    return _kind(os.stat(path).st_mode)


def shown_path(path: PathLike) -> str:
    """A path for a message: the end of a long one (where the file's name is)."""
    name = os.fspath(path)
    name = name if isinstance(name, str) else os.fsdecode(name)
    return name if len(name) <= 80 else "..." + name[-77:]


def open_regular(path: PathLike, mode: str = "r", *, error: Callable[[str], Exception], **kwargs: Any) -> IO[Any]:
    """`open(path, mode, **kwargs)` for a regular file only: anything else raises `error(message)`
    at once (the caller's ValueError subclass), never waits. Opened without blocking, so that a
    named pipe's open returns (to be refused) instead of waiting for a writer or a reader."""
    def opener(name: str, flags: int) -> int:
        try:
            fd = os.open(name, flags | os.O_NONBLOCK, 0o666)
        except OSError as exc:
            if exc.errno == errno.ENXIO:        # a pipe with no reader, opened to write
                raise error(f"{shown_path(path)} is a named pipe, not a regular file") from None
            raise
        try:
            kind = _kind(os.fstat(fd).st_mode)
            if kind is not None:
                raise error(f"{shown_path(path)} is {kind}, not a regular file")
            os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        return fd
    return open(path, mode, opener=opener, **kwargs)


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
