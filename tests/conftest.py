import os
import sys

# the reference oracle and the bridge are plain modules beside the tests
sys.path.insert(0, os.path.dirname(__file__))

import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="also run the long tests marked slow")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long version of a test, run with --runslow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
