"""IR functions the lowering calls for operations too long to inline (integer `**`)."""
from __future__ import annotations

from .. import types as T
from ..semantics.exceptions import UNCATCHABLE
from ..types import ScalarType
from . import nodes as ir


def ipow_symbol(t: ScalarType) -> str:
    return f"__pyx_ipow_{t.name}"


def ipow_function(t: ScalarType) -> ir.Function:
    """Exponentiation by squaring, wrapping like every `Int` operation.

    Python gives a float for a negative exponent; a static `Int ** Int` cannot, so the program stops.
    """
    base, exp = ir.Var("base", t, 1), ir.Var("exp", t, 2)
    result = ir.Var("result", t, 3)
    f = ir.Function(ipow_symbol(t), "__pow__", "<builtin>", [base, exp], t, None, vars=[result], exported=False)
    counter = iter(range(1, 1000))

    def temp(ty: T.Type = t) -> ir.Temp:
        return ir.Temp(ty, next(counter))

    entry, negative, setup, head, body, done = (ir.Block(n) for n in ("entry", "negative", "setup", "loop",
                                                                     "step", "done"))
    f.blocks = [entry, negative, setup, head, body, done]
    e = temp(t)
    entry.instrs = [ir.Load(None, e, exp)]
    if t.is_signed:
        neg = temp(T.BOOL)
        entry.instrs.append(ir.Cmp(None, neg, "slt", e, ir.Const(t, 0)))
        entry.term = ir.Branch(None, neg, negative, setup)
    else:
        entry.term = ir.Jump(None, setup)
    # The program stops (no `except` catches it): CPython's result is a float, with no exception a
    # handler could see.
    negative.term = ir.Raise(None, UNCATCHABLE, f"negative exponent in {t} ** {t}: CPython gives a float here, "
                             f"which {t} cannot be; write float(b) ** n")
    setup.instrs = [ir.Store(None, result, ir.Const(t, 1))]
    setup.term = ir.Jump(None, head)
    e2, more = temp(), temp(T.BOOL)
    head.instrs = [ir.Load(None, e2, exp), ir.Cmp(None, more, "ne", e2, ir.Const(t, 0))]
    head.term = ir.Branch(None, more, body, done)
    e3, b3, r3, odd, is_odd, times, r4, sq, half = (temp(), temp(), temp(), temp(), temp(T.BOOL), temp(), temp(),
                                                    temp(), temp())
    body.instrs = [
        ir.Load(None, e3, exp), ir.Load(None, b3, base), ir.Load(None, r3, result),
        ir.BinOp(None, odd, "and", e3, ir.Const(t, 1)),
        ir.Cmp(None, is_odd, "ne", odd, ir.Const(t, 0)),
        ir.BinOp(None, times, "mul", r3, b3),
        ir.Select(None, r4, is_odd, times, r3),
        ir.Store(None, result, r4),
        ir.BinOp(None, sq, "mul", b3, b3),
        ir.Store(None, base, sq),
        ir.BinOp(None, half, "lshr", e3, ir.Const(t, 1)),
        ir.Store(None, exp, half),
    ]
    body.term = ir.Jump(None, head)
    r5 = temp()
    done.instrs = [ir.Load(None, r5, result)]
    done.term = ir.Ret(None, r5)
    return f
