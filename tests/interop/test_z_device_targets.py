"""Gaps on the device targets (issue 19) found by running what only spirv-val and ptxas had seen:

- an `except` that names the exception's type (or binds it, or raises it again) in GPU code is E0913 on
  `cuda` and `opencl` (before: the OpenCL run crashed the user's process with SIGSEGV inside Intel's
  runtime, Oclgrind refused the kernel, and ptxas failed on `strcmp`); a bare `except:` and
  `finally` run there as on the CPU target;
- device code built at `-O0` is built at `-O1` at least (before: ptxas failed on `memcpy`, spirv-val
  on an `OpConstantNull` struct index);
- `examples/gpu_scan.px` and `examples/autotune_matmul.px` run whole on the OpenCL runtime, every
  launch on the device, printing what the CPU target prints.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, run_cli, run_pyx

SPIRV_VAL = shutil.which("spirv-val")
needs_spirv_val = pytest.mark.skipif(SPIRV_VAL is None, reason="spirv-val (spirv-tools) is not installed here")
PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if Path("/usr/local/cuda/bin/ptxas").exists() else None)
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA toolkit) is not installed on this machine")


def _opencl_available() -> bool:
    try:
        from pyx.runtime import opencl
    except ImportError:
        return False
    return opencl.available()


needs_opencl = pytest.mark.skipif(not _opencl_available(), reason="no OpenCL runtime that takes SPIR-V (pyopencl) here")

HEAD = """fn checked_div(a: Int, b: Int) -> Int:
    return a // b


@kernel
fn safe(a: Ptr[Int], b: Ptr[Int], out: Ptr[Int], n: Int):
    var i = block_idx.x * block_dim.x + thread_idx.x
    if i < n:
        try:
            out[i] = checked_div(a[i], b[i])
"""

MAIN = """

fn main():
    var n = 64
    var a = Ptr[Int].alloc(n)
    var b = Ptr[Int].alloc(n)
    var out = Ptr[Int].alloc(n)
    for i in range(n):
        a[i] = i
        b[i] = 1
    b[45] = 0
    launch safe[grid=2, block=32](a, b, out, n)
    print(out[44], out[45], out[63])
"""

NAMED = HEAD + """        except ZeroDivisionError:
            out[i] = -1
""" + MAIN

ANY = HEAD + """        except Exception:
            out[i] = -1
""" + MAIN

BARE = HEAD + """        except:
            out[i] = -1
""" + MAIN


def _run_in_child(path: Path, *options: str, env_extra=None) -> subprocess.CompletedProcess:
    """`pyx run` in a process of its own: before the fix the OpenCL run ended by SIGSEGV, which
    would take pytest down with it in-process."""
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "pyx", "run", *options, str(path)], capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.mark.parametrize("program", [NAMED, ANY], ids=["ZeroDivisionError", "Exception"])
@pytest.mark.parametrize("emit, target", [("ptx", "cuda"), ("spirv", "opencl")])
def test_an_except_that_names_the_exception_in_device_code_is_E0913(program, emit, target, tmp_path):
    """(`as e` and `raise e` read the exception state too, and are E0913 as well; but an `as`
    always follows a named type, whose check comes first.)"""
    what = "`except` naming an exception type"
    (tmp_path / "k.px").write_text(program)
    result = run_cli("build", f"--emit={emit}", str(tmp_path / "k.px"), "-o", str(tmp_path / "out"))
    assert result.status == 1, result.stderr
    # At the `except` clause that names the type (it was at the `try:`, line 9).
    assert f"k.px:11:9: error[E0913]: {what} in GPU code is not available on the `{target}` target" in result.stderr
    assert "test the condition with `if`" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_cpu_target_still_runs_an_except_naming_the_type_in_a_kernel(tmp_path):
    (tmp_path / "k.px").write_text(NAMED)
    result = run_pyx(tmp_path / "k.px")
    assert (result.status, result.stdout, result.stderr) == (0, "44 -1 63\n", "")


@needs_opencl
def test_pyx_run_on_opencl_rejects_it_instead_of_crashing(tmp_path):
    (tmp_path / "k.px").write_text(NAMED)
    done = _run_in_child(tmp_path / "k.px", "--target=opencl", env_extra={"PYX_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])  # was -11 (SIGSEGV in Intel's runtime)
    assert "error[E0913]" in done.stderr and done.stdout == ""


@needs_opencl
def test_a_bare_except_in_a_kernel_runs_on_opencl_as_on_the_cpu(tmp_path):
    (tmp_path / "k.px").write_text(BARE)
    cpu = run_pyx(tmp_path / "k.px")
    assert (cpu.status, cpu.stdout) == (0, "44 -1 63\n"), cpu.stderr
    done = _run_in_child(tmp_path / "k.px", "--target=opencl", env_extra={"PYX_CACHE_DIR": str(tmp_path / "cache")})
    assert (done.returncode, done.stdout) == (0, cpu.stdout), done.stderr[-2000:]


@needs_ptxas
def test_a_bare_except_in_a_kernel_assembles_with_ptxas(tmp_path):
    (tmp_path / "k.px").write_text(BARE)
    result = run_cli("build", "--emit=ptx", str(tmp_path / "k.px"), "-o", str(tmp_path / "k.ptx"))
    assert result.status == 0, result.stderr
    done = subprocess.run([PTXAS, "-arch=sm_80", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# -O0: every GPU example, and a kernel that can raise (the runtime's raise helpers copy the message).
O0_CASES = sorted(p for p in (ROOT / "examples").glob("*.px") if "@kernel" in p.read_text()
                  and p.stem != "gpu_dynamic_shared")


@needs_ptxas
@pytest.mark.parametrize("path", O0_CASES, ids=lambda p: p.stem)
def test_device_code_at_O0_assembles_with_ptxas(path: Path, tmp_path: Path):
    result = run_cli("build", "-O0", "--emit=ptx", str(path), "-o", str(tmp_path / "out.ptx"))
    assert result.status == 0, result.stderr
    done = subprocess.run([PTXAS, "-arch=sm_80", str(tmp_path / "out.ptx"), "-o", str(tmp_path / "out.cubin")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr  # was: Unresolved extern function 'memcpy'


@needs_spirv_val
@pytest.mark.parametrize("path", O0_CASES, ids=lambda p: p.stem)
def test_device_code_at_O0_is_valid_spirv(path: Path, tmp_path: Path):
    result = run_cli("build", "-O0", "--emit=spirv", str(path), "-o", str(tmp_path / "out.spv"))
    assert result.status == 0, result.stderr
    done = subprocess.run([SPIRV_VAL, str(tmp_path / "out.spv")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout  # was: OpConstantNull used as a struct index


def test_host_code_at_O0_is_still_unoptimized(tmp_path):
    (tmp_path / "t.px").write_text("fn twice(x: Int) -> Int:\n    var y = x\n    return y + y\n")
    result = run_cli("build", "-O0", "--emit=llvm", str(tmp_path / "t.px"))
    assert result.status == 0, result.stderr
    assert "alloca" in result.stdout  # mem2reg did not run: -O0 still means no passes on the host


@needs_opencl
@pytest.mark.parametrize("name", ["gpu_scan", "autotune_matmul"])
def test_examples_run_whole_on_opencl_as_on_the_cpu(name: str, monkeypatch, tmp_path: Path):
    """Only spirv-val had seen these two: every launch on the OpenCL device (counted), and the
    output the CPU target gives, which is the example's .out."""
    from pyx.runtime import opencl_program

    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    cpu = run_pyx(ROOT / "examples" / f"{name}.px")
    assert cpu.status == 0, cpu.stderr
    launched = []
    original = opencl_program.ProgramOnOpenCL.launch

    def counting(self, entry, *args):
        launched.append(entry)
        return original(self, entry, *args)
    monkeypatch.setattr(opencl_program.ProgramOnOpenCL, "launch", counting)
    result = run_pyx(ROOT / "examples" / f"{name}.px", "--target=opencl")
    assert result.status == 0, result.stderr
    assert result.stdout == cpu.stdout == (ROOT / "examples" / f"{name}.out").read_text()
    assert launched


HOST_EXCEPT = '''@kernel
fn scale(x: Ptr[Float32], n: Int):
    var i = block_idx.x * block_dim.x + thread_idx.x
    if i < n:
        x[i] = x[i] * 2.0


fn parse(s: String) -> Int:
    try:
        return int(s)
    except ValueError as e:
        print("bad:", e)
        return -1


fn main():
    var x = Ptr[Float32].alloc(32)
    for i in range(32):
        x[i] = Float32(i)
    launch scale[grid=1, block=32](x, 32)
    print(x[31], parse("12"), parse("zz"))
'''


@pytest.mark.parametrize("emit", ["ptx", "spirv"])
def test_an_except_naming_a_type_in_host_code_is_fine_beside_kernels(emit, tmp_path):
    """E0913 is about GPU code only: the device module holds the kernels and what they call."""
    (tmp_path / "p.px").write_text(HOST_EXCEPT)
    result = run_cli("build", f"--emit={emit}", str(tmp_path / "p.px"), "-o", str(tmp_path / "out"))
    assert result.status == 0, result.stderr


@needs_opencl
def test_an_except_naming_a_type_in_host_code_runs_with_target_opencl(tmp_path):
    (tmp_path / "p.px").write_text(HOST_EXCEPT)
    expected = "bad: invalid literal for int() with base 10: 'zz'\n62.0 12 -1\n"
    done = _run_in_child(tmp_path / "p.px", "--target=opencl", env_extra={"PYX_CACHE_DIR": str(tmp_path / "cache")})
    assert (done.returncode, done.stdout) == (0, expected), done.stderr[-2000:]
    assert run_pyx(tmp_path / "p.px").stdout == expected
