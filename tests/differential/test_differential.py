"""Differential tests: random programs in the common subset of pyx and Python must print
the same thing under both (or raise the same exception after the same output).

Two hypothesis profiles:

- `pyx-diff-ci` (the default run): a bounded, derandomized number of examples, so CI is
  deterministic and quick;
- `pyx-diff-explore` (`python -m pytest -m slow tests/differential`): many more examples
  from a fresh random seed each run. PYX_DIFF_EXAMPLES sets how many.

A failure shows the program (hypothesis `note`) with both outcomes; save it to a file
and run `python tests/differential/compare.py FILE.px [-O0]` to minimize it by hand.
If pyx is wrong, add the bug to known_bugs.py (with a way to steer around it) and its
minimal repro to test_known_bugs.py.

Files: generate.py (the program strategies), cpython.py (the instrumented CPython run),
compare.py (runs both, compares; also a command-line tool), known_bugs.py.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, assume, event, given, note, settings

import pyx.pipeline  # noqa: F401  (raises the recursion limit now, not in the middle of a hypothesis run)
from compare import compare
from cpython import Discard
from generate import Program, expression_programs, programs

SUPPRESSED = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
              HealthCheck.large_base_example]

settings.register_profile(
    "pyx-diff-ci", max_examples=int(os.environ.get("PYX_DIFF_CI_EXAMPLES", "40")), deadline=None,
    derandomize=True, database=None, suppress_health_check=SUPPRESSED, print_blob=True,
)
settings.register_profile(
    "pyx-diff-explore", max_examples=int(os.environ.get("PYX_DIFF_EXAMPLES", "1500")), deadline=None,
    derandomize=False, suppress_health_check=SUPPRESSED, print_blob=True,
)
CI = settings.get_profile("pyx-diff-ci")
EXPLORE = settings.get_profile("pyx-diff-explore")


def check(program: Program) -> None:
    note(f"program (pyx -O{program.opt_level}):\n{program.source}")
    try:
        verdict = compare(program.source, program.opt_level)
    except Discard as exc:
        event(f"discarded: {exc.reason.split(':')[0]}")
        assume(False)
        return
    event(f"CPython raised {verdict.python.exception}" if verdict.python.exception else "ran to the end")
    note(verdict.report())
    assert verdict.agree, verdict.why


@CI
@given(programs())
def test_programs(program):
    check(program)


@CI
@given(expression_programs())
def test_expressions(program):
    check(program)


@pytest.mark.slow
@EXPLORE
@given(programs())
def test_programs_explore(program):
    check(program)


@pytest.mark.slow
@EXPLORE
@given(expression_programs())
def test_expressions_explore(program):
    check(program)
