#!/usr/bin/env python3
"""Text programs timed whole-process, pyx against CPython running the same file.

    python benchmarks/text/run.py [--repeat N]

For each `*.px` here (written in the common subset, so CPython runs it too) it prints the
median wall time of `python FILE` and of `pyx run FILE` with the compiled code already cached
(compiled once first), and the run time `pyx run --time` reports for the program alone. Both
must print the same, or the row says so.
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def timed(command: list[str]) -> tuple[float, str, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'program':<12} {'CPython s':>10} {'pyx s':>8} {'pyx run s':>10}  same output")
    for program in sorted(HERE.glob("*.px")):
        subprocess.run(["pyx", "run", str(program)], capture_output=True)  # compile once: cached after
        python = [timed([sys.executable, str(program)]) for _ in range(args.repeat)]
        pyx = [timed(["pyx", "run", "--time", str(program)]) for _ in range(args.repeat)]
        runs = [float(m.group(1)) / 1000 for _, _, err in pyx for m in [re.search(r"run ([0-9.]+) ms", err)] if m]
        same = python[0][1] == pyx[0][1]
        print(f"{program.stem:<12} {statistics.median(t for t, _, _ in python):>10.3f} "
              f"{statistics.median(t for t, _, _ in pyx):>8.3f} "
              f"{statistics.median(runs) if runs else float('nan'):>10.3f}  {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
