"""The standard library's containers at the boundary: a pyx function that returns a List of
numbers gives Python a NumPy array over the list's own memory (no copy), which goes back to
the module when the array and its views are gone; a Span parameter takes a 1-D array by
address, with bounds-checked indexing inside."""
import gc
import textwrap

import pytest

np = pytest.importorskip("numpy")

from helpers import import_source, memory_growth_mib  # noqa: E402

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


    fn span_total(xs: Span[Float64]) -> Float64:
        var s = 0.0
        for x in xs:
            s += x
        return s


    fn scale(xs: Span[Float32], k: Float32):
        for i in range(len(xs)):
            xs[i] = xs[i] * k
        xs[-1] = -1.0


    fn at(xs: Span[Int], i: Int) -> Int:
        return xs[i]
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
    (growth,) = memory_growth_mib(tmp_path, "lists", MODULE, script)
    assert growth < 100  # 300 arrays of 8 MB each: 2.4 GB if none were given back


def test_a_span_parameter_takes_a_1d_array_in_place(m):
    assert m.span_total(np.arange(5.0)) == 10.0 and m.span_total(np.zeros(0)) == 0.0
    a = np.ones(4, np.float32)
    m.scale(a, 3.0)
    assert a.tolist() == [3.0, 3.0, 3.0, -1.0]
    assert m.at(np.arange(5), -2) == 3
    with pytest.raises(IndexError, match="span index out of range"):
        m.at(np.arange(5), 5)
    m.at(np.arange(5), 0)  # usable after the error


@pytest.mark.parametrize("bad, message", [
    (np.arange(5.0), "expected an array of int64, got float64"),
    (np.arange(6).reshape(2, 3), "expected a 1-dimensional array, got 2 dimensions"),
    (np.arange(10)[::2], "the array is not contiguous"),
    ([1, 2, 3], "must be Span\\[Int\\]"),
])
def test_a_span_argument_is_checked(m, bad, message):
    with pytest.raises(TypeError, match=f"at\\(\\) argument 'xs' must be Span\\[Int\\].*{message}|{message}"):
        m.at(bad, 0)


def test_a_function_returning_a_span_is_not_exported(tmp_path, monkeypatch):
    # The memory a Span shows may belong to a List the function destroys as it returns.
    m = import_source("views", "fn view(xs: Span[Int]) -> Span[Int]:\n    return xs.sub(1, 3)\n\n\n"
                      "fn ok(xs: Span[Int]) -> Int:\n    return len(xs)\n", tmp_path, monkeypatch)
    assert not hasattr(m, "view") and m.ok(np.arange(3)) == 3
