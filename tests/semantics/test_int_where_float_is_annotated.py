"""An int assigned where a `def` annotates `float`: Python keeps the int (PEP 484 lets an int stand for
a float, and `p(3)` of `def p(x: float)` gets 3 and prints `3`). A parameter does too (the `def` gets an
instance for the int: tests/golden/int_for_float_parameter.px); a variable annotated `float` is pyx's
Float64, so the program is refused (E0201) with a note saying what Python does and what to write
(`float(...)`, or `int | float`, stdlib/number.px), and one naming the call that gave the `def` an int.
An `fn` gets no such note: it is not Python, and its `Float64` parameter takes no int variable."""
import pytest

from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.source import SourceFile

PROGRAM = """{kind} p(x: Float64) -> Float64:
    {var}y: Float64 = x
    return y * 2


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
    [note, call] = notes_of("def")
    assert "Python keeps an int where `float` is annotated" in note
    assert "`float(...)`" in note and "`int | float`" in note
    assert "`p` is checked here for the ints a call passes in `x`" in call


def test_an_fn_is_not():
    assert notes_of("fn") == []
