"""A builtin over an empty display, whose answer needs no item type: `any([])` is False, `all([])`
True, `sum([])` 0 (`sum([], start)` the start), `len(())` 0, `max([], default=d)` and
`min((), default=d)` the default. An empty `[]`, `()` or `{}` has no item type to check it by
(E0007, empty_literals.py), but none is needed here: the call is written as its answer, which
CPython gives too (the display makes an object nobody sees). `max([])` without a default stays
refused (CPython's ValueError)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import ast
from .imports import is_stdlib_file

if TYPE_CHECKING:
    from .check import FunctionChecker

NAMES = frozenset({"any", "all", "sum", "len", "max", "min"})


def is_empty_display(e: ast.Expr) -> bool:
    """`[]`, `()`, `{}`."""
    if isinstance(e, (ast.ListExpr, ast.TupleExpr)):
        return not e.elts
    return isinstance(e, ast.DictExpr) and not e.keys


def answer(chk: FunctionChecker, name: str, e: ast.Call) -> ast.Expr | None:
    """The expression `name(...)`, a builtin of NAMES over an empty display, stands for; None
    where it is not one (or the answer is no constant: `max([])`)."""
    if not e.args or not is_empty_display(e.args[0]) or any(isinstance(a, ast.Starred) for a in e.args):
        return None
    declared = chk.module.functions.get(name)
    if name in chk.module.structs or (declared is not None and not is_stdlib_file(declared.span.file.name)):
        return None  # the module's own `sum`
    keywords = {k.name: k.value for k in e.keywords}
    if name in ("any", "all", "len") and len(e.args) == 1 and not keywords:
        return ast.BoolLit(e.span, name == "all") if name != "len" else ast.IntLit(e.span, 0)
    if name == "sum" and len(e.args) + len(keywords) <= 2 and set(keywords) <= {"start"}:
        return e.args[1] if len(e.args) == 2 else keywords.get("start", ast.IntLit(e.span, 0))
    if name in ("max", "min") and len(e.args) == 1 and "default" in keywords and set(keywords) <= {"default", "key"}:
        return keywords["default"]  # (a key= is never called)
    return None
