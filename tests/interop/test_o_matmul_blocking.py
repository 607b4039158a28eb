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


fn odd_blocks_parallel(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], m: Int, n: Int, k: Int):
    # The parallel split with blocks that end inside C: NC not a multiple of NR, MC not of the
    # 6-row panels, K panels of 7 (so the next panel is packed during every step).
    matmul_parallel[DType.float32, 16, 7, 23, 25](a, b, c, m, n, k)


fn twelve_pieces_parallel(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], m: Int, n: Int, k: Int):
    # 12 pieces a step: C with fewer than 12 panels is cut into columns too, unevenly.
    matmul_parallel[DType.float32, 16, 20, 40, 30, 12](a, b, c, m, n, k)


fn float64_parallel(a: Ptr[Float64], b: Ptr[Float64], c: Ptr[Float64], m: Int, n: Int, k: Int):
    matmul_parallel[DType.float64, 8, 16, 24, 12](a, b, c, m, n, k)


fn float64_blocks(a: Ptr[Float64], b: Ptr[Float64], c: Ptr[Float64], m: Int, n: Int, k: Int):
    matmul[DType.float64, 8, 16, 12, 24](a, b, c, m, n, k)
"""

SHAPES = [(1, 1, 1), (6, 16, 20), (7, 17, 21), (5, 3, 2), (67, 75, 91), (100, 41, 60), (13, 130, 7),
          (0, 5, 4), (4, 0, 5), (3, 4, 0), (2, 2, 2),
          # The parallel split (matmul_parallel's PIECES pieces of C, 4 or 12): fewer 6-row panels
          # than threads (1 to 11 rows), fewer panels than pieces (C is then also cut into bands
          # of columns: 1 row and 500 columns, 11 x 300, 61 x 97 with 12 pieces), as many (72 rows
          # with 12), more (73, 131) and not a whole number of panels per band; a single column;
          # a last sliver of one column (n = 33).
          (11, 300, 50), (1, 500, 9), (5, 200, 33), (61, 97, 45), (72, 40, 30), (73, 61, 45),
          (131, 33, 47), (7, 1, 3), (6, 20, 70)]
FLOAT32_ENTRIES = ["matmul_f32", "matmul_f32_parallel", "small_blocks", "odd_blocks", "wide_blocks",
                   "small_blocks_parallel", "odd_blocks_parallel", "twelve_pieces_parallel"]


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
    c = np.full((m, n), np.nan)
    matmul.float64_parallel(a, b, c, m, n, k)
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


@pytest.mark.parametrize("threads", [1, 2])
def test_parallel_driver_on_any_number_of_threads(matmul, threads):
    """matmul_parallel's pieces wait for one another only at the ends of its `prange` loops (the
    pool's joins), never inside a piece, so the same pieces run one after another on one thread
    (the pool capped by pyx.set_num_threads) and give the same product as on two."""
    import pyx

    before = pyx.get_num_threads()
    pyx.set_num_threads(min(threads, before))
    try:
        for entry, (m, n, k) in (("odd_blocks_parallel", (131, 97, 47)), ("matmul_f32_parallel", (300, 70, 600))):
            a, b, c = operands(m, n, k, np.float32)
            getattr(matmul, entry)(a, b, c, m, n, k)
            assert np.array_equal(c, a.astype(np.float64) @ b.astype(np.float64)), entry
    finally:
        pyx.set_num_threads(before)
