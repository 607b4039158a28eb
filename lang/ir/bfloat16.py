"""BFloat16 is a storage format: compute on it in Float32.

A BFloat16 is the top half of a Float32 (same exponent range, 8 significant bits). Few CPUs and no
GPU before sm_80 do arithmetic on it, and LLVM's own promotion of `bfloat` arithmetic calls
compiler-rt helpers the JIT cannot resolve. So BFloat16 values are kept as their 16 bits and this
pass rewrites every operation on them into the same operation on Float32 followed by one rounding
back: for + - * / and sqrt that is the correctly rounded BFloat16 result (Float32 has more than
twice BFloat16's precision, so rounding twice is innocuous), and for the rest of math the Float32
result rounded.

After it, the only instructions that see a BFloat16 besides moving it are two casts, which the code
generator implements with integer operations: `fpext` BFloat16 -> Float32 (exact: a shift) and
`fptrunc` Float32 or Float64 -> BFloat16 (round to nearest even). Every other conversion goes
through Float32 (or, from an integer, Float64: exact below 2**53).
"""
from __future__ import annotations

from .. import types as T
from . import nodes as ir
from . import ops


def is_bfloat16(t: T.Type) -> bool:
    return T.elem_type(t) == T.BFLOAT16


def _like(t: T.Type, elem: T.ScalarType) -> T.Type:
    """t's shape (scalar or SIMD of the same width) with another element type."""
    return T.simd(elem, t.width) if isinstance(t, T.SIMDType) else elem


def legalize_bfloat16(module: ir.Module) -> ir.Module:
    for f in module.functions:
        if any(computes_on_bfloat16(i) for b in f.blocks for i in b.instrs):
            _Rewriter(f).run()
    return module


def computes_on_bfloat16(i: ir.Instr) -> bool:
    if isinstance(i, ir.BinOp):
        return is_bfloat16(i.result.type)
    if isinstance(i, ir.Cmp):
        return is_bfloat16(i.a.type)
    if isinstance(i, ir.Reduce):
        return is_bfloat16(i.vector.type)
    if isinstance(i, ir.Intrinsic):
        # Only operations that compute on floats (ops.py's `float_math`); the rest only move
        # BFloat16 bits (print, external calls, shuffles).
        return ops.computes_on_floats(i) and any(is_bfloat16(a.type) for a in i.args)
    if isinstance(i, ir.Cast):
        source, dest = T.elem_type(i.a.type), T.elem_type(i.result.type)
        if source == T.BFLOAT16:
            return not (i.kind == "fpext" and dest == T.FLOAT32)
        if dest == T.BFLOAT16:
            return not (i.kind == "fptrunc" and source in (T.FLOAT32, T.FLOAT64))
    return False


class _Rewriter:
    def __init__(self, f: ir.Function):
        self.f = f
        self.next_id = max((t.id for t in _temps(f)), default=0)
        self.out: list[ir.Instr] = []

    def temp(self, t: T.Type) -> ir.Temp:
        self.next_id += 1
        return ir.Temp(t, self.next_id)

    def cast(self, kind: str, v: ir.Value, to: T.Type, span, result: ir.Temp | None = None) -> ir.Temp:
        result = result or self.temp(to)
        self.out.append(ir.Cast(span, result, kind, v))
        return result

    def widen(self, v: ir.Value, span) -> ir.Value:
        """v as Float32 if it is a BFloat16 (a constant is converted here: it is exact)."""
        if not is_bfloat16(v.type):
            return v
        wide = _like(v.type, T.FLOAT32)
        if isinstance(v, ir.Const):
            return ir.Const(wide, T.bfloat16_round(v.value))
        if isinstance(v, ir.Undef):
            return ir.Undef(wide)
        return self.cast("fpext", v, wide, span)

    def narrowed(self, result: ir.Temp, span, compute) -> None:
        """Run compute(wide_result) and round what it defined back into result."""
        if not is_bfloat16(result.type):
            compute(result)
            return
        wide = self.temp(_like(result.type, T.FLOAT32))
        compute(wide)
        self.cast("fptrunc", wide, result.type, span, result)

    def run(self) -> None:
        for block in self.f.blocks:
            self.out = []
            for i in block.instrs:
                if computes_on_bfloat16(i):
                    self.rewrite(i)
                else:
                    self.out.append(i)
            block.instrs = self.out

    def rewrite(self, i: ir.Instr) -> None:
        s = i.span
        if isinstance(i, ir.BinOp):
            a, b = self.widen(i.a, s), self.widen(i.b, s)
            self.narrowed(i.result, s, lambda r: self.out.append(ir.BinOp(s, r, i.op, a, b)))
        elif isinstance(i, ir.Cmp):
            self.out.append(ir.Cmp(s, i.result, i.pred, self.widen(i.a, s), self.widen(i.b, s)))
        elif isinstance(i, ir.Reduce):
            v = self.widen(i.vector, s)
            self.narrowed(i.result, s, lambda r: self.out.append(ir.Reduce(s, r, i.kind, v)))
        elif isinstance(i, ir.Intrinsic):
            args = [self.widen(a, s) for a in i.args]
            self.narrowed(i.result, s, lambda r: self.out.append(ir.Intrinsic(s, r, i.name, args, i.attrs)))
        else:
            self.conversion(i)

    def conversion(self, i: ir.Cast) -> None:
        s, source, dest = i.span, T.elem_type(i.a.type), T.elem_type(i.result.type)
        if source == T.BFLOAT16:
            wide = self.widen(i.a, s)
            if dest == T.FLOAT32:
                self.out.append(ir.Cast(s, i.result, "fpext", i.a))
            elif dest.is_float:
                self.cast("fpext" if dest.bits > 32 else "fptrunc", wide, i.result.type, s, i.result)
            else:
                self.cast(i.kind, wide, i.result.type, s, i.result)
            return
        # To BFloat16 from Float16 or a Bool: through Float32, exactly. From an integer: through
        # Float64, exact below 2**53 (beyond, rounding twice can be one BFloat16 step off at a tie).
        via = T.FLOAT32 if source.is_float or source.is_bool else T.FLOAT64
        wide = self.cast(i.kind if not source.is_float else "fpext", i.a, _like(i.a.type, via), s)
        self.cast("fptrunc", wide, i.result.type, s, i.result)


def _temps(f: ir.Function):
    for block in f.blocks:
        for i in block.instrs:
            result = getattr(i, "result", None)
            if isinstance(result, ir.Temp):
                yield result
