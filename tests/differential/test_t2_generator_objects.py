"""Generator objects against CPython: random generators used the ways that need them suspended
as objects (syntax/generator_objects.py): `next` and `next(g, default)` on a variable, a `for`
that resumes one after some `next`s and may `break`, two alive at once and interleaved, `zip` of
two, passed to a function that calls `next` in a loop, returned from a function, kept in a list,
an exhausted one's StopIteration caught, and a recursive generator (`yield from` itself).
(A list holds generators of one generator function: each function's objects are a type.)

Each generator is made of random parts: a loop (over `range`, a list parameter, or a `while`)
whose body may `continue`, `return`, print, and yield once or twice, and an optional
`yield from` another generator; so the order in which generators and consumers run is output."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

small = st.integers(-2, 6)


def condition(var: str):
    return st.one_of(
        st.builds(lambda m, r: f"{var} % {m} == {r}", st.integers(2, 3), st.integers(0, 1)),
        st.builds(lambda k: f"{var} > {k}", small),
        st.builds(lambda k: f"{var} == {k}", small),
    )


def value(var: str):
    return st.one_of(st.just(var), st.builds(lambda k: f"{var} * {k}", small),
                     st.builds(lambda k: f"{var} + {k}", small))


@st.composite
def generator(draw, index: int) -> str:
    loop_kind = draw(st.sampled_from(["range", "list", "while"]))
    lines = [(0, "i = 0"), (0, "while i < n:")] if loop_kind == "while" else \
        [(0, "for i in range(n):" if loop_kind == "range" else "for i in xs:")]
    if loop_kind == "while":
        lines.append((1, "i += 1"))
    for stop in ("continue", "return"):
        if draw(st.booleans()):
            lines += [(1, f"if {draw(condition('i'))}:"), (2, stop)]
    if draw(st.booleans()):
        lines.append((1, f"print('  g{index} at', i)"))
    lines.append((1, f"yield {draw(value('i'))}"))
    if draw(st.booleans()):
        lines.append((1, f"yield {draw(value('i'))}"))
    if index > 0 and draw(st.booleans()):  # from an earlier generator, or from the recursive one
        inner = draw(st.sampled_from([f"g{k}(n - 1, [1, 2])" for k in range(index)] + ["rec(n)"]))
        lines.append((0, f"yield from {inner}"))
    body = "".join("    " * (depth + 1) + text + "\n" for depth, text in [(0, f"print('  g{index} starts')"), *lines])
    return f"def g{index}(n: int, xs: list[int]):\n{body}"


@st.composite
def case(draw) -> str:
    def call(name: str = "") -> str:
        lst = draw(st.lists(small, max_size=3))
        return f"{name or draw(st.sampled_from(['g0', 'g1', 'g2']))}({draw(st.integers(0, 4))}, {lst!r})"

    kind = draw(st.sampled_from(["nexts", "resume", "interleave", "zip", "take", "returned", "listed",
                                 "stop", "recursive"]))
    if kind == "nexts":
        return f"a = {call()}\nprint(next(a, -1), next(a, -2), next(a, -3))\nprint(list(a))"
    if kind == "resume":
        return (f"a = {call()}\nprint(next(a, -1))\nfor v in a:\n    if {draw(condition('v'))}:\n        break\n"
                f"    print('v', v)\nprint(next(a, -5), list(a))")
    if kind == "interleave":
        return (f"a = {call()}\nb = {call()}\n"
                f"print(next(a, -1), next(b, -1), next(a, -2), next(b, -2))\nprint(sum(a), sum(b))")
    if kind == "zip":
        return f"for v, w in zip({call()}, {call()}):\n    print(v, w)"
    if kind == "take":
        return f"a = {call()}\nprint(take(a, {draw(st.integers(0, 3))}))\nprint(list(a))"
    if kind == "returned":
        return f"a = make({draw(st.integers(0, 4))})\nprint(next(a, -1))\nprint(list(a))"
    if kind == "listed":  # (one generator function: a list holds one type)
        name = draw(st.sampled_from(["g0", "g1", "g2"]))
        return (f"gs = [{call(name)}, {call(name)}]\nprint([next(g, -1) for g in gs])\n"
                "print([sum(g) for g in gs])")
    if kind == "stop":
        return (f"a = {call()}\nprint(list(a))\ntry:\n    print(next(a))\nexcept StopIteration:\n"
                "    print('stop')")
    return f"r = rec({draw(st.integers(0, 4))})\nprint(next(r, -1), list(r))"


HELPERS = """def rec(n: int) -> Iterator[int]:
    if n > 0:
        yield from rec(n - 1)
        yield n
        yield from rec(n - 2)


def take(g, k: int) -> list[int]:
    out: list[int] = []
    for _ in range(k):
        out.append(next(g, -7))
    return out


def make(n: int):
    return g2(n, [3, 4])
"""


def _program(gens: list[str], cases: list[str]) -> str:
    # each case in a function of its own: its variables' types are its own
    funcs = "".join(f"\n\ndef case{k}():\n" + "".join("    " + line + "\n" for line in c.split("\n"))
                    for k, c in enumerate(cases))
    calls = "".join(f"    case{k}()\n    print('--')\n" for k in range(len(cases)))
    return ("from typing import Iterator\n\n\n" + "\n\n".join(gens) + "\n\n" + HELPERS + funcs
            + "\n\ndef main():\n" + calls + "\n\nif __name__ == \"__main__\":\n    main()\n")


@st.composite
def program(draw, count: int) -> str:
    gens = [draw(generator(i)) for i in range(3)]
    return _program(gens, [draw(case()) for _ in range(count)])


@settings(max_examples=3, deadline=None)
@given(source=program(10))
def test_generator_objects_match_cpython(tmp_path_factory, source):
    prints_as_python(source, source, tmp_path_factory.mktemp("generator_objects"))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(source=program(30))
def test_generator_objects_match_cpython_at_length(tmp_path_factory, source):
    prints_as_python(source, source, tmp_path_factory.mktemp("generator_objects"))
