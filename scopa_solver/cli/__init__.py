"""The command line: ``scopa-solver COMMAND ...`` (also ``python -m scopa_solver``).

`parser` holds the grammar, `commands` one function per command, `output` the JSON and file
writing. Exit codes: 0 on success, 2 with one line on stderr for any error, 130 on Ctrl-C."""
from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

__all__ = ["main"]


def _say(message: str) -> None:
    try:
        print(message, file=sys.stderr)
    except (OSError, ValueError):
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run one command; returns the exit code (never raises, never prints a traceback)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:     # also during the imports or the parsing
        _say("scopa-solver: interrupted")
        return 130


def _main(argv: Optional[Sequence[str]]) -> int:
    from ..errors import ScopaError
    from .commands import COMMANDS
    from .parser import build_parser
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2, message printed)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        return COMMANDS[args.command](args)
    except BrokenPipeError:  # output piped into a program that stopped reading (| head)
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 0
    except (ScopaError, ValueError, OSError) as exc:  # bad input, from us or a library check
        _say(f"scopa-solver: error: {_one_line(exc)}")
        return 2
    except ImportError as exc:     # an optional dependency: one line naming the extra to install
        _say(f"scopa-solver: error: {missing_extra(exc)}")
        return 2
    except MemoryError:
        _say("scopa-solver: error: out of memory")
        return 2
    except Exception as exc:  # a bug: still one line, and what to report
        _say(f"scopa-solver: internal error: {type(exc).__name__}: {_one_line(exc)} (please report it)")
        return 2


# the optional dependencies' top modules and the extra that installs them (pyproject.toml)
EXTRAS = {"fastapi": "web", "uvicorn": "web", "matplotlib": "tree", "graphviz": "tree", "pydot": "tree",
          "dask": "batch", "distributed": "batch", "pyarrow": "batch"}


def missing_extra(exc: ImportError) -> str:
    """The line for a module that could not be imported: the extra to install when it is an
    optional dependency (the package's own message when it names one already)."""
    text = _one_line(exc)
    if "pip install" in text:
        return text
    module = (exc.name or "").split(".")[0]
    if module in EXTRAS:
        extra = EXTRAS[module]
        return f"this needs the {extra} extra ({module} is not installed): pip install 'scopa-solver[{extra}]'"
    return f"a module could not be imported ({text}): reinstall scopa-solver"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."
