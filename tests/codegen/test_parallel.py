"""prange and the thread pool: results do not depend on the number of threads, float
reductions combine in a fixed order, workers are started once, and Python callers (several
at once, too) get results and exceptions as from a serial loop."""
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest

from helpers import ROOT, import_source, run_pyx

GOLDEN = ROOT / "tests" / "golden"

HARMONIC = textwrap.dedent('''
    fn harmonic(n: Int) -> Float64:
        var s = 0.0
        for i in prange(n):
            s += 1.0 / Float64(i + 1)
        return s


    fn main():
        print(harmonic(100000))
        print(harmonic(1000))
        print(harmonic(7))
''')


def harmonic_in_pieces(n: int, max_pieces: int = 256) -> float:
    """What the documented combination order gives: 256 pieces at most, each summed from -0.0,
    then added to the value before the loop in piece order."""
    pieces = min(n, max_pieces)
    q, r = divmod(n, pieces)
    total = 0.0
    for c in range(pieces):
        lo = c * q + min(c, r)
        hi = lo + q + (1 if c < r else 0)
        part = -0.0
        for i in range(lo, hi):
            part += 1.0 / (i + 1)
        total += part
    return total


@pytest.mark.parametrize("threads", ["1", "2", "3", "8"])
def test_results_do_not_depend_on_the_thread_count(threads, monkeypatch, tmp_path):
    monkeypatch.setenv("PYX_NUM_THREADS", threads)
    monkeypatch.chdir(GOLDEN)
    for name in ("prange", "prange_raise", "gpu_kernels", "gpu_warps", "gpu_dynamic_shared", "memcheck",
                 "memcheck_traceback"):
        options = ["--memcheck"] if name.startswith("memcheck") else []
        result = run_pyx(f"{name}.px", *options)
        assert result.stdout == (GOLDEN / f"{name}.out").read_text()
        err = GOLDEN / f"{name}.err"
        assert result.stderr == (err.read_text() if err.exists() else "")
    (tmp_path / "harmonic.px").write_text(HARMONIC)
    result = run_pyx(tmp_path / "harmonic.px")
    assert result.status == 0, result.stderr
    assert result.stdout.split() == [repr(harmonic_in_pieces(n)) for n in (100000, 1000, 7)]


POOL = textwrap.dedent('''
    fn scale(x: Ptr[Float64], n: Int, factor: Float64):
        for i in prange(n):
            x[i] *= factor


    fn total(n: Int) -> Int:
        var t = 0
        for i in prange(n):
            t += i
        return t


    fn checked(n: Int, bad: Int) raises -> Int:
        var t = 0
        for i in prange(n):
            t += 1000 // (i - bad)
        return t
''')


@pytest.fixture()
def pool_module(tmp_path, monkeypatch):
    return import_source("pool", POOL, tmp_path, monkeypatch)


def test_python_calls_get_serial_results_and_exceptions(pool_module):
    np = pytest.importorskip("numpy")
    x = np.arange(100_000, dtype=np.float64)
    pool_module.scale(x, len(x), 2.0)
    assert (x == 2.0 * np.arange(100_000)).all()
    assert pool_module.total(1_000_000) == sum(range(1_000_000))
    with pytest.raises(ZeroDivisionError) as info:
        pool_module.checked(10_000, 5000)
    assert "pool.px" in "".join(__import__("traceback").format_exception(info.value))
    # The pool and the process stay usable after an exception in a worker.
    assert pool_module.checked(100, 5000) == sum(1000 // (i - 5000) for i in range(100))
    assert pool_module.total(10) == 45


def test_several_python_threads_may_call_at_once(pool_module):
    """One caller gets the pool; the others run their loop serially, with the same results."""
    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(pool_module.total, [200_000 + k for k in range(16)]))
    assert results == [sum(range(200_000 + k)) for k in range(16)]
    with ThreadPoolExecutor(4) as ex:
        errors = list(ex.map(lambda k: _error_of(pool_module.checked, 50_000, 100 + k), range(8)))
    assert errors == ["ZeroDivisionError"] * 8


def _error_of(fn, *args):
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__
    return None


def test_workers_start_once_and_follow_PYX_NUM_THREADS(tmp_path):
    (tmp_path / "pool.px").write_text(POOL)
    script = textwrap.dedent(f'''
        import os
        import pyx
        m = pyx.import_module("pool", path=[{str(tmp_path)!r}])
        tasks = lambda: len(os.listdir("/proc/self/task"))
        before = tasks()
        m.total(1000)
        after_one = tasks()
        for _ in range(50):
            m.total(1000)
        print(after_one - before, tasks() - after_one)
    ''')
    env = {**os.environ, "PYX_NUM_THREADS": "4", "PYX_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "0"]  # three workers beside the caller, started once


def test_prange_body_is_vectorized_for_this_cpu(tmp_path):
    """The outlined body is an ordinary counted loop, so LLVM's loop vectorizer still applies."""
    import llvmlite.binding as llvm

    from helpers import run_cli

    features = llvm.get_host_cpu_features()
    register = "%zmm" if features.get("avx512f") else "%ymm" if features.get("avx2") else None
    if register is None:
        pytest.skip("this CPU has neither AVX2 nor AVX-512")
    src = tmp_path / "tri.px"
    src.write_text("fn triad(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], s: Float32, n: Int):\n"
                   "    for i in prange(n):\n"
                   "        a[i] = b[i] + s * c[i]\n")
    result = run_cli("build", "--emit=asm", str(src))
    assert result.status == 0, result.stderr
    start = result.stdout.index("tri.triad.prange1")
    body = result.stdout[start:result.stdout.index(".Lfunc_end", start)]
    assert register in body


def test_an_executable_runs_its_parallel_loops_without_pyx(tmp_path):
    import shutil

    from helpers import run_cli

    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler to link an executable")
    exe = tmp_path / "prange"
    result = run_cli("build", "--emit=exe", "-o", str(exe), str(GOLDEN / "prange.px"))
    assert result.status == 0, result.stderr
    for threads in ("1", "3"):
        done = subprocess.run([str(exe)], capture_output=True, text=True,
                              env={**os.environ, "PYX_NUM_THREADS": threads})
        assert done.returncode == 0 and done.stdout == (GOLDEN / "prange.out").read_text()


def test_a_forked_child_runs_its_parallel_loops_serially(pool_module):
    """fork() copies only the calling thread: the child must not wait for workers it lacks."""
    assert pool_module.total(100_000) == sum(range(100_000))  # the parent's pool is running
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only if the loop finishes with the right answer
        os._exit(0 if pool_module.total(100_000) == sum(range(100_000)) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert pool_module.total(1000) == sum(range(1000))  # and the parent's pool still works
