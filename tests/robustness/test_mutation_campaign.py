"""The mutation campaign (mutate.py) as tests: a small one in every run, thousands with -m slow.
A mutant may be rejected with diagnostics or compile and run; the compiler must never fail
with an internal error, die of a signal, or hang."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mutate

# Small programs that compile and run in well under a second, so fifty mutants stay quick.
SMALL = [mutate.ROOT / "tests" / "golden" / f"{name}.px" for name in (
    "chained_assignment", "edge_conversions", "fstrings", "generic_inference", "mut_arguments", "printing",
    "print_structs", "raise_zero_division", "repr", "string_conversions", "struct_first_use_in_def",
    "comptime_control", "pointers", "str_of_containers")]


def _failures(outcomes):
    return [f"#{o.index} {o.source} ({o.step}): {o.category} {o.detail}" for o in outcomes
            if o.category in mutate.FAILURES]


def test_mutations_are_deterministic():
    assert mutate.mutant(17, 3) == mutate.mutant(17, 3)
    assert mutate.mutant(17, 3) != mutate.mutant(18, 3)


def test_the_classifier_tells_compiler_failures_from_program_ones():
    assert mutate.classify({"status": 1, "stderr": "p.px:1:1: error[E0001]: ..."}, "check")[0] == "diagnostic"
    assert mutate.classify({"status": 101, "stderr": "error: internal compiler error"}, "check")[0] == "internal"
    assert mutate.classify({"status": "signal", "signal": 11}, "run")[0] == "crash"
    assert mutate.classify({"status": "hang"}, "check")[0] == "hang"
    assert mutate.classify({"status": "hang"}, "run")[0] == "slow-program"
    raised = 'Traceback (most recent call last):\n  File "p.px", line 3, in main\nValueError: no\n'
    assert mutate.classify({"status": 1, "stderr": raised}, "run")[0] == "success"


def test_fifty_mutants_get_diagnostics_or_run():
    outcomes = mutate.campaign(50, seed=2024, jobs=2, sources=SMALL, run_sources={p.name for p in SMALL},
                               check_timeout=120, run_timeout=60)
    assert len(outcomes) == 50
    assert not _failures(outcomes)
    counts = mutate.summary(outcomes)
    assert counts["diagnostic"] > 0 and counts["success"] > 0  # both kinds of mutant were made


@pytest.mark.slow
def test_thousands_of_mutants_of_every_program():
    outcomes = mutate.campaign(3000, seed=1, jobs=2)
    assert not _failures(outcomes), "\n".join(_failures(outcomes)[:50])
