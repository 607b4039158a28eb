"""The exception state's layout has one declaration, `struct ExcState` and `FRAMES` in
stdlib/runtime_exc.px: the compiler's readers (lang/codegen/exc_layout.py) take every field from it
by name, pyx code reads it as the struct it is, and the two agree. A field the compiler reads that
the file no longer declares stops the compiler with an error naming it, not a misread."""
from __future__ import annotations

import pytest
from llvmlite import ir as ll

from pyx import types as T
from pyx.codegen import exc_layout as layout_module
from pyx.codegen.exc_layout import READ, ExcLayoutError, exc_layout, parse
from pyx.codegen.llvm_gen import llvm_type
from pyx.codegen.runtime_source import PREFIX, runtime_functions
from pyx.semantics.imports import STDLIB

DECLARATION = (STDLIB / "runtime_exc.px").read_text(encoding="utf-8")


def test_the_compiler_reads_the_struct_pyx_lays_out():
    """The pyx runtime's `uncaught` takes a Ptr[ExcState]: the struct pyx made of the declaration
    has the fields the compiler's layout has, in its order, each of the LLVM type it reads."""
    uncaught = runtime_functions("core")[PREFIX + "runtime_exit.uncaught"]
    pointer = uncaught.params[0].type
    assert isinstance(pointer, T.PtrType) and isinstance(pointer.pointee, T.StructType)
    struct = pointer.pointee
    layout = exc_layout()
    assert tuple(name for name, _ in struct.fields) == layout.fields
    assert str(llvm_type(struct)) == str(layout.struct)
    # after the struct, the frames: FRAMES functions, files and lines (runtime_exc.px `frame_functions`, ...)
    assert [str(t) for t in layout.type.elements[1:]] == [f"[{layout.frames} x i8*]"] * 2 + [f"[{layout.frames} x i32]"]


def test_every_name_read_is_declared_and_found_by_name():
    layout = exc_layout()
    state = ll.Constant(layout.type.as_pointer(), None)
    b = ll.IRBuilder(ll.Function(ll.Module(), ll.FunctionType(ll.VoidType(), []), "f").append_basic_block())
    offsets = {}
    for name in READ:
        assert layout.at(b, state, name).type.pointee is not None
        offsets[name] = layout.path(name)
    assert len(set(offsets.values())) == len(READ)
    # the exception a parallel loop moves to another thread is `kind` and what follows it: the thread's
    # own fields (its messages, stack limit, recursion guards) come before it
    assert all(layout.fields.index(own) < layout.fields.index("kind") for own in ("texts", "stack", "guards"))


@pytest.mark.parametrize("name", ["kind", "depth", "guards"])
def test_a_renamed_field_is_an_error_naming_it(name):
    renamed = DECLARATION.replace(f"    var {name}:", f"    var {name}_renamed:")
    assert renamed != DECLARATION
    with pytest.raises(ExcLayoutError, match=f"declares no field `{name}`"):
        parse(renamed)


def test_a_field_of_a_type_the_readers_do_not_know_is_an_error():
    with pytest.raises(ExcLayoutError, match=r"ExcState.depth is a Int16"):
        parse(DECLARATION.replace("var depth: Int32", "var depth: Int16"))


def test_no_layout_constants_outside_the_declaration():
    """The old Python-side layout (a literal struct and its field numbers) is gone."""
    from pyx.codegen import runtime_lib

    for gone in ("EXC_STATE", "MAX_FRAMES", "TYPE", "MSG", "DEPTH", "FUNCS", "FILES", "LINES", "TEXTS", "GUARDS"):
        assert not hasattr(runtime_lib, gone)
    assert layout_module.FILE == "runtime_exc.px"
