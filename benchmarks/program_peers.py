"""The Numba and Mojo columns of the whole-program table (benchmarks/run.py --programs).

A corpus program (benchmarks/corpus.py's sized programs) has a Numba twin when
benchmarks/programs_numba/NAME.py exists and a Mojo twin when benchmarks/mojo/programs/NAME.mojo
exists: the same program as a Numba or a Mojo user writes it, printing exactly what the Python program
prints. Programs built on classes have no Numba twin: Numba compiles no Python classes.

- Numba twins carry the Python program's `NAME = small  # benchmark size: big` line and are run like
  it (`python twin.py`), whole process, so Numba pays its import and its JIT compile. Two figures:
  cold (an empty Numba cache: every `@njit` compiles) and cached (`@njit(cache=True)` functions load
  from a cache a first run filled, the fair comparison with pyx's warm cache).
- Mojo twins read the size from their first argument (the Python program's small size when absent)
  and are built once with `mojo build -O3 --fp-mode contract=off` (Mojo fuses `a * b + c` into one
  FMA by default, which changes the last digits; Python, Numba and pyx round each operation), then
  timed as binaries. Mojo is found as benchmarks/run.py finds it: `$MOJO`, or `mojo` on PATH.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import corpus

HERE = Path(__file__).resolve().parent
NUMBA_TWINS = HERE / "programs_numba"
MOJO_TWINS = HERE / "mojo" / "programs"


def numba_twin(name: str) -> Path | None:
    path = NUMBA_TWINS / f"{name}.py"
    return path if path.exists() else None


def mojo_twin(name: str) -> Path | None:
    path = MOJO_TWINS / f"{name}.mojo"
    return path if path.exists() else None


def sizes(program: Path) -> tuple[str, str]:
    """The (small, big) sizes marked in a program."""
    m = corpus.SIZE.search(program.read_text())
    return m["small"], m["big"]


def have_numba() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def mojo_command() -> str | None:
    return os.environ.get("MOJO") or shutil.which("mojo")


def build_mojo(source: Path, directory: Path) -> Path | None:
    """The twin built as a binary in `directory`, or None (no Mojo, or the build failed)."""
    mojo = mojo_command()
    if mojo is None:
        return None
    binary = directory / source.stem
    done = subprocess.run([mojo, "build", "-O3", "--fp-mode", "contract=off", str(source), "-o", str(binary)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(f"(mojo build of {source.name} failed: {done.stderr.strip()[-300:]})", file=sys.stderr)
        return None
    return binary


def numba_run(twin: Path, directory: Path, size: str, cache_dir: Path) -> tuple[float, float, str, int]:
    """One whole-process run of a Numba twin at `size`, with Numba's cache in `cache_dir`."""
    program = directory / "numba" / twin.name
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(corpus.SIZE.sub(lambda m: f"{m['name']} = {size}", twin.read_text(), count=1))
    env = dict(os.environ, PYTHONHASHSEED="0", NUMBA_CACHE_DIR=str(cache_dir))
    return corpus.run_timed((sys.executable, str(program)), env)


def time_peers(row: dict, path: Path, directory: Path, repeat: int) -> None:
    """Adds the Numba (cold and cached) and Mojo columns to a whole-program row of corpus.time_program,
    whose `output` is what CPython printed at the benchmark size. A peer without a twin, or not
    installed, stays None."""
    name, expected = path.stem, row.get("output")
    _, big = sizes(path)
    agree = []
    twin = numba_twin(name)
    if twin is not None and have_numba():
        cold = []
        for i in range(repeat):  # a fresh, empty cache each time: every @njit compiles
            cold.append(numba_run(twin, directory, big, directory / f"numba-cold-{name}-{i}"))
        warm_dir = directory / f"numba-warm-{name}"
        numba_run(twin, directory, big, warm_dir)  # fills the cache
        warm = [numba_run(twin, directory, big, warm_dir) for _ in range(repeat)]
        row.update(numba=statistics.median(r[0] for r in cold), numba_cpu=statistics.median(r[1] for r in cold),
                   numba_cached=statistics.median(r[0] for r in warm),
                   numba_cached_cpu=statistics.median(r[1] for r in warm))
        agree += [r[3] == 0 and r[2] == expected for r in cold + warm]
    source = mojo_twin(name)
    if source is not None and mojo_command() is not None:
        with tempfile.TemporaryDirectory() as build_dir:
            binary = build_mojo(source, Path(build_dir))
            if binary is not None:
                runs = [corpus.run_timed((str(binary), big)) for _ in range(repeat)]
                row.update(mojo=statistics.median(r[0] for r in runs), mojo_cpu=statistics.median(r[1] for r in runs))
                agree += [r[3] == 0 and r[2] == expected for r in runs]
    row["peers_agree"] = all(agree) if agree else None
