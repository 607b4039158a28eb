"""Where CPython raises nothing but pyx's value cannot be what CPython's is, the program stops
(`pyx stops`, semantics/exceptions.py UNCATCHABLE): a traceback ending `pyx stops: <why>`, exit
status 1, and no `except` runs, not even a bare one, since a handler would print what CPython never
prints. Before session 11 each of these was a catchable OverflowError or ValueError, and the
handlers below printed. Ints past 64 bits come from a `def`'s arithmetic (lang/ir/int_overflow.py),
an `int | float` value's (stdlib/number.px, `@python_ints`) and from the stdlib (int(),
int.from_bytes); float sums of no items: tests/golden/sum_floats_*."""
import pytest

from helpers import run_cli

PROGRAM = """def mul(x: int, y: int) -> int:
    return x * y


def power(b: int, n: int) -> int:
    return b ** n


def either(i: int) -> int | float:  # Python's `int | float` (stdlib/number.px: its arithmetic is checked too)
    if i:
        return 2 ** 62
    return 0.5


def main():
    big = 9223372036854775807
    n = 70
    template = "{0.real} {1}"
    print("start")
    try:
        try:
            print({expr})
        except (OverflowError, ValueError) as e:
            print("OverflowError or ValueError:", e)
        except Exception:
            print("handler")
    except:
        print("bare handler")


if __name__ == "__main__":
    main()
"""
INT = "integer result too large for pyx's 64-bit int (CPython's ints have no limit)"
TEXT = "int too large for pyx's 64-bit int"


@pytest.mark.parametrize("expr, why", [
    ("mul(3037000500, 3037000500)", INT), ("2 ** n", INT), ("big + 1", INT), ("-big - 2", INT), ("1 << n", INT),
    ("int('9' * 20)", TEXT), ("int(1e19)", "float too large to convert to pyx's 64-bit int"),
    ("int.from_bytes(b'\\xff' * 9, 'big')", TEXT),
    ("power(2, -1)", "negative exponent in Int ** Int: CPython gives a float here"),
    ("template.format(3, 4)", "pyx's str.format on a str made at run time takes no attribute or index"),
    ("template.replace('0.real', '!a').format(3, 4)", "pyx's str.format on a str made at run time has no `!a`"),
    ("either(1) * 4", INT), ("either(1) + either(1) + either(1)", INT), ("either(1) ** 2", INT),
    ("int(either(0) * 1e20)", "float too large to convert to pyx's 64-bit int"),
])
def test_what_pyx_cannot_compute_as_cpython_does_stops_the_program(expr, why, tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM.replace("{expr}", expr))
    result = run_cli("run", str(path))
    assert (result.stdout, result.status) == ("start\n", 1), result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith(f"pyx stops: {why}"), result.stderr
