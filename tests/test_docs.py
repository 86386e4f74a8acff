"""The documentation stays true: README's Python examples run and print what they show, its
commands print what they show, no machine path is committed,
and the relative links of README.md and docs/*.md point at files that exist."""
import doctest
import os
import re
import shlex
import subprocess
import sys
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


def test_readme_python_examples_run_and_print_what_they_show(tmp_path, monkeypatch):
    """The ```python blocks of README.md run in order in one namespace, as a reader would type
    them, in a scratch folder (examples write files such as tree.svg or game.json). A block in
    the interpreter's form (>>>) is a doctest: what it shows printed must be printed (``...``
    stands for timings); any other block must run."""
    monkeypatch.chdir(tmp_path)
    _run_readme_blocks()


def test_readme_python_examples_run_twice_in_one_folder(tmp_path, monkeypatch):
    """A reader who runs the examples again in the same folder (its files left from the first
    time) gets the same output, not an error."""
    monkeypatch.chdir(tmp_path)
    _run_readme_blocks()
    _run_readme_blocks()


def _run_readme_blocks() -> None:
    namespace = {"__name__": "__readme__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for index, code in enumerate(readme_blocks(), 1):
        name = f"README.md python block {index}"
        if ">>>" not in code:
            exec(compile(code, name, "exec"), namespace)
            continue
        test, report = parser.get_doctest(code, namespace, name, "README.md", 0), []
        failed = runner.run(test, out=report.append, clear_globs=False).failed
        assert not failed, "".join(report)
        namespace.update(test.globs)       # a doctest runs in a copy of the namespace


CONSOLE_BLOCK = re.compile(r"^```console[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def readme_commands():
    """(command, expected output) for every `$ scopa-solver ...` line of a ```console block."""
    pairs = []
    for block in CONSOLE_BLOCK.findall(README.read_text(encoding="utf-8")):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            pairs.append((command, output))
    return pairs


def test_readme_shows_commands_with_their_output():
    assert readme_commands()


@pytest.mark.parametrize("command,expected", readme_commands(), ids=[c for c, _ in readme_commands()])
def test_readme_command_prints_what_it_shows(command, expected, tmp_path):
    words = shlex.split(command)
    assert words[0] == "scopa-solver"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "scopa_solver", *words[1:]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    checker = doctest.OutputChecker()
    assert checker.check_output(expected, done.stdout, doctest.ELLIPSIS), \
        f"$ {command}\nshown:\n{expected}\nprinted:\n{done.stdout}"


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
