"""Functions chosen at run time, against CPython (semantics/function_values.py).

Random programs keep module functions, lambdas, returned closures (some sharing a counter with
the call that made them, through `nonlocal`) and bound methods in a `Callable[[int], int]`
list, a dict and variables, pick among them at run time (by index, key, a conditional
expression, rebinding a variable or a list element), and print what the calls give. One
program holds a batch of cases, since compiling is what costs."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

small = st.integers(-4, 6)
FUNCTIONS = ("f0", "f1", "f2")


def body(var: str):
    """An int expression of `var` that stays small and never divides by zero."""
    return st.one_of(
        st.builds(lambda k: f"{var} + {k}", small),
        st.builds(lambda k: f"{var} * {k}", small),
        st.builds(lambda k: f"{k} - {var}", small),
        st.builds(lambda a, b, m: f"({var} * {a} + {b}) % {m}", small, small, st.integers(1, 7)),
        st.builds(lambda k: f"abs({var} - {k})", small),
        st.just(f"-{var}"),
    )


@st.composite
def definitions(draw) -> str:
    out = ["from typing import Callable\n\n"]
    for name in FUNCTIONS:
        out.append(f"def {name}(x: int) -> int:\n    return {draw(body('x'))}\n\n")
    out.append(f"def make_adder(n: int) -> Callable[[int], int]:\n    return lambda x: {draw(body('x'))} + n\n\n")
    out.append("def make_counter(step: int):\n    total = 0\n    def bump(x: int) -> int:\n"
               f"        nonlocal total\n        total += {draw(body('x'))} * step\n        return total\n"
               "    return bump\n\n")
    out.append("class Scale:\n    def __init__(self, k: int):\n        self.k = k\n\n"
               "    def apply(self, x: int) -> int:\n        self.k += 1\n        return x * self.k\n\n")
    return "".join(out)


def value():
    return st.one_of(small, st.just("i"), st.just("(i * 3 - 2)"))


@st.composite
def case(draw) -> str:
    v = draw(value())
    kind = draw(st.sampled_from(["index", "pick", "cond", "dict", "counter", "fresh_counter", "store",
                                 "rebind", "adder", "method"]))
    if kind == "index":
        return f"print(table[{draw(st.integers(0, 5))}]({v}))"
    if kind == "pick":
        return f"g = table[(i + {draw(st.integers(0, 5))}) % len(table)]\n        print(g({v}))"
    if kind == "cond":
        a, b = draw(st.sampled_from(FUNCTIONS)), draw(st.sampled_from(FUNCTIONS))
        return f"h = {a} if {v} > {draw(small)} else {b}\n        print(h({v}))"
    if kind == "dict":
        return f"print(ops[{draw(st.sampled_from(['a', 'b', 'c']))!r}]({v}))"
    if kind == "counter":
        return f"print(counter({v}))"
    if kind == "fresh_counter":
        return f"c2 = make_counter({draw(small)})\n        print(c2({v}), c2({v}), counter(0))"
    if kind == "store":
        return f"table[{draw(st.integers(0, 5))}] = make_adder({draw(small)})"
    if kind == "rebind":
        return f"chosen = {draw(st.sampled_from(FUNCTIONS + ('counter', 'table[0]')))}\n        print(chosen({v}))"
    if kind == "adder":
        return f"print(make_adder({v})({draw(small)}))"
    return f"s = Scale({draw(small)})\n        m = s.apply\n        print(m({v}), m({v}), method({v}), s.k)"


def _program(definitions: str, lam: str, cases: list[str]) -> str:
    head = ("def main():\n"
            f"    table: list[Callable[[int], int]] = [f0, f1, f2, make_adder(3), lambda x: {lam}, make_counter(2)]\n"
            "    ops = {'a': f0, 'b': f1, 'c': make_adder(-1)}\n"
            "    counter = make_counter(1)\n"
            "    chosen: Callable[[int], int] = f0\n"
            "    scale = Scale(2)\n"
            "    method: Callable[[int], int] = scale.apply\n"
            "    for i in range(3):\n")
    body = "".join(f"        {c}\n" for c in cases)
    tail = "    print(chosen(1), [f(2) for f in table])\n"
    return definitions + head + body + tail + "\n\nif __name__ == \"__main__\":\n    main()\n"


def _check(tmp_path_factory, defs, lam, cases) -> None:
    source = _program(defs, lam, cases)
    prints_as_python(source, source, tmp_path_factory.mktemp("function_values"))


@settings(max_examples=3, deadline=None)
@given(defs=definitions(), lam=body("x"), cases=st.lists(case(), min_size=12, max_size=12))
def test_functions_chosen_at_run_time_match_cpython(tmp_path_factory, defs, lam, cases):
    _check(tmp_path_factory, defs, lam, cases)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(defs=definitions(), lam=body("x"), cases=st.lists(case(), min_size=40, max_size=40))
def test_functions_chosen_at_run_time_match_cpython_at_length(tmp_path_factory, defs, lam, cases):
    _check(tmp_path_factory, defs, lam, cases)
