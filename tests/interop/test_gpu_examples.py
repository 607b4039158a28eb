"""The GPU examples, launched from Python on the CPU target, against NumPy references."""
import sys

import pytest

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from helpers import ROOT  # noqa: E402

EXAMPLES = str(ROOT / "examples")


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))

        def load(name):
            sys.modules.pop(name, None)
            return pyx.import_module(name, path=[EXAMPLES])
        yield load


def test_saxpy(examples):
    m = examples("saxpy")
    rng = np.random.default_rng(1)
    n = 1000
    x, y = rng.random(n, np.float32), rng.random(n, np.float32)
    expected = np.float32(2.5) * x + y
    m.saxpy[(n + 255) // 256, 256](2.5, x, y, n)
    assert np.allclose(y, expected, rtol=1e-6)


def test_block_reduction_with_shared_memory_and_atomics(examples):
    m = examples("gpu_sum")
    rng = np.random.default_rng(2)
    n = 5000
    x = rng.integers(0, 10, n).astype(np.float32)
    out = np.zeros(1, np.float32)
    m.block_sum[(n + 255) // 256, 256](x, out, n)
    assert out[0] == x.sum()  # small integers: exact in any order


def test_tiled_matmul_with_barriers_in_its_loop(examples):
    m = examples("gpu_matmul")
    rng = np.random.default_rng(3)
    rows, cols, inner = 37, 29, 45
    a = rng.standard_normal((rows, inner)).astype(np.float32)
    b = rng.standard_normal((inner, cols)).astype(np.float32)
    c = np.zeros((rows, cols), np.float32)
    m.matmul[((cols + 15) // 16, (rows + 15) // 16), (16, 16)](a, b, c, rows, cols, inner)
    assert np.allclose(c, a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", [1, 1000, 1024, 5000])
def test_prefix_sum_with_barriers_in_its_loop(examples, n):
    m = examples("gpu_scan")
    x = (np.arange(n) % 10).astype(np.float32)
    y = np.zeros(n, np.float32)
    m.prefix_sum(x, y, n)
    assert (y == np.cumsum(x)).all()  # small integers: exact in any order


def test_softmax_with_warp_shuffles(examples):
    m = examples("gpu_softmax")
    rng = np.random.default_rng(4)
    rows, cols = 5, 77
    x = (rng.standard_normal((rows, cols)) * 3).astype(np.float32)
    out = np.zeros_like(x)
    m.softmax_rows[rows, 32](x, out, rows, cols)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    assert np.allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("seq", [1, 32, 70])
def test_flash_attention_matches_the_plain_softmax(examples, seq):
    m = examples("flash_attn")
    rng = np.random.default_rng(seq)
    q, k, v = (rng.standard_normal((seq, 64)).astype(np.float32) for _ in range(3))
    out = np.zeros_like(q)
    m.attention(q, k, v, out, seq)
    scores = (q.astype(np.float64) @ k.T.astype(np.float64)) / 8.0
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    expected = (weights / weights.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    assert np.allclose(out, expected, rtol=1e-4, atol=1e-5)
