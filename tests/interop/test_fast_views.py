"""Span and Buffer arguments on the fast entry point: a function taking `Span[T]` or
`Buffer[T, rank]` is called through the compiled CPython entry as a `Ptr` one is (no ctypes),
gets the same address, length, shape and strides the checked path gives it, holds the array
only for the call, and hands every argument it cannot take to the checked path, so the
errors are the same either way (a keyword argument always takes the checked path)."""
import sys
import textwrap

import pytest

np = pytest.importorskip("numpy")

from helpers import compiled_module  # noqa: E402

SOURCE = textwrap.dedent('''
    fn span_sum(xs: Span[Float64]) -> Float64:
        """Sum of xs[i] * (i + 1): order and length both show."""
        var s = 0.0
        for i in range(len(xs)):
            s += xs[i] * Float64(i + 1)
        return s


    fn span_last(xs: Span[Int32]) raises -> Int32:
        return xs[-1]


    fn span_fill(xs: Span[Int64], value: Int64):
        for i in range(len(xs)):
            xs[i] = value


    fn count_true(flags: Span[Bool]) -> Int:
        var c = 0
        for f in flags:
            if f:
                c += 1
        return c


    fn grid_code(b: Buffer[Float32, 2]) -> Float64:
        """Every element weighted by its place, plus the shape and strides."""
        var s = 0.0
        for i in range(b.dim(0)):
            for j in range(b.dim(1)):
                s += Float64(b[i, j]) * Float64(1000 * i + j)
        return s + Float64(b.dim(0) * 1000000 + b.dim(1) * 10000 + b.stride(0) * 100 + b.stride(1))


    fn cube_mark(b: Buffer[Int16, 3]):
        for i in range(b.dim(0)):
            for j in range(b.dim(1)):
                for k in range(b.dim(2)):
                    b[i, j, k] = Int16(100 * i + 10 * j + k)
''')


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("fast_views", SOURCE, tmp_path_factory) as module:
        yield module


def expected_grid(a) -> float:
    i, j = np.indices(a.shape)
    strides = [s // a.itemsize for s in a.strides]
    return float((a.astype(np.float64) * (1000 * i + j)).sum()) + \
        a.shape[0] * 1000000 + a.shape[1] * 10000 + strides[0] * 100 + strides[1]


def test_span_and_buffer_functions_use_the_compiled_entry(m):
    for f in (m.span_sum, m.span_last, m.span_fill, m.count_true, m.grid_code, m.cube_mark):
        assert type(f).__name__ == "builtin_function_or_method", f


def test_a_span_arrives_with_its_address_and_length(m):
    x = np.arange(1.0, 6.0)
    assert m.span_sum(x) == m.span_sum(xs=x) == float((x * np.arange(1, 6)).sum())
    assert m.span_sum(memoryview(x)[1:]) == float((x[1:] * np.arange(1, 5)).sum())
    assert m.span_sum(np.zeros(0)) == 0.0
    assert m.span_last(np.array([4, 5, 6], np.int32)) == 6
    with pytest.raises(IndexError):
        m.span_last(np.zeros(0, np.int32))  # the Span's checked index: its length is the array's
    out = np.zeros(7, np.int64)
    m.span_fill(out[2:5], -3)
    assert out.tolist() == [0, 0, -3, -3, -3, 0, 0]
    assert m.count_true(np.array([True, False, True, True])) == 3


@pytest.mark.parametrize("view", [
    lambda a: a, lambda a: a.T, lambda a: a[::-1], lambda a: a[:, ::-2], lambda a: a[1:3, 2:],
    lambda a: a[::2, ::3].T, lambda a: a[:0],
])
def test_a_buffer_arrives_with_its_shape_and_strides(m, view):
    a = view(np.arange(30, dtype=np.float32).reshape(5, 6))
    assert m.grid_code(a) == m.grid_code(b=a) == expected_grid(a)


def test_writes_land_through_a_strided_view(m):
    a = np.zeros((4, 5, 6), np.int16)
    m.cube_mark(a[1:, ::2, ::-3])
    expected = np.zeros((4, 5, 6), np.int16)
    i, j, k = np.indices(expected[1:, ::2, ::-3].shape)
    expected[1:, ::2, ::-3] = 100 * i + 10 * j + k
    assert (a == expected).all()


def test_arrays_are_held_only_for_the_call(m):
    x, g = np.ones(8), np.ones((3, 3), np.float32)
    before = sys.getrefcount(x), sys.getrefcount(g)
    for _ in range(1000):
        m.span_sum(x)
        m.grid_code(g)
    with pytest.raises(IndexError):
        for _ in range(100):
            m.span_last(np.zeros(0, np.int32))
    assert (sys.getrefcount(x), sys.getrefcount(g)) == before
    x.resize(4, refcheck=True)  # would raise BufferError while an export were still held
    g.resize(2, refcheck=True)


def _misaligned():
    raw = np.zeros(41, np.uint8)
    return np.lib.stride_tricks.as_strided(raw[1:].view(np.float32), (2, 3), (20, 6))


def _readonly(shape):
    a = np.ones(shape, np.float32)
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("call, bad, text", [
    ("span_sum", np.ones(3, np.float32), "expected an array of float64, got float32"),
    ("span_sum", np.ones((2, 2)), "expected a 1-dimensional array, got 2 dimensions"),
    ("span_sum", np.ones(8)[::2], "not contiguous"),
    ("span_sum", np.float64(1.0), "0-dimensional"),
    ("span_sum", [1.0, 2.0], "must be Span[Float64]"),
    ("span_sum", _readonly(3).astype(np.float64), None),  # astype copies: writable, so accepted
    ("grid_code", np.ones(6, np.float32), "expected a 2-dimensional array, got 1 dimension"),
    ("grid_code", np.ones((2, 3)), "expected an array of float32, got float64"),
    ("grid_code", _readonly((2, 2)), "is read-only"),
    ("grid_code", np.broadcast_to(np.ones(3, np.float32), (2, 3)), "is read-only"),
    ("grid_code", _misaligned(), "are not whole elements of 4 bytes"),
])
def test_other_arguments_get_the_checked_paths_messages(m, call, bad, text):
    f = getattr(m, call)
    if text is None:
        f(bad)
        return
    name = "xs" if call == "span_sum" else "b"
    pattern = f"{call}\\(\\) argument '{name}'.*" + text.replace("[", r"\[").replace("]", r"\]")
    with pytest.raises(TypeError, match=pattern):
        f(bad)
    with pytest.raises(TypeError, match=pattern):
        f(**{name: bad})  # the checked path itself says the same
