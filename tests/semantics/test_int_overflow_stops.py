"""A `def`'s int arithmetic whose CPython result does not fit pyx's 64-bit int stops the program
(lang/ir/int_overflow.py): a traceback ending `pyx stops: ...`, exit status 1, and no `except`
runs, not even a bare one, since CPython raises nothing there (it prints the big int). Before,
each was a catchable OverflowError, and the handlers below printed where CPython prints a number."""
import pytest

from helpers import run_cli

STOPS = "pyx stops: integer result too large for pyx's 64-bit int (CPython's ints have no limit)"
PROGRAM = """def mul(x: int, y: int) -> int:
    return x * y


def main():
    big = 9223372036854775807
    n = 70
    print("start")
    try:
        try:
            print({expr})
        except OverflowError as e:
            print("OverflowError:", e)
        except Exception:
            print("handler")
    except:
        print("bare handler")


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("expr", ["mul(3037000500, 3037000500)", "2 ** n", "big + 1", "-big - 2", "1 << n",
                                  "int('9' * 20)", "int(1e19)", "int.from_bytes(b'\\xff' * 9, 'big')"])
def test_an_int_beyond_64_bits_stops_the_program(expr, tmp_path):
    path = tmp_path / "big.py"
    path.write_text(PROGRAM.replace("{expr}", expr))
    result = run_cli("run", str(path))
    assert (result.stdout, result.status) == ("start\n", 1), result.stderr
    last = result.stderr.rstrip().splitlines()[-1]
    assert last.startswith("pyx stops: ") and "64-bit int" in last, result.stderr
