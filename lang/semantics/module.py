"""Module-level names: functions and compile-time constants, resolved regardless of order."""
from __future__ import annotations

import difflib

from ..diagnostics import DiagnosticBag, Note
from ..syntax import ast
from .. import types as T
from ..types import ERROR, Type
from .check import FUTURE_NAMES
from .scope import ComptimeSymbol, ModuleSymbols


def collect(module: ast.Module, diags: DiagnosticBag) -> ModuleSymbols:
    symbols = ModuleSymbols(module.name)
    seen: dict[str, ast.Node] = {}
    for item in module.body:
        if isinstance(item, (ast.FnDef, ast.Comptime)):
            if item.name in seen:
                diags.error("E0102", item.name_span, (Note("first defined here", seen[item.name].name_span),),
                            name=item.name)
                continue
            seen[item.name] = item
            if isinstance(item, ast.FnDef):
                symbols.functions[item.name] = item
            else:
                symbols.comptimes[item.name] = ComptimeSymbol(item)
    return symbols


def resolve_type(expr: ast.Expr | None, diags: DiagnosticBag) -> Type:
    if expr is None:
        return T.NONE
    if isinstance(expr, ast.NoneLit):
        return T.NONE
    if isinstance(expr, ast.ErrorExpr):
        return ERROR
    if isinstance(expr, ast.Name):
        if expr.id in T.TYPE_NAMES:
            return T.TYPE_NAMES[expr.id]
        if expr.id in FUTURE_NAMES:
            diags.error("E0007", expr.span, construct=f"the type `{expr.id}`")
            return ERROR
        close = difflib.get_close_matches(expr.id, list(T.TYPE_NAMES), n=1)
        notes = (Note(f"did you mean `{close[0]}`?"),) if close else ()
        diags.error("E0105", expr.span, notes, name=expr.id)
        return ERROR
    if isinstance(expr, (ast.Subscript, ast.Attribute)):
        base = expr.value
        while isinstance(base, (ast.Subscript, ast.Attribute)):
            base = base.value
        name = base.id if isinstance(base, ast.Name) else "this"
        diags.error("E0007", expr.span, construct=f"the type `{name}[...]`" if isinstance(expr, ast.Subscript)
                    else f"the type `{name}`")
        return ERROR
    if isinstance(expr, ast.StrLit):
        diags.error("E0007", expr.span, construct="string annotations")
        return ERROR
    diags.error("E0104", expr.span, name="this expression")
    return ERROR
