"""`--racecheck`: shared-memory races of GPU code found on the CPU target.

Two threads of a block race when one writes a shared element and the other reads or writes it
with no `barrier()` between the two accesses: on a GPU the result depends on timing. The CPU
target runs a block's threads in a fixed order, so such a kernel gives one answer there, often
the "right" one (a reduction missing its barrier sums correctly on the CPU). This pass makes the
race an error instead: before every load or store through a shared-memory pointer (address space
3) of the kernels and the functions they call, a `racecheck` operation asks the runtime
(codegen/racecheck.py) whether another thread of the block touched the same bytes since the last
barrier, one of the two accesses a write; if so, the launch raises `RuntimeError` naming the
kernel, the array and element, both threads and both source lines. Before every `barrier()` a
`racecheck.barrier` counts the barriers the thread has passed: accesses of two threads are
ordered exactly when they happened after different numbers of barriers (a barrier releases no
thread before all live ones arrive, in both the thread loops and the coroutines).

Atomics are not checked (they do not race with each other), nor global memory. The pass runs
before `infer_raises`, since a checked access may now raise, and before `gpu_regions`, which
copies the checked kernel into its thread loops.
"""
from __future__ import annotations

from typing import cast

from .. import types as T
from . import nodes as ir
from . import ops
from .memcheck import access, insert_checks

SHARED = 3  # the address space of shared memory


def _shared_access(instr: ir.Instr) -> tuple[ir.Value, ir.Value, int, bool] | None:
    if not isinstance(instr, (ir.PtrLoad, ir.PtrStore)):
        return None  # the atomics: not races
    if cast(T.PtrType, instr.ptr.type).address_space != SHARED:
        return None
    return access(instr)


def _barrier_count(instr: ir.Instr) -> list[ir.Instr]:
    if isinstance(instr, ir.Intrinsic) and instr.name == "gpu.barrier":
        return [ops.make(instr.span, None, "racecheck.barrier", [])]
    return []


def insert_race_checks(module: ir.Module) -> ir.Module:
    return insert_checks(module, _shared_access, "racecheck", ("race", "norace"), before=_barrier_count)
