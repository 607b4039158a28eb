"""Closures in the frame that makes them, against CPython (semantics/closures.py): late binding
(a closure reads the frame's variable as it is when called, after the frame assigned it again),
`nonlocal` writes seen by the frame and by the other closures, closures made in a loop (each
reads the loop variable's last value, Python's classic surprise), lambdas in comprehensions,
and comprehensions and generator expressions reading the frame's variables.

Random programs interleave assignments of the frame's variables with calls of its closures;
one program holds a batch of steps, since compiling is what costs. Hypothesis does not shrink a
failure (each try compiles a program: shrinking one took over five minutes); the program it
reports is the one generated."""
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

small = st.integers(-3, 5)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
VARS = ("a", "b")


def expr(inner: str):
    """An int expression of the frame's variables and `inner` (a parameter or item)."""
    return st.one_of(
        st.builds(lambda v, k: f"{inner} + {v} * {k}", st.sampled_from(VARS), small),
        st.builds(lambda v: f"{v} - {inner}", st.sampled_from(VARS)),
        st.builds(lambda v, w: f"({inner} + {v}) * {w}", st.sampled_from(VARS), st.sampled_from(VARS)),
        st.builds(lambda v, m: f"({inner} * {v}) % {m}", st.sampled_from(VARS), st.integers(1, 7)),
        st.builds(lambda k: f"{inner} * {k}", small),
    )


@st.composite
def closures(draw) -> str:
    """The frame's closures, made once at the start: two that read, one that writes (`nonlocal`)."""
    shared = draw(st.sampled_from(VARS))
    return (f"    f = lambda x: {draw(expr('x'))}\n"
            f"    def g(x: int) -> int:\n        return {draw(expr('x'))}\n"
            f"    def bump(k: int) -> int:\n        nonlocal {shared}\n"
            f"        {shared} += k\n        return a + b\n")


@st.composite
def step(draw) -> str:
    kind = draw(st.sampled_from(["assign", "augment", "call", "bump", "loop", "comprehension", "generator",
                                 "lambdas", "nested"]))
    v, k = draw(st.sampled_from(VARS)), draw(small)
    if kind == "assign":
        return f"{v} = {draw(expr(str(k)))}"
    if kind == "augment":
        return f"{v} += {k}"
    if kind == "call":
        return f"print(f({k}), g({k}))"
    if kind == "bump":
        return f"print(bump({k}), f(0), a, b)"
    if kind == "loop":  # each closure made in the loop reads the loop variable when it is called
        return (f"hs: list[Callable[[int], int]] = []\n    for j in range({draw(st.integers(1, 4))}):\n"
                f"        hs.append(lambda x: x + j * {v})\n    print([h({k}) for h in hs])")
    if kind == "comprehension":
        return f"print([{draw(expr('y'))} for y in range({draw(st.integers(0, 5))}) if y != {v}])"
    if kind == "generator":
        return f"print(sum({draw(expr('y'))} for y in range({draw(st.integers(0, 6))})))"
    if kind == "lambdas":
        # Each lambda reads the comprehension's `m` when called: its last value, for all three.
        return f"print([h({k}) for h in [lambda x: x * m + {v} for m in range(3)]])"
    # A closure made here, inside a nested one: it reads the frame's variable through both.
    return (f"def outer(x: int) -> int:\n        inner = lambda y: y + {v} + x\n        return inner({k})\n"
            f"    print(outer({draw(small)}), f(1))")


def _program(defs: str, steps: list[str]) -> str:
    body = "".join(f"    {s}\n" for s in steps)
    return ("from typing import Callable\n\n\ndef main():\n    a = 2\n    b = -1\n" + defs + body
            + "    print(a, b, f(2), g(2))\n\n\nif __name__ == \"__main__\":\n    main()\n")


def _check(tmp_path_factory, defs, steps) -> None:
    source = _program(defs, steps)
    prints_as_python(source, source, tmp_path_factory.mktemp("closure_scoping"))


@settings(max_examples=3, deadline=None, phases=NO_SHRINK)
@given(defs=closures(), steps=st.lists(step(), min_size=10, max_size=10))
def test_closures_in_their_frame_match_cpython(tmp_path_factory, defs, steps):
    _check(tmp_path_factory, defs, steps)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, phases=NO_SHRINK)
@given(defs=closures(), steps=st.lists(step(), min_size=30, max_size=30))
def test_closures_in_their_frame_match_cpython_at_length(tmp_path_factory, defs, steps):
    _check(tmp_path_factory, defs, steps)
