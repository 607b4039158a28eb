"""The benchmark script runs and its kernels agree with NumPy and C (tiny sizes: a check, not a timing)."""
import subprocess
import sys

import pytest

from helpers import ROOT

pytest.importorskip("numpy")


def test_benchmark_script_smoke(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--smoke", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    report = json.loads(done.stdout)
    assert [k["agree"] for k in report["kernels"]] == [True] * len(report["kernels"])
    assert {k["benchmark"].split()[0] for k in report["kernels"]} >= {"mandelbrot", "triad", "sum", "row", "n-body",
                                                                      "sorted(key=lambda)", "sum(generator"}
    # Mojo's parallelize and the rows against CPython agree with the others (CPython runs in --smoke).
    rows = {k["benchmark"]: k for k in report["kernels"]}
    assert any("parallelize[row]" in name for name in rows)
    assert all(k["python"] is not None for name, k in rows.items() if name.split()[0] in ("sorted(key=lambda)",
                                                                                           "sum(generator"))
    # @autotune's rows: the tuned choice, the default and the first call of each tuned function of
    # examples/autotune_matmul.px (benchmarks/autotune_rows.py checks their results agree).
    assert len(report["autotune"]) == 9


def test_the_start_up_rows_alone():
    """`--startup` (issue 15: compile time, cold and warm; `--baseline DIR` adds another commit's
    package, run alternately) gives each start-up row, in CPU time, and compiles no kernel."""
    import json

    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--startup", "--smoke", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(done.stdout)["startup"]
    assert [r["what"].rsplit(", ", 1)[1] for r in rows] == ["cold", "warm"] * 3
    assert all(r["cpu_ms"]["this tree"] > 0 for r in rows)
