"""Random bytearrays through bytearray operations against CPython: built from bytes, a list of
ints and a count; `append`/`extend`/`insert`/`+=` (with bytes, lists and other bytearrays, and
with values outside range(0, 256), so CPython's ValueError and what it leaves unchanged are
compared too), `ba[i] = x` (any index, any value), `ba[a:b:c] = x` and `del` of a slice, `ba += ba`
(CPython's BufferError), `pop` (any index, an empty one), `remove`,
`reverse`, `copy`, `clear`, indexing, slicing with steps, iteration, `in`, `==` with bytes both
ways, ordering, `+`, `*`, `hex`, `decode` (valid and invalid UTF-8), `bytes(ba)` and `repr` (every
byte value, so every escape and quote CPython's bytearray repr writes). Each example is one
program of many lines, run by pyx and by CPython, which must print the same."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

interesting = st.sampled_from([0, 9, 10, 13, 32, 34, 39, 92, 97, 98, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0x82, 0xFF])
data = st.binary(max_size=8) | st.lists(interesting, max_size=8).map(bytes)
value = st.integers(-2, 257) | interesting
index = st.integers(-10, 10)

SHOW = '''def show(a: bytes, b: bytes, values: list[int], i: int, v: int) -> None:
    x = bytearray(a)
    y = bytearray(values) if all(0 <= n < 256 for n in values) else bytearray(len(values))
    print(x, repr(y), len(x), bool(y), bytes(x) == a, x == a, a == x, x != b, b != x, x == y, x < y, x >= y)
    print([n for n in x], x[1:], x[::-1], x[i:], x[:i:2], a in x, x + b, x + y, x * 2, x.hex())
    try:
        print(x[i], i in x, v in x, v in a)
    except IndexError as e:
        print("IndexError:", e)
    except ValueError as e:
        print("ValueError:", e)
    try:
        x[i] = v
        print(x)
    except ValueError as e:
        print("ValueError:", e, x)
    except IndexError as e:
        print("IndexError:", e, x)
    try:
        x.append(v)
        print(x)
    except ValueError as e:
        print("ValueError:", e, x)
    try:
        x.extend(values)
        print(x)
    except ValueError as e:
        print("ValueError:", e, x)
    try:
        x.insert(i, v)
        print(x)
    except ValueError as e:
        print("ValueError:", e, x)
    try:
        print(x.pop(i), x)
    except IndexError as e:
        print("IndexError:", e, x)
    try:
        x.remove(v)
        print(x)
    except ValueError as e:
        print("ValueError:", e, x)
    x += b
    x.extend(y)
    try:
        y += y
    except BufferError as e:
        print("BufferError:", e, y)
    x[i:i + 2] = b
    try:
        y[::2] = values
    except ValueError as e:
        print("ValueError:", e, y)
    del y[i::3]
    print(x, y)
    z = x.copy()
    z.reverse()
    print(x, z, x == z, z.find(a[:1]) if a else -1, x.count(b"a"))
    try:
        print(repr(x.decode()), x.decode("latin-1"))
    except UnicodeDecodeError as e:
        print("UnicodeDecodeError:", e)
    z.clear()
    try:
        z.pop()
    except IndexError as e:
        print("IndexError:", e, z, len(z))


'''


def _program(cases, pyx: bool) -> str:
    body = "\n".join(f"    show({a!r}, {b!r}, {values!r}, {i!r}, {v!r})" for a, b, values, i, v in cases)
    return SHOW + f"def main():\n{body}\n\n\n" + ("" if pyx else "main()\n")


def _check(cases, tmp_path):
    prints_as_python(_program(cases, pyx=True), _program(cases, pyx=False), tmp_path)


_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
_CASE = st.tuples(data, data, st.lists(value, max_size=6), index, value)


@settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(_CASE, min_size=1, max_size=8))
def test_bytearray_operations_match_python(tmp_path, cases):
    _check(cases, tmp_path)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(_CASE, min_size=10, max_size=30))
def test_many_bytearray_operations_match_python(tmp_path, cases):
    _check(cases, tmp_path)
