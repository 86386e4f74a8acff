"""The house rules of the package's structure, read from the source with `ast` (nothing imported):
no import circles, one module importing the compiled kernel, no reaching into another module's
private names; and the import itself stays light and fast (measured in a subprocess)."""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Optional


ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scopa_solver"

# Files other engineers are rewriting right now (tree/ split, cli/ + benchmarks rewrite, record
# hardening): their violations are reported there, not fixed here. To be emptied after merging.
ALLOWLIST: set[str] = {
    # "scopa_solver/tree/build.py",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _sources()
COMPILED = {"scopa_solver._kernel"}     # extension modules: a submodule, not a private name

# Function-level import edges that make a circle, each with why it stays for now.
KNOWN_EDGES: set[tuple[str, str]] = {
    # Position.view(player) returns a View, and a View's worlds are Positions: the two classes
    # need each other, so one edge is late (inside Position.view). Breaking it means moving
    # `view` off Position (public API) or merging the modules: a decision for the lead.
    ("scopa_solver.core.position", "scopa_solver.core.view"),
}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve(module: str, level: int, importer: str) -> str:
    """The absolute name of a (possibly relative) `from ... import` target."""
    if not level:
        return module
    base = importer.split(".") if _is_package(importer) else importer.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _package_module(name: str) -> Optional[str]:
    """The package module `name` refers to (a name inside a module: that module)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Line numbers of imports under ``if TYPE_CHECKING:`` (never executed)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for inner in node.body:
                    for sub in ast.walk(inner):
                        if isinstance(sub, (ast.Import, ast.ImportFrom)):
                            lines.add(sub.lineno)
    return lines


class Imports:
    """What one module imports from the package: target modules, names per target, and the
    local names bound to package modules (for attribute access)."""

    def __init__(self, name: str, source: Optional[str] = None) -> None:
        self.name = name
        self.tree = ast.parse(MODULES[name].read_text(encoding="utf-8") if source is None else source)
        skip = _type_checking_lines(self.tree)
        self.edges: set[str] = set()
        self.private_from: list[tuple[str, str, int]] = []    # (module, name, line)
        self.aliases: dict[str, str] = {}                      # local name -> package module
        self.imports_kernel = False
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import) and node.lineno not in skip:
                for alias in node.names:
                    if alias.name.split(".")[-1] == "_kernel":
                        self.imports_kernel = True
                    target = _package_module(alias.name)
                    if target:
                        self.edges.add(target)
                        if alias.asname:
                            self.aliases[alias.asname] = target
            elif isinstance(node, ast.ImportFrom) and node.lineno not in skip:
                base = _resolve(node.module or "", node.level, name)
                if base.split(".")[0] != "scopa_solver":
                    continue
                for alias in node.names:
                    full = f"{base}.{alias.name}" if base else alias.name
                    if alias.name == "_kernel" or base.endswith("._kernel") or base == "_kernel":
                        self.imports_kernel = True
                    if full in COMPILED:
                        continue
                    if full in MODULES:       # `from . import kernel`: a submodule
                        self.edges.add(full)
                        self.aliases[alias.asname or alias.name] = full
                    else:
                        target = _package_module(base)
                        if target:
                            self.edges.add(target)
                            if alias.name.startswith("_") and not alias.name.startswith("__"):
                                self.private_from.append((target, alias.name, node.lineno))

    def _module_of(self, node: ast.AST) -> Optional[str]:
        """The package module an expression names: a name bound by an import, or a submodule
        reached through one (`kernel.pool`)."""
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self._module_of(node.value)
            if base is not None and f"{base}.{node.attr}" in MODULES:
                return f"{base}.{node.attr}"
        return None

    def private_attributes(self) -> list[tuple[str, str, int]]:
        """`module._name` where `module` is another package module bound by an import (or a
        submodule of one: `kernel.pool._name`)."""
        found = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                target = self._module_of(node.value)
                if target is not None and target != self.name:
                    found.append((target, node.attr, node.lineno))
        return found


IMPORTS = {name: Imports(name) for name in MODULES}


def _graph() -> dict[str, set[str]]:
    graph = {}
    for name, imp in IMPORTS.items():
        # a package __init__ importing its own submodules is how packages work, not a circle
        graph[name] = {t for t in imp.edges if t != name and (name, t) not in KNOWN_EDGES
                       and not (_is_package(name) and t.startswith(name + "."))}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _allowed(module: str) -> bool:
    return _rel(MODULES[module]) in ALLOWLIST


def test_the_scanner_sees_the_package():
    # guards against a scanner that finds nothing and so can never fail
    assert "scopa_solver.kernel" in MODULES and "scopa_solver.core.position" in MODULES
    assert "scopa_solver.kernel" in IMPORTS["scopa_solver.core.position"].edges
    assert IMPORTS["scopa_solver.kernel.face"].imports_kernel
    assert "scopa_solver.kernel.face" in IMPORTS["scopa_solver.kernel.limit"].edges
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    probe = Imports("scopa_solver.search.solver",
                    "from .. import kernel\nfrom ..core.cards import _SEPARATORS\n"
                    "from ..core import position as p\nx = kernel._idle\ny = p.__doc__\nz = kernel.pool._lock\n"
                    "if TYPE_CHECKING:\n    from ..play import game\n"
                    "def f():\n    from ..core import view\n")
    assert probe.private_from == [("scopa_solver.core.cards", "_SEPARATORS", 2)]
    assert probe.private_attributes() == [("scopa_solver.kernel", "_idle", 4), ("scopa_solver.kernel.pool", "_lock", 6)]
    assert "scopa_solver.play.game" not in probe.edges and "scopa_solver.core.view" in probe.edges
    # function-level imports count: Position.view imports the View lazily
    assert "scopa_solver.core.view" in IMPORTS["scopa_solver.core.position"].edges
    # a package cycle made of edges that are no module cycle (the one play <-> imperfect had)
    assert _package_cycles({"p.x": {"i.y"}, "i.y": set(), "i.z": {"p.w"}, "p.w": set()}) == [["i", "p"]]
    # a module importing its package's __init__, which imports it back (through a sibling too)
    assert _back_into_package({"k": {"k.a", "k.b"}, "k.a": {"k"}, "k.b": {"k.c"}, "k.c": {"k"}, "k.d": {"k"}},
                              {"k"}) == [("k.a", "k"), ("k.c", "k")]


def test_no_import_circles():
    for importer, target in KNOWN_EDGES:     # an edge that is gone must leave the list
        assert target in IMPORTS[importer].edges, (importer, target)
    graph = _graph()
    for name in list(graph):
        if _allowed(name):
            graph[name] = set()
    assert _cycles(graph) == []


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        v = todo.pop()
        if v == goal:
            return True
        if v not in seen:
            seen.add(v)
            todo.extend(graph.get(v, ()))
    return False


def _back_into_package(graph: dict[str, set[str]], packages: set[str]) -> list[tuple[str, str]]:
    """The edges from a module to a package it is in whose __init__ imports that module back
    (directly or through others): circles that `_graph` hides, as it leaves out a package's
    imports of its own modules."""
    return sorted((name, t) for name, targets in graph.items() for t in targets
                  if t in packages and name.startswith(t + ".") and _reaches(graph, t, name))


def test_no_module_imports_its_package_back():
    # `from . import name` in kernel/pool.py would read the name from kernel/__init__.py, which is
    # still importing pool.py: a module imports its siblings, never the package that imports it
    graph = {name: imp.edges - {name} for name, imp in IMPORTS.items()}
    assert _back_into_package(graph, {name for name in MODULES if _is_package(name)}) == []


def _package(name: str) -> str:
    """The subpackage a module belongs to (a top-level module: itself)."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (len(parts) == 2 and _is_package(name)) else name


def _package_cycles(graph: dict[str, set[str]], package=lambda name: name.split(".")[0]) -> list[list[str]]:
    """The circles between packages: module edges read as edges between their packages."""
    packages: dict[str, set[str]] = {}
    for name, targets in graph.items():
        packages.setdefault(package(name), set()).update(package(t) for t in targets)
    return _cycles({p: {t for t in targets if t != p} for p, targets in packages.items()})


def test_no_circles_between_subpackages():
    # the layers: core < search < imperfect < play < the faces (cli, web, batch); a package that
    # imports another and is imported by it back (at module level or inside a function) is one
    # part split in two, even when no module circle shows (play.bots -> imperfect.pimc and
    # imperfect.inference -> play.bots before the View moved to core and the opponent model to play)
    graph = {name: {t for t in imp.edges if not (_is_package(name) and t.startswith(name + "."))}
             for name, imp in IMPORTS.items()}
    assert _package_cycles(graph, _package) == []


def test_only_the_kernel_face_imports_the_compiled_kernel():
    importers = sorted(name for name, imp in IMPORTS.items() if imp.imports_kernel)
    # the package __init__ only tries the import to give a helpful message when the build is missing
    assert importers == ["scopa_solver", "scopa_solver.kernel.face"]
    init = IMPORTS["scopa_solver"]
    uses = [n for n in ast.walk(init.tree) if isinstance(n, ast.Name) and n.id == "_kernel"]
    assert not uses, "scopa_solver/__init__.py may import _kernel to check the build, never use it"


def test_no_module_reaches_into_another_modules_private_names():
    bad = []
    for name, imp in IMPORTS.items():
        if _allowed(name):
            continue
        for target, attr, line in imp.private_from + imp.private_attributes():
            if target != name:
                bad.append(f"{_rel(MODULES[name])}:{line}: {attr} of {target}")
    assert bad == []


def _run(code: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *args, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=60)


def test_import_loads_only_the_standard_library():
    # importing the package pulls in no third-party module (the heavy parts load lazily); a
    # check of modules, not a timing, so a busy machine cannot fail it (about 60 ms here)
    code = ("import sys, json\n"
            "before = set(sys.modules)\n"
            "import scopa_solver\n"
            "print(json.dumps(sorted(m for m in set(sys.modules) - before\n"
            "                        if m.split('.')[0] not in sys.stdlib_module_names)))")
    out = _run(code)
    assert out.returncode == 0, out.stderr
    loaded = json.loads(out.stdout)
    assert "scopa_solver._kernel" in loaded
    # the compiled kernel brings Cython's own runtime modules, nothing else from outside
    assert [m for m in loaded if m.split(".")[0] != "scopa_solver"
            and not m.startswith(("_cython_", "cython_runtime"))] == []


def test_solving_loads_no_heavy_module():
    code = ("import sys, json, scopa_solver\n"
            "from scopa_solver import Limit, Position\n"
            "scopa_solver.solve(Position.new_round(seed=1), Limit(nodes=20000))\n"
            "print(json.dumps([m for m in ('numpy', 'networkx', 'tqdm', 'matplotlib') if m in sys.modules]))")
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == []


def test_the_type_hints_ship():
    # PEP 561: py.typed (and the kernel's stub) are package data, in the wheel and the sdist
    assert (ROOT / "scopa_solver" / "py.typed").is_file() and (ROOT / "scopa_solver" / "_kernel.pyi").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^scopa_solver = \[.*"py\.typed"', pyproject, re.M)
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert "scopa_solver/py.typed" in manifest


def test_every_package_ships():
    # pyproject.toml lists the packages by hand: a subpackage left out would be missing from the wheel
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.search(r"^packages = \[(.*)\]", pyproject, re.M)
    assert listed is not None
    assert set(re.findall(r'"([\w.]+)"', listed.group(1))) == {name for name in MODULES if _is_package(name)}
