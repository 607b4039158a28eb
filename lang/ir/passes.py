"""IR-to-IR passes. Each is a plain function `module -> module`; the pass manager
(`passmanager.IR_PASSES`) says when each runs, and verifies after every one when verification is on."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard

from . import nodes as ir


def _reachable(f: ir.Function, successors: Callable[[ir.Block], list[ir.Block]]) -> list[ir.Block]:
    """The blocks reachable from f's entry, following `successors(block)`."""
    seen: dict[int, ir.Block] = {}
    stack = [f.blocks[0]]
    while stack:
        block = stack.pop()
        if id(block) not in seen:
            seen[id(block)] = block
            stack.extend(successors(block))
    return list(seen.values())


def remove_unreachable_blocks(module: ir.Module) -> ir.Module:
    for f in module.functions:
        keep = {id(b) for b in _reachable(f, ir.Block.successors)}
        f.blocks = [b for b in f.blocks if id(b) in keep]
    return module


def infer_raises(module: ir.Module) -> ir.Module:
    """A function raises if an exception can leave it: a `raise` outside any handler, or a call
    (launch, parallel loop) of a function that raises, outside any handler, reachable from its
    entry, where a handler counts as reached only from something that can raise into it. A
    fixpoint over the call graph: a function that holds values with destructors has a cleanup
    handler under every call, which must not make it raise when nothing it calls does."""
    by_symbol = {f.symbol: f for f in module.functions}
    for f in module.functions:
        f.raises = False
    changed = True
    while changed:
        changed = False
        for f in module.functions:
            if not f.raises and _exception_escapes(f, by_symbol):
                f.raises = changed = True
    return module


def _exception_escapes(f: ir.Function, by_symbol: dict[str, ir.Function]) -> bool:
    def may_raise(instr: ir.Instr) -> TypeGuard[ir.Launch | ir.Call | ir.ParallelFor]:
        if isinstance(instr, (ir.Launch, ir.CallFn)):  # (an indirect call's callee is not known)
            return True
        if isinstance(instr, (ir.Call, ir.ParallelFor)):
            callee = by_symbol.get(instr.callee)
            return callee is not None and callee.raises
        return False

    def successors(block: ir.Block) -> list[ir.Block]:
        out = [i.handler for i in block.instrs if i is not None and may_raise(i) and i.handler is not None]
        term = block.term
        if isinstance(term, ir.Jump):
            out.append(term.target)
        elif isinstance(term, ir.Branch):
            out += [term.then, term.orelse]
        elif isinstance(term, (ir.Raise, ir.Reraise)) and term.handler is not None:
            out.append(term.handler)
        return out

    for block in _reachable(f, successors):
        if isinstance(block.term, (ir.Raise, ir.Reraise)) and block.term.handler is None:
            return True
        if any(may_raise(i) and i.handler is None for i in block.instrs):
            return True
    return False


def drop_dead_handlers(module: ir.Module) -> ir.Module:
    """A call of a function that cannot raise never goes to its handler: forget the edge, and
    the handler's blocks if nothing else reaches them (a cleanup with nothing to clean up)."""
    by_symbol = {f.symbol: f for f in module.functions}
    for f in module.functions:
        for block in f.blocks:
            for instr in block.instrs:
                if isinstance(instr, (ir.Call, ir.ParallelFor)) and instr.handler is not None:
                    callee = by_symbol.get(instr.callee)
                    if callee is not None and not callee.raises:
                        instr.handler = None
    return remove_unreachable_blocks(module)


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


def split_kernels(module: ir.Module) -> ir.Module:
    """Pass `gpu_regions` (ir/gpu_regions.py), which adds a companion only for a kernel: a module
    without one is left as it is, and that module is not even imported (start-up time)."""
    if not any(f.kernel for f in module.functions):
        return module
    from .gpu_regions import split_kernels as split

    return split(module)


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
