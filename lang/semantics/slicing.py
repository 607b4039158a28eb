"""Python's slices and `del`, the way a user's container gets them.

`xs[a:b:c]` builds a value of the standard library's `Slice` (stdlib/slicing.px) and passes it to
the container's `__getitem__`, `__setitem__` or `__delitem__` (Python's protocol, and Mojo's). A
struct may declare each of those methods twice: once for an index and once whose first index
parameter is a `Slice`; the second is kept under its own name (`__getitem__[Slice]`), so the two
are separate functions and `method_call` picks the one the index's type asks for. `del x[i]`
calls `__delitem__`. List and String get slicing this way, with nothing per container here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR
from .builtin_types import is_builtin
from .typed import TBlock, TCall, TConst, TExpr, TExprStmt, TStmt

if TYPE_CHECKING:
    from .check import FunctionChecker

# The item methods a struct may declare once more for a Slice.
SLICE_METHODS = ("__getitem__", "__setitem__", "__delitem__")
SLICE_SUFFIX = "[Slice]"


def is_slice_overload(decl: ast.FnDef) -> bool:
    """`fn __getitem__(self, s: Slice)` (or __setitem__/__delitem__): the slice form of an item method."""
    params = decl.params[1:] if decl.self_convention is not None else decl.params
    return (decl.name in SLICE_METHODS and bool(params) and isinstance(params[0].annotation, ast.Name)
            and params[0].annotation.id == "Slice")


def is_slicing(e: ast.Expr) -> bool:
    """`x[a:b]`: a new container in Python and in pyx, not a name for part of `x`."""
    return isinstance(e, ast.Subscript) and any(isinstance(i, ast.Slice) for i in e.items)


def overload_name(method: str, args: list[TExpr], methods: dict) -> str:
    """The method an item operation calls: the slice form when its first index is a Slice and the
    struct has one."""
    if method in SLICE_METHODS and args and is_builtin(args[0].type, "Slice") \
            and method + SLICE_SUFFIX in methods:
        return method + SLICE_SUFFIX
    return method


def slice_value(chk: FunctionChecker, e: ast.Slice, checked: dict[int, TExpr] | None = None) -> TExpr:
    """`a:b:c` inside `x[...]`: `Slice(a, b, c, has_start, has_stop)`, an omitted bound 0 and absent,
    an omitted step 1 (Python's `slice(a, b, c)` with None for what is left out). `checked`: the
    bounds already checked, by the id of their expression."""
    from .module import SLICE_LITERAL

    sym = chk.module.structs.get(SLICE_LITERAL)
    if sym is None:
        return TConst(e.span, ERROR, None)

    def bound(x: ast.Expr | None, default: int) -> TExpr:
        if x is None:
            return TConst(e.span, T.INT, default)
        value = (checked or {}).get(id(x))
        return chk.exprs.coerce(chk.exprs.value(value if value is not None else chk.exprs.expr(x)), T.INT)

    values = [bound(e.start, 0), bound(e.stop, 0), bound(e.step, 1),
              TConst(e.span, T.BOOL, e.start is not None), TConst(e.span, T.BOOL, e.stop is not None)]
    if any(v.type == ERROR for v in values):
        return TConst(e.span, ERROR, None)
    return chk.calls.finish_call(sym.methods["__init__"], values, e.span, e.span, sym.type)


def delete(chk: FunctionChecker, s: ast.Delete):
    """`del x[i]`, `del d[k]`, `del xs[a:b]`: the container's `__delitem__`, each target in turn.
    Deleting a name (which Python unbinds) is not supported."""
    out: list[TStmt] = []
    for target in s.targets:
        if not isinstance(target, ast.Subscript):
            what = {ast.Name: f"the name `{getattr(target, 'id', '')}`", ast.Attribute: "an attribute"}.get(
                type(target), "this expression")
            chk.msg.error("E0244", target.span, what=what)
            continue
        mark = chk.sharing.change_mark()
        base = chk.exprs.expr(target.value)
        if base.type == ERROR:
            continue
        if chk.structs.struct_of(base.type) is None:
            chk.msg.error("E0245", target.span, type=base.type)
            continue
        index = [chk.exprs.expr(i) for i in target.items if isinstance(i, ast.Expr)]
        if isinstance(base, TCall) and chk.sharing.element_read(base):  # `del g[i][j]`: g[i] changed in place
            span = target.span
            lent = chk.sharing.lend(base, span,
                                    lambda slot, index=index, span=span: chk.structs.method_call(
                                        slot, "__delitem__", index, span), mark)
            if lent is not None:
                if lent.type != ERROR:
                    out.append(TExprStmt(target.span, lent))
                continue
        result = chk.structs.method_call(base, "__delitem__", index, target.span)
        if result is None:
            chk.msg.error("E0118", target.span, struct=base.type, name="__delitem__")
            continue
        if result.type != ERROR:
            out.append(TExprStmt(target.span, result))
    if not out:
        return None
    return out[0] if len(out) == 1 else TBlock(s.span, out)
