"""pytest collects pyx tests: each `test_*` function of a `test_*.px` file is a test item, so
`pytest` runs them beside Python's tests with its own reporting, `-x`, `-k`, `--lf` and
pytest-xdist, as `pyx test` runs them on its own (the same files, functions and failures).

Installed with pyx-llvm as the `pytest11` entry point `pyx` (`-p no:pyx` turns it off); from a
source tree without installing, `-p pyx.pytest_plugin`. A test passes when it returns and fails
when it raises (`assert` included); its traceback shows the `.px` frames only. A file that does
not compile is a collection error showing its diagnostics. This module imports nothing of the
compiler until a `.px` file is collected: pytest loads it in every run.
"""
from __future__ import annotations

import traceback
from pathlib import Path

import pytest


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".px" and file_path.name.startswith("test_"):
        return PxFile.from_parent(parent, path=file_path)
    return None


class PxCompileFailed(Exception):
    """A test file that does not compile: its rendered diagnostics."""


class PxFile(pytest.File):
    def collect(self):
        from .importer import PyxCompileError, import_module

        try:
            module = import_module(self.path.stem, path=[str(self.path.parent)])
        except PyxCompileError as exc:
            from .diagnostics.render import render_all

            raise self.CollectError(f"{self.path.name} does not compile:\n"
                                    + render_all(exc.diagnostics, color="never")) from None
        lines = {f["name"]: f.get("line", 0) for f in module.__pyx__["meta"].get("functions", [])}
        # In the order they are defined, as `pyx test` runs them.
        for name in [n for n in vars(module) if n.startswith("test_") and callable(getattr(module, n))]:
            yield PxItem.from_parent(self, name=name, function=getattr(module, name), line=lines.get(name, 0))


class PxItem(pytest.Item):
    def __init__(self, *, function, line: int, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.line = line

    def runtest(self) -> None:
        self.function()

    def repr_failure(self, excinfo, style=None):
        """The exception (first: pytest's short summary shows the first line), then the pyx
        traceback, its .px frames only, as `pyx test` prints them."""
        exc = excinfo.value
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".px")]
        text = "".join(traceback.format_list(frames)).rstrip()
        first = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return f"{first}\npyx traceback (most recent call last):\n{text}" if text else first

    def reportinfo(self):
        return self.path, max(0, self.line - 1), self.name
