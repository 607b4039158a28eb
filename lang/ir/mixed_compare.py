"""An int compared with a float, exactly as CPython compares them (`2**53 + 1 == 2.0**53` is False).

Brought to the float, a 64-bit int beyond 2**53 is rounded, so the old `sitofp` + `fcmp` said
`2**53 + 1 == 2.0**53`. CPython compares the exact values: NaN compares false (`!=` true), an
infinity is beyond every int. `ir/lower.py`'s `expr_TCompare` asks `link` for each link of a
comparison; Int-Int and Float-Float links, and ints that convert exactly (32 bits and less, or a
constant that is a float's value), keep the plain comparison (`link` gives None).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..types import LiteralType, ScalarType, Type
from . import nodes as ir

if TYPE_CHECKING:
    from .lower import FunctionLowering

_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _int_kind(type_: Type) -> bool:
    if isinstance(type_, LiteralType):
        return type_.kind == "int"
    return isinstance(type_, ScalarType) and type_.is_int and not type_.is_bool


def link(lw: FunctionLowering, op: str, left: tuple[Type, ir.Value], right: tuple[Type, ir.Value], link_type: Type,
         span: Span | None) -> ir.Value | None:
    """`left op right` (each operand's typed-tree type and its value, not yet cast) where one is an int
    and the link is Float64 and the plain float comparison could be wrong; None where it is right."""
    if link_type != T.FLOAT64 or op not in _MIRROR:
        return None
    if _int_kind(left[0]) and not _int_kind(right[0]):
        (_, a), (_, f) = left, right
    elif _int_kind(right[0]) and not _int_kind(left[0]):
        (_, a), (_, f), op = right, left, _MIRROR[op]
    else:
        return None
    f = lw.cast_to(f, T.FLOAT64, span)  # now `a op f`, a the int
    if isinstance(a, ir.Const):
        return _constant(lw, op, int(a.value), f, span)
    if not isinstance(a.type, ScalarType) or a.type.bits <= 53:
        return None  # converts exactly
    return _runtime(lw, op, a, f, span)


def _constant(lw: FunctionLowering, op: str, c: int, f: ir.Value, span: Span | None) -> ir.Value | None:
    """`c op f` for an int constant c: where c is no float's value, compare f with the floats around c."""
    try:
        near = float(c)
    except OverflowError:
        near = math.inf if c > 0 else -math.inf
    if near == c:
        return None  # exact: the plain comparison is right
    if near < c:  # (Python compares int with float exactly)
        below, above = near, math.nextafter(near, math.inf)
    else:
        below, above = math.nextafter(near, -math.inf), near
    if op in ("==", "!="):
        return ir.Const(T.BOOL, op == "!=")  # (f is a float; c is none)
    if op in ("<", "<="):  # c < f: f is at least the float above c
        return lw.cmp("oge", f, ir.Const(T.FLOAT64, above), span)
    return lw.cmp("ole", f, ir.Const(T.FLOAT64, below), span)  # c > f: f is at most the float below c


def _runtime(lw: FunctionLowering, op: str, a: ir.Value, f: ir.Value, span: Span | None) -> ir.Value:
    """`a op f` for a 64-bit int a. Where the rounded a differs from f (or f is NaN), the float
    comparison is right (rounding to nearest never passes a float); where they are equal, f is an
    int's value and the comparison is of ints, f = 2**63 (2**64 unsigned) above every int. A branch,
    not selects: the tie is rare, and the float comparison alone costs about what it did before
    (a select of both paths made a loop of such comparisons 1.6 times as slow)."""
    int_type = a.type
    assert isinstance(int_type, ScalarType)
    signed = int_type.is_signed
    d = lw.emit(ir.Cast(span, lw.temp(T.FLOAT64), "sitofp" if signed else "uitofp", a))
    result = lw.hidden("mixedcmp", T.BOOL)
    differ = lw.cmp("une", d, f, span)
    coarse, tie, done = lw.new_block("cmp_float"), lw.new_block("cmp_tie"), lw.new_block("endcmp")
    lw.block.term = ir.Branch(span, differ, coarse, tie)  # (almost always the float comparison)
    lw.block = coarse
    lw.emit(ir.Store(span, result, lw.compare(op, d, f, span)))
    lw.goto(done)
    lw.block = tie
    top = lw.cmp("oge", d, ir.Const(T.FLOAT64, float(2 ** (int_type.bits - 1 if signed else int_type.bits))), span)
    in_range = lw.select(top, ir.Const(T.FLOAT64, 0.0), d, span)
    back = lw.emit(ir.Cast(span, lw.temp(int_type), "fptosi" if signed else "fptoui", in_range))
    fine = lw.compare(op, a, back, span)
    lw.emit(ir.Store(span, result, lw.select(top, ir.Const(T.BOOL, op in ("<", "<=", "!=")), fine, span)))
    lw.goto(done)
    return lw.emit(ir.Load(span, lw.temp(T.BOOL), result))
