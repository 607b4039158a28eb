"""Golden programs: tests/golden/NAME.px runs and prints exactly NAME.out.

An uncaught exception is part of the expectation: NAME.err holds the expected stderr
and the exit status is then 1. A first line `# pyx run OPTIONS` adds options to the run.
A new case is a new pair of files.
"""
from pathlib import Path

import pytest

from helpers import ROOT, run_pyx

GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.px"))
EXAMPLES = sorted((ROOT / "examples").glob("*.px"))


def _check(path: Path, *options: str) -> None:
    first = path.read_text().split("\n", 1)[0]
    if first.startswith("# pyx run "):
        options = (*first.removeprefix("# pyx run ").split(), *options)
    result = run_pyx(path, *options)
    expected_out = path.with_suffix(".out").read_text()
    err_file = path.with_suffix(".err")
    expected_err = err_file.read_text() if err_file.exists() else ""
    assert result.stdout == expected_out
    assert result.stderr == expected_err
    assert result.status == (1 if expected_err else 0)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden(path: Path, monkeypatch):
    monkeypatch.chdir(path.parent)
    _check(Path(path.name))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_unoptimized(path: Path, monkeypatch):
    """-O0 and -O3 must agree: the optimizer may not change what a program prints."""
    monkeypatch.chdir(path.parent)
    _check(Path(path.name), "-O0")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example(path: Path, monkeypatch):
    monkeypatch.chdir(path.parent)
    _check(Path(path.name))
