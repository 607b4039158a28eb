"""Kernels with compile-time parameters (40 of Mojo's 64 puzzle kernels have them): `launch
scale[4][grid=..., block=...](...)` launches the instance for 4, on the CPU and in the PTX, where each
instance a program launches is an entry of its own."""
import shutil
import subprocess

import pytest

from helpers import run_cli, run_source

PROGRAM = """\
@kernel
fn scale[factor: Int, T: DType](x: Ptr[Scalar[T]], n: Int):
    var i = global_idx.x
    if i < n:
        x[i] = x[i] * Scalar[T](factor)


fn main():
    var x = Ptr[Float32].alloc(8)
    var y = Ptr[Int32].alloc(8)
    for i in range(8):
        x[i] = Float32(i)
        y[i] = Int32(i)
    launch scale[4, DType.float32][grid=1, block=8](x, 8)
    launch scale[3, DType.int32][grid=(1, 1), block=8](y, 8)
    launch scale[3, DType.int32][grid=1, block=4](y, 8)
    print(x[1], x[7], y[1], y[7])
"""


def test_a_kernel_instance_launches(tmp_path):
    result = run_source(PROGRAM, tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == "4.0 28.0 9 21\n"


def test_each_launched_instance_is_a_ptx_entry(tmp_path):
    src = tmp_path / "params.px"
    src.write_text(PROGRAM)
    out = tmp_path / "params.ptx"
    result = run_cli("build", "--emit=ptx", str(src), "-o", str(out))
    assert result.status == 0, result.stderr
    entries = [line.split()[2].rstrip("(") for line in out.read_text().splitlines()
               if line.startswith(".visible .entry")]
    assert len(entries) == 2, entries
    assert any("scale_5b_4" in e for e in entries) and any("scale_5b_3" in e for e in entries)
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        pytest.skip("ptxas is not installed")
    done = subprocess.run([ptxas, "-arch=sm_80", str(out), "-o", str(tmp_path / "params.cubin")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
