"""The same pyx kernels on pyx's CPU target and on an OpenCL CPU runtime (SPIR-V through pyopencl),
beside NumPy doing the same work, on this machine's CPU. Not part of CI.

    python benchmarks/gpu/opencl_bench.py [--scale N] [--only TEXT]

Each row: the median of several launches from Python (argument conversion and, on OpenCL, the
NumPy arrays' copies in and out included), wall time and the CPU time of the whole process over
the launch (every thread: pyx's pool, Intel's runtime's own threads), and the largest difference
from NumPy's answer; `cpu/opencl` is the ratio of wall times, then of CPU times (the fairer one on
a loaded machine). Kernels that synchronize with `barrier()` and shuffles (the softmax's, in the
functions it calls) run as loops over the block's threads that LLVM vectorizes across threads
(ir/gpu_regions.py). --scale multiplies the sizes
(--scale 8: the issue's 1024^2 matmul, 2^20 prefix sum and 2048x1024 softmax); --only runs the
rows whose name contains TEXT.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import pyx  # noqa: E402
from pyx.runtime import opencl  # noqa: E402


def load(name: str, target: str):
    sys.modules.pop(name, None)
    return pyx.import_module(name, target=target, path=[str(ROOT / "examples")])


class Timing(float):
    """A median wall time, with the median CPU time of the same launches as `.cpu`."""

    cpu: float


def timed(fn, reps: int) -> Timing:
    fn()  # warm: compiles nothing more, builds nothing more
    times, cpu = [], []
    for _ in range(reps):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    result = Timing(statistics.median(times))
    result.cpu = statistics.median(cpu)
    return result


def rows(scale: int, only: str | None = None) -> list[tuple]:
    rng = np.random.default_rng(0)
    out = []
    targets = ("cpu", "opencl")

    def skip(name: str) -> bool:
        return only is not None and only not in name

    if not skip("saxpy"):
        n = (1 << 20) * scale
        x, y0 = rng.random(n, np.float32), rng.random(n, np.float32)
        times, err = [], 0.0
        for t in targets:
            m, y = load("saxpy", t), y0.copy()
            times.append(timed(lambda m=m, y=y: m.saxpy[(n + 255) // 256, 256](2.0, x, y, n), 5))
            y = y0.copy()
            m.saxpy[(n + 255) // 256, 256](2.0, x, y, n)
            err = max(err, float(np.abs(y - (np.float32(2.0) * x + y0)).max()))
        out.append((f"saxpy 2^{n.bit_length() - 1}", *times, timed(lambda: np.float32(2.0) * x + y0, 5), err))

    if not skip("block sum"):
        n = (1 << 18) * scale
        values = (np.arange(n) % 10).astype(np.float32)
        times, err = [], 0.0
        for t in targets:
            m, total = load("gpu_sum", t), np.zeros(1, np.float32)

            def run(m=m, total=total):
                total[0] = 0
                m.block_sum[(n + 255) // 256, 256](values, total, n)
            times.append(timed(run, 3))
            err = max(err, abs(float(total[0]) - float(values.sum(dtype=np.float64))))
        out.append((f"block sum (shared, barriers) 2^{n.bit_length() - 1}", *times, timed(values.sum, 5), err))

    if not skip("prefix sum"):
        n = (1 << 17) * scale
        values = (np.arange(n) % 10).astype(np.float32)
        times, err = [], 0.0
        for t in targets:
            m, y = load("gpu_scan", t), np.zeros(n, np.float32)
            blocks = (n + 1023) // 1024
            totals, scanned, total = (np.zeros(k, np.float32) for k in (blocks, blocks, 1))

            def run(m=m, y=y, blocks=blocks, totals=totals, scanned=scanned, total=total):
                m.scan_blocks[blocks, 1024](values, y, totals, n)  # prefix_sum's three launches
                m.scan_blocks[1, 1024](totals, scanned, total, blocks)
                m.add_totals[blocks, 1024](y, scanned, n)
            times.append(timed(run, 3))
            err = max(err, float(np.abs(y - np.cumsum(values)).max()))
        out.append((f"prefix sum (shared, barriers) 2^{n.bit_length() - 1}", *times,
                    timed(lambda: np.cumsum(values), 5), err))

    if not skip("tiled matmul"):
        s = 128 * scale
        a, b = rng.random((s, s), np.float32), rng.random((s, s), np.float32)
        times, err = [], 0.0
        for t in targets:
            m, c = load("gpu_matmul", t), np.zeros((s, s), np.float32)
            times.append(timed(lambda m=m, c=c: m.matmul[(s // 16, s // 16), (16, 16)](a, b, c, s, s, s), 3))
            err = max(err, float(np.abs(c - a @ b).max()))
        out.append((f"tiled matmul {s}^2 (shared 16x16)", *times, timed(lambda: a @ b, 5), err))

    if not skip("softmax rows"):
        r, k = 256 * scale, 1024
        xs = rng.standard_normal((r, k), dtype=np.float32)

        def numpy_softmax():
            e = np.exp(xs - xs.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        times, err = [], 0.0
        for t in targets:
            m, o = load("gpu_softmax", t), np.zeros_like(xs)
            times.append(timed(lambda m=m, o=o: m.softmax_rows[r, 32](xs, o, r, k), 3))
            err = max(err, float(np.abs(o - numpy_softmax()).max()))
        out.append((f"softmax rows {r}x{k} (warp shuffles)", *times, timed(numpy_softmax, 5), err))

    if not skip("flash attention"):
        # A 64-lane SIMD row per thread: four 16-lane vectors on SPIR-V (codegen/spirv_vectors.py).
        seq, d = 512 * scale, 64
        q, kk, v = (rng.standard_normal((seq, d), dtype=np.float32) for _ in range(3))

        def numpy_attention():
            scores = q @ kk.T / np.float32(np.sqrt(d))
            e = np.exp(scores - scores.max(axis=1, keepdims=True))
            return (e / e.sum(axis=1, keepdims=True)) @ v
        times, err = [], 0.0
        for t in targets:
            m, o = load("flash_attn", t), np.zeros_like(q)
            times.append(timed(lambda m=m, o=o: m.flash_forward[(seq + 31) // 32, 32](q, kk, v, o, seq,
                                                                                      np.float32(1 / np.sqrt(d))), 3))
            err = max(err, float(np.abs(o - numpy_attention()).max()))
        out.append((f"flash attention {seq}x{d} (SIMD rows)", *times, timed(numpy_attention, 5), err))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="multiply every size by this (default 1)")
    parser.add_argument("--only", metavar="TEXT", help="run only the rows whose name contains TEXT")
    args = parser.parse_args()
    if not opencl.available():
        try:
            opencl.open_device()
        except opencl.OpenCLUnavailable as exc:
            print(f"no OpenCL runtime here: {exc}", file=sys.stderr)
        return 1
    print(f"OpenCL device: {opencl.open_device().name}")
    print(f"{'kernel':42} {'cpu target (CPU time)':>23} {'opencl (CPU time)':>23} {'numpy':>11} "
          f"{'cpu/opencl':>13}  max |err|")
    for name, cpu, ocl, ref, err in rows(args.scale, args.only):
        print(f"{name:42} {cpu * 1e3:9.2f}ms ({cpu.cpu * 1e3:8.2f}ms) {ocl * 1e3:9.2f}ms ({ocl.cpu * 1e3:8.2f}ms) "
              f"{ref * 1e3:9.2f}ms {cpu / ocl:6.2f} {cpu.cpu / ocl.cpu:6.2f}  {err:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
