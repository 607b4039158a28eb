"""A List whose buffer grows past 4 MiB asks Linux for huge pages (stdlib/collections.px,
`_advise_huge_pages`): its pages then fault in 2 MiB at a time instead of 4 KiB, which took a
third of reverse-complement's run (a List of 2 million one-character Strings is 64 MB).
Seen from the program itself: the process's AnonHugePages grows while the list fills."""
from pathlib import Path

import pytest

from helpers import run_source

THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")

PROGRAM = '''
def huge_kib() -> int:
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("AnonHugePages:"):
                return int(line.split()[1])
    return 0


def main():
    before = huge_kib()
    xs = []
    for i in range(2000000):
        xs.append("ACGT"[i % 4])
    after = huge_kib()
    print(len(xs), xs[-1], after - before >= 2048)


if __name__ == "__main__":
    main()
'''


@pytest.mark.skipif(not THP.exists() or "[never]" in THP.read_text() or not Path("/proc/self/smaps_rollup").exists(),
                    reason="no transparent huge pages on this machine")
def test_a_large_list_is_backed_by_huge_pages(tmp_path):
    result = run_source(PROGRAM, tmp_path, "huge.py")
    assert (result.status, result.stdout) == (0, "2000000 T True\n"), result.stderr
