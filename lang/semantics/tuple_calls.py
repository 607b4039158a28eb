"""`tuple(x)`: Python's tuple of an iterable's items.

A pyx tuple is a struct with one field per item (types.TupleType), so its length is fixed when
compiling. `tuple(x)` is that tuple where the source says how many items x has: a str literal
(`tuple("abc")`: one str per character), a list or tuple display (`tuple([a, b])`), a `range`
of int literals (`tuple(range(4))`), or a tuple already (`tuple(t)`: the same tuple). For any
other iterable (a list variable, `sorted(w)`, a generator) the length is known only at run
time: E0188, which says what to write instead.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR, TupleType
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

# More items than this from a `range` would be a struct with that many fields: a list is meant.
MAX_ITEMS = 64


def call(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`tuple(x)` (the name not rebound by the program)."""
    if not e.args and not e.keywords:
        return chk.exprs.expr(ast.TupleExpr(e.span, ()))  # `()`: E0007
    if len(e.args) != 1 or e.keywords or isinstance(e.args[0], ast.Starred):
        for a in e.args:
            chk.exprs.expr(a)
        chk.msg.error("E0188", e.span, what="several arguments")
        return TConst(e.span, ERROR, None)
    arg = e.args[0]
    items = _known_items(arg)
    if items is not None:  # (none: `()`, which is E0007)
        return chk.exprs.expr(ast.TupleExpr(e.span, items))
    value = chk.exprs.expr(arg)
    if isinstance(value.type, TupleType) or value.type == ERROR:
        return value
    shown = "a generator" if str(value.type).startswith("<generator") else f"a `{value.type}`"
    chk.msg.error("E0188", e.span, what=shown)
    return TConst(e.span, ERROR, None)


def _int_literal(e: ast.Expr) -> int | None:
    if isinstance(e, ast.IntLit):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


def _known_items(arg: ast.Expr) -> tuple[ast.Expr, ...] | None:
    """The items of `arg` as expressions, where the source fixes how many there are."""
    if isinstance(arg, ast.StrLit):
        return tuple(ast.StrLit(arg.span, c) for c in arg.value) if len(arg.value) <= MAX_ITEMS else None
    if isinstance(arg, (ast.ListExpr, ast.TupleExpr)):
        return None if any(isinstance(x, ast.Starred) for x in arg.elts) else arg.elts
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "range" \
            and 1 <= len(arg.args) <= 3 and not arg.keywords:
        bounds = [_int_literal(a) for a in arg.args]
        if any(b is None for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
            return None
        values = range(*bounds)  # type: ignore[arg-type]
        if len(values) > MAX_ITEMS:
            return None
        return tuple(ast.IntLit(arg.span, v) for v in values)
    return None
