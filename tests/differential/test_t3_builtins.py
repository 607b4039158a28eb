"""The everyday builtins of issue 17 against CPython: `int(s, base)` of random text in random
bases (prefixes, signs, underscores, whitespace, letters beyond the base), `hex`/`oct`/`bin` and
`format(n, "b"/"o"/"x")` of random ints across Int's range, `str.startswith`/`endswith` with a
tuple, `sep.join(s)` of a str and of `reversed(s)`, and an int to a negative constant power.
Each example is one program printing many lines, run by pyx and by CPython, which must print the
same. Texts whose value CPython parses beyond 64 bits are left out: pyx's int raises
OverflowError there (docs/python-subset.md)."""
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

INT64 = (-(2**63), 2**63 - 1)
ints = st.integers(*INT64) | st.integers(-300, 300)
digits_text = st.text(alphabet=st.sampled_from(list("0123456789abcdefzABFXZ_xob +-\t")), max_size=10)
number_text = st.builds(lambda sign, prefix, body, pad: f"{pad}{sign}{prefix}{body}{pad}",
                        st.sampled_from(["", "-", "+"]), st.sampled_from(["", "0x", "0o", "0b", "0X", "0"]),
                        st.text(alphabet=st.sampled_from(list("0123456789abcdef_")), min_size=0, max_size=8),
                        st.sampled_from(["", " ", "\n"]))
bases = st.sampled_from([0, 2, 8, 10, 16, 36]) | st.integers(2, 36)
words = st.text(alphabet=st.sampled_from(list("ab.-_xé")), max_size=6)


@st.composite
def parse_case(draw):
    text = draw(digits_text | number_text)
    base = draw(bases)
    try:
        value = int(text, base)
    except ValueError:
        return text, base
    assume(INT64[0] <= value <= INT64[1])
    return text, base


# One function each, so a program's size does not grow with the number of cases.
PRELUDE = '''def parse(text: str, base: int) -> None:
    try:
        print(repr(text), base, int(text, base))
    except ValueError as e:
        print(repr(text), base, "ValueError:", e)


def digits(n: int) -> None:
    print(n, hex(n), oct(n), bin(n), format(n, "b"), format(n, "o"), format(n, "x"), format(n, "#X"))


def affixes(s: str, a: str, b: str) -> None:
    pair = (a, b)
    print(repr(s), s.startswith((a, b)), s.endswith((a, b)), s.startswith(pair), s.endswith((b,)))
    print(repr("-".join(s)), repr("".join(reversed(s))), repr(a.join(pair)))


'''


def _program(lines: list[str], pyx: bool) -> str:
    body = "\n".join(f"    {line}" for line in lines) or "    pass"
    return PRELUDE + f"def main():\n{body}\n\n\n" + ("" if pyx else "main()\n")


def _check(lines, tmp_path):
    prints_as_python(_program(lines, pyx=True), _program(lines, pyx=False), tmp_path)


FEW = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow, HealthCheck.filter_too_much])
MANY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow,
                                                                       HealthCheck.filter_too_much])


def _lines(cases, numbers, texts, powers) -> list[str]:
    lines = [f"parse({text!r}, {base})" for text, base in cases]
    lines += [f"digits({n})" for n in numbers]
    lines += [f"affixes({s!r}, {a!r}, {b!r})" for s, a, b in texts]
    lines += [f"print({b} ** {e}, ({b}) ** {e} * 3)" for b, e in powers]
    return lines


cases_strategy = st.lists(parse_case(), max_size=25)
numbers_strategy = st.lists(ints, max_size=10)
texts_strategy = st.lists(st.tuples(words, words, words), max_size=6)
powers_strategy = st.lists(st.tuples(st.integers(-9, 9).filter(bool), st.integers(-6, -1)), max_size=6)


@FEW
@given(cases_strategy, numbers_strategy, texts_strategy, powers_strategy)
def test_everyday_builtins_match_python(tmp_path, cases, numbers, texts, powers):
    _check(_lines(cases, numbers, texts, powers), tmp_path)


@pytest.mark.slow
@MANY
@given(cases_strategy, numbers_strategy, texts_strategy, powers_strategy)
def test_everyday_builtins_match_python_many(tmp_path, cases, numbers, texts, powers):
    _check(_lines(cases, numbers, texts, powers), tmp_path)
