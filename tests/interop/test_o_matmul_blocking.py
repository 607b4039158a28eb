"""examples/matmul.px (the blocked matrix multiply benchmarks/run.py times) against NumPy, on
shapes that end inside every level of its blocking: rows past the last 6-row panel, columns past
the last NR-wide sliver, K past the last KC panel, and several MC/NC blocks; C starts as NaN, so
an entry the kernel forgets to write shows. Small integers make every sum exact."""
import numpy as np
import pytest

from helpers import ROOT, compiled_module

ENTRIES = """

fn small_blocks(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], m: Int, n: Int, k: Int):
    matmul[DType.float32, 16, 20, 30, 40](a, b, c, m, n, k)


fn odd_blocks(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], m: Int, n: Int, k: Int):
    # MC not a multiple of the 6-row panels, NC not a multiple of NR: partial tiles inside C too.
    matmul[DType.float32, 16, 7, 25, 23](a, b, c, m, n, k)


fn wide_blocks(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], m: Int, n: Int, k: Int):
    matmul[DType.float32, 64, 128, 120, 1024](a, b, c, m, n, k)


fn small_blocks_parallel(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], m: Int, n: Int, k: Int):
    matmul_parallel[DType.float32, 16, 20, 40](a, b, c, m, n, k)


fn float64_blocks(a: Ptr[Float64], b: Ptr[Float64], c: Ptr[Float64], m: Int, n: Int, k: Int):
    matmul[DType.float64, 8, 16, 12, 24](a, b, c, m, n, k)
"""

SHAPES = [(1, 1, 1), (6, 16, 20), (7, 17, 21), (5, 3, 2), (67, 75, 91), (100, 41, 60), (13, 130, 7),
          (0, 5, 4), (4, 0, 5), (3, 4, 0), (2, 2, 2)]
FLOAT32_ENTRIES = ["matmul_f32", "matmul_f32_parallel", "small_blocks", "odd_blocks", "wide_blocks",
                   "small_blocks_parallel"]


@pytest.fixture(scope="module")
def matmul(tmp_path_factory):
    source = (ROOT / "examples" / "matmul.px").read_text() + ENTRIES
    with compiled_module("matmul_blocking", source, tmp_path_factory) as module:
        yield module


def operands(m: int, n: int, k: int, dtype):
    rng = np.random.default_rng(m * 10_000 + n * 100 + k)
    a = rng.integers(-3, 4, (m, k)).astype(dtype)
    b = rng.integers(-3, 4, (k, n)).astype(dtype)
    return a, b, np.full((m, n), np.nan, dtype)


@pytest.mark.parametrize("entry", FLOAT32_ENTRIES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_float32_product_is_numpys(matmul, entry, shape):
    m, n, k = shape
    a, b, c = operands(m, n, k, np.float32)
    getattr(matmul, entry)(a, b, c, m, n, k)
    assert np.array_equal(c, a.astype(np.float64) @ b.astype(np.float64))


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_float64_product_is_numpys(matmul, shape):
    m, n, k = shape
    a, b, c = operands(m, n, k, np.float64)
    matmul.float64_blocks(a, b, c, m, n, k)
    assert np.array_equal(c, a @ b)


def test_a_large_product_with_default_blocking(matmul):
    """The size class benchmarks/run.py times (several MC blocks, K panels and, in parallel,
    tasks), with random floats: the blocked sums differ from NumPy's only by rounding."""
    n = 300
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((n, n), np.float32), rng.standard_normal((n, n), np.float32)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    for entry in ("matmul_f32", "matmul_f32_parallel"):
        c = np.full((n, n), np.nan, np.float32)
        getattr(matmul, entry)(a, b, c, n, n, n)
        assert np.allclose(c, expected, rtol=1e-4, atol=1e-3), entry
