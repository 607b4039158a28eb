import sys
from pathlib import Path

# The tests import their shared helper (editor_surface.py) by name; with
# pytest's importlib import mode the test directory is not on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parent))
