"""`str.maketrans(x, y[, z])`: a call of the stdlib's `maketrans` (stdlib/translate.px), bound
under `MAKETRANS`, a name no source can spell, in a module that writes `str.maketrans`
(semantics/module.py). `s.translate(table)` is String's own method (stdlib/string.px)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

MAKETRANS = "str maketrans"


def maketrans_call(chk: FunctionChecker, func: ast.Attribute, e: ast.Call) -> TExpr | None:
    """`str.maketrans(...)`, checked as the call it becomes; None for any other call. Its one-
    argument form (a dict whose keys may be characters or code points, its values code points,
    strs or None at once) is E0191."""
    if func.attr != "maketrans" or not isinstance(func.value, ast.Name) or func.value.id != "str" \
            or chk.scopes.lookup("str") is not None or MAKETRANS not in chk.module.functions:
        return None
    if len(e.args) not in (2, 3) or e.keywords:
        for a in e.args:
            chk.exprs.expr(a)  # (its own mistakes reported too)
        chk.msg.error("E0191", e.span, found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    return chk.exprs.expr(ast.Call(e.span, ast.Name(func.span, MAKETRANS), e.args, e.keywords))
