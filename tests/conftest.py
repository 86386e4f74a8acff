import os
import sys

# the reference oracle and the bridge are plain modules beside the tests
sys.path.insert(0, os.path.dirname(__file__))
