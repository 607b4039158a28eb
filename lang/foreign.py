"""PyX, the PostScript and PDF graphics package (PyPI `PyX`), is imported as `pyx` too, and
installing both into one environment puts their files in one `pyx/` folder, each overwriting
the other's `__init__.py` and `version.py`. Neither package then works; say so, where pyx
still runs, instead of failing later with an AttributeError about some missing name.

`pyx/__init__.py` looks for PyX's `canvas.py` on every `import pyx` (one `stat`) and imports this
module only when it is there; `pyx`, the command, checks with `foreign_package` before anything else.
"""
from __future__ import annotations

import os

# Files of PyX that pyx-llvm has not: one is enough to tell its files are in this folder.
PYX_GRAPHICS_FILES = ("canvas.py", "pswriter.py")

ADVICE = ("PyX (the graphics package, `pip install PyX`) and pyx-llvm both install the Python package `pyx`, "
          "and here one was installed over the other in {folder}: uninstall both (`pip uninstall PyX pyx-llvm`) "
          "and reinstall the one you want, or give each its own virtual environment")


def graphics_files_beside(folder: str) -> bool:
    """Whether PyX's files are in the folder of this `pyx` package."""
    return any(os.path.exists(os.path.join(folder, name)) for name in PYX_GRAPHICS_FILES)


def foreign_package(module) -> str | None:
    """Why the imported `pyx` package is not (all) pyx-llvm's, or None when it is."""
    folder = os.path.dirname(getattr(module, "__file__", None) or "")
    if not hasattr(module, "import_module") or not hasattr(module, "__version__"):
        return ADVICE.format(folder=folder or "this environment") + " (the `pyx` imported now is PyX's)"
    if folder and graphics_files_beside(folder):
        return ADVICE.format(folder=folder)
    return None
