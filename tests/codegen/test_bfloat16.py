"""BFloat16 against a reference written from its definition (the top 16 bits of a Float32, rounded to
nearest even): every one of its 65,536 values converts, prints and computes as the reference says."""
import math
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from helpers import compiled_module
from pyx.types import bfloat16_bits, bfloat16_from_bits, bfloat16_round

np = pytest.importorskip("numpy")

KERNELS = '''
fn from64(src: Ptr[Float64], dst: Ptr[UInt16], n: Int):
    var out = dst.bitcast[BFloat16]()
    for i in range(n):
        out[i] = BFloat16(src[i])


fn from32(src: Ptr[Float32], dst: Ptr[UInt16], n: Int):
    var out = dst.bitcast[BFloat16]()
    for i in range(n):
        out[i] = BFloat16(src[i])


fn from_int(src: Ptr[Int], dst: Ptr[UInt16], n: Int):
    var out = dst.bitcast[BFloat16]()
    for i in range(n):
        out[i] = BFloat16(src[i])


fn widen(src: Ptr[UInt16], dst: Ptr[Float32], n: Int):
    var x = src.bitcast[BFloat16]()
    for i in range(n):
        dst[i] = Float32(x[i])


fn arith(a: Ptr[UInt16], b: Ptr[UInt16], out: Ptr[UInt16], n: Int, op: Int):
    var x = a.bitcast[BFloat16]()
    var y = b.bitcast[BFloat16]()
    var r = out.bitcast[BFloat16]()
    for i in range(n):
        if op == 0:
            r[i] = x[i] + y[i]
        elif op == 1:
            r[i] = x[i] - y[i]
        elif op == 2:
            r[i] = x[i] * y[i]
        else:
            r[i] = x[i] / y[i]


fn arith8(a: Ptr[UInt16], b: Ptr[UInt16], out: Ptr[UInt16], n: Int, op: Int):
    """The same through SIMD[bfloat16, 8]: the vector path rounds lane by lane alike."""
    var x = a.bitcast[BFloat16]()
    var y = b.bitcast[BFloat16]()
    var r = out.bitcast[BFloat16]()
    for i in range(0, n, 8):
        var u = x.load[8](i)
        var v = y.load[8](i)
        if op == 0:
            r.store(i, u + v)
        elif op == 1:
            r.store(i, u - v)
        elif op == 2:
            r.store(i, u * v)
        else:
            r.store(i, u / v)


fn less(a: Ptr[UInt16], b: Ptr[UInt16], out: Ptr[Bool], n: Int):
    var x = a.bitcast[BFloat16]()
    var y = b.bitcast[BFloat16]()
    for i in range(n):
        out[i] = x[i] < y[i]


fn show(src: Ptr[UInt16], n: Int):
    var x = src.bitcast[BFloat16]()
    for i in range(n):
        print(x[i])
'''

EVERY = np.arange(2**16, dtype=np.uint32).astype(np.uint16)
OPS = [lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b, lambda a, b: a / b]


@pytest.fixture(scope="module")
def bf(tmp_path_factory):
    with compiled_module("bf16_kernels", KERNELS, tmp_path_factory) as module:
        yield module


def values_of(bits) -> list[float]:
    return [bfloat16_from_bits(int(b)) for b in bits]


def same_bits(got, expected_values) -> list:
    """Mismatches between BFloat16 bits and the values expected (every NaN counts as the same)."""
    out = []
    for g, e in zip(got, expected_values, strict=True):
        value = bfloat16_from_bits(int(g))
        if not (math.isnan(e) and math.isnan(value)) and int(g) != bfloat16_bits(e):
            out.append((hex(int(g)), e))
    return out


def test_every_bfloat16_widens_exactly_and_converts_back(bf):
    wide = np.zeros(len(EVERY), np.float32)
    bf.widen(EVERY, wide, len(EVERY))
    assert [float(w) for w in wide] == pytest.approx(values_of(EVERY), nan_ok=True, rel=0, abs=0)
    back = np.zeros(len(EVERY), np.uint16)
    bf.from32(wide, back, len(EVERY))
    finite = ~np.isnan(wide)
    assert np.array_equal(back[finite], EVERY[finite])
    assert np.all((back[~finite] & 0x7FC0) == 0x7FC0)  # NaNs stay quiet NaNs


def test_float64_and_float32_round_to_nearest_even(bf):
    rng = np.random.default_rng(7)
    # Random doubles across the whole range, ties and near-ties between neighbouring BFloat16s, and
    # values around the largest finite one and the subnormals.
    random = rng.integers(0, 2**64, size=20000, dtype=np.uint64).view(np.float64)
    pairs = zip(values_of(EVERY[:0x7F7F]), values_of(EVERY[1:0x7F80]), strict=True)
    middles = np.array([(a + b) / 2 for a, b in pairs])
    nudged = np.concatenate([middles, np.nextafter(middles, 0), np.nextafter(middles, np.inf)])
    edges = np.array([3.3895313892515355e38, 3.3961e38, 3.4e38, 1e39, 9.1835e-41, 4.6e-41, 4.5917e-41, 1e-45])
    values = np.concatenate([random, nudged, -nudged, edges, -edges])
    out = np.zeros(len(values), np.uint16)
    bf.from64(values, out, len(values))
    assert not same_bits(out, [float(v) for v in values])

    with np.errstate(over="ignore", invalid="ignore"):
        singles = values.astype(np.float32)
    bf.from32(singles, out, len(values))
    assert not same_bits(out, [float(v) for v in singles])


def test_integers_convert_through_float64(bf):
    ints = np.array([0, 1, -1, 255, 256, 257, 258, 259, 65535, -65535, 2**40 + 2**32, -(2**52) - 2**44], np.int64)
    out = np.zeros(len(ints), np.uint16)
    bf.from_int(ints, out, len(ints))
    assert not same_bits(out, [float(v) for v in ints])


@pytest.mark.parametrize("op", range(4), ids=["add", "sub", "mul", "div"])
def test_arithmetic_is_correctly_rounded(bf, op):
    rng = np.random.default_rng(op)
    a = rng.integers(0, 2**16, size=40000, dtype=np.uint32).astype(np.uint16)
    b = np.concatenate([rng.integers(0, 2**16, size=20000, dtype=np.uint32).astype(np.uint16),
                        (a[20000:] + rng.integers(-300, 300, size=20000)).astype(np.uint16)])  # close values
    if op == 3:
        b[(b & 0x7FFF) == 0] = 0x3F80  # dividing by zero raises ZeroDivisionError, as in Python
    # Float64 holds these sums and products exactly, and a quotient closely enough that rounding it
    # once more to BFloat16 is the correctly rounded result.
    expected = [OPS[op](u, v) for u, v in zip(values_of(a), values_of(b), strict=True)]
    for kernel in (bf.arith, bf.arith8):
        out = np.zeros(len(a), np.uint16)
        kernel(a, b, out, len(a), op)
        assert not same_bits(out, expected), kernel


def test_comparisons(bf):
    rng = np.random.default_rng(11)
    a = rng.integers(0, 2**16, size=20000, dtype=np.uint32).astype(np.uint16)
    b = rng.integers(0, 2**16, size=20000, dtype=np.uint32).astype(np.uint16)
    out = np.zeros(len(a), np.bool_)
    bf.less(a, b, out, len(a))
    assert list(out) == [u < v for u, v in zip(values_of(a), values_of(b), strict=True)]


def bfloat16_repr(bits: int) -> str:
    """The fewest significant digits that read back to this BFloat16 (the nearest such decimal when
    several have that length, the even one at a tie, as printf rounds), laid out as Python lays out a
    float's repr."""
    x = bfloat16_from_bits(bits)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    for digits in range(1, 10):
        exponent = int(f"{x:.{digits - 1}e}".split("e")[1])
        unit = 10.0 ** (exponent - digits + 1)
        nearest = round(x / unit)
        fits = [n for n in (nearest - 1, nearest, nearest + 1)
                if bfloat16_round(float(f"{n}e{exponent - digits + 1}")) == x]
        if fits:
            scale = Fraction(10) ** (exponent - digits + 1)
            n = min(fits, key=lambda n: (abs(n * scale - Fraction(x)), n % 2))  # a tie goes to the even digit
            text = f"{float(f'{n}e{exponent - digits + 1}'):.{digits - 1}e}"
            exp = int(text.split("e")[1])
            if -4 <= exp < 16:
                decimals = max(0, digits - 1 - exp)
                return f"{float(text):.{decimals}f}" + (".0" if decimals == 0 else "")
            return f"{float(text):.{digits - 1}e}"
    raise AssertionError(x)


SHOW_SCRIPT = '''
import sys, numpy as np, pyx
m = pyx.import_module("bf16_kernels", path=[sys.argv[1]])
every = np.arange(2**16, dtype=np.uint32).astype(np.uint16)
m.show(every, len(every))
'''


def test_every_bfloat16_prints_its_shortest_digits(tmp_path):
    (tmp_path / "bf16_kernels.px").write_text(KERNELS)
    done = subprocess.run([sys.executable, "-c", SHOW_SCRIPT, str(tmp_path)], capture_output=True, text=True,
                          env={**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    got = done.stdout.splitlines()
    assert len(got) == 2**16
    mismatches = [(hex(b), bfloat16_repr(b), g) for b, g in enumerate(got) if bfloat16_repr(b) != g]
    assert not mismatches, mismatches[:10]
