"""The `@autotune` rows of benchmarks/run.py: each tuned function of examples/autotune_matmul.px
against its hand-picked default (the first value of each candidate list, compiled as a fixed
instance), measured in the same process, alternately, on the same inputs: the fastest of 9 runs
each, the median beside it; and the first call's time, which holds the tuning.

`python benchmarks/run.py --only autotune` prints just these rows.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# (row label, tuned entry point, default entry point, sizes: full run, --quick, --smoke)
ROWS = (
    ("matmul f32, 1 thread", "matmul_f32_auto", "matmul_f32_default", (1024, 512, 64)),
    ("matmul f32, threads", "matmul_f32_parallel_auto", "matmul_f32_parallel_default", (1024, 512, 64)),
    ("GPU tiled matmul on CPU", "gpu_matmul_auto", "gpu_matmul_default", (256, 128, 32)),
)


def alternate(first, second, repeat: int) -> tuple[list[float], list[float]]:
    """The times of two functions run one after the other `repeat` times (a drift in the
    machine's speed falls on both)."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        for fn, times in ((first, a), (second, b)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return a, b


def run(args, repeat: int) -> list[dict]:
    import pyx
    from pyx.runtime import autotune

    module = pyx.import_module("autotune_matmul", path=[str(EXAMPLES)])
    rng = np.random.default_rng(7)
    out = []
    for label, auto_name, default_name, sizes in ROWS:
        n = sizes[2] if args.smoke else (sizes[1] if args.quick else sizes[0])
        a, b = rng.standard_normal((n, n), np.float32), rng.standard_normal((n, n), np.float32)
        c_auto, c_default = np.empty((n, n), np.float32), np.empty((n, n), np.float32)
        auto, default = getattr(module, auto_name), getattr(module, default_name)
        start = time.perf_counter()
        auto(a, b, c_auto, n, n, n)  # tunes (or finds the cached choice)
        first = time.perf_counter() - start
        default(a, b, c_default, n, n, n)
        if not np.allclose(c_auto, c_default, rtol=1e-3, atol=1e-2):
            raise AssertionError(f"{label}: the tuned choice and the default disagree")
        # The fastest of 9 runs each (a loaded machine only adds time), the median beside it.
        t_default, t_auto = alternate(lambda f=default, c=c_default, n=n: f(a, b, c, n, n, n),  # noqa: B023
                                      lambda f=auto, c=c_auto, n=n: f(a, b, c, n, n, n),  # noqa: B023
                                      1 if args.smoke else 9)
        default_label, chosen = _labels(autotune, auto_name.removesuffix("_auto") + "_tuned")
        for what, times in ((f"default {default_label}", t_default), (f"tuned {chosen}", t_auto)):
            out.append({"what": f"{label} {n}: {what}, median {statistics.median(times) * 1000:.1f} ms",
                        "seconds": min(times)})
        out.append({"what": f"{label} {n}: first call, tuning included", "seconds": first})
    return out


def _labels(autotune, function: str) -> tuple[str, str]:
    """The default candidate of `function` and the choice the process's tuners made for it."""
    for tuner in reversed(autotune._attached):
        for result in reversed(tuner.results):
            d = autotune.Descriptor.parse(result.descriptor)
            if d.name == function:
                return d.label(0), d.label(result.choice) + (", cached" if result.cached else "")
    return "?", "?"
