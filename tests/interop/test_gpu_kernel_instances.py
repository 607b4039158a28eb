"""Kernels with compile-time parameters launched from Python: `m.scale[4, numpy.float32][grid,
block](args)` compiles that instance on first use and launches it on the CPU target, as pyx's own
`launch scale[4, DType.float32][grid=..., block=...](...)` does."""
import pytest

np = pytest.importorskip("numpy")

from helpers import compiled_module  # noqa: E402

SOURCE = """\
@kernel
fn scale[factor: Int, T: DType](x: Ptr[Scalar[T]], n: Int):
    var i = global_idx.x
    if i < n:
        x[i] = x[i] * Scalar[T](factor)


@kernel
fn divide[by: Int](x: Ptr[Int], n: Int):
    var i = global_idx.x
    if i < n:
        x[i] = x[i] // by


@kernel
fn plain(x: Ptr[Float32]):
    x[thread_idx.x] += 1.0
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("kernel_instances", SOURCE, tmp_path_factory) as module:
        yield module


def test_an_instance_launches(m):
    x = np.arange(40, dtype=np.float32)
    m.scale[4, np.float32][2, 32](x, 40)
    assert np.array_equal(x, np.arange(40, dtype=np.float32) * 4)
    y = np.arange(8, dtype=np.int32)
    m.scale[3, np.int32][(1,), (4,)](y, 8)  # four threads: the first four scaled
    assert y.tolist() == [0, 3, 6, 9, 4, 5, 6, 7]


def test_instances_are_compiled_once(m):
    assert m.scale[2, np.float64] is m.scale[2, np.float64]
    assert m.scale[2, np.float64] is not m.scale[5, np.float64]


def test_a_kernel_exception_is_raised_in_python(m):
    x = np.arange(4, dtype=np.int64)
    with pytest.raises(ZeroDivisionError):
        m.divide[0][1, 4](x, 4)
    m.divide[2][1, 4](x, 4)
    assert x.tolist() == [0, 0, 1, 1]


def test_wrong_uses_are_type_errors(m):
    x = np.zeros(4, np.float32)
    with pytest.raises(TypeError, match=r"takes 2 compile-time arguments \(factor, T\), 1 given"):
        m.scale[3]
    with pytest.raises(TypeError, match=r"launch it with scale\[factor, T\]\[grid, block\]"):
        m.scale(x, 4)
    with pytest.raises(TypeError, match=r"argument 'x' must be Ptr\[Int32\]"):
        m.scale[3, np.int32][1, 4](x, 4)
    with pytest.raises(TypeError, match="cannot be a kernel's compile-time parameter"):
        m.scale["three", np.int32]
    assert "scale[factor: Int, T: DType]" in repr(m.scale)
    m.plain[1, 4](x)  # a kernel without parameters is launched as before
    assert x.tolist() == [1.0] * 4
