"""The whole-program table's Numba and Mojo twins (benchmarks/programs_numba, benchmarks/mojo/programs)
print exactly what their Python program prints, at the program's small size (a check, never a time).
Numba twins are skipped without Numba; Mojo twins without Mojo (`$MOJO` or `mojo` on PATH)."""
import os
import subprocess
import sys

import pytest

from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))  # benchmarks/ is not a package
import corpus
import program_peers

SIZED = {p.stem: p for p in corpus.sized_programs()}
NUMBA = sorted(p.stem for p in program_peers.NUMBA_TWINS.glob("*.py"))
MOJO = sorted(p.stem for p in program_peers.MOJO_TWINS.glob("*.mojo"))


def python_output(name: str) -> str:
    done = subprocess.run([sys.executable, str(SIZED[name])], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONHASHSEED="0"))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_twin_has_its_sized_program():
    # A twin is named after the corpus program it twins, which must mark a benchmark size, and a
    # Numba twin marks the same sizes (the table sets them both the same way).
    assert NUMBA and MOJO
    for name in NUMBA + MOJO:
        assert name in SIZED, f"{name}: no sized program benchmarks/corpus/{name}.py or examples/{name}.py"
    for name in NUMBA:
        assert program_peers.sizes(program_peers.NUMBA_TWINS / f"{name}.py") == program_peers.sizes(SIZED[name])


@pytest.mark.parametrize("name", NUMBA)
def test_numba_twin_prints_as_python(name, tmp_path):
    if not program_peers.have_numba():
        pytest.skip("numba is not installed")
    small, _ = program_peers.sizes(SIZED[name])
    twin = program_peers.numba_twin(name)
    _, _, out, status = program_peers.numba_run(twin, tmp_path, small, tmp_path / "numba-cache")
    assert status == 0
    assert out == python_output(name)


@pytest.mark.slow  # each `mojo build` takes 10-30 s here
@pytest.mark.parametrize("name", MOJO)
def test_mojo_twin_prints_as_python(name, tmp_path):
    if program_peers.mojo_command() is None:
        pytest.skip("mojo is not installed (set MOJO=/path/to/mojo)")
    small, _ = program_peers.sizes(SIZED[name])
    binary = program_peers.build_mojo(program_peers.mojo_twin(name), tmp_path)
    assert binary is not None
    done = subprocess.run([str(binary), small], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == python_output(name)


@pytest.mark.slow  # sieve at its benchmark size under CPython, pyx and Numba (cold and cached), 3 times each
def test_programs_table_has_the_peer_columns():
    if not program_peers.have_numba():
        pytest.skip("numba is not installed")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--programs", "--quick", "--json",
                           "--only", "sieve"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    (row,) = json.loads(done.stdout)
    assert row["program"] == "sieve" and row["agree"] and row["peers_agree"]
    for column in ("cpython_cpu", "pyx_cpu", "numba", "numba_cpu", "numba_cached", "numba_cached_cpu"):
        assert row[column] > 0
