"""math's integer functions are pyx code (stdlib/_mathint.px) in 64 bits: where a result would not
fit, the program stops (`pyx stops`, as a program's own `def` arithmetic does), never a wrapped
number, and no handler runs: CPython raises nothing there, it prints the big int."""
import pytest

from helpers import run_cli

PROGRAM = """import math


def main():
    print(math.comb(20, 10))
    print(math.factorial(20))
    try:
        print(math.{call})
    except OverflowError as e:
        print("OverflowError:", e)
    except Exception:
        print("handler")
"""


@pytest.mark.parametrize("call", ["comb(70, 35)", "factorial(21)", "perm(30, 25)", "lcm(9223372036854775783, 2)"])
def test_too_large_results_stop_the_program(call, tmp_path):
    path = tmp_path / "big.py"
    path.write_text(PROGRAM.replace("{call}", call))
    result = run_cli("run", str(path))
    assert result.stdout.splitlines() == ["184756", "2432902008176640000"]
    assert result.status == 1
    assert result.stderr.rstrip().endswith("pyx stops: integer result too large for pyx's 64-bit int "
                                           "(CPython's ints have no limit)")
