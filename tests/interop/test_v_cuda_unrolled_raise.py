"""A device loop that can raise is unrolled on the GPU (codegen/optimize.py); every unrolled copy
keeps its check, so a thread stops at the same element as on the CPU target. Needs a GPU."""
import sys

import pytest

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from pyx.runtime import cuda  # noqa: E402

gpu = pytest.mark.skipif(not cuda.available(), reason="no NVIDIA GPU, driver or cuda-python here")

SOURCE = """import math


@kernel
fn exps(x: Ptr[Float32], out: Ptr[Float32], n: Int):
    for j in range(thread_idx.x, n, 32):
        out[j] = math.exp(x[j])
"""


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("trip", [0, 1, 2, 3, 13])
def test_an_overflow_in_an_unrolled_loop_stops_the_thread_where_the_cpu_does(tmp_path, monkeypatch, trip):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "v_exps.px").write_text(SOURCE)
    n = 32 * 40
    x = np.zeros(n, np.float32)
    x[32 * trip + 5] = 100.0  # lane 5's element `trip` overflows Float32
    columns = []
    for target in ("cpu", "cuda"):
        sys.modules.pop("v_exps", None)
        m = pyx.import_module("v_exps", target=target, path=[str(tmp_path)])
        out = np.full(n, -1.0, np.float32)
        try:
            m.exps[1, 32](x, out, n)
            raised = False
        except OverflowError as e:
            raised = str(e) == "math range error"
        # Both raise: a CUDA launch reports the thread's exception (codegen/kernel_raised.py).
        assert raised, target
        columns.append(out[5::32].copy())
    assert columns[0].tolist() == [1.0] * trip + [-1.0] * (40 - trip)
    assert np.array_equal(columns[0], columns[1])
