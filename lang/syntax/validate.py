"""Checks on the shape of a parsed module: what may appear at top level, and how deep."""
from __future__ import annotations

from ..diagnostics import DiagnosticBag
from . import ast

# Every recursive pass after parsing stays well inside Python's stack at this depth.
MAX_NESTING = 1000


def check_module_shape(module: ast.Module, diags: DiagnosticBag) -> None:
    _check_depth(module, diags)
    body = []
    for stmt in module.body:
        if isinstance(stmt, (ast.FnDef, ast.Comptime, ast.Pass, ast.StructDef, ast.Import, ast.TraitDef)):
            body.append(stmt)
        elif isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit):
            continue  # a docstring
        elif isinstance(stmt, ast.If) and _is_main_guard(stmt.test):
            body.append(ast.MainGuard(stmt.span))
        else:
            diags.error("E0006", stmt.span)
    object.__setattr__(module, "body", tuple(body))


def _is_main_guard(test: ast.Expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and test.ops == ("==",)
            and isinstance(test.comparators[0], ast.StrLit) and test.comparators[0].value == "__main__")


def _check_depth(module: ast.Module, diags: DiagnosticBag) -> None:
    # Explicit stack: the tree may be as deep as the user cares to nest it.
    stack = [(module, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            diags.error("E0003", node.span, limit=MAX_NESTING)
            return
        for child in ast.children(node):
            stack.append((child, depth + 1))
