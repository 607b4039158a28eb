"""Reading the compiler's own source as a linter would, for the tests that guard how a stage is
put together (tests/semantics/test_checker_shape.py, tests/ir/test_lowering_shape.py)."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def modules(package_dir: Path) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(package_dir.glob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def classes_named(package_dir: Path, suffix: str) -> Iterator[tuple[Path, ast.ClassDef]]:
    """The top-level classes of the package's modules whose names end in `suffix`."""
    for path, tree in modules(package_dir):
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name.endswith(suffix):
                yield path, node
