"""The thread loops of a kernel's `$regions` companion (ir/gpu_regions.py) told to LLVM as parallel loops.

Between two barriers the threads of a block are independent: two threads touching the same
location, one of them writing, with no barrier between is a data race, whose result a GPU leaves
undefined (`--racecheck` reports those in shared memory). So a thread loop carries no dependence
from one thread to the next, as the OpenCL CPU runtimes assume of their work-item loops. Saying so
(`llvm.loop.parallel_accesses` on the loop, its memory accesses in one access group) lets LLVM's
loop vectorizer run the loop across threads without the runtime checks of which pointer may
overlap which: those checks alone cost more than a 16-thread row of a block, and LLVM then keeps to
the scalar loop. The per-thread arrays a barrier keeps values in are indexed by the thread, so
they cannot overlap between threads either.

The companion's `gpu.region_parallel` operation, the first of its last block, names the latches
of its thread loops (their `x` loops, the innermost); when it is lowered every block before it has
been, so each loop's blocks (the latch, its head, and what reaches the latch without passing the
head) are there to mark, including the blocks the lowering of an operation added itself.
"""
from __future__ import annotations

from llvmlite import ir as ll


class _Node(ll.values.MDValue):
    """A `distinct` metadata node, compared by identity (an access group has no operands, so two
    would be equal and merged as MDValues), which may name itself (a loop's ID must)."""

    def __init__(self, module: ll.Module, operands: list):
        super().__init__(module, operands, name=str(len(module.metadata)))

    def descr(self, buf):
        buf += ("distinct ",)
        super().descr(buf)

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)


def _successors(block: ll.Block) -> list[ll.Block]:
    term = block.terminator
    return [op for op in term.operands if isinstance(op, ll.Block)] if term is not None else []


def _loop_blocks(fn: ll.Function, latch: ll.Block) -> list[ll.Block]:
    """The natural loop of `latch`'s back edge: its head (the latch's one successor) and every block
    reaching the latch without passing through the head."""
    (head,) = _successors(latch)
    preds: dict[int, list[ll.Block]] = {id(b): [] for b in fn.blocks}
    for b in fn.blocks:
        for s in _successors(b):
            preds[id(s)].append(b)
    found, stack = {id(head): head, id(latch): latch}, [latch]
    while stack:
        for p in preds[id(stack.pop())]:
            if id(p) not in found:
                found[id(p)] = p
                stack.append(p)
    return list(found.values())


_MEMORY = (ll.LoadInstr, ll.StoreInstr, ll.instructions.AtomicRMW, ll.instructions.CmpXchg, ll.CallInstr)


def mark_parallel(cg, latches: tuple) -> None:
    """Mark each thread loop whose latch (a block of the pyx function) is given: every instruction
    that may touch memory in one access group of the loop's, and the latch's branch with the loop ID
    listing it as parallel."""
    module = cg.mg.module
    for block_of_f in latches:
        latch = cg.blocks[block_of_f]
        group = _Node(module, [])
        for block in _loop_blocks(cg.fn, latch):
            for instr in block.instructions:
                if isinstance(instr, _MEMORY):
                    instr.set_metadata("llvm.access.group", group)
        parallel = _Node(module, [ll.MetaDataString(module, "llvm.loop.parallel_accesses"), group])
        loop_id = _Node(module, [])
        loop_id.operands = (loop_id, parallel)
        latch.terminator.set_metadata("llvm.loop", loop_id)
