"""math.exp on Float32 SIMD lanes is computed in vector registers: it must stay within 1 ulp."""
import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from helpers import ROOT  # noqa: E402

SCRIPT = """
import sys, numpy as np, pyx
m = pyx.import_module("vector_exp", path=[sys.argv[1]])
rng = np.random.default_rng(7)
x = np.concatenate([rng.uniform(-87.3, 88.72, 300_000), np.linspace(-87.33, 88.722, 20_000),
                    [0.0, -0.0, np.inf, -np.inf, np.nan, 89.0, -90.0, 1.0]]).astype(np.float32)
x = np.concatenate([x, np.zeros((16 - len(x) % 16) % 16, np.float32)])
out = np.empty_like(x)
m.exp_all(x, out, len(x))
ref = np.exp(x.astype(np.float64))
ok = (ref > 1.2e-38) & (ref < 3.4e38)
err = np.abs(out[ok].astype(np.float64) - ref[ok]) / np.spacing(np.abs(ref[ok]).astype(np.float32)).astype(np.float64)
special = out[-16:-8] if len(x) % 16 == 0 else None
print(err.max(), np.isinf(out[np.isposinf(x)]).all(), (out[np.isneginf(x)] == 0).all(),
      np.isnan(out[np.isnan(x)]).all())
"""


def test_vector_exp_is_within_one_ulp(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "tests" / "codegen")], capture_output=True,
                          text=True, env={**os.environ, "PYX_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    worst, inf_ok, zero_ok, nan_ok = done.stdout.split()
    assert float(worst) < 1.0 and inf_ok == zero_ok == nan_ok == "True"
