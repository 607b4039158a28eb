"""The IR verifier: run after every pass in tests (and with PYX_VERIFY=1), like Cranelift's.

It is a list of named checks, each a small function. A failure names its check, the function, and
the offending instruction as the printer prints it (Cranelift's form):

    verifier check shuffle-lanes failed in function @m.f: %2 = shuffle %1, [9]: lane 9 of a 4-lane vector

Function checks see the whole function (labels, single definitions); block checks see one block
and its terminator; instruction checks are registered for the node classes they apply to. The
operations an `Intrinsic` names are checked against their entry in ops.py (operand count and
types, result, attributes), so an unknown or ill-typed operation fails here, not in codegen.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from typing import Any

from .. import types as T
from ..types import ScalarType
from . import nodes as ir
from . import ops
from .printer import print_instr, print_term


class VerifyError(Exception):
    def __init__(self, message: str, check: str = "", function: str = ""):
        super().__init__(message)
        self.check = check
        self.function = function


class _Failed(Exception):
    """Raised by a check: `why`, about `where` (an instruction, a terminator, a block or None)."""

    def __init__(self, why: str, where: object = None):
        super().__init__(why)
        self.why = why
        self.where = where


@dataclass
class Context:
    """What the checks of one function share, computed once."""

    f: ir.Function
    symbols: dict[str, ir.Function]
    blocks: set[ir.Block]
    variables: set[ir.Var]
    idom: dict[ir.Block, ir.Block]
    defs: dict[int, tuple[ir.Block, int]]  # temp id -> (block, position) of its definition


def verify_module(module: ir.Module, after: str = "") -> None:
    """Check every function; raise VerifyError at the first failure. `after`: the pass just run."""
    symbols = {f.symbol: f for f in module.functions}
    for f in module.functions:
        verify_function(f, symbols, after)


def verify_pass(module: ir.Module, after: str = "") -> ir.Module:
    """`verify_module` as a pass (passmanager.VERIFY): it gives back the module it checked."""
    verify_module(module, after)
    return module


def verify_function(f: ir.Function, symbols: dict[str, ir.Function], after: str = "") -> None:
    current = "function"
    try:
        for function_check in FUNCTION_CHECKS:
            current = function_check.__name__
            function_check(f)
        cx = Context(f, symbols, set(f.blocks), set(f.vars) | set(f.params), dominators(f), _definitions(f))
        for block in f.blocks:
            for index, instr in enumerate(block.instrs):
                for instr_check in INSTR_CHECKS.get(type(instr), ()):
                    current = instr_check.__name__
                    instr_check(cx, instr, block, index)
            for block_check in BLOCK_CHECKS:
                current = block_check.__name__
                block_check(cx, block)
    except _Failed as failed:
        name = current.removeprefix("check_").replace("_", "-")
        where = f" after pass {after}" if after else ""
        raise VerifyError(f"verifier check {name} failed in function @{f.symbol}{where}: "
                          f"{_show(failed.where)}: {failed.why}", name, f.symbol) from None


def _show(where: object) -> str:
    if isinstance(where, ir.Instr):
        return print_instr(where)
    if isinstance(where, ir.Terminator):
        return print_term(where)
    if isinstance(where, ir.Block):
        return f"block {where.label}"
    return "the function"


def _definitions(f: ir.Function) -> dict[int, tuple[ir.Block, int]]:
    return {result.id: (block, k) for block in f.blocks for k, i in enumerate(block.instrs)
            if (result := getattr(i, "result", None)) is not None}


def operands(node: ir.Instr | ir.Terminator) -> Iterator[ir.Value]:
    """The values an instruction or terminator reads (its result is not one of them)."""
    names = _OPERAND_FIELDS.get(type(node))
    if names is None:
        names = _OPERAND_FIELDS[type(node)] = tuple(f.name for f in fields(node) if f.name not in _NOT_OPERANDS)
    for name in names:
        value = getattr(node, name)
        if isinstance(value, ir.Value):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, ir.Value))


# Fields that never hold an operand; the rest are looked at once per class (operands, or lists of them).
_NOT_OPERANDS = {"span", "result", "handler", "op", "pred", "kind", "callee", "name", "attrs",
                 "lanes", "target", "then", "orelse", "exc", "message", "var"}
_OPERAND_FIELDS: dict[type, tuple[str, ...]] = {}


# ---- function checks ----
def check_has_blocks(f: ir.Function) -> None:
    if not f.blocks:
        raise _Failed("no blocks")


def check_unique_labels(f: ir.Function) -> None:
    seen: set[str] = set()
    for block in f.blocks:
        if block.label in seen:
            raise _Failed("duplicate block labels", block)
        seen.add(block.label)


def check_single_definition(f: ir.Function) -> None:
    defined: set[int] = set()
    for block in f.blocks:
        for instr in block.instrs:
            result = getattr(instr, "result", None)
            if result is not None:
                if result.id in defined:
                    raise _Failed(f"{result} defined twice", instr)
                defined.add(result.id)


FUNCTION_CHECKS = [check_has_blocks, check_unique_labels, check_single_definition]


# ---- block checks (the terminator) ----
def check_has_terminator(cx: Context, block: ir.Block) -> None:
    if block.term is None:
        raise _Failed(f"block {block.label} has no terminator", block)


def check_successors_in_function(cx: Context, block: ir.Block) -> None:
    for succ in block.successors():
        if succ not in cx.blocks:
            raise _Failed(f"{block.label} jumps to a block outside the function", block.term)


def check_terminator_dominance(cx: Context, block: ir.Block) -> None:
    if block.term is not None:
        for v in operands(block.term):
            _dominated(cx, v, block, len(block.instrs), block.term)


def check_branch_condition(cx: Context, block: ir.Block) -> None:
    if isinstance(block.term, ir.Branch) and block.term.cond.type != T.BOOL:
        raise _Failed("branch on a non-Bool", block.term)


def check_return_type(cx: Context, block: ir.Block) -> None:
    term, rtype = block.term, cx.f.return_type
    if not isinstance(term, ir.Ret):
        return
    if term.value is None and rtype != T.NONE:
        raise _Failed(f"ret without a value in a function returning {rtype}", term)
    if term.value is not None and term.value.type != rtype:
        raise _Failed(f"ret {term.value.type} from a function returning {rtype}", term)


BLOCK_CHECKS = [check_has_terminator, check_successors_in_function, check_terminator_dominance,
                check_branch_condition, check_return_type]


# ---- instruction checks ----
# (context, instruction, its block, its position); each check declares the classes it takes.
Check = Callable[[Context, Any, ir.Block, int], None]
INSTR_CHECKS: dict[type, list[Check]] = {}


def applies_to(*classes: type) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        for cls in classes:
            INSTR_CHECKS.setdefault(cls, []).append(check)
        return check
    return register


def _all_instructions() -> list[type]:
    return [c for c in vars(ir).values() if isinstance(c, type) and issubclass(c, ir.Instr) and c is not ir.Instr]


def _dominated(cx: Context, v: ir.Value, block: ir.Block, index: int, where: object) -> None:
    """A temporary is used only where its definition dominates the use."""
    if not isinstance(v, ir.Temp):
        return
    home = cx.defs.get(v.id)
    if home is not None and ((home[0] is block and home[1] < index)
                             or (home[0] is not block and _dominates(home[0], block, cx.idom))):
        return
    what = where.__class__.__name__ if isinstance(where, ir.Instr) else "the terminator"
    raise _Failed(f"{what} in {block.label} uses {v}, which is not defined on every path to it", where)


@applies_to(*_all_instructions())
def check_dominance(cx: Context, i: ir.Instr, block: ir.Block, index: int) -> None:
    for v in operands(i):
        _dominated(cx, v, block, index, i)


@applies_to(ir.BinOp)
def check_binop_types(cx: Context, i: ir.BinOp, block: ir.Block, index: int) -> None:
    if not (i.a.type == i.b.type == i.result.type):
        raise _Failed(f"binop {i.op} on {i.a.type}, {i.b.type} -> {i.result.type}", i)


@applies_to(ir.Cmp)
def check_cmp_types(cx: Context, i: ir.Cmp, block: ir.Block, index: int) -> None:
    if i.a.type != i.b.type or i.result.type != T.mask_of(i.a.type):
        raise _Failed(f"cmp on {i.a.type} and {i.b.type} -> {i.result.type}", i)


@applies_to(ir.Select)
def check_select_types(cx: Context, i: ir.Select, block: ir.Block, index: int) -> None:
    if i.cond.type not in (T.BOOL, T.mask_of(i.a.type)) or not (i.a.type == i.b.type == i.result.type):
        raise _Failed("select types disagree", i)


@applies_to(ir.Cast)
def check_cast_types(cx: Context, i: ir.Cast, block: ir.Block, index: int) -> None:
    src, dst = i.a.type, i.result.type
    if isinstance(src, T.SIMDType) and isinstance(dst, T.SIMDType) and src.width == dst.width:
        return
    if isinstance(src, T.PtrType) and isinstance(dst, T.PtrType) and i.kind == "bitcast":
        return
    if not isinstance(src, ScalarType) or not isinstance(dst, ScalarType):
        raise _Failed(f"cast from {src} to {dst}", i)
    if i.kind == "bitcast" and src.bits != dst.bits:
        raise _Failed(f"bitcast between {src} and {dst} of different sizes", i)


@applies_to(ir.ExtractLane, ir.InsertLane, ir.Reduce, ir.Shuffle, ir.Splat)
def check_vector_operand(cx: Context, i: ir.ExtractLane | ir.InsertLane | ir.Reduce | ir.Shuffle | ir.Splat,
                         block: ir.Block, index: int) -> None:
    vt = i.result.type if isinstance(i, ir.Splat) else i.vector.type
    if not isinstance(vt, T.SIMDType):
        raise _Failed(f"{type(i).__name__} on a non-vector {vt}", i)


@applies_to(ir.ExtractLane, ir.Reduce)
def check_lane_result(cx: Context, i: ir.ExtractLane | ir.Reduce, block: ir.Block, index: int) -> None:
    elem = T.elem_type(i.vector.type)
    if i.result.type != elem:
        raise _Failed(f"{type(i).__name__} gives {elem}, result is {i.result.type}", i)


@applies_to(ir.InsertLane)
def check_insertlane_types(cx: Context, i: ir.InsertLane, block: ir.Block, index: int) -> None:
    if i.value.type != T.elem_type(i.vector.type) or i.result.type != i.vector.type:
        raise _Failed(f"insertlane of {i.value.type} into {i.vector.type} -> {i.result.type}", i)


@applies_to(ir.ExtractLane, ir.InsertLane)
def check_lane_index(cx: Context, i: ir.ExtractLane | ir.InsertLane, block: ir.Block, index: int) -> None:
    if i.index.type != T.INT:
        raise _Failed(f"lane index of type {i.index.type}", i)
    width = _vector(i.vector.type).width
    if isinstance(i.index, ir.Const) and not 0 <= i.index.value < width:
        raise _Failed(f"lane {i.index.value} of a {width}-lane vector", i)


@applies_to(ir.Shuffle)
def check_shuffle_lanes(cx: Context, i: ir.Shuffle, block: ir.Block, index: int) -> None:
    vt = _vector(i.vector.type)
    for lane in i.lanes:
        if not 0 <= lane < vt.width:
            raise _Failed(f"lane {lane} of a {vt.width}-lane vector", i)
    rt = i.result.type
    if not isinstance(rt, T.SIMDType) or rt.elem != vt.elem or rt.width != len(i.lanes):
        raise _Failed(f"{len(i.lanes)} lanes of {i.vector.type} make no {rt}", i)


@applies_to(ir.Splat)
def check_splat_element(cx: Context, i: ir.Splat, block: ir.Block, index: int) -> None:
    elem = _vector(i.result.type).elem
    if i.value.type != elem:
        raise _Failed(f"splat of {i.value.type} into {i.result.type}, whose lanes are {elem}", i)


@applies_to(ir.Load, ir.Store)
def check_variable_access(cx: Context, i: ir.Load | ir.Store, block: ir.Block, index: int) -> None:
    if i.var not in cx.variables:
        raise _Failed(f"{i.var} is not a variable of this function", i)
    vtype = i.result.type if isinstance(i, ir.Load) else i.value.type
    if vtype != i.var.type:
        raise _Failed(f"{type(i).__name__.lower()} of {vtype} through {i.var}: {i.var.type}", i)


@applies_to(ir.Extract, ir.Insert)
def check_struct_field(cx: Context, i: ir.Extract | ir.Insert, block: ir.Block, index: int) -> None:
    fields = getattr(i.agg.type, "fields", None)
    if fields is None or not 0 <= i.index < len(fields):
        raise _Failed(f"{type(i).__name__.lower()} {i.index} of {i.agg.type}", i)
    ftype = fields[i.index][1]
    if isinstance(i, ir.Extract) and i.result.type != ftype:
        raise _Failed(f"extract gives {ftype}, result is {i.result.type}", i)
    if isinstance(i, ir.Insert) and (i.value.type != ftype or i.result.type != i.agg.type):
        raise _Failed(f"insert of {i.value.type} into field {i.index}: {ftype}", i)


@applies_to(ir.PtrLoad, ir.PtrStore, ir.PtrOffset, ir.Free)
def check_pointer_access(cx: Context, i: ir.PtrLoad | ir.PtrStore | ir.PtrOffset | ir.Free, block: ir.Block,
                         index: int) -> None:
    ptype = i.ptr.type
    if not isinstance(ptype, T.PtrType):
        raise _Failed(f"{type(i).__name__} through a non-pointer {ptype}", i)
    if not isinstance(i, ir.Free) and i.index.type != T.INT:
        raise _Failed(f"{type(i).__name__} index of type {i.index.type}", i)
    if isinstance(i, (ir.PtrLoad, ir.PtrStore)):
        value = i.result.type if isinstance(i, ir.PtrLoad) else i.value.type
        # A whole element (a Ptr[SIMD[...]]'s vector), or `width` elements as one SIMD value.
        if value != ptype.pointee and T.elem_type(value) != ptype.pointee:
            raise _Failed(f"{type(i).__name__} of {value} through {ptype}", i)


@applies_to(ir.Call)
def check_call_signature(cx: Context, i: ir.Call, block: ir.Block, index: int) -> None:
    callee = cx.symbols.get(i.callee)
    if callee is None:
        raise _Failed(f"call to unknown @{i.callee}", i)
    if [a.type for a in i.args] != [p.type for p in callee.params]:
        raise _Failed(f"call to @{i.callee} with argument types {[str(a.type) for a in i.args]}", i)
    for a, p in zip(i.args, callee.params, strict=True):  # as many, checked above
        if isinstance(a, ir.Ref) != p.by_ref:
            raise _Failed(f"call to @{i.callee}: `{p}` needs {'a variable' if p.by_ref else 'a value'}", i)
        if isinstance(a, ir.Ref) and a.var not in cx.variables:
            raise _Failed(f"{a.var} is not a variable of this function", i)
    rtype = i.result.type if i.result is not None else T.NONE
    if rtype != callee.return_type:
        raise _Failed(f"call to @{i.callee} expects {callee.return_type}, result is {rtype}", i)


@applies_to(ir.Launch)
def check_launch_signature(cx: Context, i: ir.Launch, block: ir.Block, index: int) -> None:
    kernel = cx.symbols.get(i.callee)
    if kernel is None or not kernel.kernel:
        raise _Failed(f"launch of @{i.callee}, which is not a kernel", i)
    if [a.type for a in i.args] != [p.type for p in kernel.params]:
        raise _Failed(f"launch of @{i.callee} with argument types {[str(a.type) for a in i.args]}", i)


@applies_to(ir.ParallelFor)
def check_parallel_for_signature(cx: Context, i: ir.ParallelFor, block: ir.Block, index: int) -> None:
    body = cx.symbols.get(i.callee)
    if body is None or [p.type for p in body.params] != [T.INT] * 3 + [a.type for a in i.args]:
        raise _Failed(f"parallel_for of @{i.callee} with argument types {[str(a.type) for a in i.args]}", i)


@applies_to(ir.Intrinsic)
def check_known_operation(cx: Context, i: ir.Intrinsic, block: ir.Block, index: int) -> None:
    if ops.spec_of(i) is None:
        raise _Failed(f"unknown operation {i.name!r} (not in ir/ops.py)", i)


@applies_to(ir.Intrinsic)
def check_operation_attributes(cx: Context, i: ir.Intrinsic, block: ir.Block, index: int) -> None:
    spec = ops.SPECS[i.name]
    if list(i.attrs) != [a.name for a in spec.attrs]:
        raise _Failed(f"{i.name} takes attributes {[a.name for a in spec.attrs]}, has {list(i.attrs)}", i)
    for attr in spec.attrs:
        if not attr.accepts(i.attrs[attr.name]):
            raise _Failed(f"attribute {attr.name} must be a {attr.describe()}", i)


@applies_to(ir.Intrinsic)
def check_operation_operands(cx: Context, i: ir.Intrinsic, block: ir.Block, index: int) -> None:
    spec = ops.SPECS[i.name]
    fixed = len(spec.operands)
    if len(i.args) < fixed or (len(i.args) > fixed and spec.variadic is None):
        raise _Failed(f"{len(i.args)} operands for {spec.describe()}", i)
    types = [a.type for a in i.args]
    for k, t in enumerate(types):
        rule = spec.operands[k] if k < fixed else spec.variadic
        assert rule is not None  # the count was checked above
        if not rule(t, types):
            raise _Failed(f"operand {k} is {t}, {spec.name} needs {rule.what}", i)


@applies_to(ir.Intrinsic)
def check_operation_result(cx: Context, i: ir.Intrinsic, block: ir.Block, index: int) -> None:
    spec = ops.SPECS[i.name]
    if i.result is None:
        if spec.result is not None and not spec.result_optional:
            raise _Failed(f"{spec.name} gives a value, the instruction has no result", i)
    elif spec.result is None:
        raise _Failed(f"{spec.name} gives no value, the result is {i.result.type}", i)
    elif not spec.result(i.result.type, [a.type for a in i.args]):
        raise _Failed(f"the result is {i.result.type}, {spec.name} gives {spec.result.what}", i)


@applies_to(ir.Intrinsic)
def check_parallel_latches(cx: Context, i: ir.Intrinsic, block: ir.Block, index: int) -> None:
    """`gpu.region_parallel` names loops by their latches: blocks of this function, each ending in a
    jump back to a block that dominates it (codegen/thread_loops.py marks that loop)."""
    if i.name != "gpu.region_parallel" or not isinstance(i.attrs.get("latches"), tuple):
        return
    for latch in i.attrs["latches"]:
        if latch not in cx.blocks:
            raise _Failed(f"latch {latch.label} is not a block of the function", i)
        term = latch.term
        if not (isinstance(term, ir.Jump) and _dominates(term.target, latch, cx.idom)):
            raise _Failed(f"latch {latch.label} does not end in a jump back to its loop's head", i)


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


def _vector(t: T.Type) -> T.SIMDType:
    assert isinstance(t, T.SIMDType), t  # check_vector_operand ran first
    return t


