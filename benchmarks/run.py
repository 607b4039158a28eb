#!/usr/bin/env python3
"""pyx against NumPy, Numba, C (gcc -O3 -march=native), Mojo, Warp, Taichi and CPython, printed as one table.

    python benchmarks/run.py [--quick] [--json] [--smoke] [--only TEXT]
    python benchmarks/run.py --startup [--baseline DIR]     (the start-up rows alone)

Each figure is the median of several runs after a warm-up. Ratios are speed-ups of pyx
over each peer (peer time / pyx time: above 1 means pyx is faster). Rows marked with 2
threads (PYX_NUM_THREADS, default 2) compare pyx's `prange` kernels with Numba's
`prange` and C with OpenMP, all on that many threads. Rows marked 1 thread run every
contender on one thread: NumPy's BLAS is limited to one thread there with threadpoolctl
(the header says so, or says that it could not be). Results are checked
against each other before anything is timed. Peers that are not installed (Numba, gcc)
are skipped and marked "-". `pip install "pyx-llvm[bench]"` installs the peers.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Before anything starts a thread pool: the parallel rows give every contender the same threads.
THREADS = os.environ.setdefault("PYX_NUM_THREADS", os.environ.get("OMP_NUM_THREADS", "2"))
os.environ.setdefault("OMP_NUM_THREADS", THREADS)
os.environ.setdefault("NUMBA_NUM_THREADS", THREADS)
# These pick an older OpenBLAS kernel and a smaller cache size than the machine has, which slows
# current NumPy: the NumPy peer runs with the kernel OpenBLAS itself picks (the header names it).
UNSET_OPENBLAS = {name: os.environ.pop(name) for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
                  if name in os.environ}

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # benchmarks/corpus.py, the whole-program table's programs; peers.py
ROOT = HERE.parent


def one_thread_blas():
    """A context in which NumPy's BLAS uses one thread (threadpoolctl), for the 1-thread rows;
    None where threadpoolctl is not installed (the header then says NumPy was not limited)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(limits=1, user_api="blas")


def blas_description() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "BLAS threads not limited on 1-thread rows (pip install threadpoolctl)"
    pools = [p for p in threadpool_info() if p.get("user_api") == "blas"]
    text = ", ".join(f"{p.get('internal_api')} {p.get('version')} kernel {p.get('architecture')} "
                     f"({p.get('num_threads')} threads)" for p in pools) or "no BLAS found"
    unset = f"; unset for NumPy: {', '.join(f'{k}={v}' for k, v in UNSET_OPENBLAS.items())}" if UNSET_OPENBLAS else ""
    return f"BLAS: {text}, limited to 1 thread on 1-thread rows{unset}"


def median_time(fn, repeat: int, warmup: int = 1, warm_seconds: float = 0.0) -> float:
    """The median of `repeat` timed calls, after `warmup` calls and at least `warm_seconds` of them:
    on the parallel rows another runtime's workers (Numba's TBB layer, measured) keep a core busy
    for tens of milliseconds after its call, and a contender timed in that window ran at one-thread
    speed (pyx's 1024^2 matmul: 9.3 ms in the table, 4.7 ms alone)."""
    start = time.perf_counter()
    for _ in range(warmup):
        fn()
    while time.perf_counter() - start < warm_seconds:
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# ---- peers ----
# The functions-as-values rows in Python: the same text as benchmarks/kernels.px's `def`s of these
# names, less the annotations; CPython runs them, and Numba compiles what it can.
def sort_pairs_by_key(n, seed):
    pairs = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        pairs.append((i, x))
    ordered = sorted(pairs, key=lambda t: t[1])
    check = 0
    for k in range(0, n, 7):
        check = (check * 31 + ordered[k][0]) % 1000000007
    return check


def generator_sum(n):
    return sum(x * x % 7 for x in range(n))


def build_c(tmp: Path):
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if cc is None:
        return None
    lib = tmp / "kernels.so"
    fast = tmp / "kernels_fastmath.o"  # -ffast-math for this one kernel only
    done = subprocess.run([cc, "-O3", "-march=native", "-ffast-math", "-fPIC", "-c",
                           str(HERE / "kernels_fastmath.c"), "-o", str(fast)], capture_output=True, text=True)
    if done.returncode == 0:
        done = subprocess.run([cc, "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", str(HERE / "kernels.c"),
                               str(HERE / "peak.c"), str(fast), "-o", str(lib), "-lm"], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"(gcc failed, no C column: {done.stderr.strip()[:200]})", file=sys.stderr)
        return None
    c = ctypes.CDLL(str(lib))
    f32p, f64p, i64 = ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_double), ctypes.c_long
    for name in ("mandelbrot", "mandelbrot_omp", "mandelbrot_simd", "mandelbrot_simd_omp"):
        getattr(c, name).restype, getattr(c, name).argtypes = i64, [i64, i64, i64]
    for name in ("triad", "triad_omp"):
        getattr(c, name).restype, getattr(c, name).argtypes = None, [f32p, f32p, f32p, ctypes.c_float, i64]
    for name in ("total", "total_omp", "total_fastmath"):
        getattr(c, name).restype, getattr(c, name).argtypes = ctypes.c_float, [f32p, i64]
    for name in ("softmax_rows", "softmax_rows_omp"):
        getattr(c, name).restype, getattr(c, name).argtypes = None, [f32p, f32p, i64, i64]
    u16p = ctypes.POINTER(ctypes.c_uint16)
    c.dot_bf16.restype, c.dot_bf16.argtypes = ctypes.c_float, [u16p, u16p, i64]
    c.nbody.restype, c.nbody.argtypes = ctypes.c_double, [i64, f64p]
    c.fib.restype, c.fib.argtypes = i64, [i64]
    for name in ("matmul", "matmul_omp"):
        getattr(c, name).restype, getattr(c, name).argtypes = None, [f32p, f32p, f32p, i64, i64, i64]
    for name in ("peak_fma", "peak_fma_omp"):
        getattr(c, name).restype, getattr(c, name).argtypes = ctypes.c_float, [i64]
    c.peak_fma_flops.restype, c.peak_fma_flops.argtypes = i64, [i64]
    for name in ("stream_copy", "stream_copy_omp"):
        getattr(c, name).restype, getattr(c, name).argtypes = None, [f32p, f32p, i64]
    return c


def measure_peaks(c, threads: int, smoke: bool) -> dict:
    """FMA GFLOP/s and stream-copy GB/s of this machine on 1 and `threads` threads (peak.c), the
    denominators of the "% of peak" column; empty without a C compiler."""
    if c is None:
        return {}
    n = 100_000 if smoke else 20_000_000
    words = 1 << (12 if smoke else 26)  # 256 MiB of float32: far beyond the caches
    src, dst = np.ones(words, np.float32), np.empty(words, np.float32)
    f32p = ctypes.POINTER(ctypes.c_float)
    peaks = {}
    for count, fma, copy in ((1, c.peak_fma, c.stream_copy), (threads, c.peak_fma_omp, c.stream_copy_omp)):
        seconds = median_time(lambda fma=fma: fma(n), 3)
        peaks[("flop", count)] = c.peak_fma_flops(n) * count / seconds
        seconds = median_time(lambda copy=copy: copy(dst.ctypes.data_as(f32p), src.ctypes.data_as(f32p), words), 3)
        peaks[("byte", count)] = 2 * 4 * words / seconds  # bytes read plus bytes written
    return peaks


def fraction_of_peak(entry: dict, peaks: dict) -> str:
    work = entry.get("work")
    peak = peaks.get((work[0], entry["threads"])) if work else None
    if peak is None or entry["pyx"] is None:
        return "-"
    return f"{100 * work[1] / entry['pyx'] / peak:.0f}%"


class MojoKernels:
    """benchmarks/mojo/kernels.mojo built with `mojo build -O3` (Mojo from PyPI: `pip install mojo`;
    `mojo` on PATH or `MOJO=/path/to/mojo`). Each call runs one kernel in the binary, which times it
    itself (the median of `repeat` runs, in-process, as the other columns are timed)."""

    def __init__(self, binary: Path, build_seconds: float):
        self.binary = binary
        self.build_seconds = build_seconds

    def run(self, kernel: str, size: int, inputs=(), shape=None, *, repeat: int) -> tuple:
        """An array kernel gets `inputs` (float32 arrays, as pyx gets them) through a file and returns
        its output array, reshaped to `shape`, for the row to check against pyx's."""
        command = [str(self.binary), kernel, str(size), str(repeat)]
        if inputs:
            source, target = self.binary.parent / "mojo_in.f32", self.binary.parent / "mojo_out.f32"
            np.concatenate([np.ascontiguousarray(x, np.float32).ravel() for x in inputs]).tofile(source)
            command += [str(source), str(target)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        result, nanoseconds = done.stdout.split()
        if inputs:
            array = np.fromfile(target, np.float32)
            result = float(array[0]) if shape is None else array.reshape(shape)
        return (float(result) if not inputs else result), int(nanoseconds) * 1e-9


def build_mojo(tmp: Path) -> MojoKernels | None:
    mojo = os.environ.get("MOJO") or shutil.which("mojo")
    if mojo is None:
        return None
    binary = tmp / "mojo_kernels"
    start = time.perf_counter()
    done = subprocess.run([mojo, "build", "-O3", str(HERE / "mojo" / "kernels.mojo"), "-o", str(binary)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(f"(mojo build failed, no Mojo column: {done.stderr.strip()[-300:]})", file=sys.stderr)
        return None
    return MojoKernels(binary, time.perf_counter() - start)


def numba_kernels():
    try:
        import numba
    except ImportError:
        return None
    njit = numba.njit(cache=False)

    @njit
    def mandelbrot(width, height, max_iter):
        total = 0
        dx, dy = 3.0 / width, 3.0 / height
        for row in range(height):
            cy = -1.5 + row * dy
            for col in range(width):
                cx = -2.0 + col * dx
                x = y = 0.0
                i = 0
                while i < max_iter and x * x + y * y <= 4.0:
                    x, y = x * x - y * y + cx, 2.0 * x * y + cy
                    i += 1
                total += i
        return total

    @njit
    def triad(a, b, c, s):
        for i in range(a.shape[0]):
            a[i] = b[i] + s * c[i]

    @njit
    def total(x):
        s = np.float32(0.0)
        for i in range(x.shape[0]):
            s += x[i]
        return s

    @numba.njit(cache=False, fastmath=True)
    def total_fastmath(x):
        s = np.float32(0.0)
        for i in range(x.shape[0]):
            s += x[i]
        return s

    @njit
    def softmax_rows(x, out):
        for r in range(x.shape[0]):
            m = x[r].max()
            s = np.float32(0.0)
            for j in range(x.shape[1]):
                out[r, j] = np.exp(x[r, j] - m)
                s += out[r, j]
            out[r] /= s

    @njit
    def nbody(steps, state):
        b = state.reshape(5, 7).copy()
        for _ in range(steps):
            for i in range(5):
                for j in range(i + 1, 5):
                    dx, dy, dz = b[i, 0] - b[j, 0], b[i, 1] - b[j, 1], b[i, 2] - b[j, 2]
                    d2 = dx * dx + dy * dy + dz * dz
                    mag = 0.01 / (d2 * np.sqrt(d2))
                    b[i, 3] -= dx * b[j, 6] * mag
                    b[i, 4] -= dy * b[j, 6] * mag
                    b[i, 5] -= dz * b[j, 6] * mag
                    b[j, 3] += dx * b[i, 6] * mag
                    b[j, 4] += dy * b[i, 6] * mag
                    b[j, 5] += dz * b[i, 6] * mag
            for i in range(5):
                b[i, 0] += 0.01 * b[i, 3]
                b[i, 1] += 0.01 * b[i, 4]
                b[i, 2] += 0.01 * b[i, 5]
        e = 0.0
        for i in range(5):
            e += 0.5 * b[i, 6] * (b[i, 3] ** 2 + b[i, 4] ** 2 + b[i, 5] ** 2)
            for j in range(i + 1, 5):
                d = np.sqrt((b[i, 0] - b[j, 0]) ** 2 + (b[i, 1] - b[j, 1]) ** 2 + (b[i, 2] - b[j, 2]) ** 2)
                e -= b[i, 6] * b[j, 6] / d
        return e

    @njit
    def matmul(a, b, c):
        c[:] = 0.0
        for i in range(a.shape[0]):
            for p in range(a.shape[1]):
                aip = a[i, p]
                for j in range(b.shape[1]):
                    c[i, j] += aip * b[p, j]

    @njit
    def dot_bf16(a, b):
        # Numba has no bfloat16 and no scalar bit cast: widen a block at a time into a reused
        # uint32 buffer and read it back as float32 (no whole-array temporaries).
        wa, wb = np.empty(4096, np.uint32), np.empty(4096, np.uint32)
        fa, fb = wa.view(np.float32), wb.view(np.float32)
        s = np.float32(0.0)
        for start in range(0, a.shape[0], 4096):
            m = min(4096, a.shape[0] - start)
            for j in range(m):
                wa[j] = np.uint32(a[start + j]) << np.uint32(16)
                wb[j] = np.uint32(b[start + j]) << np.uint32(16)
            for j in range(m):
                s += fa[j] * fb[j]
        return s

    @njit
    def add3(a, b, c):
        return a + b + c

    pjit = numba.njit(cache=False, parallel=True)
    prange = numba.prange

    @pjit
    def mandelbrot_parallel(width, height, max_iter):
        total = 0
        dx, dy = 3.0 / width, 3.0 / height
        for row in prange(height):
            cy = -1.5 + row * dy
            for col in range(width):
                cx = -2.0 + col * dx
                x = y = 0.0
                i = 0
                while i < max_iter and x * x + y * y <= 4.0:
                    x, y = x * x - y * y + cx, 2.0 * x * y + cy
                    i += 1
                total += i
        return total

    @pjit
    def triad_parallel(a, b, c, s):
        for i in prange(a.shape[0]):
            a[i] = b[i] + s * c[i]

    @pjit
    def total_parallel(x):
        s = np.float32(0.0)
        for i in prange(x.shape[0]):
            s += x[i]
        return s

    @pjit
    def softmax_rows_parallel(x, out):
        for r in prange(x.shape[0]):
            m = x[r].max()
            s = np.float32(0.0)
            for j in range(x.shape[1]):
                out[r, j] = np.exp(x[r, j] - m)
                s += out[r, j]
            out[r] /= s

    @pjit
    def matmul_parallel(a, b, c):
        for i in prange(a.shape[0]):
            c[i, :] = 0.0
            for p in range(a.shape[1]):
                aip = a[i, p]
                for j in range(b.shape[1]):
                    c[i, j] += aip * b[p, j]

    @njit
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    @njit
    def collatz_longest(limit):
        known = numba.typed.Dict.empty(numba.types.int64, numba.types.int64)
        best, best_start = 0, 1
        for start in range(1, limit):
            path = numba.typed.List.empty_list(numba.types.int64)
            n = start
            while n != 1 and n not in known:
                path.append(n)
                n = n // 2 if n % 2 == 0 else 3 * n + 1
            length = 1 if n == 1 else known[n]
            while len(path) > 0:
                length += 1
                known[path.pop()] = length
            if length > best:
                best, best_start = length, start
        return best_start

    @njit
    def word_count(n):
        words = ["the", "quick", "Brown", "fox", "jumps", "over", "lazy", "dog", "and", "runs", "far", "away"]
        parts = numba.typed.List.empty_list(numba.types.unicode_type)
        state = 12345
        for _ in range(n):
            state = (state * 1103515245 + 12345) % 2147483648
            word = words[state % 12]
            if state % 7 == 0:
                word = word + ","
            parts.append(word)
        text = " ".join(parts)
        counts = numba.typed.Dict.empty(numba.types.unicode_type, numba.types.int64)
        for raw in text.split():
            word = raw.strip().replace(",", "").lower()
            counts[word] = counts.get(word, 0) + 1
        total = 0
        for word in counts.keys():  # noqa: SIM118 - keys() of Numba's typed Dict, as Numba's docs iterate it
            total += len(word) * counts[word]
        return total

    def compiled(fn, *sample):
        """Numba's compile of a Python function, or None where Numba cannot compile it (the row
        shows `-`): a generator expression in a jitted function is its UnsupportedError."""
        jitted = njit(fn)
        try:
            jitted(*sample)
        except Exception:  # noqa: BLE001 - Numba's compile errors differ between its versions
            return None
        return jitted

    return {"sort_pairs_by_key": compiled(sort_pairs_by_key, 10, 1), "generator_sum": compiled(generator_sum, 10),
            "mandelbrot": mandelbrot, "triad": triad, "total": total, "softmax_rows": softmax_rows,
            "total_fastmath": total_fastmath, "dot_bf16": dot_bf16, "collatz_longest": collatz_longest,
            "word_count": word_count,
            "nbody": nbody, "add3": add3, "fib": fib, "matmul": matmul, "mandelbrot_parallel": mandelbrot_parallel,
            "triad_parallel": triad_parallel, "total_parallel": total_parallel,
            "softmax_rows_parallel": softmax_rows_parallel, "matmul_parallel": matmul_parallel}


def numpy_mandelbrot(width, height, max_iter):
    cx = -2.0 + np.arange(width) * (3.0 / width)
    cy = -1.5 + np.arange(height) * (3.0 / height)
    c = cx[None, :] + 1j * cy[:, None]
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int64)
    alive = np.ones(c.shape, dtype=bool)
    for _ in range(max_iter):
        z[alive] = z[alive] * z[alive] + c[alive]
        alive &= (z.real * z.real + z.imag * z.imag) <= 4.0
        counts += alive
    return int(counts.sum() + (counts < max_iter).sum())


def nbody_state() -> np.ndarray:
    pi = 3.141592653589793
    solar, days = 4 * pi * pi, 365.24
    planets = [
        (4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01, 1.66007664274403694e-03,
         7.69901118419740425e-03, -6.90460016972063023e-05, 9.54791938424326609e-04),
        (8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01, -2.76742510726862411e-03,
         4.99852801234917238e-03, 2.30417297573763929e-05, 2.85885980666130812e-04),
        (1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01, 2.96460137564761618e-03,
         2.37847173959480950e-03, -2.96589568540237556e-05, 4.36624404335156298e-05),
        (1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01, 2.68067772490389322e-03,
         1.62824170038242295e-03, -9.51592254519715870e-05, 5.15138902046611451e-05)]
    bodies = [[0, 0, 0, 0, 0, 0, solar]] + [[x, y, z, vx * days, vy * days, vz * days, m * solar]
                                             for x, y, z, vx, vy, vz, m in planets]
    state = np.array(bodies, dtype=np.float64)
    momentum = (state[1:, 3:6] * state[1:, 6:7]).sum(axis=0)
    state[0, 3:6] = -momentum / solar
    return state.ravel().copy()


# ---- the benchmarks ----
def run_kernels(args, px, c, nb, mojo: MojoKernels | None = None, wp=None, ti=None) -> list[dict]:
    import pyx

    rows = []
    repeat = 1 if args.smoke else (3 if args.quick else 5)
    f32 = ctypes.POINTER(ctypes.c_float)
    threads = int(THREADS)

    def row(name, parallel, pyx_fn, numpy_fn=None, numba_fn=None, c_fn=None, check=None, mojo_kernel=None,
            warp_fn=None, taichi_fn=None, work=None, python_fn=None):
        """One line of the table: a serial row (1 thread) or a parallel one (`threads` threads).
        `mojo_kernel` is (kernel name, size[, inputs, output shape]) in benchmarks/mojo/kernels.mojo,
        when it has a twin (see MojoKernels.run). Warp and Taichi: see peers.py. `work` is
        ("flop", floating-point operations) or ("byte", bytes a kernel must move at least), for
        the fraction of the machine's peak."""
        if args.only and args.only not in name:
            return
        mojo_result, mojo_seconds = (mojo.run(*mojo_kernel, repeat=repeat) if mojo is not None and mojo_kernel
                                     else (None, None))
        peers = {"pyx": pyx_fn, "numpy": numpy_fn, "numba": numba_fn, "c": c_fn, "warp": warp_fn, "taichi": taichi_fn,
                 "python": python_fn}
        results = {key: fn() if fn else None for key, fn in peers.items()} | {"mojo": mojo_result}
        agree = all(check(results["pyx"], v) for v in results.values() if v is not None) if check else True
        entry = {"benchmark": name, "threads": threads if parallel else 1, "agree": agree, "mojo": mojo_seconds,
                 "work": work}
        for key, fn in peers.items():
            if fn and parallel and not args.smoke:
                time.sleep(0.2)  # let the previous contender's spinning threads go to sleep
            limit = one_thread_blas() if key == "numpy" and fn and not parallel else None
            if limit is None:
                entry[key] = median_time(fn, repeat, warm_seconds=0.25 if parallel else 0.0) if fn else None
            else:
                with limit:
                    entry[key] = median_time(fn, repeat)
        rows.append(entry)
        print(f"  {name} ({entry['threads']} thread{'s' if entry['threads'] > 1 else ''}): done", file=sys.stderr)

    examples = [str(ROOT / "examples")]
    simd, streams = pyx.import_module("mandelbrot_simd", path=examples), pyx.import_module("triad_sum", path=examples)
    soft_ex, mm = pyx.import_module("softmax", path=examples), pyx.import_module("matmul", path=examples)

    size = 64 if args.smoke else (512 if args.quick else 1024)
    iters = 50 if args.smoke else 200
    mandel = f"mandelbrot {size}x{size}, {iters} iterations"
    same = (lambda a, b: a == b)
    numpy_m = lambda: numpy_mandelbrot(size, size, iters)
    row(f"{mandel} (scalar)", False, lambda: px.mandelbrot(size, size, iters), numpy_m,
        nb and (lambda: nb["mandelbrot"](size, size, iters)), c and (lambda: c.mandelbrot(size, size, iters)),
        check=same, mojo_kernel=("mandelbrot", size) if iters == 200 else None,
        warp_fn=wp and (lambda: wp["mandelbrot"](size, size, iters)),
        taichi_fn=ti and (lambda: ti["mandelbrot"](size, size, iters)))
    row(f"{mandel} (scalar)", True, lambda: px.mandelbrot_parallel(size, size, iters), numpy_m,
        nb and (lambda: nb["mandelbrot_parallel"](size, size, iters)),
        c and (lambda: c.mandelbrot_omp(size, size, iters)), check=same,
        taichi_fn=ti and (lambda: ti["mandelbrot_parallel"](size, size, iters)))
    # The same prange loop in Mojo's spelling (a nested `@parameter fn` given to `parallelize`).
    row(f"{mandel} (scalar, parallelize[row])", True, lambda: px.mandelbrot_parallelize(size, size, iters),
        numpy_m, nb and (lambda: nb["mandelbrot_parallel"](size, size, iters)),
        c and (lambda: c.mandelbrot_omp(size, size, iters)), check=same)
    # C: AVX-512 intrinsics where the compiler targets AVX-512 (the header says which).
    row(f"{mandel} (SIMD, 8 lanes)", False, lambda: px.mandelbrot_simd(size, size, iters), None,
        nb and (lambda: nb["mandelbrot"](size, size, iters)), c and (lambda: c.mandelbrot_simd(size, size, iters)),
        check=same, mojo_kernel=("mandelbrot_simd", size) if iters == 200 else None)
    row(f"{mandel} (SIMD, 8 lanes)", True, lambda: simd.mandelbrot(-2.0, -1.5, 3.0 / size, size, size, iters), None,
        nb and (lambda: nb["mandelbrot_parallel"](size, size, iters)),
        c and (lambda: c.mandelbrot_simd_omp(size, size, iters)), check=same)

    n = 1 << (12 if args.smoke else (22 if args.quick else 25))
    rng = np.random.default_rng(0)
    a, b, cc = np.zeros(n, np.float32), rng.random(n, np.float32), rng.random(n, np.float32)
    out = np.empty_like(a)

    def as_f32(x):
        return x.ctypes.data_as(f32)

    def numpy_triad():
        np.add(b, np.float32(1.5) * cc, out=out)
        return out.copy()

    close = (lambda x, y: np.allclose(x, y))
    # Bytes each row must move at least, counting the copy of the output that every contender's
    # call returns (read and written): the "% of peak" column's numerator for memory-bound rows.
    triad_bytes = ("byte", 4 * n * 3 + 4 * n * 2)
    triad = f"triad a = b + s*c, 2^{n.bit_length() - 1} float32"
    row(triad, False, lambda: (px.triad(a, b, cc, 1.5, n), a.copy())[1], numpy_triad,
        nb and (lambda: (nb["triad"](a, b, cc, np.float32(1.5)), a.copy())[1]),
        c and (lambda: (c.triad(as_f32(a), as_f32(b), as_f32(cc), 1.5, n), a.copy())[1]), check=close,
        mojo_kernel=("triad", n, (b, cc), a.shape), warp_fn=wp and (lambda: (wp["triad"](a, b, cc, 1.5), a.copy())[1]),
        taichi_fn=ti and (lambda: (ti["triad"](a, b, cc, 1.5), a.copy())[1]), work=triad_bytes)
    row(triad, True, lambda: (streams.triad(a, b, cc, 1.5, n), a.copy())[1], numpy_triad,
        nb and (lambda: (nb["triad_parallel"](a, b, cc, np.float32(1.5)), a.copy())[1]),
        c and (lambda: (c.triad_omp(as_f32(a), as_f32(b), as_f32(cc), 1.5, n), a.copy())[1]), check=close,
        taichi_fn=ti and (lambda: (ti["triad_parallel"](a, b, cc, 1.5), a.copy())[1]), work=triad_bytes)
    near = (lambda x, y: abs(x - y) <= 1e-3 * abs(y))
    summed = f"sum of 2^{n.bit_length() - 1} float32"
    row(summed, False, lambda: px.total(b, n), lambda: float(b.sum()), nb and (lambda: nb["total"](b)),
        c and (lambda: c.total(as_f32(b), n)), check=near, mojo_kernel=("sum", n, (b,)),
        warp_fn=wp and (lambda: wp["total"](b)), taichi_fn=ti and (lambda: ti["total"](b)), work=("byte", 4 * n))
    # pyx's `total` reassociates (four SIMD accumulators, written so): here C and Numba may too.
    row(summed + ", peers with fast-math", False, lambda: px.total(b, n), lambda: float(b.sum()),
        nb and (lambda: nb["total_fastmath"](b)), c and (lambda: c.total_fastmath(as_f32(b), n)), check=near,
        work=("byte", 4 * n))
    row(summed, True, lambda: streams.total(b, n), lambda: float(b.sum()),
        nb and (lambda: nb["total_parallel"](b)), c and (lambda: c.total_omp(as_f32(b), n)), check=near,
        taichi_fn=ti and (lambda: ti["total_parallel"](b)), work=("byte", 4 * n))

    # BFloat16 in NumPy is uint16 bits: widening them to float32 is part of NumPy's and Numba's work.
    half_a = (rng.standard_normal(n, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    half_b = (rng.standard_normal(n, np.float32).view(np.uint32) >> 16).astype(np.uint16)

    def widened(bits):
        return (bits.astype(np.uint32) << 16).view(np.float32)

    u16 = ctypes.POINTER(ctypes.c_uint16)
    near_dot = (lambda x, y: abs(x - y) <= 1e-3 * math.sqrt(n))  # sums of n products of about unit size
    row(f"dot of 2^{n.bit_length() - 1} bfloat16 pairs (float32 sums)", False, lambda: px.dot_bf16(half_a, half_b, n),
        lambda: float(np.dot(widened(half_a), widened(half_b))), nb and (lambda: nb["dot_bf16"](half_a, half_b)),
        c and (lambda: c.dot_bf16(half_a.ctypes.data_as(u16), half_b.ctypes.data_as(u16), n)), check=near_dot,
        work=("byte", 2 * n * 2))

    rows_n = 64 if args.smoke else (1024 if args.quick else 4096)
    x = rng.standard_normal((rows_n, rows_n), np.float32)
    y = np.empty_like(x)

    def numpy_softmax():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    soft = (lambda p, q: np.allclose(p, q, rtol=1e-4, atol=1e-7))
    softmax = f"row softmax {rows_n}x{rows_n} float32"
    softmax_bytes = ("byte", 4 * rows_n * rows_n * 2 + 4 * rows_n * rows_n * 2)  # x in, y out; y's copy
    row(softmax, False, lambda: (px.softmax_rows(x, y, rows_n, rows_n), y.copy())[1], numpy_softmax,
        nb and (lambda: (nb["softmax_rows"](x, y), y.copy())[1]),
        c and (lambda: (c.softmax_rows(as_f32(x), as_f32(y), rows_n, rows_n), y.copy())[1]), check=soft,
        mojo_kernel=("softmax", rows_n, (x,), x.shape),
        warp_fn=wp and (lambda: (wp["softmax_rows"](x, y), y.copy())[1]),
        taichi_fn=ti and (lambda: (ti["softmax_rows"](x, y), y.copy())[1]), work=softmax_bytes)
    row(softmax, True, lambda: (soft_ex.softmax_rows(x, y, rows_n, rows_n), y.copy())[1], numpy_softmax,
        nb and (lambda: (nb["softmax_rows_parallel"](x, y), y.copy())[1]),
        c and (lambda: (c.softmax_rows_omp(as_f32(x), as_f32(y), rows_n, rows_n), y.copy())[1]), check=soft,
        taichi_fn=ti and (lambda: (ti["softmax_rows_parallel"](x, y), y.copy())[1]), work=softmax_bytes)

    # Two modules' parallel loops called one after the other (benchmarks/kernels.px and
    # examples/softmax.px): one pool per process (runtime/pool.py), not one per module each
    # spinning a thread per core while the other module's loop runs. Numba's and OpenMP's
    # runtimes are one per process too.
    def alternately(mandel_fn, softmax_fn):
        for _ in range(4):
            m = mandel_fn()
            softmax_fn()
        return m, y.copy()

    row(f"two modules' loops alternately ({mandel} + {softmax}), x4", True,
        lambda: alternately(lambda: px.mandelbrot_parallel(size, size, iters),
                            lambda: soft_ex.softmax_rows(x, y, rows_n, rows_n)), None,
        nb and (lambda: alternately(lambda: nb["mandelbrot_parallel"](size, size, iters),
                                    lambda: nb["softmax_rows_parallel"](x, y))),
        c and (lambda: alternately(lambda: c.mandelbrot_omp(size, size, iters),
                                   lambda: c.softmax_rows_omp(as_f32(x), as_f32(y), rows_n, rows_n))),
        check=lambda p, q: p[0] == q[0] and soft(p[1], q[1]))

    for size in ([64] if args.smoke else ([512] if args.quick else [1024, 2048])):
        ma, mb = rng.standard_normal((size, size), np.float32), rng.standard_normal((size, size), np.float32)
        mc = np.empty((size, size), np.float32)
        mat = (lambda p, q: np.allclose(p, q, rtol=1e-3, atol=1e-2))
        for parallel in (False, True):
            suffix = "_parallel" if parallel else ""
            kernel = getattr(mm, "matmul_f32" + suffix)
            c_kernel = c and getattr(c, "matmul_omp" if parallel else "matmul")
            row(f"matmul {size}x{size} float32", parallel,
                lambda: (kernel(ma, mb, mc, size, size, size), mc.copy())[1], lambda: ma @ mb,
                nb and (lambda: (nb["matmul" + suffix](ma, mb, mc), mc.copy())[1]),
                c and (lambda: (c_kernel(as_f32(ma), as_f32(mb), as_f32(mc), size, size, size), mc.copy())[1]),
                check=mat, mojo_kernel=None if parallel else ("matmul", size, (ma, mb), mc.shape),
                work=("flop", 2 * size ** 3))

    steps = 1000 if args.smoke else (100_000 if args.quick else 1_000_000)
    state = nbody_state()
    row(f"n-body 5 bodies, {steps} steps", False, lambda: px.nbody(steps, state), None,
        nb and (lambda: nb["nbody"](steps, state)),
        c and (lambda: c.nbody(steps, state.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))),
        check=lambda p, q: abs(p - q) <= 1e-9 * abs(q), mojo_kernel=("nbody", steps),
        warp_fn=wp and (lambda: wp["nbody"](steps, state)), taichi_fn=ti and (lambda: ti["nbody"](steps, state)))

    depth = 20 if args.smoke else (27 if args.quick else 32)
    row(f"fib({depth}), recursive calls", False, lambda: px.fib(depth), None,
        nb and (lambda: nb["fib"](depth)), c and (lambda: c.fib(depth)), check=same, mojo_kernel=("fib", depth))

    limit = 1000 if args.smoke else (30_000 if args.quick else 300_000)
    row(f"collatz below {limit} (Dict + List)", False, lambda: px.collatz_longest(limit), None,
        nb and (lambda: nb["collatz_longest"](limit)), None, check=same, mojo_kernel=("collatz", limit))

    words = 1000 if args.smoke else (20_000 if args.quick else 200_000)
    row(f"word count of {words} words (String + Dict)", False, lambda: px.word_count(words), None,
        nb and (lambda: nb["word_count"](words)), None, check=same, mojo_kernel=("word_count", words))

    # Functions as values, against CPython (the same Python text) and Numba where it compiles it.
    pairs = 1000 if args.smoke else (100_000 if args.quick else 1_000_000)
    row(f"sorted(key=lambda) of {pairs} tuples", False, lambda: px.sort_pairs_by_key(pairs, 1), None,
        nb and nb["sort_pairs_by_key"] and (lambda: nb["sort_pairs_by_key"](pairs, 1)), None, check=same,
        python_fn=lambda: sort_pairs_by_key(pairs, 1))
    count = 10_000 if args.smoke else (1_000_000 if args.quick else 10_000_000)
    row(f"sum(generator expression) of {count} items", False, lambda: px.generator_sum(count), None,
        nb and nb["generator_sum"] and (lambda: nb["generator_sum"](count)), None, check=same,
        python_fn=lambda: generator_sum(count))
    return rows


def user_env(extra: dict | None = None) -> dict:
    """The environment a user's process would have: Python caches bytecode (a CI or sandbox
    setting that turns that off would charge every start for compiling the compiler)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **(extra or {})}


def process_seconds(code: str, env: dict | None = None, repeat: int = 3, warmup: bool = True) -> float:
    if warmup:  # Python writes its bytecode; the timed runs then start as a user's would
        subprocess.run([sys.executable, "-c", code], capture_output=True, env=user_env(env))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, env=user_env(env))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def timed_in_process(code: str, env: dict | None = None, repeat: int = 3) -> float:
    """Seconds `code` takes inside a fresh interpreter (start-up excluded: it prints its own timing)."""
    script = "import time\n_t = time.perf_counter()\n" + code + "\nprint(time.perf_counter() - _t)\n"
    times = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True,
                              env=user_env(env))
        times.append(float(done.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def run_latency(args, nb) -> list[dict]:
    mandelbrot = str(ROOT / "examples" / "mandelbrot.px")
    run = f"import sys; from pyx.cli import main; sys.exit(main(['run', {mandelbrot!r}]))"
    python = process_seconds("pass")
    out = [{"what": "python -c pass (Python start-up)", "seconds": python}]
    out.append({"what": "import pyx", "seconds": timed_in_process("import pyx")})
    # Cold: a first run, with an empty cache (it compiles, links and fills the cache).
    with tempfile.TemporaryDirectory() as empty:
        cold = [process_seconds(run, {"PYX_CACHE_DIR": os.path.join(empty, str(i))}, repeat=1, warmup=False)
                for i in range(3)]
    out.append({"what": "pyx run examples/mandelbrot.px, cold (empty cache)", "seconds": statistics.median(cold)})
    process_seconds(run, repeat=1)
    out.append({"what": "pyx run examples/mandelbrot.px, warm cache", "seconds": process_seconds(run)})
    if nb is not None:
        code = ("import numba\n@numba.njit\ndef f(w, h, m):\n    t = 0\n    for r in range(h):\n"
                "        for c in range(w):\n            x = y = 0.0\n"
                "            cx, cy = -2.0 + c * 0.01, -1.0 + r * 0.01\n"
                "            i = 0\n            while i < m and x * x + y * y <= 4.0:\n"
                "                x, y = x * x - y * y + cx, 2.0 * x * y + cy\n"
                "                i += 1\n            t += i\n"
                "    return t\nf(300, 200, 200)\n")
        out.append({"what": "Numba: import + first call of the same kernel", "seconds": process_seconds(code)})
    return out


HELLO = 'fn main():\n    print("hello, world")\n'


def _entry_module(package: Path) -> str:
    """What the `pyx` command runs for the package in `package/pyx`: its console script's entry
    (quick_run.main since the warm start skips the compiler; cli.main before that)."""
    return "pyx.quick_run" if (package / "pyx" / "quick_run.py").is_file() else "pyx.cli"


def _cpu_ms(command: list[str], env: dict, cwd: Path) -> float:
    """CPU time (user + system, the process and the children it waited for, the linker among
    them) of one run of `command`, in ms."""
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    error = process.stderr.read()
    process.stderr.close()
    if status != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {error.decode(errors='replace')}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def run_startup(args, tmp: Path) -> list[dict]:
    """`--startup`: what a start costs, in CPU time (the machine's other load moves it less than
    wall time): `pyx run` of examples/mandelbrot.px and of hello world with an empty cache folder
    (cold: it compiles, links and stores; the user cache directory keeps what the compiler alone
    determines: parser tables, runtime units) and again with the folder it filled (warm), and
    `import pyx` + `pyx.import_module` of mandelbrot.px cold and cached. `--baseline DIR` runs the
    same for the pyx package in DIR/pyx (another commit's `lang/`, `runtime/` and `stdlib/` laid
    out as installed), round by round alternately with this one, so both columns share the load."""
    rounds = 1 if args.smoke else (5 if args.quick else 11)
    progs = tmp / "startup"
    progs.mkdir()
    shutil.copy(ROOT / "examples" / "mandelbrot.px", progs / "mandelbrot.px")
    (progs / "hello.px").write_text(HELLO)
    trees = {"this tree": None}
    if args.baseline:
        trees["baseline"] = Path(args.baseline).resolve()
    cases = {"pyx run examples/mandelbrot.px": ["run", "mandelbrot.px"], "pyx run hello world": ["run", "hello.px"],
             "import pyx + pyx.import_module (mandelbrot.px)": None}
    cpu: dict[tuple, list[float]] = {}
    for r in range(rounds + 1):  # round 0: Python writes each tree's bytecode (a user's starts find it)
        for name, package in (list(trees.items()) if r % 2 else list(trees.items())[::-1]):
            env = user_env({"PYTHONPATH": str(package)} if package is not None else {})
            entry = _entry_module(package) if package is not None else "pyx.quick_run"
            for case, words in cases.items():
                if words is None:
                    command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(progs)!r}); import pyx; "
                                                     "pyx.import_module('mandelbrot')"]
                else:
                    command = [sys.executable, "-c", f"import sys; from {entry} import main; sys.exit(main())", *words]
                env["PYX_CACHE_DIR"] = str(tmp / "startup-cache" / f"{name}-{r}-{len(case)}")
                cold, warm = _cpu_ms(command, env, progs), _cpu_ms(command, env, progs)
                if r:
                    cpu.setdefault((case, "cold", name), []).append(cold)
                    cpu.setdefault((case, "warm", name), []).append(warm)
    rows: dict[str, dict] = {}
    for (case, kind, name), values in cpu.items():
        row = rows.setdefault(f"{case}, {kind}", {"what": f"{case}, {kind}", "rounds": len(values), "cpu_ms": {},
                                                  "range_ms": {}})
        row["cpu_ms"][name] = statistics.median(values)
        row["range_ms"][name] = [min(values), max(values)]
    return list(rows.values())


def run_gpu_on_cpu(args) -> list[dict]:
    """The example kernels (launch syntax, barriers, shuffles) run by pyx's CPU target and by an OpenCL
    CPU runtime from the same source (SPIR-V through pyopencl), beside NumPy: benchmarks/gpu/opencl_bench.py's
    rows, at the issue's sizes (its --scale 8; --quick: scale 1). None where no OpenCL runtime is installed."""
    sys.path.insert(0, str(HERE / "gpu"))
    import opencl_bench

    from pyx.runtime import opencl

    try:
        device = opencl.open_device().name
    except opencl.OpenCLUnavailable:
        return []
    rows = []
    for name, cpu, ocl, ref, err in opencl_bench.rows(1 if args.quick else 8):
        rows.append({"benchmark": name, "device": device, "pyx": cpu, "pyx_cpu_time": cpu.cpu, "opencl": ocl,
                     "opencl_cpu_time": ocl.cpu, "numpy": ref, "max_error": err})
    return rows


def run_interop(args, px, nb, tmp: Path) -> list[dict]:
    out = []
    module_dir = str(HERE)
    cold_cache = tmp / "cold"
    load = f"import pyx; pyx.import_module('kernels', path=[{module_dir!r}])"
    cold = []
    for i in range(3):
        cold.append(timed_in_process(load, {"PYX_CACHE_DIR": str(cold_cache / str(i))}, repeat=1))
    out.append({"what": "import pyx + a .px module, cold (compile)", "seconds": statistics.median(cold)})
    out.append({"what": "import pyx + a .px module, cached",
                "seconds": timed_in_process(load, {"PYX_CACHE_DIR": str(cold_cache / "0")})})
    calls = 20_000 if args.smoke else 200_000
    per_call = {}

    def measure(label, fn):
        fn(1, 2, 3)
        per_call[label] = median_time(lambda: [fn(1, 2, 3) for _ in range(calls)], 3) / calls

    measure("pyx function (compiled entry point)", px.add3)
    ext = build_extension(tmp)
    if ext is not None:
        measure("C extension (METH_FASTCALL)", ext.add3)
    if nb is not None:
        measure("Numba dispatch", nb["add3"])
    measure("Python function", lambda a, b, c: a + b + c)
    for label, seconds in per_call.items():
        out.append({"what": f"call with 3 Int arguments: {label}", "seconds": seconds})
    # One array argument, by each way a pyx parameter takes it (a 2-D array's transpose for the
    # Buffer: strided, as a Ptr or Span could not take it).
    vector, matrix = np.ones(100), np.ones((10, 10))
    for label, fn, arg in (("Ptr[Float64]", px.first_of_ptr, vector), ("Span[Float64]", px.first_of_span, vector),
                           ("Buffer[Float64, 2] (a transpose)", px.first_of_buffer, matrix.T)):
        fn(arg)
        seconds = median_time(lambda: [fn(arg) for _ in range(calls)], 3) / calls
        out.append({"what": f"call with an array as {label}", "seconds": seconds})
    return out


def run_programs(args, tmp: Path) -> list[dict]:
    """Whole programs as a Python user writes them (benchmarks/corpus, unmodified) that pyx runs:
    whole-process time of CPython and of `pyx run`, at each program's marked benchmark size, and of
    the program's Numba and Mojo twins where they exist (benchmarks/program_peers.py)."""
    import corpus
    import program_peers

    rows = []
    for path in corpus.sized_programs():
        if args.only and args.only not in path.stem:
            continue
        if corpus.classify(path).verdict != "same":
            rows.append({"program": path.stem, "cpython": None, "pyx": None, "agree": None})
            continue
        row = corpus.time_program(path, tmp, repeat=1 if args.quick else 3)
        program_peers.time_peers(row, path, tmp, repeat=1 if args.quick else 3)
        del row["output"]
        rows.append(row)
        print(f"  program {path.stem}: done", file=sys.stderr)
    return rows


def build_extension(tmp: Path):
    import importlib.util
    import sysconfig

    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return None
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = tmp / f"add3module{suffix}"
    done = subprocess.run([cc, "-O2", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}",
                           str(HERE / "add3module.c"), "-o", str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        return None
    spec = importlib.util.spec_from_file_location("add3module", target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fmt_time(seconds) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def ratio(peer, mine) -> str:
    return "-" if peer is None or not mine else f"{peer / mine:.2f}x"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer runs")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one run: checks the script itself")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--only", metavar="TEXT", help="run only the kernels whose name contains TEXT")
    parser.add_argument("--programs", action="store_true",
                        help="only the whole-program table (benchmarks/corpus against CPython)")
    parser.add_argument("--startup", action="store_true",
                        help="only the start-up rows: pyx run cold and warm, import_module cold and cached "
                             "(CPU time, medians of interleaved rounds)")
    parser.add_argument("--baseline", metavar="DIR",
                        help="with --startup: also run the pyx package in DIR/pyx (another commit's, laid out as "
                             "installed), alternately with this tree")
    args = parser.parse_args()
    if args.startup:
        with tempfile.TemporaryDirectory() as tmpdir:
            rows = run_startup(args, Path(tmpdir))
        if args.json:
            print(json.dumps({"load_average": os.getloadavg(), "startup": rows}, indent=2))
        else:
            print(f"start-up, CPU time (user + system) in ms: median [min..max] of {rows[0]['rounds']} rounds; "
                  f"load average now {os.getloadavg()[0]:.2f}")
            print(f"  {'':<56}" + "".join(f"{name:>26}" for name in rows[0]["cpu_ms"]))
            for row in rows:
                cells = (f"{ms:7.1f} [{row['range_ms'][name][0]:.0f}..{row['range_ms'][name][1]:.0f}]"
                         for name, ms in row["cpu_ms"].items())
                print(f"  {row['what']:<56}" + "".join(f"{cell:>26}" for cell in cells))
        return 0
    if args.programs:
        with tempfile.TemporaryDirectory() as tmpdir:
            programs = run_programs(args, Path(tmpdir))
        print(json.dumps(programs, indent=2) if args.json else programs_table(programs))
        return 0 if all(p["agree"] is not False and p.get("peers_agree") is not False for p in programs) else 1
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        os.environ["PYX_CACHE_DIR"] = str(tmp / "cache")
        import pyx

        px = pyx.import_module("kernels", path=[str(HERE)])
        c = build_c(tmp)
        nb = None if args.smoke else numba_kernels()
        mojo = None if args.smoke else build_mojo(tmp)
        import peers

        wp = None if args.smoke else peers.warp_kernels()
        ti = None if args.smoke else peers.taichi_kernels(int(THREADS))
        kernels = run_kernels(args, px, c, nb, mojo, wp, ti)
        peaks = measure_peaks(c, int(THREADS), args.smoke)
        for k in kernels:
            k["pyx_peak"] = fraction_of_peak(k, peaks)
        latency = [] if args.smoke or args.only else run_latency(args, nb)
        # `--only interop` runs just these rows (and no kernel: none is named so).
        interop = [] if args.only and args.only != "interop" else run_interop(args, px, nb, tmp)
        # `--only autotune`: just the `@autotune` rows (benchmarks/autotune_rows.py), no kernel either.
        import autotune_rows

        tuned = [] if args.only and args.only != "autotune" else autotune_rows.run(
            args, 1 if args.smoke else (3 if args.quick else 5))
        programs = [] if args.smoke or args.only else run_programs(args, tmp)
        # `--only gpu-on-cpu`: just the GPU kernels on the CPU target beside an OpenCL CPU runtime.
        gpu_cpu = [] if args.smoke or (args.only and args.only != "gpu-on-cpu") else run_gpu_on_cpu(args)
    header = {"machine": platform.machine(), "cpu": _cpu_name(), "cores": os.cpu_count(),
              "parallel_threads": int(THREADS),
              "c_simd_mandelbrot": "AVX-512 intrinsics" if c is not None and c.mandelbrot_simd_is_avx512()
              else "scalar (no AVX-512)",
              "python": platform.python_version(), "numpy": np.__version__,
              "numba": _version("numba"), "gcc": _gcc_version(),
              "warp": _version("warp-lang") if wp is not None else ("not run" if args.smoke else "not installed"),
              "taichi": _version("taichi") if ti is not None else ("not run" if args.smoke else "not installed"),
              "mojo": _mojo_version() if mojo is not None else "not installed",
              "mojo_build_seconds": mojo.build_seconds if mojo is not None else None,
              "blas": blas_description(),
              "peaks": {f"{kind} {count} thread{'s' if count > 1 else ''}": value
                        for (kind, count), value in peaks.items()}}
    if args.json:
        print(json.dumps({"header": header, "kernels": kernels, "latency": latency, "interop": interop,
                          "autotune": tuned, "programs": programs, "gpu_on_cpu": gpu_cpu}, indent=2))
        return 0 if all(k["agree"] for k in kernels) else 1
    print(f"pyx benchmarks on {header['cpu']} ({header['cores']} cores); numpy {header['numpy']}, "
          f"numba {header['numba']}, {header['gcc']} -O3 -march=native, mojo {header['mojo']}, "
          f"warp {header['warp']} (CPU, 1 thread), taichi {header['taichi']} (CPU)")
    print(f"threads 1: serial kernels everywhere; threads {THREADS}: pyx prange, Numba prange, C with OpenMP; "
          f"C's SIMD Mandelbrot: {header['c_simd_mandelbrot']}")
    print(header["blas"])
    if peaks:
        print("peak (measured, benchmarks/peak.c): " + ", ".join(
            f"{count} thread{'s' if count > 1 else ''} {peaks[('flop', count)] / 1e9:.0f} GFLOP/s FMA, "
            f"{peaks[('byte', count)] / 1e9:.1f} GB/s copy" for count in sorted({c for _, c in peaks})))
        print("pyx % of peak: FLOP/s against FMA peak (matmul), bytes moved (counting the output's copy) "
              "against copy bandwidth (triad, sum, dot, softmax)")
    print("ratios are peer time / pyx time: above 1 means pyx is faster")
    peer_cols = {"numpy": "NumPy", "numba": "Numba", "c": "C", "mojo": "Mojo", "warp": "Warp", "taichi": "Taichi",
                 "python": "CPython"}
    cols = ["benchmark", "threads", "pyx", "% peak", *peer_cols.values(), *(f"vs {v}" for v in peer_cols.values()),
            "ok"]
    table = [[k["benchmark"], k["threads"], fmt_time(k["pyx"]), k["pyx_peak"], *(fmt_time(k.get(p)) for p in peer_cols),
              *(ratio(k.get(p), k["pyx"]) for p in peer_cols), "yes" if k["agree"] else "NO"] for k in kernels]
    widths = [max(len(str(r[i])) for r in [cols] + table) for i in range(len(cols))]
    for r in [cols] + table:
        cells = enumerate(zip(r, widths, strict=True))
        print("  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in cells))
    if mojo is not None:
        latency = [*latency, {"what": "mojo build -O3 of benchmarks/mojo/kernels.mojo (cold)",
                              "seconds": mojo.build_seconds}]
    for title, items in (("compile latency (whole process)", latency), ("calling from Python", interop),
                         ("@autotune: the tuned choice against the hand-picked default (same run, alternately; "
                          "fastest of 9)", tuned)):
        if items:
            print(f"\n{title}")
            for item in items:
                print(f"  {item['what']:<58} {fmt_time(item['seconds']):>10}")
    if gpu_cpu:
        print(f"\nGPU kernels on the CPU: pyx's CPU target beside {gpu_cpu[0]['device']} (OpenCL, SPIR-V from the "
              "same source) and NumPy; median wall time, CPU time of all threads in brackets; ratios are "
              "OpenCL time / pyx time (above 1: pyx faster)")
        for g in gpu_cpu:
            print(f"  {g['benchmark']:<44} pyx {fmt_time(g['pyx']):>9} ({fmt_time(g['pyx_cpu_time'])})  "
                  f"OpenCL {fmt_time(g['opencl']):>9} ({fmt_time(g['opencl_cpu_time'])})  "
                  f"NumPy {fmt_time(g['numpy']):>9}  vs OpenCL {ratio(g['opencl'], g['pyx'])} wall, "
                  f"{ratio(g['opencl_cpu_time'], g['pyx_cpu_time'])} CPU  max |err| {g['max_error']:.2g}")
    if programs:
        print()
        print(programs_table(programs))
    programs_ok = all(p["agree"] is not False and p.get("peers_agree") is not False for p in programs)
    return 0 if all(k["agree"] for k in kernels) and programs_ok else 1


def programs_table(programs: list[dict]) -> str:
    """CPU time (user + sys, whole process: on a loaded machine steadier than wall time; the JSON has
    both) of each program under CPython, pyx (cache warm), its Numba twin (cold: compiling every
    @njit; cached: cache=True warm) and its Mojo twin (benchmarks/program_peers.py); ratios are
    peer / pyx."""
    lines = ["whole programs (benchmarks/corpus, unmodified Python): CPU time (user+sys) of the whole process, "
             "pyx's cache warm; Numba twins (benchmarks/programs_numba) pay import and JIT: cold = empty cache, "
             "cached = cache=True warm; Mojo twins (benchmarks/mojo/programs): -O3 --fp-mode contract=off binaries",
             f"  {'program':<14} {'CPython':>9} {'pyx':>9} {'Numba cold':>10} {'cached':>9} {'Mojo':>9} "
             f"{'vs CPython':>10} {'vs cached':>9} {'vs Mojo':>8}  ok"]
    for p in programs:
        # Programs built on classes (richards, deltablue, binary_trees, raytrace, float_points,
        # graph_objects) cannot have a Numba twin: Numba compiles no Python classes.
        if p["agree"] is None:
            lines.append(f"  {p['program']:<14} {'-':>9} {'-':>9} {'-':>10} {'-':>9} {'-':>9} {'-':>10} {'-':>9} "
                         f"{'-':>8}  pyx does not run it")
            continue
        ok = "yes" if p["agree"] and p.get("peers_agree") is not False else "NO"
        mine = p.get("pyx_cpu")
        lines.append(f"  {p['program']:<14} {fmt_time(p.get('cpython_cpu')):>9} {fmt_time(mine):>9} "
                     f"{fmt_time(p.get('numba_cpu')):>10} {fmt_time(p.get('numba_cached_cpu')):>9} "
                     f"{fmt_time(p.get('mojo_cpu')):>9} {ratio(p.get('cpython_cpu'), mine):>10} "
                     f"{ratio(p.get('numba_cached_cpu'), mine):>9} {ratio(p.get('mojo_cpu'), mine):>8}  {ok}")
    return "\n".join(lines)


def _version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001
        return "not installed"


def _mojo_version() -> str:
    mojo = os.environ.get("MOJO") or shutil.which("mojo")
    done = subprocess.run([mojo, "--version"], capture_output=True, text=True) if mojo else None
    return done.stdout.strip().split("\n")[0] if done and done.returncode == 0 else "unknown"


def _gcc_version() -> str:
    cc = shutil.which("gcc")
    if cc is None:
        return "no gcc"
    return subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


if __name__ == "__main__":
    sys.exit(main())
