"""The number formatters' buffer sizes are declared once, in stdlib/string.px (`_FLOAT_TEXT`,
`_INT_TEXT`), and the runtime that generates the formatters reads them from there: a String
reserves exactly the room a formatter may write. (They used to be two hand-kept copies: a `40`
and a `24` in string.px beside `FLOAT_TEXT = 40` and a literal 24 in runtime_lib.py.)"""
from helpers import prints_as_python, run_source
from pyx.codegen import runtime_lib


def test_the_runtime_uses_the_sizes_the_stdlib_declares(tmp_path):
    # The compiler's own reading of string.px's constants, as a program sees them.
    result = run_source("from string import _FLOAT_TEXT, _INT_TEXT\n\n"
                        "fn main():\n    print(_FLOAT_TEXT, _INT_TEXT)\n", tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout.split() == [str(runtime_lib.FLOAT_TEXT), str(runtime_lib.INT_TEXT)]


def test_the_widest_numbers_fit_in_a_string_and_in_a_list(tmp_path):
    values = "[-2.2250738585072014e-308, -1.7976931348623157e+308, -9223372036854775808, 5e-324]"
    prints_as_python(
        "fn main():\n"
        "    var xs: List[Float64] = [-2.2250738585072014e-308, -1.7976931348623157e+308, 5e-324]\n"
        "    var n: Int = -9223372036854775807 - 1\n"
        "    var m = UInt64(18446744073709551615)\n"
        "    print(str(xs[0]) + str(xs[1]) + str(n) + str(m), xs, [n])\n",
        f"xs = {values}\nxs.pop(2)\nn = -9223372036854775808\nm = 18446744073709551615\n"
        "print(str(xs[0]) + str(xs[1]) + str(n) + str(m), xs, [n])\n", tmp_path)
