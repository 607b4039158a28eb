"""An int passed, assigned or returned where a `def` annotates `float`: Python keeps the int (PEP 484
lets an int stand for a float, and `p(3)` of `def p(x: float)` gets 3 and prints `3`), pyx's `float` is
a Float64, so the program is refused (E0201) with a note saying what Python does and what to write
(`float(...)`, or `int | float`, stdlib/number.px). An `fn` gets no such note: it is not Python."""
import pytest

from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.source import SourceFile

PROGRAM = """{kind} p(x: Float64) -> Float64:
    return x * 2


{kind} main():
    {var}v = 3
    print(p(v))
"""


def notes_of(kind: str) -> list[str]:
    text = PROGRAM.replace("{kind}", kind).replace("{var}", "var " if kind == "fn" else "")
    text = text.replace("Float64", "float" if kind == "def" else "Float64")
    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile("prog.py", text))
    [found] = info.value.diagnostics
    assert found.code == "E0201"
    return [n.message for n in found.notes]


def test_a_def_is_told_what_python_does_with_the_int():
    [note] = notes_of("def")
    assert "Python keeps an int where `float` is annotated" in note
    assert "`float(...)`" in note and "`int | float`" in note


def test_an_fn_is_not():
    assert notes_of("fn") == []
