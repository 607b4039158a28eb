"""Arguments from Python cannot make safe pyx code touch memory it should not.

- `Ptr`, `Span` and `Buffer` parameters refuse read-only memory: pyx has no read-only spelling
  of them, so the function may write through any of them, and it wrote into `bytes` constants
  (interned: every `b"hello"` in the process changed) and read-only NumPy arrays.
- `None`, a NumPy scalar or a 0-dimensional array is not an array: a `TypeError` naming the
  parameter, where `None` was a null pointer (SIGSEGV), a scalar a pointer to one element, and
  `None` for a `Span` an `IndexError: list index out of range` from the bridge itself.
- Every wrong argument, of every kind the bridge converts, is a `TypeError` (or the
  `ValueError`/`OverflowError` Python gives) naming the parameter; float parameters given an
  array said only "only 0-dimensional arrays can be converted to Python scalars".
"""
import operator
import struct
import textwrap

import pytest

np = pytest.importorskip("numpy")

from helpers import compiled_module  # noqa: E402

# Parameter names are distinctive, so "the message names the parameter" cannot pass by chance.
SOURCE = textwrap.dedent('''
    @fieldwise_init
    struct Point:
        var px: Float64
        var py: Int32


    fn take_int(arg_int: Int) -> Int:
        return arg_int


    fn take_int8(arg_int8: Int8) -> Int8:
        return arg_int8


    fn take_uint8(arg_uint8: UInt8) -> UInt8:
        return arg_uint8


    fn take_uint64(arg_uint64: UInt64) -> UInt64:
        return arg_uint64


    fn take_float64(arg_float64: Float64) -> Float64:
        return arg_float64


    fn take_float32(arg_float32: Float32) -> Float32:
        return arg_float32


    fn take_float16(arg_float16: Float16) -> Float16:
        return arg_float16


    fn take_bfloat16(arg_bfloat16: BFloat16) -> BFloat16:
        return arg_bfloat16


    fn take_bool(arg_bool: Bool) -> Bool:
        return arg_bool


    fn take_string(arg_string: String) -> Int:
        return len(arg_string)


    fn bump_float32(arg_ptr_float32: Ptr[Float32], count: Int):
        for i in range(count):
            arg_ptr_float32[i] += 1.0


    fn bump_int64(arg_ptr_int64: Ptr[Int64], count: Int):
        for i in range(count):
            arg_ptr_int64[i] += 1


    fn bump_uint8(arg_ptr_uint8: Ptr[UInt8], count: Int):
        for i in range(count):
            arg_ptr_uint8[i] = 88


    fn bump_slow(arg_ptr_slow: Ptr[Float32], count: Int, at: Point):
        # A struct parameter: this one is called through ctypes, not the CPython entry.
        for i in range(count):
            arg_ptr_slow[i] += Float32(at.px)


    fn bump_span(arg_span: Span[Float64]):
        for i in range(len(arg_span)):
            arg_span[i] += 1.0


    fn bump_buffer(arg_buffer: Buffer[Float32, 2]):
        for i in range(arg_buffer.dim(0)):
            for j in range(arg_buffer.dim(1)):
                arg_buffer[i, j] = arg_buffer[i, j] + 1.0


    fn take_point(arg_point: Point) -> Float64:
        return arg_point.px + Float64(arg_point.py)


    fn take_lanes(arg_simd: SIMD[DType.float32, 4]) -> Float32:
        return arg_simd.reduce_add()


    fn make_list(arg_list_count: Int) -> List[Int]:
        var out = List[Int]()
        for i in range(arg_list_count % 5):
            out.append(i)
        return out


    @kernel
    fn bump_kernel(arg_kernel_ptr: Ptr[Float32], arg_kernel_step: Float32, count: Int):
        if thread_idx.x < count:
            arg_kernel_ptr[thread_idx.x] += arg_kernel_step
''')


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("bridge_args", SOURCE, tmp_path_factory) as module:
        yield module


def _readonly(array):
    array.flags.writeable = False
    return array


DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex128"]


def wrong_and_right_values():
    """Every value tried against every parameter: arrays of each dtype and rank, read-only and
    strided ones, buffers, NumPy and Python scalars, None, text, sequences, objects."""
    values = []
    for dtype in DTYPES:
        for shape in [(), (3,), (2, 3)]:
            values.append((f"ones{shape}:{dtype}", lambda d=dtype, s=shape: np.ones(s, d)))
        values.append((f"readonly(3,):{dtype}", lambda d=dtype: _readonly(np.ones(3, d))))
        values.append((f"readonly(2,3):{dtype}", lambda d=dtype: _readonly(np.ones((2, 3), d))))
        values.append((f"strided(2,3):{dtype}", lambda d=dtype: np.ones((2, 6), d)[:, ::2]))
        values.append((f"empty:{dtype}", lambda d=dtype: np.ones(0, d)))
        values.append((f"scalar:{dtype}", lambda d=dtype: np.dtype(d).type(1)))
    values += [
        ("frombuffer:float32", lambda: np.frombuffer(b"\0\0\x80?" * 3, np.float32)),
        ("frombuffer:float64", lambda: np.frombuffer(b"\0" * 24, np.float64)),
        ("bytes", lambda: b"abcd"), ("bytearray", lambda: bytearray(b"abcd")),
        ("memoryview(bytes)", lambda: memoryview(b"abcd")),
        ("memoryview(bytearray)", lambda: memoryview(bytearray(b"abcd"))),
        ("None", lambda: None), ("str", lambda: "text"), ("empty str", lambda: ""),
        ("int 0", lambda: 0), ("int -1", lambda: -1), ("int 255", lambda: 255), ("int 256", lambda: 256),
        ("int 2**63", lambda: 2**63), ("int -2**63-1", lambda: -2**63 - 1), ("int 2**64", lambda: 2**64),
        ("int 10**400", lambda: 10**400), ("float", lambda: 1.5), ("float 1e6", lambda: 1e6),
        ("float inf", lambda: float("inf")), ("True", lambda: True), ("complex", lambda: 1 + 2j),
        ("list of floats", lambda: [1.0, 2.0, 3.0, 4.0]), ("tuple (1.5, 2)", lambda: (1.5, 2)),
        ("tuple (1.5, 2**40)", lambda: (1.5, 2**40)), ("tuple of 3", lambda: (1.0, 2.0, 3.0)),
        ("dict", dict), ("object", lambda: object()),
    ]
    return values


def as_array(value):
    """What the bridge may treat as an array: an ndarray, or anything with the buffer protocol."""
    if isinstance(value, np.ndarray):
        return value
    try:
        return np.asarray(memoryview(value))
    except TypeError:
        return None


def an_int(low, high):
    def accepts(value):
        try:
            number = operator.index(value)
        except TypeError:
            return False
        return low <= number <= high if low is not None else True
    return accepts


def a_float(half=False):
    """A real number that is not an array (NumPy's, of any rank, have __float__ too)."""
    def accepts(value):
        if isinstance(value, (str, bytes, bytearray, complex)) or getattr(value, "ndim", 0) \
                or getattr(getattr(value, "dtype", None), "kind", "") == "c":
            return False
        try:
            number = float(value)
            if half:
                struct.pack("<e", number)  # Python's own Float16: it refuses a finite value beyond 65504
        except (TypeError, ValueError, OverflowError):
            return False
        return True
    return accepts


def an_array(dtype, ranks, strided=False):
    """A writable array of `dtype` with one of `ranks` (C-contiguous unless `strided`)."""
    def accepts(value):
        array = as_array(value)
        return (array is not None and str(array.dtype) == dtype and array.ndim in ranks
                and array.flags.writeable and (strided or array.flags.c_contiguous))
    return accepts


def a_point(value):
    if isinstance(value, tuple) and len(value) == 2:
        return a_float()(value[0]) and an_int(-2**31, 2**31 - 1)(value[1])
    return False


def four_lanes(value):
    try:
        items = list(value)
    except TypeError:
        return False
    return len(items) == 4 and all(a_float()(x) for x in items)


INT64 = (-2**63, 2**63 - 1)

# (function, the parameter tried, how the call is made with a value, which values it accepts)
PARAMETERS = [
    ("take_int", "arg_int", lambda f, v: f(v), an_int(*INT64)),
    ("take_int8", "arg_int8", lambda f, v: f(v), an_int(-128, 127)),
    ("take_uint8", "arg_uint8", lambda f, v: f(v), an_int(0, 255)),
    ("take_uint64", "arg_uint64", lambda f, v: f(v), an_int(0, 2**64 - 1)),
    ("take_float64", "arg_float64", lambda f, v: f(v), a_float()),
    ("take_float32", "arg_float32", lambda f, v: f(v), a_float()),
    ("take_float16", "arg_float16", lambda f, v: f(v), a_float(half=True)),
    ("take_bfloat16", "arg_bfloat16", lambda f, v: f(v), a_float()),
    ("take_bool", "arg_bool", lambda f, v: f(v), lambda v: type(v).__name__ in ("bool", "bool_")),
    ("take_string", "arg_string", lambda f, v: f(v), lambda v: isinstance(v, str)),
    ("bump_float32", "arg_ptr_float32", lambda f, v: f(v, 0), an_array("float32", (1, 2))),
    ("bump_int64", "arg_ptr_int64", lambda f, v: f(v, 0), an_array("int64", (1, 2))),
    ("bump_uint8", "arg_ptr_uint8", lambda f, v: f(v, 0), an_array("uint8", (1, 2))),
    ("bump_uint8", "arg_ptr_uint8", lambda f, v: f(arg_ptr_uint8=v, count=0), an_array("uint8", (1, 2))),
    ("bump_slow", "arg_ptr_slow", lambda f, v: f(v, 0, (1.0, 2)), an_array("float32", (1, 2))),
    ("bump_span", "arg_span", lambda f, v: f(v), an_array("float64", (1,))),
    ("bump_buffer", "arg_buffer", lambda f, v: f(v), an_array("float32", (2,), strided=True)),
    ("take_point", "arg_point", lambda f, v: f(v), a_point),
    ("take_lanes", "arg_simd", lambda f, v: f(v), four_lanes),
    ("make_list", "arg_list_count", lambda f, v: f(v), an_int(*INT64)),
    ("bump_kernel", "arg_kernel_ptr", lambda k, v: k[1, 1](v, 1.0, 0), an_array("float32", (1, 2))),
    ("bump_kernel", "arg_kernel_step", lambda k, v: k[1, 1](np.zeros(1, np.float32), v, 0), a_float()),
]


def test_every_wrong_argument_is_refused_naming_its_parameter(m):
    """A spec table: each parameter kind against each value. A value the kind accepts converts;
    any other is TypeError, ValueError or OverflowError, whose message names the parameter."""
    not_refused, unnamed, refused_wrongly, calls = [], [], [], 0
    for func, param, call, accepts in PARAMETERS:
        for label, make in wrong_and_right_values():
            value, calls = make(), calls + 1
            expected = accepts(value)
            try:
                call(getattr(m, func), value)
            except (TypeError, ValueError, OverflowError) as exc:
                if expected:
                    refused_wrongly.append(f"{func}({param}={label}): {type(exc).__name__}: {exc}")
                elif param not in str(exc):
                    unnamed.append(f"{func}({param}={label}): {type(exc).__name__}: {exc}")
                continue
            if not expected:
                not_refused.append(f"{func}({param}={label})")
    assert calls > 1000
    assert not_refused == [], f"{len(not_refused)} of {calls} wrong arguments were accepted"
    assert unnamed == [], f"{len(unnamed)} of {calls} refusals do not name the parameter"
    assert refused_wrongly == []


def test_a_read_only_array_is_never_written(m):
    constant = b"hello"
    with pytest.raises(TypeError, match=r"bump_uint8\(\) argument 'arg_ptr_uint8' must be Ptr\[UInt8\]: "
                                        r"the bytes is read-only"):
        m.bump_uint8(constant, 5)
    assert constant == b"hell" + b"o"  # (an interned constant: every b"hello" would have changed)
    frozen = _readonly(np.zeros(4, np.float32))
    for attempt in (lambda: m.bump_float32(frozen, 4), lambda: m.bump_slow(frozen, 4, (1.0, 2)),
                    lambda: m.bump_kernel[1, 4](frozen, 1.0, 4)):
        with pytest.raises(TypeError, match="read-only"):
            attempt()
    with pytest.raises(TypeError, match=r"arg_span.*read-only"):
        m.bump_span(np.frombuffer(b"\0" * 16, np.float64))
    with pytest.raises(TypeError, match=r"arg_buffer.*read-only"):
        m.bump_buffer(np.broadcast_to(np.zeros(3, np.float32), (2, 3)))  # NumPy makes it read-only
    assert not frozen.any()
    writable = np.zeros(4, np.float32)
    m.bump_float32(writable, 4)
    m.bump_kernel[1, 4](writable, 1.0, 4)
    assert writable.tolist() == [2.0] * 4


def test_none_a_scalar_or_a_0d_array_is_not_a_pointer(m):
    for value, what in ((None, "not NoneType"), (np.float32(1), "0-dimensional float32"),
                        (np.array(2.0, np.float32), "0-dimensional ndarray")):
        for call in (lambda v: m.bump_float32(v, 1), lambda v: m.bump_slow(v, 1, (1.0, 2)),
                     lambda v: m.bump_kernel[1, 1](v, 1.0, 1)):
            with pytest.raises(TypeError, match=f"'arg_(ptr_float32|ptr_slow|kernel_ptr)' .*{what}"):
                call(value)
    with pytest.raises(TypeError, match=r"bump_span\(\) argument 'arg_span' must be Span\[Float64\] .*NoneType"):
        m.bump_span(None)


def test_an_array_or_a_complex_is_not_a_float(m):
    for value in (np.ones(3), np.ones((2, 2)), np.ones(1), np.complex64(1 + 2j), np.complex128(3j)):
        with pytest.raises(TypeError, match=r"take_float32\(\) argument 'arg_float32' must be Float32 \(a float\)"):
            m.take_float32(value)
    with pytest.raises(OverflowError, match="'arg_float64' must be Float64: int too large"):
        m.take_float64(10**400)
    with pytest.raises(OverflowError, match="'arg_float16' must be Float16: float too large"):
        m.take_float16(1e6)
    assert m.take_float32(np.float32(2)) == 2.0 and m.take_float64(np.array(0.5)) == 0.5


def test_launch_sizes_beyond_the_gpu_limits_are_refused(m):
    x = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match=r"shared_bytes must be at most 49152"):
        m.bump_kernel[1, 1, 1 << 40](x, 1.0, 1)  # the CPU launch allocated it per block: SIGSEGV
    with pytest.raises(ValueError, match="a grid has at most"):
        m.bump_kernel[(2**62, 2), 1](x, 1.0, 1)
    with pytest.raises(ValueError, match="a block has at most 1024 threads"):
        m.bump_kernel[1, (2**62 + 1, 4)](x, 1.0, 4)
    m.bump_kernel[1, 4, 49152](x, 1.0, 4)
    assert x.tolist() == [1.0] * 4
