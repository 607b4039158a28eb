"""Compile options. Every field changes the generated code, so every field is part of a cache key."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CompileOptions:
    opt_level: int = 3
    target: str = "cpu"  # "cpu" | "cuda" | "opencl" (SPIR-V)
    gpu_arch: str = "sm_80"
    verify_ir: bool = False  # run the IR verifier after every pass (tests turn it on)
    bounds_check: bool = True  # normalize_index (List and other containers) checks; --no-bounds-check
    memcheck: bool = False  # check every memory access of GPU code on the CPU target (ir/memcheck.py)
    debug_leaks: bool = False  # report the objects only reference cycles keep alive (syntax/leak_report.py)
    racecheck: bool = False  # report shared-memory races of GPU code on the CPU target (ir/racecheck.py)
    # Kernels with barriers run on the CPU as loops over the block's threads where they can
    # (ir/gpu_regions.py); False (--no-gpu-regions): as coroutines only, what the loops are checked against.
    gpu_regions: bool = True
