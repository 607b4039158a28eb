"""Device code polls no Ctrl-C flag (a GPU has none to read): for the cuda target, the polls the
lowering put at loop back-edges (`interrupt_poll` + a branch to a `reraise`) go, so a kernel's
functions keep the calling convention their bodies need."""
from __future__ import annotations

from typing import cast

from . import nodes as ir


def strip_interrupt_polls(module: ir.Module) -> ir.Module:
    from .passes import remove_unreachable_blocks

    for f in module.functions:
        for block in f.blocks:
            polls = {cast(ir.Temp, i.result).id for i in block.instrs
                     if isinstance(i, ir.Intrinsic) and i.name == "interrupt_poll"}
            if not polls:
                continue
            block.instrs = [i for i in block.instrs
                            if not (isinstance(i, ir.Intrinsic) and i.name == "interrupt_poll")]
            term = block.term
            if isinstance(term, ir.Branch) and isinstance(term.cond, ir.Temp) and term.cond.id in polls:
                block.term = ir.Jump(term.span, term.orelse)
    return remove_unreachable_blocks(module)
