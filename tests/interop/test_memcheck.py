"""`pyx.import_module(name, memcheck=True)`: the arrays a call passes are the live arrays its
kernels' accesses are checked against, for as long as the call runs. The pyx side of the
checks (allocations, shared memory, messages) is in tests/golden/memcheck*.px."""
import sys

import pytest

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from helpers import ROOT  # noqa: E402

MODULE = '''
@kernel
fn scale(x: Ptr[Float32], n: Int):
    var i = global_idx.x
    if i < n:
        x[i] *= 2.0


fn scale_all(x: Ptr[Float32], n: Int):
    launch scale[grid=(n + 31) // 32, block=32](x, n)


fn total(x: Ptr[Float32], n: Int) -> Float32:
    var s: Float32 = 0.0
    for i in range(n):
        s += x[i]
    return s
'''


@pytest.fixture()
def load(tmp_path, monkeypatch):
    (tmp_path / "scaling.px").write_text(MODULE)
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))

    def load(**options):
        sys.modules.pop("scaling", None)
        return pyx.import_module("scaling", path=[str(tmp_path)], **options)
    return load


def test_a_kernel_launched_from_python_is_checked_against_its_arrays(load):
    m = load(memcheck=True)
    x = np.ones(40, np.float32)
    with pytest.raises(IndexError, match=r"index 40 is out of bounds for an array of 40 Float32, "
                                         r"in block \(1, 0, 0\), thread \(8, 0, 0\)"):
        m.scale[2, 32](x, 41)
    m.scale[2, 32](x, 40)  # the process goes on, and in-bounds launches run as before
    assert x.tolist() == [4.0] * 40


def test_a_view_is_its_own_array(load):
    m = load(memcheck=True)
    x = np.ones(64, np.float32)
    with pytest.raises(IndexError, match="index 16 is out of bounds for an array of 16 Float32"):
        m.scale_all(x[16:32], 17)  # a launch inside a pyx function, on a slice of x
    m.scale_all(x[16:32], 16)
    assert x[15:33].tolist() == [1.0] + [4.0] * 16 + [1.0]  # the failed launch wrote what it could


def test_arrays_are_live_only_during_the_call(load):
    from pyx.codegen.memcheck import SLOTS

    m = load(memcheck=True)
    x = np.ones(8, np.float32)
    for _ in range(SLOTS + 10):  # were any left registered, the table would fill and checks fail
        m.scale[1, 8](x, 8)
    assert np.isinf(x).all()  # every launch ran: 2.0 ** 65546 overflows float32
    assert m.total(np.ones(5, np.float32), 5) == 5.0  # host code is not checked


def test_without_memcheck_nothing_is_checked_or_registered(load):
    m = load()
    assert "memcheck" not in repr(m.scale_all) and m.__pyx__["meta"]["memcheck"] is False
    x = np.ones(64, np.float32)
    m.scale[1, 32](x[:8], 9)  # writes x[8]: unchecked, as on a GPU
    assert x[8] == 2.0


def test_memcheck_is_for_the_cpu(load):
    with pytest.raises(ValueError, match="memcheck=True checks kernels run on the CPU"):
        load(memcheck=True, target="cuda")


def test_the_examples_pass_memcheck(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    sys.modules.pop("gpu_matmul", None)
    m = pyx.import_module("gpu_matmul", path=[str(ROOT / "examples")], memcheck=True)
    rng = np.random.default_rng(3)
    a, b = rng.random((48, 40), np.float32), rng.random((40, 24), np.float32)
    c = np.zeros((48, 24), np.float32)
    m.matmul[(2, 3), (16, 16)](a, b, c, 48, 24, 40)  # tiles past the edges: guarded, so no error
    assert np.allclose(c, a @ b, rtol=1e-4)
