"""A pyx function that returns a List of numbers gives Python a NumPy array over the list's
own memory (no copy), which goes back to the module when the array and its views are gone."""
import gc
import subprocess
import sys
import textwrap

import pytest

np = pytest.importorskip("numpy")

from helpers import import_source  # noqa: E402

MODULE = textwrap.dedent('''
    fn squares(n: Int) -> List[Int]:
        var xs = List[Int]()
        for i in range(n):
            xs.append(i * i)
        return xs


    fn halves(n: Int) -> List[Float32]:
        var xs = List[Float32]()
        for i in range(n):
            xs.append(Float32(i) / 2.0)
        return xs


    fn flags(n: Int) -> List[Bool]:
        var xs = List[Bool]()
        for i in range(n):
            xs.append(i % 3 == 0)
        return xs


    fn small(n: Int) -> List[UInt8]:
        return List[UInt8].filled(n, 7)
''')


@pytest.fixture()
def m(tmp_path, monkeypatch):
    return import_source("lists", MODULE, tmp_path, monkeypatch)


def test_lists_come_back_as_arrays_of_their_element_type(m):
    a = m.squares(6)
    assert isinstance(a, np.ndarray) and a.dtype == np.int64 and a.tolist() == [0, 1, 4, 9, 16, 25]
    assert m.halves(4).dtype == np.float32 and m.halves(4).tolist() == [0.0, 0.5, 1.0, 1.5]
    assert m.flags(4).dtype == np.bool_ and m.flags(4).tolist() == [True, False, False, True]
    assert m.small(3).dtype == np.uint8 and m.small(3).tolist() == [7, 7, 7]
    empty = m.squares(0)
    assert empty.shape == (0,) and empty.dtype == np.int64
    assert "-> List[Int]" in m.squares.__doc__


def test_the_array_is_writable_and_views_keep_the_memory(m):
    a = m.squares(1000)
    a[0] = -1
    view = a[990:]
    del a
    gc.collect()
    m.squares(1000)  # reuses freed memory if the view's had been given back
    assert view.tolist() == [i * i for i in range(990, 1000)]


def test_the_memory_goes_back_to_the_module(tmp_path):
    (tmp_path / "lists.px").write_text(MODULE)
    script = textwrap.dedent('''
        import resource, sys
        import pyx
        m = pyx.import_module("lists", path=[sys.argv[1]])
        m.squares(1_000_000)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for _ in range(300):
            assert m.squares(1_000_000)[-1] == 999_999 ** 2
        print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
    ''')
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          env={"PYX_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": ":".join(sys.path)})
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 100  # 300 arrays of 8 MB each: 2.4 GB if none were given back
