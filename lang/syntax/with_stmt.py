"""`with EXPR as NAME:` for the context managers pyx has (files: stdlib/io.px), as Python runs it:
the manager evaluated once, `NAME` bound to what its `__enter__()` returns, and its `__exit__()`
called however the block ends (normally, by `return`/`break`/`continue`, or by an exception, which
then goes on: a file's `__exit__` never suppresses one). The builder rewrites it into statements the
later stages already know:

    var <manager> = EXPR
    NAME = <manager>.__enter__()        # (no `as`: the call alone)
    try:
        <block>
    finally:
        <manager>.__exit__()

`__exit__` takes no arguments here: a manager that wants the exception (Python's `__exit__(exc_type,
exc, tb)`, which may return True to suppress it) has a method with more parameters, which the call
does not fit, so such a class is rejected where its `with` is written. The manager's name is no
identifier (`with@L:C`), so it can never meet a name of the program. Only one manager per `with`
(the grammar's).
"""
from __future__ import annotations

from ..source import Span
from . import ast


def expand_with(span: Span, manager: ast.Expr, target: ast.Expr | None, body: tuple[ast.Stmt, ...]) -> list[ast.Stmt]:
    name = f"with@{span.line}:{span.col}"
    held = ast.Name(manager.span, name)
    enter = ast.Call(manager.span, ast.Attribute(manager.span, held, "__enter__"), (), ())
    exit_call = ast.Call(span, ast.Attribute(span, held, "__exit__"), (), ())
    bind: ast.Stmt = ast.ExprStmt(manager.span, enter) if target is None else ast.Assign(target.span, (target,), enter)
    return [
        ast.VarDecl(span, name, manager.span, None, manager, True),
        bind,
        ast.Try(span, body, (), (), (ast.ExprStmt(span, exit_call),)),
    ]
