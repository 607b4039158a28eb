"""pyx's SPIR-V run by Oclgrind (Debian's `oclgrind`, an OpenCL 1.2 device simulator) with its
data-race and uninitialized-value detection on: the shared-memory examples run clean and give
NumPy's answers, and a kernel missing a barrier, or with a barrier only some threads reach, is
reported (the checker is live). Oclgrind takes no SPIR-V: runtime/opencl.py hands it SPIR bitcode
made by `llvm-spirv -r`. Each run is a process of its own, since the OpenCL ICD loader reads
OCL_ICD_VENDORS once. Skipped where oclgrind, llvm-spirv or spirv-tools is missing."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

pytest.importorskip("numpy")
pytest.importorskip("pyopencl")

from pyx.runtime import opencl

ICDS = [Path("/usr/lib/oclgrind/liboclgrind-rt-icd.so"), Path("/usr/lib64/oclgrind/liboclgrind-rt-icd.so")]
OCLGRIND = next((p for p in ICDS if p.exists()), None)
pytestmark = pytest.mark.skipif(OCLGRIND is None or opencl.translator() is None,
                                reason="oclgrind, llvm-spirv or spirv-tools is not installed here")
EXAMPLES = ROOT / "examples"
# What Oclgrind prints when it finds something (its src/plugins: RaceDetector, Uninitialized,
# and the core's barrier and memory checks).
FINDINGS = ("data race", "Uninitialized", "divergence", "executed barrier", "Invalid", "FATAL")


def under_oclgrind(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    icd = tmp_path / "oclgrind.icd"
    icd.write_text(f"{OCLGRIND}\n")
    env = {**os.environ, "OCL_ICD_VENDORS": str(icd), "OCLGRIND_DATA_RACES": "1", "OCLGRIND_UNINITIALIZED": "1",
           "PYX_CACHE_DIR": str(tmp_path / "cache"), "PYX_OPENCL_DEVICE": ""}
    prelude = "import numpy as np, pyx\n"
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, env=env,
                          timeout=300, cwd=tmp_path)


def test_shared_memory_examples_run_clean(tmp_path: Path):
    code = f"""
def load(name):
    return pyx.import_module(name, target="opencl", path=[{str(EXAMPLES)!r}])
m = load("gpu_sum")
print(m.__pyx__["target"])
n = 1000  # four blocks, the last partial
values = (np.arange(n) % 10).astype(np.float32)
out = np.zeros(1, np.float32)
m.block_sum[(n + 255) // 256, 256](values, out, n)
print("sum", out[0] == values.sum())
s = 32
rng = np.random.default_rng(0)
a, b, c = rng.random((s, s), np.float32), rng.random((s, s), np.float32), np.zeros((s, s), np.float32)
load("gpu_matmul").matmul[(2, 2), (16, 16)](a, b, c, s, s, s)
print("matmul", bool(np.allclose(c, a @ b, rtol=1e-5, atol=1e-5)))
x, y = np.arange(100, dtype=np.float32), np.ones(100, np.float32)
load("saxpy").saxpy[2, 64](2.0, x, y, 100)
print("saxpy", bool(np.array_equal(y, 2 * np.arange(100, dtype=np.float32) + 1)))
"""
    done = under_oclgrind(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["opencl (Oclgrind Simulator (Oclgrind))", "sum True", "matmul True",
                                        "saxpy True"]
    assert not [f for f in FINDINGS if f in done.stderr], done.stderr


def test_a_missing_barrier_and_a_divergent_barrier_are_reported(tmp_path: Path):
    (tmp_path / "racy.px").write_text('''
@kernel
fn no_barrier_sum(x: Ptr[Float32], out: Ptr[Float32]):
    var tile = shared_array[Float32, 64]()
    tile[thread_idx.x] = x[thread_idx.x]
    if thread_idx.x == 0:  # reads the others' slots with no barrier() after their writes
        var total: Float32 = 0.0
        for j in range(64):
            total += tile[j]
        out[0] = total


@kernel
fn divergent(out: Ptr[Float32]):
    if thread_idx.x < 16:
        barrier()
    out[thread_idx.x] = 1.0
''')
    code = f"""
m = pyx.import_module("racy", target="opencl", path=[{str(tmp_path)!r}])
out = np.zeros(64, np.float32)
m.no_barrier_sum[1, 64](np.ones(64, np.float32), out)
m.divergent[1, 64](out)
print("ran")
"""
    done = under_oclgrind(code, tmp_path)
    assert "ran" in done.stdout, done.stderr
    assert "Read-write data race at local memory" in done.stderr
    assert "Kernel: racy_2e_no_barrier_sum_2e_kernel" in done.stderr
    assert "Only 16 out of 64 work-items executed barrier" in done.stderr
