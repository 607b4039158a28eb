"""An operator on an Optional that nothing narrowed (E0202, E0203) says what Python code writes instead:
for an attribute (`o.v + 1` where a method call since the test may have set `o.v` again), a copy in a
variable tested with `is not None`; for a variable, the test itself (semantics/narrowing.py
`optional_notes`)."""
import pytest

from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.source import SourceFile

PROGRAM = """from typing import Optional


class C:
    def __init__(self) -> None:
        self.v: Optional[int] = 5

    def poke(self) -> bool:
        return True


def f(o: C, x: Optional[int]) -> None:
    if o.v is not None and o.poke():
        print(o.v > 2)
    print(o.v + 1, -o.v, abs(o.v), x * 2)
"""


def _errors(text: str):
    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile("prog.px", text))
    return info.value.diagnostics


def test_an_attribute_used_as_its_value_says_to_copy_it_into_a_variable_and_test_that():
    found = _errors(PROGRAM)
    assert [(d.code, d.span.line) for d in found] == [("E0202", 14), ("E0202", 15), ("E0203", 15), ("E0203", 15),
                                                      ("E0202", 15)]
    for d in found[:4]:
        (note,) = d.notes
        assert "`o.v` may be None here" in note.message
        assert "`v = o.v` then `if v is not None:`, and use `v`" in note.message
        assert (note.span.line, note.span.end - note.span.start) == (d.span.line, len("o.v"))


def test_a_variable_used_as_its_value_says_to_test_it():
    (note,) = _errors(PROGRAM)[-1].notes
    assert note.message == "`x` may be None here: test it first (`if x is not None:`)"


def test_other_operands_get_no_note():
    (d,) = _errors("def f(xs: list[int]) -> None:\n    print(xs - 1)\n")
    assert d.code == "E0202" and d.notes == ()
