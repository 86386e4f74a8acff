"""The doctests of the package (pytest's testpaths include scopa_solver/): the modules of an
optional extra are not collected when the extra is not installed."""
import importlib.util

collect_ignore = []
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("scopa_solver/spiel.py")
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("gymnasium") is None:
    collect_ignore.append("scopa_solver/env.py")
