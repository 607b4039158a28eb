"""Lowering of functions as values (semantics/closures.py): a closure is a struct of what it
captured, built field by field; a variable it shares with the function that made it is kept as
that variable's address, and inside the closure's `__call__` a by-reference variable is bound to
that address before anything else runs."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..semantics import typed as t
from ..semantics.ownership import owning
from ..types import PtrType
from . import nodes as ir

if TYPE_CHECKING:
    from .lower import FunctionLowering


def closure(lw: FunctionLowering, e: t.TClosure) -> ir.Value:
    """The closure's struct: an undefined value with each captured value inserted in turn."""
    value: ir.Value = ir.Undef(e.type)
    for index, captured in enumerate(e.values):
        # A heap cell's reference (semantics/function_values.py) is the closure's, not a temporary.
        result = lw.temp(e.type)
        part = lw.own.take(captured) if owning(captured.type) else lw.expr(captured)
        value = lw.emit(ir.Insert(e.span, result, value, index, part))
    return value


def address(lw: FunctionLowering, e: t.TAddress) -> ir.Value:
    assert isinstance(e.type, PtrType)
    return lw.emit(ir.AddressOf(e.span, lw.temp(e.type), lw.var(e.var)))


def bind_ref(lw: FunctionLowering, s: t.TBindRef) -> None:
    lw.emit(ir.BindRef(s.span, lw.var(s.var), lw.expr(s.ptr)))
