"""The stdlib bindings a module gets without an import (semantics/module.py `_HIDDEN`): a module loads
stdlib/true_division.px only for a `/` that may divide two ints, not for `x / 2.0`, and a `/` of two
ints beyond 2**53 still gets Python's correctly rounded quotient."""
from helpers import run_source
from pyx.diagnostics import DiagnosticBag
from pyx.semantics.module import uses_summary
from pyx.source import SourceFile
from pyx.syntax import parse


def _wants_true_division(code: str) -> bool:
    return bool(uses_summary(parse(SourceFile("prog.px", code), DiagnosticBag()))["true_division"])


def test_a_division_by_a_float_literal_loads_no_true_division():
    assert not _wants_true_division("def half(x: float) -> float:\n    return x / 2.0 + 1.5 / x\n")


def test_a_division_that_may_be_of_two_ints_loads_true_division():
    assert _wants_true_division("def mean(xs):\n    return sum(xs) / len(xs)\n")
    assert _wants_true_division("def f(x: float) -> float:\n    return x / 2.0 + x / 3\n")


def test_int_division_beside_a_float_one_is_still_correctly_rounded(tmp_path):
    program = ("def main():\n    a = 2**53 + 1\n    x = 1.5\n    print(x / 2.0, a / 3, -(2**62) / 7, (-2**63) / 3)\n")
    result = run_source(program, tmp_path, "prog.py")
    assert result.stdout == "0.75 3002399751580331.0 -6.588122883467697e+17 -3.0744573456182584e+18\n"
