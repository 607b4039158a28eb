"""`f(*pair)`, `similarity(*p)`: a tuple unpacked into a call's arguments. The tuple's length is
known when compiling, so the call is the same call with the tuple's items in its place, the
tuple evaluated once, where Python evaluates it (the arguments before it must run no code:
names and constants). A list or another value whose length only the run knows stays refused
(E0002) with what to write instead. `print(*xs)` and `zip(*rows)` are their own rewrites
(syntax/build_ast.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from .typed import TConst, TExpr, TLocal, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

_PURE = (ast.Name, ast.StrLit, ast.IntLit, ast.FloatLit, ast.BoolLit, ast.NoneLit)


def spread(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """The call `e`, one of whose arguments is `*t`, with t's items as its arguments."""
    from .strformat import Checked

    stars = [k for k, a in enumerate(e.args) if isinstance(a, ast.Starred)]
    at = stars[0]
    starred = e.args[at]
    assert isinstance(starred, ast.Starred)
    if len(stars) > 1 or not all(isinstance(a, _PURE) for a in e.args[:at]):
        chk.msg.error("E0002", e.args[stars[-1] if len(stars) > 1 else at].span,
                      construct="argument unpacking with `*` after arguments that run code, or twice in one call")
        return TConst(e.span, T.ERROR, None)
    value = chk.exprs.expr(starred.value)
    if value.type == T.ERROR:
        return value
    tuple_type = value.type
    if not isinstance(tuple_type, T.TupleType):
        chk.msg.error("E0002", starred.span, construct=f"argument unpacking with `*` of a `{value.type}` (its length "
                                                       "is known only at run time: pass its items, `f(xs[0], xs[1])`)")
        return TConst(e.span, T.ERROR, None)
    value = chk.exprs.value(value)
    var = chk.new_var(f"$star{chk.next_id}", value.type, starred.span)
    chk.next_id += 1
    store = chk.store([var], [value], starred.span)
    held = Checked(starred.span, TLocal(starred.span, var.type, var))
    items = tuple(ast.Subscript(starred.span, held, (ast.IntLit(starred.span, i),))
                  for i in range(len(tuple_type.items)))
    call = chk.exprs.expr(ast.Call(e.span, e.func, (*e.args[:at], *items, *e.args[at + 1:]), e.keywords))
    if call.type == T.ERROR:
        return call
    return TStmtExpr(e.span, call.type, [store], call)
