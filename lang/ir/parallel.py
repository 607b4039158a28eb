"""Lowering of `for i in prange(start, stop, step)`: the body is taken out into its own function.

The loop runs over a normalized index k in [0, count), with i = start + k * step. The
outlined function `f.prangeN(lo, hi, piece, captured..., [start], [step], partials...)` runs
indices [lo, hi); `ParallelFor` hands pieces of [0, count) to the thread pool. A reduction
variable becomes a private accumulator in the outlined function, starting from the
operation's identity; each piece stores its result in `partials[piece]`, and the caller
combines them in piece order with the variable's value from before the loop.

The number of pieces depends only on the trip count (at most MAX_PIECES), not on the number of
threads, so a float reduction gives the same result on every machine and thread count.
"""
from __future__ import annotations

from .. import types as T
from ..semantics import typed as t
from ..types import ScalarType, SIMDType, elem_type
from . import nodes as ir

MAX_PIECES = 256

_COMBINE = {("+", "int"): "add", ("*", "int"): "mul", ("+", "float"): "fadd", ("*", "float"): "fmul",
            ("&", "int"): "and", ("|", "int"): "or", ("^", "int"): "xor"}


def identity(op: str, type_) -> ir.Const:
    """The value that leaves any other unchanged under `op` (-0.0 for float sums: -0.0 + x is x)."""
    kind: ScalarType = elem_type(type_)
    if op == "+":
        return ir.Const(type_, -0.0 if kind.is_float else 0)
    if op == "*":
        return ir.Const(type_, 1.0 if kind.is_float else 1)
    if op in ("|", "^"):
        return ir.Const(type_, False if kind.is_bool else 0)
    if op == "&":
        return ir.Const(type_, True if kind.is_bool else (-1 if kind.is_signed else kind.max))
    if kind.is_float:
        return ir.Const(type_, float("inf") if op == "min" else float("-inf"))
    return ir.Const(type_, kind.max if op == "min" else kind.min)


def combine(lw, op: str, acc: ir.Value, part: ir.Value, span) -> ir.Value:
    if op in ("min", "max"):  # as Python's min/max: the first of equal values stays
        better = lw.compare("<" if op == "min" else ">", part, acc, span)
        return lw.select(better, part, acc, span)
    kind = elem_type(acc.type)
    if kind.is_bool:
        return lw.binop({"&": "and", "|": "or", "^": "xor"}[op], acc, part, span)
    return lw.binop(_COMBINE[(op, "float" if kind.is_float else "int")], acc, part, span)


def _to_int(lw, v: ir.Value, span) -> ir.Value:
    if v.type == T.INT:
        return v
    if isinstance(v, ir.Const):
        return ir.Const(T.INT, v.value)
    kind = "sext" if v.type.is_signed else "zext"
    return lw.emit(ir.Cast(span, lw.temp(T.INT), kind, v))


def _from_int(lw, v: ir.Value, itype, span) -> ir.Value:
    if itype == T.INT:
        return v
    return lw.emit(ir.Cast(span, lw.temp(itype), "trunc", v))


def _trip_count(lw, start, stop, step, span) -> ir.Value:
    """len(range(start, stop, step)) for 64-bit values, in unsigned arithmetic so no difference overflows."""
    one, zero = ir.Const(T.INT, 1), ir.Const(T.INT, 0)

    def up(lo, hi, stride):
        n = lw.binop("add", lw.binop("udiv", lw.binop("sub", lw.binop("sub", hi, lo, span), one, span), stride,
                                     span), one, span)
        return lw.select(lw.cmp("slt", lo, hi, span), n, zero, span)

    if isinstance(step, ir.Const) and step.value != T.INT.min:
        if step.value > 0:
            return up(start, stop, step)
        return up(stop, start, ir.Const(T.INT, -step.value))
    positive = lw.cmp("sgt", step, zero, span)
    return lw.select(positive, up(start, stop, step),
                     up(stop, start, lw.binop("sub", zero, step, span)), span)


def lower_prange(lw, s: t.TForRange) -> None:
    from .lower import FunctionLowering

    span, itype = s.span, s.var.type
    unsigned = not itype.is_signed
    start, stop, step = lw.expr(s.start), lw.expr(s.stop), lw.expr(s.step)
    if isinstance(step, ir.Const) and step.value == 0:
        lw.block.term = ir.Raise(span, "ValueError", "range() arg 3 must not be zero", lw.handler())
        lw.block = lw.new_block("dead")
        return
    if not isinstance(step, ir.Const):
        lw.guard(lw.cmp("eq", step, ir.Const(itype, 0), span), "ValueError", "range() arg 3 must not be zero",
                 span)
    start64, stop64, step64 = (_to_int(lw, v, span) for v in (start, stop, step))
    if unsigned:  # compare unsigned values as such: shift them into signed order
        bias = ir.Const(T.INT, T.INT.min)
        count = _trip_count(lw, lw.binop("xor", start64, bias, span), lw.binop("xor", stop64, bias, span),
                            step64, span)
    else:
        count = _trip_count(lw, start64, stop64, step64, span)
    few = lw.cmp("slt", count, ir.Const(T.INT, MAX_PIECES), span)
    chunks = lw.select(few, count, ir.Const(T.INT, MAX_PIECES), span)

    # The outlined body.
    lw.outlined += 1
    body = ir.Function(f"{lw.fn.symbol}.prange{lw.outlined}", lw.fn.name, lw.fn.file, [], T.NONE, span,
                       exported=False, fastmath=lw.fn.fastmath, noalias=lw.fn.noalias)
    inner = FunctionLowering(lw.instance, lw.helpers, outlined=body, bounds_check=lw.bounds_check)
    lo, hi, piece = (inner.hidden(n, T.INT) for n in ("lo", "hi", "piece"))
    body.params += [lo, hi, piece]
    args = []
    for var in s.captures:
        param = ir.Var(var.name, var.type, var.id)  # by value, even where the outer one is `mut`
        inner.vars[var] = param
        body.vars.append(param)
        body.params.append(param)
        args.append(lw.emit(ir.Load(span, lw.temp(var.type), lw.var(var))))
    inner_start, inner_step = start64, step64
    for name, value in (("start", start64), ("step", step64)):
        if not isinstance(value, ir.Const):
            param = inner.hidden(name, T.INT)
            body.params.append(param)
            args.append(value)
            loaded = inner.emit(ir.Load(span, inner.temp(T.INT), param))
            inner_start, inner_step = (loaded, inner_step) if name == "start" else (inner_start, loaded)
    partials = []
    for var, op in s.reductions:
        # A SIMD accumulator takes `width` consecutive elements: pointers hold scalars.
        param = inner.hidden(f"{var.name}.partials", T.ptr(elem_type(var.type)))
        body.params.append(param)
        buffer = lw.emit(ir.Alloc(span, lw.temp(param.type), lw.binop("mul", chunks, ir.Const(T.INT, _width(var)),
                                                                      span)))
        partials.append(buffer)
        args.append(buffer)
        inner.emit(ir.Store(span, inner.var(var), identity(op, var.type)))
    _outlined_loop(inner, s, lo, hi, piece, inner_start, inner_step, itype)
    lw.helpers[body.symbol] = body

    # The loop itself; with reductions, a failure frees the partials before passing the exception on.
    cleanup = lw.new_block("prange.cleanup") if partials else None
    lw.emit(ir.ParallelFor(span, body.symbol, count, chunks, args, cleanup or lw.handler()))
    for (var, op), buffer in zip(s.reductions, partials):
        _combine_partials(lw, var, op, buffer, chunks, span)
    for buffer in partials:
        lw.emit(ir.Free(span, buffer))
    # As after a serial loop, the variable holds the last value (when there was one).
    ran, after = lw.new_block("prange.ran"), lw.new_block("prange.end")
    lw.block.term = ir.Branch(span, lw.cmp("sgt", count, ir.Const(T.INT, 0), span), ran, after)
    lw.block = ran
    last = lw.binop("add", start64, lw.binop("mul", lw.binop("sub", count, ir.Const(T.INT, 1), span), step64,
                                             span), span)
    lw.emit(ir.Store(span, lw.var(s.var), _from_int(lw, last, itype, span)))
    lw.goto(after)
    if cleanup is not None:
        resume = lw.block
        lw.block = cleanup
        for buffer in partials:
            lw.emit(ir.Free(span, buffer))
        lw.block.term = ir.Reraise(span, lw.handler())
        lw.block = resume


def _outlined_loop(inner, s: t.TForRange, lo, hi, piece, start, step, itype) -> None:
    span = s.span
    k = inner.hidden("k", T.INT)
    inner.emit(ir.Store(span, k, inner.emit(ir.Load(span, inner.temp(T.INT), lo))))
    head, body, latch, done = (inner.new_block(n) for n in ("prange", "prange.body", "prange.next", "prange.done"))
    # Ctrl-C: the piece runs in chunks of POLL_EVERY iterations with a poll between two, so every
    # worker stops soon after a SIGINT while the loop inside a chunk still vectorizes (as the
    # serial `for` does, lower.stmt_TForRange).
    from .lower import POLL_EVERY

    outer, refill, chunk_end = inner.new_block("prange.chunk"), inner.new_block("prange.refill"), \
        inner.hidden("chunk", T.INT)
    inner.goto(outer)
    current = inner.emit(ir.Load(span, inner.temp(T.INT), k))
    limit = inner.emit(ir.Load(span, inner.temp(T.INT), hi))
    inner.block.term = ir.Branch(span, inner.cmp("slt", current, limit, span), refill, done)
    inner.block = refill
    inner.poll_interrupt(span)
    most = ir.Const(T.INT, POLL_EVERY)
    room = inner.binop("sub", limit, current, span)
    take = inner.select(inner.cmp("slt", room, most, span), room, most, span)
    inner.emit(ir.Store(span, chunk_end, inner.binop("add", current, take, span)))
    inner.goto(head)
    current = inner.emit(ir.Load(span, inner.temp(T.INT), k))
    end = inner.emit(ir.Load(span, inner.temp(T.INT), chunk_end))
    inner.block.term = ir.Branch(span, inner.cmp("slt", current, end, span), body, outer)
    inner.block = body
    value = inner.binop("add", start, inner.binop("mul", current, step, span), span)
    inner.emit(ir.Store(span, inner.var(s.var), _from_int(inner, value, itype, span)))
    inner.loops.append((latch, done))
    first_body_block = len(inner.fn.blocks)
    inner.stmts(s.body)
    inner.loops.pop()
    inner.goto(latch)
    if inner.calls_since(first_body_block):
        inner.poll_interrupt(span)  # a call may run long without a loop of its own to poll
    current = inner.emit(ir.Load(span, inner.temp(T.INT), k))
    inner.emit(ir.Store(span, k, inner.binop("add", current, ir.Const(T.INT, 1), span)))
    inner.goto(head)
    inner.block = done
    for (var, _), index in zip(s.reductions, range(len(s.reductions))):
        partials = inner.fn.params[len(inner.fn.params) - len(s.reductions) + index]
        where = inner.emit(ir.Load(span, inner.temp(partials.type), partials))
        at = inner.binop("mul", inner.emit(ir.Load(span, inner.temp(T.INT), piece)), ir.Const(T.INT, _width(var)),
                         span)
        inner.emit(ir.PtrStore(span, where, at, inner.emit(ir.Load(span, inner.temp(var.type), inner.var(var)))))
    inner.block.term = ir.Ret(None, None)
    for block in inner.fn.blocks:
        if block.term is None:
            block.term = ir.Unreachable(None)


def _width(var) -> int:
    return var.type.width if isinstance(var.type, SIMDType) else 1


def _combine_partials(lw, var, op, buffer, chunks, span) -> None:
    """var = var op partials[0] op partials[1] ...: in piece order, the same on every run."""
    c = lw.hidden("piece", T.INT)
    lw.emit(ir.Store(span, c, ir.Const(T.INT, 0)))
    head, body, done = lw.new_block("combine"), lw.new_block("combine.body"), lw.new_block("combine.done")
    lw.goto(head)
    current = lw.emit(ir.Load(span, lw.temp(T.INT), c))
    lw.block.term = ir.Branch(span, lw.cmp("slt", current, chunks, span), body, done)
    lw.block = body
    at = lw.binop("mul", current, ir.Const(T.INT, _width(var)), span)
    part = lw.emit(ir.PtrLoad(span, lw.temp(var.type), buffer, at))
    acc = lw.emit(ir.Load(span, lw.temp(var.type), lw.var(var)))
    lw.emit(ir.Store(span, lw.var(var), combine(lw, op, acc, part, span)))
    lw.emit(ir.Store(span, c, lw.binop("add", current, ir.Const(T.INT, 1), span)))
    lw.goto(head)
    lw.block = done
