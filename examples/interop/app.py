"""An ordinary Python program using a pyx module: `python examples/interop/app.py`."""
import sys
from pathlib import Path

import numpy as np

import pyx

sys.path.insert(0, str(Path(__file__).parent))
stats = pyx.import_module("stats")

data = np.array([3.0, -4.0, 1.5, 0.5])
print(stats.summarize(data, len(data)))
stats.normalize(data, len(data), scale=2.0)
print(data)

a = np.arange(20, dtype=np.float32)
print(stats.dot(a, a, len(a)), float(np.dot(a, a)))

hits = stats.above(np.array([0.5, 2.5, -1.0, 3.0]), 1.0)  # a pyx List comes back as an array
print(hits, hits.dtype)

grid = np.arange(12.0).reshape(3, 4)
print(stats.column_means(grid), stats.column_means(grid.T))  # a Buffer takes views as they are
print(stats.column_means(grid[::2, 1:3]), grid[::2, 1:3].mean(axis=0))

print(stats.report(np.array([1.0, 2.0, 4.5])))  # pyx code that calls Python's json module

try:
    stats.summarize(np.arange(4), 4)  # int64, not float64
except TypeError as exc:
    print("TypeError:", exc)

pyx.install()  # from now on `import stats2` would find stats2.px too
import stats as again  # noqa: E402  (the hook finds the already-imported module)

print(again.summarize is not None)
