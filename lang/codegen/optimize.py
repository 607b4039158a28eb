"""LLVM IR text -> optimized module, assembly, object code, PTX."""
from __future__ import annotations

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
    if opt > 0:
        pto = llvm.create_pipeline_tuning_options(speed_level=opt)
        pto.loop_vectorization = opt >= 2
        pto.slp_vectorization = opt >= 2
        pb = llvm.create_pass_builder(tm, pto)
        pm = pb.getModulePassManager()
        pm.run(module, pb)
    return module, tm


def emit_assembly(module, tm) -> str:
    return tm.emit_assembly(module)


def emit_object(module, tm) -> bytes:
    return tm.emit_object(module)


def optimized_module(llvm_ir: str, target: Target, opt: int, tm):
    """The pass `llvm`: the module parsed, verified, linked with libdevice where it needs it, and
    optimized for the target machine `tm`."""
    return parse_and_optimize(llvm_ir, target, opt, tm)[0]
