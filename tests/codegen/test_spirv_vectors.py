"""codegen/spirv_vectors.py: every vector wider than 16 lanes is split into 16-lane chunks for the
SPIR-V target, and the split code computes exactly what the wide code did. The check runs both on
this CPU through LLVM's JIT (x86 takes wide vectors) and compares the results bit for bit; the SPIR-V
side (flash_attn validating and running on OpenCL) is in tests/interop/test_opencl_target.py."""
import ctypes
import re

import llvmlite.binding as llvm
import pytest

from pyx.codegen.spirv_vectors import WideVectorError, split_wide_vectors

np = pytest.importorskip("numpy")

MASK = ", ".join(f"i32 {(j * 37) % 128}" for j in range(64))  # lanes drawn from all eight input chunks
REVERSE = ", ".join(f"i32 {63 - j}" for j in range(64))
WIDE = f"""
declare float @llvm.vector.reduce.fadd.v64f32(float, <64 x float>)
declare float @llvm.vector.reduce.fmax.v64f32(<64 x float>)
declare i32 @llvm.vector.reduce.add.v64i32(<64 x i32>)
declare <64 x float> @llvm.fabs.v64f32(<64 x float>)

define void @f(ptr %a, ptr %out, i64 %i, float %x) {{
entry:
  %slot = alloca <64 x float>, align 64
  %v = load <64 x float>, ptr %a, align 4
  %w = fmul <64 x float> %v, %v
  %s = insertelement <64 x float> poison, float %x, i64 0
  %splat = shufflevector <64 x float> %s, <64 x float> poison, <64 x i32> zeroinitializer
  %y = fsub <64 x float> %w, %splat
  %c = fcmp olt <64 x float> %y, %v
  %z = select <64 x i1> %c, <64 x float> %y, <64 x float> %v
  %rev = shufflevector <64 x float> %z, <64 x float> poison, <64 x i32> <{REVERSE}>
  %mix = shufflevector <64 x float> %rev, <64 x float> %v, <64 x i32> <{MASK}>
  %ins = insertelement <64 x float> %mix, float %x, i64 %i
  %e = extractelement <64 x float> %ins, i64 %i
  %e2 = extractelement <64 x float> %ins, i64 41
  %n = fneg <64 x float> %ins
  %ex = call <64 x float> @llvm.fabs.v64f32(<64 x float> %n)
  store <64 x float> %ex, ptr %slot, align 64
  %back = load <64 x float>, ptr %slot, align 64
  br label %loop
loop:
  %acc = phi <64 x float> [ zeroinitializer, %entry ], [ %acc2, %loop ]
  %k = phi i64 [ 0, %entry ], [ %k2, %loop ]
  %acc2 = fadd <64 x float> %acc, %back
  %k2 = add i64 %k, 1
  %done = icmp eq i64 %k2, 3
  br i1 %done, label %exit, label %loop
exit:
  %r = call float @llvm.vector.reduce.fadd.v64f32(float 1.0e+08, <64 x float> %acc2)
  %m = call float @llvm.vector.reduce.fmax.v64f32(<64 x float> %ins)
  %ii = fptosi <64 x float> %acc2 to <64 x i32>
  %isum = call i32 @llvm.vector.reduce.add.v64i32(<64 x i32> %ii)
  %sf = sitofp i32 %isum to float
  store <64 x float> %acc2, ptr %out, align 4
  %tail = getelementptr float, ptr %out, i64 64
  %t1 = getelementptr float, ptr %out, i64 65
  %t2 = getelementptr float, ptr %out, i64 66
  %t3 = getelementptr float, ptr %out, i64 67
  %t4 = getelementptr float, ptr %out, i64 68
  store float %r, ptr %tail, align 4
  store float %m, ptr %t1, align 4
  store float %sf, ptr %t2, align 4
  store float %e, ptr %t3, align 4
  store float %e2, ptr %t4, align 4
  ret void
}}
"""


def _run(text: str, a, i: int, x: float):
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    module = llvm.parse_assembly(text)
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine(opt=0)
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    f = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_float)(
        engine.get_function_address("f"))
    out = np.zeros(69, np.float32)
    f(a.ctypes.data, out.ctypes.data, i, x)
    return out


def test_no_vector_wider_than_16_lanes_is_left():
    split = split_wide_vectors(WIDE)
    assert not [m for m in re.finditer(r"<(\d+) x", split) if int(m.group(1)) > 16]
    assert "%v.wv3 = load <16 x float>" in split
    assert "declare float @llvm.vector.reduce.fadd.v16f32(float, <16 x float>)" in split


@pytest.mark.parametrize("i", [0, 15, 16, 37, 63])
def test_the_split_code_computes_what_the_wide_code_did(i: int):
    rng = np.random.default_rng(i)
    a = (rng.standard_normal(64) * 100).astype(np.float32)
    wide = _run(WIDE, a, i, 3.25)
    split = _run(split_wide_vectors(WIDE), a, i, 3.25)
    assert wide.view(np.int32).tolist() == split.view(np.int32).tolist()  # bit for bit: the same order of sums


def test_a_text_without_wide_vectors_is_left_as_it_is():
    text = "define void @g(<16 x float> %v) {\nentry:\n  ret void\n}\n"
    assert split_wide_vectors(text) is text


def test_what_it_cannot_split_is_reported():
    text = "define <64 x float> @g(<64 x float> %v) {\nentry:\n  ret <64 x float> %v\n}\n"
    with pytest.raises(WideVectorError, match="function parameter or result"):
        split_wide_vectors(text)
