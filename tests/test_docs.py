"""The documentation stays true: README's Python examples run, no machine path is committed,
and the relative links of README.md and docs/*.md point at files that exist."""
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

PYTHON_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
# An absolute path of some machine: under work, home, root or Users at the file system root.
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|home|root|Users)/|[A-Za-z]:\\Users\\")
LINK = re.compile(r"\]\(([^)\s]+)\)")
BINARY_SUFFIXES = {".svg", ".png", ".jpg", ".jpeg", ".gif", ".pdf", ".so", ".pyd", ".o", ".a",
                   ".gz", ".zip", ".whl", ".ico", ".pyc"}


def readme_blocks():
    return PYTHON_BLOCK.findall(README.read_text(encoding="utf-8"))


def test_readme_has_python_examples():
    assert len(readme_blocks()) >= 5


@pytest.mark.parametrize("index", range(len(readme_blocks())))
def test_readme_python_block_runs(index, tmp_path, monkeypatch, capsys):
    """Each ```python block of README.md runs as-is, in a fresh namespace, in a scratch folder
    (examples may write files such as tree.svg or game.json)."""
    code = readme_blocks()[index]
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"README.md python block {index + 1}", "exec"), {"__name__": "__readme__"})


def tracked_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                             timeout=30).stdout
        names = [n for n in out.decode("utf-8", "surrogateescape").split("\0") if n]
        if names:
            return [ROOT / n for n in names]
    except (OSError, subprocess.SubprocessError):
        pass
    skip = {".git", "build", "dist", ".venv", ".venv-ci", "__pycache__", ".pytest_cache"}
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip and not d.endswith(".egg-info")]
        files.extend(Path(folder) / n for n in names)
    return files


def test_no_absolute_machine_paths():
    offenders = []
    for path in tracked_files():
        if path.suffix.lower() in BINARY_SUFFIXES or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue                       # binary
        text = data.decode("utf-8", "replace")
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offenders, "absolute machine paths:\n" + "\n".join(offenders)


def doc_files():
    return [README] + sorted((ROOT / "docs").glob("*.md"))


def test_relative_links_point_at_files():
    broken = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for target in LINK.findall(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
                continue                   # a web address, mail, or an anchor in the same file
            file_part = target.split("#", 1)[0]
            if not file_part:
                continue
            if not (doc.parent / file_part).exists():
                broken.append(f"{doc.relative_to(ROOT)}: ]({target})")
    assert not broken, "links to missing files:\n" + "\n".join(broken)


def test_the_api_page_names_every_public_name_and_only_those():
    # docs/api.md: one row per name of scopa_solver.__all__, each importable
    import scopa_solver
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([A-Za-z_]+)[(`]", text, re.M)
    assert sorted(rows) == sorted(scopa_solver.__all__) and len(rows) == len(set(rows))
    assert all(getattr(scopa_solver, name) is not None for name in scopa_solver.__all__)
