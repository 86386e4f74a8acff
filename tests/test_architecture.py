"""docs/ARCHITECTURE.md names every file of the code, and only files that exist.

The files it must name: every module under scopa_solver/ (its __init__.py and __main__.py
files aside: a package is named by its folder) and the kernel's stub, every file of ext/
(_kernel.pyx, its .pxi parts, the build's training script) and every script of benchmarks/.

How a mention is read: a word ending in .py, .pyi, .pyx or .pxi. In the layout (the first code
block, under "## Layout") a bare name belongs to the entry it is written in: `face.py` in the
entry of `kernel/` is scopa_solver/kernel/face.py, `bench_web.py` in the entry of benchmarks/
is benchmarks/bench_web.py. A name with a folder (`tests/reference.py`, `kernel/face.py`) is
read from the checkout's root or else from scopa_solver/. Outside the layout a bare .pxi or .pyx
is a kernel file of ext/ and a bare .py a module of scopa_solver/.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ARCHITECTURE.md"
NAME = re.compile(r"(?<![\w./-])((?:[\w-]+/)*\w+\.(?:pyi|pyx|pxi|py))\b")
TOP_ENTRY = re.compile(r"^([\w.-]+/)\s")              # ext/, scopa_solver/, benchmarks/, tests/
SUB_ENTRY = re.compile(r"^  ([\w.-]+/?)\s")            # "  kernel/" or "  errors.py" in scopa_solver/


def required_files(root: Path) -> set:
    """The files the document must name, relative to the root."""
    files = {p for p in (root / "scopa_solver").rglob("*.py")
             if p.name not in ("__init__.py", "__main__.py")}
    files |= set((root / "scopa_solver").glob("*.pyi"))
    for pattern in ("*.pxi", "*.pyx", "*.py"):
        files |= set((root / "ext").glob(pattern))
    files |= set((root / "benchmarks").glob("*.py"))
    return {p.relative_to(root).as_posix() for p in files if "__pycache__" not in p.parts}


def split_layout(text: str):
    """(the layout block, the rest of the text)."""
    match = re.search(r"^## Layout\n.*?^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    assert match, "ARCHITECTURE.md has no code block under '## Layout'"
    return match.group(1), text[:match.start(1)] + text[match.end(1):]


def resolve(name: str, folder: str, root: Path) -> str:
    """The path (from the root) a mention names; for a missing file, its likeliest path."""
    if "/" in name:
        for base in ("", "scopa_solver/"):
            if (root / (base + name)).exists():
                return base + name
        return name
    return folder + name


def mentions(text: str, root: Path) -> set:
    """Every file path the document names."""
    layout, rest = split_layout(text)
    named, folder = set(), ""
    for line in layout.splitlines():
        top, sub = TOP_ENTRY.match(line), SUB_ENTRY.match(line)
        if top:
            folder = top.group(1)
        elif sub and sub.group(1).endswith("/"):
            folder = "scopa_solver/" + sub.group(1)
        elif sub:
            folder = "scopa_solver/"
        named |= {resolve(n, folder, root) for n in NAME.findall(line)}
    for name in NAME.findall(rest):
        folder = "ext/" if name.endswith((".pxi", ".pyx")) else "scopa_solver/"
        named.add(resolve(name, folder, root))
    return named


def problems(text: str, root: Path) -> list:
    named = mentions(text, root)
    missing = sorted(required_files(root) - named)
    stale = sorted(n for n in named if not (root / n).is_file())
    return ([f"not named in ARCHITECTURE.md: {m}" for m in missing]
            + [f"named in ARCHITECTURE.md but not a file: {s}" for s in stale])


def test_architecture_names_every_file_and_only_files_that_exist():
    found = problems(DOC.read_text(encoding="utf-8"), ROOT)
    assert not found, "\n".join(found)


def test_the_list_covers_the_package_the_kernel_and_the_benchmarks():
    files = required_files(ROOT)
    for path in ("scopa_solver/web/guard.py", "scopa_solver/cli/batch.py", "scopa_solver/text.py",
                 "ext/score.pxi", "ext/_kernel.pyx", "benchmarks/bench_decision.py",
                 "benchmarks/reference_minimax.py", "scopa_solver/_kernel.pyi"):
        assert path in files
    assert not any(p.endswith(("__init__.py", "__main__.py")) for p in files)


LAYOUT = """# A

## Layout

```
ext/                      the kernel: _kernel.pyx; one.pxi
scopa_solver/
  kernel/                 face.py (the face), pool.py
  errors.py               errors
benchmarks/               bench_a.py (a)
tests/                    tests/reference.py
```

Drawn: two.pxi; kernel/face.py
"""


def sample_tree(root: Path, extra=()) -> None:
    for path in ("ext/_kernel.pyx", "ext/one.pxi", "ext/two.pxi", "scopa_solver/__init__.py",
                 "scopa_solver/kernel/__init__.py", "scopa_solver/kernel/face.py",
                 "scopa_solver/kernel/pool.py", "scopa_solver/errors.py", "benchmarks/bench_a.py",
                 "tests/reference.py", *extra):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("", encoding="utf-8")


def test_a_document_naming_every_file_passes(tmp_path):
    sample_tree(tmp_path)
    assert problems(LAYOUT, tmp_path) == []


@pytest.mark.parametrize("extra,expected", [
    ("scopa_solver/web/guard.py", "not named in ARCHITECTURE.md: scopa_solver/web/guard.py"),
    ("scopa_solver/text.py", "not named in ARCHITECTURE.md: scopa_solver/text.py"),
    ("ext/three.pxi", "not named in ARCHITECTURE.md: ext/three.pxi"),
    ("benchmarks/bench_b.py", "not named in ARCHITECTURE.md: benchmarks/bench_b.py"),
])
def test_a_file_the_document_does_not_name_is_reported(tmp_path, extra, expected):
    sample_tree(tmp_path, [extra])
    assert problems(LAYOUT, tmp_path) == [expected]


def test_a_file_named_in_another_entry_does_not_count(tmp_path):
    # pool.py is named in kernel/'s entry: a pool.py of tree/ is still unnamed
    sample_tree(tmp_path, ["scopa_solver/tree/pool.py"])
    assert problems(LAYOUT, tmp_path) == ["not named in ARCHITECTURE.md: scopa_solver/tree/pool.py"]


@pytest.mark.parametrize("gone,expected", [
    ("scopa_solver/kernel/pool.py", "scopa_solver/kernel/pool.py"),
    ("benchmarks/bench_a.py", "benchmarks/bench_a.py"),
    ("ext/two.pxi", "ext/two.pxi"),
    ("tests/reference.py", "tests/reference.py"),
])
def test_a_named_file_that_is_gone_is_reported(tmp_path, gone, expected):
    sample_tree(tmp_path)
    (tmp_path / gone).unlink()
    assert f"named in ARCHITECTURE.md but not a file: {expected}" in problems(LAYOUT, tmp_path)
