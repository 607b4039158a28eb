"""pyx functions under Dask: a LocalCluster of worker processes (the functions pickled by
reference, each worker importing the module itself) and the threaded scheduler."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("distributed")
np = pytest.importorskip("numpy")

from helpers import ROOT, import_source  # noqa: E402


def test_the_dask_example_runs_pyx_functions_in_worker_processes(tmp_path):
    example = ROOT / "examples" / "interop"
    done = subprocess.run([sys.executable, str(example / "dask_app.py")], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYX_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == (example / "dask_app.out").read_text()


def test_dask_threads_call_one_generic_function_at_once(tmp_path, monkeypatch):
    import dask

    m = import_source("threaded", "def norm2(xs):\n    s = 0.0\n    for x in xs:\n        s += x * x\n    return s\n",
                      tmp_path, monkeypatch)
    parts = [np.arange(k, dtype=np.float64) for k in range(1, 9)]
    # Eight tasks on four threads ask for the same instance at once: it is compiled once.
    results = dask.compute(*[dask.delayed(m.norm2)(p) for p in parts], scheduler="threads", num_workers=4)
    assert list(results) == [float((p * p).sum()) for p in parts]
    assert m.norm2.signatures == ["Span[Float64]"]
