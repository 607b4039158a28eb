"""Per-construct IR goldens: tests/ir/goldens/NAME.px beside NAME.ir, the exact text of
`pyx build --emit=ir NAME.px` (pyx IR after lowering and the passes). One small program per
construct, so a change to the lowering or to a pass shows as a diff of the constructs it touches,
as LLVM's FileCheck tests and Cranelift's filetests do.

After an intended change, rewrite the expected files and read their diff before committing:

    PYX_UPDATE_GOLDENS=1 python -m pytest tests/ir/test_ir_goldens.py
"""
import difflib
import os
from pathlib import Path

import pytest

from helpers import ROOT, run_cli

GOLDENS = ROOT / "tests" / "ir" / "goldens"
PROGRAMS = sorted(GOLDENS.glob("*.px"))
UPDATE = os.environ.get("PYX_UPDATE_GOLDENS") == "1"


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_ir_is_what_the_golden_says(path: Path, monkeypatch):
    monkeypatch.chdir(path.parent)  # the printed IR names no directories either way; keep it so
    result = run_cli("build", "--emit=ir", path.name)
    assert result.status == 0, result.stderr
    expected_file = path.with_suffix(".ir")
    if UPDATE:
        expected_file.write_text(result.stdout)
        return
    assert expected_file.exists(), f"{expected_file.name} is missing: run with PYX_UPDATE_GOLDENS=1 to write it"
    expected = expected_file.read_text()
    if result.stdout != expected:
        diff = difflib.unified_diff(expected.splitlines(keepends=True), result.stdout.splitlines(keepends=True),
                                    f"{expected_file.name} (expected)", f"pyx build --emit=ir {path.name}")
        pytest.fail("the IR changed (PYX_UPDATE_GOLDENS=1 rewrites the goldens):\n" + "".join(diff), pytrace=False)


def test_every_golden_has_its_program_and_every_program_its_golden():
    programs = {p.stem for p in PROGRAMS}
    expected = {p.stem for p in GOLDENS.glob("*.ir")}
    assert programs, "no IR golden programs found"
    assert expected - programs == set(), "expected IR without its program"
    if not UPDATE:
        assert programs - expected == set(), "programs without expected IR: run with PYX_UPDATE_GOLDENS=1"
