"""What the NVPTX code of the examples' kernels is made of, against nvcc's for the same kernels
(benchmarks/gpu/twins.cu): the instructions the H100's profile showed pyx was missing. Read from
the PTX, without a GPU (timing them needs one: benchmarks/gpu/device_check.sh)."""
import re
from pathlib import Path

from helpers import ROOT, run_cli
from pyx.codegen.device_raise import HELPERS


def kernel_ptx(path: Path, tmp_path: Path, arch: str = "sm_90") -> str:
    out = tmp_path / (path.stem + ".ptx")
    result = run_cli("build", "--emit=ptx", f"--gpu-arch={arch}", str(path), "-o", str(out))
    assert result.status == 0, result.stderr
    ptx = out.read_text()
    return ptx[ptx.index(".entry"):]  # the kernels (device functions they call are inlined there)


def loops(body: str) -> list[str]:
    """The text of every loop: from a label to the last branch back to it."""
    found = []
    for label in re.findall(r"^(\$L__BB\d+_\d+):", body, re.M):
        start = body.index(label + ":")
        back = max((m.start() for m in re.finditer(rf"bra(\.uni)?\s+{re.escape(label)};", body)), default=-1)
        if back > start:
            found.append(body[start:back])
    return found


def kernel_source(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "k.px"
    path.write_text(text)
    return path


def test_softmax_exp_loop_is_unrolled(tmp_path: Path):
    # The exp loop can also leave through math.exp's OverflowError; LLVM's runtime unroller
    # refused such a loop, so it kept one load and one ex2 per trip while nvcc's unrolled 4x.
    body = kernel_ptx(ROOT / "examples" / "gpu_softmax.px", tmp_path)
    assert max(loop.count("ex2.approx") for loop in loops(body)) >= 2
    # Each unrolled copy still checks for the overflow (the raise is kept, not dropped).
    exp_loop = max(loops(body), key=lambda loop: loop.count("ex2.approx"))
    assert exp_loop.count("0f7F800000") >= 2 * exp_loop.count("ex2.approx") - 1


def test_a_device_loop_that_can_raise_is_unrolled(tmp_path: Path):
    src = kernel_source(tmp_path, "import math\n\n\n@kernel\n"
                        "fn exps(x: Ptr[Float32], out: Ptr[Float32], n: Int):\n"
                        "    for j in range(thread_idx.x, n, 32):\n"
                        "        out[j] = math.exp(x[j])\n")
    body = kernel_ptx(src, tmp_path)
    assert max(loop.count("ld.global") for loop in loops(body)) >= 2


def test_softmax_shuffle_xor_is_a_butterfly_on_a_whole_warp(tmp_path: Path):
    # `shuffle_xor(m, offset)` in a warp whose 32 lanes exist is nvcc's __shfl_xor_sync: one
    # shfl.sync.bfly with the constant member mask 0xffffffff; a block's last, partial warp
    # keeps the general path (the source lane by index, the mask of the lanes that exist).
    body = kernel_ptx(ROOT / "examples" / "gpu_softmax.px", tmp_path)
    assert len(re.findall(r"shfl\.sync\.bfly\.b32\s+%r\d+, %r\d+, (16|8|4|2|1), 31, -1;", body)) == 10
    assert len(re.findall(r"shfl\.sync\.idx\.b32\s+%r\d+, %r\d+, %r\d+, 31, %r\d+;", body)) == 10


def test_warp_reduction_on_a_whole_warp_has_a_constant_member_mask(tmp_path: Path):
    src = kernel_source(tmp_path, "@kernel\nfn total(x: Ptr[Float32], out: Ptr[Float32]):\n"
                        "    out[thread_idx.x] = warp_sum(x[thread_idx.x])\n")
    body = kernel_ptx(src, tmp_path)
    whole = re.findall(r"shfl\.sync\.bfly\.b32\s+%r\d+, %r\d+, (\d+), 31, -1;", body)
    assert whole == ["16", "8", "4", "2", "1"]  # the butterfly, in the definition's order
    partial = re.findall(r"shfl\.sync\.bfly\.b32\s+%r\d+, %r\d+, (\d+), 31, %r\d+;", body)
    assert partial == ["16", "8", "4", "2", "1"]


def test_python_max_of_floats_stays_a_compare_and_select(tmp_path: Path):
    # PTX's max.f32 is C's fmaxf: max(nan, 1.0) is 1.0 there and nan in Python, max(-0.0, 0.0)
    # is +0.0 there (the PTX ISA orders +0.0 above -0.0) and -0.0 in Python; max.NaN.f32 makes
    # max(1.0, nan) nan where Python gives 1.0. So Python's `max` of floats is neither.
    body = kernel_ptx(ROOT / "examples" / "gpu_softmax.px", tmp_path)
    assert "max.f32" not in body and "max.NaN.f32" not in body
    assert "setp.gt.f32" in body


def test_a_kernel_raises_without_calls(tmp_path: Path):
    # A call in a kernel costs registers for its ABI even on a path never taken (flash attention:
    # 220 with the raise helpers called, 211 inlined, sm_90): the helpers are inlined.
    body = kernel_ptx(ROOT / "examples" / "flash_attn.px", tmp_path)
    assert "call.uni" not in body and not any(helper in body for helper in HELPERS)
