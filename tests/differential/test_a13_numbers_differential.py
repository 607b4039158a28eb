"""Random programs against CPython where Python mixes int and float (session 13):

- `int | float` values (stdlib/number.px's Number: a `def` returning an int on one path and a float
  on another): mixed arithmetic with each other, with ints and with floats, `/`, `//`, `%` (with
  CPython's ZeroDivisionError messages), `**`, comparisons, `round`, `int()`, `float()`, `abs`,
  `max`/`min`, `sum` and `sorted` of them, printing and f-string specs;
- a `def` whose parameters are annotated `float` given ints (semantics/python_float.py
  `passed_for_float`): Python keeps the ints, and the result is what the body computes, an int or a
  float; a parameter the body assigns (`x -= by`) holds either (the module has `int | float` values:
  `[x, 0.5, 1]`); a `list[float]` given a list of ints, or of ints and floats;
- `/` of two ints in a `def`, with operands anywhere in Int's range (stdlib/true_division.px: the
  correctly rounded quotient, where converting both to floats first is wrong beyond 2**53).
pyx must print what CPython prints (tests/helpers.py `prints_as_python`)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
_SETTINGS = settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)

SMALL = st.integers(-9, 9)
FLOATS = st.sampled_from([0.0, -0.0, 0.5, -2.5, 3.0, 0.1, 1e-3, 7.25, -1e20, 2.0 ** 60, 1e300])
INT64 = st.integers(-(2 ** 63) + 1, 2 ** 63 - 1)


def _program(body: list[str], head: tuple[str, ...] = ()) -> str:
    return "\n".join([*head, "def main():", *("    " + line for line in body), "", "",
                      'if __name__ == "__main__":', "    main()", ""])


def _same(text: str, tmp_path) -> None:
    prints_as_python(text, text, tmp_path)


def _guarded(line: str) -> list[str]:
    """`line` run under try, printing CPython's ZeroDivisionError (or OverflowError) message."""
    return ["try:", f"    {line}", "except ZeroDivisionError as e:", "    print('ZeroDivisionError:', e)",
            "except OverflowError as e:", "    print('OverflowError:', e)"]


NUMBER_HEAD = ("def num(v: int, half: bool) -> int | float:",
               "    if half:",
               "        return v / 2",
               "    return v",
               "",
               "")


@_SETTINGS
@given(SMALL, st.booleans(), SMALL, st.booleans(), SMALL, FLOATS)
def test_number_arithmetic_prints_as_python(tmp_path, v, half_v, w, half_w, k, f):
    body = [f"a = num({v}, {half_v})", f"b = num({w}, {half_w})", f"k = {k}", f"f = {f!r}",
            "print(a, b, a + b, a - b, a * b, -a, abs(b), +a)",
            "print(a + k, k - b, a * k, a + f, f - b, b * f)",
            "print(a == b, a != b, a < b, a <= b, a > b, a >= b, a == k, b < f, k <= a, f == a)",
            "print(a ** 2, b ** 3, 2 ** b, a ** 0, k ** 2)",
            "print(round(a), round(b, 1), int(a), float(b), max(a, b), min(a, b, k))",
            "print(sum([a, b]), sorted([b, a, k]), isinstance(a, float), type(b).__name__)",
            'print(f"[{a}] [{b!r}] [{a:>8}] [{b:.3f}] [{a:+}] [{b:e}] [{a:g}]")',
            *_guarded("print(a / b, a // b, a % b)"),
            *_guarded("print(k / b, k // b, k % b)"),
            *_guarded("print(a / f, a // f, a % f)"),
            *_guarded("print(f / a, f // a, f % a)")]
    _same(_program(body, NUMBER_HEAD), tmp_path)


FLOAT_HEAD = ("def mix(x: float, y: float) -> float:",
              "    return x * y - x + y * 2",
              "",
              "",
              "def ratio(x: float, y: float) -> float:",
              "    return x / y",
              "",
              "",
              "def floors(x: float, y: float) -> str:",
              '    return f"{x // y} {x % y} {x ** 2} {x == y} {x < y}"',
              "",
              "",
              "def scaled(xs: list[float]) -> float:",
              "    return sum(xs) / len(xs) * 2",
              "",
              "",
              "def step(x: float, by: float) -> float:",
              "    n = 0",
              "    while x > 0 and n < 5:",
              "        x -= by",
              "        n += 1",
              "    return x",
              "",
              "")


def _argument(use_float: bool, k: int, f: float) -> str:
    return repr(f) if use_float else str(k)


@_SETTINGS
@given(SMALL, FLOATS, st.booleans(), SMALL, FLOATS, st.booleans(), st.booleans())
def test_float_parameters_given_ints_print_as_python(tmp_path, i, f, x_float, j, g, y_float, via_variable):
    x, y = _argument(x_float, i, f), _argument(y_float, j, g)
    body = [f"x = {x}", f"y = {y}"] if via_variable else []
    if via_variable:
        x, y = "x", "y"
    body += [f"print(mix({x}, {y}), mix({y}, 2), mix(1.5, {x}))",
             f"print(step({x}, 1), step({x}, 0.75))",
             f"if {y} > 0:", f"    print(step(3, {y}))",
             f"print([mix(k, {y}) for k in range(3)], f'{{mix({x}, {y}):>12}}')",
             f"print(scaled([{x}, 0.5, 1]), scaled([{x}, {y}]), [{x}, 0.5, {y}])",
             *_guarded(f"print(ratio({x}, {y}))"),
             *_guarded(f"print(floors({x}, {y}))")]
    _same(_program(body, FLOAT_HEAD), tmp_path)


DIVISION_HEAD = ("def quotient(a: int, b: int) -> float:",
                 "    return a / b",
                 "",
                 "")


@_SETTINGS
@given(INT64, INT64, st.integers(-(2 ** 31), 2 ** 31))
def test_int_true_division_prints_as_python(tmp_path, a, b, c):
    body = [f"a = {a}", f"b = {b}", f"c = {c}",
            "print(quotient(a, 3), quotient(-a, 7), quotient(c, 1 << 20), a / 1, c / 3)",
            "if b:", "    print(quotient(a, b), quotient(a, b) == a / b, quotient(b, a) if a else 0.0)",
            "if c > 0:", "    print(quotient(c, 10) < c / 9)",
            'print(f"{quotient(a, 9):.6e} {quotient(c, 7):.3f}")',
            *_guarded("print(quotient(a, c), quotient(c, b))"),
            *_guarded("print(quotient(a, 0))")]
    _same(_program(body, DIVISION_HEAD), tmp_path)
