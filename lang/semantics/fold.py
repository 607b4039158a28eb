"""Compile-time evaluation with exactly the semantics the generated code has.

Untyped constants (IntLiteral, FloatLiteral) are exact Python values; typed ones wrap
to their width. Anything that would raise at run time is left for run time.
"""
from __future__ import annotations

import math
import operator
import struct

from ..types import BFLOAT16, FLOAT_LITERAL, INT_LITERAL, LiteralType, ScalarType, Type, bfloat16_round

# Folding `2 ** 10**9` would hang the compiler; past this the operation runs at run time.
MAX_FOLD_BITS = 4096


class NoFold(Exception):
    """The operation cannot be done at compile time (it raises, or is too big)."""


class TooBig(NoFold):
    """An operation on untyped integer constants whose exact result would pass MAX_FOLD_BITS. It
    cannot be left for run time as the others are: there it would be computed in `Int` and wrap
    (`2 ** 7990` would print 0), where Python gives the exact value. The checker reports it."""


def wrap(value: int, t: ScalarType) -> int:
    mask = (1 << t.bits) - 1
    value &= mask
    if t.is_signed and value >> (t.bits - 1):
        value -= 1 << t.bits
    return value


def round_float(value: float, t: Type) -> float:
    """Round to the type's precision; too large becomes infinity, as the hardware conversion does."""
    if t == BFLOAT16:
        return bfloat16_round(value)
    code = {32: "f", 16: "e"}.get(t.bits) if isinstance(t, ScalarType) else None
    if code is None:
        return value
    try:
        return struct.unpack(code, struct.pack(code, value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def normalize(value, t: Type):
    if isinstance(t, ScalarType):
        if t.is_bool:
            return bool(value)
        if t.is_int:
            return wrap(int(value), t)
        return round_float(float(value), t)
    return value


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "&": operator.and_,
          "|": operator.or_, "^": operator.xor}


def binary(op: str, a, b, t: Type):
    """`a op b` where both are of type `t` (the operand type); Python semantics, wrapped to t."""
    is_int = isinstance(a, int) and isinstance(b, int) and not _is_float_type(t)
    try:
        if op in _ARITH:
            result = _ARITH[op](a, b)
        elif op == "/":
            result = a / b
        elif op == "//":
            result = a // b
        elif op == "%":
            result = a % b
        elif op == "**":
            if is_int and b < 0:
                raise NoFold
            # |a| ** b has about b * log2|a| bits (1 ** n, 0 ** n and (-1) ** n are small for any n);
            # the exact size is checked on the result below.
            if is_int and isinstance(t, LiteralType) and abs(a) > 1 and b * math.log2(abs(a)) > MAX_FOLD_BITS + 1:
                raise TooBig
            result = pow(a, b, 1 << 64) if is_int and isinstance(t, ScalarType) else a ** b
            if isinstance(result, complex):
                raise NoFold
        elif op in ("<<", ">>"):
            if b < 0:
                raise NoFold
            if op == "<<":
                if isinstance(t, LiteralType) and b > MAX_FOLD_BITS and a != 0:
                    raise TooBig
                result = a << min(b, 128) if isinstance(t, ScalarType) else a << b
            else:
                result = a >> b
        else:
            raise NoFold
    except (ZeroDivisionError, OverflowError, ValueError):
        raise NoFold from None
    if isinstance(t, LiteralType) and isinstance(result, int) and result.bit_length() > MAX_FOLD_BITS:
        raise TooBig  # `2 ** 4000 * 2 ** 4000`: each operand folds, their product does not
    if isinstance(result, float) and isinstance(t, ScalarType):
        return round_float(result, t) if t.is_float else result
    return normalize(result, t) if isinstance(t, ScalarType) and not isinstance(result, float) else result


def _is_float_type(t: Type) -> bool:
    return t == FLOAT_LITERAL or (isinstance(t, ScalarType) and t.is_float)


def compare(op: str, a, b) -> bool:
    return {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne}[op](a, b)


def unary(op: str, a, t: Type):
    if op == "-":
        result = -a
    elif op == "~":
        result = ~a
    elif op == "not":
        return not a
    else:
        result = +a
    return normalize(result, t) if isinstance(t, ScalarType) else result


def convert(value, target: ScalarType, checked: bool):
    """Fold a conversion to `target`, raising NoFold where the run-time check would fire."""
    if target.is_bool:
        return bool(value)
    if target.is_float:
        return round_float(float(value), target)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise NoFold
        value = int(value)
        if checked and not (target.min <= value <= target.max):
            raise NoFold
    return wrap(int(value), target)


def literal_type_of(value) -> Type:
    return FLOAT_LITERAL if isinstance(value, float) else INT_LITERAL
