"""`pyx run --target=cuda`: the host code runs on the CPU, `launch` starts the kernel's PTX
entry through the driver, and `Ptr.alloc` is managed memory. Run here against the stand-in
driver (tests/fake_cuda.py, whose launch computes SAXPY in Python over the pointers it is
given); tests/interop/test_cuda_target.py runs the same on a real GPU where there is one."""
import pytest

from fake_cuda import FakeDriver
from helpers import ROOT, run_cli
from pyx.codegen.abi import kernel_entry
from pyx.runtime import cuda

SAXPY = str(ROOT / "examples" / "saxpy.px")
SAXPY_ENTRY = kernel_entry("saxpy.saxpy").encode()  # the PTX .entry the driver is asked for
EXPECTED = (ROOT / "examples" / "saxpy.out").read_text()


def test_launches_go_to_the_device_and_allocations_are_managed(fake):
    result = run_cli("run", "--target=cuda", SAXPY)
    assert (result.status, result.stdout, result.stderr) == (0, EXPECTED, "")
    assert b".entry " + SAXPY_ENTRY in fake.ptx and b".target sm_90" in fake.ptx
    assert [c for c in fake.calls if c[0] in ("managed", "launch")] == [
        ("managed", 4000), ("managed", 4000), ("launch", SAXPY_ENTRY, (4, 1, 1), (256, 1, 1), 0)]
    assert fake.memory == {}  # the program's free() went to cuMemFree


def test_a_cached_program_and_its_ptx_are_reused(fake, monkeypatch):
    from pyx import pipeline

    assert run_cli("run", "--target=cuda", SAXPY).status == 0
    compiled = []
    monkeypatch.setattr(pipeline, "optimize", lambda *a, **k: compiled.append(a))
    cuda.use_driver(lambda: fake)  # a fresh device: the module is loaded again
    fake.calls.clear()
    result = run_cli("run", "--target=cuda", SAXPY)  # the shared-library warm path, no compiler
    assert (result.status, result.stdout, compiled) == (0, EXPECTED, [])
    assert ("launch", SAXPY_ENTRY, (4, 1, 1), (256, 1, 1), 0) in fake.calls


def test_a_failing_launch_is_a_runtime_error_at_the_launch(fake, monkeypatch):
    monkeypatch.setattr(fake, "cuLaunchKernel", lambda *a: (FakeDriver.CUresult.CUDA_ERROR_INVALID_VALUE,))
    result = run_cli("run", "--target=cuda", SAXPY)
    assert result.status == 1 and result.stdout == ""
    assert "RuntimeError: cuLaunchKernel failed (kernel saxpy): CUDA_ERROR_INVALID_VALUE" in result.stderr
    assert "saxpy.px\", line 20, in main" in result.stderr
    assert "Traceback (most recent call last)" in result.stderr and ".py\"" not in result.stderr


def test_a_launch_on_a_stream_waits_for_that_stream(fake, tmp_path):
    program = tmp_path / "streamed.px"
    program.write_text(
        "from saxpy import saxpy\n\n\n"
        "fn main():\n"
        "    var x = Ptr[Float32].alloc(4)\n"
        "    var y = Ptr[Float32].alloc(4)\n"
        "    for i in range(4):\n"
        "        x[i] = Float32(i)\n"
        "        y[i] = 0.5\n"
        "    launch saxpy[grid=1, block=32, stream=7](3.0, x, y, 4)\n"
        "    print(y[0], y[3])\n"
        "    x.free()\n"
        "    y.free()\n")
    (tmp_path / "saxpy.px").write_text((ROOT / "examples" / "saxpy.px").read_text())
    result = run_cli("run", "--target=cuda", str(program))
    assert (result.status, result.stdout) == (0, "0.5 9.5\n"), result.stderr
    assert ("launch", SAXPY_ENTRY, (1, 1, 1), (32, 1, 1), 0, 7) in fake.calls
    assert ("sync", 7) in fake.calls


def test_without_a_gpu_cuda_is_an_error_and_auto_is_the_cpu():
    def missing():
        raise cuda.CudaUnavailable("pyx: target='cuda' needs cuda-python: pip install \"pyx-llvm[cuda]\"")

    cuda.use_driver(missing)
    try:
        result = run_cli("run", "--target=cuda", SAXPY)
        assert (result.status, result.stdout) == (1, "")
        assert result.stderr == "pyx: error: target='cuda' needs cuda-python: pip install \"pyx-llvm[cuda]\"\n"
        result = run_cli("run", "--target=auto", SAXPY)
        assert (result.status, result.stdout) == (0, EXPECTED)
    finally:
        cuda.use_driver(None)


def test_a_program_without_launches_never_opens_the_device():
    cuda.use_driver(lambda: pytest.fail("opened the device"))  # opening a device loads the driver first
    try:
        result = run_cli("run", "--target=cuda", str(ROOT / "examples" / "hello.px"))
    finally:
        cuda.use_driver(None)
    assert (result.status, result.stdout) == (0, (ROOT / "examples" / "hello.out").read_text())
