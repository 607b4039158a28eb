"""Everyday Python programs (lists in dicts, objects in lists, aliasing, default arguments,
closures, string methods, negative division, float formatting, globals, loops over containers
that change, iterators kept in variables), run unmodified under CPython and pyx: pyx prints
exactly what CPython prints, or refuses the program when compiling (a diagnostic, exit 1).
Running and printing something else, or crashing, fails. CPython runs with PYTHONHASHSEED=0
(conftest.py), the str hash pyx reproduces.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_pyx

PROGRAMS = sorted((Path(__file__).parent / "programs").glob("s1_*.py"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_prints_what_cpython_prints_or_is_refused(path: Path):
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=path.parent)
    result = run_pyx(path)
    if result.status == 1 and "error[E" in result.stderr and not result.stdout:
        assert "Traceback" not in result.stderr, result.stderr  # refused when compiling, not a crash
        return
    assert (result.status, result.stdout) == (python.returncode, python.stdout), result.stderr
    if python.returncode:  # the same uncaught exception
        assert result.stderr.splitlines()[-1] == python.stderr.splitlines()[-1]
