"""`pyx run FILE [ARGS]` from a warm cache, without importing the compiler.

A warm `pyx run` spends most of its time before the program starts: importing argparse, the
diagnostics (dataclasses), the pipeline, and building the argument parser cost about as much as
CPython takes to run a small script. When the command is plainly `run FILE [ARGS]` (no options),
this path computes the same cache key as `cli.cmd_run`, loads the sealed entry through the same
trusted reads (runtime/cache.py) and the program's shared library (runtime/native.py, hashed
against the digest in the entry), and runs it. Anything else (options, PYX_NO_CACHE, a miss, no
shared library, an unreadable file, any surprise) returns None before the program starts, and
the full driver (`cli.main`) takes over from the beginning, so behaviour never depends on which
path ran; tests/cli/test_quick_run.py holds the two paths' keys equal.

Only the standard library's small modules are imported here: no dataclasses, argparse, lark or
llvmlite binding (`llvmlite`'s top-level package is just its version).
"""
from __future__ import annotations

import os
import sys

EXIT_INTERRUPTED = 130  # cli.EXIT_INTERRUPTED


def source_text(data: bytes) -> str:
    """The text `source.SourceFile.read` makes of a file (UTF-8, universal newlines, no leading
    BOM): the text the cache key hashes. Raises UnicodeDecodeError as it does."""
    text = data.decode("utf-8")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


def plain_run_options() -> str:
    """repr(CompileOptions()), the options of a plain `pyx run` (cli.cmd_run hashes it into the
    key), remembered in the user cache directory per compiler fingerprint: options.py is a
    dataclass, and importing dataclasses costs about 5 ms, a sixth of a warm start. The
    fingerprint covers options.py, so an edited class is a new memo; the memo goes through the
    cache's trusted reads, and a wrong one could only make a different key: a miss."""
    from .runtime import cache

    memo = cache.user_cache_dir() / f"options-{cache.compiler_fingerprint()[:24]}.txt"
    data = cache.read_trusted(memo)
    if data:
        return data.decode("utf-8")
    from .options import CompileOptions

    text = repr(CompileOptions())
    try:
        cache.write_atomic(memo, text.encode("utf-8"))
    except OSError:
        pass  # no memo: the next start imports options.py again
    return text


def plain_run_arguments(argv: list[str]) -> tuple[str, list[str]] | None:
    """(file, program arguments) when `argv` is `run FILE [ARGS]` with nothing the parser would
    read differently: argparse gives every word after FILE to the program, but drops a `--`."""
    if len(argv) < 2 or argv[0] != "run" or argv[1].startswith("-") or "--" in argv[2:]:
        return None
    return argv[1], argv[2:]


def _load(file: str):
    """The program's shared library for a cache hit, or None."""
    if os.environ.get("PYX_NO_CACHE") or os.environ.get("PYX_DEBUG_LEAKS", "") not in ("", "0"):
        return None  # (PYX_DEBUG_LEAKS is --debug-leaks's default: options other than the plain run's)
    from pathlib import Path

    import llvmlite  # the package alone: its version, no LLVM

    from .runtime import cache, native
    from .version import __version__

    try:
        with open(file, "rb") as f:
            text = source_text(f.read())
    except (OSError, UnicodeDecodeError):
        return None  # the full path reports it (E0901)
    options = plain_run_options()  # before any miss, so that a cold start leaves the memo
    host_key = native.remembered_host(llvmlite.__version__)
    if host_key is None:
        return None  # the full path asks LLVM and remembers the answer
    resolved = Path(file).resolve()
    # As cli.cmd_run: the resolved path, the name as given (SourceFile's name is str(Path(file))).
    key = cache.cache_key(str(resolved), str(Path(file)), text, __version__, llvmlite.__version__, host_key,
                          options, "run")
    entry = cache.entry_path(resolved, key)
    found = cache.load(entry, key)
    if found is None:
        return None
    return native.SharedProgram.load(entry.with_suffix(".so"), found[0].get("shared"))


def pass_arguments(program, words: list[str]):
    """Give a program that reads sys.argv its arguments (the file first, as CPython's argv), in
    the globals an executable's C `main` fills (codegen/runtime_lib.py `argument_globals`).
    Returns the C array, which must outlive the run. (cli.cmd_run's too: one definition.)"""
    import ctypes

    from .codegen.abi import ARGC_GLOBAL, ARGV_GLOBAL

    count_at, vector_at = program.global_address(ARGC_GLOBAL), program.global_address(ARGV_GLOBAL)
    if not count_at or not vector_at:
        return None
    vector = (ctypes.c_char_p * (len(words) + 1))(*[os.fsencode(w) for w in words], None)
    ctypes.c_int64.from_address(count_at).value = len(words)
    ctypes.c_void_p.from_address(vector_at).value = ctypes.addressof(vector)
    return vector


def try_run(argv: list[str]) -> int | None:
    """Run the program of a plain `pyx run` from its cached shared library: its exit status, or
    None (nothing ran, nothing printed) when the full driver must do it."""
    plain = plain_run_arguments(argv)
    if plain is None:
        return None
    file, arguments = plain
    try:
        import pyx

        from .foreign import foreign_package

        if foreign_package(pyx) is not None:
            return None  # cli.main says what is wrong
        program = _load(file)
    except Exception:  # noqa: BLE001 - any surprise: the full driver, which reports what it finds
        return None
    if program is None:
        return None
    # From here on exactly what cli.cmd_run does with a loaded program.
    from .codegen.abi import ENTRY_SYMBOL
    from .runtime import interrupt

    try:
        sys.stdout.flush()
        interrupt.attach(program)  # Ctrl-C raises KeyboardInterrupt in the program (exit status 130)
        if program.global_address("__pyx_autotune_hook"):  # `@autotune` dispatchers (runtime/autotune.py)
            from .runtime import autotune

            autotune.attach(program, os.path.abspath(file))
        interrupt.standalone(True)
        _argv_alive = pass_arguments(program, [file, *arguments])  # a local: alive while it runs
        try:
            return program.run_entry(ENTRY_SYMBOL)
        finally:
            interrupt.standalone(False)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - as cli.main reports a failure of the driver's own
        from .cli import internal_error

        return internal_error(f"internal compiler error in the driver: {type(exc).__name__}: {exc}", exc)


def main() -> int:
    """`python -m pyx`: the quick path where it applies, else the full driver."""
    argv = sys.argv[1:]
    status = try_run(argv)
    if status is None:
        from .cli import main as full

        return full()  # argv None: the command's own arguments, as the `pyx` script calls it
    if status == EXIT_INTERRUPTED:
        from .cli import die_by_sigint

        die_by_sigint()
    _leave(status)
    return status


def _leave(status: int) -> None:
    """End the process with `status` as `sys.exit` would, less Python's finalization: tearing
    down every module and object costs about 7 ms of CPU, and nothing of it is the program's,
    which has finished. C's `exit` still runs the C library's and the program's exit work (C
    stdio flushed, files the program left open included); Python's streams are flushed first.
    Only for the command (`main`): `try_run` returns to its caller."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            return  # what Python reports at its exit (a closed pipe): left to sys.exit
    import ctypes

    ctypes.CDLL(None).exit(status & 0xFF)
