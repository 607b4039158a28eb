"""prange against range, property-based: for random data, trip counts around the piece
boundaries, steps of both signs and every reduction, the parallel loop computes exactly
what the serial one does (integers), in any thread count."""
import sys

import pytest

np = pytest.importorskip("numpy")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import pyx  # noqa: E402

BODY = '''
    var total = 0
    var product: UInt64 = 1
    var low = 1 << 62
    var high = -(1 << 62)
    var bits = 0
    var ones = -1
    var mixed = 0
    for i in {loop}(start, stop, step):
        var v = x[(i - start) % n] if n > 0 else i
        total += v * i
        total -= i // 3
        product *= UInt64(v % 5 + 1)
        low = min(low, v - i)
        high = max(high, v + i)
        bits |= 1 << (i % 60)
        ones &= ~(1 << ((v + i) % 61))
        mixed ^= v * 31 + i
        out[0] = 0  # a write through a pointer: allowed, and every iteration writes the same
    return total + Int(product % 1000003) + low + high + bits + ones + mixed
'''

SIGNATURE = "fn {name}(x: Ptr[Int], n: Int, out: Ptr[Int], start: Int, stop: Int, step: Int) -> Int:"
SOURCE = "\n\n".join(SIGNATURE.format(name=name) + BODY.format(loop=loop)
                       for name, loop in (("serial", "range"), ("parallel", "prange")))


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    folder = tmp_path_factory.mktemp("props")
    (folder / "loops.px").write_text(SOURCE)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYX_CACHE_DIR", str(folder / "cache"))
        sys.modules.pop("loops", None)
        yield pyx.import_module("loops", path=[str(folder)])


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.integers(-1000, 1000), max_size=600),
       start=st.integers(-600, 600),
       count=st.sampled_from([0, 1, 2, 255, 256, 257, 511, 513, 1000]) | st.integers(0, 700),
       step=st.sampled_from([1, 1, 2, 3, -1, -2, -7, 1000]))
def test_prange_computes_what_range_does(loops, data, start, count, step):
    x = np.array(data or [0], dtype=np.int64)
    n = len(data)
    stop = start + count * step
    out = np.zeros(1, np.int64)
    assert loops.parallel(x, n, out, start, stop, step) == loops.serial(x, n, out, start, stop, step)
