"""Warp and Taichi, the benchmark's optional CPU peers (benchmarks/peers.py), compute what the
other contenders compute, at tiny sizes: a check of the twins, never a timing. Each runs in a
process of its own: Taichi sets the CPU to flush subnormal floats to zero, which would change
what later tests' JIT-compiled programs print in this one."""
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
np = pytest.importorskip("numpy")


def expected(rng):
    b, c = rng.random(4096, np.float32), rng.random(4096, np.float32)
    x = rng.standard_normal((32, 48), np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return b, c, x, e / e.sum(axis=1, keepdims=True)


def check_twins(kernels: dict, suffix: str = ""):
    rng = np.random.default_rng(3)
    b, c, x, soft = expected(rng)
    assert kernels["mandelbrot" + suffix](64, 48, 50) == run.numpy_mandelbrot(64, 48, 50)
    a = np.zeros_like(b)
    kernels["triad" + suffix](a, b, c, 1.5)
    assert np.allclose(a, b + np.float32(1.5) * c)
    assert abs(kernels["total" + suffix](b) - float(b.sum())) <= 1e-3 * float(b.sum())
    y = np.zeros_like(x)
    kernels["softmax_rows" + suffix](x, y)
    assert np.allclose(y, soft, rtol=1e-4, atol=1e-7)


def nbody_energy(steps, state):
    """The n-body row's result in plain Python, for checking the twins at a few steps."""
    b = state.reshape(5, 7).tolist()
    for _ in range(steps):
        for i in range(5):
            for j in range(i + 1, 5):
                d = [b[i][k] - b[j][k] for k in range(3)]
                d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
                mag = 0.01 / (d2 * d2 ** 0.5)
                for k in range(3):
                    b[i][3 + k] -= d[k] * b[j][6] * mag
                    b[j][3 + k] += d[k] * b[i][6] * mag
        for i in range(5):
            for k in range(3):
                b[i][k] += 0.01 * b[i][3 + k]
    return peers._energy(np.array(b))


def run_alone(name: str) -> None:
    done = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_warp_twins_agree():
    pytest.importorskip("warp")
    run_alone("warp")


def test_taichi_twins_agree():
    pytest.importorskip("taichi")
    run_alone("taichi")


def check_warp():
    kernels = peers.warp_kernels()
    check_twins(kernels)
    state = run.nbody_state()
    assert kernels["nbody"](100, state) == pytest.approx(nbody_energy(100, state), rel=1e-12)


def check_taichi():
    kernels = peers.taichi_kernels(2)
    check_twins(kernels)
    check_twins(kernels, "_parallel")
    state = run.nbody_state()
    # Within the row's own check: Taichi contracts multiply-adds into FMAs (last bits differ).
    assert kernels["nbody"](100, state) == pytest.approx(nbody_energy(100, state), rel=1e-9)


if __name__ == "__main__":  # one peer's checks, in a process of its own (run_alone)
    sys.path.insert(0, str(BENCHMARKS))
    import peers
    import run

    {"warp": check_warp, "taichi": check_taichi}[sys.argv[1]]()
