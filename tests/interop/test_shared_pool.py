"""One thread pool per process (runtime/pool.py): modules imported with `pyx.import_module` run
their parallel loops on the first one's pool instead of each starting a thread per core, and
`pyx.set_num_threads` caps the threads a loop uses. Run in a fresh process each, so the pool's
size (`PYX_NUM_THREADS`) and its provider are this test's."""
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("numpy")

MODULE = textwrap.dedent('''
    fn threads_of(ids: Ptr[Int], n: Int):
        for i in prange(n):
            # a little work per iteration, so every thread of the pool gets some
            _ = external_call["usleep", Int32](Int32(2000))
            ids[i] = external_call["pthread_self", Int]()


    fn first_raise(n: Int) raises -> Int:
        var s = 0
        for i in prange(n):
            _ = external_call["usleep", Int32](Int32(100))
            if i == 77:
                raise ValueError("iteration 77")
            if i == 200:
                raise IndexError("iteration 200")
            s += i
        return s
''')

DRIVER = textwrap.dedent('''
    import sys
    import numpy as np
    import pyx

    a = pyx.import_module("pool_a", path=[sys.argv[1]])
    b = pyx.import_module("pool_b", path=[sys.argv[1]])

    def threads(m):
        ids = np.zeros(64, dtype=np.int64)
        m.threads_of(ids, 64)
        return set(ids.tolist())

    print(len(threads(a) | threads(b) | threads(a)))
    pyx.set_num_threads(2)
    print(len(threads(a) | threads(b)), pyx.get_num_threads())
    for m in (a, b):  # an exception raised on another module's pool's threads reaches its caller
        try:
            m.first_raise(300)
        except ValueError as e:
            print(type(e).__name__, e)
''')


def run(tmp_path, threads: int) -> list[str]:
    for name in ("pool_a", "pool_b"):
        (tmp_path / f"{name}.px").write_text(MODULE)
    (tmp_path / "driver.py").write_text(DRIVER)
    env = dict(os.environ, PYX_CACHE_DIR=str(tmp_path / "cache"), PYX_NUM_THREADS=str(threads))
    done = subprocess.run([sys.executable, str(tmp_path / "driver.py"), str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_two_modules_share_one_pool(tmp_path):
    # Each module on a pool of its own would use 4 + 3 threads between them.
    union, capped, first, second = run(tmp_path, threads=4)
    assert 1 < int(union) <= 4
    assert capped.split() == ["2", "2"] or capped.split() == ["1", "2"]
    assert first == second == "ValueError iteration 77"


def test_set_num_threads_checks_its_argument():
    import pyx

    with pytest.raises(TypeError, match="takes an int"):
        pyx.set_num_threads(2.0)
    with pytest.raises(ValueError, match="between 1 and"):
        pyx.set_num_threads(0)
    with pytest.raises(ValueError, match="between 1 and"):
        pyx.set_num_threads(10_000)
