"""GPU kernels on the CPU as loops over the block's threads ("work-item loops"), not coroutines.

A kernel whose synchronization is `barrier()` and shuffles gets a companion function
`<kernel>$regions` (CPU targets only; codegen/gpu_cpu.py launches it, once per block, instead of
one coroutine per thread). The body is cut at each barrier; the companion has one copy of it per
point a thread can go on from (the kernel's entry, just after barrier k), each copy the body of a
plain counted loop nest over the block's threads (z, y, x: `thread_idx.x` is the innermost loop's
counter, block indices and shared arrays are read once, before the loops), as the OpenCL CPU
runtimes run work-groups. The companion runs *rounds*: a round runs the loop nest of the point
where every live thread waits; each thread runs until it reaches a barrier (it notes which, in a
per-thread array of resume points) or returns (-1); a census after the round (vectorizable
min/max reductions) gives the next round's point, or the block's end, or threads waiting at
different barriers, which it marks for the scheduler's census (`__pyx_gpu_settle`) to report as
the coroutines' deadlock is. So a round runs what one round of the coroutine scheduler runs, in
the same thread order, with the same rules, including threads that return early (their loops
then skip ended threads: a second, checked loop nest per point, only for kernels where a thread
can end while others wait) and barriers in any control flow.

What a thread keeps across a barrier is what lives there (a liveness analysis over the kernel's
blocks): values computed at its start from its indices alone (`var tx = thread_idx.x`, `var row =
block_idx.y * TILE + ty`) are computed again after the barrier; values every thread holds the same
(a divergence analysis: ir/divergence.py) are kept once for the block; the others in per-thread arrays
(`gpu.region_spill`, 1024 elements each, indexed by the thread). Ctrl-C is polled once a round, and
inside the loops only by `while` loops without a barrier (a thread may spin there). Between two
barriers threads are independent (anything else is a data race), so the loops are marked parallel
for LLVM (codegen/thread_loops.py) and its loop vectorizer runs them across threads.

A function the kernel calls that waits for other threads is taken into the kernel first (`_inline`:
the companion cannot stop a thread in the middle of a call). A shuffle is a wait like a barrier
(`_Shuffles`): each lane publishes its value in an exchange array, and after the wait reads its
source lane's, as codegen/gpu_ops.py defines the shuffles on the CPU; waiting for the whole block
instead of the warp is the same only where every thread reaches every shuffle, so a kernel with
shuffles needs all its waits outside the region of every branch on a thread-dependent condition,
and no thread ending while others go on. Kernels this does not apply to keep the coroutines: the
other warp operations (`warp_sum` and the rest, `ballot`), shuffles some threads skip, a called
function that waits and cannot be taken in (a `try` or a `mut` parameter of its own, or code that
would raise from it: its traceback frame would be lost), `--memcheck`/`--racecheck` with shuffles,
and variables whose address is taken (a pointer into the one frame all threads share would see
other threads' values). A kernel
that calls a function or runs `--memcheck`/`--racecheck` checks keeps its thread loops, but sets
the scheduler's current thread and indices for each thread (`gpu.region_enter`) and its loops are
not marked parallel.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from .. import types as T
from ..source import Span
from . import nodes as ir
from . import ops
from .divergence import UNIFORM_INDICES, uniform_vars
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
            companion = _regions(f, by_symbol, synchronizing)
            if companion is None:
                continue
            added.append(companion)
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


SHUFFLES = ("gpu.shuffle_down", "gpu.shuffle_up", "gpu.shuffle_xor", "gpu.shuffle_idx")


def _eligible(f: ir.Function, by_symbol: dict[str, ir.Function], synchronizing: set[str]) -> bool:
    """A first look: a kernel that waits for other threads, and only by barriers, shuffles, or calls of
    functions that do (which `_inline` takes into it; `_regions` declines what it cannot run)."""
    waits = False
    if f.recursion_limit is not None or any(p.by_ref for p in f.params) or f.return_type != T.NONE:
        return False
    for block in f.blocks:
        for i in block.instrs:
            if (isinstance(i, ir.Intrinsic) and (i.name == "gpu.barrier" or i.name in SHUFFLES)) \
                    or (isinstance(i, ir.Call) and i.callee in synchronizing):
                waits = True
            elif ops.synchronizes(i) or isinstance(i, (ir.AddressOf, ir.BindRef, ir.Launch, ir.ParallelFor)):
                return False  # another warp operation: the coroutines run it
    return waits


# ---- the transformation ----
class _Fresh:
    def __init__(self, f: ir.Function):
        temps = [getattr(i, "result", None) for b in f.blocks for i in b.instrs]
        self.temp = max([t.id for t in temps if t is not None], default=0) + 1
        self.var = max([v.id for v in f.params + f.vars], default=0) + 1
        self.label = 0
        self.made: list[ir.Var] = []  # every variable made here, in order

    def t(self, type_: T.Type) -> ir.Temp:
        self.temp += 1
        return ir.Temp(type_, self.temp)

    def v(self, name: str, type_: T.Type) -> ir.Var:
        self.var += 1
        self.made.append(ir.Var(name, type_, self.var))
        return self.made[-1]

    def block(self, what: str) -> ir.Block:
        self.label += 1
        return ir.Block(f"regions.{what}.{self.label}")


def _clone(blocks: list[ir.Block], mapping: dict[int, ir.Block] | None = None,
           fix: Callable[[Any], None] | None = None) -> list[ir.Block]:
    """Copies of the blocks and their instructions (lists and dicts copied, jumps remapped to the copies,
    or to `mapping`'s block for a block it names); values and variables are shared unless `fix`, called
    on each copied instruction, replaces them."""
    mapping = {**{id(b): ir.Block(b.label) for b in blocks}, **(mapping or {})}

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
        if fix is not None:
            fix(node)
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


# Indices the same for every thread of a block: computed once, in the companion's entry.
_UNIFORM_INDICES = UNIFORM_INDICES
_AXES = ("x", "y", "z")
# What a thread loop computes itself (its counters): the thread's own indices.
_THREAD_INDICES = ("gpu.thread_idx", "gpu.global_idx", "gpu.lane_id")
# Operations the thread loop serves without the scheduler's per-thread state (`cur`, the indices in
# the context); any other GPU operation, a call or a check needs it set for each thread.
_LOOP_SERVED = {"gpu.barrier", "gpu.shared_array", "gpu.dynamic_shared", *_THREAD_INDICES,
                *(f"gpu.{k}" for k in _UNIFORM_INDICES),
                *(f"gpu.{k}" for k in ("atomic_add", "atomic_max", "atomic_min", "atomic_exch", "atomic_cas"))}


def _needs_thread_state(blocks: list[ir.Block]) -> bool:
    for b in blocks:
        for i in b.instrs:
            if isinstance(i, ir.Call) or (isinstance(i, ir.Intrinsic) and i.name not in _LOOP_SERVED
                                          and (i.name.startswith("gpu.") or i.name.startswith(("memcheck",
                                                                                               "racecheck")))):
                return True
    return False


def _runs_in_any_order(blocks: list[ir.Block]) -> bool:
    """Whether the threads' regions may run in any order (vectorized): nothing but memory, atomics
    and Ctrl-C polls has an effect. A `print` keeps the threads' order (a GPU's would be any)."""
    for b in blocks:
        for i in b.instrs:
            if isinstance(i, ir.Intrinsic) and i.name not in _LOOP_SERVED and i.name != "interrupt_poll":
                spec = ops.SPECS.get(i.name)
                if spec is None or spec.side_effects or spec.prints:
                    return False
    return True


def _strip_region_polls(blocks: list[ir.Block], barriers: list[tuple[ir.Block, ir.Block, ir.Instr]]) -> bool:
    """Take out the Ctrl-C polls a thread loop does not need, so a region is a loop LLVM can vectorize
    (a poll is a second exit): a poll in a loop that passes a barrier (each trip ends a round, and the
    companion polls once a round), and a range loop's poll between chunks (the loop ends by itself).
    A `while` loop without a barrier keeps its poll: a thread spinning there stays interruptible.
    True if the kernel polled at all."""
    successors = {id(b): list(b.successors()) for b in blocks}
    reach: dict[int, set[int]] = {}
    for b in blocks:
        seen, stack = set(), [b]
        while stack:
            for s in successors[id(stack.pop())]:
                if id(s) not in seen:
                    seen.add(id(s))
                    stack.append(s)
        reach[id(b)] = seen
    barrier_blocks = [before for before, _, _ in barriers]
    polled = False
    for b in blocks:
        polls = {i.result.id for i in b.instrs
                 if isinstance(i, ir.Intrinsic) and i.name == "interrupt_poll" and i.result is not None}
        if not polls:
            continue
        polled = True
        in_barrier_loop = any(id(x) in reach[id(b)] and id(b) in reach[id(x)] for x in barrier_blocks)
        term = b.term
        if not (in_barrier_loop or b.label.startswith("for.refill")) or not (
                isinstance(term, ir.Branch) and isinstance(term.cond, ir.Temp) and term.cond.id in polls):
            continue
        b.instrs = [i for i in b.instrs if not (isinstance(i, ir.Intrinsic) and i.name == "interrupt_poll")]
        b.term = ir.Jump(term.span, term.orelse)
    return polled


def _recomputable(blocks: list[ir.Block], uniform: list[ir.Var]) -> list[tuple[ir.Var, list[ir.Instr], ir.Value]]:
    """Variables a thread sets once, at its start, from its indices, constants and uniform parameters
    (`var tx = thread_idx.x`, `var row = block_idx.y * TILE + ty`): recomputed after a barrier rather
    than kept in a per-thread array, so LLVM sees `tx` as the thread loop's counter (a contiguous
    access `b_tile[p * TILE + tx]`, not a gather). Each: (the variable, the instructions computing its
    value, the value), in the order the kernel sets them."""
    first = blocks[0]
    if any(first in b.successors() for b in blocks):
        return []  # the first block is a loop's head: it may run more than once
    stores: dict[ir.Var, int] = {}
    for b in blocks:
        for i in b.instrs:
            if isinstance(i, ir.Store):
                stores[i.var] = stores.get(i.var, 0) + 1
            for v in operands(i):
                if isinstance(v, ir.Ref):
                    stores[v.var] = stores.get(v.var, 0) + 2
    allowed = (ir.BinOp, ir.Cmp, ir.Cast, ir.Select)
    defs: dict[int, ir.Instr] = {}
    ready: set[ir.Var] = set(uniform)
    out = []
    for i in first.instrs:
        if i.__class__ is ir.Store and stores.get(i.var) == 1 and i.var.global_symbol is None:
            chain: list[ir.Instr] = []
            ok = _chain(i.value, defs, ready, allowed, chain, set())
            if ok:
                out.append((i.var, chain, i.value))
                ready.add(i.var)
        result = getattr(i, "result", None)
        if result is not None:
            defs[result.id] = i
    return out


def _chain(v: ir.Value, defs: dict[int, ir.Instr], ready: set[ir.Var], allowed: tuple[type, ...],
           chain: list[ir.Instr],
           seen: set[int]) -> bool:
    if not isinstance(v, ir.Temp):
        return isinstance(v, ir.Const)
    if v.id in seen:
        return True
    i = defs.get(v.id)
    if i is None:
        return False
    if isinstance(i, ir.Load):
        good = i.var in ready
    elif isinstance(i, ir.Intrinsic):
        good = i.name in _THREAD_INDICES or i.name in {f"gpu.{k}" for k in _UNIFORM_INDICES} \
            or i.name in ("gpu.shared_array", "gpu.dynamic_shared")
    elif isinstance(i, allowed):
        good = all(_chain(x, defs, ready, allowed, chain, seen) for x in operands(i))
    else:
        good = False
    if good:
        seen.add(v.id)
        chain.append(i)
    return good


def _copy(blocks: list[ir.Block], fresh: _Fresh, tag: str, outside: dict[int, ir.Block]) -> list[ir.Block]:
    """A copy of `blocks` with fresh labels and fresh temporaries (each copy is a thread loop's body in
    one function, so no temporary may be defined twice); jumps to a block of `outside` (by id) go to
    the block given there."""
    temps: dict[int, ir.Value] = {}

    def fresh_temps(node: Any) -> None:
        _replace_operands(node, temps)
        result = getattr(node, "result", None)
        if result is not None:
            temps[result.id] = new = fresh.t(result.type)
            node.result = new

    mapping = {id(b): ir.Block(f"{b.label}.{tag}") for b in blocks}
    return _clone(blocks, {**mapping, **outside}, fresh_temps)


def _reachable(start: ir.Block, blocks: list[ir.Block]) -> list[ir.Block]:
    mine = {id(b) for b in blocks}
    seen, stack = {id(start)}, [start]
    while stack:
        for s in stack.pop().successors():
            if id(s) in mine and id(s) not in seen:
                seen.add(id(s))
                stack.append(s)
    return [b for b in blocks if id(b) in seen]


def _ends_and_waits(start: ir.Block, blocks: list[ir.Block], latch: ir.Block, resume: ir.Temp,
                    controlled: set[int]) -> bool:
    """Whether threads that start a round at `start` may end while others wait at a barrier: the
    region reaches both a `return` and a barrier (both jump to the thread loop's latch, a return
    after marking the thread ended, `resume[t] = -1`), and not every thread takes the same one: one
    of them is under a branch on a thread-dependent condition (`controlled`; a block outside every
    such branch's region runs in all threads that start together or in none)."""
    returns = waits = apart = False
    for b in _reachable(start, blocks):
        if isinstance(b.term, ir.Jump) and b.term.target is latch:
            ended = any(isinstance(i, ir.PtrStore) and i.ptr is resume and isinstance(i.value, ir.Const)
                        and i.value.value == -1 for i in b.instrs)
            returns, waits = returns or ended, waits or not ended
            apart = apart or id(b) in controlled
    return returns and waits and apart


def _inline(blocks: list[ir.Block], by_symbol: dict[str, ir.Function], synchronizing: set[str],
            fresh: _Fresh) -> tuple[list[ir.Block], set[int]] | None:
    """The kernel's blocks with each call of a function that waits for other threads replaced by the
    function's body (so the thread loops can stop a thread at the waits inside it), and the ids of the
    blocks that came from such bodies. None where a callee cannot be taken in: a `mut` parameter, a
    recursion guard, a `try` of its own, or more than 64 calls to take in."""
    inlined: set[int] = set()
    for _ in range(64):
        at = next(((b, k) for b in blocks for k, i in enumerate(b.instrs)
                   if isinstance(i, ir.Call) and i.callee in synchronizing), None)
        if at is None:
            return blocks, inlined
        b, k = at
        call = b.instrs[k]
        assert isinstance(call, ir.Call)
        g = by_symbol.get(call.callee)
        if (g is None or call.handler is not None or g.recursion_limit is not None
                or any(p.by_ref for p in g.params)
                or any(getattr(t, "handler", None) is not None for gb in g.blocks for t in gb.instrs + [gb.term])):
            return None
        names: dict[ir.Var, ir.Var] = {v: fresh.v(v.name, v.type) for v in g.params + g.vars
                                       if v.global_symbol is None}
        body = _copy(_clone(g.blocks), fresh, f"in{fresh.label}", {})
        for gb in body:
            nodes: list[Any] = gb.instrs + [gb.term]
            for node in nodes:
                if getattr(node, "var", None) in names:
                    node.var = names[node.var]
                for fld in fields(node):
                    value = getattr(node, fld.name)
                    if isinstance(value, ir.Ref) and value.var in names:
                        setattr(node, fld.name, ir.Ref(value.type, names[value.var]))
                    elif isinstance(value, list):
                        setattr(node, fld.name, [ir.Ref(v.type, names[v.var])
                                                 if isinstance(v, ir.Ref) and v.var in names else v for v in value])
        result = fresh.v("returned", g.return_type) if call.result is not None else None
        after = fresh.block("after_call")
        after.instrs = ([ir.Load(call.span, call.result, result)] if call.result is not None and result else []) \
            + b.instrs[k + 1:]
        after.term = b.term
        b.instrs = b.instrs[:k] + [ir.Store(call.span, names[p], a) for p, a in zip(g.params, call.args, strict=True)]
        b.term = ir.Jump(call.span, body[0])
        for gb in body:
            inlined.add(id(gb))
            if isinstance(gb.term, ir.Ret):
                if result is not None and gb.term.value is not None:
                    gb.instrs.append(ir.Store(gb.term.span, result, gb.term.value))
                gb.term = ir.Jump(gb.term.span, after)
        blocks = blocks[:blocks.index(b) + 1] + body + [after] + blocks[blocks.index(b) + 1:]
        if b.label and id(b) in inlined:
            inlined.add(id(after))
    return None


class _Shuffles:
    """Shuffles as waits between two rounds: a lane publishes its value in the exchange array this round
    writes (two per value type, swapped each round, as the uniform values' slots are), waits like at a
    barrier, and reads its source lane's in the array the round before wrote: the CPU definition of
    codegen/gpu_ops.py's shuffles, a lane without a source keeping its own value."""

    def __init__(self, fresh: _Fresh, thread: ir.Var, count: ir.Var):
        self.fresh, self.thread, self.count = fresh, thread, count
        self.write: dict[str, ir.Var] = {}
        self.read: dict[str, ir.Var] = {}
        self.types: dict[str, T.Type] = {}
        self.vars: list[ir.Var] = []

    def arrays(self, type_: T.Type) -> tuple[ir.Var, ir.Var]:
        key = str(type_)
        if key not in self.write:
            self.types[key] = type_
            self.write[key] = self.fresh.v("exchange_write", T.ptr(type_))
            self.read[key] = self.fresh.v("exchange_read", T.ptr(type_))
            self.vars += [self.write[key], self.read[key]]
        return self.write[key], self.read[key]

    def expand(self, blocks: list[ir.Block]) -> int:
        found = 0
        for b in blocks:
            out: list[ir.Instr] = []
            for i in b.instrs:
                if not (isinstance(i, ir.Intrinsic) and i.name in SHUFFLES and i.result is not None):
                    out.append(i)
                    continue
                found += 1
                out += self._one(i)
            b.instrs = out
        return found

    def _one(self, i: ir.Intrinsic) -> list[ir.Instr]:
        fresh, s = self.fresh, i.span
        value, other = i.args
        assert i.result is not None
        write, read = self.arrays(i.result.type)
        t, w = fresh.t(T.INT), fresh.t(T.ptr(i.result.type))
        out: list[ir.Instr] = [ir.Load(s, t, self.thread), ir.Load(s, w, write), ir.PtrStore(s, w, t, value)]
        if not isinstance(other, ir.Const):
            keep = fresh.v("shuffle_operand", T.INT)
            self.vars.append(keep)
            out.append(ir.Store(s, keep, other))
        out.append(ops.make(s, None, "gpu.barrier", []))
        t2, lane, base, n = (fresh.t(T.INT) for _ in range(4))
        out += [ir.Load(s, t2, self.thread), ir.BinOp(s, lane, "urem", t2, ir.Const(T.INT, 32)),
                ir.BinOp(s, base, "sub", t2, lane), ir.Load(s, n, self.count)]
        o: ir.Value = other
        if not isinstance(other, ir.Const):
            o = fresh.t(T.INT)
            out.append(ir.Load(s, o, keep))
        source = fresh.t(T.INT)
        op = {"gpu.shuffle_down": "add", "gpu.shuffle_up": "sub", "gpu.shuffle_xor": "xor"}.get(i.name)
        out.append(ir.BinOp(s, source, op, lane, o) if op else ir.BinOp(s, source, "urem", o, ir.Const(T.INT, 32)))
        at, low, high, inside, some, exists, where, r = (fresh.t(t_) for t_ in (
            T.INT, T.BOOL, T.BOOL, T.BOOL, T.BOOL, T.BOOL, T.INT, T.ptr(i.result.type)))
        out += [ir.BinOp(s, at, "add", base, source), ir.Cmp(s, low, "sge", source, ir.Const(T.INT, 0)),
                ir.Cmp(s, high, "slt", source, ir.Const(T.INT, 32)), ir.Cmp(s, inside, "slt", at, n),
                ir.Select(s, some, low, high, ir.Const(T.BOOL, False)),
                ir.Select(s, exists, some, inside, ir.Const(T.BOOL, False)),
                ir.Select(s, where, exists, at, t2), ir.Load(s, r, read), ir.PtrLoad(s, i.result, r, where)]
        return out


class _Builder:
    """Straight-line IR for the companion's own blocks."""

    def __init__(self, fresh: _Fresh, span: Span | None):
        self.fresh, self.span = fresh, span

    def load(self, block: ir.Block, var: ir.Var) -> ir.Temp:
        x = self.fresh.t(var.type)
        block.instrs.append(ir.Load(self.span, x, var))
        return x

    def binop(self, block: ir.Block, op: str, a: ir.Value, b: ir.Value) -> ir.Temp:
        x = self.fresh.t(a.type)
        block.instrs.append(ir.BinOp(self.span, x, op, a, b))
        return x

    def cmp(self, block: ir.Block, pred: str, a: ir.Value, b: ir.Value) -> ir.Temp:
        x = self.fresh.t(T.BOOL)
        block.instrs.append(ir.Cmp(self.span, x, pred, a, b))
        return x

    def intrinsic(self, block: ir.Block, type_: T.Type, name: str, **attrs: Any) -> ir.Temp:
        x = self.fresh.t(type_)
        block.instrs.append(ops.make(self.span, x, name, [], **attrs))
        return x

    def counted(self, before: ir.Block, var: ir.Var, stop: ir.Value, what: str,
                after: ir.Block) -> tuple[ir.Block, ir.Block, ir.Temp]:
        """`for var in range(stop)` from `before` on, going to `after` when done: (its body, where
        the body's end jumps, the counter's value in the body)."""
        head, body, latch = (self.fresh.block(f"{what}.{w}") for w in ("head", "body", "next"))
        zero = ir.Const(T.INT, 0)
        before.instrs.append(ir.Store(self.span, var, zero))
        before.term = ir.Jump(self.span, head)
        at = self.load(head, var)
        head.term = ir.Branch(self.span, self.cmp(head, "slt", at, stop), body, after)
        value = self.load(body, var)
        at = self.load(latch, var)
        latch.instrs.append(ir.Store(self.span, var, self.binop(latch, "add", at, ir.Const(T.INT, 1))))
        latch.term = ir.Jump(self.span, head)
        return body, latch, value


class _IndexReads:
    """Rewrites a thread loop's instructions so indices and shared arrays are read from the loop's
    counters and the values its entry computed once, not from the scheduler's state."""

    def __init__(self, counters: dict[str, ir.Var], thread: ir.Var, uniform: dict[tuple[str, str], ir.Var],
                 shared: dict[tuple[Any, ...], ir.Var], fresh: _Fresh):
        self.counters, self.thread, self.uniform, self.shared, self.fresh = counters, thread, uniform, shared, fresh

    def __call__(self, instrs: list[ir.Instr]) -> list[ir.Instr]:
        out: list[ir.Instr] = []
        for i in instrs:
            if not (isinstance(i, ir.Intrinsic) and i.result is not None):
                out.append(i)
                continue
            name, r, s = i.name, i.result, i.span
            if name == "gpu.thread_idx":
                out.append(ir.Load(s, r, self.counters[i.attrs["axis"]]))
            elif name == "gpu.global_idx":
                a = i.attrs["axis"]
                bi, bd, ti, base = (self.fresh.t(T.INT) for _ in range(4))
                out += [ir.Load(s, bi, self.uniform["block_idx", a]), ir.Load(s, bd, self.uniform["block_dim", a]),
                        ir.Load(s, ti, self.counters[a]), ir.BinOp(s, base, "mul", bi, bd),
                        ir.BinOp(s, r, "add", base, ti)]
            elif name == "gpu.lane_id":  # threads are numbered x first, in warps of 32
                t = self.fresh.t(T.INT)
                out += [ir.Load(s, t, self.thread), ir.BinOp(s, r, "urem", t, ir.Const(T.INT, 32))]
            elif name in ("gpu.shared_array", "gpu.dynamic_shared"):
                out.append(ir.Load(s, r, self.shared[name, tuple(sorted(i.attrs.items()))]))
            elif name.startswith("gpu.") and name[4:] in _UNIFORM_INDICES:
                out.append(ir.Load(s, r, self.uniform[name[4:], i.attrs["axis"]]))
            else:
                out.append(i)
        return out


def _in_order(entry: ir.Block) -> list[ir.Block]:
    """The blocks reachable from `entry`, each after the block it was first reached from (so after
    every block that dominates it)."""
    order, seen, stack = [], {id(entry)}, [entry]
    while stack:
        b = stack.pop()
        order.append(b)
        for s in reversed(b.successors()):
            if id(s) not in seen:
                seen.add(id(s))
                stack.append(s)
    return order


def _regions(f: ir.Function, by_symbol: dict[str, ir.Function],
             synchronizing: set[str]) -> ir.Function | None:
    """The companion: the kernel's body cut at its barriers, one copy per point a thread can resume at
    (the entry, after barrier k), each copy the body of a plain counted loop nest over the block's
    threads (z, y, x; x innermost, the thread's `thread_idx.x` its counter), as the OpenCL CPU runtimes
    run work-groups. A round runs the copy of the point where every live thread waits (each thread's
    resume point is in a per-thread array: -1 once it has returned); a barrier keeps what lives after
    it in per-thread arrays and notes the point; a census after the round picks the next round's point,
    or ends the block, or finds threads waiting at different barriers (a deadlock, reported by the
    scheduler's census as the coroutines' is)."""
    fresh = _Fresh(f)
    taken = _inline(_clone(f.blocks), by_symbol, synchronizing, fresh)
    if taken is None or any(_outside_thread_loops(i) for b in taken[0] for i in b.instrs):
        return None
    plan = _Plan(f, *taken, fresh)
    return _Companion(f, plan, fresh).build() if plan.runnable else None


def _outside_thread_loops(i: ir.Instr) -> bool:
    """What a thread loop cannot run: a variable's address, a launch, a warp operation other than a
    shuffle (barriers end the loops' rounds)."""
    return isinstance(i, (ir.AddressOf, ir.BindRef, ir.Launch, ir.ParallelFor)) or (
        ops.synchronizes(i) and not (isinstance(i, ir.Intrinsic) and (i.name == "gpu.barrier"
                                                                     or i.name in SHUFFLES)))


class _Plan:
    """What the companion is built from: the kernel's blocks cut at its barriers, which of its values
    are the same for every thread, and what each barrier keeps, per thread or once (`spills`,
    `shared_spills`: the slot of each). `runnable` is False where the thread loops cannot run it."""

    def __init__(self, f: ir.Function, blocks: list[ir.Block], inlined: set[int], fresh: _Fresh):
        self.tv, self.count_v = fresh.v("thread", T.INT), fresh.v("threads", T.INT)
        self.shuffles = _Shuffles(fresh, self.tv, self.count_v)
        self.warps = self.shuffles.expand(blocks)
        self.blocks, self.barriers = _split_at_barriers(blocks, fresh)
        self.polled = _strip_region_polls(self.blocks, self.barriers)
        self.runnable = self._only_runnable_code(inlined)
        if not self.runnable:
            return
        stored = {i.var for b in self.blocks for i in b.instrs if isinstance(i, ir.Store)}
        stored |= {v.var for b in self.blocks for i in b.instrs for v in operands(i) if isinstance(v, ir.Ref)}
        # A parameter the kernel never assigns is the same for every thread: set once, never kept.
        self.uniform = [p for p in f.params if p not in stored]
        self.recompute = _recomputable(self.blocks, self.uniform)
        _demote_cross_block_temps(self.blocks, fresh)  # (its variables are among `fresh.made`)
        live = _live_in(self.blocks)
        self.needs_state = _needs_thread_state(self.blocks)
        self.in_any_order = _runs_in_any_order(self.blocks)
        # What lives across a barrier: per thread, or once for all threads when it is uniform.
        # Set by the companion itself, around the thread loops: never kept per thread.
        companion_level = {self.tv, self.count_v, *self.shuffles.write.values(), *self.shuffles.read.values()}
        same_for_all, self.controlled = uniform_vars(self.blocks, set(self.uniform) | (companion_level - {self.tv}))
        # Shuffles wait like barriers, for the whole block: right only where every thread of the block
        # reaches every wait (none under a branch on a thread-dependent condition, none after others ended).
        if self.warps and any(id(before) in self.controlled for before, _, _ in self.barriers):
            self.runnable = False
            return
        self._spill_slots(live, companion_level, same_for_all)

    def _only_runnable_code(self, inlined: set[int]) -> bool:
        """What came from a function's body must not raise or call: a traceback would lack its frame.
        Shuffles do not run with --memcheck or --racecheck."""
        if any(id(b) in inlined and (isinstance(b.term, (ir.Raise, ir.Reraise))
                                     or any(isinstance(i, ir.Call) for i in b.instrs))
               for b in _reachable(self.blocks[0], self.blocks)):
            return False
        return not (self.warps and any(isinstance(i, ir.Intrinsic) and i.name.startswith(("memcheck", "racecheck"))
                                       for b in self.blocks for i in b.instrs))

    def _spill_slots(self, live: dict[int, set[ir.Var]], companion_level: set[ir.Var],
                     same_for_all: set[ir.Var]) -> None:
        """What each barrier keeps (`per_barrier`: per thread, `per_barrier_uniform`: once), and the
        slot of each such variable's array."""
        recomputed = {v for v, _, _ in self.recompute}
        self.spills: dict[ir.Var, int] = {}
        self.shared_spills: dict[ir.Var, int] = {}
        self.per_barrier: list[list[ir.Var]] = []
        self.per_barrier_uniform: list[list[ir.Var]] = []
        for _, rest, _ in self.barriers:
            keep = sorted((v for v in live[id(rest)] if v.global_symbol is None and v not in self.uniform
                           and v not in recomputed and v not in companion_level),
                          key=lambda v: v.id)
            for v in keep:
                if v in same_for_all:
                    self.shared_spills.setdefault(v, len(self.shared_spills))
                else:
                    self.spills.setdefault(v, len(self.spills))
            self.per_barrier.append([v for v in keep if v not in same_for_all])
            self.per_barrier_uniform.append([v for v in keep if v in same_for_all])


class _Companion:
    """Builds the companion function of a `_Plan`, block by block: its entry (what every thread
    shares), the kernel's blocks ending at barriers and returns, a round's dispatch to the thread
    loop nest of its point, the census after each round, and the end."""

    def __init__(self, f: ir.Function, plan: _Plan, fresh: _Fresh):
        self.f, self.p, self.fresh, self.span = f, plan, fresh, f.span
        self.params = [fresh.v(p.name, p.type) for p in f.params]
        self.xv, self.yv, self.zv, self.point = (fresh.v(n, T.INT) for n in ("thread_x", "thread_y", "thread_z",
                                                                              "point"))
        self.cv, self.hi_v, self.lo_v, self.low_v = (fresh.v(n, T.INT) for n in ("c", "hi", "lo", "low"))
        self.all_v = fresh.v("all_alive", T.BOOL)
        self.read_v, self.write_v = fresh.v("read_slot", T.INT), fresh.v("write_slot", T.INT)
        self.B = _Builder(fresh, self.span)
        self.latch_mark = ir.Block("regions.latch")  # each copy's jumps to it go to its own thread loop's latch
        self.latches: list[ir.Block] = []  # the thread loops' (their x loops')

    def build(self) -> ir.Function | None:
        p, span = self.p, self.span
        entry = self._entry()
        # ---- the template every copy is made from: thread indices read from the loop's counters ----
        counters = dict(zip(_AXES, (self.xv, self.yv, self.zv), strict=True))
        self.serve = _IndexReads(counters, p.tv, self.uniform_index, self.shared, self.fresh)
        for b in p.blocks:
            b.instrs = self.serve(b.instrs)
        self._keep_at_barriers()
        self._end_at_returns()
        self.round_, self.census, self.leave = (self.fresh.block(w) for w in ("round", "census", "leave"))
        pick, dispatch = self._start_rounds(entry)
        if not self._dispatch(dispatch):
            return None
        self._take_census(pick)
        if not p.needs_state and p.in_any_order:  # (a call or a check reads the scheduler's per-thread state)
            self.leave.instrs.append(ops.make(span, None, "gpu.region_parallel", [], latches=tuple(self.latches)))
        self.leave.term = ir.Ret(span, None)
        return self._function(entry)

    # ---- entry: what every thread shares ----
    def _entry(self) -> ir.Block:
        entry = self.fresh.block("entry")
        self.n = self.B.intrinsic(entry, T.INT, "gpu.region_threads")
        entry.instrs.append(ir.Store(self.span, self.p.count_v, self.n))
        self.dims = [self.B.intrinsic(entry, T.INT, "gpu.block_dim", axis=a) for a in _AXES]
        self._spill_arrays(entry)
        for prm, arg in zip(self.f.params, self.params, strict=True):
            if prm in self.p.uniform:
                x = self.fresh.t(prm.type)
                entry.instrs += [ir.Load(self.span, x, arg), ir.Store(self.span, prm, x)]
        self._read_once(entry)
        return entry

    def _spill_arrays(self, entry: ir.Block) -> None:
        """The per-thread arrays (`arrays`), the uniform values' (`uniform_arrays`), the threads' resume
        points (`resume`) and the shuffles' exchange arrays (`exchange`), in slot order."""
        p, fresh, span = self.p, self.fresh, self.span
        self.arrays: dict[ir.Var, ir.Temp] = {}
        for v, slot in p.spills.items():
            self.arrays[v] = fresh.t(T.ptr(v.type))
            entry.instrs.append(ops.make(span, self.arrays[v], "gpu.region_spill", [], slot=slot))
        # A uniform value kept across a barrier: two slots, one read in a round, the other written (every
        # thread writes the same value, which the next round reads), swapped after each round.
        self.uniform_arrays: dict[ir.Var, ir.Temp] = {}
        for v, slot in p.shared_spills.items():
            self.uniform_arrays[v] = fresh.t(T.ptr(v.type))
            entry.instrs.append(ops.make(span, self.uniform_arrays[v], "gpu.region_spill", [],
                                         slot=len(p.spills) + slot))
        self.resume = fresh.t(T.ptr(T.INT))
        entry.instrs.append(ops.make(span, self.resume, "gpu.region_spill", [],
                                     slot=len(p.spills) + len(p.shared_spills)))
        self.exchange: dict[str, tuple[ir.Temp, ir.Temp]] = {}
        for type_key, type_ in p.shuffles.types.items():
            pair = (fresh.t(T.ptr(type_)), fresh.t(T.ptr(type_)))
            for k, x in enumerate(pair):
                entry.instrs.append(ops.make(span, x, "gpu.region_spill", [],
                                             slot=len(p.spills) + len(p.shared_spills) + 1 + 2 * len(self.exchange)
                                             + k))
            self.exchange[type_key] = pair

    def _read_once(self, entry: ir.Block) -> None:
        """Uniform indices and shared arrays, once: the loop's body then reads no scheduler state."""
        fresh, span = self.fresh, self.span
        self.shared: dict[tuple[Any, ...], ir.Var] = {}
        for b in self.p.blocks:
            for i in b.instrs:
                if isinstance(i, ir.Intrinsic) and i.name in ("gpu.shared_array", "gpu.dynamic_shared") \
                        and i.result is not None:
                    key = (i.name, tuple(sorted(i.attrs.items())))
                    if key not in self.shared:
                        self.shared[key] = var = fresh.v("shared", i.result.type)
                        x = fresh.t(i.result.type)
                        entry.instrs += [ir.Intrinsic(i.span, x, i.name, [], dict(i.attrs)), ir.Store(span, var, x)]
        self.uniform_index: dict[tuple[str, str], ir.Var] = {}
        for kind in _UNIFORM_INDICES:
            for a in _AXES:
                var = self.uniform_index[kind, a] = fresh.v(f"{kind}_{a}", T.INT)
                entry.instrs.append(ir.Store(span, var, self.B.intrinsic(entry, T.INT, f"gpu.{kind}", axis=a)))

    # ---- the kernel's blocks: where a thread stops ----
    def _keep_at_barriers(self) -> None:
        """Each barrier: keep what lives after it, note where the thread goes on, go to the next thread."""
        p, fresh = self.p, self.fresh
        for k, ((before, _, barrier), keep) in enumerate(zip(p.barriers, p.per_barrier, strict=True)):
            assert before.instrs[-1] is barrier
            before.instrs.pop()
            t = fresh.t(T.INT)
            before.instrs.append(ir.Load(barrier.span, t, p.tv))
            for v in keep:
                x = fresh.t(v.type)
                before.instrs += [ir.Load(barrier.span, x, v), ir.PtrStore(barrier.span, self.arrays[v], t, x)]
            for v in p.per_barrier_uniform[k]:
                x, w = fresh.t(v.type), fresh.t(T.INT)
                before.instrs += [ir.Load(barrier.span, x, v), ir.Load(barrier.span, w, self.write_v),
                                  ir.PtrStore(barrier.span, self.uniform_arrays[v], w, x)]
            before.instrs.append(ir.PtrStore(barrier.span, self.resume, t, ir.Const(T.INT, k + 1)))
            before.term = ir.Jump(barrier.span, self.latch_mark)

    def _end_at_returns(self) -> None:
        """A thread that returns has ended."""
        for b in self.p.blocks:
            if isinstance(b.term, ir.Ret):
                where = b.term.span
                t = self.fresh.t(T.INT)
                b.instrs += [ir.Load(where, t, self.p.tv), ir.PtrStore(where, self.resume, t, ir.Const(T.INT, -1))]
                b.term = ir.Jump(where, self.latch_mark)

    # ---- a round: poll Ctrl-C once, run the thread loop of the point every live thread waits at ----
    def _start_rounds(self, entry: ir.Block) -> tuple[ir.Block, ir.Block]:
        """Every thread starts at the entry; each round begins at `pick` and goes on from the block
        returned second, which dispatches to the round's thread loop."""
        span, B = self.span, self.B
        body, latch, c = B.counted(entry, self.cv, self.n, "start", self.round_)
        body.instrs.append(ir.PtrStore(span, self.resume, c, ir.Const(T.INT, 0)))
        body.term = ir.Jump(span, latch)
        self.round_.instrs += [ir.Store(span, self.point, ir.Const(T.INT, 0)),
                               ir.Store(span, self.all_v, ir.Const(T.BOOL, True)),
                               ir.Store(span, self.read_v, ir.Const(T.INT, 0)),
                               ir.Store(span, self.write_v, ir.Const(T.INT, 1))]
        pick = self.fresh.block("pick")
        self.round_.term = ir.Jump(span, pick)
        dispatch = pick
        if self.p.polled:
            hit = self.fresh.t(T.BOOL)
            pick.instrs.append(ops.make(span, hit, "interrupt_poll", []))
            stop, go_on = self.fresh.block("interrupted"), self.fresh.block("polled")
            pick.term = ir.Branch(span, hit, stop, go_on)
            stop.term = ir.Reraise(span, None)
            dispatch = go_on
        return pick, dispatch

    def _swap_exchange(self, dispatch: ir.Block) -> None:
        """This round writes one array of each pair and reads the other."""
        shuffles = self.p.shuffles
        for type_key in shuffles.types:
            first, second = self.exchange[type_key]
            for var, parity in ((shuffles.write[type_key], self.write_v), (shuffles.read[type_key], self.read_v)):
                one = self.B.cmp(dispatch, "eq", self.B.load(dispatch, parity), ir.Const(T.INT, 1))
                x = self.fresh.t(var.type)
                dispatch.instrs += [ir.Select(self.span, x, one, second, first), ir.Store(self.span, var, x)]

    def _dispatch(self, dispatch: ir.Block) -> bool:
        """Dispatch on the round's point and on whether every thread is alive. A thread ends while others
        go on only where a region reaches both a `return` and a barrier; otherwise no checked loops.
        False where shuffles would wait with threads that have ended."""
        p, span, B = self.p, self.span, self.B
        at_point = B.load(dispatch, self.point)
        self._swap_exchange(dispatch)
        everyone = B.load(dispatch, self.all_v)
        starts = [p.blocks[0]] + [rest for _, rest, _ in p.barriers]
        ends_apart = any(_ends_and_waits(start, p.blocks, self.latch_mark, self.resume, p.controlled)
                         for start in starts)
        if p.warps and ends_apart:
            return False
        test = dispatch
        for k, start in enumerate(starts):
            plain = self._nest(k, start, checked=False)
            target = plain
            if ends_apart:
                target = self.fresh.block(f"alive{k}")
                target.term = ir.Branch(span, everyone, plain, self._nest(k, start, checked=True))
            if k == len(starts) - 1:
                test.term = ir.Jump(span, target)
                break
            following = self.fresh.block("dispatch")
            test.term = ir.Branch(span, B.cmp(test, "eq", at_point, ir.Const(T.INT, k)), target, following)
            test = following
        return True

    def _nest(self, k: int, start: ir.Block, checked: bool) -> ir.Block:
        """The loop nest over the block's threads (z, y, x) running the copy of the kernel from `start`.
        `checked`: some threads have ended, and each is skipped (otherwise there is no test in the loop,
        so LLVM's loop vectorizer runs the x loop across threads without masks)."""
        p, span, B, fresh = self.p, self.span, self.B, self.fresh
        what = f"{k}{'c' if checked else ''}"
        top = fresh.block(f"threads{what}")
        kept = []  # the uniform values kept at the barrier the round starts after: read once, before the loop
        for v in p.per_barrier_uniform[k - 1] if k else []:
            r, value = fresh.t(T.INT), fresh.t(v.type)
            top.instrs += [ir.Load(span, r, self.read_v), ir.PtrLoad(span, value, self.uniform_arrays[v], r)]
            kept.append((v, value))
        zbody, znext, _ = B.counted(top, self.zv, self.dims[2], f"z{what}", self.census)
        ybody, ynext, _ = B.counted(zbody, self.yv, self.dims[1], f"y{what}", znext)
        xbody, xnext, x = B.counted(ybody, self.xv, self.dims[0], f"x{what}", ynext)
        self.latches.append(xnext)
        t = self._enter_thread(xbody, x)
        go = fresh.block(f"go{what}")
        if checked:
            at = fresh.t(T.INT)
            xbody.instrs.append(ir.PtrLoad(span, at, self.resume, t))
            xbody.term = ir.Branch(span, B.cmp(xbody, "sge", at, ir.Const(T.INT, 0)), go, xnext)
        else:
            xbody.term = ir.Jump(span, go)
        part = _reachable(start, p.blocks)
        copy_ = _copy(part, fresh, f"r{what}", {id(self.latch_mark): xnext})
        if k == 0:
            for prm, arg in zip(self.f.params, self.params, strict=True):
                if prm not in p.uniform:
                    start_value = fresh.t(prm.type)
                    go.instrs += [ir.Load(span, start_value, arg), ir.Store(span, prm, start_value)]
        else:
            self._resume_values(go, k, kept)
        go.term = ir.Jump(span, copy_[part.index(start)])
        return top

    def _enter_thread(self, xbody: ir.Block, x: ir.Temp) -> ir.Temp:
        """The thread's number from the loop counters (x fastest), set as the current thread."""
        B = self.B
        z, y = B.load(xbody, self.zv), B.load(xbody, self.yv)
        t = B.binop(xbody, "add", B.binop(xbody, "mul", B.binop(xbody, "add", B.binop(xbody, "mul", z, self.dims[1]),
                                                                    y), self.dims[0]), x)
        xbody.instrs.append(ir.Store(self.span, self.p.tv, t))
        if self.p.needs_state:  # the scheduler's `cur` and indices, for what reads them (calls, checks)
            xbody.instrs.append(ops.make(self.span, self.fresh.t(T.INT), "gpu.region_enter", [t]))
        return t

    def _resume_values(self, go: ir.Block, k: int, kept: list[tuple[ir.Var, ir.Temp]]) -> None:
        """After barrier k: what the thread kept, the uniform values read before the loop, and the
        values recomputed from indices."""
        span = self.span
        tt = self.B.load(go, self.p.tv)
        for v in self.p.per_barrier[k - 1]:
            value = self.fresh.t(v.type)
            go.instrs += [ir.PtrLoad(span, value, self.arrays[v], tt), ir.Store(span, v, value)]
        go.instrs += [ir.Store(span, v, value) for v, value in kept]
        redo: list[ir.Instr] = []
        for v, chain, result in self.p.recompute:  # indices-only values: recomputed, not kept
            temps: dict[int, ir.Value] = {}
            for i in chain:
                i2: Any = copy.copy(i)
                if isinstance(i2, ir.Intrinsic):
                    i2.args, i2.attrs = list(i2.args), dict(i2.attrs)
                _replace_operands(i2, temps)
                old_result = i2.result  # (copied: the original instruction keeps its own)
                temps[old_result.id] = i2.result = self.fresh.t(old_result.type)
                redo.append(i2)
            stored = temps.get(result.id, result) if isinstance(result, ir.Temp) else result
            redo.append(ir.Store(span, v, stored))
        go.instrs += self.serve(redo)

    # ---- the census: the next round's point, the end, or threads waiting apart ----
    def _take_census(self, pick: ir.Block) -> None:
        """Reductions LLVM vectorizes: the largest resume point, the smallest of the live threads' (-1:
        ended), the smallest of all (negative once one has ended)."""
        span, B, fresh, census = self.span, self.B, self.fresh, self.census
        big = ir.Const(T.INT, 1 << 62)
        census.instrs += [ir.Store(span, self.hi_v, ir.Const(T.INT, -1)), ir.Store(span, self.lo_v, big),
                          ir.Store(span, self.low_v, big)]
        looked = fresh.block("looked")
        cbody, clatch, c = B.counted(census, self.cv, self.n, "census", looked)
        at = fresh.t(T.INT)
        cbody.instrs.append(ir.PtrLoad(span, at, self.resume, c))

        def track(var: ir.Var, pred: str, value: ir.Value) -> None:
            old = B.load(cbody, var)
            new = fresh.t(T.INT)
            cbody.instrs += [ir.Select(span, new, B.cmp(cbody, pred, value, old), value, old), ir.Store(span, var, new)]

        live_at = fresh.t(T.INT)
        cbody.instrs.append(ir.Select(span, live_at, B.cmp(cbody, "sge", at, ir.Const(T.INT, 0)), at, big))
        track(self.hi_v, "sgt", at)
        track(self.lo_v, "slt", live_at)
        track(self.low_v, "slt", at)
        cbody.term = ir.Jump(span, clatch)
        self._next_round(looked, pick)

    def _next_round(self, looked: ir.Block, pick: ir.Block) -> None:
        """After the census: every thread ended, threads waiting apart, or the next round."""
        span, B, fresh = self.span, self.B, self.fresh
        hi, lo = B.load(looked, self.hi_v), B.load(looked, self.lo_v)
        ended, check_apart, again = fresh.block("ended"), fresh.block("check_apart"), fresh.block("again")
        looked.term = ir.Branch(span, B.cmp(looked, "slt", hi, ir.Const(T.INT, 0)), ended, check_apart)
        stuck = fresh.block("stuck")
        check_apart.term = ir.Branch(span, B.cmp(check_apart, "ne", lo, hi), stuck, again)
        low = B.load(again, self.low_v)
        again.instrs += [ir.Store(span, self.point, hi),
                         ir.Store(span, self.all_v, B.cmp(again, "sge", low, ir.Const(T.INT, 0)))]
        written = B.load(again, self.write_v)
        again.instrs += [ir.Store(span, self.read_v, written),
                         ir.Store(span, self.write_v, B.binop(again, "sub", ir.Const(T.INT, 1), written))]
        again.term = ir.Jump(span, pick)
        # Every thread has ended: tell the scheduler's census so.
        ebody, elatch, c = B.counted(ended, self.cv, self.n, "ended", self.leave)
        ebody.instrs.append(ops.make(span, None, "gpu.region_done", [c]))
        ebody.term = ir.Jump(span, elatch)
        self._mark_waits(stuck)

    def _mark_waits(self, stuck: ir.Block) -> None:
        """Threads wait at different barriers: mark each where it waits; the scheduler reports the deadlock."""
        span, fresh = self.span, self.fresh
        sbody, slatch, c = self.B.counted(stuck, self.cv, self.n, "stuck", self.leave)
        at = fresh.t(T.INT)
        sbody.instrs.append(ir.PtrLoad(span, at, self.resume, c))
        mark = sbody
        for k, (_, _, barrier) in enumerate(self.p.barriers):
            here, following = fresh.block("waits_here"), fresh.block("mark")
            mark.term = ir.Branch(span, self.B.cmp(mark, "eq", at, ir.Const(T.INT, k + 1)), here, following)
            here.instrs.append(ops.make(barrier.span, None, "gpu.region_wait", [c], point=k + 1))
            here.term = ir.Jump(span, slatch)
            mark = following
        mark.instrs.append(ops.make(span, None, "gpu.region_done", [c]))
        mark.term = ir.Jump(span, slatch)

    def _function(self, entry: ir.Block) -> ir.Function:
        f, leave = self.f, self.leave
        g = ir.Function(region_symbol(f.symbol), f.name, f.file, self.params, T.NONE, f.span)
        # The kernel's, and what this pass made: its own, the demoted temporaries, the inlined functions'.
        g.vars = list(f.params) + [v for v in f.vars if v not in f.params] + [v for v in self.fresh.made
                                                                               if v not in self.params]
        # `leave` last: lowering its `gpu.region_parallel` marks the thread loops, lowered before it.
        g.blocks = [b for b in _in_order(entry) if b is not leave] + [leave]
        g.raises = f.raises or self.p.polled
        g.exported = False
        g.fastmath, g.noalias = f.fastmath, f.noalias
        return g
