"""Syntax errors render exactly as in tests/syntax/errors/NAME.stderr, with exit status 1."""
from pathlib import Path

import pytest

from helpers import ROOT, run_cli

CASES = sorted((ROOT / "tests" / "syntax" / "errors").glob("*.px"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_syntax_error(path: Path, monkeypatch):
    monkeypatch.chdir(path.parent)
    result = run_cli("check", "--color=never", path.name)
    assert result.status == 1
    assert result.stderr == path.with_suffix(".stderr").read_text()
    assert "Traceback" not in result.stderr
