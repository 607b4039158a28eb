"""The manager of a `with` statement (syntax/with_stmt.py rewrites the statement; the manager is
held in a variable named `with@L:C`): a value whose type has `__enter__` and `__exit__` methods, as
a file from `open()` has (stdlib/io.px). Anything else is E0284 at the manager, rather than a
complaint about a missing `__enter__` the program never wrote.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR
from .strformat import Checked

if TYPE_CHECKING:
    from .check import FunctionChecker

PREFIX = "with@"


def checked_manager(chk: FunctionChecker, s: ast.VarDecl) -> ast.VarDecl:
    """The manager's declaration with its value checked once (E0284 when it manages nothing)."""
    if not s.name.startswith(PREFIX) or s.value is None:
        return s
    value = chk.exprs.value(chk.exprs.expr(s.value))
    if value.type == ERROR:
        return replace(s, value=Checked(s.value.span, value))
    sym = chk.structs.struct_of(value.type)
    if sym is None or "__enter__" not in sym.methods or "__exit__" not in sym.methods:
        chk.msg.error("E0284", s.value.span, type=value.type)
        return replace(s, value=ast.ErrorExpr(s.value.span))
    return replace(s, value=Checked(s.value.span, value))
