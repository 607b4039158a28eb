"""Where CPython raises nothing but pyx's value cannot be what CPython's is, the program stops
(`pyx stops`, semantics/exceptions.py UNCATCHABLE): no `except` runs, since a handler would print
what CPython never prints. Before session 11 each of these was a catchable ValueError, and the
handlers below printed. (Int results past 64 bits: test_int_overflow_stops.py; float sums of no
items: tests/golden/sum_floats_*.)"""
import pytest

from helpers import run_cli

PROGRAM = """def power(b: int, n: int) -> int:
    return b ** n


def main():
    template = "{0.real} {1}"
    print("start")
    try:
        print({expr})
    except ValueError as e:
        print("ValueError:", e)
    except Exception:
        print("handler")
    except:
        print("bare handler")


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("expr, why", [
    ("power(2, -1)", "negative exponent in Int ** Int: CPython gives a float here"),
    ("template.format(3, 4)", "pyx's str.format on a str made at run time takes no attribute or index"),
    ("template.replace('0.real', '!a').format(3, 4)", "pyx's str.format on a str made at run time has no `!a`"),
])
def test_what_pyx_cannot_compute_as_cpython_does_stops_the_program(expr, why, tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM.replace("{expr}", expr))
    result = run_cli("run", str(path))
    assert (result.stdout, result.status) == ("start\n", 1), result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith(f"pyx stops: {why}"), result.stderr
