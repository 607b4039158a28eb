"""Each composite warp operation has one definition (lang/codegen/warp_ops.py): a reduction is the
butterfly over lane offsets 16, 8, 4, 2, 1 in the element type, a prefix sum the scan over offsets
1, 2, 4, 8, 16, and a lane that does not exist is read by nobody. The GPU's shfl.sync code follows it
by construction; these tests hold the CPU target to the same definition, computed here with NumPy
in the element type, for several block shapes and inputs whose sums depend on the order."""
import re
import sys

import pytest

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from helpers import ROOT, run_cli  # noqa: E402

HERE = str(ROOT / "tests" / "codegen" / "ptx")
SHAPES = [(1, 32), (3, 64), (2, 96), (1, 256), (1, 40), (2, 57)]  # the last two end in a partial warp


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        sys.modules.pop("warp_definition", None)
        yield pyx.import_module("warp_definition", path=[HERE])


def _maximum(v, other):
    return np.where(v > other, v, other)


def _minimum(v, other):
    return np.where(v < other, v, other)


def reference(x, block):
    """What every lane of each warp gets, by the definition: (sum, max, min, prefix sum, broadcast,
    ballot of x > 0), each in x's dtype."""
    rows = []
    for start in range(0, len(x), block):
        for w in range(start, min(start + block, len(x)), 32):
            count = min(32, start + block - w)
            lanes = np.zeros(32, x.dtype)
            lanes[:count] = x[w:w + count]
            j = np.arange(32)
            results = []
            for combine in (np.add, _maximum, _minimum):
                v = lanes.copy()
                for offset in (16, 8, 4, 2, 1):
                    source = j ^ offset
                    v = np.where(source < count, combine(v, v[source]), v)
                results.append(v)
            v = lanes.copy()
            for offset in (1, 2, 4, 8, 16):
                v = np.where(j >= offset, v[np.maximum(j - offset, 0)] + v, v)
            results.append(v)
            results.append(np.full(32, lanes[0], x.dtype))
            votes = sum(1 << k for k in range(count) if lanes[k] > 0)
            results.append(np.full(32, np.uint32(votes).astype(np.int32) if x.dtype == np.int32 else 0, x.dtype))
            rows.append(np.stack(results, axis=1)[:count])
    return np.concatenate(rows)


def inputs(dtype, n, rng):
    if dtype in (np.float32, np.float64):
        # Magnitudes from 1e-8 to 1e8 in every warp, and both signs: a sum in another order, or in
        # a wider type, rounds differently.
        x = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n)).astype(dtype)
        x[::32] = dtype(1e8)
        return x
    if dtype == np.int32:
        return rng.integers(-(2**31), 2**31 - 1, n, dtype=np.int32)  # sums wrap around
    return rng.integers(0, 2**64 - 1, n, dtype=np.uint64)


@pytest.mark.parametrize("grid,block", SHAPES)
@pytest.mark.parametrize("kernel,dtype,width", [("warp_f32", np.float32, 5), ("warp_f64", np.float64, 5),
                                                ("warp_i32", np.int32, 6), ("warp_u64", np.uint64, 5)])
def test_cpu_target_computes_the_definition(kernels, grid, block, kernel, dtype, width):
    rng = np.random.default_rng(grid * 1000 + block)
    n = grid * block
    x = inputs(dtype, n, rng)
    out = np.zeros(n * width, dtype)
    with np.errstate(over="ignore"):
        getattr(kernels, kernel)[grid, block](x, out, n)
        expected = reference(x, block)[:, :width]
    got = out.reshape(n, width)
    assert np.array_equal(got.view(np.uint8), expected.astype(dtype).view(np.uint8)), \
        np.argwhere(got != expected)[:8]


def test_float32_sum_is_the_butterfly_in_float32_not_a_wider_sum(kernels):
    """The case issue 19 measured: lane 0 = 1e8, 31 lanes of 1.0; the butterfly in float32 gives
    100000024 (the GPU's answer), a sum in double rounded once 100000032."""
    x = np.ones(32, np.float32)
    x[0] = 1e8
    out = np.zeros(32 * 5, np.float32)
    kernels.warp_f32[1, 32](x, out, 32)
    assert out[0] == np.float32(100000024.0)
    assert set(out.reshape(32, 5)[:, 0]) == {np.float32(100000024.0)}


def test_ptx_is_the_butterfly_over_the_existing_lanes(tmp_path):
    out = tmp_path / "w.ptx"
    assert run_cli("build", "--emit=ptx", f"{HERE}/warp_definition.px", "-o", str(out)).status == 0
    ptx = out.read_text()
    body = ptx[ptx.index(".func warp_definition_2e_warp_f32("):]
    body = body[:body.index(".func", 10)]
    bfly = re.findall(r"shfl\.sync\.bfly\.b32\s+%r\d+, %r\d+, (\d+), 31, (%r\d+);", body)
    # warp_sum, warp_max and warp_min: each the butterfly 16, 8, 4, 2, 1, in that order.
    assert [int(offset) for offset, _ in bfly] == [16, 8, 4, 2, 1] * 3
    scan = re.findall(r"shfl\.sync\.up\.b32\s+%r\d+, %r\d+, (\d+), 0, %r\d+;", body)
    assert [int(offset) for offset in scan] == [1, 2, 4, 8, 16]
    # The member mask is computed (the lanes that exist), not the constant 0xffffffff.
    assert {mask for _, mask in bfly} == {bfly[0][1]}
    assert "add.f32" in body or "add.rn.f32" in body


def block_reference(x, block):
    """The block operations by their definition (stdlib/gpu_block.px): each warp's result by the
    butterfly, then the warps' results combined in warp order; the prefix sum adds the earlier
    warps' sums, in order, to the warp's own prefix sum."""
    warps = reference(x, block)
    rows = []
    for start in range(0, len(x), block):
        size = min(block, len(x) - start)
        w = warps[start:start + size]
        firsts = w[::32]
        total, best, least = firsts[0, 0], firsts[0, 1], firsts[0, 2]
        for k in range(1, len(firsts)):
            total = total + firsts[k, 0]
            best = best if best > firsts[k, 1] else firsts[k, 1]
            least = least if least < firsts[k, 2] else firsts[k, 2]
        for t in range(size):
            before = x.dtype.type(0)
            for k in range(t // 32):
                before = before + firsts[k, 0]
            prefix = before + w[t, 3] if t >= 32 else w[t, 3]
            rows.append([total, best, least, prefix, x[start + 5]])
    return np.array(rows, x.dtype)


@pytest.mark.parametrize("grid,block", [(1, 32), (2, 96), (1, 256), (3, 100), (1, 1024)])
@pytest.mark.parametrize("kernel,dtype", [("block_f32", np.float32), ("block_i64", np.int64)])
def test_block_operations_follow_their_definition(kernels, grid, block, kernel, dtype):
    rng = np.random.default_rng(block)
    n = grid * block
    x = inputs(np.float32, n, rng) if dtype == np.float32 else rng.integers(-(2**40), 2**40, n)
    out = np.zeros(n * 5, dtype)
    getattr(kernels, kernel)[grid, block](x, out, n)
    expected = block_reference(x, block)
    got = out.reshape(n, 5)
    assert np.array_equal(got, expected), np.argwhere(got != expected)[:8]
