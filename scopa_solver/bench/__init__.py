"""The installed benchmark (`scopa-solver bench`): shipped suites of positions with their proven
values, best moves and this engine's node counts for every game of the family; running them
with every answer checked; the A/B of two runs; the search techniques switched off one by one;
and perft, the rules' fingerprint. docs/benchmarks.md#the-installed-bench.

- `suites`: the plain-text format, the shipped suites' recipe (SUITES) and their reading;
- `run`: running suites under a configuration (Config: techniques off, threads), the figures;
- `compare`: the A/B of two runs with bootstrap confidence intervals;
- `perft`: the play sequences N plays deep, the shipped counts and their check;
- `make`: the suites and the perft file rebuilt from their seeds.
"""
from __future__ import annotations

from .compare import compare, compare_report, read_result
from .perft import PerftEntry, check_perft, perft, read_perft
from .run import LADDER, TECHNIQUES, Config, failures, report, result_dict, run_suites
from .suites import DEFAULT_SUITES, SUITES, Suite, SuiteEntry, SuiteError, load_suites, read_suite

__all__ = ["compare", "compare_report", "read_result", "PerftEntry", "check_perft", "perft", "read_perft",
           "LADDER", "TECHNIQUES", "Config", "failures", "report", "result_dict", "run_suites",
           "DEFAULT_SUITES", "SUITES", "Suite", "SuiteEntry", "SuiteError", "load_suites", "read_suite"]
