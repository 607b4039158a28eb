"""Lowering of functions chosen at run time (semantics/function_values.py): a thunk's address
(`FnAddr`) and the indirect call through a function value (`CallFn`, which may raise)."""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .. import types as T
from . import nodes as ir

if TYPE_CHECKING:
    from ..semantics.function_values import TCallPtr, TFnAddr, TMakeFnValue
    from .lower import FunctionLowering


def address(lw: FunctionLowering, e: TFnAddr) -> ir.Value:
    return cast(ir.Temp, lw.emit(ir.FnAddr(e.span, lw.temp(e.type), e.thunk.symbol, e.direct)))  # has a result


def make(lw: FunctionLowering, e: TMakeFnValue) -> ir.Value:
    value: ir.Value = ir.Undef(e.type)
    for index, part in enumerate(e.parts):
        value = lw.emit(ir.Insert(e.span, lw.temp(e.type), value, index, lw.expr(part)))
    return value


def call(lw: FunctionLowering, e: TCallPtr) -> ir.Value:
    """The arguments are borrowed, as by any call; the result is the caller's (`return` takes it)."""
    fn, *args = [lw.expr(a) for a in e.args]
    result = lw.temp(e.type) if e.type != T.NONE else None
    lw.emit(ir.CallFn(e.span, result, fn, args, lw.handler()))
    return result if result is not None else ir.Const(T.NONE, None)
