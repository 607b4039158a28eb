"""Every example with a Python twin (examples/NAME.py beside NAME.px) prints exactly what
CPython prints for the twin: the strongest evidence that pyx keeps Python's semantics."""
import glob
import shutil
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


# Golden programs written in the common subset (they end with Python's main guard) must print
# under CPython what they print under pyx; only these use pyx-only names after the guard's
# shared part.
PYX_ONLY = {"math_module": "uses SIMD", "raise_float_pow_overflow": "expects pyx's error text",
            "raise_int_true_division": "expects pyx's error text", "raise_math_domain": "expects pyx's error text"}
GOLDEN_TWINS = sorted(p for p in (ROOT / "tests" / "golden").glob("*.px")
                      if '__name__ == "__main__"' in p.read_text() and p.stem not in PYX_ONLY)


NEEDS_312 = "(needs Python 3.12)"  # a golden written with PEP 701's f-strings says so in a comment


def _python_312() -> str | None:
    """A Python 3.12 or newer that runs: this one, one on PATH, or one among pyenv's versions."""
    if sys.version_info >= (3, 12):
        return sys.executable
    root = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip() \
        if shutil.which("pyenv") else ""
    for minor in ("3.12", "3.13"):
        candidates = [shutil.which(f"python{minor}")]
        candidates += sorted(glob.glob(f"{root}/versions/{minor}.*/bin/python{minor}")) if root else []
        for python in candidates:
            if python and subprocess.run([python, "-c", "pass"], capture_output=True).returncode == 0:
                return python
    return None


@pytest.mark.parametrize("path", GOLDEN_TWINS, ids=lambda p: p.stem)
def test_golden_program_prints_the_same_under_cpython(path: Path):
    interpreter = sys.executable
    if NEEDS_312 in path.read_text():
        interpreter = _python_312()
        if interpreter is None:
            pytest.skip("no Python 3.12 or newer on this machine")
    python = subprocess.run([interpreter, str(path)], capture_output=True, text=True, cwd=path.parent)
    assert python.stdout == path.with_suffix(".out").read_text()
    err = path.with_suffix(".err")
    if err.exists():  # an uncaught exception: the same class and message as pyx's
        assert python.returncode == 1
        assert python.stderr.splitlines()[-1] == err.read_text().splitlines()[-1]
    else:
        assert python.returncode == 0, python.stderr
