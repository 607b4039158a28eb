import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("PYX_VERIFY", "1")  # the IR verifier runs after every pass in the tests
