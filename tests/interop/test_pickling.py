"""pyx functions and struct results pickle by reference (module name, file, options, name), so
multiprocessing (each start method) and ProcessPoolExecutor run them; workers importing a module
with a cold cache compile it once (a lock per cache entry)."""
import os
import pickle
import subprocess
import sys
import textwrap

import pytest

np = pytest.importorskip("numpy")

from helpers import compiled_module  # noqa: E402

SOURCE = textwrap.dedent('''
    fn square(x: Int) -> Int:
        return x * x


    fn shout(s: String) -> String:
        print("shouting")
        return s + "!"


    def total(xs):
        s = 0
        for x in xs:
            s += x
        return s


    @fieldwise_init
    struct Pair:
        var a: Float64
        var b: Float64


    fn pair(a: Float64) -> Pair:
        return Pair(a, a + 1.0)
''')


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("picklable", SOURCE, tmp_path_factory) as module:
        yield module


def test_functions_and_structs_pickle_by_reference(m):
    for fn in (m.square, m.shout, m.total):
        data = pickle.dumps(fn)
        assert b"picklable" in data and len(data) < 400  # a reference, not code
        assert pickle.loads(data) is fn  # the module is imported here: the same function
    p = m.pair(1.5)
    assert type(p).__module__ == "picklable" and type(p).__qualname__ == "Pair"
    assert pickle.loads(pickle.dumps(p)) == p


def test_an_unpickled_function_is_rebuilt_from_the_disk_cache_in_a_fresh_process(m):
    import pyx
    from pyx.runtime import cache

    # Keys hold the compiler's fingerprint, taken once per process: where the compiler's files
    # changed since this process started, entries are written now under the key a new one computes.
    cache.compiler_fingerprint.cache_clear()
    m = pyx.import_module("picklable", path=[m.__file__.rsplit("/", 1)[0]])
    m.total([1])  # the instance for List[Int] is in the cache now
    data = pickle.dumps((m.square, m.total, m.pair(2.0)))
    code = textwrap.dedent('''
        import pickle, sys
        import pyx.build as whole
        def no_compile(*args):
            raise AssertionError("compiled again")
        whole.build_module = no_compile
        square, total, p = pickle.loads(sys.stdin.buffer.read())
        print(square(7), total([1, 2, 3]), p, type(p).__module__, total.instances_compiled)
    ''')
    done = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode() == "49 6 Pair(a=2.0, b=3.0) picklable 0\n"  # (total's instance: read, not compiled)


SCRIPT = textwrap.dedent('''
    import multiprocessing, sys
    from concurrent.futures import ProcessPoolExecutor
    import pyx

    m = pyx.import_module("picklable", path=[sys.argv[1]])

    if __name__ == "__main__":
        method = sys.argv[2]
        context = multiprocessing.get_context(method)
        with context.Pool(2) as pool:
            print(pool.map(m.square, [1, 2, 3]), pool.map(m.total, [[1, 2], [3]]), pool.map(m.pair, [1.0]))
        with ProcessPoolExecutor(2, mp_context=context) as ex:
            print(list(ex.map(m.square, [4, 5])))
''')


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_multiprocessing_runs_pyx_functions_with_each_start_method(m, tmp_path, method):
    (tmp_path / "pool_script.py").write_text(SCRIPT)
    folder = m.__file__.rsplit("/", 1)[0]
    done = subprocess.run([sys.executable, str(tmp_path / "pool_script.py"), folder, method], capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[1, 4, 9] [3, 3] [Pair(a=1.0, b=2.0)]\n[16, 25]\n"


WORKER = textwrap.dedent('''
    import sys
    import pyx, pyx.build as whole
    built = []
    original = whole.build_module
    def counting(*args, **kwargs):
        built.append(1)
        return original(*args, **kwargs)
    whole.build_module = counting
    m = pyx.import_module("coldmod", path=[sys.argv[1]])
    print(len(built), m.cube(3))
''')


def test_workers_importing_with_a_cold_cache_compile_the_module_once(tmp_path):
    (tmp_path / "coldmod.px").write_text("fn cube(x: Int) -> Int:\n    return x * x * x\n")
    (tmp_path / "worker.py").write_text(WORKER)
    env = dict(os.environ, PYX_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join(sys.path))
    workers = [subprocess.Popen([sys.executable, str(tmp_path / "worker.py"), str(tmp_path)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = []
    for w in workers:
        out, err = w.communicate(timeout=300)
        assert w.returncode == 0, err
        outputs.append(out.split())
    assert sorted(int(built) for built, _ in outputs) == [0, 0, 1]
    assert all(result == "27" for _, result in outputs)
