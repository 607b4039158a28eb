"""The exception state's layout, read from its one declaration: `struct ExcState` and `FRAMES` in
stdlib/runtime_exc.px.

Every reader of the state in generated code (runtime_lib.py, llvm_gen.py, parallel.py, exports.py,
kernel_raised.py) and the CPython bridge (runtime/bridge.py) takes a field's place from here by its
pyx name (`ExcLayout.at`), never by a number. The state, as LLVM lays it out, is

    { ExcState, [FRAMES x i8*] functions, [FRAMES x i8*] files, [FRAMES x i32] lines }

where ExcState is the pyx struct (its fields, in the order declared, as pyx lays a struct out),
so pyx code given a `Ptr[ExcState]` (stdlib/runtime_exit.px `uncaught`) and the generated code
agree. A name the compiler reads that the file does not declare (a field renamed there) is an
`ExcLayoutError` as soon as a module is compiled.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from llvmlite import ir as ll

from ..stdlib_dir import STDLIB

FILE = "runtime_exc.px"
I32, I64 = ll.IntType(32), ll.IntType(64)
CHARP = ll.IntType(8).as_pointer()
# The frames, after the struct: each an array of FRAMES (runtime_exc.px `frame_functions`, ...).
FRAME_ARRAYS = (("functions", CHARP), ("files", CHARP), ("lines", I32))
# Every name the compiler reads, each checked against the declaration when the layout is read.
READ = ("texts", "stack", "guards", "kind", "message", "payload", "shown", "depth", "functions", "files", "lines")
# The pyx types a field may have, as pyx lowers them (codegen/llvm_gen.py `llvm_type`).
_TYPES = {"Ptr[UInt8]": CHARP, "Int": I64, "Int32": I32}


class ExcLayoutError(RuntimeError):
    """stdlib/runtime_exc.px does not declare what the compiler reads of the exception state."""


@dataclass(frozen=True)
class ExcLayout:
    fields: tuple[str, ...]  # ExcState's fields, in order
    frames: int  # FRAMES
    struct: ll.LiteralStructType  # ExcState
    type: ll.LiteralStructType  # the whole state: ExcState, then the frames' arrays

    def path(self, name: str) -> tuple[int, ...]:
        """The indices (after the pointer's 0) of field `name` in `type`."""
        if name in self.fields:
            return 0, self.fields.index(name)
        for k, (array, _) in enumerate(FRAME_ARRAYS):
            if name == array:
                return (1 + k,)
        raise ExcLayoutError(f"stdlib/{FILE} declares no field `{name}` of the exception state")

    def at(self, b: ll.IRBuilder, state: ll.Value, name: str, k: ll.Value | None = None) -> ll.Value:
        """The address of field `name` of `state` (a pointer to `type`); of frame `k`'s entry for
        the frames' arrays."""
        indices = [I32(0), *(I32(i) for i in self.path(name))]
        return b.gep(state, indices + ([k] if k is not None else []), inbounds=True)

    def offset(self, name: str) -> ll.Constant:
        """The byte offset of field `name` in the state (an i64 constant expression)."""
        return ll.Constant(self.type.as_pointer(), None).gep([I32(0), *(I32(i) for i in self.path(name))]).ptrtoint(I64)

    def size(self) -> ll.Constant:
        """The state's size in bytes (an i64 constant expression)."""
        return ll.Constant(self.type.as_pointer(), None).gep([I32(1)]).ptrtoint(I64)


def parse(text: str) -> ExcLayout:
    """The layout `text` (stdlib/runtime_exc.px's) declares, read by pyx's own parser (no second
    reading of pyx's syntax here); ExcLayoutError when it lacks what the compiler reads or has a
    field of a type this reader does not know."""
    return _layout(*_declared(text))


def _declared(text: str) -> tuple[list[tuple[str, str]], int]:
    """ExcState's fields as `text` declares them ((name, type as written), in order) and FRAMES."""
    from ..source import SourceFile
    from ..syntax import ast
    from ..syntax.parser import parse as parse_pyx

    body = parse_pyx(SourceFile(f"stdlib/{FILE}", text)).body
    frames = next((s.value.value for s in body if isinstance(s, ast.Comptime) and s.name == "FRAMES"
                   and isinstance(s.value, ast.IntLit)), None)
    declared = next((s for s in body if isinstance(s, ast.StructDef) and s.name == "ExcState"), None)
    if frames is None or declared is None:
        raise ExcLayoutError(f"stdlib/{FILE} no longer declares `comptime FRAMES = <number>` and `struct ExcState:`")
    return [(f.name, text[f.annotation.span.start:f.annotation.span.end]) for f in declared.fields], frames


def _layout(declared: list[tuple[str, str]], frames: int) -> ExcLayout:
    """The layout of ExcState's `declared` fields and FRAMES frames; ExcLayoutError as `parse` says."""
    fields: list[tuple[str, ll.Type]] = []
    for name, pyx_type in declared:
        if pyx_type not in _TYPES:
            raise ExcLayoutError(f"stdlib/{FILE}: ExcState.{name} is a {pyx_type}; the compiler's readers "
                                 f"(codegen/exc_layout.py) know only {', '.join(_TYPES)}")
        fields.append((name, _TYPES[pyx_type]))
    count = frames
    struct = ll.LiteralStructType([t for _, t in fields])
    layout = ExcLayout(tuple(n for n, _ in fields), count, struct,
                       ll.LiteralStructType([struct, *(ll.ArrayType(t, count) for _, t in FRAME_ARRAYS)]))
    for name in READ:
        layout.path(name)  # (raises for one it lacks)
    return layout


@functools.cache
def exc_layout() -> ExcLayout:
    """The exception state's layout, as stdlib/runtime_exc.px declares it. What the file declares
    is remembered per compiler and text (`cache.remembered`): parsing it (Lark's first parse in
    the process builds lexers) cost 8 to 13 ms of CPU in every cold compile."""
    from ..runtime import cache

    text = (STDLIB / FILE).read_text(encoding="utf-8")
    fields, frames = cache.remembered("exc-layout", text, lambda: _declared(text))
    return _layout([(str(name), str(pyx_type)) for name, pyx_type in fields], int(frames))
