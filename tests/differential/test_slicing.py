"""Slicing against CPython: random lists and strings (non-ASCII ones too) sliced with random
bounds and steps (omitted, negative, beyond either end, zero), slice assignment of random
lengths (simple and extended) and `del` of slices. One program per example holds a batch of
cases (compiling is what costs); every case is in a `try`, so a ValueError is output too."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

bound = st.one_of(st.none(), st.integers(-12, 12))
step = st.one_of(st.none(), st.integers(-4, 4))  # 0 too: ValueError, as Python's
ints = st.lists(st.integers(-9, 99), min_size=1, max_size=9)  # `[]` needs its type in pyx
text = st.text(alphabet="abcxyzé€😀", max_size=9)


def _slice(start, stop, stride) -> str:
    out = ("" if start is None else str(start)) + ":" + ("" if stop is None else str(stop))
    return out if stride is None else out + ":" + str(stride)


def _list(xs) -> str:
    return repr(xs) if xs else "[0][0:0]"  # an empty list both languages can write


def _guarded(lines: list[str]) -> str:
    """A case as a function of its own (one huge `main` would make the compile time grow faster
    than the number of cases)."""
    body = "".join(f"        {line}\n" for line in lines)
    return f"    try:\n{body}    except ValueError as e:\n        print('ValueError:', e)\n"


case = st.one_of(
    st.tuples(st.just("get"), ints, bound, bound, step),
    st.tuples(st.just("str"), text, bound, bound, step),
    st.tuples(st.just("set"), ints, bound, bound, step, st.lists(st.integers(0, 9), max_size=6)),
    st.tuples(st.just("del"), ints, bound, bound, step),
)


def _program(cases) -> str:
    parts = []
    for c in cases:
        kind, value, start, stop, stride = c[:5]
        where = _slice(start, stop, stride)
        if kind == "get":
            parts.append(_guarded([f"xs = {_list(value)}", f"print(xs[{where}], len(xs[{where}]))"]))
        elif kind == "str":
            parts.append(_guarded([f"s = {value!r}", f"print(repr(s[{where}]), len(s[{where}]))"]))
        elif kind == "set":
            parts.append(_guarded([f"xs = {_list(value)}", f"xs[{where}] = {_list(c[5])}", "print(xs)"]))
        else:
            parts.append(_guarded([f"xs = {_list(value)}", f"del xs[{where}]", "print(xs)"]))
    functions = "".join(f"def case{k}() -> None:\n{part}\n\n" for k, part in enumerate(parts))
    calls = "".join(f"    case{k}()\n" for k in range(len(parts)))
    return functions + "def main():\n" + calls + "\n\nif __name__ == \"__main__\":\n    main()\n"


def _check(tmp_path_factory, cases) -> None:
    source = _program(cases)
    prints_as_python(source, source, tmp_path_factory.mktemp("slicing"))


@settings(max_examples=3, deadline=None)
@given(cases=st.lists(case, min_size=15, max_size=15))
def test_slicing_matches_cpython(tmp_path_factory, cases):
    _check(tmp_path_factory, cases)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(cases=st.lists(case, min_size=60, max_size=60))
def test_slicing_matches_cpython_at_length(tmp_path_factory, cases):
    _check(tmp_path_factory, cases)
