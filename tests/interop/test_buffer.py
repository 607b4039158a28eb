"""`Buffer[T, rank]` parameters: Python passes a NumPy array of that many dimensions by address,
with its strides, so slices, transposes and reversed views arrive without a copy; indexing
inside is checked per dimension. Differential: what pyx reads and writes through a view of a
random slice is what NumPy reads and writes through the same view."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

from helpers import compiled_module  # noqa: E402

MODULE = '''
fn weighted_sum(b: Buffer[Float64, 2]) -> Float64:
    """Sum of b[i, j] * (1000 i + j): every element, each weighted by where it is."""
    var s = 0.0
    for i in range(b.dim(0)):
        for j in range(b.dim(1)):
            s += b[i, j] * Float64(1000 * i + j)
    return s


fn add_position(b: Buffer[Int32, 3]):
    for i in range(b.dim(0)):
        for j in range(b.dim(1)):
            for k in range(b.dim(2)):
                b[i, j, k] += Int32(100 * i + 10 * j + k)


fn layout(b: Buffer[Int16, 5]) -> Int:
    var code = 0
    for d in range(5):
        code = code * 100 + b.dim(d) * 10 + b.stride(d) % 10
    return code


fn last(b: Buffer[UInt8, 1]) -> UInt8:
    return b[-1]


fn contiguous(b: Buffer[Float32, 2]) -> Bool:
    return b.is_contiguous()


fn read(b: Buffer[Float64, 2], i: Int, j: Int) -> Float64:
    return b[i, j]


fn transpose(b: Buffer[Float64, 2]) -> Buffer[Float64, 2]:
    return b.transposed()


fn corner(b: Buffer[Float64, 2], rows: Int, cols: Int) -> Buffer[Float64, 2]:
    """The bottom-right rows x cols block, as a view."""
    var start = b.unsafe_ptr() + (b.dim(0) - rows) * b.stride(0) + (b.dim(1) - cols) * b.stride(1)
    return Buffer[Float64, 2](start, rows, cols).with_strides(b.stride(0), b.stride(1))


fn fresh(n: Int) -> Buffer[Float64, 1]:
    var p = Ptr[Float64].alloc(n)
    return Buffer[Float64, 1](p, n)


fn beyond(b: Buffer[Float64, 1]) -> Buffer[Float64, 1]:
    return Buffer[Float64, 1](b.unsafe_ptr(), b.dim(0) + 1)
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("buffers", MODULE, tmp_path_factory) as module:
        yield module


def weighted_sum(a) -> float:
    i, j = np.indices(a.shape)
    return float((a * (1000 * i + j)).sum())


def test_views_arrive_with_their_strides(m):
    a = np.arange(24.0).reshape(4, 6)
    # A zero stride too: as_strided's view is writable (broadcast_to's is read-only, so refused).
    repeated = np.lib.stride_tricks.as_strided(a[0], (3, 6), (0, a.itemsize))
    for view in (a, a.T, a[::2, ::-1], a[1:3, 2:5], a[::-1, ::3], repeated):
        assert m.weighted_sum(view) == weighted_sum(view)


def test_writes_land_in_the_array_through_a_view(m):
    x = np.zeros((3, 4, 5), np.int32)
    view = x[::2, 1:, ::-2]
    m.add_position(view)
    i, j, k = np.indices(view.shape)
    assert (view == 100 * i + 10 * j + k).all()
    untouched = np.ones(x.shape, bool)
    untouched[::2, 1:, ::-2] = False
    assert (x[untouched] == 0).all()


def test_shape_and_strides_of_five_dimensions(m):
    def layout(a) -> int:
        code = 0
        for size, stride in zip(a.shape, a.strides, strict=True):
            code = code * 100 + size * 10 + (stride // a.itemsize) % 10
        return code

    y = np.zeros((2, 1, 3, 1, 4), np.int16)
    assert m.layout(y) == layout(y) == 2212341441  # strides (12, 12, 4, 4, 1) elements
    t = y.transpose(4, 3, 2, 1, 0)
    assert m.layout(t) == layout(t)


def test_one_dimension_negative_index_and_reversed(m):
    assert m.last(np.arange(7, dtype=np.uint8)) == 6
    assert m.last(np.arange(7, dtype=np.uint8)[::-1]) == 0


def test_contiguity_is_numpys(m):
    a = np.zeros((3, 4), np.float32)
    assert m.contiguous(a) and not m.contiguous(a.T) and not m.contiguous(a[:, ::2])
    assert m.contiguous(a[1:2, :]) and m.contiguous(a[:, 1:2][0:1])


def test_wrong_arrays_name_the_parameter(m):
    with pytest.raises(TypeError, match=r"weighted_sum\(\) argument 'b' must be Buffer\[Float64, 2\]: "
                                        r"expected a 2-dimensional array, got 1 dimension$"):
        m.weighted_sum(np.zeros(3))
    with pytest.raises(TypeError, match="expected an array of float64, got float32"):
        m.weighted_sum(np.zeros((2, 2), np.float32))
    with pytest.raises(TypeError, match=r"must be Buffer\[Float64, 2\] \(a NumPy array or buffer of float64\), "
                                        "not list"):
        m.weighted_sum([[1.0]])
    odd = np.zeros(5, dtype=[("a", "u1"), ("b", "f8")])["b"].reshape(5, 1)  # 9-byte steps between float64s
    with pytest.raises(TypeError, match="are not whole elements of 8 bytes"):
        m.weighted_sum(odd)


def test_out_of_range_is_index_error_and_the_module_stays_usable(m):
    a = np.arange(6.0).reshape(2, 3)
    for i, j in ((2, 0), (0, 3), (-3, 0), (0, -4)):
        with pytest.raises(IndexError, match="buffer index out of range"):
            m.read(a, i, j)
    assert m.read(a, -1, -1) == 5.0


def test_a_buffer_result_is_a_view_of_the_argument_it_shows(m):
    a = np.arange(12.0).reshape(3, 4)
    t = m.transpose(a)
    assert t.shape == (4, 3) and (t == a.T).all()
    block = m.corner(a[::-1, ::2], 2, 1)
    assert (block == a[::-1, ::2][1:, 1:]).all()
    block[0, 0] = -1.0  # the same memory: writes show in the array passed in
    assert a[1, 2] == -1.0
    del a
    assert t.sum() == sum(range(12)) - 6 - 1  # the view keeps the array's memory alive
    frozen = np.arange(4.0).reshape(2, 2)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="read-only"):  # a Buffer may be written through: no read-only one
        m.transpose(frozen)


def test_a_buffer_result_of_other_memory_is_an_error(m):
    with pytest.raises(RuntimeError, match=r"fresh\(\) returned a Buffer\[Float64, 1\] that views none of the arrays"):
        m.fresh(3)
    with pytest.raises(RuntimeError, match="views none of the arrays"):
        m.beyond(np.arange(3.0))  # one element past the array's end


views = st.tuples(
    st.integers(2, 7), st.integers(2, 7),  # the array's shape
    st.integers(-3, 3).filter(bool), st.integers(-3, 3).filter(bool),  # steps of the slice
    st.booleans(),  # transposed
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(views, st.data())
def test_random_views_read_as_numpy_does(m, view, data):
    rows, cols, step0, step1, transpose = view
    a = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols) * 0.5 - 3.0
    v = a[::step0, ::step1]
    if transpose:
        v = v.T
    assert m.weighted_sum(v) == weighted_sum(v)
    i = data.draw(st.integers(-v.shape[0] - 1, v.shape[0]))
    j = data.draw(st.integers(-v.shape[1] - 1, v.shape[1]))
    try:
        expected = v[i, j]
    except IndexError:
        with pytest.raises(IndexError):
            m.read(v, i, j)
    else:
        assert m.read(v, i, j) == expected
