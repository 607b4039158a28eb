"""LLVM IR text -> optimized module, assembly, object code, PTX."""
from __future__ import annotations

import contextlib
import threading

import llvmlite.binding as llvm

from .target import Target, init_llvm


def parse_and_optimize(llvm_ir: str, target: Target, opt: int, tm=None):
    init_llvm()
    module = llvm.parse_assembly(llvm_ir)
    module.verify()
    if not target.host:
        from .libdevice import link_libdevice, uses_libdevice

        if uses_libdevice(module):
            link_libdevice(module)
    tm = tm or target.target_machine(opt=opt)
    # The target's layout, before any pass folds a size or an offset: without one LLVM assumes its
    # default, where an i64 is 4-byte aligned, so `{i64, i64, {i64}, i1}` would be 28 bytes to the
    # optimizer and 32 to the code generator, and the elements of a List of them would overlap.
    module.data_layout = str(tm.target_data)
    if target.host:
        from .runtime_source import link_runtime, uses_runtime

        if uses_runtime(module):  # the runtime's helpers written in pyx (float repr)
            link_runtime(module, target, tm)
    opt = target.opt_level(opt)  # at least 1 on a device (Target.opt_level says why)
    if opt > 0:
        pto = llvm.create_pipeline_tuning_options(speed_level=opt)
        pto.loop_vectorization = opt >= 2
        pto.slp_vectorization = opt >= 2
        pb = llvm.create_pass_builder(tm, pto)
        pm = pb.getModulePassManager()
        if target.name == "cuda":
            with _side_exits_unroll():
                pm.run(module, pb)
        else:
            pm.run(module, pb)
    if target.name == "opencl":  # after LLVM's passes, which would merge the chunks again
        from .spirv_vectors import legalized_module

        module = legalized_module(module, tm)  # LLVM's SPIR-V backend aborts on vectors wider than 16 lanes
    return module, tm


_UNROLL_LOCK = threading.Lock()


@contextlib.contextmanager
def _side_exits_unroll():
    """Device loops with one exit besides the latch's unroll at run-time trip counts too.

    Such an exit is nearly always a raise (`math.exp`'s OverflowError, an IndexError): LLVM's
    runtime unroller refuses a loop with a second exit unless told the exit is rarely taken, so
    softmax's exp loop kept one load and one `ex2` per trip while the loops beside it unrolled 8x.
    Every exit stays where it was (each unrolled copy keeps its check), so no program changes what it
    does; a raise never taken is a predictable branch. The option is process-wide: it is on only
    while a CUDA module is optimized, under a lock (a host module optimized at that moment by another
    thread could see it: how far its loops unroll, never what they compute)."""
    with _UNROLL_LOCK:
        llvm.set_option("", "-unroll-runtime-other-exit-predictable=true")
        try:
            yield
        finally:
            llvm.set_option("", "-unroll-runtime-other-exit-predictable=false")


def emit_assembly(module, tm) -> str:
    return tm.emit_assembly(module)


def emit_object(module, tm) -> bytes:
    return tm.emit_object(module)


def optimized_module(llvm_ir: str, target: Target, opt: int, tm):
    """The pass `llvm`: the module parsed, verified, linked with libdevice (PTX) or the pyx runtime's
    helpers written in pyx (host) where it needs them, and optimized for the target machine `tm`."""
    return parse_and_optimize(llvm_ir, target, opt, tm)[0]
