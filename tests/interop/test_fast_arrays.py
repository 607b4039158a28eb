"""Arrays on the fast entry point: a function with Ptr arguments is called through the
compiled CPython entry (no ctypes), takes any writable C-contiguous buffer of its element type,
holds it only for the call, and hands everything else to the checked path."""
import sys
import textwrap

import pytest

np = pytest.importorskip("numpy")

from helpers import import_source  # noqa: E402

SOURCE = textwrap.dedent('''
    fn total(x: Ptr[Float32], n: Int) -> Float32:
        var s: Float32 = 0.0
        for i in range(n):
            s += x[i]
        return s


    fn count_true(flags: Ptr[Bool], n: Int) -> Int:
        var c = 0
        for i in range(n):
            if flags[i]:
                c += 1
        return c


    fn fill(x: Ptr[Int64], n: Int, value: Int64):
        for i in range(n):
            x[i] = value


    fn widen(src: Ptr[UInt8], dst: Ptr[Float64], n: Int) raises:
        for i in range(n):
            if src[i] == 255:
                raise ValueError("saturated")
            dst[i] = Float64(src[i])
''')


@pytest.fixture()
def arrays(tmp_path, monkeypatch):
    return import_source("arrays", SOURCE, tmp_path, monkeypatch)


def test_array_functions_use_the_compiled_entry(arrays):
    assert type(arrays.total).__name__ == "builtin_function_or_method"
    x = np.arange(10, dtype=np.float32)
    assert arrays.total(x, 10) == 45.0
    assert arrays.total(memoryview(x), 10) == 45.0
    readonly = np.ones(4, np.float32)
    readonly.flags.writeable = False
    # pyx has no read-only Ptr: any Ptr may be written through, so the fast entry hands a
    # read-only buffer to the checked path, which refuses it (tests/security/test_memory_bridge.py).
    with pytest.raises(TypeError, match=r"total\(\) argument 'x' must be Ptr\[Float32\]: the ndarray is read-only"):
        arrays.total(readonly, 4)
    assert arrays.count_true(np.array([True, False, True]), 3) == 2
    out = np.zeros(5, np.int64)
    arrays.fill(out, 5, -7)
    assert out.tolist() == [-7] * 5
    bytes_in, doubles = np.array([1, 2, 3], np.uint8), np.zeros(3)
    arrays.widen(bytes_in, doubles, 3)
    assert doubles.tolist() == [1.0, 2.0, 3.0]


def test_buffers_are_held_only_for_the_call(arrays):
    x = np.ones(8, np.float32)
    before = sys.getrefcount(x)
    for _ in range(1000):
        arrays.total(x, 8)
    with pytest.raises(ValueError):
        for _ in range(100):
            arrays.widen(np.array([255], np.uint8), np.zeros(1), 1)
    assert sys.getrefcount(x) == before
    x.resize(4, refcheck=True)  # would raise BufferError while an export were still held


@pytest.mark.parametrize("bad, text", [
    (np.ones(4), "expected an array of float32, got float64"),
    (np.ones((4, 4), np.float32)[:, 1], "not contiguous"),
    ([1.0, 2.0], "must be Ptr[Float32]"),
    (b"abcd", "must be Ptr[Float32]"),
])
def test_other_arguments_get_the_checked_paths_messages(arrays, bad, text):
    with pytest.raises(TypeError, match=text.replace("[", r"\[").replace("]", r"\]")):
        arrays.total(bad, 2)
