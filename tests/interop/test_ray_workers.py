"""pyx functions in Ray's worker processes: passed to a task as an argument, or captured by the
task, each pickled by reference and rebuilt from the disk cache in the worker (docs/interop.md,
"Pickling, processes and clusters"). Ray is not installed by default: skipped without it."""
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("ray")

MODULE = "def total(n: int) -> int:\n    s = 0\n    for i in range(n):\n        s += i * i\n    return s\n"

SCRIPT = textwrap.dedent('''
    import os, sys
    import ray
    import pyx

    m = pyx.import_module("raystats", path=[sys.argv[1]])
    total = m.total


    @ray.remote
    def apply(f, n):
        return f(n), os.getpid()


    @ray.remote
    def captured(n):
        return total(n) + 1


    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        results = ray.get([apply.remote(m.total, n) for n in (10, 100, 1000)], timeout=240)
        print([r for r, _ in results], all(pid != os.getpid() for _, pid in results))
        print(ray.get(captured.remote(10), timeout=240))
    finally:
        ray.shutdown()
''')


def test_pyx_functions_run_in_ray_worker_processes(tmp_path):
    (tmp_path / "raystats.px").write_text(MODULE)
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache"),
                                            "RAY_USAGE_STATS_ENABLED": "0"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == ["[285, 328350, 332833500] True", "286"]
