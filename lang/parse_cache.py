"""Parsed standard library modules, kept on disk between runs.

Lark parses in pure Python: `stdlib/string.px` alone takes about 130 ms, more than the rest of the
front end for a small program. The standard library's text changes only with the compiler, so its
syntax trees are pickled beside the compiled-module cache, keyed by the compiler's fingerprint
(every compiler and stdlib file's size and time) and the text itself. A user's modules are parsed
every time: they change, and their compiled code is cached whole anyway.

Anything unreadable is a miss, and a miss parses as before: the cache can only save time.
"""
from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from .diagnostics import DiagnosticBag
from .source import SourceFile
from .syntax import ast, parse

MAGIC = b"PYXAST1\n"


def parse_stdlib(source: SourceFile, diags: DiagnosticBag) -> ast.Module:
    """`syntax.parse` of a standard library file, from the cache when an entry matches."""
    path = _entry(source)
    module = _load(path, source) if path is not None else None
    if module is not None:
        return module
    before = len(diags.items)
    module = parse(source, diags)
    if path is not None and len(diags.items) == before:
        _store(path, module)
    return module


def _entry(source: SourceFile) -> Path | None:
    from .runtime.cache import cache_dir_for, compiler_fingerprint

    try:
        key = hashlib.sha256(f"{compiler_fingerprint()}\0{source.name}\0{source.text}".encode()).hexdigest()
        return cache_dir_for(Path(source.name)) / f"{Path(source.name).stem}.{key[:20]}.pyxast"
    except OSError:
        return None


def _load(path: Path, source: SourceFile) -> ast.Module | None:
    try:
        data = path.read_bytes()
        if not data.startswith(MAGIC):
            return None
        module = pickle.loads(data[len(MAGIC):])
    except Exception:  # a missing, truncated or foreign entry is a miss
        return None
    if not isinstance(module, ast.Module) or module.span.file.text != source.text:
        return None
    return module


def _store(path: Path, module: ast.Module) -> None:
    from .runtime.cache import write_atomic

    try:
        write_atomic(path, MAGIC + pickle.dumps(module, protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError, RecursionError):
        pass  # an unwritable cache only costs speed
