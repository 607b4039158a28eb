"""A work-item that raises in a kernel on the opencl target makes the launch raise what the CPU
target raises: the same exception type, message and kernel frames (codegen/kernel_raised.py, the
status record), from Python (`pyx.import_module(..., target="opencl")`) and in a whole program
(`pyx run --target=opencl`). Before, the launch returned as if nothing had happened."""
import importlib.util
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

from helpers import ROOT, run_cli, run_pyx

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from pyx.codegen.kernel_raised import RECORD_SYMBOL, TAKE_SYMBOL  # noqa: E402
from pyx.runtime import opencl  # noqa: E402

needs_opencl = pytest.mark.skipif(not opencl.available(), reason="no OpenCL runtime that takes SPIR-V (pyopencl) here")

KERNELS = """import math


fn checked_div(a: Int, b: Int) -> Int:
    return a // b


@kernel
fn exps(x: Ptr[Float32], out: Ptr[Float32], n: Int):
    var i = block_idx.x * block_dim.x + thread_idx.x
    if i < n:
        out[i] = math.exp(x[i])


@kernel
fn divide(a: Ptr[Int], b: Ptr[Int], out: Ptr[Int], n: Int):
    var i = block_idx.x * block_dim.x + thread_idx.x
    if i < n:
        out[i] = checked_div(a[i], b[i])


@kernel
fn check(x: Ptr[Int], n: Int):
    var i = block_idx.y * grid_dim.x * block_dim.x + block_idx.x * block_dim.x + thread_idx.x
    if i < n:
        assert x[i] >= 0, "a negative element"


@kernel
fn scale(x: Ptr[Float32], n: Int):
    var i = block_idx.x * block_dim.x + thread_idx.x
    if i < n:
        x[i] = x[i] * 2.0
"""

PROGRAM = KERNELS + """

fn main():
    var n = 64
    var a = Ptr[Int].alloc(n)
    var b = Ptr[Int].alloc(n)
    var out = Ptr[Int].alloc(n)
    for i in range(n):
        a[i] = i
        b[i] = 1
    launch divide[grid=2, block=32](a, b, out, n)
    print(out[63])
    b[45] = 0
    launch divide[grid=2, block=32](a, b, out, n)
    print("not reached")
"""


def _cases():
    exps_x = np.zeros(64, np.float32)
    exps_x[45] = 100.0  # overflows Float32
    b = np.ones(64, np.int64)
    b[37] = 0
    negative = np.arange(128, dtype=np.int64)
    negative[70] = -1
    return {
        "overflow": lambda m: m.exps[2, 32](exps_x, np.zeros(64, np.float32), 64),
        "division in a device function": lambda m: m.divide[2, 32](np.arange(64, dtype=np.int64), b,
                                                                   np.zeros(64, np.int64), 64),
        "assert, 2-D grid": lambda m: m.check[(2, 2), 32](negative, 128),
    }


def _outcome(load, target: str, case: str):
    m = load("y_raising", target)
    try:
        _cases()[case](m)
    except Exception as exc:  # noqa: BLE001 - the exception is what is compared
        innermost = traceback.extract_tb(exc.__traceback__)[-1]
        return type(exc), str(exc), exc.__notes__, (Path(innermost.filename).name, innermost.lineno)
    return None


@pytest.fixture
def load(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "y_raising.px").write_text(KERNELS)

    def load(name, target):
        sys.modules.pop(name, None)
        return pyx.import_module(name, target=target, path=[str(tmp_path)])
    return load


@needs_opencl
@pytest.mark.parametrize("case", ["overflow", "division in a device function", "assert, 2-D grid"])
def test_a_kernel_that_raises_raises_the_same_on_opencl_as_on_the_cpu(load, case: str):
    cpu = _outcome(load, "cpu", case)
    assert cpu is not None  # the CPU target raises (docs/gpu.md)
    assert _outcome(load, "opencl", case) == cpu


@needs_opencl
def test_the_frames_of_a_raise_in_a_device_function_are_the_kernels(load):
    kind, message, notes, innermost = _outcome(load, "opencl", "division in a device function")
    assert (kind, message) == (ZeroDivisionError, "integer division or modulo by zero")
    assert [line.split(", ", 1)[1] for line in notes[0].splitlines()[1:]] == ["line 19, in divide",
                                                                               "line 5, in checked_div"]
    assert innermost == ("y_raising.px", 5)


@needs_opencl
def test_the_launch_after_a_raising_one_starts_clean(load):
    m = load("y_raising", "opencl")
    with pytest.raises(ZeroDivisionError):
        _cases()["division in a device function"](m)
    out = np.zeros(64, np.int64)
    m.divide[2, 32](np.arange(64, dtype=np.int64), np.full(64, 2, np.int64), out, 64)  # raises nothing
    assert out.tolist() == [i // 2 for i in range(64)]


@needs_opencl
def test_a_whole_program_stops_where_the_cpu_target_does(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "y_raising_program.px"
    source.write_text(PROGRAM)
    cpu = run_pyx(source)
    device = run_pyx(source, "--target=opencl")
    assert (cpu.status, cpu.stdout) == (1, "63\n")
    assert "ZeroDivisionError: integer division or modulo by zero" in cpu.stderr
    assert (device.status, device.stdout, device.stderr) == (cpu.status, cpu.stdout, cpu.stderr)


@needs_opencl
def test_the_kernel_golden_whose_thread_raises_prints_its_output_on_opencl(tmp_path: Path, monkeypatch):
    """tests/golden/gpu_kernels.px catches a thread's ZeroDivisionError around a `launch`: on the
    opencl target too (before, the launch returned and the `except` never ran)."""
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    golden = ROOT / "tests" / "golden" / "gpu_kernels.px"
    result = run_pyx(golden, "--target=opencl")
    assert result.status == 0, result.stderr
    assert result.stdout == golden.with_suffix(".out").read_text()
    assert "a thread raised: integer division or modulo by zero" in result.stdout


def test_only_modules_whose_kernels_can_raise_have_the_status_record(tmp_path: Path):
    raising = tmp_path / "y_raising.px"
    raising.write_text(KERNELS)
    calm = tmp_path / "y_calm.px"
    calm.write_text("@kernel" + KERNELS.split("@kernel")[-1])  # `scale` alone: it cannot raise
    text = run_cli("build", "--emit=llvm", "--target=opencl", str(raising))
    assert text.status == 0, text.stderr
    assert f"@{RECORD_SYMBOL} = addrspace(1) global" in text.stdout
    assert f"define spir_kernel void @{TAKE_SYMBOL}(" in text.stdout
    text = run_cli("build", "--emit=llvm", "--target=opencl", str(calm))
    assert text.status == 0, text.stderr
    assert RECORD_SYMBOL not in text.stdout


@pytest.mark.skipif(subprocess.run(["which", "spirv-val"], capture_output=True).returncode != 0,
                    reason="spirv-val (spirv-tools) is not installed here")
def test_the_raising_module_is_valid_spirv(tmp_path: Path):
    source = tmp_path / "y_raising.px"
    source.write_text(KERNELS)
    done = run_cli("build", "--emit=spirv", str(source), "-o", str(tmp_path / "out.spv"))
    assert done.status == 0, done.stderr
    checked = subprocess.run(["spirv-val", str(tmp_path / "out.spv")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr + checked.stdout


OCLGRIND = next((p for p in (Path("/usr/lib/oclgrind/liboclgrind-rt-icd.so"),
                             Path("/usr/lib64/oclgrind/liboclgrind-rt-icd.so")) if p.exists()), None)


@pytest.mark.skipif(OCLGRIND is None or opencl.translator() is None or importlib.util.find_spec("pyopencl") is None,
                    reason="oclgrind, llvm-spirv or pyopencl is not installed here")
def test_oclgrind_reports_the_exception_and_finds_nothing_wrong(tmp_path: Path):
    """Oclgrind builds the record (a program-scope global) from SPIR 1.2 bitcode too, and its race
    and memory checks find nothing in the raise path or the take kernel."""
    import os

    (tmp_path / "y_raising.px").write_text(KERNELS)
    (tmp_path / "oclgrind.icd").write_text(f"{OCLGRIND}\n")
    code = f"""import numpy as np, pyx
m = pyx.import_module("y_raising", target="opencl", path=[{str(tmp_path)!r}])
print(m.__pyx__["target"])
a, b = np.arange(64, dtype=np.int64), np.ones(64, np.int64)
b[37] = 0
try:
    m.divide[2, 32](a, b, np.zeros(64, np.int64), 64)
except ZeroDivisionError as e:
    print("raised", e)
m.divide[2, 32](a, a + 1, np.zeros(64, np.int64), 64)
print("clean")
"""
    env = {**os.environ, "OCL_ICD_VENDORS": str(tmp_path / "oclgrind.icd"), "OCLGRIND_DATA_RACES": "1",
           "OCLGRIND_UNINITIALIZED": "1", "PYX_CACHE_DIR": str(tmp_path / "cache"), "PYX_OPENCL_DEVICE": ""}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["raised integer division or modulo by zero", "clean"]
    assert "Oclgrind" in done.stdout.splitlines()[0]
    assert not any(f in done.stderr for f in ("data race", "Uninitialized", "Invalid", "FATAL")), done.stderr


def test_a_record_another_threads_caught_exception_kept_is_a_runtime_error_saying_so():
    """OpenCL's flag UNRECORDED (codegen/kernel_raised.py): a work-item left its kernel raising,
    but the record held another work-item's exception, which that one caught. (No OpenCL runtime
    here builds a kernel with `try`, so the record is made by hand.)"""
    import struct

    from pyx.runtime import kernel_raised

    record = struct.pack("<4i", 2, 1, 1, 0).ljust(kernel_raised.RECORD_BYTES, b"\0")
    exc = kernel_raised.exception(record)
    assert type(exc) is RuntimeError and "could not be recorded" in str(exc)
    assert kernel_raised.exception(bytes(kernel_raised.RECORD_BYTES)) is None
