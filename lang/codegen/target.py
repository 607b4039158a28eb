"""Where code runs: triple, data layout, CPU, features, address spaces, and its target machine."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import llvmlite.binding as llvm


@functools.lru_cache(maxsize=1)
def init_llvm() -> None:
    # llvmlite 0.50: llvm.initialize() raises; targets and printers are initialized explicitly.
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


@dataclass(frozen=True)
class Target:
    name: str  # "cpu" | "cuda" | "opencl"
    triple: str
    cpu: str
    features: str
    address_spaces: dict = field(default_factory=dict, compare=False, hash=False)
    host: bool = True  # has libc: printing, process exit codes

    @property
    def vector_bits(self) -> int:
        """The natural SIMD register width (`simd_width_of`)."""
        if not self.host:
            return 32  # a GPU thread's registers are scalar
        features = set(self.features.split(","))
        if "+avx512f" in features:
            return 512
        if "+avx" in features:
            return 256
        return 128

    def llvm_address_space(self, space: int) -> int:
        """The LLVM address space of pyx's address space `space` (pyx numbers them as NVPTX does:
        0 generic, 1 global, 3 shared, 4 constant, 5 thread-local) on this target."""
        if self.name != "opencl":
            return space
        return self.address_spaces[NVPTX_SPACE_NAMES.get(space, "generic")]

    @property
    def cache_key(self) -> str:
        return f"{self.triple}/{self.cpu}/{self.features}"

    def opt_level(self, opt: int) -> int:
        """The optimization level code for this target is built at: `opt`, but at least 1 on a
        device. At -O0 LLVM runs no pass, so the device module keeps the runtime's C library calls
        (`memcpy`, `malloc`, `free` in `__pyx_raise_text`), which ptxas cannot resolve ("Unresolved
        extern function 'memcpy'") and no OpenCL runtime links; and the SPIR-V backend's -O0
        instruction selection indexes structs with `OpConstantNull`, which spirv-val rejects. No
        program prints differently at another level, so -O0 still applies to the host's code."""
        return opt if self.host else max(opt, 1)

    def target_machine(self, opt: int = 3, reloc: str = "pic", codemodel: str = "jitdefault"):
        init_llvm()
        opt = self.opt_level(opt)
        if self.name == "opencl":
            init_spirv()
        target = llvm.Target.from_triple(self.triple)
        return target.create_target_machine(cpu=self.cpu, features=self.features, opt=opt, reloc=reloc,
                                            codemodel=codemodel)

    @property
    def data_layout(self) -> str:
        return str(self.target_machine().target_data)


@functools.lru_cache(maxsize=1)
def init_spirv() -> None:
    # LLVM's SPIR-V backend aborts the whole process (`LLVM ERROR`, not an exception) on a float
    # `atomicrmw` unless the extension is on; the option is process-wide and may be given once.
    from .spirv_emit import EXTENSIONS as SPIRV_EXTENSIONS  # (an OpenCL compile's alone)

    llvm.set_option("", "-spirv-ext=" + ",".join("+" + ext for ext in SPIRV_EXTENSIONS))


HOST_ADDRESS_SPACES = {"generic": 0}
# NVPTX: https://llvm.org/docs/NVPTXUsage.html#address-spaces
NVPTX_ADDRESS_SPACES = {"generic": 0, "global": 1, "shared": 3, "constant": 4, "local": 5}
NVPTX_SPACE_NAMES = {number: name for name, number in NVPTX_ADDRESS_SPACES.items()}
# SPIR-V as OpenCL numbers them (LLVM's SPIR-V backend: 0 Function/private, 1 CrossWorkgroup,
# 2 UniformConstant, 3 Workgroup, 4 Generic). A pyx pointer that names no space is global there,
# not OpenCL 2.0's generic: pyx never converts a pointer between spaces (E0201), so in device code
# such a pointer always points into a buffer a launch passed; and OpenCL 1.2 runtimes (Oclgrind,
# PoCL) have no generic space (Oclgrind stops at the first `addrspacecast`).
SPIRV_ADDRESS_SPACES = {"generic": 1, "global": 1, "shared": 3, "constant": 2, "local": 0}


@functools.cache
def host_target() -> Target:
    init_llvm()
    return Target("cpu", llvm.get_process_triple(), llvm.get_host_cpu_name(),
                  llvm.get_host_cpu_features().flatten(), HOST_ADDRESS_SPACES, True)


# Each GPU architecture LLVM's NVPTX backend knows (from Pascal on), with the oldest PTX ISA that
# knows it: LLVM *aborts the process* when asked for an architecture with an older PTX ISA
# ("PTX version 8.0 does not support target 'sm_120'"), and only warns on a name it does not
# know, so an architecture outside this table is refused before LLVM sees it. Checked against
# llvmlite 0.50 (LLVM 22): the lowest `+ptxNN` each accepts.
PTX_VERSIONS = {"sm_60": "+ptx60", "sm_61": "+ptx60", "sm_62": "+ptx60", "sm_70": "+ptx60", "sm_72": "+ptx61",
                "sm_75": "+ptx63", "sm_80": "+ptx70", "sm_86": "+ptx71", "sm_87": "+ptx74", "sm_88": "+ptx90",
                "sm_89": "+ptx78", "sm_90": "+ptx80", "sm_90a": "+ptx80", "sm_100": "+ptx86", "sm_100a": "+ptx86",
                "sm_101": "+ptx86", "sm_101a": "+ptx86", "sm_103": "+ptx88", "sm_103a": "+ptx88",
                "sm_110": "+ptx90", "sm_110a": "+ptx90", "sm_120": "+ptx87", "sm_120a": "+ptx87",
                "sm_121": "+ptx88", "sm_121a": "+ptx88"}


class UnknownGpuArch(ValueError):
    """A GPU architecture pyx cannot generate PTX for (not in PTX_VERSIONS)."""

    def __init__(self, arch: str):
        super().__init__(f"unknown GPU architecture {arch!r} (one of {', '.join(PTX_VERSIONS)})")


def ptx_version_for(arch: str) -> str:
    """The PTX ISA version to emit for `arch`; UnknownGpuArch for one LLVM would not take."""
    if arch not in PTX_VERSIONS:
        raise UnknownGpuArch(arch)
    return PTX_VERSIONS[arch]


@functools.cache
def cuda_target(arch: str = "sm_80") -> Target:
    return Target("cuda", "nvptx64-nvidia-cuda", arch, ptx_version_for(arch), NVPTX_ADDRESS_SPACES, False)


# SPIR-V 1.3: the version with the sub-group (warp) operations; OpenCL 2.1+ runtimes load it.
SPIRV_TRIPLE = "spirv64v1.3-unknown-unknown"


@functools.cache
def opencl_target() -> Target:
    """SPIR-V for OpenCL devices (`--target=opencl`, `--emit=spirv`): LLVM's SPIR-V backend."""
    return Target("opencl", SPIRV_TRIPLE, "", "", SPIRV_ADDRESS_SPACES, False)
