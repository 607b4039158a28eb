"""Inputs that once crashed the compiler, each a program in cases/ beside what pyx must do with
it: NAME.out is what `pyx run` prints (exit 0), NAME.stderr the diagnostics it reports (exit 1).
`pyx check` must agree with `pyx run`: the same diagnostics, or none when the program runs."""
from pathlib import Path

import pytest

from helpers import ROOT, run_cli

CASES = sorted((ROOT / "tests" / "robustness" / "cases").glob("*.px"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case(path: Path, monkeypatch):
    monkeypatch.chdir(path.parent)
    ran = run_cli("run", "--color=never", path.name)
    checked = run_cli("check", "--color=never", path.name)
    for result in (ran, checked):
        assert "internal compiler error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    expected_out, expected_err = path.with_suffix(".out"), path.with_suffix(".stderr")
    if expected_out.exists():
        assert (ran.status, ran.stdout, ran.stderr) == (0, expected_out.read_text(), "")
        assert (checked.status, checked.stderr) == (0, "")
    else:
        expected = expected_err.read_text(encoding="utf-8")
        assert (ran.status, ran.stderr) == (1, expected)
        assert (checked.status, checked.stderr) == (1, expected)
