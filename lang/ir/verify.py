"""The IR verifier: run after every pass in tests (and with PYX_VERIFY=1), like Cranelift's."""
from __future__ import annotations

from .. import types as T
from ..types import ScalarType
from . import nodes as ir


class VerifyError(Exception):
    pass


def verify_module(module: ir.Module, after: str = "") -> None:
    symbols = {f.symbol: f for f in module.functions}
    for f in module.functions:
        _verify_function(f, symbols, after)


def _fail(f: ir.Function, msg: str, after: str):
    where = f" after {after}" if after else ""
    raise VerifyError(f"IR verification failed{where} in @{f.symbol}: {msg}")


def _verify_function(f: ir.Function, symbols: dict[str, ir.Function], after: str) -> None:
    blocks = set(f.blocks)
    labels = [b.label for b in f.blocks]
    if len(labels) != len(set(labels)):
        _fail(f, "duplicate block labels", after)
    variables = set(f.vars) | set(f.params)
    if not f.blocks:
        _fail(f, "no blocks", after)
    idom = dominators(f)
    def_block: dict[int, ir.Block] = {}
    for block in f.blocks:
        for instr in block.instrs:
            result = getattr(instr, "result", None)
            if result is not None:
                if result.id in def_block:
                    _fail(f, f"{result} defined twice", after)
                def_block[result.id] = block
    for block in f.blocks:
        defined: set[int] = set()

        def use(v: ir.Value, what: str) -> None:
            if not isinstance(v, ir.Temp) or v.id in defined:
                return
            home = def_block.get(v.id)
            if home is None or home is block or not _dominates(home, block, idom):
                _fail(f, f"{what} in {block.label} uses {v}, which is not defined on every path to it", after)

        for instr in block.instrs:
            operands = [getattr(instr, name) for name in ("a", "b", "cond", "value", "agg", "vector", "index", "ptr",
                                                          "count") if hasattr(instr, name)]
            operands += list(getattr(instr, "args", []))
            if isinstance(instr, ir.Launch):
                operands += instr.grid + instr.block + [instr.shared_bytes, instr.stream]
                kernel = symbols.get(instr.callee)
                if kernel is None or not kernel.kernel:
                    _fail(f, f"launch of @{instr.callee}, which is not a kernel", after)
                if [a.type for a in instr.args] != [p.type for p in kernel.params]:
                    _fail(f, f"launch of @{instr.callee} with argument types {[str(a.type) for a in instr.args]}",
                          after)
            if isinstance(instr, ir.ParallelFor):
                operands.append(instr.chunks)
                body = symbols.get(instr.callee)
                if body is None or [p.type for p in body.params] != [T.INT] * 3 + [a.type for a in instr.args]:
                    _fail(f, f"parallel_for of @{instr.callee} with argument types "
                             f"{[str(a.type) for a in instr.args]}", after)
            for v in operands:
                use(v, type(instr).__name__)
            if isinstance(instr, ir.BinOp):
                if not (instr.a.type == instr.b.type == instr.result.type):
                    _fail(f, f"binop {instr.op} on {instr.a.type}, {instr.b.type} -> {instr.result.type}", after)
            elif isinstance(instr, ir.Cmp):
                if instr.a.type != instr.b.type or instr.result.type != _mask_of(instr.a.type):
                    _fail(f, f"cmp on {instr.a.type} and {instr.b.type}", after)
            elif isinstance(instr, ir.Select):
                if instr.cond.type not in (T.BOOL, _mask_of(instr.a.type)) or \
                        not (instr.a.type == instr.b.type == instr.result.type):
                    _fail(f, "select types disagree", after)
            elif isinstance(instr, (ir.ExtractLane, ir.InsertLane, ir.Reduce, ir.Shuffle, ir.Splat)):
                vt = instr.result.type if isinstance(instr, ir.Splat) else instr.vector.type
                if not isinstance(vt, T.SIMDType):
                    _fail(f, f"{type(instr).__name__} on a non-vector {vt}", after)
                if isinstance(instr, (ir.ExtractLane, ir.Reduce)) and instr.result.type != vt.elem:
                    _fail(f, f"{type(instr).__name__} gives {vt.elem}, result is {instr.result.type}", after)
            elif isinstance(instr, (ir.Load, ir.Store)):
                if instr.var not in variables:
                    _fail(f, f"{instr.var} is not a variable of this function", after)
                vtype = instr.result.type if isinstance(instr, ir.Load) else instr.value.type
                if vtype != instr.var.type:
                    _fail(f, f"{type(instr).__name__.lower()} of {vtype} through {instr.var}: {instr.var.type}", after)
            elif isinstance(instr, ir.Call):
                callee = symbols.get(instr.callee)
                if callee is None:
                    _fail(f, f"call to unknown @{instr.callee}", after)
                if [a.type for a in instr.args] != [p.type for p in callee.params]:
                    _fail(f, f"call to @{instr.callee} with argument types {[str(a.type) for a in instr.args]}", after)
                for a, p in zip(instr.args, callee.params):
                    if isinstance(a, ir.Ref) != p.by_ref:
                        _fail(f, f"call to @{instr.callee}: `{p}` needs {'a variable' if p.by_ref else 'a value'}",
                              after)
                    if isinstance(a, ir.Ref) and a.var not in variables:
                        _fail(f, f"{a.var} is not a variable of this function", after)
                rtype = instr.result.type if instr.result is not None else T.NONE
                if rtype != callee.return_type:
                    _fail(f, f"call to @{instr.callee} expects {callee.return_type}, result is {rtype}", after)
            elif isinstance(instr, (ir.Extract, ir.Insert)):
                fields = getattr(instr.agg.type, "fields", None)
                if fields is None or not 0 <= instr.index < len(fields):
                    _fail(f, f"{type(instr).__name__.lower()} {instr.index} of {instr.agg.type}", after)
                ftype = fields[instr.index][1]
                if isinstance(instr, ir.Extract) and instr.result.type != ftype:
                    _fail(f, f"extract gives {ftype}, result is {instr.result.type}", after)
                if isinstance(instr, ir.Insert) and (instr.value.type != ftype or instr.result.type != instr.agg.type):
                    _fail(f, f"insert of {instr.value.type} into field {instr.index}: {ftype}", after)
            elif isinstance(instr, (ir.PtrLoad, ir.PtrStore, ir.PtrOffset, ir.Free)):
                if not isinstance(instr.ptr.type, T.PtrType):
                    _fail(f, f"{type(instr).__name__} through a non-pointer {instr.ptr.type}", after)
                if not isinstance(instr, ir.Free) and instr.index.type != T.INT:
                    _fail(f, f"{type(instr).__name__} index of type {instr.index.type}", after)
                value = instr.result.type if isinstance(instr, ir.PtrLoad) else getattr(instr, "value", None)
                value = value.type if isinstance(value, ir.Value) else value
                # A whole element (a Ptr[SIMD[...]]'s vector), or `width` elements as one SIMD value.
                pointee = instr.ptr.type.pointee
                if isinstance(instr, (ir.PtrLoad, ir.PtrStore)) and value != pointee and T.elem_type(value) != pointee:
                    _fail(f, f"{type(instr).__name__} of {value} through {instr.ptr.type}", after)
            elif isinstance(instr, ir.Cast):
                src, dst = instr.a.type, instr.result.type
                if isinstance(src, T.SIMDType) and isinstance(dst, T.SIMDType) and src.width == dst.width:
                    pass
                elif isinstance(src, T.PtrType) and isinstance(dst, T.PtrType) and instr.kind == "bitcast":
                    pass
                elif not isinstance(src, ScalarType) or not isinstance(dst, ScalarType):
                    _fail(f, f"cast from {src} to {dst}", after)
                elif instr.kind == "bitcast" and src.bits != dst.bits:
                    _fail(f, f"bitcast between {src} and {dst} of different sizes", after)
            result = getattr(instr, "result", None)
            if result is not None:
                defined.add(result.id)
        term = block.term
        if term is None:
            _fail(f, f"block {block.label} has no terminator", after)
        for succ in block.successors():
            if succ not in blocks:
                _fail(f, f"{block.label} jumps to a block outside the function", after)
        if isinstance(term, ir.Branch):
            use(term.cond, "branch")
            if term.cond.type != T.BOOL:
                _fail(f, "branch on a non-Bool", after)
        if isinstance(term, ir.Ret):
            if term.value is None:
                if f.return_type != T.NONE:
                    _fail(f, f"ret without a value in a function returning {f.return_type}", after)
            else:
                use(term.value, "ret")
                if term.value.type != f.return_type:
                    _fail(f, f"ret {term.value.type} from a function returning {f.return_type}", after)


def dominators(f: ir.Function) -> dict[ir.Block, ir.Block]:
    """Immediate dominators (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance Algorithm")."""
    entry = f.blocks[0]
    order: list[ir.Block] = []
    seen = {entry}
    stack = [(entry, iter(entry.successors()))]
    while stack:  # iterative DFS for reverse post-order
        block, succs = stack[-1]
        nxt = next((s for s in succs if s not in seen), None)
        if nxt is None:
            order.append(block)
            stack.pop()
        else:
            seen.add(nxt)
            stack.append((nxt, iter(nxt.successors())))
    rpo = list(reversed(order))
    index = {b: i for i, b in enumerate(rpo)}
    preds: dict[ir.Block, list[ir.Block]] = {b: [] for b in rpo}
    for b in rpo:
        for s in b.successors():
            preds[s].append(b)
    idom: dict[ir.Block, ir.Block] = {entry: entry}

    def intersect(a: ir.Block, b: ir.Block) -> ir.Block:
        while a is not b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            done = [p for p in preds[b] if p in idom]
            new = done[0]
            for p in done[1:]:
                new = intersect(p, new)
            if idom.get(b) is not new:
                idom[b] = new
                changed = True
    return idom


def _dominates(a: ir.Block, b: ir.Block, idom: dict[ir.Block, ir.Block]) -> bool:
    if b not in idom:
        return True  # unreachable code: nothing executes it
    while True:
        if b is a:
            return True
        parent = idom[b]
        if parent is b:
            return False
        b = parent


def _mask_of(t):
    return T.simd(T.BOOL, t.width) if isinstance(t, T.SIMDType) else T.BOOL
