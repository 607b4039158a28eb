"""The CUDA runtime's own logic, run against a stand-in for `cuda.bindings.driver` whose
"device memory" is host memory and whose launch runs SAXPY in Python: it checks the PTX
handed to the driver, the kernel looked up, the argument packing (one pointer per
parameter, each to a value of the parameter's C type), the copies both ways and the frees.
A real GPU run is in test_cuda_target.py (marked gpu)."""
import sys

import pytest

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from fake_cuda import FakeDriver  # noqa: E402
from helpers import ROOT  # noqa: E402
from pyx.codegen.abi import kernel_entry  # noqa: E402
from pyx.runtime import cuda  # noqa: E402

SAXPY_ENTRY = kernel_entry("saxpy.saxpy").encode()  # the PTX .entry the driver is asked for


@pytest.fixture(autouse=True)
def fresh_import():
    sys.modules.pop("saxpy", None)


def test_a_launch_packs_copies_and_frees(fake):
    m = pyx.import_module("saxpy", target="cuda", path=[str(ROOT / "examples")])
    assert m.__pyx__["target"] == "cuda (sm_90)"
    assert b".target sm_90" in fake.ptx and b".entry " + SAXPY_ENTRY in fake.ptx
    x, y = np.arange(300, dtype=np.float32), np.ones(300, np.float32)
    m.saxpy[2, 256](2.0, x, y, 300)
    assert y.tolist() == [2.0 * i + 1.0 for i in range(300)]
    assert ("function", SAXPY_ENTRY) in fake.calls
    assert ("launch", SAXPY_ENTRY, (2, 1, 1), (256, 1, 1), 0) in fake.calls
    assert [c for c in fake.calls if c[0] in ("to device", "to host")] == [
        ("to device", 1200), ("to device", 1200), ("to host", 1200), ("to host", 1200)]
    assert fake.memory == {}  # every device buffer freed


def test_arguments_are_checked_before_anything_is_copied(fake):
    m = pyx.import_module("saxpy", target="cuda", path=[str(ROOT / "examples")])
    with pytest.raises(TypeError, match="expected an array of float32, got float64"):
        m.saxpy[1, 32](2.0, np.ones(4), np.ones(4, np.float32), 4)
    with pytest.raises(TypeError, match="takes 4 arguments, 3 given"):
        m.saxpy[1, 32](2.0, np.ones(4, np.float32), 4)
    assert fake.memory == {}


def test_a_failing_driver_call_names_the_call_and_the_kernel(fake, monkeypatch):
    m = pyx.import_module("saxpy", target="cuda", path=[str(ROOT / "examples")])
    monkeypatch.setattr(fake, "cuLaunchKernel", lambda *a: (FakeDriver.CUresult.CUDA_ERROR_INVALID_VALUE,))
    with pytest.raises(cuda.CudaError, match=r"cuLaunchKernel failed \(kernel saxpy\): CUDA_ERROR_INVALID_VALUE"):
        m.saxpy[1, 32](2.0, np.ones(4, np.float32), np.ones(4, np.float32), 4)
    assert fake.memory == {}


def test_the_ptx_is_compiled_once_and_cached(fake, monkeypatch, tmp_path):
    from pyx import pipeline

    first = pyx.import_module("saxpy", target="cuda", path=[str(ROOT / "examples")])
    assert first.__pyx__["target"] == "cuda (sm_90)"
    ptx = fake.ptx
    assert list((tmp_path / "cache").glob("saxpy.*.sm_90.ptx"))
    compiled = []
    original = pipeline.optimize
    monkeypatch.setattr(pipeline, "optimize", lambda *a, **k: compiled.append(a) or original(*a, **k))
    cuda.use_driver(lambda: fake)  # a fresh device: the module is loaded again
    sys.modules.pop("saxpy", None)
    pyx.import_module("saxpy", target="cuda", path=[str(ROOT / "examples")])
    assert compiled == [] and fake.ptx == ptx


def test_a_module_the_driver_rejects_shows_its_jit_log(fake):
    fake.reject = True
    with pytest.raises(cuda.CudaError, match=r"(?s)cuModuleLoadData failed.*JIT log:.*the stand-in says no"):
        pyx.import_module("saxpy", target="cuda", path=[str(ROOT / "examples")])


def test_device_buffers_stay_on_the_device_between_launches(fake):
    m = pyx.import_module("saxpy", target="cuda", path=[str(ROOT / "examples")])
    x = cuda.to_device(np.arange(8, dtype=np.float32))
    y = cuda.to_device(np.zeros(8, np.float32))
    fake.calls.clear()
    for _ in range(3):
        m.saxpy[1, 32](1.0, x, y, 8)
    assert not [c for c in fake.calls if c[0] in ("to device", "to host")]  # no copies per launch
    result = np.empty(8, np.float32)
    y.to_host(result)
    assert result.tolist() == [3.0 * i for i in range(8)]
    x.free()
    y.free()
    assert fake.memory == {}


AXPY = '''
from saxpy import saxpy


fn axpy(a: Float32, x: Ptr[Float32], y: Ptr[Float32], n: Int) -> Float32:
    """y = a*x + y on the GPU; returns y[0] as the host reads it after the launch."""
    launch saxpy[grid=(n + 255) // 256, block=256](a, x, y, n)
    return y[0]


fn twice(v: Int) -> Int:
    return 2 * v
'''


def test_a_function_that_launches_runs_its_kernels_on_the_gpu(fake, tmp_path):
    (tmp_path / "axpy.px").write_text(AXPY)
    (tmp_path / "saxpy.px").write_text((ROOT / "examples" / "saxpy.px").read_text())
    sys.modules.pop("axpy", None)
    m = pyx.import_module("axpy", target="cuda", path=[str(tmp_path)])
    assert repr(m.axpy) == "<pyx function axpy launching on sm_90>"
    assert "launching" not in repr(m.twice)
    x, y = np.arange(300, dtype=np.float32), np.ones(300, np.float32)
    fake.calls.clear()
    assert m.axpy(2.0, x, y, 300) == 1.0  # y[0] read by host code from managed memory
    assert y.tolist() == [2.0 * i + 1.0 for i in range(300)]  # copied back into the caller's array
    assert [c for c in fake.calls if c[0] in ("managed", "launch")] == [
        ("managed", 1200), ("managed", 1200), ("launch", SAXPY_ENTRY, (2, 1, 1), (256, 1, 1), 0)]
    assert fake.memory == {}  # the staging copies were freed
    assert m.twice(21) == 42  # functions that launch nothing are called as before
    with pytest.raises(TypeError, match="expected an array of float32, got float64"):
        m.axpy(2.0, np.ones(4), np.ones(4, np.float32), 4)
    assert fake.memory == {}
