"""`Ptr[T].alloc(n, alignment=A)`: memory that starts on an A-byte boundary (A a compile-time power
of two up to 64, a cache line), for SIMD loads that never straddle two lines (examples/matmul.px
packs its panels so). Beyond malloc's own 16 bytes it is C11's aligned_alloc."""
import re
from pathlib import Path

from helpers import emitted, run_source

PROGRAM = """
comptime LINE = 64


fn main():
    var p = Ptr[Float32].alloc(1000, alignment=64)
    var q = Ptr[Float64].alloc(3, alignment=LINE // 2)
    var r = Ptr[Int8].alloc(0, alignment=64)
    var s = Ptr[Int].alloc(5, alignment=8)
    for i in range(1000):
        p[i] = Float32(i)
    q[2] = 2.5
    s[4] = 7
    print(p[999], p.load[16](16)[15], q[2], s[4])
    p.free()
    q.free()
    r.free()
    s.free()
"""


def test_aligned_memory_holds_values(tmp_path: Path):
    result = run_source(PROGRAM, tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == "999.0 31.0 2.5 7\n"


def test_alignment_beyond_mallocs_own_calls_aligned_alloc(tmp_path: Path):
    calls = re.findall(r"call ptr @aligned_alloc\(i64 (\d+)", emitted(PROGRAM, tmp_path, "llvm", "-O0"))
    assert sorted(calls) == ["32", "64", "64"]  # alignment=8 is malloc's: no call of its own


def test_alignment_must_be_a_small_compile_time_power_of_two(tmp_path: Path):
    source = """
fn f(n: Int):
    var a = Ptr[Float32].alloc(10, alignment=48)
    var b = Ptr[Float32].alloc(10, alignment=128)
    var c = Ptr[Float32].alloc(10, align=64)
    var d = Ptr[Float32].alloc(10, alignment=n)


fn main():
    f(1)
"""
    result = run_source(source, tmp_path)
    assert result.status == 1
    err = result.stderr
    assert "prog.px:3:46: error[E0125]: compile-time parameter `alignment` expects a power of two from 1 to 64, " \
        "got 48" in err
    assert "got 128" in err
    assert "prog.px:5:36: error[E0207]: `Ptr[Float32].alloc` got an unexpected keyword argument `align`" in err
    assert "prog.px:6:46: error[E0219]:" in err
    assert "Traceback" not in err
