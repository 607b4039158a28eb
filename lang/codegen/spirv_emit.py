"""Emit one SPIR-V binary from optimized LLVM IR: `python -m pyx.codegen.spirv_emit OPT < module.ll > out.spv`.

A process of its own for each module, for two reasons found on llvmlite 0.50 (LLVM 22): the SPIR-V
backend keeps state between modules emitted in one process (the second or third module of a
process came out with an `Id ... defined more than once` that spirv-val rejects, the same module
alone was valid), and it aborts the whole process (`LLVM ERROR`) on what it cannot lower, which
must not take the compiler down with it. Imports nothing of pyx: only llvmlite's binding.
"""
from __future__ import annotations

import sys

# The extensions pyx's device code may use (target.SPIRV_EXTENSIONS); without the float atomics'
# LLVM aborts on a float `atomicrmw`.
EXTENSIONS = ("SPV_EXT_shader_atomic_float_add", "SPV_EXT_shader_atomic_float_min_max")
TRIPLE = "spirv64v1.3-unknown-unknown"


def main() -> int:
    import llvmlite.binding as llvm

    opt = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.set_option("", "-spirv-ext=" + ",".join("+" + ext for ext in EXTENSIONS))
    module = llvm.parse_assembly(sys.stdin.read())
    module.verify()
    machine = llvm.Target.from_triple(module.triple or TRIPLE).create_target_machine(opt=opt)
    sys.stdout.buffer.write(machine.emit_object(module))
    return 0


if __name__ == "__main__":
    sys.exit(main())
