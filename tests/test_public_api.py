"""The top level gives exactly `__all__`: no name kept 'for older code', no import leaking."""
from __future__ import annotations

import subprocess
import sys
import types

import scopa_solver


def _public(module: types.ModuleType) -> set[str]:
    # names not starting with '_' that are not the package's own submodules (scopa_solver.core, ...)
    names = set()
    for name in dir(module):
        value = getattr(module, name)
        if name.startswith("_"):
            continue
        if isinstance(value, types.ModuleType) and value.__name__.startswith(module.__name__ + "."):
            continue
        names.add(name)
    return names


def test_the_top_level_names_are_all_and_only_all():
    assert len(scopa_solver.__all__) == len(set(scopa_solver.__all__))
    assert _public(scopa_solver) == set(scopa_solver.__all__)
    assert isinstance(scopa_solver.__version__, str)


def test_every_name_in_all_resolves_in_a_fresh_interpreter():
    # a fresh process: the lazy names (PEP 562) load on first use, the eager ones with the package
    code = ("import scopa_solver\n"
            "missing = [n for n in scopa_solver.__all__ if getattr(scopa_solver, n, None) is None]\n"
            "print(missing)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_name_outside_all_is_an_attribute_error():
    for name in ("DECK", "solve_values", "annotations", "Any", "importlib"):
        assert not hasattr(scopa_solver, name), name


def test_type_checkers_see_every_lazy_name_from_its_module():
    # the lazy names (PEP 562 __getattr__) are imported under TYPE_CHECKING for mypy and editors:
    # the same names from the same modules as _LAZY, so the two cannot drift apart
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(scopa_solver))
    seen = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.level == 1
                seen.update({alias.name: imp.module for alias in imp.names})
    assert seen == scopa_solver._LAZY


# No public function over about 8 parameters (issue 40: the options travel in a `Limit` and a few
# small option values, not on 20-odd keywords declared again on every signature). The functions
# and the classes a user calls to do work (bots, ...) are counted; the value and result types
# (dataclasses, and the position types whose constructor takes the position's parts) hold data,
# one field a parameter, and are not.
MOST_PARAMETERS = 9
VALUE_TYPES = {"Position", "View"}


def _callables() -> list[tuple[str, object]]:
    import dataclasses
    import inspect
    found = []
    for name in scopa_solver.__all__:
        value = getattr(scopa_solver, name)
        if inspect.isclass(value):
            if issubclass(value, BaseException):
                continue
            if not dataclasses.is_dataclass(value) and name not in VALUE_TYPES:
                found.append((f"{name}()", value))
            found += [(f"{name}.{m}", f) for m, f in vars(value).items()
                      if not m.startswith("_") and (inspect.isfunction(f) or isinstance(f, (classmethod, staticmethod)))]
        elif callable(value):
            found.append((name, value))
    return found


def test_no_public_function_takes_more_than_about_eight_parameters():
    import inspect
    too_many = {}
    for name, f in _callables():
        f = getattr(f, "__func__", f)
        try:
            params = [p for p in inspect.signature(f).parameters.values()
                      if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        except (TypeError, ValueError):     # a builtin without a signature
            continue
        if len(params) > MOST_PARAMETERS:
            too_many[name] = len(params)
    assert not too_many, too_many
