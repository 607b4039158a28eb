"""Tuples against Python's: random tuple shapes (ints, floats, strings, Bools, nested tuples) and
values of them, written once as a program both languages run, which must print the same:
printing (items by repr), `==`, `!=` and the lexicographic `< <= > >=`, constant and negative
indexing, `len`, unpacking, sorting a list of them, dict keys, `in`, and `hash` (of tuples
without strings: Python salts a str's hash per process)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

scalar_kind = st.sampled_from(["int", "float", "str", "bool"])
shape = st.recursive(scalar_kind, lambda inner: st.lists(inner, min_size=1, max_size=3).map(tuple), max_leaves=5)
top_shape = st.lists(shape, min_size=1, max_size=4).map(tuple)

# No NaN: a NaN is not equal to itself, and CPython compares a tuple's items by identity first,
# which a value has none of.
FLOATS = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, width=64) | st.sampled_from([0.0, -0.0, 0.5, 1e-7])


def value_of(kind):
    if kind == "int":
        return st.integers(min_value=-3, max_value=3) | st.integers(min_value=-2**63, max_value=2**63 - 1)
    if kind == "float":
        return FLOATS
    if kind == "str":
        return st.text(alphabet="ab'\"\\é ", max_size=3)
    if kind == "bool":
        return st.booleans()
    return st.tuples(*(value_of(k) for k in kind))


def has_text(kind) -> bool:
    return kind == "str" or (isinstance(kind, tuple) and any(has_text(k) for k in kind))


def source(value) -> str:
    if isinstance(value, tuple):
        inner = ", ".join(source(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


@st.composite
def program(draw):
    kind = draw(top_shape)
    values = draw(st.lists(value_of(kind), min_size=2, max_size=5))
    if draw(st.booleans()):
        values.append(values[0])  # equal tuples, so `==` and the ordering meet equality
    names = [f"x{i}" for i in range(len(kind))]
    lines = ["def main():"]
    lines += [f"    v{i} = {source(v)}" for i, v in enumerate(values)]
    a, b = "v0", f"v{len(values) - 1}"
    lines += [f"    print({a}, {b})",
              f"    print({a} == {b}, {a} != {b}, {a} < {b}, {a} <= {b}, {a} > {b}, {a} >= {b})",
              f"    print({a}[0], {a}[-1], len({a}), repr({b}), str({a}) == f'{{{a}}}')",
              f"    {', '.join(names)}{',' if len(names) == 1 else ''} = {b}",
              f"    print({', '.join(names)})",
              f"    xs = [{', '.join(f'v{i}' for i in range(len(values)))}]",
              "    xs.sort()",
              "    print(xs, sorted(xs, reverse=True))",
              "    d = {v0: 0}",
              ]
    lines += [f"    d[v{i}] = {i}" for i in range(1, len(values))]
    lines += [f"    print(d, len(d), {a} in d)"]
    if not has_text(kind):
        lines.append(f"    print(hash({a}), hash({b}))")
    return "\n".join(lines) + "\n"


def same_as_python(text: str, tmp_path) -> None:
    prints_as_python(text, text + "\n\nmain()\n", tmp_path)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(program())
def test_tuple_expressions_match_python(tmp_path, text):
    same_as_python(text, tmp_path)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(program())
def test_many_tuple_expressions_match_python(tmp_path, text):
    same_as_python(text, tmp_path)
