"""`convergent` on device code that waits for other threads.

A barrier or a warp operation must be reached by the threads of a block (or lanes of a warp)
together: LLVM may not make it depend on more or other control flow than the source gives it (hoist
it out of a branch, sink it into one, duplicate it into the arms of an `if` by jump threading or
unswitching). LLVM's own NVPTX intrinsics (`llvm.nvvm.barrier0`, `shfl.sync`, `vote.sync`) are
convergent, but a function calling them is not unless it says so, and once the call is inside an
ordinary function the optimizer may move *the call to that function*. So every device function
that reaches one, directly or through the functions it calls, and every kernel entry calling such a
function, is marked `convergent`. Functions that never synchronize stay unmarked: the attribute
only takes optimizations away.

On the CPU target the waits are calls into the coroutine scheduler, which LLVM already treats as
calls with unknown side effects (never duplicated into paths that did not make them, never merged
across them), so nothing is marked there.
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import ops


def synchronizing(functions: list[ir.Function]) -> set[str]:
    """The symbols of the functions that wait for other threads, directly or through a call."""
    callers: dict[str, set[str]] = {}
    found: set[str] = set()
    for f in functions:
        for block in f.blocks:
            for i in block.instrs:
                if ops.synchronizes(i):
                    found.add(f.symbol)
                elif isinstance(i, ir.Call):
                    callers.setdefault(i.callee, set()).add(f.symbol)
    stack = list(found)
    while stack:
        for caller in callers.get(stack.pop(), ()):
            if caller not in found:
                found.add(caller)
                stack.append(caller)
    return found


def mark_convergent(mg) -> None:
    """Mark the module's synchronizing functions and kernel entries (device targets only)."""
    if mg.target.host:
        return
    marked = synchronizing(mg.ir_module.functions)
    for f in mg.ir_module.functions:
        if f.symbol not in marked:
            continue
        mg.functions[f.symbol].attributes.add("convergent")
        if f.kernel:
            entry = mg.module.globals.get(mg.symbol(f.symbol + ".kernel"))
            if entry is not None:
                entry.attributes.add("convergent")
