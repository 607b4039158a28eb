"""Comprehensions, generator expressions and the builtins consuming them, against CPython.

Random list and dict comprehensions with one to three `for` clauses (over small int lists,
ranges, and ranges bounded by an outer clause's variable) and any number of `if` clauses,
consumed by list/dict displays, sum, any, all, min, max (with and without `default=`), list,
sorted and len; plus round, abs, ord and chr of the items. The loop variables reuse the names
of the function's own variables, which must keep their values (a comprehension has its own
scope). One program holds a batch of cases (compiling is what costs); each case is in a
`try`, so an empty min/max's ValueError is output too."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

LISTS = ("a", "b", "c")
NAMES = ("x", "y", "z")
small = st.integers(-3, 6)


def _list_text(values: list[int]) -> str:
    # `[]` needs its element type in pyx; an empty comprehension has one.
    return repr(values) if values else "[v for v in [0] if v > 0]"


@st.composite
def clauses(draw):
    """(source text of the clauses, the loop variables bound, in order)."""
    count = draw(st.integers(1, 3))
    parts, bound = [], []
    for k in range(count):
        name = NAMES[k]
        choices = [st.sampled_from(LISTS), st.builds(lambda n: f"range({n})", st.integers(0, 5))]
        if bound:
            choices.append(st.builds(lambda v, d: f"range({v} + {d})", st.sampled_from(bound), st.integers(0, 3)))
        parts.append(f"for {name} in {draw(st.one_of(*choices))}")
        bound.append(name)
        for _ in range(draw(st.integers(0, 2 if k == count - 1 else 1))):
            parts.append("if " + draw(condition(bound)))
    return " ".join(parts), bound


def condition(bound):
    v = st.sampled_from(bound)
    return st.one_of(
        st.builds(lambda a, m, r: f"{a} % {m} == {r}", v, st.integers(2, 3), st.integers(0, 1)),
        st.builds(lambda a, k: f"{a} > {k}", v, small),
        st.builds(lambda a, b: f"{a} != {b}", v, v),
        st.builds(lambda a, b, k: f"{a} + {b} < {k}", v, v, st.integers(0, 8)),
    )


def element(bound):
    v = st.sampled_from(bound)
    return st.one_of(
        v,
        st.builds(lambda a, b: f"{a} * {b}", v, v),
        st.builds(lambda a, k: f"{a} + {k}", v, small),
        st.builds(lambda a, b: f"{a} - {b}", v, v),
        st.builds(lambda a: f"{a} % 3", v),
        st.builds(lambda a: f"-{a}", v),
    )


@st.composite
def case(draw):
    text, bound = draw(clauses())
    e = draw(element(bound))
    k = draw(small)
    kind = draw(st.sampled_from(["list", "dict", "sum", "sum_start", "any", "all", "min", "max", "min_default",
                                 "max_default", "list_call", "sorted", "sorted_rev", "len", "nested", "builtins",
                                 "truthy"]))
    if kind == "list":
        return f"print([{e} {text}])"
    if kind == "dict":
        return f"print({{{e}: {draw(element(bound))} {text}}})"
    if kind == "sum":
        return f"print(sum({e} {text}))"
    if kind == "sum_start":
        return f"print(sum(({e} {text}), {k}))"
    if kind in ("any", "all"):
        return f"print({kind}({draw(condition(bound))} {text}))"
    if kind == "truthy":
        return f"print(any({e} {text}), all({e} {text}))"
    if kind in ("min", "max"):
        return f"print({kind}({e} {text}))"
    if kind in ("min_default", "max_default"):
        return f"print({kind[:3]}(({e} {text}), default={k}))"
    if kind == "list_call":
        return f"print(list({e} {text}))"
    if kind == "sorted":
        return f"print(sorted({e} {text}))"
    if kind == "sorted_rev":
        return f"print(sorted(({e} {text}), reverse=True))"
    if kind == "len":
        return f"print(len([{e} {text}]))"
    if kind == "nested":
        return f"print([[{e} {text}] for w in range({draw(st.integers(0, 2))})])"
    d = draw(st.integers(-2, 3))
    return (f"print([round({e} / 7, {d}) {text}], [round({e} / 2) {text}], [abs({e}) {text}], "
            f"[ord(chr({e} + 200)) {text}], ''.join(chr({e} + 70) {text}))")


def _program(lists, cases) -> str:
    head = "".join(f"    {name} = {_list_text(values)}\n" for name, values in zip(LISTS, lists, strict=True))
    head += "    x = 1000\n    y = -1000\n"
    body = "".join(f"    try:\n        {c}\n    except ValueError as e:\n        print('ValueError:', e)\n"
                   for c in cases)
    tail = "    print(x, y)\n"  # the comprehensions' loop variables did not leak
    return "def main():\n" + head + body + tail + "\n\nif __name__ == \"__main__\":\n    main()\n"


lists = st.lists(st.lists(small, max_size=5), min_size=3, max_size=3)


def _check(tmp_path_factory, values, cases) -> None:
    source = _program(values, cases)
    prints_as_python(source, source, tmp_path_factory.mktemp("comprehensions"))


@settings(max_examples=3, deadline=None)
@given(values=lists, cases=st.lists(case(), min_size=15, max_size=15))
def test_comprehensions_match_cpython(tmp_path_factory, values, cases):
    _check(tmp_path_factory, values, cases)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(values=lists, cases=st.lists(case(), min_size=60, max_size=60))
def test_comprehensions_match_cpython_at_length(tmp_path_factory, values, cases):
    _check(tmp_path_factory, values, cases)
