"""GPU checks and timings for a session lent an NVIDIA GPU (not part of CI).

    python benchmarks/gpu/gpu_bench.py

1. Warp-operation parity: every warp op on every lane, CPU target against the GPU.
2. Kernel timings: pyx's example kernels launched on the GPU on CuPy arrays (in place, no copies),
   beside the same kernels written in CUDA C++ (twins.cu, compiled by NVRTC through CuPy, launched
   with the same grid and block) and beside CuPy/cuBLAS doing the same work; median of several
   launches, each synchronised.
3. The kernels alone: pyx's PTX (compiled as the cuda target compiles it) and the CUDA C twin, both
   launched by CuPy back to back (the launches queue; CUDA events around a batch), so the launch
   path is the same and its cost hidden: what the code generator alone gives. With (2), the rest of
   pyx's time is its launch from Python, whose driver calls are timed one by one last.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import pyx  # noqa: E402


def load(name: str, target: str, path: Path):
    sys.modules.pop(name, None)
    return pyx.import_module(name, target=target, path=[str(path)])


def parity() -> bool:
    here = Path(__file__).parent
    cpu, gpu = load("warp_parity", "cpu", here), load("warp_parity", "cuda", here)
    rng = np.random.default_rng(1)
    ok = True
    # (1, 40) and (2, 57) end in a partial warp, whose missing lanes no operation reads.
    for blocks, threads in ((1, 32), (3, 64), (2, 96), (1, 256), (1, 40), (2, 57), (1, 1024)):
        n = blocks * threads
        xf = rng.random(n, np.float32)
        xf[0] = np.float32(1e8)  # order-sensitive sum: lane 0 large, the rest small
        xi = rng.integers(-1000, 1000, n, dtype=np.int32)
        for kernel, x, width in (("warp_ops_f32", xf, 6), ("warp_ops_i32", xi, 5), ("more_ops_f32", xf, 11),
                                 ("more_ops_i32", xi, 11)):
            outs = []
            for m in (cpu, gpu):
                out = np.zeros(n * width, x.dtype)
                getattr(m, kernel)[blocks, threads](x.copy(), out, n)
                outs.append(out.reshape(n, width))
            same = np.array_equal(outs[0], outs[1])
            ok &= same
            print(f"parity {kernel} grid={blocks} block={threads}: {'identical' if same else 'DIFFERENT'}")
            if not same:
                bad = np.argwhere(outs[0] != outs[1])[:8]
                for lane, col in bad:
                    print(f"   lane {lane} op {col}: cpu {outs[0][lane, col]!r} gpu {outs[1][lane, col]!r}")
    return ok


def timed(fn, sync, reps: int = 20) -> float:
    fn()
    sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def gpu_timed(fn, reps: int = 20) -> float:
    """The median device time of one call, between two CUDA events on the legacy default stream
    (which every launch on the context waits for). Not the kernel alone: the GPU waits idle, and the
    time counts, while the host prepares a launch after the first event (pyx's whole launch from
    Python, which waits for its kernel; CuPy's few microseconds). `kernels_alone` times the kernels."""
    import cupy as cp

    fn()
    times = []
    for _ in range(reps):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(cp.cuda.Stream.null)
        fn()
        end.record(cp.cuda.Stream.null)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / 1e3)
    return statistics.median(times)


def kernels() -> None:
    import cupy as cp

    ex = ROOT / "examples"
    sync = cp.cuda.runtime.deviceSynchronize
    twins = cp.RawModule(code=(Path(__file__).parent / "twins.cu").read_text(), options=("-std=c++17",))
    i64, f32 = np.int64, np.float32

    def twin(name, grid, block, *args):
        kernel = twins.get_function(name)
        grid = grid if isinstance(grid, tuple) else (grid,)
        block = block if isinstance(block, tuple) else (block,)
        return lambda: kernel(grid, block, args)

    rows = []
    launches = []  # (pyx's launch, the CUDA C twin's) of each row, timed again on the device
    alone = []  # (pyx module, kernel, grid, block, twin's arguments, batch) of each row: the kernels alone
    saxpy = load("saxpy", "cuda", ex)
    n = 1 << 24
    x, y = cp.random.random(n, dtype=cp.float32), cp.random.random(n, dtype=cp.float32)
    alone.append(("saxpy", "saxpy", (n + 255) // 256, 256, (f32(2.0), x, y, i64(n)), 50))
    launches.append((lambda: saxpy.saxpy[(n + 255) // 256, 256](2.0, x, y, n),
                     twin("saxpy", (n + 255) // 256, 256, f32(2.0), x, y, i64(n))))
    rows.append(("saxpy 2^24", timed(lambda: saxpy.saxpy[(n + 255) // 256, 256](2.0, x, y, n), sync),
                 timed(twin("saxpy", (n + 255) // 256, 256, f32(2.0), x, y, i64(n)), sync),
                 timed(lambda: cp.add(2.0 * x, y, out=y), sync), "cupy"))
    mm = load("gpu_matmul", "cuda", ex)
    s = 1024
    a, b = cp.random.random((s, s), dtype=cp.float32), cp.random.random((s, s), dtype=cp.float32)
    c = cp.zeros((s, s), cp.float32)
    grid = (s // 16, s // 16)
    alone.append(("gpu_matmul", "matmul", grid, (16, 16), (a, b, c, i64(s), i64(s), i64(s)), 50))
    launches.append((lambda: mm.matmul[grid, (16, 16)](a, b, c, s, s, s),
                     twin("matmul", grid, (16, 16), a, b, c, i64(s), i64(s), i64(s))))
    rows.append(("tiled matmul 1024^2 fp32", timed(lambda: mm.matmul[grid, (16, 16)](a, b, c, s, s, s), sync),
                 timed(twin("matmul", grid, (16, 16), a, b, c, i64(s), i64(s), i64(s)), sync),
                 timed(lambda: cp.matmul(a, b, out=c), sync), "cuBLAS"))
    mm.matmul[grid, (16, 16)](a, b, c, s, s, s)
    sync()
    err = float(cp.abs(c - a @ b).max())
    sm = load("gpu_softmax", "cuda", ex)
    r, k = 4096, 1024
    xs, out = cp.random.standard_normal((r, k), dtype=cp.float32), cp.zeros((r, k), cp.float32)

    def cupy_softmax():
        e = cp.exp(xs - xs.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    alone.append(("gpu_softmax", "softmax_rows", r, 32, (xs, out, i64(r), i64(k)), 50))
    launches.append((lambda: sm.softmax_rows[r, 32](xs, out, r, k),
                     twin("softmax_rows", r, 32, xs, out, i64(r), i64(k))))
    rows.append(("softmax rows 4096x1024", timed(lambda: sm.softmax_rows[r, 32](xs, out, r, k), sync),
                 timed(twin("softmax_rows", r, 32, xs, out, i64(r), i64(k)), sync),
                 timed(cupy_softmax, sync), "cupy"))
    fa = load("flash_attn", "cuda", ex)
    seq = 4096
    q, kk, v = (cp.random.standard_normal((seq, 64), dtype=cp.float32) for _ in range(3))
    o = cp.zeros_like(q)

    def cupy_attention():
        w = (q @ kk.T) * 0.125
        w = cp.exp(w - w.max(axis=1, keepdims=True))
        return (w / w.sum(axis=1, keepdims=True)) @ v
    blocks = (seq + 31) // 32
    alone.append(("flash_attn", "flash_forward", blocks, 32, (q, kk, v, o, i64(seq), f32(0.125)), 5))
    launches.append((lambda: fa.flash_forward[blocks, 32](q, kk, v, o, seq, np.float32(0.125)),
                     twin("flash_forward", blocks, 32, q, kk, v, o, i64(seq), f32(0.125))))
    rows.append(("flash attention 4096x64",
                 timed(lambda: fa.flash_forward[blocks, 32](q, kk, v, o, seq, np.float32(0.125)), sync, 5),
                 timed(twin("flash_forward", blocks, 32, q, kk, v, o, i64(seq), f32(0.125)), sync, 5),
                 timed(cupy_attention, sync, 5), "cupy"))
    fa.flash_forward[blocks, 32](q, kk, v, o, seq, np.float32(0.125))
    attn_err = float(cp.abs(o - cupy_attention()).max())
    device = [(gpu_timed(pyx_fn), gpu_timed(twin_fn)) for pyx_fn, twin_fn in launches]
    print(f"\n{'kernel':28} {'pyx ms':>9} {'CUDA C ms':>10} {'pyx/C':>7} {'peer ms':>9} {'pyx/peer':>9}  peer")
    for name, t_pyx, t_twin, t_peer, peer in rows:
        print(f"{name:28} {t_pyx * 1e3:9.3f} {t_twin * 1e3:10.3f} {t_pyx / t_twin:7.2f} {t_peer * 1e3:9.3f}"
              f" {t_pyx / t_peer:9.2f}  {peer}")
    print(f"matmul max abs error vs cupy: {err:.3g}; attention max abs error: {attn_err:.3g}")
    print(f"\n{'kernel (CUDA events around the call)':34} {'pyx ms':>9} {'CUDA C ms':>10} {'pyx/C':>7}")
    for (name, *_), (t_pyx, t_c) in zip(rows, device, strict=True):
        print(f"{name:34} {t_pyx * 1e3:9.3f} {t_c * 1e3:10.3f} {t_pyx / t_c:7.2f}")
    print("pyx times include the launch's cuCtxSynchronize and argument handling from Python;")
    print("CUDA C twins are launched by CuPy (its own launch overhead) and synchronised the same way.")
    walls = [(t_pyx, t_twin) for _, t_pyx, t_twin, *_ in rows]
    for extra in (lambda: kernels_alone(alone, twins, walls), lambda: launch_costs(saxpy, sm)):
        try:  # a failure here keeps the tables above (and the run's status)
            extra()
        except Exception as exc:  # noqa: BLE001 - reported, the run goes on
            print(f"FAILED: {type(exc).__name__}: {exc}")


def batch_timed(function, grid, block, args, batch: int, reps: int = 7) -> float:
    """The median time of one of `batch` launches of a CuPy RawKernel queued back to back, between
    two CUDA events: the kernel's own time once the queue is full (a launch from CuPy takes a few
    microseconds)."""
    import cupy as cp

    function(grid, block, args)
    cp.cuda.runtime.deviceSynchronize()
    times = []
    for _ in range(reps):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(cp.cuda.Stream.null)
        for _ in range(batch):
            function(grid, block, args)
        end.record(cp.cuda.Stream.null)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / 1e3 / batch)
    return statistics.median(times)


def pyx_ptx(name: str, arch: str) -> str:
    """The PTX the cuda target loads for examples/NAME.px (lang/importer.py, _use_gpu)."""
    from pyx import pipeline
    from pyx.options import CompileOptions
    from pyx.source import SourceFile

    path = ROOT / "examples" / f"{name}.px"
    options = CompileOptions(opt_level=3, target="cuda", gpu_arch=arch)
    comp = pipeline.optimize(SourceFile(str(path), path.read_text()), options, entry=False)
    return pipeline.target_of(options).target_machine(opt=3).emit_assembly(comp.llvm_module)


def kernels_alone(alone, twins, walls) -> None:
    """pyx's kernels and the twins, both launched by CuPy (the same launch path), back to back."""
    import tempfile

    import cupy as cp

    from pyx.runtime import cuda

    arch = cuda.open_device().arch  # what the cuda target compiles for
    folder = Path(tempfile.mkdtemp())
    print(f"\n{'kernel alone (both launched by CuPy)':38} {'pyx ms':>9} {'CUDA C ms':>10} {'pyx/C':>7}"
          f" {'pyx launch ms':>14} {'CuPy launch ms':>15}")
    for (module, kernel, grid, block, args, batch), (wall_pyx, wall_c) in zip(alone, walls, strict=True):
        entry = next(k["entry"] for k in load(module, "cuda", ROOT / "examples").__pyx__["meta"]["kernels"]
                     if k["name"] == kernel)
        (folder / f"{module}.ptx").write_text(pyx_ptx(module, arch))
        mine = cp.RawModule(path=str(folder / f"{module}.ptx")).get_function(entry)
        theirs = twins.get_function(kernel)
        grid = grid if isinstance(grid, tuple) else (grid,)
        block = block if isinstance(block, tuple) else (block,)
        t_pyx, t_c = (batch_timed(function, grid, block, args, batch) for function in (mine, theirs))
        print(f"{module + ' ' + kernel:38} {t_pyx * 1e3:9.4f} {t_c * 1e3:10.4f} {t_pyx / t_c:7.2f}"
              f" {(wall_pyx - t_pyx) * 1e3:14.4f} {(wall_c - t_c) * 1e3:15.4f}")
    print("launch ms: the launch from Python timed above (wall, synchronised) less the kernel alone.")


def launch_costs(saxpy, softmax) -> None:
    """What one launch of pyx's costs besides its kernel, call by call (microseconds, median of
    2,000, wall): the driver calls runtime/cuda.py makes for every launch, and whole launches of
    kernels with next to nothing to do: saxpy over 0 elements (its module cannot raise, so no
    status record is read) and softmax of 1 row of 1 (whose module's record is read)."""
    import ctypes

    import cupy as cp

    from pyx.runtime import cuda

    device = cuda.open_device()
    driver = device.driver
    flag = ctypes.c_int32()
    pinned = cuda.check(driver, "cuMemAllocHost", driver.cuMemAllocHost(4))
    where = cuda.check(driver, "cuMemAlloc", driver.cuMemAlloc(4))
    x, y = cp.zeros(1, cp.float32), cp.zeros(1, cp.float32)
    calls = {
        "cuCtxSetCurrent": lambda: driver.cuCtxSetCurrent(device.context),
        "cuStreamQuery(0), idle": lambda: driver.cuStreamQuery(0),
        "cuCtxSynchronize, idle": driver.cuCtxSynchronize,
        "cuMemcpyDtoH 4 bytes, pageable": lambda: driver.cuMemcpyDtoH(ctypes.addressof(flag), where, 4),
        "cuMemcpyDtoH 4 bytes, pinned": lambda: driver.cuMemcpyDtoH(pinned, where, 4),
        "pyx launch of saxpy over 0 elements": lambda: saxpy.saxpy[1, 32](2.0, x, x, 0),
        "pyx launch of softmax, 1 row of 1": lambda: softmax.softmax_rows[1, 32](x, y, 1, 1),
    }
    print("\nlaunch path, microseconds a call (median of 2,000, wall):")
    for name, call in calls.items():
        call()
        times = []
        for _ in range(2000):
            t0 = time.perf_counter()
            call()
            times.append(time.perf_counter() - t0)
        print(f"  {name:40} {statistics.median(times) * 1e6:8.1f}")
    driver.cuMemFreeHost(pinned)
    driver.cuMemFree(where)


if __name__ == "__main__":
    ok = parity()
    kernels()
    sys.exit(0 if ok else 1)
