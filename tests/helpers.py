"""Run pyx programs in this process and capture what they write to the file descriptors.

Compiled code writes with C stdio straight to fd 1 and fd 2, below Python's sys.stdout,
so capturing means pointing those descriptors at files for the duration of the run.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Result:
    status: int
    stdout: str
    stderr: str


@contextlib.contextmanager
def captured_fds():
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        # Python-level writes (diagnostics) must land in the same files, in order.
        py_out, py_err = sys.stdout, sys.stderr
        # Not a `with`: they stay sys.stdout/sys.stderr until the finally below flushes and drops them;
        # closefd=False leaves descriptors 1 and 2 open, so closing them would release nothing.
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        box = {}
        try:
            yield box
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.stdout, sys.stderr = py_out, py_err
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            out.seek(0)
            err.seek(0)
            box["stdout"] = out.read().decode()
            box["stderr"] = err.read().decode()


def run_pyx(path: str | Path, *options: str) -> Result:
    """`pyx run` in-process (the CLI entry point, so exit codes and rendering are the real ones)."""
    from pyx.cli import main

    with captured_fds() as box:
        status = main(["run", *options, str(path)])
    return Result(status, box["stdout"], box["stderr"])


def run_cli(*argv: str) -> Result:
    from pyx.cli import main

    with captured_fds() as box:
        try:
            status = main(list(argv))
        except SystemExit as exc:  # argparse usage errors
            status = exc.code
    return Result(status, box["stdout"], box["stderr"])


def run_source(text: str, tmp_path: Path, name: str = "prog.px", *options: str) -> Result:
    path = tmp_path / name
    path.write_text(text)
    return run_pyx(path, *options)


# Emits `pyx build` writes as bytes, to a file beside the source; the others it prints.
_BINARY_EMITS = ("obj", "spirv", "exe")


def build_source(text: str, tmp_path: Path, emit: str, *options: str, name: str = "prog.px") -> Result:
    """`pyx build --emit=EMIT OPTIONS` (in-process, the CLI's own exit codes and diagnostics) of `text`
    written to tmp_path/NAME. A text emit (ast, ir, llvm, asm, ptx) is the result's stdout; a binary
    one is written beside the source (NAME with the emit as its suffix)."""
    path = tmp_path / name
    path.write_text(text)
    argv = ["build", f"--emit={emit}", *options, str(path)]
    if emit in _BINARY_EMITS:
        argv += ["-o", str(path.with_suffix(f".{emit}"))]
    return run_cli(*argv)


def emitted(text: str, tmp_path: Path, emit: str, *options: str, name: str = "prog.px") -> str:
    """The text `build_source` emits; the build must succeed (a failure shows its diagnostics)."""
    result = build_source(text, tmp_path, emit, *options, name=name)
    assert result.status == 0, result.stderr
    return result.stdout


def function_text(emitted_text: str, symbol: str) -> str:
    """One function's definition in `--emit=ir` (`fn @SYMBOL(`) or `--emit=llvm` (`define ... @SYMBOL(`,
    quoted or not) text, up to its closing brace."""
    import re

    head = re.compile(rf'^(fn @{re.escape(symbol)}\(|define [^\n]*@"?{re.escape(symbol)}"?\()', re.M)
    found = head.search(emitted_text)
    assert found is not None, f"no definition of {symbol} in the emitted text"
    return emitted_text[found.start():emitted_text.index("\n}\n", found.start())]


def prints_as_python(pyx_text: str, python_text: str, tmp_path: Path) -> None:
    """The pyx program prints exactly what CPython prints for its Python twin (both succeed)."""
    import subprocess

    python = subprocess.run([sys.executable, "-c", python_text], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    result = run_source(pyx_text, tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == python.stdout


def file_prints_as_cpython(source: Path) -> None:
    """A common-subset program file prints, under pyx, exactly what CPython prints for it (both
    succeed); a difference names the first line that differs."""
    import subprocess

    python = subprocess.run([sys.executable, str(source)], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    result = run_pyx(source)
    assert result.status == 0, result.stderr[-3000:]
    for k, (want, got) in enumerate(zip(python.stdout.splitlines(), result.stdout.splitlines(), strict=True)):
        assert got == want, f"line {k + 1} of {source.name}"


def import_source(name: str, text: str, tmp_path: Path, monkeypatch, **options):
    """`pyx.import_module(name)` of a module written from `text` into tmp_path, compiled fresh
    (its own cache folder, and not a module an earlier test imported)."""
    import pyx

    (tmp_path / f"{name}.px").write_text(text)
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    sys.modules.pop(name, None)
    return pyx.import_module(name, path=[str(tmp_path)], **options)


@contextlib.contextmanager
def compiled_module(name: str, text: str, tmp_path_factory):
    """For a module-scoped fixture: `import_source` in a folder of its own, environment restored after."""
    import pytest

    monkeypatch = pytest.MonkeyPatch()
    try:
        yield import_source(name, text, tmp_path_factory.mktemp(name), monkeypatch)
    finally:
        monkeypatch.undo()


def memory_growth_mib(tmp_path: Path, name: str, source: str, script: str) -> list[int]:
    """Write module `name`, run `script` (given the folder as argv[1]) in a fresh process with a
    cache of its own; it prints peak resident memory growths in MiB, one per line."""
    import subprocess

    (tmp_path / f"{name}.px").write_text(source)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          env={"PYX_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": ":".join(sys.path)})
    assert done.returncode == 0, done.stderr
    return [int(line) for line in done.stdout.split()]

