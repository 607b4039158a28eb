"""Find and link NVIDIA's libdevice: the math library (`__nv_pow`, `__nv_expf`, ...) for NVPTX."""
from __future__ import annotations

import glob
import os
import sys
from pathlib import Path

import llvmlite.binding as llvm


class LibdeviceNotFound(Exception):
    pass


def candidates() -> list[Path]:
    roots = [os.environ.get(v) for v in ("PYX_LIBDEVICE", "CUDA_HOME", "CUDA_PATH")]
    paths = []
    for root in roots:
        if root:
            p = Path(root)
            paths.append(p if p.suffix == ".bc" else p / "nvvm" / "libdevice" / "libdevice.10.bc")
    paths.append(Path("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"))
    # The NVIDIA wheels (`pip install nvidia-cuda-nvcc-cu12` and friends).
    for site in sys.path:
        paths.extend(Path(p) for p in glob.glob(os.path.join(site, "nvidia", "cuda_nvcc", "nvvm", "libdevice",
                                                             "libdevice*.bc")))
    return paths


def find_libdevice() -> Path:
    for path in candidates():
        if path.is_file():
            return path
    tried = ", ".join(str(p) for p in candidates()[:4])
    raise LibdeviceNotFound(
        "libdevice.10.bc (NVIDIA's GPU math library) was not found; install the CUDA toolkit or "
        f"`pip install nvidia-cuda-nvcc-cu12`, or set PYX_LIBDEVICE to the file (tried {tried})")


def uses_libdevice(module) -> bool:
    return any(f.is_declaration and f.name.startswith("__nv_") for f in module.functions)


def link_libdevice(module) -> None:
    """Link libdevice into `module`, keeping only what is used (the rest is internal, then dropped)."""
    ours = {f.name for f in module.functions if not f.is_declaration}
    lib = llvm.parse_bitcode(find_libdevice().read_bytes())
    lib.triple = module.triple
    lib.data_layout = module.data_layout
    module.link_in(lib)
    for f in module.functions:
        if not f.is_declaration and f.name not in ours:
            f.linkage = "internal"
