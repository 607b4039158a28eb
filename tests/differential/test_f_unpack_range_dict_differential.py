"""Unpacking, range values, dict methods and nested format specs against CPython: random values
written into one program both languages run, which must print the same. Unpacking a list of any
length (plain targets, a starred target first, last or between, Python's ValueError messages
when the lengths disagree, a swap, pairs unpacked in a `for`); a range of any start, stop and
step as a value (printing, `len`, indexing from either end, `in`, `index` and its ValueError,
`reversed`, `list`, `sum`, `==`); dict methods over random keys (`get`, `pop` with and without a
default and its KeyError, `setdefault`, `update`, `del`, `in`, `copy`, `==`, views, `sorted`);
f-strings and `str.format` whose spec is built from nested fields (`f"{x:>{w}.{p}f}"`), with
CPython's ValueError for a spec the value's type rejects. A few examples run in every test run;
the `slow` ones run many more."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

FEW = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
MANY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])

small_ints = st.integers(min_value=-20, max_value=20)


def _check(body: list[str], tmp_path) -> None:
    text = "def main():\n" + "".join(f"    {line}\n" for line in body) + "\n"
    prints_as_python(text, text + "\nmain()\n", tmp_path)


def _guarded(statement: str, error: str) -> list[str]:
    """The statement, its error caught and printed as `Error: message`."""
    return ["try:", f"    {statement}", f"except {error} as e:", f"    print('{error}:', e)"]


# ---- unpacking ----
@st.composite
def unpacking(draw) -> list[str]:
    xs = draw(st.lists(small_ints, max_size=6))
    n = draw(st.integers(min_value=1, max_value=4))
    names = [f"a{i}" for i in range(n)]
    star = draw(st.integers(min_value=-1, max_value=n - 1))  # -1: no starred target
    targets = [("*" + t if i == star else t) for i, t in enumerate(names)]
    shown = ", ".join(names)
    body = [f"xs: list[int] = {xs!r}"]
    body += _guarded(f"{', '.join(targets)}{',' if n == 1 else ''} = xs; print({shown})", "ValueError")
    pairs = [(draw(small_ints), draw(small_ints)) for _ in range(draw(st.integers(min_value=0, max_value=4)))]
    body += [f"ps: list[tuple[int, int]] = {pairs!r}", "for p, q in ps:", "    p, q = q, p", "    print(p, q, p - q)",
             "for i, (p, q) in enumerate(ps):", "    print(i, p * q)"]
    return body


@FEW
@given(unpacking())
def test_unpacking_matches_python(tmp_path, body):
    _check(body, tmp_path)


@pytest.mark.slow
@MANY
@given(unpacking())
def test_many_unpackings_match_python(tmp_path, body):
    _check(body, tmp_path)


# ---- range values ----
@st.composite
def ranges(draw) -> list[str]:
    start, stop = draw(small_ints), draw(small_ints)
    step = draw(st.integers(min_value=-6, max_value=6).filter(lambda s: s != 0))
    probe = draw(small_ints)
    other = (draw(small_ints), draw(small_ints), draw(st.sampled_from([1, 2, -1, 3])))
    r = f"range({start}, {stop}, {step})"
    body = [f"r = {r}", "print(r, len(r), list(r), sum(r), list(reversed(r)))",
            f"print({probe} in r, r == range{other}, r == r)",
            "if len(r) > 0:",
            "    print(r[0], r[-1], r[len(r) // 2], max(r), min(r))"]
    body += _guarded(f"print(r.index({probe}))", "ValueError")
    body += _guarded(f"print(r[{probe}])", "IndexError")
    return body


@FEW
@given(ranges())
def test_range_values_match_python(tmp_path, body):
    _check(body, tmp_path)


@pytest.mark.slow
@MANY
@given(ranges())
def test_many_range_values_match_python(tmp_path, body):
    _check(body, tmp_path)


# ---- dict methods ----
keys = st.text(alphabet="abcde", min_size=1, max_size=2)


@st.composite
def dict_methods(draw) -> list[str]:
    items = draw(st.dictionaries(keys, small_ints, max_size=6))
    more = draw(st.dictionaries(keys, small_ints, max_size=3))
    probe, gone = draw(keys), draw(keys)
    body = [f"d: dict[str, int] = {items!r}", f"other: dict[str, int] = {more!r}",
            f"print(d.get({probe!r}, -1), {probe!r} in d, len(d))",
            f"print(d.setdefault({probe!r}, 7), d)",
            f"print(d.pop({gone!r}, 0), d)"]
    body += _guarded(f"print(d.pop({gone!r}))", "KeyError")
    body += ["e = d.copy()", "d.update(other)",
             "print(d, e, d == e, d != e)",
             f"if {probe!r} in d:", f"    del d[{probe!r}]",
             "print(list(d.keys()), list(d.values()), list(d.items()), sorted(d))",
             "print(d.keys(), d.values(), d.items())",
             "total = 0", "for k, v in d.items():", "    total += v * len(k)", "print(total)"]
    return body


@FEW
@given(dict_methods())
def test_dict_methods_match_python(tmp_path, body):
    _check(body, tmp_path)


@pytest.mark.slow
@MANY
@given(dict_methods())
def test_many_dict_methods_match_python(tmp_path, body):
    _check(body, tmp_path)


# ---- nested format specs ----
VALUES = {"int": st.integers(min_value=-10**6, max_value=10**6).map(repr),
          "float": st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(repr),
          "str": st.text(alphabet="ab é", max_size=4).map(repr)}


@st.composite
def nested_specs(draw) -> list[str]:
    body = []
    for i in range(draw(st.integers(min_value=1, max_value=6))):
        kind = draw(st.sampled_from(sorted(VALUES)))
        value = draw(VALUES[kind])
        fill = draw(st.sampled_from(["", "*", "0", "é"]))
        align = draw(st.sampled_from(["", "<", ">", "^", "="]))
        sign = draw(st.sampled_from(["", "+", "-", " "]))
        width, precision = draw(st.integers(min_value=0, max_value=12)), draw(st.integers(min_value=0, max_value=6))
        code = draw(st.sampled_from(["", "d", "f", "e", "g", "x", "s", "%", ","]))
        body += [f"v{i} = {value}", f"w{i} = {width}", f"p{i} = {precision}"]
        spec = f"{fill if align else ''}{align}{sign}{{w{i}}}" + (f".{{p{i}}}" if code in "fegs%" else "") + code
        body += _guarded(f"print(f'[{{v{i}:{spec}}}]')", "ValueError")
        fields = spec.replace(f"{{w{i}}}", "{}").replace(f"{{p{i}}}", "{}")
        args = ", ".join([f"v{i}", f"w{i}"] + ([f"p{i}"] if "." in spec else []))
        body += _guarded(f"print('[{{:{fields}}}]'.format({args}))", "ValueError")
    return body


@FEW
@given(nested_specs())
def test_nested_format_specs_match_python(tmp_path, body):
    _check(body, tmp_path)


@pytest.mark.slow
@MANY
@given(nested_specs())
def test_many_nested_format_specs_match_python(tmp_path, body):
    _check(body, tmp_path)
