"""pyx prints floats with CPython's repr: checked on random bit patterns and at every power of two."""
import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

SHOW = '''
fn show64(p: Ptr[Float64], n: Int):
    for i in range(n):
        print(p[i])


fn show32(p: Ptr[Float32], n: Int):
    for i in range(n):
        print(p[i])


fn show16(p: Ptr[Float16], n: Int):
    for i in range(n):
        print(p[i])
'''

SCRIPT = '''
import sys, numpy as np, pyx
m = pyx.import_module("show", path=[sys.argv[1]])
bits = np.random.default_rng(int(sys.argv[2])).integers(0, 2**63, size=20000, dtype=np.uint64)
bits[::2] |= np.uint64(1 << 63)
values = bits.view(np.float64)
values = np.concatenate([values, np.ldexp(1.0, np.arange(-1074, 1024)), -np.ldexp(1.0, np.arange(-1074, 1024))])
m.show64(values, len(values))
'''


def test_float64_repr_matches_cpython(tmp_path):
    (tmp_path / "show.px").write_text(SHOW)
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), "1"], capture_output=True, text=True,
                          env={**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    bits = np.random.default_rng(1).integers(0, 2**63, size=20000, dtype=np.uint64)
    bits[::2] |= np.uint64(1 << 63)
    values = np.concatenate([bits.view(np.float64), np.ldexp(1.0, np.arange(-1074, 1024)),
                             -np.ldexp(1.0, np.arange(-1074, 1024))])
    expected = [repr(float(v)) for v in values]
    got = done.stdout.splitlines()
    mismatches = [(e, g) for e, g in zip(expected, got, strict=True) if e != g]
    assert len(got) == len(expected) and not mismatches, mismatches[:10]


SCRIPT_NARROW = '''
import sys, numpy as np, pyx
sys.path.insert(0, sys.argv[2])
from test_float_repr import narrow_values
m = pyx.import_module("show", path=[sys.argv[1]])
values = narrow_values(int(sys.argv[3]))
getattr(m, "show" + sys.argv[3])(values, len(values))
'''


def narrow_values(bits: int):
    """Every Float16; for Float32, 20,000 random bit patterns and every signed power of two."""
    if bits == 16:
        return np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    random = np.random.default_rng(2).integers(0, 2**32, size=20000, dtype=np.uint64).astype(np.uint32)
    powers = np.ldexp(np.float32(1.0), np.arange(-149, 128)).astype(np.float32)
    return np.concatenate([random.view(np.float32), powers, -powers])


def narrow_repr(v) -> str:
    """Python's repr layout applied to the shortest digits that read back to v in its own type."""
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "-inf" if v < 0 else "inf"
    text = np.format_float_scientific(v, unique=True, trim="-")
    mantissa, exponent = text.split("e")
    digits, exponent, decimal = len(mantissa.lstrip("-").replace(".", "")), int(exponent), float(text)
    if -4 <= exponent < 16:
        decimals = max(0, digits - 1 - exponent)
        return f"{decimal:.{decimals}f}" + (".0" if decimals == 0 else "")
    return f"{decimal:.{digits - 1}e}"


@pytest.mark.parametrize("bits", [16, 32])
def test_narrow_floats_print_their_own_shortest_digits(tmp_path, bits):
    """Float16 and Float32 print the fewest digits that read back to the same value in their own
    type, laid out like Python's float repr."""
    (tmp_path / "show.px").write_text(SHOW)
    done = subprocess.run([sys.executable, "-c", SCRIPT_NARROW, str(tmp_path), os.path.dirname(__file__), str(bits)],
                          capture_output=True, text=True, env={**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    values = narrow_values(bits)
    got = done.stdout.splitlines()
    assert len(got) == len(values)
    mismatches = [(narrow_repr(v), g) for v, g in zip(values, got, strict=True) if narrow_repr(v) != g]
    assert not mismatches, mismatches[:10]
    assert all(type(v)(float(g)) == v for v, g in zip(values, got, strict=True) if np.isfinite(v))
