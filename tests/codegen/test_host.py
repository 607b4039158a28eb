"""Host code generation: this CPU's features reach LLVM, executables link and run."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, run_cli

VECTOR_LOOP = """
fn count_inside(n: Int) -> Int:
    var c = 0
    for i in range(n):
        var x = Float64(i) * 0.001
        if x * x < 0.5:
            c += 1
    return c
"""


def test_host_target_uses_this_cpu():
    import llvmlite.binding as llvm

    from pyx.codegen.target import host_target

    target = host_target()
    assert target.cpu == llvm.get_host_cpu_name()
    assert target.features == llvm.get_host_cpu_features().flatten()


def test_float_loop_is_vectorized_for_this_cpu(tmp_path: Path):
    import llvmlite.binding as llvm

    src = tmp_path / "vec.px"
    src.write_text(VECTOR_LOOP)
    result = run_cli("build", "--emit=asm", str(src))
    assert result.status == 0, result.stderr
    features = llvm.get_host_cpu_features()
    if features.get("avx512f"):
        assert "%zmm" in result.stdout
    elif features.get("avx2"):
        assert "%ymm" in result.stdout
    else:
        pytest.skip("this CPU has neither AVX2 nor AVX-512")


def test_O0_keeps_the_loop_scalar(tmp_path: Path):
    src = tmp_path / "vec.px"
    src.write_text(VECTOR_LOOP)
    result = run_cli("build", "--emit=asm", "-O0", str(src))
    assert "%zmm" not in result.stdout and "%ymm" not in result.stdout


@pytest.mark.parametrize("emit", ["ast", "ir", "llvm", "asm"])
def test_text_emits_are_deterministic(emit: str):
    path = str(ROOT / "examples" / "fib.px")
    first, second = run_cli("build", f"--emit={emit}", path), run_cli("build", f"--emit={emit}", path)
    assert first.status == 0 and first.stdout == second.stdout and first.stdout


# Builds every stage's output of a few programs into a directory, in a process of its own.
_BUILD_ALL = """
import sys
from pathlib import Path
from pyx.cli import main

out = Path(sys.argv[1])
for spec in sys.argv[2:]:
    path, emits = spec.split("=")
    for emit in emits.split(","):
        target = out / f"{Path(path).stem}.{emit}"
        argv = ["build", f"--emit={emit}", path, "-o", str(target)]
        if main(argv + (["--target=cuda", "--gpu-arch=sm_80"] if emit == "ptx" else [])) != 0:
            sys.exit(f"pyx {' '.join(argv)} failed")
"""


def test_builds_do_not_depend_on_the_hash_seed(tmp_path: Path):
    """Two processes with different PYTHONHASHSEEDs give the same bytes at every stage: no output
    depends on the iteration order of a set or dict of strings (the in-process test above cannot
    see that: both of its builds share one seed). Programs with structs and traits, a Dict of
    Strings, and GPU kernels (through PTX) cover the checker's and lowering's tables."""
    programs = [f"{ROOT / 'examples' / 'shapes.px'}=ast,ir,llvm,asm,obj",
                f"{ROOT / 'examples' / 'wordfreq.px'}=ir,llvm",
                f"{ROOT / 'examples' / 'flash_attn.px'}=ir,ptx"]
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / f"seed{seed}"
        out.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYX_NO_CACHE": "1"}
        done = subprocess.run([sys.executable, "-c", _BUILD_ALL, str(out), *programs], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        outputs.append({f.name: f.read_bytes() for f in sorted(out.iterdir())})
    assert len(outputs[0]) == 9 and all(outputs[0].values())
    assert [name for name in outputs[0] if outputs[0][name] != outputs[1].get(name)] == []


needs_cc = pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler to link with")


@needs_cc
def test_executable_runs_standalone(tmp_path: Path):
    exe = tmp_path / "primes"
    result = run_cli("build", "--emit=exe", str(ROOT / "examples" / "primes.px"), "-o", str(exe))
    assert result.status == 0, result.stderr
    done = subprocess.run([str(exe)], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout == (ROOT / "examples" / "primes.out").read_text()


@needs_cc
def test_executable_reports_uncaught_exception(tmp_path: Path):
    golden = ROOT / "tests" / "golden" / "raise_zero_division.px"
    exe = tmp_path / "raiser"
    assert run_cli("build", "--emit=exe", str(golden), "-o", str(exe)).status == 0
    done = subprocess.run([str(exe)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout == golden.with_suffix(".out").read_text()
    assert done.stderr.endswith("ZeroDivisionError: integer division or modulo by zero\n")


def test_object_file(tmp_path: Path):
    out = tmp_path / "hello.o"
    assert run_cli("build", "--emit=obj", str(ROOT / "examples" / "hello.px"), "-o", str(out)).status == 0
    assert out.read_bytes()[:4] == b"\x7fELF"


def test_missing_c_compiler_is_a_clear_error(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CC", raising=False)
    result = run_cli("build", "--emit=exe", "--color=never", str(ROOT / "examples" / "hello.px"), "-o",
                     str(tmp_path / "h"))
    assert result.status == 1
    assert "error[E0902]: no C compiler found" in result.stderr


def test_simd_16_float32_multiply_add_uses_whole_vector_registers(tmp_path: Path):
    import llvmlite.binding as llvm

    if not llvm.get_host_cpu_features().get("avx512f"):
        pytest.skip("this CPU has no AVX-512")
    src = tmp_path / "fma.px"
    src.write_text("fn axpy(a: SIMD[DType.float32, 16], x: SIMD[DType.float32, 16], "
                   "y: SIMD[DType.float32, 16]) -> SIMD[DType.float32, 16]:\n"
                   "    return a.fma(x, y)\n")
    asm = run_cli("build", "--emit=asm", str(src)).stdout
    assert "vfmadd" in asm and "%zmm" in asm


def test_fastmath_lets_a_float_reduction_vectorize(tmp_path: Path):
    import llvmlite.binding as llvm

    if not llvm.get_host_cpu_features().get("avx512f"):
        pytest.skip("this CPU has no AVX-512")
    body = "(x: Ptr[Float32], n: Int) -> Float32:\n    var s: Float32 = 0.0\n    for i in range(n):\n" \
           "        s += x[i]\n    return s\n"
    src = tmp_path / "sums.px"
    src.write_text("@fastmath\nfn fast" + body + "\n\nfn exact" + body)
    asm = run_cli("build", "--emit=asm", str(src)).stdout
    fast = asm.split("sums.fast:")[1].split(".Lfunc_end")[0]
    exact = asm.split("sums.exact:")[1].split(".Lfunc_end")[0]
    assert "%zmm" in fast and "%zmm" not in exact  # exact order is sequential; fast may reassociate


def test_noalias_marks_pointer_parameters(tmp_path: Path):
    src = tmp_path / "na.px"
    body = "(a: Ptr[Float32], b: Ptr[Float32], n: Int):\n    for i in range(n):\n        a[i] = b[i] * 2.0\n"
    src.write_text("@noalias\nfn promised" + body + "\n\nfn unknown" + body)
    llvm_ir = run_cli("build", "--emit=llvm", "-O0", str(src)).stdout
    promised = next(line for line in llvm_ir.splitlines() if "@na.promised" in line and line.startswith("define"))
    unknown = next(line for line in llvm_ir.splitlines() if "@na.unknown" in line and line.startswith("define"))
    assert promised.count("noalias") == 2 and "noalias" not in unknown
