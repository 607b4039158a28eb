"""Every example with a Python twin (examples/NAME.py beside NAME.px) prints exactly what
CPython prints for the twin: the strongest evidence that pyx keeps Python's semantics."""
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, run_pyx

TWINS = sorted(p for p in (ROOT / "examples").glob("*.px") if p.with_suffix(".py").exists())


@pytest.mark.parametrize("path", TWINS, ids=lambda p: p.stem)
def test_example_matches_its_python_twin(path: Path):
    python = subprocess.run([sys.executable, str(path.with_suffix(".py"))], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    result = run_pyx(path)
    assert result.status == 0, result.stderr
    assert result.stdout == python.stdout
