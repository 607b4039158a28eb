"""Checking of `Ptr[T]`: allocation, element and vector loads and stores, offsets.

Pointers are the unchecked layer that checked containers are built on: no bounds,
no lifetime tracking. What they point at is the programmer's promise.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ERROR, PtrType, ScalarType, SIMDType, Type
from .typed import TConst, TExpr, TPtrOp

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder


class PointerChecker:
    """`Ptr[T]`: construction, methods, indexing.
    Reached as `chk.pointers` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg

    def ptr_static(self, t: Type, func: ast.Attribute, e: ast.Call) -> TExpr:
        """`Ptr[T].alloc(n)`, `Ptr[T].alloc(n, alignment=64)`."""
        if t == ERROR:
            return TConst(e.span, ERROR, None)
        if func.attr != "alloc":
            self.msg.error("E0223", func.span, name=t, attr=func.attr)
            return TConst(e.span, ERROR, None)
        args = [self.exprs.expr(a) for a in e.args]
        if len(args) != 1:
            self.msg.error("E0204", e.span, func=f"{t}.alloc", expected=1, s="", found=len(args))
            return TConst(e.span, ERROR, None)
        alignment = self.alloc_alignment(t, e)
        count = self.index_value(args[0])
        if count.type == ERROR or alignment is None:
            return TConst(e.span, ERROR, None) if count.type != ERROR else count
        return TPtrOp(e.span, t, "alloc", [count] + ([TConst(e.span, T.INT, alignment)] if alignment else []))

    def alloc_alignment(self, t: Type, e: ast.Call) -> int | None:
        """The `alignment=` of `Ptr[T].alloc`: a compile-time power of two up to 64 (a cache line), the
        byte boundary the memory starts on (0 when not given: malloc's own, 16 bytes on x86-64);
        None after an error. 64 is what every allocator behind `Ptr.alloc` can promise: the CPU's
        (aligned_alloc), OpenCL's shared virtual memory (64) and CUDA's managed memory (256)."""
        from .comptime import CtError

        alignment = 0
        for kw in e.keywords:
            if kw.name != "alignment":
                self.msg.error("E0207", kw.span, func=f"{t}.alloc", name=kw.name)
                return None
            try:
                value = self.chk.calls.ct_value(kw.value)
            except CtError as exc:
                self.msg.error("E0219", exc.span, detail=exc.detail)
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64 \
                    or value & (value - 1):
                self.msg.error("E0125", kw.value.span, name="alignment", expected="a power of two from 1 to 64",
                               found=str(value))
                return None
            alignment = value
        return alignment

    def ptr_construct(self, t: Type, e: ast.Call) -> TExpr:
        if t == ERROR:
            return TConst(e.span, ERROR, None)
        if e.args or e.keywords:
            self.msg.error("E0204", e.span, func=t.name, expected=0, s="s", found=len(e.args) + len(e.keywords))
            return TConst(e.span, ERROR, None)
        return TConst(e.span, t, None)  # the null pointer

    def index_value(self, value: TExpr) -> TExpr:
        original = value.type
        value = self.exprs.value(value)
        if value.type == ERROR:
            return value
        if not (isinstance(value.type, ScalarType) and value.type.is_int):
            self.msg.error("E0201", value.span, expected=T.INT, found=original)
            return TConst(value.span, ERROR, None)
        if value.type != T.INT:
            value = self.chk.calls.convert(value, T.INT, value.span)
        return value

    def ptr_method(self, receiver: TExpr, func: ast.Attribute, e: ast.Call, ct_items) -> TExpr:
        pt = cast(PtrType, receiver.type)
        name = func.attr
        args = [self.exprs.expr(a) for a in e.args]
        if any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        if name == "free" and not args:
            return TPtrOp(e.span, T.NONE, "free", [receiver])
        if name == "offset" and len(args) == 1:
            return self.ptr_offset(receiver, args[0], e.span)
        if name == "take" and len(args) == 1 and not ct_items:
            # p.take(i): element i's value for a new owner; the memory no longer holds a value
            # (unlike p[i], which is a place, so a value with a destructor cannot be copied out).
            index = self.index_value(args[0])
            return index if index.type == ERROR else TPtrOp(e.span, pt.pointee, "take", [receiver, index])
        if name == "prefetch" and not ct_items:
            # p.prefetch(i): a hint that element i will be read soon (its cache line is fetched
            # while other work runs). It changes no value, so it is an ordinary statement anywhere.
            if len(args) > 1:
                self.msg.error("E0204", e.span, func="prefetch", expected="0 or 1", s="s", found=len(args))
                return TConst(e.span, ERROR, None)
            index = self.index_value(args[0]) if args else TConst(e.span, T.INT, 0)
            return index if index.type == ERROR else TPtrOp(e.span, T.NONE, "prefetch", [receiver, index])
        if name in ("load", "store"):
            width = 1
            if ct_items:
                values = self.chk.simd.ct_args(ct_items, 1, name, e.span)
                if values is None:
                    return TConst(e.span, ERROR, None)
                width = values[0]
            if isinstance(width, bool) or not isinstance(width, int) or width < 1 or width & (width - 1):
                self.msg.error("E0127", e.span, width=width)
                return TConst(e.span, ERROR, None)
            if not isinstance(pt.pointee, ScalarType):
                self.msg.error("E0223", func.span, name=pt, attr=name)
                return TConst(e.span, ERROR, None)
            value_type = T.simd(pt.pointee, width) if width > 1 else pt.pointee
            if name == "load":
                if len(args) > 1:
                    self.msg.error("E0204", e.span, func="load", expected="0 or 1", s="s", found=len(args))
                    return TConst(e.span, ERROR, None)
                index = self.index_value(args[0]) if args else TConst(e.span, T.INT, 0)
                return TPtrOp(e.span, value_type, "load", [receiver, index])
            if len(args) not in (1, 2):
                self.msg.error("E0204", e.span, func="store", expected="1 or 2", s="s", found=len(args))
                return TConst(e.span, ERROR, None)
            index = self.index_value(args[0]) if len(args) == 2 else TConst(e.span, T.INT, 0)
            value = args[-1]
            if isinstance(value.type, SIMDType) and width == 1:
                value_type = value.type  # store(i, vec): the width comes from the value
                if value_type.elem != pt.pointee:
                    self.msg.error("E0201", value.span, expected=T.simd(pt.pointee, value_type.width),
                                     found=value_type)
                    return TConst(e.span, ERROR, None)
            value = self.exprs.coerce(value, value_type)
            if ERROR in (index.type, value.type):
                return TConst(e.span, ERROR, None)
            return TPtrOp(e.span, T.NONE, "store", [receiver, index, value])
        if name == "bitcast":
            values = self.chk.simd.ct_args(ct_items, 1, name, e.span)
            if values is None or args:
                return TConst(e.span, ERROR, None)
            if not isinstance(values[0], T.Type):
                self.msg.error("E0125", e.span, name="T", expected="a type", found=str(values[0]))
                return TConst(e.span, ERROR, None)
            return TPtrOp(e.span, T.ptr(values[0], pt.address_space), "bitcast", [receiver])
        self.msg.error("E0223", func.span, name=pt, attr=name)
        return TConst(e.span, ERROR, None)

    def ptr_offset(self, pointer: TExpr, amount: TExpr, span: Span, negate: bool = False) -> TExpr:
        amount = self.index_value(amount)
        if amount.type == ERROR:
            return amount
        if negate:
            from .typed import TUnary

            amount = TUnary(span, T.INT, "-", amount)
        return TPtrOp(span, pointer.type, "offset", [pointer, amount])

    def ptr_index(self, pointer: TExpr, items, span: Span) -> TExpr | None:
        if len(items) != 1 or not isinstance(items[0], ast.Expr):
            self.msg.error("E0204", span, func="pointer indexing", expected=1, s="", found=len(items))
            return None
        index = self.index_value(self.exprs.expr(items[0]))
        return None if index.type == ERROR else index
