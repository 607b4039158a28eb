"""GPU checks and timings for a session lent an NVIDIA GPU (not part of CI).

    python benchmarks/gpu/gpu_bench.py

1. Warp-operation parity: every warp op on every lane, CPU target against the GPU.
2. Kernel timings: pyx's example kernels launched on the GPU on CuPy arrays (in place, no copies),
   beside the same kernels written in CUDA C++ (twins.cu, compiled by NVRTC through CuPy, launched
   with the same grid and block) and beside CuPy/cuBLAS doing the same work; median of several
   launches, each synchronised.
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
    (which every launch on the context waits for): the kernel without Python's launch overhead."""
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
    saxpy = load("saxpy", "cuda", ex)
    n = 1 << 24
    x, y = cp.random.random(n, dtype=cp.float32), cp.random.random(n, dtype=cp.float32)
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
    print(f"\n{'kernel (device time, CUDA events)':34} {'pyx ms':>9} {'CUDA C ms':>10} {'pyx/C':>7}")
    for (name, *_), (t_pyx, t_c) in zip(rows, device, strict=True):
        print(f"{name:34} {t_pyx * 1e3:9.3f} {t_c * 1e3:10.3f} {t_pyx / t_c:7.2f}")
    print("pyx times include the launch's cuCtxSynchronize and argument handling from Python;")
    print("CUDA C twins are launched by CuPy (its own launch overhead) and synchronised the same way.")


if __name__ == "__main__":
    ok = parity()
    kernels()
    sys.exit(0 if ok else 1)
