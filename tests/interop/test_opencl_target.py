"""The SPIR-V target, checked by code we did not write: Khronos' validator (`spirv-val`, Debian's
spirv-tools) accepts every GPU example and kernel golden, and an OpenCL runtime (Intel's CPU
runtime in CI, through pyopencl) runs the examples' kernels with NumPy's answers and, for every
warp operation on every lane, the CPU target's exact results. Each part is skipped cleanly
where its tool is missing; `.ci/run` installs both."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, run_cli, run_pyx

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from pyx.runtime import opencl  # noqa: E402

SPIRV_VAL = shutil.which("spirv-val")
needs_spirv_val = pytest.mark.skipif(SPIRV_VAL is None, reason="spirv-val (spirv-tools) is not installed here")
HAVE_OPENCL = opencl.available()
needs_opencl = pytest.mark.skipif(not HAVE_OPENCL, reason="no OpenCL runtime that takes SPIR-V (pyopencl) here")
EXAMPLES = ROOT / "examples"
PARITY = ROOT / "benchmarks" / "gpu"
# Kernels OpenCL cannot express: a launch-sized `extern __local` array. (flash_attn's SIMD row of 64
# lanes is split into 16-lane vectors, codegen/spirv_vectors.py.)
REJECTED = {"gpu_dynamic_shared", "memory_shared_arrays"}
KERNEL_FILES = sorted(p for folder in (EXAMPLES, ROOT / "tests" / "golden", ROOT / "tests" / "codegen" / "ptx")
                      for p in folder.glob("*.px") if "@kernel" in p.read_text() and p.stem not in REJECTED)
KERNEL_FILES.append(PARITY / "warp_parity.px")


def build_spirv(path: Path, out: Path) -> bytes:
    result = run_cli("build", "--emit=spirv", str(path), "-o", str(out))
    assert result.status == 0, result.stderr
    return out.read_bytes()


@needs_spirv_val
@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_spirv_validates(path: Path, tmp_path: Path):
    binary = build_spirv(path, tmp_path / "out.spv")
    assert binary[:4] == b"\x03\x02\x23\x07"  # SPIR-V's magic number, little-endian
    done = subprocess.run([SPIRV_VAL, str(tmp_path / "out.spv")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout


def test_spirv_kernels_are_opencl_entry_points(tmp_path: Path):
    result = run_cli("build", "--emit=llvm", "--target=opencl", str(EXAMPLES / "gpu_softmax.px"))
    assert result.status == 0, result.stderr
    text = result.stdout
    assert "define spir_kernel void @gpu_softmax_2e_softmax_rows_2e_kernel(ptr addrspace(1)" in text
    assert "intel_reqd_sub_group_size" in text  # warp shuffles: sub-groups of 32 lanes
    assert "nvvm" not in text and "llvm.nvvm" not in text


@pytest.mark.parametrize("name, what", [("gpu_dynamic_shared", "dynamic_shared")])
def test_what_opencl_cannot_express_is_a_diagnostic(name: str, what: str, tmp_path: Path):
    folder = ROOT / "tests" / "golden"
    result = run_cli("build", "--emit=spirv", str(folder / f"{name}.px"), "-o", str(tmp_path / "out.spv"))
    assert result.status == 1
    assert "error[E0226]" in result.stderr and what in result.stderr and "`opencl` target" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out.spv").exists()


def test_spirv_is_only_for_the_opencl_target(tmp_path: Path):
    result = run_cli("build", "--emit=spirv", "--target=cuda", str(EXAMPLES / "saxpy.px"), "-o", str(tmp_path / "x"))
    assert result.status == 2 and "--emit=spirv is not available for the cuda target" in result.stderr
    result = run_cli("build", "--emit=exe", "--target=opencl", str(EXAMPLES / "saxpy.px"), "-o", str(tmp_path / "x"))
    assert result.status == 2 and "--emit=exe is not available for the opencl target" in result.stderr


@pytest.fixture()
def load(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))

    def load(name, target, folder=EXAMPLES):
        sys.modules.pop(name, None)
        return pyx.import_module(name, target=target, path=[str(folder)])
    return load


def test_memcheck_is_for_the_cpu(load):
    with pytest.raises(ValueError, match="memcheck=True checks kernels run on the CPU"):
        pyx.import_module("saxpy", target="opencl", path=[str(EXAMPLES)], memcheck=True)


@needs_opencl
def test_saxpy_and_block_sum_match_numpy(load):
    rng = np.random.default_rng(0)
    saxpy = load("saxpy", "opencl")
    assert saxpy.__pyx__["target"].startswith("opencl")
    n = 5000
    x, y = rng.random(n, np.float32), rng.random(n, np.float32)
    expected = np.float32(2.0) * x + y
    saxpy.saxpy[(n + 255) // 256, 256](2.0, x, y, n)
    assert np.array_equal(y, expected)
    summed = load("gpu_sum", "opencl")
    values = (np.arange(n) % 10).astype(np.float32)  # exact in float32 whatever the order
    out = np.zeros(1, np.float32)
    summed.block_sum[(n + 255) // 256, 256](values, out, n)
    assert out[0] == values.sum()


@needs_opencl
def test_tiled_matmul_matches_numpy_and_the_cpu_target(load):
    rng = np.random.default_rng(1)
    s = 48  # three tiles a side
    a, b = rng.random((s, s), np.float32), rng.random((s, s), np.float32)
    results = []
    for target in ("cpu", "opencl"):
        c = np.zeros((s, s), np.float32)
        load("gpu_matmul", target).matmul[(s // 16, s // 16), (16, 16)](a, b, c, s, s, s)
        results.append(c)
    assert np.allclose(results[1], a @ b, rtol=1e-5, atol=1e-5)
    assert np.array_equal(results[0], results[1])  # the same sums in the same order


@needs_opencl
def test_softmax_rows_match_numpy_and_the_cpu_target(load):
    rows, cols = 5, 45  # more than a warp, and not a multiple of one
    x = np.linspace(-3, 3, rows * cols, dtype=np.float32).reshape(rows, cols)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    results = []
    for target in ("cpu", "opencl"):
        out = np.zeros_like(x)
        load("gpu_softmax", target).softmax_rows[rows, 32](x, out, rows, cols)
        results.append(out)
        assert np.allclose(out, expected, rtol=1e-6, atol=1e-7)
    # exp is the runtime's own (OpenCL's exp, libm's expf): within a few ulps, not bit for bit
    assert np.abs(results[0].view(np.int32) - results[1].view(np.int32)).max() <= 4


@needs_opencl
def test_flash_attention_matches_numpy_and_the_cpu_target(load):
    """Its rows of 64 lanes (a `SIMD[DType.float32, 64]` per thread) run as four 16-lane vectors."""
    seq, d = 100, 64  # four blocks of 32 query rows, the last one partly outside
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((seq, d), dtype=np.float32) for _ in range(3))
    scores = q.astype(np.float64) @ k.T.astype(np.float64) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    expected = (weights / weights.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    results = []
    for target in ("cpu", "opencl"):
        out = np.zeros((seq, d), np.float32)
        load("flash_attn", target).flash_forward[(seq + 31) // 32, 32](q, k, v, out, seq, np.float32(1 / np.sqrt(d)))
        results.append(out)
        assert np.allclose(out, expected, rtol=1e-5, atol=1e-5)
    assert np.allclose(results[0], results[1], rtol=1e-6, atol=1e-6)  # exp is each runtime's own


@needs_opencl
def test_wide_simd_operations_match_the_cpu_target_and_numpy(load):
    """tests/codegen/ptx/simd_wide.px: 32-lane vectors through loads, stores, comparisons, select,
    fma, max, abs, a lane written and read at a run-time index, reductions, integer // and %."""
    w = 32
    rng = np.random.default_rng(5)
    x = rng.standard_normal(w * w).astype(np.float32)
    n = rng.integers(-1000, 1000, w * w).astype(np.int32)
    results = []
    for target in ("cpu", "opencl"):
        out, iout = np.zeros(w * w + 4 * w, np.float32), np.zeros(w * w + w, np.int32)
        load("simd_wide", target, ROOT / "tests" / "codegen" / "ptx").wide_ops[1, w](x, n, out, iout)
        results.append((out, iout))
    (out, iout), (device_out, device_iout) = results
    assert np.array_equal(out[:w * w], device_out[:w * w]) and np.array_equal(iout, device_iout)
    v, k = x.reshape(w, w), n.reshape(w, w)
    y = np.maximum(np.where(v > 0.25, v, -v) * v + 1, 0.5) + np.abs(v)
    y[np.arange(w), np.arange(w)] = np.arange(w)
    assert np.allclose(out[:w * w], y.ravel(), rtol=1e-6)
    assert np.array_equal(iout[:w * w], (k // 3 + k % 5).ravel())
    assert np.array_equal(iout[w * w:], (k // 3 + k % 5).sum(axis=1))
    reduced, device_reduced = out[w * w:].reshape(w, 4), device_out[w * w:].reshape(w, 4)
    assert np.array_equal(reduced[:, [0, 1, 3]], device_reduced[:, [0, 1, 3]])  # max, min, a lane
    assert np.array_equal(reduced[:, 3], v[np.arange(w), (np.arange(w) + 7) % w])
    assert np.allclose(reduced[:, 2], device_reduced[:, 2], rtol=1e-6)  # a sum in either order


@needs_opencl
@pytest.mark.parametrize("blocks, threads", [(1, 32), (3, 64), (2, 96), (1, 256), (2, 48), (1, 7), (2, 57),
                                             (1, 1024)])
def test_warp_operations_match_the_cpu_target_on_every_lane(load, blocks: int, threads: int):
    cpu, device = load("warp_parity", "cpu", PARITY), load("warp_parity", "opencl", PARITY)
    rng = np.random.default_rng(blocks * 1000 + threads)
    n = blocks * threads
    xf = rng.random(n, np.float32)
    xf[0] = np.float32(1e8)  # an order-sensitive sum: lane 0 large, the others small
    xi = rng.integers(-1000, 1000, n, dtype=np.int32)
    # more_ops_*: warp max/min/prefix sum/broadcast, the block operations, out-of-range shuffles
    for kernel, x, width in (("warp_ops_f32", xf, 6), ("warp_ops_i32", xi, 5), ("more_ops_f32", xf, 11),
                             ("more_ops_i32", xi, 11)):
        outs = []
        for m in (cpu, device):
            out = np.zeros(n * width, x.dtype)
            getattr(m, kernel)[blocks, threads](x.copy(), out, n)
            outs.append(out.reshape(n, width))
        assert np.array_equal(outs[0], outs[1]), (kernel, np.argwhere(outs[0] != outs[1])[:8].tolist())


@needs_opencl
def test_launch_arguments_are_checked(load):
    saxpy = load("saxpy", "opencl")
    with pytest.raises(TypeError, match="expected an array of float32, got float64"):
        saxpy.saxpy[1, 32](2.0, np.zeros(4), np.zeros(4, np.float32), 4)
    with pytest.raises(TypeError, match="takes 4 arguments, 3 given"):
        saxpy.saxpy[1, 32](2.0, np.zeros(4, np.float32), 4)
    with pytest.raises(TypeError, match="is a kernel: launch it with saxpy"):
        saxpy.saxpy(2.0, np.zeros(4, np.float32), np.zeros(4, np.float32), 4)


def test_without_a_device_opencl_says_what_is_missing(tmp_path: Path):
    """A device named that does not exist (or no pyopencl at all): OpenCLUnavailable, no traceback
    from inside pyopencl."""
    code = ("import pyx, sys\n"
            "from pyx.runtime import opencl\n"
            f"try:\n    pyx.import_module('saxpy', target='opencl', path=[{str(EXAMPLES)!r}])\n"
            "except opencl.OpenCLUnavailable as exc:\n    print('unavailable:', exc)\n")
    env = {**__import__("os").environ, "PYX_OPENCL_DEVICE": "97:0", "PYX_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("unavailable: pyx: ")
    assert "pyopencl" in done.stdout or "PYX_OPENCL_DEVICE=97:0 names no OpenCL device" in done.stdout \
        or "no OpenCL platform" in done.stdout


@needs_opencl
@pytest.mark.parametrize("name", ["saxpy", "gpu_sum", "gpu_matmul", "gpu_softmax", "flash_attn",
                                  "../tests/golden/bfloat16"])
def test_whole_programs_run_their_kernels_on_opencl(name: str, monkeypatch, tmp_path: Path):
    """`pyx run --target=opencl`: the host code on the CPU, every launch on the OpenCL device
    (counted here), and the output the CPU target gives (the .out files). Not the goldens that
    check what only the CPU target checks (a thread raising, a divergent barrier, --memcheck)."""
    from pyx.runtime import opencl_program

    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    launched = []
    original = opencl_program.ProgramOnOpenCL.launch

    def counting(self, entry, *args):
        launched.append(entry)
        return original(self, entry, *args)
    monkeypatch.setattr(opencl_program.ProgramOnOpenCL, "launch", counting)
    result = run_pyx(EXAMPLES / f"{name}.px", "--target=opencl")
    assert result.status == 0, result.stderr
    assert result.stdout == (EXAMPLES / f"{name}.out").read_text()
    assert launched and all(e.endswith(b"_2e_kernel") for e in launched)


@needs_opencl
def test_a_whole_program_opencl_cannot_express_is_a_diagnostic(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    result = run_pyx(ROOT / "tests" / "golden" / "gpu_dynamic_shared.px", "--target=opencl")
    assert result.status == 1 and "error[E0226]" in result.stderr and result.stdout == ""


def test_pyx_run_without_the_device_says_why(tmp_path: Path):
    """`pyx run --target=opencl` where the device cannot be had: one `pyx: error:` line, exit 1,
    nothing of the program run."""
    env = {**__import__("os").environ, "PYX_OPENCL_DEVICE": "97:0", "PYX_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "pyx", "run", "--target=opencl", str(EXAMPLES / "saxpy.px")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("pyx: error: ") and "Traceback" not in done.stderr


@needs_opencl
def test_the_spirv_is_cached_beside_the_module(tmp_path: Path):
    """The next process builds the kernels from the cached SPIR-V: it compiles nothing for the device."""
    env = {**__import__("os").environ, "PYX_CACHE_DIR": str(tmp_path / "cache")}
    first = ("import pyx\n"
             f"pyx.import_module('saxpy', target='opencl', path=[{str(EXAMPLES)!r}])\n")
    second = ("import numpy as np, pyx\n"
              "from pyx.runtime import opencl\n"
              "def no_compile(*args, **kwargs):\n    raise AssertionError('compiled the SPIR-V again')\n"
              "opencl.device_spirv = no_compile\n"
              f"m = pyx.import_module('saxpy', target='opencl', path=[{str(EXAMPLES)!r}])\n"
              "y = np.ones(4, np.float32)\n"
              "m.saxpy[1, 32](2.0, np.arange(4, dtype=np.float32), y, 4)\n"
              "print(y.tolist())\n")
    for code in (first, second):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
    assert done.stdout == "[1.0, 3.0, 5.0, 7.0]\n"
    assert list((tmp_path / "cache").rglob("saxpy.*.spv"))


@needs_opencl
def test_a_runtime_that_crashes_building_the_kernels_is_an_error_not_a_crash(tmp_path: Path):
    """Intel's CPU runtime 2026.2 segfaults compiling these two valid kernels in this order (the
    SPIR-V passes spirv-val; either alone builds): the build is tried in a child process first, so
    the program exits with an error, or runs where the runtime has no such bug, but never dies."""
    (tmp_path / "pair.px").write_text('''
fn element(p: Ptr[Float32], i: Int) -> Float32:
    return p[i]


@kernel
fn through_device_fn(x: Ptr[Float32], out: Ptr[Float32], n: Int):
    if global_idx.x == 0:
        out[0] = element(x, n + 3)


@kernel
fn middle(x: Ptr[Float32], n: Int):
    var half = x + n // 2
    if thread_idx.x == 5:
        half[-(n // 2)] = 2.0


fn main():
    var x = Ptr[Float32].alloc(8)
    var out = Ptr[Float32].alloc(1)
    for i in range(8):
        x[i] = Float32(i)
    launch through_device_fn[grid=1, block=32](x, out, 2)
    launch middle[grid=1, block=8](x, 8)
    print(out[0], x[0])
''')
    env = {**__import__("os").environ, "PYX_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "pyx", "run", "--target=opencl", str(tmp_path / "pair.px")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-2000:])
    if done.returncode == 0:
        assert done.stdout == "5.0 2.0\n"
    else:
        assert "crashed building the kernels" in done.stderr and done.stdout == ""


@needs_opencl
def test_pyx_run_keeps_the_built_spirv_for_the_next_run(tmp_path: Path):
    """The second `pyx run --target=opencl` of a program compiles nothing and probes nothing: the
    SPIR-V and its kernels' parameters come from the cache, and the output is the same."""
    env = {**__import__("os").environ, "PYX_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYX_NO_CACHE", None)
    program = str(EXAMPLES / "gpu_softmax.px")
    first = subprocess.run([sys.executable, "-m", "pyx", "run", "--target=opencl", program], capture_output=True,
                           text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    second = ("import sys\n"
              "import pyx.pipeline, pyx.runtime.opencl as opencl\n"
              "def refuse(*args, **kwargs):\n    raise AssertionError('compiled or probed again')\n"
              "pyx.pipeline.optimize = refuse\n"
              "opencl.crashes_building = refuse\n"
              "from pyx.cli import main\n"
              f"sys.exit(main(['run', '--target=opencl', {program!r}]))\n")
    done = subprocess.run([sys.executable, "-c", second], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == first.stdout == (EXAMPLES / "gpu_softmax.out").read_text()


@needs_opencl
def test_math_functions_in_kernels_use_the_runtimes_builtins(load, tmp_path: Path):
    """LLVM's intrinsics become OpenCL.std instructions, the rest (tanh, atan2, pow) OpenCL's
    mangled builtins, which the runtime links: results within 2 ulps of the CPU target's libm."""
    (tmp_path / "mathk.px").write_text('''import math


@kernel
fn funcs(x: Ptr[Float32], out: Ptr[Float32], n: Int):
    var i = global_idx.x
    if i < n:
        var v = x[i]
        out[i * 6 + 0] = math.tanh(v)
        out[i * 6 + 1] = math.atan2(v, 0.5)
        out[i * 6 + 2] = v ** 1.5
        out[i * 6 + 3] = math.exp(v)
        out[i * 6 + 4] = math.log(v + 2.0)
        out[i * 6 + 5] = math.sin(v)
''')
    x = np.linspace(-1, 1, 64, dtype=np.float32)
    results = []
    for target in ("cpu", "opencl"):
        out = np.zeros(64 * 6, np.float32)
        load("mathk", target, tmp_path).funcs[1, 64](x, out, 64)
        results.append(out.reshape(64, 6))
    cpu, device = results
    assert np.array_equal(np.isnan(cpu), np.isnan(device))  # x ** 1.5 of a negative x
    ulps = np.abs(cpu.view(np.int32).astype(np.int64) - device.view(np.int32).astype(np.int64))
    assert ulps[~np.isnan(cpu)].max() <= 2
