"""Mojo's `elementwise[body, W, target="gpu"](n)` (semantics/device_closures.py): a nested closure
launched as a kernel over n elements, on every GPU target. examples/gpu_elementwise.px (with its
.out, run by tests/test_golden.py on the CPU target) is the program; here its device code is
checked by the tools we did not write (ptxas, spirv-val, Intel's OpenCL runtime), its functions are
called from Python against NumPy, and, marked `gpu`, it runs on an NVIDIA GPU."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, run_cli, run_pyx, run_source

EXAMPLE = ROOT / "examples" / "gpu_elementwise.px"
PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if Path("/usr/local/cuda/bin/ptxas").exists() else None)
SPIRV_VAL = shutil.which("spirv-val")


@pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA toolkit) is not installed on this machine")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_the_closures_kernels_assemble_with_ptxas(arch: str, tmp_path: Path):
    out = tmp_path / "out.ptx"
    result = run_cli("build", "--emit=ptx", f"--gpu-arch={arch}", str(EXAMPLE), "-o", str(out))
    assert result.status == 0, result.stderr
    ptx = out.read_text()
    # saxpy's body, scale's body at widths 4 and 1, norms' body for dims=3, and shift: each a kernel
    # named after its body (the launch at n = 0 adds none).
    entries = [line for line in ptx.splitlines() if line.startswith(".visible .entry")]
    assert len(entries) == 5, entries
    assert sum("_2e_body_5b_" in e for e in entries) == 4 and sum("_2e_shift_5b_" in e for e in entries) == 1
    done = subprocess.run([PTXAS, f"-arch={arch}", str(out), "-o", str(tmp_path / "out.cubin")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(SPIRV_VAL is None, reason="spirv-val (spirv-tools) is not installed here")
def test_the_closures_kernels_are_valid_spirv(tmp_path: Path):
    out = tmp_path / "out.spv"
    result = run_cli("build", "--emit=spirv", str(EXAMPLE), "-o", str(out))
    assert result.status == 0, result.stderr
    done = subprocess.run([SPIRV_VAL, str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout


def _opencl_available() -> bool:
    try:
        from pyx.runtime import opencl
    except ImportError:
        return False
    return opencl.available()


@pytest.mark.skipif(not _opencl_available(), reason="no OpenCL runtime that takes SPIR-V (pyopencl) here")
def test_the_program_runs_its_closures_on_opencl(monkeypatch, tmp_path: Path):
    """`pyx run --target=opencl`: every elementwise launch on the OpenCL device (counted), and the
    CPU target's output."""
    from pyx.runtime import opencl_program

    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    launched = []
    original = opencl_program.ProgramOnOpenCL.launch

    def counting(self, entry, *args):
        launched.append(entry)
        return original(self, entry, *args)
    monkeypatch.setattr(opencl_program.ProgramOnOpenCL, "launch", counting)
    result = run_pyx(EXAMPLE, "--target=opencl")
    assert result.status == 0, result.stderr
    assert result.stdout == EXAMPLE.with_suffix(".out").read_text()
    # saxpy, scale (1000 = 250 * 4: no width-1 launch for the rest), shift and norms one each; the
    # statement with n = 0 none.
    assert len(launched) == 4 and all(e.endswith(b"_2e_kernel") for e in launched)


NUMERIC = '''from algorithm import elementwise


fn main():
    var n = 1003
    var x = Ptr[Float32].alloc(n)
    var y = Ptr[Float32].alloc(n)
    for i in range(n):
        x[i] = Float32(i) * 0.37
        y[i] = Float32(i % 7) - 3.0
    var a: Float32 = 1.7

    @parameter
    fn saxpy(i: Int):
        y[i] = a * x[i] + y[i]

    elementwise[saxpy, 1, target="gpu"](n)
    var factor: Float32 = 0.3

    @parameter
    fn scale[width: Int](i: Int):
        y.store(i, y.load[width](i) * factor)

    elementwise[scale, 4, target="gpu"](n)
    for i in range(n):
        print(Float64(y[i]))
    x.free()
    y.free()
'''


def _numeric_expected(np):
    i = np.arange(1003)
    x = i.astype(np.float32) * np.float32(0.37)
    y = (i % 7).astype(np.float32) - np.float32(3.0)
    return (np.float32(1.7) * x + y) * np.float32(0.3)


@pytest.mark.parametrize("target", ["cpu", "opencl"])
def test_saxpy_and_a_simd_scale_give_numpys_answer(target: str, monkeypatch, tmp_path: Path):
    """A whole program's closures (width 1, and width 4 with the 3 left over at width 1) against
    NumPy: on the CPU target, and every launch on Intel's OpenCL CPU runtime (3 launches)."""
    np = pytest.importorskip("numpy")
    launched = []
    if target == "opencl":
        if not _opencl_available():
            pytest.skip("no OpenCL runtime that takes SPIR-V (pyopencl) here")
        from pyx.runtime import opencl_program

        original = opencl_program.ProgramOnOpenCL.launch

        def counting(self, entry, *args):
            launched.append(entry)
            return original(self, entry, *args)
        monkeypatch.setattr(opencl_program.ProgramOnOpenCL, "launch", counting)
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    result = run_source(NUMERIC, tmp_path, "numeric.px", f"--target={target}")
    assert (result.status, result.stderr) == (0, "")
    got = np.array([float(v) for v in result.stdout.split()], np.float32)
    assert np.allclose(got, _numeric_expected(np), rtol=1e-6, atol=1e-6)
    assert len(launched) == (3 if target == "opencl" else 0)


@pytest.fixture()
def load(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))

    def load(target):
        import pyx

        sys.modules.pop("gpu_elementwise", None)
        return pyx.import_module("gpu_elementwise", target=target, path=[str(EXAMPLE.parent)])
    return load


def _check_against_numpy(m, np):
    rng = np.random.default_rng(0)
    n = 5003  # not a multiple of the block, nor of the SIMD width
    x, y = rng.random(n, np.float32), rng.random(n, np.float32)
    expected = np.float32(2.5) * x + y
    m.saxpy(2.5, x, y, n)
    assert np.allclose(y, expected, rtol=1e-6, atol=1e-6)
    z = x.copy()
    m.scale(z, n, 0.25)
    assert np.array_equal(z, x * np.float32(0.25))  # a power of two: exact on every target


def test_python_calls_the_closures_host_functions_cpu(load):
    np = pytest.importorskip("numpy")
    m = load("cpu")
    _check_against_numpy(m, np)
    # The kernels are generic (made-up names, one instance per capture types): not Python's to launch.
    assert not any(name.startswith(("body", "shift")) for name in dir(m))


CAPTURES = ROOT / "tests" / "codegen" / "ptx"  # elementwise_captures.px (test_ptx.py assembles it)


def _check_captures(target: str, np) -> None:
    """Bool, UInt8, Int32, Float64, a SIMD vector, pointers and a compile-time parameter captured,
    against NumPy."""
    import pyx

    sys.modules.pop("elementwise_captures", None)
    m = pyx.import_module("elementwise_captures", path=[str(CAPTURES)], target=target)
    n = 21
    flags = np.arange(n) % 3 == 0
    small = np.zeros(n, np.int32)
    out = np.zeros(n, np.float32)
    m.run(flags, small, out, n)
    assert small.tolist() == np.where(flags, np.int32(-2 + 7 + 3), 0).tolist()
    v = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    assert np.array_equal(out, (np.float32(0.25) + v[np.arange(n) % 4]) * v[0] + np.float32(3))


def test_every_kind_of_capture_gives_numpys_answer(tmp_path, monkeypatch):
    np = pytest.importorskip("numpy")
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    _check_captures("cpu", np)


def test_two_bodies_with_one_name_are_two_kernels(tmp_path: Path):
    """Each body is its own kernel, even with the name and capture types of another one."""
    program = '''from algorithm import elementwise


fn first(out: Ptr[Int], n: Int):
    @parameter
    fn body(i: Int):
        out[i] = i

    elementwise[body, 1, target="gpu"](n)


fn second(out: Ptr[Int], n: Int):
    @parameter
    fn body(i: Int):
        out[i] = -i

    elementwise[body, 1, target="gpu"](n)


fn main():
    var out = Ptr[Int].alloc(4)
    first(out, 4)
    print(out[3])
    second(out, 4)
    print(out[3])
    for round in range(2):
        var k = round * 10  # a body in a loop captures this round's value

        @parameter
        fn add(i: Int):
            out[i] = k + i

        elementwise[add, 1, target="gpu"](4)
        print(out[2])
    out.free()
'''
    result = run_source(program, tmp_path)
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "3\n-3\n2\n12\n"


def test_scripts_defs_and_top_level_bodies(tmp_path: Path):
    """A script's statement captures the module's variables; a `def` with untyped parameters makes a
    kernel per argument types; a top-level body reads the module's `scale` as Python's scoping says,
    not the caller's local of that name; a `mut` parameter is captured by its value."""
    program = '''from algorithm import elementwise

var scale: Int = 3


def fill(out, n, v):
    def body(i):
        out[i] = v + i
    elementwise[body, 1, target="gpu"](n)


fn work(i: Int):
    ints[i] = scale * i


fn bump(mut k: Int, out: Ptr[Int], n: Int):
    @parameter
    fn body(i: Int):
        out[i] += k + n

    elementwise[body, 1, target="gpu"](n)
    k += 1


fn caller():
    var scale = 100
    elementwise[work, 1, target="gpu"](4)
    print(ints[3], scale)


var ints = Ptr[Int].alloc(4)
var base = 7


def top_body(i: Int):
    ints[i] = base * i


elementwise[top_body, 1, target="gpu"](4)
print(ints[3])
fill(ints, 4, 100)
print(ints[3])
var floats = Ptr[Float64].alloc(4)
fill(floats, 4, 0.5)
print(floats[3])
var k = 1
bump(k, ints, 4)
print(ints[3], k)
caller()
'''
    result = run_source(program, tmp_path)
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "21\n103\n3.5\n108 2\n9 100\n"


def test_copy_capture_takes_the_value_at_the_definition(tmp_path: Path):
    """Mojo's `@__copy_capture(a)` copies `a` where the closure is defined; without it, a body reads
    the variable at the launch (or the loop). Both for `elementwise` and the closure loops."""
    program = '''from algorithm import elementwise, parallelize, vectorize


fn main():
    var n = 4
    var y = Ptr[Float32].alloc(n)
    var a: Float32 = 2.0

    @parameter
    @__copy_capture(a, y)
    fn body(i: Int):
        y[i] = a

    a = 3.0
    elementwise[body, 1, target="gpu"](n)
    print(y[0])

    @parameter
    fn late(i: Int):
        y[i] = a

    a = 4.0
    elementwise[late, 1, target="gpu"](n)
    print(y[0])
    var k = 10

    @parameter
    @__copy_capture(k)
    fn fill(i: Int):
        y[i] = Float32(k + i)

    k = 20
    parallelize[fill](n)
    print(y[3])

    @parameter
    @__copy_capture(k)
    fn scale[width: Int](i: Int):
        y.store(i, y.load[width](i) * Float32(k))

    k = 30
    vectorize[scale, 2](n)
    print(y[3])
    y.free()
'''
    result = run_source(program, tmp_path)
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "2.0\n4.0\n13.0\n260.0\n"


def test_a_thread_that_raises_names_the_body(tmp_path: Path):
    program = '''from algorithm import elementwise


fn main():
    var out = Ptr[Int].alloc(8)
    var d = 5

    @parameter
    fn body(i: Int):
        out[i] = 10 // (i - d)

    elementwise[body, 1, target="gpu"](8)
'''
    result = run_source(program, tmp_path)
    assert result.status == 1
    last = result.stderr.splitlines()[-2:]
    assert last[0].endswith('prog.px", line 10, in body'), result.stderr
    assert last[1] == "ZeroDivisionError: integer division or modulo by zero"


def test_the_launches_reach_the_cuda_driver(fake, monkeypatch, tmp_path: Path):
    """`pyx run --target=cuda` against the stand-in driver (tests/fake_cuda.py): each elementwise
    statement is a launch of its kernel's PTX entry with its grid, block and arguments (the captures
    by value, then the first index and the thread count), on managed memory. The stand-in runs the
    body here, in Python, from the argument slots it is given."""
    import ctypes

    def launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        fake.calls.append(("launch", f, (gx, gy, gz), (bx, by, bz)))
        slots = ctypes.cast(params, ctypes.POINTER(ctypes.c_void_p))

        def pointer(k):
            return ctypes.cast(ctypes.cast(slots[k], ctypes.POINTER(ctypes.c_void_p))[0],
                               ctypes.POINTER(ctypes.c_float))
        a = ctypes.cast(slots[0], ctypes.POINTER(ctypes.c_float))[0]
        x, y = pointer(1), pointer(2)
        start, count = (ctypes.cast(slots[k], ctypes.POINTER(ctypes.c_int64))[0] for k in (3, 4))
        for t in range(min(count, gx * bx)):
            y[start + t] = a * x[start + t] + y[start + t]
        return (fake.ok,)
    monkeypatch.setattr(fake, "cuLaunchKernel", launch)
    program = tmp_path / "ew.px"
    program.write_text('''from algorithm import elementwise


fn main():
    var n = 1000
    var x = Ptr[Float32].alloc(n)
    var y = Ptr[Float32].alloc(n)
    for i in range(n):
        x[i] = Float32(i)
        y[i] = 1.0
    var a: Float32 = 1.0

    @parameter
    fn body(i: Int):
        var t = a * x[i]  # captured in this order: a, x, y
        y[i] = t + y[i]

    a = 2.0
    elementwise[body, 1, target="gpu"](n)
    print(y[0], y[1], y[999])
    x.free()
    y.free()
''')
    result = run_cli("run", "--target=cuda", str(program))
    assert (result.status, result.stdout, result.stderr) == (0, "1.0 3.0 1999.0\n", "")
    launches = [c for c in fake.calls if c[0] == "launch"]
    assert [c[2:] for c in launches] == [((4, 1, 1), (256, 1, 1))]
    assert b".entry " + launches[0][1] in fake.ptx and b"_2e_body_5b_" in launches[0][1]


def _cuda_available() -> bool:
    try:
        from pyx.runtime import cuda
    except ImportError:
        return False
    return cuda.available()


@pytest.mark.gpu
@pytest.mark.skipif(not _cuda_available(), reason="no NVIDIA GPU, driver or cuda-python here")
def test_the_closures_run_on_the_gpu_and_match_numpy(load, tmp_path, monkeypatch):
    np = pytest.importorskip("numpy")
    m = load("cuda")
    assert m.__pyx__["target"].startswith("cuda")
    assert "launching on" in repr(m.saxpy)
    _check_against_numpy(m, np)
    _check_captures("cuda", np)
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "run-cache"))
    result = run_cli("run", "--target=cuda", str(EXAMPLE))
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == EXAMPLE.with_suffix(".out").read_text()
    result = run_source(NUMERIC, tmp_path, "numeric.px", "--target=cuda")
    assert (result.status, result.stderr) == (0, "")
    got = np.array([float(v) for v in result.stdout.split()], np.float32)
    assert np.allclose(got, _numeric_expected(np), rtol=1e-6, atol=1e-6)
