"""A stable, indented text form of the AST (`pyx build --emit=ast`)."""
from __future__ import annotations

from dataclasses import fields

from . import ast


def format_ast(node: ast.Node) -> str:
    lines: list[str] = []
    # An explicit stack, children pushed in reverse: the same order as a recursive walk, at any depth.
    stack = [(node, 0, "")]
    while stack:
        item, depth, label = stack.pop()
        children = _format(item, depth, lines, label)
        for name, child in reversed(children):
            stack.append((child, depth + 1, name))
    return "\n".join(lines) + "\n"


def _format(node, depth: int, lines: list[str], label: str) -> list:
    """Append the node's own line; return its (field name, child) pairs in source order."""
    pad = "  " * depth + (f"{label}: " if label else "")
    scalars, children = [], []
    for f in fields(node):
        if f.name in ("span", "name_span"):
            continue
        value = getattr(node, f.name)
        if isinstance(value, ast.Node):
            children.append((f.name, value))
        elif isinstance(value, tuple) and value and all(isinstance(v, ast.Node) for v in value):
            children.extend((f.name, v) for v in value)
        elif isinstance(value, tuple) and not value:
            continue
        elif value is not None:
            scalars.append(f"{f.name}={value!r}")
    line, col = node.span.file.line_col(node.span.start)
    lines.append(f"{pad}{type(node).__name__}({', '.join(scalars)}) @{line}:{col}")
    return children
