"""Text formatting and the str methods against CPython: random `%` fields (flags, width,
precision, `*`, every conversion) and `str.format` specs applied to random ints, floats (inf,
nan, -0.0 included), Bools and strings, and random strings (ASCII and not: ß, Σ, ǅ, ﬀ, Arabic
digits, line and paragraph separators) through the str methods. Each example is one program
printing many lines, run by pyx and by CPython, which must print the same. The default suite
runs a few examples; the `slow` ones run many more."""
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python
from pyx.semantics.format_spec import spec_problem

ints = st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1) | st.integers(min_value=-300, max_value=300)
floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, -0.0, 0.5, 2.5, 1e16, 1e-5, 123.456])
text = st.text(alphabet=st.sampled_from(list("aZ09 _-.'\"éßΣσǅﬀİ١\u2028\x85\t\nxyz")), max_size=8)
values = st.one_of(ints, floats, st.booleans(), text)


def _literal(value) -> str:
    """The value as a literal both languages read the same (a float by its repr, or float(...))."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return f'float("{value}")'
    return repr(value)


@st.composite
def percent_field(draw):
    flags = "".join(draw(st.lists(st.sampled_from("-+ 0#"), max_size=3, unique=True)))
    width = draw(st.sampled_from(["", "*"]) | st.integers(0, 14).map(str))
    precision = draw(st.sampled_from(["", ".*", "."]) | st.integers(0, 9).map(lambda p: f".{p}"))
    conversion = draw(st.sampled_from("diouxXeEfFgGcsr"))
    args = []
    if width == "*":
        args.append(draw(st.integers(-12, 12)))
    if precision == ".*":
        args.append(draw(st.integers(0, 9)))
    if conversion == "c":
        value = draw(st.integers(32, 126) | st.sampled_from(["é", "Σ", "x"]))
    elif conversion in "sr":
        value = draw(values)
    elif conversion in "diuxXo":
        value = draw(ints | st.booleans() | (floats if conversion in "diu" else st.nothing()))
    else:
        value = draw(ints | floats | st.booleans())
    args.append(value)
    fmt = f"%{flags}{width}{precision}{conversion}"
    try:
        expected = fmt % tuple(args)
    except (ValueError, OverflowError, TypeError):  # Python raises for these values: not a formatting case
        assume(False)
    assume("\x00" not in expected)
    return fmt, args


@st.composite
def format_field(draw):
    value = draw(values)
    fill_align = draw(st.sampled_from(["", "<", ">", "^", "*<", "->", "0=", "=", "é^"]))
    sign = draw(st.sampled_from(["", "+", "-", " "]))
    alternate = draw(st.sampled_from(["", "#"]))
    zero = draw(st.sampled_from(["", "0"]))
    width = draw(st.sampled_from(["", "1", "7", "12"]))
    comma = draw(st.sampled_from(["", ",", "_"]))
    precision = draw(st.sampled_from(["", ".0", ".2", ".5"]))
    kind = draw(st.sampled_from(["", "d", "f", "F", "e", "E", "g", "G", "%", "s", "x", "X", "o", "b", "c", "n"]))
    conversion = draw(st.sampled_from(["", "", "!r", "!s"]))
    spec = f"{fill_align}{sign}{alternate}{zero}{width}{comma}{precision}{kind}"
    shown = repr(value) if conversion == "!r" else str(value) if conversion == "!s" else value
    try:
        assume("\x00" not in format(shown, spec) and (kind != "c" or 32 <= shown < 0xD800))
    except (ValueError, TypeError, OverflowError):
        assume(False)
    sample_type = str if conversion else type(value)
    from pyx import types as T

    pyx_type = {bool: T.BOOL, int: T.INT, float: T.FLOAT64, str: T.STRING_LITERAL}[sample_type]
    assume(spec == "" or spec_problem(pyx_type, spec, lambda t: False) is None)  # what pyx's format does
    return "{" + conversion + (":" + spec if spec else "") + "}", value


def _program(lines: list[str], pyx: bool) -> str:
    body = "\n".join(f"    {line}" for line in lines)
    prelude = SHOW if any(line.startswith("show(") for line in lines) else ""
    return prelude + f"def main():\n{body}\n\n\n" + ("" if pyx else "main()\n")


def _percent_lines(fields) -> list[str]:
    return [f"print(repr({fmt!r} % ({', '.join(_literal(a) for a in args)},)))" for fmt, args in fields]


def _format_lines(fields) -> list[str]:
    return [f"print(repr({('[' + field + ']')!r}.format({_literal(value)})))" for field, value in fields]


METHODS = ["isalpha()", "isdigit()", "isalnum()", "isspace()", "isupper()", "islower()", "istitle()",
           "isdecimal()", "isnumeric()", "isprintable()", "upper()", "lower()", "swapcase()", "title()",
           "capitalize()", "zfill(6)", "center(9, '*')", "ljust(7)", "rjust(7, 'é')", "splitlines()",
           "splitlines(True)", "count('a')", "find('ß')", "rfind('x')", "strip()", "lstrip()", "rstrip()", "split()",
           "partition('a')", "rpartition('a')", "split(None, 1)", "rsplit()", "rsplit(None, 1)", "split('a', 1)",
           "rsplit('a', 1)", "rsplit('.', 2)", "split(maxsplit=0)", "rsplit(maxsplit=0)"]


def _method_lines(strings) -> list[str]:
    return [f"show({s!r})" for s in strings]


# The methods are called in one function, so the program's size does not grow with the strings.
SHOW = "def show(s: str) -> None:\n    print(repr(s), len(s))\n" + "".join(
    f"    print(repr(s.{m}))\n" for m in METHODS) + "\n\n"


def _check(lines, tmp_path):
    prints_as_python(_program(lines, pyx=True), _program(lines, pyx=False), tmp_path)


FEW = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow,
                                                                     HealthCheck.filter_too_much])
MANY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow,
                                                                       HealthCheck.filter_too_much])


@FEW
@given(st.lists(percent_field(), min_size=1, max_size=40))
def test_percent_formatting_matches_python(tmp_path, fields):
    _check(_percent_lines(fields), tmp_path)


@FEW
@given(st.lists(format_field(), min_size=1, max_size=40))
def test_str_format_matches_python(tmp_path, fields):
    _check(_format_lines(fields), tmp_path)


@FEW
@given(st.lists(text, min_size=1, max_size=6))
def test_str_methods_match_python(tmp_path, strings):
    _check(_method_lines(strings), tmp_path)


@pytest.mark.slow
@MANY
@given(st.lists(percent_field(), min_size=20, max_size=60))
def test_many_percent_formats_match_python(tmp_path, fields):
    _check(_percent_lines(fields), tmp_path)


@pytest.mark.slow
@MANY
@given(st.lists(format_field(), min_size=20, max_size=60))
def test_many_str_formats_match_python(tmp_path, fields):
    _check(_format_lines(fields), tmp_path)


@pytest.mark.slow
@MANY
@given(st.lists(text, min_size=5, max_size=15))
def test_many_str_methods_match_python(tmp_path, strings):
    _check(_method_lines(strings), tmp_path)
