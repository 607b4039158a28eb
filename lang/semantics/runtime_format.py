"""`fmt.format(...)` of a str only the run knows (a variable, a parameter, a call's result): a call
of stdlib/str_format.px, which parses the template at run time with CPython's rules and messages
(a literal template is parsed when compiling: semantics/strformat.py). Each argument is wrapped in
a `FormatArg` (its value kept as a str, an int, a float or a Bool, or anything else as its `str()`
and `repr()`); the stdlib's names are bound under names no source spells (`BOUND`) in a module that
calls `.format` on something other than a literal (semantics/module.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR
from .classes import is_class
from .strformat import Checked
from .type_names import python_name
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

BOUND = {name: f"str {name}" for name in ("FormatArg", "str_format", "str_format_named", "str_format_none")}
USED = "str format"  # in a module's `_Uses.names` when it calls `.format` on a non-literal


def written(node: ast.Attribute) -> bool:
    """Whether `node` may be `fmt.format` of a str made at run time (semantics/module.py binds then)."""
    return node.attr == "format" and not isinstance(node.value, ast.StrLit)


def call(chk: FunctionChecker, receiver: TExpr, e: ast.Call) -> TExpr | None:
    """`receiver.format(...)` of a String receiver, checked as the call it becomes; None where the
    stdlib is not bound or the call passes `*xs`."""
    if BOUND["str_format"] not in chk.module.functions or any(isinstance(a, ast.Starred) for a in e.args):
        return None
    span = e.span
    template = Checked(receiver.span, receiver)
    values = [*e.args, *(kw.value for kw in e.keywords)]

    def named(name: str) -> ast.Name:
        return ast.Name(span, BOUND[name])

    if not values:
        return chk.exprs.expr(ast.Call(span, named("str_format_none"), (template,), ()))
    wrapped = []
    for v in values:
        value = chk.exprs.expr(v)
        if value.type == ERROR:
            return value
        wrapped.append(_argument(chk, v, value))
    args = ast.ListExpr(span, tuple(wrapped))
    if not e.keywords:
        return chk.exprs.expr(ast.Call(span, named("str_format"), (template, args), ()))
    names = ast.ListExpr(span, tuple(ast.StrLit(kw.span, kw.name) for kw in e.keywords))
    return chk.exprs.expr(ast.Call(span, named("str_format_named"), (template, names, args), ()))


def _argument(chk: FunctionChecker, v: ast.Expr, value: TExpr) -> ast.Expr:
    """The `FormatArg` of one argument (already checked): None and an object whose class has no
    `__repr__` (CPython's repr writes its address, E0264) by their texts, the rest as they are."""
    span = v.span
    if value.type == T.NONE and isinstance(value, TConst):
        none = ast.StrLit(span, "None")
        return ast.Call(span, ast.Attribute(span, ast.Name(span, BOUND["FormatArg"]), "_shown_as"),
                        (none, none, ast.StrLit(span, "NoneType"), ast.BoolLit(span, True)), ())
    if is_class(value.type):
        sym = chk.structs.struct_of(value.type)
        name = ast.StrLit(span, value.type.name)
        if sym is not None and "__repr__" not in sym.methods:
            return ast.Call(span, ast.Attribute(span, ast.Name(span, BOUND["FormatArg"]), "_unshown"),
                            (Checked(span, value), name), ())
    type_name = python_name(value.type) or str(getattr(value.type, "name", "object"))
    return ast.Call(span, ast.Name(span, BOUND["FormatArg"]), (Checked(span, value), ast.StrLit(span, type_name)), ())
