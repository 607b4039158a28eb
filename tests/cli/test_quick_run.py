"""A warm, plain `pyx run FILE [ARGS]` (lang/quick_run.py) starts the cached program without
importing the compiler, and does exactly what the full driver does: the same cache entry (the
same key), the same output, exit status and traceback; anything else is left to the full driver."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from helpers import captured_fds, run_cli

PROGRAM = textwrap.dedent('''
    import sys


    def main():
        words = "to be, or not to be".split()
        print(len(words), words[-1].upper(), sys.argv[1:])
        print(1 // (len(words) - 6))


    if __name__ == "__main__":
        main()
''')

# What the driver imports that a warm start does without (each costs milliseconds).
HEAVY = ("argparse", "dataclasses", "pyx.cli", "pyx.diagnostics", "pyx.pipeline", "lark", "llvmlite.binding")

needs_cc = pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler to link with")


@pytest.fixture()
def program(tmp_path):
    path = tmp_path / "prog.px"
    path.write_text(PROGRAM)
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    env.pop("PYX_NO_CACHE", None)
    return path, env


def pyx_command(path, env, *args):
    """`python -X importtime -m pyx run prog.px ARGS`: (status, stdout, stderr without the import
    times, the modules imported)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "pyx", "run", path.name, *args],
                          capture_output=True, text=True, env=env, cwd=path.parent)
    lines = done.stderr.splitlines(keepends=True)
    imported = {line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")}
    stderr = "".join(line for line in lines if not line.startswith("import time:"))
    return done.returncode, done.stdout, stderr, imported


@needs_cc
def test_a_warm_plain_run_imports_no_compiler_and_runs_the_same(program):
    path, env = program
    cold = pyx_command(path, env, "a", "b")
    warm = pyx_command(path, env, "a", "b")
    assert cold[:3] == warm[:3]
    status, out, err, _ = warm
    assert (status, out) == (1, "6 BE ['a', 'b']\n")
    assert err.endswith("ZeroDivisionError: integer division or modulo by zero\n")
    assert "pyx.cli" in cold[3]  # the cold start compiles
    assert not set(HEAVY) & warm[3], sorted(set(HEAVY) & warm[3])


@needs_cc
def test_the_quick_path_finds_the_entry_the_full_driver_stored(tmp_path, monkeypatch):
    """The key hashes the text as the compiler reads it: a byte order mark dropped, CRLF and a lone
    CR read as newlines. The quick path must make the same key of the same bytes."""
    from pyx import quick_run

    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PYX_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "crlf.px"
    path.write_bytes(("\ufeff" + PROGRAM.replace("\n", "\r\n")).encode())
    full = run_cli("run", "crlf.px", "x")
    assert (full.status, full.stdout) == (1, "6 BE ['x']\n"), full.stderr
    with captured_fds() as box:
        status = quick_run.try_run(["run", "crlf.px", "x"])
    assert (status, box["stdout"], box["stderr"]) == (full.status, full.stdout, full.stderr)
    monkeypatch.setenv("PYX_DEBUG_LEAKS", "1")  # --debug-leaks by default: not the plain run's options
    with captured_fds() as box:
        assert quick_run.try_run(["run", "crlf.px", "x"]) is None
    assert box == {"stdout": "", "stderr": ""}


def test_anything_but_a_plain_run_is_left_to_the_driver(tmp_path, monkeypatch):
    from pyx import quick_run
    from pyx.options import CompileOptions

    assert quick_run.plain_run_arguments(["run", "p.px", "a", "-O1"]) == ("p.px", ["a", "-O1"])  # the program's
    for argv in (["run", "-O2", "p.px"], ["run", "--time", "p.px"], ["run", "p.px", "--", "a"], ["check", "p.px"],
                 ["run"]):
        assert quick_run.plain_run_arguments(argv) is None
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert quick_run.plain_run_options() == repr(CompileOptions())
    path = tmp_path / "never_run.px"
    path.write_text(PROGRAM)
    with captured_fds() as box:
        assert quick_run.try_run(["run", str(path)]) is None  # a miss: nothing ran, nothing printed
        assert quick_run.try_run(["run", str(tmp_path / "missing.px")]) is None
    assert box == {"stdout": "", "stderr": ""}


@needs_cc
def test_a_replaced_library_is_not_loaded_by_the_quick_path(program, monkeypatch):
    """The library's bytes are checked against the digest its sealed entry records (as
    runtime/native.py does for the full driver): a changed one is not loaded, and the full
    driver runs the cached object code through LLVM instead."""
    from pyx import quick_run

    path, env = program
    assert pyx_command(path, env)[0] == 1
    (library,) = (path.parent / "cache").glob("prog.*.so")
    library.write_bytes(library.read_bytes() + b"\0")
    for name in ("PYX_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, env[name])
    monkeypatch.chdir(path.parent)
    with captured_fds() as box:
        assert quick_run.try_run(["run", path.name]) is None
    assert box == {"stdout": "", "stderr": ""}
    status, out, _, imported = pyx_command(path, env)
    assert (status, out) == (1, "6 BE []\n") and "pyx.cli" in imported
