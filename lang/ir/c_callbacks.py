"""A function whose address is given to C (semantics/c_functions.py: a thread's start routine, a
`qsort` comparator) polls no Ctrl-C flag in its own loops: C cannot see the KeyboardInterrupt a
poll would raise, so, as in a C thread, the loop runs on and the main thread's loops take the
Ctrl-C. Without this, any loop would make such a function one that may raise (E0194)."""
from __future__ import annotations

from . import nodes as ir
from .interrupts import strip_interrupt_polls


def strip_callback_polls(module: ir.Module) -> ir.Module:
    callbacks = {i.callee for f in module.functions for b in f.blocks for i in b.instrs
                 if isinstance(i, ir.FnAddr) and i.direct}
    if not callbacks:
        return module
    every = module.functions
    module.functions = [f for f in every if f.symbol in callbacks]  # strip only these (in place)
    strip_interrupt_polls(module)
    module.functions = every
    return module
