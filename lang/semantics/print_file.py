"""`print(..., file=f)`: Python's print writing to a stream (`sys.stderr`, `sys.stdout`, a file
`open()` gave, any object with a `write(str)` method).

CPython's print evaluates its arguments (and `file`) first, then calls `file.write(str(a))` for each
argument, `file.write(sep)` between two and `file.write(end)` last, then `file.flush()` when
`flush=True` (Python/bltinmodule.c, builtin_print_impl). The checker makes exactly those calls, after
storing the arguments in hidden variables, so a stream (or a user's object) sees the same writes in
the same order, and an argument that raises leaves nothing written. `file=None` is plain print.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR
from .strformat import Checked
from .typed import TBlock, TConst, TExpr, TExprStmt, TLocal, TStmt

if TYPE_CHECKING:
    from .check import FunctionChecker


def has_file(e: ast.Call) -> bool:
    return any(kw.name == "file" for kw in e.keywords)


def _constant_text(chk: FunctionChecker, kw: ast.Keyword, default: str) -> str:
    """`sep=` or `end=`: a string constant, or None for the default (as print's own)."""
    v = chk.exprs.expr(kw.value)
    if isinstance(v, TConst) and isinstance(v.value, str):
        return v.value
    if not (isinstance(v, TConst) and v.value is None) and v.type != ERROR:
        chk.msg.error("E0217", kw.value.span, name=kw.name)
    return default


def _simple(e: ast.Expr) -> bool:
    """A name or `a.b.c`: reading it again has no effect and gives the same stream."""
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


def print_to_file(chk: FunctionChecker, e: ast.Call) -> TStmt | None:
    stream = next(kw.value for kw in e.keywords if kw.name == "file")
    if isinstance(stream, ast.NoneLit):
        return chk.print_call(replace(e, keywords=tuple(kw for kw in e.keywords if kw.name != "file")))
    sep, end, flush = " ", "\n", False
    for kw in e.keywords:
        if kw.name == "file":
            continue
        if kw.name not in ("sep", "end", "flush"):
            chk.msg.error("E0207", kw.span, func="print", name=kw.name)
        elif kw.name == "flush":
            v = chk.exprs.expr(kw.value)
            flush = isinstance(v, TConst) and bool(v.value)
            if not (isinstance(v, TConst) and (v.value is None or isinstance(v.value, bool))) and v.type != ERROR:
                chk.msg.error("E0217", kw.value.span, name="flush")  # a run-time flag would need a branch
        else:
            text = _constant_text(chk, kw, " " if kw.name == "sep" else "\n")
            sep, end = (text, end) if kw.name == "sep" else (sep, text)
    out: list[TStmt] = []
    held: list[TExpr] = []
    values = chk.sharing.in_order(list(e.args), lambda a: chk.exprs.value(chk.exprs.expr(a)))
    for i, (a, v) in enumerate(zip(e.args, values, strict=True)):
        if v.type == ERROR:
            return None
        if v.type == T.NONE:  # no value to hold: evaluated here, written as "None"
            if not isinstance(v, TConst):
                out.append(TExprStmt(a.span, v))
            held.append(TConst(a.span, T.NONE, None))
            continue
        var = chk.new_var(f"$print{i}", v.type, a.span)
        out.append(chk.store([var], [v], a.span))
        held.append(TLocal(a.span, v.type, var))
    if not _simple(stream):
        f = chk.exprs.value(chk.exprs.expr(stream))
        if f.type == ERROR:
            return None
        var = chk.new_var("$file", f.type, stream.span)
        out.append(chk.store([var], [f], stream.span))
        stream = Checked(stream.span, TLocal(stream.span, f.type, var))

    def call(method: str, args: tuple) -> bool:
        node = ast.Call(e.span, ast.Attribute(stream.span, stream, method), args, ())
        typed = chk.exprs.value(chk.exprs.expr(node))
        if typed.type == ERROR:
            return False
        out.append(TExprStmt(e.span, typed))
        return True

    for i, t in enumerate(held):
        if i > 0 and not call("write", (ast.StrLit(e.span, sep),)):
            return None
        shown: ast.Expr = ast.StrLit(t.span, "None") if t.type == T.NONE else \
            ast.Call(t.span, ast.Name(t.span, "str"), (Checked(t.span, t),), ())
        if not call("write", (shown,)):
            return None
    if not call("write", (ast.StrLit(e.span, end),)):
        return None
    if flush and not call("flush", ()):
        return None
    return TBlock(e.span, out)
