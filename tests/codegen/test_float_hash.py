"""hash() of a float is CPython's, so a whole float and the int it equals are one dict key: checked
on random bit patterns of both signs, every power of two, halves and quarters, and the edges."""
import math

import pytest

from helpers import compiled_module

np = pytest.importorskip("numpy")

SOURCE = '''
fn hashes(xs: Ptr[Float64], out: Ptr[Int], n: Int):
    for i in range(n):
        out[i] = hash(xs[i])


fn hash32(x: Float32) -> Int:
    return hash(x)
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("float_hash", SOURCE, tmp_path_factory) as module:
        yield module


def test_float_hash_matches_cpython(m):
    bits = np.random.default_rng(3).integers(0, 2**63, size=30000, dtype=np.uint64)
    bits[::2] |= np.uint64(1 << 63)
    edges = [0.0, -0.0, 1.0, -1.0, 1.5, -1.5, 2.0**60, 2.0**61, -2.0**62, 2.0**61 - 1, 1e300, -1e-300, 5e-324,
             0.1, math.inf, -math.inf, 12345678901234.0]
    values = np.concatenate([bits.view(np.float64), np.ldexp(1.0, np.arange(-1074, 1024)),
                             -np.ldexp(1.5, np.arange(-1074, 1023)), np.arange(-5000, 5000) * 0.25, edges])
    out = np.zeros(len(values), np.int64)
    m.hashes(values, out, len(values))
    wrong = [(float(v), int(h), hash(float(v))) for v, h in zip(values, out, strict=True)
             if not math.isnan(v) and int(h) != hash(float(v))]
    assert not wrong, wrong[:5]
    assert m.hash32(0.1) == hash(float(np.float32(0.1)))
    nan = np.array([math.nan])
    m.hashes(nan, out, 1)
    assert out[0] == 0
