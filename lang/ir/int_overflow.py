"""Python's ints in 64 bits: `+`, `-`, `*`, `**` and `<<` of `Int` (and `-x`, `abs(x)` and `x // -1` of
the smallest Int) in a program's `def` functions stop the program
(`pyx stops`, semantics/exceptions.py UNCATCHABLE) where CPython's result would not fit, instead
of wrapping around.

CPython's ints have no size limit; pyx's `Int` is 64 bits. A `def` is Python's half of the
language, where the rule is that a program prints what CPython prints or is refused: a wrapped
result (`3037000500 * 3037000500` printed as a negative number, `2 ** 70` as 0) would be a
silent difference, so the program stops with a traceback instead. Not an OverflowError: CPython
raises none here, so an `except OverflowError:` or `except Exception:` would run a handler where
CPython runs none. An `fn` keeps Mojo's wrapping `Int`, and so does the standard library (its hashes wrap
on purpose). docs/python-subset.md, "Differs, knowingly".
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..semantics.exceptions import UNCATCHABLE
from . import nodes as ir

if TYPE_CHECKING:
    from ..source import Span
    from .lower import FunctionLowering

MESSAGE = "integer result too large for pyx's 64-bit int (CPython's ints have no limit)"
_MIN = -(2**63)


MARKER = "python_ints"  # a stdlib function computing a Python int for a program (stdlib/number.px)


def python_ints(lw: FunctionLowering) -> bool:
    """Whether the function being lowered computes Python's ints (checked): a program's `def`, or a
    standard library function marked `@python_ints`, whose int results are a program's values
    (`Number`'s arithmetic: a wrapped `2**62 * 4` would print 0)."""
    from ..semantics.imports import is_stdlib_file

    decl = lw.instance.decl
    if is_stdlib_file(decl.span.file.name):
        return any(d.name == MARKER for d in decl.decorators)
    return decl.kind == "def"


def checked(lw: FunctionLowering, op: str, a: ir.Value, b: ir.Value, span: Span | None) -> ir.Value:
    """`a op b` of two Ints (op `+`, `-`, `*`, `**` or `<<`), stopping the program where it wraps."""
    zero = ir.Const(T.INT, 0)
    if op == "+":
        r = lw.binop("add", a, b, span)
        # Two operands of one sign and a result of the other.
        wrapped = lw.cmp("slt", lw.binop("and", lw.binop("xor", a, r, span), lw.binop("xor", b, r, span), span),
                         zero, span)
        lw.guard(wrapped, UNCATCHABLE, MESSAGE, span)
        return r
    if op == "-":
        r = lw.binop("sub", a, b, span)
        wrapped = lw.cmp("slt", lw.binop("and", lw.binop("xor", a, b, span), lw.binop("xor", a, r, span), span),
                         zero, span)
        lw.guard(wrapped, UNCATCHABLE, MESSAGE, span)
        return r
    if op == "*":
        return _checked_mul(lw, a, b, span)
    if op == "**":
        return _checked_pow(lw, a, b, span)
    if op == "<<":
        # Python's shift never loses bits: it fits when shifting back gives `a` again.
        shifted = lw.int_op("<<", a, b, span)  # (ValueError for a negative count, as Python's)
        back = lw.int_op(">>", shifted, b, span)
        lw.guard(lw.cmp("ne", back, a, span), UNCATCHABLE, MESSAGE, span)
        return shifted
    raise AssertionError(op)


def guard_negated_min(lw: FunctionLowering, v: ir.Value, span: Span | None) -> None:
    """`-x`, `abs(x)` and `x // -1` of the smallest Int: CPython's result (2**63) does not fit."""
    lw.guard(lw.cmp("eq", v, ir.Const(T.INT, _MIN), span), UNCATCHABLE, MESSAGE, span)


def _checked_mul(lw: FunctionLowering, a: ir.Value, b: ir.Value, span: Span | None) -> ir.Value:
    r = lw.binop("mul", a, b, span)
    # Both operands in [-2**31, 2**31): the product fits (the common case: one compare, no division).
    half = ir.Const(T.INT, 2**31)
    both = lw.binop("or", lw.binop("add", a, half, span), lw.binop("add", b, half, span), span)
    small = lw.cmp("ult", both, ir.Const(T.INT, 2**32), span)
    check, done = lw.new_block("mul_check"), lw.new_block("mul_fits")
    lw.block.term = ir.Branch(span, small, done, check)
    lw.block = check
    # Else exactly: r / a == b unless it wrapped (a == -1 wraps only for b == MIN, whose division traps).
    minus_one = lw.cmp("eq", a, ir.Const(T.INT, -1), span)
    trivial = lw.binop("or", lw.cmp("eq", a, ir.Const(T.INT, 0), span), minus_one, span)
    divisor = lw.select(trivial, ir.Const(T.INT, 1), a, span)
    differs = lw.cmp("ne", lw.binop("sdiv", r, divisor, span), b, span)
    wrapped = lw.binop("or", lw.binop("and", lw.binop("xor", trivial, ir.Const(T.BOOL, True), span), differs, span),
                       lw.binop("and", minus_one, lw.cmp("eq", b, ir.Const(T.INT, _MIN), span), span), span)
    lw.guard(wrapped, UNCATCHABLE, MESSAGE, span)
    lw.block.term = ir.Jump(span, done)
    lw.block = done
    return r


def _checked_pow(lw: FunctionLowering, a: ir.Value, b: ir.Value, span: Span | None) -> ir.Value:
    from .builtins import ipow_function, ipow_symbol

    symbol = ipow_symbol(T.INT)
    if symbol not in lw.helpers:
        lw.helpers[symbol] = ipow_function(T.INT)
    r = lw.emit(ir.Call(span, lw.temp(T.INT), symbol, [a, b]))
    assert r is not None
    # The power in floating point tells whether the exact one fits: for an exponent of 2 or more
    # no power of an int lies within float rounding (512) below 2**63 (the nearest, 2**63 itself,
    # does not fit; -2**63 does and is exact), and smaller exponents cannot overflow.
    f = T.FLOAT64
    fa = lw.emit(ir.Cast(span, lw.temp(f), "sitofp", a))
    fb = lw.emit(ir.Cast(span, lw.temp(f), "sitofp", b))
    p = lw.intrinsic("pow", [fa, fb], f, span)
    limit = ir.Const(f, float(2**63))
    outside = lw.binop("or", lw.cmp("oge", p, limit, span), lw.cmp("olt", p, ir.Const(f, -float(2**63)), span), span)
    wrapped = lw.binop("and", lw.cmp("sge", b, ir.Const(T.INT, 2), span), outside, span)
    lw.guard(wrapped, UNCATCHABLE, MESSAGE, span)
    return r
