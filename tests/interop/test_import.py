"""Python calling pyx: import, conversions, errors naming the parameter, exceptions, the cache."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from helpers import ROOT, import_source  # noqa: E402

KERNELS = textwrap.dedent('''
    @fieldwise_init
    struct Pair:
        var a: Int
        var b: Float64


    fn add(a: Int, b: Int = 10) -> Int:
        """Adds."""
        return a + b


    fn total(x: Ptr[Float64], n: Int) -> Float64:
        var s = 0.0
        for i in range(n):
            s += x[i]
        return s


    fn fill(x: Ptr[Int32], n: Int, value: Int32):
        for i in range(n):
            x[i] = value


    fn ratio(a: Int, b: Int) -> Int:
        return a // b


    fn narrow(x: Int8, u: UInt16, flag: Bool, f: Float32) -> Float32:
        return Float32(x) + Float32(u) + f if flag else 0.0


    fn make_pair(a: Int, b: Float64) -> Pair:
        return Pair(a, b)


    fn swap_pair(p: Pair) -> Pair:
        return Pair(Int(p.b), Float64(p.a))


    fn lanes(v: SIMD[DType.float32, 4]) -> SIMD[DType.float32, 4]:
        return v * 2.0


    fn shout(n: Int):
        print("from pyx:", n)
''')


@pytest.fixture()
def kernels(tmp_path, monkeypatch):
    return import_source("kernels", KERNELS, tmp_path, monkeypatch)


def test_scalars_defaults_keywords_and_help(kernels):
    assert kernels.add(2, 3) == 5 and kernels.add(5) == 15 and kernels.add(b=1, a=2) == 3
    assert kernels.narrow(-3, 65535, True, 0.5) == pytest.approx(65532.5)
    assert kernels.add.__doc__.startswith("fn add(a: Int, b: Int = 10) -> Int")
    assert "Adds." in kernels.add.__doc__
    import inspect

    assert str(inspect.signature(kernels.add)) == "(a, b=10)"


def test_numpy_arrays_are_passed_without_copying(kernels):
    x = np.arange(10, dtype=np.float64)
    assert kernels.total(x, 10) == 45.0
    out = np.zeros(6, dtype=np.int32)
    kernels.fill(out, 6, 7)
    assert out.tolist() == [7] * 6  # written in place
    assert kernels.total(memoryview(np.ones(3)), 3) == 3.0  # the buffer protocol works too


def test_structs_and_simd_cross_the_boundary(kernels):
    pair = kernels.make_pair(3, 2.5)
    assert repr(pair) == "Pair(a=3, b=2.5)" and (pair.a, pair.b) == (3, 2.5)
    assert kernels.swap_pair(pair) == kernels.Pair(2, 3.0)
    assert kernels.swap_pair((7, 1.5)) == kernels.Pair(1, 7.0)
    assert kernels.lanes([1, 2, 3, 4]) == (2.0, 4.0, 6.0, 8.0)


@pytest.mark.parametrize("call, error, text", [
    (lambda k: k.add(1.5), TypeError, "add() argument 'a' must be Int (an int), not float"),
    (lambda k: k.add("1"), TypeError, "argument 'a' must be Int"),
    (lambda k: k.narrow(300, 1, True, 1.0), OverflowError, "argument 'x': 300 does not fit in Int8"),
    (lambda k: k.narrow(1, -1, True, 1.0), OverflowError, "argument 'u': -1 does not fit in UInt16"),
    (lambda k: k.narrow(1, 1, 1, 1.0), TypeError, "argument 'flag' must be Bool"),
    (lambda k: k.total(np.arange(3), 3), TypeError, "argument 'x' must be Ptr[Float64]: expected an array of "
                                                    "float64, got int64"),
    (lambda k: k.total(np.ones((4, 4))[:, 1], 4), TypeError, "not contiguous"),
    (lambda k: k.total([1.0, 2.0], 2), TypeError, "argument 'x' must be Ptr[Float64]"),
    (lambda k: k.add(1, 2, 3), TypeError, "too many positional arguments"),
    (lambda k: k.add(), TypeError, "missing a required argument: 'a'"),
    (lambda k: k.add(1, c=2), TypeError, "unexpected keyword argument 'c'"),
    (lambda k: k.lanes([1, 2]), TypeError, "argument 'v' must be SIMD[DType.float32, 4]"),
])
def test_bad_arguments_name_the_parameter(kernels, call, error, text):
    with pytest.raises(error) as info:
        call(kernels)
    assert text in str(info.value)


def test_pyx_exceptions_become_python_exceptions_with_the_px_location(kernels, tmp_path):
    import traceback

    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero") as info:
        kernels.ratio(1, 0)
    text = "".join(traceback.format_exception(info.value))
    assert f'File "{tmp_path / "kernels.px"}", line 26, in ratio' in text
    assert "return a // b" in text  # the .px source line, like a Python frame
    assert kernels.ratio(7, 2) == 3  # the process stays usable
    with pytest.raises(ZeroDivisionError):
        kernels.ratio(5, 0)


def test_a_float_sum_of_no_items_stops_python_s_caller_past_except_exception(tmp_path, monkeypatch):
    """CPython's sum of no floats is the int 0, which a Float64 cannot be: the call raises
    pyx.ProgramStopped, a BaseException, which `except Exception` does not take for an error the
    program handles (pyx's own handlers let it pass too: tests/golden/sum_floats_*)."""
    m = import_source("sums", "def total(xs: list[float]) -> float:\n    return sum(x * 2.0 for x in xs)\n",
                      tmp_path, monkeypatch)
    assert m.total([1.25]) == 2.5
    assert not issubclass(pyx.ProgramStopped, Exception)
    with pytest.raises(pyx.ProgramStopped, match=r"sum\(\) of no floats: .*write sum\(xs, 0\.0\)"):
        try:
            m.total([])
        except Exception:  # noqa: BLE001 (the point: such a handler must not see it)
            pytest.fail("an Exception handler caught it")


def test_print_from_pyx_keeps_its_place_in_the_output(tmp_path, monkeypatch):
    (tmp_path / "talk.px").write_text(KERNELS)
    script = ("import sys, pyx\nk = pyx.import_module('kernels', path=[sys.argv[1]])\n"
              "print('before')\nk.shout(3)\nprint('after')\n")
    (tmp_path / "kernels.px").write_text(KERNELS)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          env={**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache")})
    assert done.stdout == "before\nfrom pyx: 3\nafter\n", done.stderr


def test_a_py_file_beside_wins(tmp_path):
    (tmp_path / "twin.px").write_text("fn f() -> Int:\n    return 1\n")
    (tmp_path / "twin.py").write_text("def f():\n    return 'python'\n")
    with pytest.raises(ModuleNotFoundError):
        pyx.import_module("twin", path=[str(tmp_path)])


def test_import_hook_and_packages(tmp_path, monkeypatch):
    pkg = tmp_path / "geometry"
    pkg.mkdir()
    (pkg / "__init__.px").write_text("fn unit() -> Float64:\n    return 1.0\n")
    (pkg / "area.px").write_text("fn square(s: Float64) -> Float64:\n    return s * s\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("geometry", "geometry.area"):
        sys.modules.pop(name, None)
    pyx.install()
    import geometry
    import geometry.area

    assert geometry.unit() == 1.0 and geometry.area.square(3.0) == 9.0


def run_fresh(tmp_path, code: str, cache: Path, user_cache: Path | None = None) -> subprocess.CompletedProcess:
    script = "import sys, json, pyx\n" + code
    env = {**os.environ, "PYX_CACHE_DIR": str(cache)}
    if user_cache is not None:
        env["XDG_CACHE_HOME"] = str(user_cache)
    return subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, env=env)


CALL = ("m = pyx.import_module('kernels', path=[sys.argv[1]])\n"
        "print(m.add(1, 2), json.dumps(sorted(m.__pyx__['meta']['timings'])))\n"
        "print('front end ran' if 'pyx.syntax.parser' in sys.modules else 'cache hit')\n")


def test_a_fresh_process_loads_from_the_cache_without_the_front_end(tmp_path):
    (tmp_path / "kernels.px").write_text(KERNELS)
    cache = tmp_path / "cache"
    first = run_fresh(tmp_path, CALL, cache)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-1] == "front end ran"
    second = run_fresh(tmp_path, CALL, cache)
    assert second.stdout.splitlines()[0].startswith("3 ") and second.stdout.splitlines()[-1] == "cache hit"
    assert len(list(cache.glob("*.pyxc"))) == 1


# What compiles a module: imported on a cache miss only (importer.load_compiled, load_or_build).
COMPILE_DRIVER = ("pyx.build", "pyx.pipeline", "pyx.passmanager", "pyx.dispatch_build", "llvmlite.binding")


def test_a_cache_hit_imports_nothing_that_compiles(tmp_path):
    """Loading a cached module costs the start-up of its shared library, not the import of the
    compiler's driver (about 10 ms of a 40 ms cached import when it was imported up front)."""
    (tmp_path / "kernels.px").write_text(KERNELS)
    cache = tmp_path / "cache"
    code = ("m = pyx.import_module('kernels', path=[sys.argv[1]])\n"
            f"print(m.add(1, 2), [name for name in {COMPILE_DRIVER!r} if name in sys.modules])\n")
    first = run_fresh(tmp_path, code, cache)
    assert first.returncode == 0 and first.stdout.startswith("3 ['pyx.build'"), first.stderr  # (a miss compiles)
    second = run_fresh(tmp_path, code, cache)
    assert (second.returncode, second.stdout) == (0, "3 []\n"), second.stderr


def test_an_edit_invalidates_the_cache(tmp_path):
    (tmp_path / "kernels.px").write_text(KERNELS)
    cache = tmp_path / "cache"
    run_fresh(tmp_path, CALL, cache)
    (tmp_path / "kernels.px").write_text(KERNELS.replace("return a + b", "return a + b + 100"))
    edited = run_fresh(tmp_path, CALL, cache)
    assert edited.stdout.splitlines()[0].startswith("103 ")
    assert edited.stdout.splitlines()[-1] == "front end ran"


def test_a_changed_compiler_invalidates_the_cache():
    """The version number alone would serve an edited compiler's old code: the key also covers
    the size and modification time of every compiler source file."""
    from pyx.runtime import cache

    cache.compiler_fingerprint.cache_clear()  # the fingerprint is taken once per process
    before = cache.cache_key("source", "options")
    source = Path(cache.__file__)
    st = source.stat()
    try:
        os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        cache.compiler_fingerprint.cache_clear()
        after = cache.cache_key("source", "options")
    finally:
        os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns))
        cache.compiler_fingerprint.cache_clear()
    assert before != after
    assert cache.cache_key("source", "options") == before


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_a_damaged_cache_entry_is_a_miss_and_is_rewritten(tmp_path, damage):
    (tmp_path / "kernels.px").write_text(KERNELS)
    cache = tmp_path / "cache"
    run_fresh(tmp_path, CALL, cache)
    entry = next(cache.glob("*.pyxc"))
    data = entry.read_bytes()
    entry.write_bytes({"truncate": data[: len(data) // 2], "flip": data[:-10] + bytes(10),
                       "garbage": b"not a cache file"}[damage])
    again = run_fresh(tmp_path, CALL, cache)
    assert again.returncode == 0 and again.stdout.splitlines()[-1] == "front end ran"
    assert run_fresh(tmp_path, CALL, cache).stdout.splitlines()[-1] == "cache hit"


def test_concurrent_imports_from_several_processes(tmp_path):
    (tmp_path / "kernels.px").write_text(KERNELS)
    cache = tmp_path / "cache"
    script = "import sys, pyx\nm = pyx.import_module('kernels', path=[sys.argv[1]])\nprint(m.add(20, 22))\n"
    procs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "PYX_CACHE_DIR": str(cache)})
             for _ in range(4)]
    results = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [r[1] for r in results]
    assert all(r[0] == "42\n" for r in results)
    assert len(list(cache.glob("*.pyxc"))) == 1 and not list(cache.glob("*.pyxtmp"))  # no temporary file left


def test_the_interop_example(tmp_path):
    example = ROOT / "examples" / "interop"
    done = subprocess.run([sys.executable, str(example / "app.py")], capture_output=True, text=True,
                          env={**os.environ, "PYX_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == (example / "app.out").read_text()


def test_cache_info_and_clear(tmp_path, monkeypatch):
    from helpers import run_cli

    (tmp_path / "kernels.px").write_text(KERNELS)
    cache, user = tmp_path / "cache", tmp_path / "xdg"
    run_fresh(tmp_path, CALL, cache, user)
    monkeypatch.setenv("PYX_CACHE_DIR", str(cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(user))
    info = run_cli("cache", "info", str(tmp_path))
    # The module, with the parsed stdlib files of the runtime unit its `print` and Ctrl-C handler
    # link in (runtime_source.py `core`); the unit itself is the compiler's, not the module's: it is
    # kept in the user cache directory, where every project's first compile finds it.
    kept = sorted(p.name.split(".")[0] for p in cache.iterdir() if p.suffix in (".pyxc", ".pyxast", ".pyxrt"))
    assert kept[0] == "kernels" and "runtime_print" in kept and all(k.startswith("runtime_") for k in kept[1:]), kept
    assert [p.name.split(".")[:2] for p in (user / "pyx").glob("*.pyxrt")] == [["pyx_runtime", "core"]]
    assert info.status == 0 and f"{cache}: {len(kept)} entries" in info.stdout and f"{user / 'pyx'}: 1 entries" \
        in info.stdout, info.stdout
    cleared = run_cli("cache", "clear", str(tmp_path))
    assert f"removed: {len(kept) + 1} entries" in cleared.stdout, cleared.stdout
    assert not list(cache.glob("*.pyx*")) and not list((user / "pyx").glob("*.pyxrt"))


def test_a_module_that_does_not_compile_is_an_import_error_with_diagnostics(tmp_path, monkeypatch):
    (tmp_path / "broken.px").write_text("fn f() -> Int:\n    return 1.5\n")
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(ImportError) as info:
        pyx.import_module("broken", path=[str(tmp_path)])
    assert isinstance(info.value, pyx.CompileError)
    assert "broken.px:2:12: error[E0201]: mismatched types" in str(info.value)
    assert info.value.diagnostics[0].code == "E0201"


def test_functions_with_mut_parameters_are_not_exported(tmp_path, monkeypatch):
    (tmp_path / "muts.px").write_text("fn bump(mut x: Int):\n    x += 1\n\nfn one() -> Int:\n    return 1\n")
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    m = pyx.import_module("muts", path=[str(tmp_path)])
    assert m.one() == 1 and not hasattr(m, "bump")


def test_launching_kernels_from_python(tmp_path, monkeypatch):
    import shutil

    shutil.copy(Path(__file__).with_name("kernels_for_python.px"), tmp_path / "gpuk.px")
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    m = pyx.import_module("gpuk", path=[str(tmp_path)])
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    m.saxpy[(1000 + 255) // 256, 256](2.0, x, y, 1000)
    assert np.array_equal(y, 2 * np.arange(1000, dtype=np.float32) + 1)
    values = np.random.default_rng(0).integers(-10**6, 10**6, 5000).astype(np.int32)
    out = np.array([-2**31], dtype=np.int32)
    m.block_max[(5000 + 127) // 128, (128,), 0](values, out, 5000)  # shared memory, barriers, an atomic
    assert out[0] == values.max()
    with pytest.raises(TypeError, match="is a kernel: launch it with saxpy"):
        m.saxpy(1.0, x, y, 3)
    with pytest.raises(TypeError, match="grid must be a positive int"):
        m.saxpy[0, 32](1.0, x, y, 3)
    with pytest.raises(TypeError, match="argument 'x' must be Ptr"):
        m.saxpy[1, 32](1.0, x.astype(np.float64), y, 3)
    with pytest.raises(ZeroDivisionError):
        m.checked[1, 4](np.zeros(4, dtype=np.int64), 2)
    m.checked[1, 4](np.zeros(4, dtype=np.int64), 10)  # usable after a thread raised


def test_less_common_types_cross_the_boundary(tmp_path, monkeypatch):
    """Float16 (raw bits: C and ctypes pass it differently), BFloat16 (a Python float rounded to its
    8 bits; NumPy has no array type for it, so a Ptr[BFloat16] refuses float16 and uint16), bool lanes
    (one byte each: LLVM packs <N x i1>), nested structs (embedded by value), UInt64 extremes, pointer results."""
    import shutil

    shutil.copy(Path(__file__).with_name("edge_types.px"), tmp_path / "edge.px")
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    m = pyx.import_module("edge", path=[str(tmp_path)])
    assert m.half(3.0) == 1.5
    assert m.brain(0.1, 3.0) == 0.30078125  # 0.1 is 0.10009765625 in BFloat16; times 3, rounded again
    assert m.brain(1e39, 1.0) == float("inf")
    assert m.brain_lanes((0.1, 0.2, 256.0, -1.0)) == (1.1015625, 1.203125, 256.0, 0.0)
    for wrong in (np.zeros(2, np.float16), np.zeros(2, np.uint16)):
        with pytest.raises(TypeError, match="expected an array of bfloat16, got"):
            m.brain_total(wrong, 2)
    assert m.biggest() == 2**64 - 1
    assert m.mask([0.5, 1.5, 2.0, -1.0]) == (False, True, True, False)
    outer = m.nest(-3, 2.5)
    assert repr(outer) == "Outer(inner=Inner(a=-3, b=2.5), flag=False, big=7)"
    assert m.unwrap(outer) == 5.0
    assert m.checked(m.nest(1, 1.0)).flag is True
    with pytest.raises(ValueError, match="flag is off"):
        m.checked(outer)
    array = np.zeros(3)
    assert m.address(array) - array.ctypes.data == 8
    assert m.nothing(3) is None
    # A struct holding a SIMD value has an LLVM layout ctypes cannot reproduce: not exported.
    assert not hasattr(m, "lanes_of")


def test_reload_recompiles_after_an_edit(tmp_path, monkeypatch):
    import importlib

    (tmp_path / "reloadme.px").write_text("fn value() -> Int:\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    sys.modules.pop("reloadme", None)
    pyx.install()
    import reloadme

    assert reloadme.value() == 1
    (tmp_path / "reloadme.px").write_text("fn value() -> Int:\n    return 2\n")
    assert importlib.reload(reloadme).value() == 2
