"""Module-level variables in the IR (semantics/globals.py has the language's rules).

A module-level variable is an `ir.Var` with a `global_symbol`: code generation gives it the
module's global of that name instead of a frame slot, in every function that uses it. Beside it
lives its `.defined` flag (a global Bool, false at program start): every store to the variable
sets it (`mark_defined`, run on each function once it is lowered, so no store is missed), and a
function other than the script checks it before reading the variable (`FunctionLowering.read_global`),
raising CPython's `NameError: name 'X' is not defined` when the script has not assigned it yet.
The flag is also the variable's live flag for destructors: assigning a new value destroys the old
one only if there was one; the script's end destroys nothing (the variables outlive it, as a
module's do).
"""
from __future__ import annotations

from .. import types as T
from . import nodes as ir


def defined_flag(var: ir.Var) -> ir.Var:
    """The flag of a module-level variable (a new Var each time: the symbol is what names the storage)."""
    assert var.global_symbol is not None
    return ir.Var(f"{var.name}.defined", T.BOOL, var.id, global_symbol=f"{var.global_symbol}.defined")


def is_flag(var: ir.Var) -> bool:
    return var.global_symbol is not None and var.global_symbol.endswith(".defined")


def mark_defined(fn: ir.Function) -> None:
    """After each store to a module-level variable, set its flag."""
    flags: dict[str, ir.Var] = {}
    for block in fn.blocks:
        out: list[ir.Instr] = []
        for instr in block.instrs:
            out.append(instr)
            if isinstance(instr, ir.Store) and instr.var.global_symbol is not None and not is_flag(instr.var):
                flag = flags.get(instr.var.global_symbol)
                if flag is None:
                    flag = flags[instr.var.global_symbol] = defined_flag(instr.var)
                    fn.vars.append(flag)
                out.append(ir.Store(instr.span, flag, ir.Const(T.BOOL, True)))
        block.instrs = out


def program_entry(main: str, imported_scripts: list[str], file: str) -> ir.Function:
    """What `pyx run` calls when imported modules have scripts: each of them, in import order, then
    the program's own entry (its script or `main`). An exception from any leaves at once."""
    entry = ir.Function("pyx.program", "<program>", file, [], T.NONE, None, exported=False, frameless=True)
    block = ir.Block("entry")
    for symbol in [*imported_scripts, main]:
        block.instrs.append(ir.Call(None, None, symbol, []))
    block.term = ir.Ret(None, None)
    entry.blocks.append(block)
    return entry
