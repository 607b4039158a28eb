"""Which values every thread of a GPU block holds the same (a divergence analysis on pyx IR).

The thread loops of a kernel's `$regions` companion (ir/gpu_regions.py) read the result: a value
that lives across a barrier is kept once for the whole block when it is uniform, otherwise in a
per-thread array; and the blocks a branch on a thread-dependent condition controls are where a
shuffle's wait is wrong for the whole block (not every thread reaches it) and where threads may end
while others wait. The analysis sees only pyx IR (no target, no codegen), so it is tested on its
own (tests/ir/test_x_divergence.py) with small hand-built functions.
"""
from __future__ import annotations

from . import nodes as ir
from .verify import operands

# GPU indices the same for every thread of a block (the companion computes them once, in its entry).
UNIFORM_INDICES = ("block_idx", "block_dim", "grid_dim")
# Operations whose result is the same for every thread of a block: the block's indices and the
# block's shared arrays (one array per block, so the same pointer in every thread).
UNIFORM_OPS = {"gpu.shared_array", "gpu.dynamic_shared", *(f"gpu.{k}" for k in UNIFORM_INDICES)}


def staying(b: ir.Block) -> list[ir.Block]:
    """The successors of `b` but those that raise out of the kernel: a thread raising ends its whole
    launch, so which threads would take such a branch does not matter (the Ctrl-C polls' branches)."""
    return [s for s in b.successors()
            if not (isinstance(s.term, (ir.Raise, ir.Reraise)) and s.term.handler is None)]


def post_dominators(blocks: list[ir.Block]) -> dict[int, set[int]]:
    """Each block's post-dominators (by id), with one exit after every block that leaves."""
    ids = [id(b) for b in blocks]
    succ = {id(b): [id(s) for s in staying(b)] for b in blocks}
    everything = set(ids)
    pdom = {i: (set(everything) if succ[i] else {i}) for i in ids}
    changed = True
    while changed:
        changed = False
        for i in reversed(ids):
            if not succ[i]:
                continue
            new = set.intersection(*(pdom[s] for s in succ[i])) | {i}
            if new != pdom[i]:
                pdom[i], changed = new, True
    return pdom


def uniform_vars(blocks: list[ir.Block], known: set[ir.Var]) -> tuple[set[ir.Var], set[int]]:
    """The variables every thread of a block holds the same value of wherever it is (optimistic and
    iterated): every store stores a value computed from constants, uniform variables and the block's
    own indices, in a block no branch on a thread-dependent condition decides whether to run (outside
    every such branch's region: the blocks it reaches before its immediate post-dominator). `known`:
    uniform, never stored (the parameters the kernel does not assign; the others start as the
    launch's arguments, the same for every thread). Also returns the blocks (by id) that not every
    thread may run."""
    stores: dict[ir.Var, list[tuple[ir.Block, ir.Store]]] = {}
    escaped: set[ir.Var] = set()
    for b in blocks:
        for i in b.instrs:
            if isinstance(i, ir.Store):
                stores.setdefault(i.var, []).append((b, i))
            for v in operands(i):
                if isinstance(v, ir.Ref):
                    escaped.add(v.var)
    pdom = post_dominators(blocks)
    uniform = {v for v in stores if v.global_symbol is None and v not in escaped} | set(known)
    while True:
        temps: set[int] = set()

        def same(v: ir.Value, temps: set[int] = temps) -> bool:
            return isinstance(v, ir.Const) or (isinstance(v, ir.Temp) and v.id in temps)

        divergent_at: list[ir.Block] = []
        for b in blocks:
            for i in b.instrs:
                r = getattr(i, "result", None)
                if r is None:
                    continue
                if isinstance(i, ir.Load):
                    ok = i.var in uniform
                elif isinstance(i, ir.Intrinsic):
                    ok = i.name in UNIFORM_OPS
                elif isinstance(i, (ir.BinOp, ir.Cmp, ir.Cast, ir.Select)):
                    ok = all(same(x) for x in operands(i))
                else:
                    ok = False
                if ok:
                    temps.add(r.id)
            leaving = staying(b)
            if len(leaving) > 1 and not (isinstance(b.term, ir.Branch) and same(b.term.cond)
                                         and len(b.successors()) == 2):
                divergent_at.append(b)
        controlled: set[int] = set()
        for d in divergent_at:
            # The immediate post-dominator: the post-dominator (other than d) every other one post-dominates.
            others = pdom[id(d)] - {id(d)}
            join = next((p for p in others if others <= pdom[p]), None)
            seen, stack = set(), list(staying(d))
            while stack:
                s = stack.pop()
                if id(s) == join or id(s) in seen:
                    continue
                seen.add(id(s))
                stack += staying(s)
            controlled |= seen
        new = {v for v in uniform if v in known or all(id(b) not in controlled and same(i.value)
                                                        for b, i in stores.get(v, []))}
        if new == uniform:
            return uniform, controlled
        uniform = new
