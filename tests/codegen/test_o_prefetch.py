"""`p.prefetch(i)`: a hint that element i of a Ptr will be read soon. It changes no value, is
x86's prefetch instruction on the CPU, and is dropped on GPU targets."""
from pathlib import Path

from helpers import build_source, emitted, run_source

PROGRAM = """
fn total(p: Ptr[Float32], n: Int) -> Float32:
    var s: Float32 = 0.0
    for i in range(n):
        p.prefetch(i + 64)  # past the end: a hint never faults
        s += p[i]
    return s


fn main():
    var p = Ptr[Float32].alloc(100)
    for i in range(100):
        p[i] = Float32(i)
    p.prefetch()
    (p + 50).prefetch(3)
    print(total(p, 100), p[53])
    p.free()
"""


def test_prefetch_changes_no_value(tmp_path: Path):
    result = run_source(PROGRAM, tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == "4950.0 53.0\n"


def test_prefetch_is_the_cpu_prefetch_instruction(tmp_path: Path):
    assert "prefetcht0" in emitted(PROGRAM, tmp_path, "asm")


def test_prefetch_takes_one_index(tmp_path: Path):
    source = """
fn main():
    var p = Ptr[Float32].alloc(4)
    p.prefetch(1, 2)
    p.prefetch(0.5)
"""
    result = run_source(source, tmp_path)
    assert result.status == 1
    assert "p.prefetch(1, 2)" in result.stderr and "error[E0204]: `prefetch` takes 0 or 1 arguments, 2 given" \
        in result.stderr
    assert "error[E0201]: mismatched types: expected `Int`, found `FloatLiteral`" in result.stderr
    assert "Traceback" not in result.stderr


def test_prefetch_in_a_gpu_kernel_is_dropped(tmp_path: Path):
    kernel = """
@kernel
fn scale(x: Ptr[Float32], n: Int):
    var i = global_idx.x
    if i < n:
        x.prefetch(i + 32)
        x[i] = x[i] * 2.0
"""
    assert "prefetch" not in emitted(kernel, tmp_path, "ptx", "--target=cuda")
    spirv = build_source(kernel, tmp_path, "spirv", "--target=opencl")
    assert spirv.status == 0, spirv.stderr
