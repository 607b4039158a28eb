"""IR-to-IR passes. Each is a plain function; the pipeline verifies after every one."""
from __future__ import annotations

from . import nodes as ir


def remove_unreachable_blocks(module: ir.Module) -> ir.Module:
    for f in module.functions:
        seen: set[int] = set()
        stack = [f.blocks[0]]
        while stack:
            block = stack.pop()
            if id(block) in seen:
                continue
            seen.add(id(block))
            stack.extend(block.successors())
        f.blocks = [b for b in f.blocks if id(b) in seen]
    return module


def infer_raises(module: ir.Module) -> ir.Module:
    """A function raises if it has a `raise` or calls one that does: a fixpoint over the call graph."""
    by_symbol = {f.symbol: f for f in module.functions}
    callers: dict[str, set[str]] = {f.symbol: set() for f in module.functions}
    work = []
    for f in module.functions:
        for block in f.blocks:
            if isinstance(block.term, (ir.Raise, ir.Reraise)) and block.term.handler is None:
                f.raises = True
            for instr in block.instrs:
                if isinstance(instr, (ir.Call, ir.Launch, ir.ParallelFor)) and instr.handler is None:  # a handled call does not leak
                    callers[instr.callee].add(f.symbol)
        if f.raises:
            work.append(f.symbol)
    while work:
        symbol = work.pop()
        for caller in callers[symbol]:
            f = by_symbol[caller]
            if not f.raises:
                f.raises = True
                work.append(caller)
    return module


PASSES = [remove_unreachable_blocks, infer_raises]


def device_functions(module: ir.Module) -> ir.Module:
    """For the GPU: keep the kernels and what they call (host code has no place in the PTX).
    A module without kernels keeps everything, so plain functions still compile for the GPU."""
    kernels = [f for f in module.functions if f.kernel]
    if not kernels:
        return module
    by_symbol = {f.symbol: f for f in module.functions}
    keep, stack = set(), [k.symbol for k in kernels]
    while stack:
        symbol = stack.pop()
        if symbol in keep:
            continue
        keep.add(symbol)
        for block in by_symbol[symbol].blocks:
            stack.extend(i.callee for i in block.instrs if isinstance(i, (ir.Call, ir.ParallelFor)))
    module.functions = [f for f in module.functions if f.symbol in keep]
    module.main = None
    return module


def launching_functions(module: ir.Module) -> set[str]:
    """The functions that launch a kernel, directly or through what they call (host code that
    needs a GPU's memory when its kernels run there)."""
    callers: dict[str, set[str]] = {f.symbol: set() for f in module.functions}
    found: set[str] = set()
    for f in module.functions:
        for block in f.blocks:
            for instr in block.instrs:
                if isinstance(instr, ir.Launch):
                    found.add(f.symbol)
                elif isinstance(instr, (ir.Call, ir.ParallelFor)) and instr.callee in callers:
                    callers[instr.callee].add(f.symbol)
    work = list(found)
    while work:
        for caller in callers[work.pop()]:
            if caller not in found:
                found.add(caller)
                work.append(caller)
    return found
