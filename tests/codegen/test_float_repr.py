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
    mismatches = [(e, g) for e, g in zip(expected, got) if e != g]
    assert len(got) == len(expected) and not mismatches, mismatches[:10]
