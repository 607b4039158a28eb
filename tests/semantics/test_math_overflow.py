"""math's integer functions are pyx code (stdlib/_mathint.px) in 64 bits: a result that would not
fit raises OverflowError, as a program's own `def` arithmetic does, never a wrapped number."""
import pytest

from helpers import run_cli

PROGRAM = """import math


def main():
    for n, k in [(20, 10), (70, 35)]:
        try:
            print(math.comb(n, k))
        except OverflowError as e:
            print("OverflowError:", e)
    print(math.factorial(20))
    print(math.{call})
"""


@pytest.mark.parametrize("call", ["factorial(21)", "perm(30, 25)", "lcm(9223372036854775783, 2)"])
def test_too_large_results_raise(call, tmp_path):
    path = tmp_path / "big.py"
    path.write_text(PROGRAM.replace("{call}", call))
    result = run_cli("run", str(path))
    assert result.stdout.splitlines() == [
        "184756", "OverflowError: integer result too large for pyx's 64-bit int (CPython's ints have no limit)",
        "2432902008176640000"]
    assert result.status == 1
    assert result.stderr.rstrip().endswith("OverflowError: integer result too large for pyx's 64-bit int "
                                           "(CPython's ints have no limit)")
