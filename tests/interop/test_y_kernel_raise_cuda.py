"""A GPU thread that raises in a kernel on the cuda target makes the launch raise what the CPU
target raises (codegen/kernel_raised.py): the PTX writes the exception into the externally
visible status record `__pyx_kernel_raised`, and the runtime reads it after the launch
(cuModuleGetGlobal, a copy) and clears it. Checked here on the PTX (ptxas where installed), and
on the runtime's side against the stand-in driver (tests/fake_cuda.py), whose launch writes a
record as a raising thread would; the last test runs on a real GPU (marked gpu)."""
import shutil
import struct
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

from fake_cuda import SAXPY_KERNEL
from helpers import ROOT, run_cli

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from pyx.codegen.kernel_raised import RECORD_SYMBOL  # noqa: E402
from pyx.runtime import cuda  # noqa: E402

# The record's layout (codegen/kernel_raised.py): flag, owner, depth, used; the frames' lines; the text.
FRAMES, TEXT_BYTES = 8, 1024
RECORD_BYTES = 16 + 4 * FRAMES + TEXT_BYTES

PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if Path("/usr/local/cuda/bin/ptxas").exists() else None)

SOURCE = SAXPY_KERNEL  # (the stand-in's launch computes SAXPY over its first four parameters)

PROGRAM = SOURCE + """

fn main():
    var n = 64
    var x = Ptr[Float32].alloc(n)
    var y = Ptr[Float32].alloc(n)
    for i in range(n):
        x[i] = 0.0
        y[i] = 1.0
    x[40] = 100.0
    launch saxpy[grid=2, block=32](2.0, x, y, n)
    print("not reached")
"""


def raised_record(kind: str, message: str, frames: list[tuple[str, str, int]]) -> bytes:
    """The status record a thread leaves (codegen/kernel_raised.py's layout): frames (function,
    file, line), innermost first."""
    pieces = [kind, message] + [p for func, file, _ in frames for p in (func, file)]
    text = b"".join(piece.encode() + b"\0" for piece in pieces)
    lines = [line for _, _, line in frames] + [0] * (FRAMES - len(frames))
    record = struct.pack(f"<4i{FRAMES}i", 1, 0, len(frames), len(text), *lines) + text.ljust(TEXT_BYTES, b"\0")
    assert len(record) == RECORD_BYTES
    return record


def ptx_of(tmp_path: Path, source: str, name: str = "y_raise.px") -> str:
    path = tmp_path / name
    path.write_text(source)
    done = run_cli("build", "--emit=ptx", "--gpu-arch=sm_90", str(path), "-o", str(tmp_path / "out.ptx"))
    assert done.status == 0, done.stderr
    return (tmp_path / "out.ptx").read_text()


def test_the_ptx_of_a_raising_kernel_writes_the_visible_status_record(tmp_path: Path):
    ptx = ptx_of(tmp_path, SOURCE)
    assert f".visible .global .align 4 .b8 {RECORD_SYMBOL}[{RECORD_BYTES}];" in ptx
    assert "cas.b32" in ptx and f"[{RECORD_SYMBOL}]" in ptx  # the first raising thread claims it


def test_a_kernel_that_cannot_raise_has_no_status_record(tmp_path: Path):
    assert RECORD_SYMBOL not in ptx_of(tmp_path, (ROOT / "examples" / "saxpy.px").read_text(), "saxpy.px")


@pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA toolkit) is not installed on this machine")
def test_ptxas_accepts_the_raise_path(tmp_path: Path):
    ptx_of(tmp_path, SOURCE)
    done = subprocess.run([PTXAS, "-arch=sm_90", str(tmp_path / "out.ptx"), "-o", str(tmp_path / "out.cubin")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_launch_from_python_raises_the_threads_exception_and_clears_the_record(fake, tmp_path: Path):
    (tmp_path / "y_raise.px").write_text(SOURCE)
    sys.modules.pop("y_raise", None)
    m = pyx.import_module("y_raise", target="cuda", path=[str(tmp_path)])
    file = str(tmp_path / "y_raise.px")
    fake.raises = raised_record("OverflowError", "math range error", [("saxpy", file, 8)])
    x, y = np.ones(64, np.float32), np.ones(64, np.float32)
    with pytest.raises(OverflowError) as raised:
        m.saxpy[2, 32](2.0, x, y, 64)
    assert str(raised.value) == "math range error"
    innermost = traceback.extract_tb(raised.value.__traceback__)[-1]
    assert (innermost.filename, innermost.lineno, innermost.name) == (file, 8, "saxpy")
    assert y.tolist() == [3.0] * 64  # the results came back before the exception was raised
    assert bytes(fake.record) == bytes(RECORD_BYTES)  # cleared for the next launch
    fake.raises = None
    m.saxpy[2, 32](2.0, x, y, 64)  # raises nothing


def test_a_whole_program_stops_at_the_launch_with_the_kernels_frame(fake, tmp_path: Path):
    source = tmp_path / "y_raise_program.px"
    source.write_text(PROGRAM)
    cpu = run_cli("run", str(source))
    assert cpu.status == 1 and "OverflowError: math range error" in cpu.stderr
    fake.raises = raised_record("OverflowError", "math range error", [("saxpy", str(source), 8)])
    device = run_cli("run", "--target=cuda", str(source))
    assert (device.status, device.stdout, device.stderr) == (cpu.status, cpu.stdout, cpu.stderr)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available(), reason="no NVIDIA GPU, driver or cuda-python here")
def test_on_a_gpu_the_launch_raises_what_the_cpu_target_raises(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "y_raise.px").write_text(SOURCE)
    outcomes = []
    for target in ("cpu", "cuda"):
        sys.modules.pop("y_raise", None)
        m = pyx.import_module("y_raise", target=target, path=[str(tmp_path)])
        x = np.zeros(64, np.float32)
        x[40] = 100.0
        with pytest.raises(OverflowError) as raised:
            m.saxpy[2, 32](2.0, x, np.ones(64, np.float32), 64)
        innermost = traceback.extract_tb(raised.value.__traceback__)[-1]
        outcomes.append((str(raised.value), raised.value.__notes__, innermost.lineno))
        x[40] = 0.0
        m.saxpy[2, 32](2.0, x, np.ones(64, np.float32), 64)  # the next launch raises nothing
    assert outcomes[0] == outcomes[1]
    source = tmp_path / "y_raise_program.px"
    source.write_text(PROGRAM)
    cpu, device = run_cli("run", str(source)), run_cli("run", "--target=cuda", str(source))
    assert (device.status, device.stdout, device.stderr) == (cpu.status, cpu.stdout, cpu.stderr)
