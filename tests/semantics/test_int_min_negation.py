"""`-x`, `abs(x)` and `x // -1` of the smallest Int in a `def`: CPython's 2**63 does not fit pyx's
64-bit int, so each stops the program, `pyx stops` (before session 6, each printed
-9223372036854775808; before session 11, each raised a catchable OverflowError)."""
import pytest

from helpers import run_cli

OVERFLOW = "pyx stops: integer result too large for pyx's 64-bit int (CPython's ints have no limit)"


@pytest.mark.parametrize("expr", ["-x", "abs(x)", "x // -1", "x // d"])
def test_negating_the_smallest_int_stops_the_program(expr, tmp_path):
    path = tmp_path / "neg.py"
    path.write_text(f"def main():\n    x = -9223372036854775807 - 1\n    d = -1\n    print(-(x + 1), abs(x + 1), "
                    f"x // 2)\n    print({expr})\n\n\nif __name__ == '__main__':\n    main()\n")
    result = run_cli("run", str(path))
    assert result.stdout == "9223372036854775807 9223372036854775807 -4611686018427387904\n"
    assert result.status == 1 and result.stderr.rstrip().endswith(OVERFLOW)
