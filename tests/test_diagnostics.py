"""Diagnostics as data: every `# E: CODE text` comment in tests/diagnostics/*.px is one
expected diagnostic on that line (text is a substring of the message; several are
separated by ` | `). The compiler must report exactly those, no more and no fewer."""
import re
from pathlib import Path

import pytest

from helpers import ROOT
from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.source import SourceFile

CASES = sorted((ROOT / "tests" / "diagnostics").glob("*.px"))
MARK = re.compile(r"#\s*E:\s*(.*)$")


def expectations(text: str) -> list[tuple[int, str, str]]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        m = MARK.search(line)
        if not m:
            continue
        for item in m.group(1).split(" | "):
            code, _, message = item.strip().partition(" ")
            out.append((number, code, message.strip()))
    return out


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_expected_diagnostics(path: Path):
    source = SourceFile(str(path), path.read_text())  # the full path: imports resolve beside it
    with pytest.raises(CompileError) as info:
        pipeline.check(source)
    got = [(d.span.line if d.span else 0, d.code, d.message) for d in info.value.diagnostics]
    expected = expectations(source.text)
    unmatched = list(got)
    missing = []
    for line, code, text in expected:
        hit = next((g for g in unmatched if g[0] == line and g[1] == code and text in g[2]), None)
        if hit is None:
            missing.append((line, code, text))
        else:
            unmatched.remove(hit)
    assert not missing and not unmatched, f"missing: {missing}\nunexpected: {unmatched}"
