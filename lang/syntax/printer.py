"""A stable, indented text form of the AST (`pyx build --emit=ast`)."""
from __future__ import annotations

from dataclasses import fields

from . import ast


def format_ast(node: ast.Node) -> str:
    lines: list[str] = []
    _format(node, 0, lines, "")
    return "\n".join(lines) + "\n"


def _format(node, depth: int, lines: list[str], label: str) -> None:
    pad = "  " * depth + (f"{label}: " if label else "")
    scalars, children = [], []
    for f in fields(node):
        if f.name in ("span", "name_span"):
            continue
        value = getattr(node, f.name)
        if isinstance(value, ast.Node):
            children.append((f.name, [value]))
        elif isinstance(value, tuple) and value and all(isinstance(v, ast.Node) for v in value):
            children.append((f.name, list(value)))
        elif isinstance(value, tuple) and not value:
            continue
        elif value is not None:
            scalars.append(f"{f.name}={value!r}")
    line, col = node.span.file.line_col(node.span.start)
    lines.append(f"{pad}{type(node).__name__}({', '.join(scalars)}) @{line}:{col}")
    for name, items in children:
        for item in items:
            _format(item, depth + 1, lines, name)
