"""Every Python example of the documentation runs: the ```python blocks of docs/*.md and
README.md.

How the blocks run
- Each file's blocks run in order in one namespace, as a reader would type them into one
  session, in a scratch folder (examples write files such as tree.svg or game.json).
- A block in the interpreter's form (``>>>``) is a doctest: what it shows must be printed
  (ELLIPSIS and NORMALIZE_WHITESPACE on; ``...`` stands for timings). Any other block must run
  without an error; its ``# (...)`` comments are for the reader and are not compared.
- Blocks that need an optional extra run too: the test environment installs every extra
  (pyproject's ``test`` extra).

The marker for a block that is not run
- An HTML comment on the line just before the fence, ``<!-- norun: why -->``, leaves that block
  out. The reason is required (the test fails on a bare ``<!-- norun -->``), and it is for blocks
  that cannot run here, e.g. an arena of a thousand rounds that takes twenty minutes. Use it
  sparingly: make an example small enough to run (a fraction of a second of time limit, a few
  worlds) rather than mark it.
- The whole file stays under about a minute on a busy two-core machine: examples keep their
  limits small.

README.md's blocks are also run, twice and with their own checks, by tests/test_docs.py.
"""
import doctest
import re
from pathlib import Path

import pytest

import scopa_solver

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
NORUN = re.compile(r"<!--\s*norun\b\s*:?\s*(.*?)\s*-->\s*$")


def doc_files() -> list:
    return sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


def python_blocks(path: Path) -> list:
    """(line number, code, norun reason or None) for each ```python block of one file."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in FENCE.finditer(text):
        if match.group(1).strip() != "python":
            continue
        line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        norun = NORUN.search(before)
        blocks.append((line, match.group(2), None if norun is None else norun.group(1)))
    return blocks


FILES_WITH_BLOCKS = [p for p in doc_files() if python_blocks(p)]


def run_blocks(path: Path, name: str) -> int:
    """Run one file's blocks in one namespace (`name` names it in errors); return how many ran."""
    # the blocks run in a scratch folder: the package they import is this checkout's, imported
    # above while the folder was still the checkout's
    assert Path(scopa_solver.__file__).resolve().parent == ROOT / "scopa_solver"
    namespace = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    ran = 0
    for line, code, norun in python_blocks(path):
        if norun is not None:
            continue
        where = f"{name}, the python block at line {line}"
        if ">>>" in code:
            test = parser.get_doctest(code, namespace, where, name, line)
            report = []
            failed = runner.run(test, out=report.append, clear_globs=False).failed
            assert not failed, "".join(report)
            namespace.update(test.globs)       # a doctest runs in a copy of the namespace
        else:
            exec(compile(code, where, "exec"), namespace)
        ran += 1
    return ran


def test_the_docs_have_python_blocks():
    assert sum(len(python_blocks(p)) for p in doc_files()) >= 30


def test_every_norun_marker_gives_a_reason():
    bare = [f"{p.relative_to(ROOT)}:{line}" for p in doc_files()
            for line, _, reason in python_blocks(p) if reason == ""]
    assert not bare, "norun markers without a reason: " + ", ".join(bare)


def test_norun_is_used_sparingly():
    left_out = [(p, line) for p in doc_files() for line, _, reason in python_blocks(p) if reason]
    every = sum(len(python_blocks(p)) for p in doc_files())
    assert len(left_out) * 5 <= every, left_out


@pytest.mark.parametrize("path", FILES_WITH_BLOCKS, ids=[p.name for p in FILES_WITH_BLOCKS])
def test_the_python_blocks_of_a_doc_run(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_blocks(path, path.relative_to(ROOT).as_posix())


def test_the_block_reader_sees_markers_and_doctests(tmp_path):
    """The reader itself: a marked block is left out, a doctest that prints something else fails,
    a plain block that raises fails."""
    doc = tmp_path / "sample.md"
    doc.write_text("text\n\n```python\nx = 2\n```\n\n<!-- norun: takes an hour -->\n"
                   "```python\nraise SystemExit('must not run')\n```\n\n"
                   "```bash\nexit 1\n```\n\n```python\n>>> x + 1\n3\n```\n", encoding="utf-8")
    blocks = python_blocks(doc)
    assert [(line, reason) for line, _, reason in blocks] == [(3, None), (8, "takes an hour"), (16, None)]
    assert run_blocks(doc, "sample.md") == 2
    doc.write_text("```python\n>>> 1 + 1\n3\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="sample.md, the python block at line 1"):
        run_blocks(doc, "sample.md")
    doc.write_text("```python\n1 / 0\n```\n", encoding="utf-8")
    with pytest.raises(ZeroDivisionError):
        run_blocks(doc, "sample.md")
