"""`pyx.install()` carries into worker processes: a Python module that does `import stats` (a
.px module, found through the hook) works in the workers of each multiprocessing start
method, spawn and forkserver included, which start fresh interpreters. Each run is a
process of its own, bounded by a timeout."""
import os
import subprocess
import sys
import textwrap

import pytest

MAIN = textwrap.dedent("""
    import concurrent.futures
    import multiprocessing
    import sys

    import pyx

    if __name__ == "__main__":
        pyx.install()  # here, not at the top: the workers do not run this block
        import helpers_in_workers

        context = multiprocessing.get_context(sys.argv[1])
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
            print(list(pool.map(helpers_in_workers.work, [[1.0, 2.0], [3.0]])))
""")


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_a_python_module_importing_a_px_module_works_in_workers(tmp_path, method):
    (tmp_path / "stats_in_workers.px").write_text("def total(xs):\n    s = 0.0\n    for x in xs:\n"
                                                  "        s += x\n    return s\n")
    (tmp_path / "helpers_in_workers.py").write_text("import stats_in_workers\n\n\ndef work(xs):\n"
                                                    "    return stats_in_workers.total(xs)\n")
    (tmp_path / "main.py").write_text(MAIN)
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "main.py", method], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == "[3.0, 3.0]\n"
