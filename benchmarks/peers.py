"""NVIDIA Warp and Taichi as peers on the CPU, on the rows they can express: Mandelbrot (scalar),
triad, sum, row softmax and n-body. Each is written as that library's users write kernels (one
thread per element, pixel or row; a loop inside the kernel where the work is serial) and each
function has the signature of the matching Numba kernel in run.py, so `row()` times them alike.

Warp's CPU backend runs a launch's threads one after another: it appears on 1-thread rows.
Taichi parallelises a kernel's outermost loop over its CPU threads (`cpu_max_num_threads`); its
1-thread rows serialise that loop (`ti.loop_config(serialize=True)`), its parallel rows do not.
Both are optional (`pip install warp-lang taichi`); a peer that is not installed is a "-" column.
"""

import contextlib
import io

import numpy as np


def warp_kernels() -> "dict | None":
    try:
        import warp as wp
    except ImportError:
        return None
    wp.config.quiet = True
    with contextlib.redirect_stdout(io.StringIO()):  # Warp prints a banner on init
        wp.init()
    wp.set_module_options({"enable_backward": False})  # forward kernels only: less to compile

    @wp.kernel
    def mandel(counts: wp.array(dtype=wp.int32), width: int, height: int, max_iter: int):
        p = wp.tid()
        row, col = p // width, p % width
        # float64 throughout, as the other contenders compute (Warp's `float` is float32).
        two, four = wp.float64(2.0), wp.float64(4.0)
        cx = wp.float64(-2.0) + wp.float64(col) * (wp.float64(3.0) / wp.float64(width))
        cy = wp.float64(-1.5) + wp.float64(row) * (wp.float64(3.0) / wp.float64(height))
        x, y = wp.float64(0.0), wp.float64(0.0)
        i = int(0)  # noqa: UP018, RUF046  (Warp's idiom for a variable a loop reassigns)
        while i < max_iter and x * x + y * y <= four:
            x, y = x * x - y * y + cx, two * x * y + cy
            i += 1
        counts[p] = i

    @wp.kernel
    def triad(a: wp.array(dtype=wp.float32), b: wp.array(dtype=wp.float32), c: wp.array(dtype=wp.float32),
              s: wp.float32):
        i = wp.tid()
        a[i] = b[i] + s * c[i]

    @wp.kernel
    def total(x: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
        wp.atomic_add(out, 0, x[wp.tid()])

    @wp.kernel
    def softmax(x: wp.array2d(dtype=wp.float32), out: wp.array2d(dtype=wp.float32)):
        r = wp.tid()
        cols = x.shape[1]
        m = x[r, 0]
        for j in range(1, cols):
            m = wp.max(m, x[r, j])
        s = wp.float32(0.0)
        for j in range(cols):
            e = wp.exp(x[r, j] - m)
            out[r, j] = e
            s += e
        for j in range(cols):
            out[r, j] = out[r, j] / s

    @wp.kernel
    def nbody(steps: int, b: wp.array2d(dtype=wp.float64)):
        for _ in range(steps):
            for i in range(5):
                for j in range(i + 1, 5):
                    dx, dy, dz = b[i, 0] - b[j, 0], b[i, 1] - b[j, 1], b[i, 2] - b[j, 2]
                    d2 = dx * dx + dy * dy + dz * dz
                    mag = wp.float64(0.01) / (d2 * wp.sqrt(d2))
                    b[i, 3] = b[i, 3] - dx * b[j, 6] * mag
                    b[i, 4] = b[i, 4] - dy * b[j, 6] * mag
                    b[i, 5] = b[i, 5] - dz * b[j, 6] * mag
                    b[j, 3] = b[j, 3] + dx * b[i, 6] * mag
                    b[j, 4] = b[j, 4] + dy * b[i, 6] * mag
                    b[j, 5] = b[j, 5] + dz * b[i, 6] * mag
            for i in range(5):
                b[i, 0] = b[i, 0] + wp.float64(0.01) * b[i, 3]
                b[i, 1] = b[i, 1] + wp.float64(0.01) * b[i, 4]
                b[i, 2] = b[i, 2] + wp.float64(0.01) * b[i, 5]

    def view(array):  # the NumPy array's memory, not a copy
        return wp.array(array, device="cpu", copy=False)

    def mandelbrot(width, height, max_iter):
        counts = wp.zeros(width * height, dtype=wp.int32, device="cpu")
        wp.launch(mandel, dim=width * height, inputs=[counts, width, height, max_iter], device="cpu")
        return int(counts.numpy().sum(dtype=np.int64))

    def run_triad(a, b, c, s):
        wp.launch(triad, dim=a.shape[0], inputs=[view(a), view(b), view(c), wp.float32(s)], device="cpu")

    def run_total(x):
        out = wp.zeros(1, dtype=wp.float32, device="cpu")
        wp.launch(total, dim=x.shape[0], inputs=[view(x), out], device="cpu")
        return float(out.numpy()[0])

    def run_softmax(x, out):
        wp.launch(softmax, dim=x.shape[0], inputs=[view(x), view(out)], device="cpu")

    def run_nbody(steps, state):
        b = state.reshape(5, 7).copy()
        wp.launch(nbody, dim=1, inputs=[steps, view(b)], device="cpu")
        return _energy(b)

    with contextlib.redirect_stdout(io.StringIO()):  # compile now, and without its progress line
        wp.load_module(device="cpu")
    return {"mandelbrot": mandelbrot, "triad": run_triad, "total": run_total, "softmax_rows": run_softmax,
            "nbody": run_nbody}


def taichi_kernels(threads: int) -> "dict | None":
    """Serial kernels under their plain names, parallel ones under `<name>_parallel`."""
    try:
        import taichi as ti
    except ImportError:
        return None
    with contextlib.redirect_stdout(io.StringIO()):  # its version banner
        # fast_math=False: Taichi reassociates by default; the other contenders do not (but see the
        # sum row with fast-math peers).
        # default_fp=f64: Python's floats, as the other contenders compute (Taichi's default is f32).
        ti.init(arch=ti.cpu, cpu_max_num_threads=threads, log_level=ti.ERROR, offline_cache=False, fast_math=False,
                default_fp=ti.f64)
    f32 = ti.types.ndarray(dtype=ti.f32)

    def kernels(serial: bool) -> dict:
        @ti.kernel
        def mandelbrot(width: ti.i32, height: ti.i32, max_iter: ti.i32) -> ti.i64:
            total = ti.i64(0)
            ti.loop_config(serialize=serial)
            for row in range(height):
                cy = -1.5 + row * (3.0 / height)
                for col in range(width):
                    cx = -2.0 + col * (3.0 / width)
                    x, y = 0.0, 0.0
                    i = 0
                    while i < max_iter and x * x + y * y <= 4.0:
                        x, y = x * x - y * y + cx, 2.0 * x * y + cy
                        i += 1
                    total += i
            return total

        @ti.kernel
        def triad(a: f32, b: f32, c: f32, s: ti.f32):
            ti.loop_config(serialize=serial)
            for i in range(a.shape[0]):
                a[i] = b[i] + s * c[i]

        @ti.kernel
        def total(x: f32) -> ti.f32:
            s = ti.f32(0.0)
            ti.loop_config(serialize=serial)
            for i in range(x.shape[0]):
                s += x[i]
            return s

        @ti.kernel
        def softmax_rows(x: ti.types.ndarray(dtype=ti.f32, ndim=2), out: ti.types.ndarray(dtype=ti.f32, ndim=2)):
            ti.loop_config(serialize=serial)
            for r in range(x.shape[0]):
                m = x[r, 0]
                for j in range(1, x.shape[1]):
                    m = ti.max(m, x[r, j])
                s = ti.f32(0.0)
                for j in range(x.shape[1]):
                    e = ti.exp(x[r, j] - m)
                    out[r, j] = e
                    s += e
                for j in range(x.shape[1]):
                    out[r, j] /= s

        return {"mandelbrot": mandelbrot, "triad": triad, "total": total, "softmax_rows": softmax_rows}

    @ti.kernel
    def nbody_steps(steps: ti.i32, b: ti.types.ndarray(dtype=ti.f64, ndim=2)):
        ti.loop_config(serialize=True)
        for _ in range(steps):
            for i in range(5):
                for j in range(i + 1, 5):
                    dx, dy, dz = b[i, 0] - b[j, 0], b[i, 1] - b[j, 1], b[i, 2] - b[j, 2]
                    d2 = dx * dx + dy * dy + dz * dz
                    mag = 0.01 / (d2 * ti.sqrt(d2))
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

    def nbody(steps, state):
        b = state.reshape(5, 7).copy()
        nbody_steps(steps, b)
        return _energy(b)

    serial, parallel = kernels(True), kernels(False)
    return {**serial, **{f"{k}_parallel": v for k, v in parallel.items()}, "nbody": nbody}


def _energy(b: np.ndarray) -> float:
    """The n-body row's result from the final state (outside the timed kernel's loop, as in Numba's)."""
    e = 0.0
    for i in range(5):
        e += 0.5 * b[i, 6] * (b[i, 3] ** 2 + b[i, 4] ** 2 + b[i, 5] ** 2)
        for j in range(i + 1, 5):
            d = np.sqrt((b[i, 0] - b[j, 0]) ** 2 + (b[i, 1] - b[j, 1]) ** 2 + (b[i, 2] - b[j, 2]) ** 2)
            e -= b[i, 6] * b[j, 6] / d
    return float(e)
