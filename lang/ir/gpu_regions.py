"""GPU kernels on the CPU as loops over the block's threads ("work-item loops"), not coroutines.

A kernel whose only synchronization is `barrier()` in its own body gets a companion function
`<kernel>$regions` (CPU targets only; codegen/gpu_cpu.py launches it, once per block, instead of
one coroutine per thread). The body is cut at each barrier into barrier-free regions; the
companion runs *rounds*: in a round, a loop over the block's threads runs every thread that may
go on from where it stopped (its resume point: the kernel's entry, or just after barrier k) until
it reaches a barrier or returns, then the scheduler's census (`__pyx_gpu_settle`, the same one the
coroutines use) releases the barrier or reports the block stuck. So a round is exactly one pass
of the coroutine scheduler, in the same thread order, with the same rules, including threads that
return early and threads that wait at different barriers (a deadlock, reported as before), and
barriers in any control flow: loops with uniform or divergent trip counts, nested loops, branches.

What a thread keeps across a barrier is what lives there: the variables live after it (a
liveness analysis over the kernel's blocks) are stored to a per-thread array at the barrier
(`gpu.region_spill`: one array of 1024 elements per variable, indexed by the thread) and loaded
back when the thread resumes; temporaries used outside their block become variables first
(LLVM's mem2reg makes registers of them again within a region). Inside a region the code is the
kernel's own, so LLVM optimizes it as an ordinary loop nest.

Kernels this does not apply to keep the coroutines: a barrier or warp operation inside a function
the kernel calls (the companion cannot stop a thread in the middle of a call), warp operations
(their lanes exchange values in the middle of an expression), and variables whose address is
taken (a pointer into the one frame all threads share would see other threads' values).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from .. import types as T
from ..source import Span
from . import nodes as ir
from . import ops
from .verify import operands

SUFFIX = "$regions"
MAX_THREADS = 1024  # a block's threads at most (gpu_limits.py): the length of each spill array


def region_symbol(kernel_symbol: str) -> str:
    return kernel_symbol + SUFFIX


def split_kernels(module: ir.Module) -> ir.Module:
    """Add `<kernel>$regions` for each kernel the transformation applies to (pass `gpu_regions`)."""
    by_symbol = {f.symbol: f for f in module.functions}
    synchronizing = _synchronizing_functions(module)
    added = []
    for f in module.functions:
        if f.kernel and _eligible(f, by_symbol, synchronizing):
            added.append(_regions(f))
            # Launches run the companion: the kernel itself is left to LLVM to drop, not to optimize.
            f.exported = False
    module.functions.extend(added)
    return module


def _synchronizing_functions(module: ir.Module) -> set[str]:
    """The functions that wait for other threads (a barrier or warp operation), directly or through
    what they call."""
    calls: dict[str, set[str]] = {}
    found: set[str] = set()
    for f in module.functions:
        calls[f.symbol] = set()
        for block in f.blocks:
            for i in block.instrs:
                if ops.synchronizes(i):
                    found.add(f.symbol)
                elif isinstance(i, ir.Call):
                    calls[f.symbol].add(i.callee)
    changed = True
    while changed:
        changed = False
        for symbol, callees in calls.items():
            if symbol not in found and callees & found:
                found.add(symbol)
                changed = True
    return found


def _eligible(f: ir.Function, by_symbol: dict[str, ir.Function], synchronizing: set[str]) -> bool:
    has_barrier = False
    if f.recursion_limit is not None or any(p.by_ref for p in f.params) or f.return_type != T.NONE:
        return False
    for block in f.blocks:
        for i in block.instrs:
            if isinstance(i, ir.Intrinsic) and i.name == "gpu.barrier":
                has_barrier = True
            elif (ops.synchronizes(i)  # a warp operation: the coroutines run it
                  or isinstance(i, (ir.AddressOf, ir.BindRef, ir.Launch, ir.ParallelFor))
                  or (isinstance(i, ir.Call) and i.callee in synchronizing)):
                return False
    return has_barrier


# ---- the transformation ----
class _Fresh:
    def __init__(self, f: ir.Function):
        temps = [getattr(i, "result", None) for b in f.blocks for i in b.instrs]
        self.temp = max([t.id for t in temps if t is not None], default=0) + 1
        self.var = max([v.id for v in f.params + f.vars], default=0) + 1
        self.label = 0

    def t(self, type_: T.Type) -> ir.Temp:
        self.temp += 1
        return ir.Temp(type_, self.temp)

    def v(self, name: str, type_: T.Type) -> ir.Var:
        self.var += 1
        return ir.Var(name, type_, self.var)

    def block(self, what: str) -> ir.Block:
        self.label += 1
        return ir.Block(f"regions.{what}.{self.label}")


def _clone(blocks: list[ir.Block]) -> list[ir.Block]:
    """Copies of the blocks and their instructions (lists copied, blocks remapped); values and
    variables are shared, as they stay the same objects in the companion."""
    mapping = {id(b): ir.Block(b.label) for b in blocks}

    def remap(node: Any) -> Any:
        node = copy.copy(node)
        for fld in fields(node):
            value = getattr(node, fld.name)
            if isinstance(value, ir.Block):
                setattr(node, fld.name, mapping[id(value)])
            elif isinstance(value, list):
                setattr(node, fld.name, list(value))
            elif isinstance(value, dict):
                setattr(node, fld.name, dict(value))
        return node

    out = []
    for b in blocks:
        nb = mapping[id(b)]
        nb.instrs = [remap(i) for i in b.instrs]
        nb.term = remap(b.term)
        out.append(nb)
    return out


def _is_barrier(i: ir.Instr) -> bool:
    return isinstance(i, ir.Intrinsic) and i.name == "gpu.barrier"


def _split_at_barriers(
    blocks: list[ir.Block], fresh: _Fresh
) -> tuple[list[ir.Block], list[tuple[ir.Block, ir.Block, ir.Instr]]]:
    """Cut every block after each barrier: the barrier ends its block, which jumps to the rest.
    Returns the blocks and, per barrier, (the block it ends, the block after it, the barrier)."""
    out, barriers = [], []
    for b in blocks:
        current = b
        instrs, term = b.instrs, b.term
        current.instrs = []
        for i in instrs:
            current.instrs.append(i)
            if _is_barrier(i):
                rest = fresh.block("after_barrier")
                current.term = ir.Jump(i.span, rest)
                barriers.append((current, rest, i))
                out.append(current)
                current = rest
        current.term = term
        out.append(current)
    return out, barriers


def _replace_operands(node: ir.Instr | ir.Terminator, mapping: Mapping[int, ir.Value]) -> None:
    for fld in fields(node):
        if fld.name in ("result", "span", "var"):
            continue
        value = getattr(node, fld.name)
        if isinstance(value, ir.Temp) and value.id in mapping:
            setattr(node, fld.name, mapping[value.id])
        elif isinstance(value, list):
            setattr(node, fld.name, [mapping.get(v.id, v) if isinstance(v, ir.Temp) else v for v in value])


def _demote_cross_block_temps(blocks: list[ir.Block], fresh: _Fresh) -> list[ir.Var]:
    """A temporary used outside its block becomes a variable (stored after its definition, loaded
    before each such use): the companion enters a region in the middle of the kernel's control
    flow, where a definition in another block no longer dominates the use."""
    home = {}
    for b in blocks:
        for i in b.instrs:
            result = getattr(i, "result", None)
            if result is not None:
                home[result.id] = b
    demoted: dict[int, ir.Var] = {}
    for b in blocks:
        assert b.term is not None
        for node in b.instrs + [b.term]:
            for v in operands(node):
                if isinstance(v, ir.Temp) and home.get(v.id) is not b and v.id not in demoted:
                    demoted[v.id] = fresh.v(f"temp{v.id}", v.type)
    if not demoted:
        return []
    for b in blocks:
        instrs: list[ir.Instr] = []
        for i in b.instrs:
            loads = {}
            for v in operands(i):
                if isinstance(v, ir.Temp) and v.id in demoted and home.get(v.id) is not b and v.id not in loads:
                    loads[v.id] = fresh.t(v.type)
                    instrs.append(ir.Load(i.span, loads[v.id], demoted[v.id]))
            if loads:
                _replace_operands(i, loads)
            instrs.append(i)
            result = getattr(i, "result", None)
            if result is not None and result.id in demoted:
                instrs.append(ir.Store(i.span, demoted[result.id], result))
        loads = {}
        assert b.term is not None
        for v in operands(b.term):
            if isinstance(v, ir.Temp) and v.id in demoted and home.get(v.id) is not b and v.id not in loads:
                loads[v.id] = fresh.t(v.type)
                instrs.append(ir.Load(b.term.span, loads[v.id], demoted[v.id]))
        if loads:
            _replace_operands(b.term, loads)
        b.instrs = instrs
    return list(demoted.values())


def _live_in(blocks: list[ir.Block]) -> dict[int, set[ir.Var]]:
    """The variables live at the start of each block (read before any store on some path)."""
    use, defs = {}, {}
    for b in blocks:
        u, d = set(), set()
        for i in b.instrs:
            for v in operands(i):
                if isinstance(v, ir.Ref) and v.var not in d:
                    u.add(v.var)  # a `mut` argument: the callee may read it
            if isinstance(i, ir.Load) and i.var not in d:
                u.add(i.var)
            elif isinstance(i, ir.Store):
                d.add(i.var)
        use[id(b)], defs[id(b)] = u, d
    live = {id(b): set(use[id(b)]) for b in blocks}
    changed = True
    while changed:
        changed = False
        for b in reversed(blocks):
            out = set()
            for s in b.successors():
                out |= live[id(s)]
            new = use[id(b)] | (out - defs[id(b)])
            if new != live[id(b)]:
                live[id(b)] = new
                changed = True
    return live


def _regions(f: ir.Function) -> ir.Function:
    fresh = _Fresh(f)
    blocks, barriers = _split_at_barriers(_clone(f.blocks), fresh)
    demoted = _demote_cross_block_temps(blocks, fresh)
    live = _live_in(blocks)
    stored = {i.var for b in blocks for i in b.instrs if isinstance(i, ir.Store)}
    stored |= {v.var for b in blocks for i in b.instrs for v in operands(i) if isinstance(v, ir.Ref)}
    # A parameter the kernel never assigns is the same for every thread: set once, never kept.
    uniform = [p for p in f.params if p not in stored]
    spills: dict[ir.Var, int] = {}
    per_barrier = []
    for _, rest, _ in barriers:
        keep = sorted((v for v in live[id(rest)] if v.global_symbol is None and v not in uniform),
                      key=lambda v: v.id)
        for v in keep:
            spills.setdefault(v, len(spills))
        per_barrier.append(keep)

    params = [fresh.v(p.name, p.type) for p in f.params]
    tv = fresh.v("thread", T.INT)
    span = f.span

    entry, round_, head, body, nxt, settle, leave = (fresh.block(w) for w in (
        "entry", "round", "head", "body", "next", "settle", "leave"))
    n = fresh.t(T.INT)
    entry.instrs.append(ops.make(span, n, "gpu.region_threads", []))
    arrays = {}
    for v, slot in spills.items():
        arrays[v] = fresh.t(T.ptr(v.type))
        entry.instrs.append(ops.make(span, arrays[v], "gpu.region_spill", [], slot=slot))
    for p, arg in zip(f.params, params, strict=True):
        if p in uniform:
            x = fresh.t(p.type)
            entry.instrs += [ir.Load(span, x, arg), ir.Store(span, p, x)]
    entry.term = ir.Jump(span, round_)

    round_.instrs.append(ir.Store(span, tv, ir.Const(T.INT, 0)))
    round_.term = ir.Jump(span, head)

    t = fresh.t(T.INT)
    more = fresh.t(T.BOOL)
    head.instrs += [ir.Load(span, t, tv), ir.Cmp(span, more, "slt", t, n)]
    head.term = ir.Branch(span, more, body, settle)

    def current(block: ir.Block, where: Span | None) -> ir.Temp:
        x = fresh.t(T.INT)
        block.instrs.append(ir.Load(where, x, tv))
        return x

    # Where the thread goes on: -1 (it waits, or has ended), 0 (the kernel's entry), k + 1 (after barrier k).
    t = current(body, span)
    resume = fresh.t(T.INT)
    body.instrs.append(ops.make(span, resume, "gpu.region_enter", [t]))
    start = fresh.block("start")
    for p, arg in zip(f.params, params, strict=True):
        if p not in uniform:
            x = fresh.t(p.type)
            start.instrs += [ir.Load(span, x, arg), ir.Store(span, p, x)]
    start.term = ir.Jump(span, blocks[0])
    targets = [start]
    for (_, rest, barrier), keep in zip(barriers, per_barrier, strict=True):
        back = fresh.block("resume")
        t = current(back, barrier.span)
        for v in keep:
            x = fresh.t(v.type)
            back.instrs += [ir.PtrLoad(barrier.span, x, arrays[v], t), ir.Store(barrier.span, v, x)]
        back.term = ir.Jump(barrier.span, rest)
        targets.append(back)
    dispatch = []
    waiting = fresh.t(T.BOOL)
    body.instrs.append(ir.Cmp(span, waiting, "slt", resume, ir.Const(T.INT, 0)))
    test = fresh.block("dispatch")
    body.term = ir.Branch(span, waiting, nxt, test)
    for k, target in enumerate(targets):
        if k == len(targets) - 1:
            test.term = ir.Jump(span, target)
            break
        hit = fresh.t(T.BOOL)
        test.instrs.append(ir.Cmp(span, hit, "eq", resume, ir.Const(T.INT, k)))
        following = fresh.block("dispatch")
        test.term = ir.Branch(span, hit, target, following)
        dispatch.append(test)
        test = following
    dispatch.append(test)

    # Each barrier: keep what lives after it, say where the thread waits, go to the next thread.
    for k, ((before, _, barrier), keep) in enumerate(zip(barriers, per_barrier, strict=True)):
        assert before.instrs[-1] is barrier
        before.instrs.pop()
        t = current(before, barrier.span)
        for v in keep:
            x = fresh.t(v.type)
            before.instrs += [ir.Load(barrier.span, x, v), ir.PtrStore(barrier.span, arrays[v], t, x)]
        before.instrs.append(ops.make(barrier.span, None, "gpu.region_wait", [t], point=k + 1))
        before.term = ir.Jump(barrier.span, nxt)
    # A thread that returns has ended.
    for b in blocks:
        if isinstance(b.term, ir.Ret):
            where = b.term.span
            t = current(b, where)
            b.instrs.append(ops.make(where, None, "gpu.region_done", [t]))
            b.term = ir.Jump(where, nxt)

    t = current(nxt, span)
    t1 = fresh.t(T.INT)
    nxt.instrs += [ir.BinOp(span, t1, "add", t, ir.Const(T.INT, 1)), ir.Store(span, tv, t1)]
    nxt.term = ir.Jump(span, head)
    again = fresh.t(T.BOOL)
    settle.instrs.append(ops.make(span, again, "gpu.region_settle", []))
    settle.term = ir.Branch(span, again, round_, leave)
    leave.term = ir.Ret(span, None)

    g = ir.Function(region_symbol(f.symbol), f.name, f.file, params, T.NONE, f.span)
    g.vars = list(f.params) + [v for v in f.vars if v not in f.params] + demoted + [tv]
    g.blocks = [entry, round_, head, body, *dispatch, start, *targets[1:], *blocks, nxt, settle, leave]
    g.raises = f.raises
    g.exported = False
    g.fastmath, g.noalias = f.fastmath, f.noalias
    return g
