"""pyx functions on a Dask cluster of worker processes: `python examples/interop/dask_app.py`.

Needs `pip install "dask[distributed]"`. The functions pickle by reference (module name, file,
options), so each worker imports cluster.px itself, from the disk cache after the first.
"""
import sys
from pathlib import Path

import pyx

sys.path.insert(0, str(Path(__file__).parent))
cluster = pyx.import_module("cluster")


def main() -> None:
    from dask.distributed import Client, LocalCluster

    chunks = [[1.0, 2.0, 3.0], [4.0, 5.0], [6.5]]
    texts = [["a", "b", "a"], ["b", "c"]]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            Client(lc) as client:
        print(client.gather(client.map(cluster.mean, chunks)))
        merged: dict[str, int] = {}
        for counts in client.gather(client.map(cluster.word_counts, texts)):
            for word, n in counts.items():
                merged[word] = merged.get(word, 0) + n
        print(merged)


if __name__ == "__main__":
    main()
