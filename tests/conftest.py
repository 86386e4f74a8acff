import os
import sys

# the reference oracles and the shared helpers are plain modules beside the tests
sys.path.insert(0, os.path.dirname(__file__))
# the long tests are marked `slow` and left out by default (pyproject: -m 'not slow'); run
# them with: python -m pytest -m slow
