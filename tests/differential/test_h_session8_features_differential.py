"""Session 8's everyday-Python features against CPython, on generated inputs: recursive `def`s whose
result type comes from a base case (mutual recursion too), `from __future__ import annotations` and
string annotations, an object's Optional attribute narrowed by `is None`, `and`, `or` and an early
`return`, and `tuple(x)` where the source fixes the length. One program per example, run by pyx and by
CPython, which must print the same (the goldens recursive_def_result, string_annotations,
narrowing_attributes and tuple_call_known_length hold fixed cases of each)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

PROGRAM = '''from __future__ import annotations

from typing import Optional


def depth(n):
    if n > 0:
        return depth(n - 1) + 1
    return 0


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def digits(n):
    if n >= 10:
        return digits(n // 10) + "," + str(n % 10)
    return str(n)


def halve(x):
    if x > 1.0:
        return halve(x / 2.0)
    return x


class Node:
    def __init__(self, value: int, nxt: "Node | None" = None):
        self.value = value
        self.nxt = nxt


class Best:
    def __init__(self) -> None:
        self.best: Optional[int] = None
        self.worst: "int | None" = None

    def offer(self, n: int) -> None:
        if self.best is None or n > self.best:
            self.best = n
        if self.worst is not None and n >= self.worst:
            return
        self.worst = n

    def report(self) -> str:
        if self.best is not None and self.best > 10:
            return "big " + str(self.best)
        if self.best is None:
            return "none"
        return "small " + str(self.best) + " " + str(self.worst)

    def spread(self) -> int:
        if self.best is None or self.worst is None:
            return -1
        return self.best - self.worst


def total(node: "Node | None") -> "int":
    s = 0
    while node is not None:
        s += node.value
        node = node.nxt
    return s


def show(xs: "list[int]") -> None:
    b = Best()
    head: Node | None = None
    for x in xs:
        b.offer(x)
        head = Node(x, head)
    n = abs(xs[0]) % 30 if xs else 0
    print(depth(n), is_even(n), is_odd(n), digits(n * 1237 + 5), halve(float(n * 3 + 1)))
    print(b.report(), b.spread(), total(head))
    if len(xs) >= 3:
        t = tuple([xs[0], xs[1] * 2, xs[2]])
        a, m, c = t
        print(t, a + m + c, tuple((xs[0], "x")), tuple("ab"), tuple(range(3)))


'''

numbers = st.lists(st.integers(min_value=-60, max_value=60), max_size=6)


def _program(cases, pyx: bool) -> str:
    body = "\n".join(f"    show({xs!r})" for xs in cases)
    return PROGRAM + f"def main():\n{body}\n\n\n" + ("" if pyx else "main()\n")


def _check(cases, tmp_path):
    prints_as_python(_program(cases, pyx=True), _program(cases, pyx=False), tmp_path)


_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def test_fixed_cases_match_python(tmp_path):
    _check([[], [0], [5, 5, 5], [-7, 30, 2, 11], [59, -60, 0, 1, 2, 3]], tmp_path)


@settings(max_examples=2, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(numbers, min_size=1, max_size=6))
def test_session8_features_match_python(tmp_path, cases):
    _check(cases, tmp_path)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(numbers, min_size=5, max_size=15))
def test_many_inputs_match_python(tmp_path, cases):
    _check(cases, tmp_path)
