"""The rule that matters most, on real programs: every program of the corpus (everyday Python, unmodified:
benchmarks/corpus/*.py and the examples' Python twins) either prints under pyx exactly what CPython prints or
is rejected at compile time with diagnostics. Printing something else, or pyx failing, is the worst bug.

`python benchmarks/corpus.py` prints the whole table (which programs run, which codes block the rest)."""
import sys

import pytest

from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import corpus

# Programs that compile and then fail at run time where CPython succeeds, each with why that is the
# documented difference rather than a bug. Empty: none may do so silently.
RUNTIME_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("path", corpus.programs(), ids=lambda p: p.stem)
def test_program_prints_what_cpython_prints_or_is_rejected(path):
    outcome = corpus.classify(path)
    assert outcome.verdict not in ("different", "crash"), f"{outcome.name}: {outcome.verdict}: {outcome.detail}"
    if outcome.verdict == "runtime":
        assert outcome.name in RUNTIME_DIFFERENCES, f"{outcome.name} fails at run time: {outcome.detail}"
