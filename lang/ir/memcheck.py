"""`--memcheck`: every memory access of GPU code checked on the CPU target.

A `Ptr` carries no length, so the check asks the runtime (codegen/memcheck.py) which array
the pointer points into: the arrays Python passed to the call or launch, and every
`Ptr.alloc` of the program, are registered while they live; shared memory is the block's
buffer. An access outside is an `IndexError` naming the index, the array's length, and the
block and thread that made it, raised like any other exception of the kernel.

The pass runs before `infer_raises`, since a checked function may now raise. It covers the
kernels and every function they call; host code is left as it is.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import cast

from .. import types as T
from . import nodes as ir
from . import ops


def device_code(module: ir.Module) -> list[ir.Function]:
    by_symbol = {f.symbol: f for f in module.functions}
    seen, stack = set(), [f.symbol for f in module.functions if f.kernel]
    while stack:
        symbol = stack.pop()
        if symbol in seen or symbol not in by_symbol:
            continue
        seen.add(symbol)
        for block in by_symbol[symbol].blocks:
            stack.extend(i.callee for i in block.instrs if isinstance(i, ir.Call))
    return [f for f in module.functions if f.symbol in seen]


def access(instr: ir.Instr) -> tuple[ir.Value, ir.Value, int, bool] | None:
    """(pointer, index, element count, is a store) for an instruction that touches memory."""
    if isinstance(instr, (ir.PtrLoad, ir.PtrStore)):
        value = instr.result.type if isinstance(instr, ir.PtrLoad) else instr.value.type
        # A SIMD value through a pointer to scalars covers `width` elements; through a Ptr[SIMD], one.
        width = value.width if isinstance(value, T.SIMDType) and value != cast(T.PtrType, instr.ptr.type).pointee else 1
        return instr.ptr, instr.index, width, isinstance(instr, ir.PtrStore)
    if isinstance(instr, ir.Intrinsic) and ops.writes_memory(instr):  # the atomics: one element at their pointer
        return instr.args[0], ir.Const(T.INT, 0), 1, True
    return None


def insert_checks(module: ir.Module, accessed: Callable[[ir.Instr], tuple[ir.Value, ir.Value, int, bool] | None],
                  op: str, labels: tuple[str, str],
                  before: Callable[[ir.Instr], list[ir.Instr]] | None = None) -> ir.Module:
    """Before each access of device code that `accessed` finds (pointer, index, count, store), the
    check operation `op` (true: the access fails, the runtime has raised) and a branch to a block
    re-raising it; `labels` name the failing and the continuing blocks. `before(instr)` gives
    operations to put ahead of an instruction (the race check's barrier count). Used by
    `--memcheck` here and `--racecheck` (ir/racecheck.py)."""
    for f in device_code(module):
        next_id = 1 + max((v.id for b in f.blocks for i in b.instrs for v in vars(i).values()
                           if isinstance(v, ir.Temp)), default=0)
        blocks = []
        for block in f.blocks:
            current = block
            instrs, current.instrs = current.instrs, []
            term = current.term
            for instr in instrs:
                if before is not None:
                    current.instrs.extend(before(instr))
                found = accessed(instr)
                if found is not None:
                    ptr, index, count, store = found
                    failed = ir.Temp(T.BOOL, next_id)
                    next_id += 1
                    current.instrs.append(ops.make(instr.span, failed, op, [
                        ptr, index, ir.Const(T.INT, count), ir.Const(T.BOOL, store)]))
                    fail = ir.Block(f"{block.label}.{labels[0]}{next_id}", term=ir.Reraise(instr.span))
                    ok = ir.Block(f"{block.label}.{labels[1]}{next_id}")
                    current.term = ir.Branch(instr.span, failed, fail, ok)
                    blocks += [current, fail]
                    current = ok
                current.instrs.append(instr)
            current.term = term
            blocks.append(current)
        f.blocks = blocks
    return module


def insert_memory_checks(module: ir.Module) -> ir.Module:
    return insert_checks(module, access, "memcheck", ("oob", "ok"))
