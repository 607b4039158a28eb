"""NVPTX code generation, checked by NVIDIA's own assembler (ptxas), without a GPU."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import ROOT, run_cli

PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if Path("/usr/local/cuda/bin/ptxas").exists() else None)
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA toolkit) is not installed on this machine")
CASES = sorted((ROOT / "tests" / "codegen" / "ptx").glob("*.px")) + sorted(
    p for p in (ROOT / "examples").glob("*.px") if "@kernel" in p.read_text())
# The kernel goldens too (issue 19: every GPU golden's PTX passes ptxas), but those copied above.
CASES += sorted(p for p in (ROOT / "tests" / "golden").glob("*.px")
                if "@kernel" in p.read_text() and p.stem not in {c.stem for c in CASES})


def build_ptx(path: Path, out: Path, *extra: str) -> str:
    result = run_cli("build", "--emit=ptx", *extra, str(path), "-o", str(out))
    assert result.status == 0, result.stderr
    return out.read_text()


@needs_ptxas
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptx_assembles(path: Path, arch: str, tmp_path: Path):
    ptx = build_ptx(path, tmp_path / "out.ptx", f"--gpu-arch={arch}")
    assert f".target {arch}" in ptx
    done = subprocess.run([PTXAS, f"-arch={arch}", str(tmp_path / "out.ptx"), "-o", str(tmp_path / "out.cubin")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_default_arch_is_sm_80(tmp_path: Path):
    assert ".target sm_80" in build_ptx(CASES[0], tmp_path / "out.ptx")


def test_math_links_only_the_libdevice_functions_used(tmp_path: Path):
    ptx = build_ptx(ROOT / "tests" / "codegen" / "ptx" / "math.px", tmp_path / "out.ptx")
    assert ".extern" not in ptx  # everything resolved inside the module
    assert ptx.count(".func") < 40  # libdevice's hundreds of functions were not all kept


def test_print_in_a_kernel_is_one_vprintf_per_statement(tmp_path: Path):
    src = tmp_path / "p.px"
    src.write_text("@kernel\nfn k(x: Ptr[Int32], b: Ptr[Bool]):\n"
                   "    print('thread', thread_idx.x, 'has', x[thread_idx.x], b[0], '100%')\n")
    ptx = build_ptx(src, tmp_path / "p.ptx")
    formats = re.findall(r"\.global \.align 1 \.b8 \S+\[\d+\] = \{([\d, ]+)\};", ptx)
    texts = {bytes(int(c) for c in f.split(", ")).decode() for f in formats}
    assert "thread %lld has %lld %s 100%%\n" in texts  # the whole line: threads' lines never mix
    assert "True" in texts and "False" in texts
    body = ptx[ptx.index(".entry"):]
    assert body.count("vprintf,") == 1


def test_printing_a_float_on_the_gpu_is_a_diagnostic(tmp_path: Path):
    src = tmp_path / "p.px"
    src.write_text("fn main():\n    print(1.5)\n")
    result = run_cli("build", "--emit=ptx", "--color=never", str(src))
    assert result.status == 1
    assert "error[E0226]: `printing a Float64 in GPU code` is not available on the `cuda` target" in result.stderr
    assert "p.px:2:5" in result.stderr


def test_a_strided_range_loop_in_a_kernel_is_unrolled(tmp_path: Path):
    # `for j in range(lane, cols, 32)` is a counted loop (a trip count LLVM can compute), so
    # it unrolls and a lane keeps several loads in flight, as nvcc's code for the same loop
    # does; a loop that can also leave through an overflow check stays one load per trip.
    src = tmp_path / "strided.px"
    src.write_text("@kernel\nfn row_max(x: Ptr[Float32], out: Ptr[Float32], cols: Int):\n"
                   "    var m: Float32 = 0.0\n"
                   "    for j in range(thread_idx.x, cols, 32):\n"
                   "        m = max(m, x[block_idx.x * cols + j])\n"
                   "    out[block_idx.x * 32 + thread_idx.x] = m\n")
    ptx = build_ptx(src, tmp_path / "strided.ptx")
    body = ptx[ptx.index(".entry"):]
    assert body.count("ld.global") >= 4, body
