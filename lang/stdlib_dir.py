"""Where the standard library's `.px` files are: STDLIB, the pyx.stdlib package's folder (`stdlib/`
in a checkout, `pyx/stdlib/` when installed). A module of its own, importing nothing of pyx, so
that code generation can read a stdlib file (codegen/exc_layout.py, codegen/runtime_lib.py)
without importing the checker's module loader (semantics/imports.py, which re-exports STDLIB)."""
from __future__ import annotations

from pathlib import Path


def _stdlib_directory() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("pyx.stdlib")
    if spec is not None and spec.origin:
        return Path(spec.origin).resolve().parent
    return Path(__file__).resolve().parent / "stdlib"


STDLIB = _stdlib_directory()
