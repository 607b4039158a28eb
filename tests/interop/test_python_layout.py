"""`@python_layout(KIND)`: the standard library declares how its containers cross to Python
(lang/interop.py), instead of the compiler recognising them by their fields."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run_source
from pyx import interop, pipeline
from pyx import types as T
from pyx.source import SourceFile

PROGRAM = """\
from python import PythonObject

fn f(a: List[Int], b: Span[Float64], c: Buffer[Float32, 2], d: String, e: PythonObject, g: List[String]):
    pass
"""


def _param_types():
    program = pipeline.check(SourceFile("layouts.px", PROGRAM)).program
    (f,) = [i for i in program.instances if i.decl.name == "f"]
    return f.param_types


def test_the_stdlib_containers_carry_their_layout():
    a, b, c, d, e, g = _param_types()
    assert [interop.python_layout(t) for t in (a, b, c, d, e, g)] == ["list", "span", "buffer", "str", "object",
                                                                       "list"]
    assert interop.is_list_of_scalars(a) and not interop.is_list_of_scalars(g)  # a List of Strings stays in pyx
    assert interop.is_span_of_scalars(b) and interop.is_buffer_of_scalars(c)
    assert interop.is_string(d) and interop.is_python_object(e)
    assert interop.python_layout(T.INT) is None


def test_a_marked_struct_whose_fields_are_not_its_layout_fails_loudly():
    a = _param_types()[0]
    swapped = T.StructType(a.name, a.module, fields=[a.fields[1], a.fields[0], a.fields[2]], base=a.base,
                           ct_env=a.ct_env, symbol=a.symbol)
    with pytest.raises(interop.LayoutMismatch, match="not the `list` layout"):
        interop.python_layout(swapped)


def test_a_users_struct_cannot_claim_a_layout(tmp_path: Path):
    result = run_source('@python_layout("list")\nstruct Mine:\n    var x: Int\n\nfn main():\n    print(1)\n',
                        tmp_path)
    assert result.status == 1
    assert "error[E0134]: unknown decorator `@python_layout`" in result.stderr
