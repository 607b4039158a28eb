"""Checking of SIMD values: `SIMD[dtype, width]` construction, element-wise operators
(a scalar operand is broadcast), comparisons giving a mask, and the SIMD methods."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ERROR, LiteralType, ScalarType, SIMDType, Type
from .rules import CMP_OPS
from .typed import LaneTarget, LocalVar, TConst, TConvert, TExpr, TLane, TLocal, TSIMDOp, TSplat, TVector

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder

REDUCTIONS = ("reduce_add", "reduce_mul", "reduce_min", "reduce_max")


class _SIMDCall:
    """`v.name(args)` of a SIMD value v (its type `vt`), as `simd_method` checks it."""

    def __init__(self, receiver: TExpr, vt: SIMDType, name: str, args: list[TExpr], e: ast.Call, ct_items):
        self.receiver, self.vt, self.name, self.args, self.e, self.ct_items = receiver, vt, name, args, e, ct_items


class SIMDChecker:
    """Everything the checker does with SIMD values.
    Reached as `chk.simd` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg

    def simd_construct(self, t: Type, e: ast.Call) -> TExpr:
        if t == ERROR:
            return TConst(e.span, ERROR, None)
        for kw in e.keywords:
            self.msg.error("E0207", kw.span, func=t.name, name=kw.name)
        args = [self.exprs.expr(a) for a in e.args]
        if any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        if isinstance(t, ScalarType):  # Scalar[dtype](x): a conversion
            if len(args) != 1:
                self.msg.error("E0204", e.span, func=t.name, expected=1, s="", found=len(args))
                return TConst(e.span, ERROR, None)
            return self.chk.calls.convert(self.exprs.value(args[0]), t, e.span) \
                if not isinstance(args[0].type, LiteralType) \
                else self.exprs.coerce(args[0], t)
        if len(args) == 1:
            return self.broadcast(args[0], t)
        if len(args) != t.width:
            self.msg.error("E0204", e.span, func=t.name, expected=f"1 or {t.width}", s="s", found=len(args))
            return TConst(e.span, ERROR, None)
        return TVector(e.span, t, [self.exprs.coerce(a, t.elem) for a in args])

    def broadcast(self, value: TExpr, t: SIMDType) -> TExpr:
        if value.type == t:
            return value
        if isinstance(value.type, SIMDType):
            self.msg.error("E0201", value.span, expected=t, found=value.type)
            return TConst(value.span, ERROR, None)
        scalar = self.exprs.coerce(value, t.elem)
        if scalar.type == ERROR:
            return scalar
        return TSplat(value.span, t, scalar)

    def simd_width_of(self, func: ast.Subscript, e: ast.Call) -> TExpr:
        from .comptime import CtError

        try:
            dtype = self.chk.calls.ct_value(func.items[0]) if len(func.items) == 1 else None
        except CtError as exc:
            self.msg.error("E0219", exc.span, detail=exc.detail)
            return TConst(e.span, ERROR, None)
        if not isinstance(dtype, T.DTypeValue):
            self.msg.error("E0125", func.span, name="dtype", expected="a `DType`", found="something else")
            return TConst(e.span, ERROR, None)
        bits = self.chk.module.vector_bits
        return TConst(e.span, T.INT, max(1, bits // max(8, dtype.scalar.bits)))

    # ---- operators ----
    def simd_operand_type(self, op: str, left: TExpr, right: TExpr, span: Span) -> SIMDType | None:
        vt = left.type if isinstance(left.type, SIMDType) else right.type
        for side in (left, right):
            if isinstance(side.type, SIMDType) and side.type != vt:
                self.msg.error("E0202", span, op=op, left=left.type, right=right.type)
                return None
        return vt

    def simd_binary(self, op: str, left: TExpr, right: TExpr, span: Span) -> TExpr:
        from .typed import TBinary

        vt = self.simd_operand_type(op, left, right, span)
        if vt is None:
            return TConst(span, ERROR, None)
        elem = vt.elem
        if (op in ("&", "|", "^") and not (elem.is_int or elem.is_bool)) or \
                (op in ("<<", ">>") and not elem.is_int) or op == "@" or \
                (op == "/" and not elem.is_float) or (elem.is_bool and op not in ("&", "|", "^")):
            self.msg.error("E0202", span, op=op, left=left.type, right=right.type)
            return TConst(span, ERROR, None)
        a, b = self.broadcast(left, vt), self.broadcast(right, vt)
        if ERROR in (a.type, b.type):
            return TConst(span, ERROR, None)
        return TBinary(span, vt, op, a, b)

    def simd_compare(self, e: ast.Compare, operands: list[TExpr]) -> TExpr:
        from .typed import TCompare

        if len(e.ops) != 1:
            self.msg.error("E0007", e.span, construct="chained comparisons of SIMD values")
            return TConst(e.span, ERROR, None)
        if e.ops[0] not in CMP_OPS:  # `in`, `is`: no lane-wise meaning
            # (`in` on a SIMD passed the checker, then crashed the lowering)
            self.msg.error("E0202", e.span, op=e.ops[0], left=operands[0].type, right=operands[1].type)
            return TConst(e.span, ERROR, None)
        vt = self.simd_operand_type(e.ops[0], operands[0], operands[1], e.span)
        if vt is None:
            return TConst(e.span, ERROR, None)
        a, b = self.broadcast(operands[0], vt), self.broadcast(operands[1], vt)
        if ERROR in (a.type, b.type):
            return TConst(e.span, ERROR, None)
        return TCompare(e.span, T.simd(T.BOOL, vt.width), [a, b], list(e.ops), [vt])

    # ---- methods ----
    def simd_method(self, receiver: TExpr, func: ast.Attribute, e: ast.Call, ct_items) -> TExpr:
        vt: SIMDType = receiver.type
        name = func.attr
        args = [self.exprs.expr(a) for a in e.args]
        if any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        c = _SIMDCall(receiver, vt, name, args, e, ct_items)
        if name in REDUCTIONS:
            if not self._arity(c, 0):
                return TConst(e.span, ERROR, None)
            return TSIMDOp(e.span, vt.elem, name, [receiver])
        if name == "fma":
            if not self._arity(c, 2) or not vt.elem.is_float:
                return self._no_method(vt, name, e.span, len(args) == 2)
            return TSIMDOp(e.span, vt, "fma", [receiver, self.broadcast(args[0], vt), self.broadcast(args[1], vt)])
        if name == "select":
            return self._select(c)
        if name == "cast":
            return self._cast(c)
        if name in ("shuffle", "slice"):
            return self._lanes(c)
        return self._no_method(vt, name, e.span, True)

    def _arity(self, c: _SIMDCall, n: int) -> bool:
        if len(c.args) != n:
            self.msg.error("E0204", c.e.span, func=c.name, expected=n, s="s" if n != 1 else "", found=len(c.args))
            return False
        return True

    def _select(self, c: _SIMDCall) -> TExpr:
        """`mask.select(a, b)`: lane by lane, a where the mask is set, else b."""
        vt, args, span = c.vt, c.args, c.e.span
        if not self._arity(c, 2) or not vt.elem.is_bool:
            return self._no_method(vt, c.name, span, len(args) == 2)
        target = next((a.type for a in args if isinstance(a.type, SIMDType)), None)
        if target is None:
            scalar = T.default_type(args[0].type if not isinstance(args[0].type, LiteralType) else args[1].type)
            target = T.simd(scalar, vt.width) if isinstance(scalar, ScalarType) else None
        if target is None or target.width != vt.width:
            self.msg.error("E0201", span, expected=f"SIMD values of width {vt.width}",
                           found=", ".join(str(a.type) for a in args))
            return TConst(span, ERROR, None)
        return TSIMDOp(span, target, "select", [c.receiver, self.broadcast(args[0], target),
                                                self.broadcast(args[1], target)])

    def _cast(self, c: _SIMDCall) -> TExpr:
        """`v.cast[DType.float32]()`."""
        span = c.e.span
        values = self.ct_args(c.ct_items, 1, c.name, span)
        if values is None or not self._arity(c, 0):
            return TConst(span, ERROR, None)
        if not isinstance(values[0], T.DTypeValue):
            self.msg.error("E0125", span, name="dtype", expected="a `DType`", found=str(values[0]))
            return TConst(span, ERROR, None)
        return TConvert(span, T.simd(values[0].scalar, c.vt.width), c.receiver, False)

    def _lanes(self, c: _SIMDCall) -> TExpr:
        """`v.shuffle[0, 2, 1, 3]()`, Mojo's `v.slice[size, offset=0]()`: lanes picked by constant indices."""
        name, vt, span = c.name, c.vt, c.e.span
        items = list(c.ct_items or ())
        if name == "slice":  # Mojo's `slice[size, offset=0]`: `offset` may be named
            named = [i for i in items if isinstance(i, ast.Keyword) and i.name == "offset"]
            if len(named) == 1 and len(items) == 2 and items[1] is named[0]:
                items = [items[0], named[0].value]
        values = self.ct_args(items, None, name, span)
        if values is None or not self._arity(c, 0):
            return TConst(span, ERROR, None)
        if name == "slice":  # slice[size, offset=0]()
            if not 1 <= len(values) <= 2:
                self.msg.error("E0128", span, func=name, expected="1 or 2", s="s", found=len(values))
                return TConst(span, ERROR, None)
            size, offset = values[0], values[1] if len(values) > 1 else 0
            values = list(range(offset, offset + size)) if isinstance(size, int) and isinstance(offset, int) \
                else [None]
        if not values or any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < vt.width
                             for v in values) or len(values) & (len(values) - 1):
            self.msg.error("E0219", span, detail=f"lane indices must be Ints in [0, {vt.width}) and their "
                                                 "count a power of two")
            return TConst(span, ERROR, None)
        return TSIMDOp(span, T.simd(vt.elem, len(values)), "shuffle", [c.receiver], list(values))

    def _no_method(self, vt, name, span, report=True):
        if report:
            self.msg.error("E0223", span, name=vt, attr=name)
        return TConst(span, ERROR, None)

    def ct_args(self, items, count, name, span):
        from .comptime import CtError

        items = list(items or ())
        # A keyword item (`p.load[w=2](0)`) names no parameter of these built-in methods (the one
        # that has a named parameter, `slice[size, offset=...]`, takes it out first): refused, where
        # dropping it silently once gave `v.slice[4, offset=4]()` the first four lanes.
        keyword = next((i for i in items if isinstance(i, ast.Keyword)), None)
        if keyword is not None:
            self.msg.error("E0207", keyword.span, func=name, name=keyword.name)
            return None
        if count is not None and len(items) != count:
            self.msg.error("E0128", span, func=name, expected=count, s="s" if count != 1 else "", found=len(items))
            return None
        try:
            return [self.chk.calls.ct_value(i) for i in items if isinstance(i, ast.Expr)]
        except CtError as exc:
            self.msg.error("E0219", exc.span, detail=exc.detail)
            return None

    # ---- lanes ----
    def simd_lane(self, vector: TExpr, items, span: Span) -> TExpr:
        if len(items) != 1 or not isinstance(items[0], ast.Expr):
            self.msg.error("E0204", span, func="SIMD indexing", expected=1, s="", found=len(items))
            return TConst(span, ERROR, None)
        index = self.exprs.coerce(self.exprs.value(self.exprs.expr(items[0])), T.INT)
        if index.type == ERROR:
            return index
        return TLane(span, vector.type.elem, vector, index)

    def lane_target(self, var: LocalVar, items, span: Span) -> LaneTarget | None:
        lane = self.simd_lane(TLocal(span, var.type, var), items, span)
        if lane.type == ERROR:
            return None
        return LaneTarget(var, lane.index, var.type.elem)
