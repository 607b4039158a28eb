"""`a > b` of objects whose class defines only `__lt__` (and `<`, `<=`, `>=` alike): Python's
reflected comparison. CPython tries `a.__gt__(b)`; `object`'s answer is NotImplemented, so it
calls the reflected method of the right operand, `b.__lt__(a)` (Objects/object.c,
do_richcompare). That is what `max(objects)` of a class with only `__lt__` relies on (it asks
`item > best`), and `sorted(..., reverse=True)` and `min` need nothing more.

Only classes (Python's objects) are reflected, never pyx's value structs (Mojo's, which do not).
The left operand is evaluated first, into a variable, as in Python; where neither method exists
the caller reports E0202, as CPython raises TypeError.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from . import classes
from .typed import TExpr, TLocal, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

REFLECTED = {"<": "__gt__", ">": "__lt__", "<=": "__ge__", ">=": "__le__"}


def reflected(chk: FunctionChecker, op: str, left: TExpr, right: TExpr, span: Span) -> TExpr | None:
    """`right.__lt__(left)` for `left > right` (and so on), or None where it does not apply."""
    if op not in REFLECTED or not (classes.is_class(left.type) and classes.is_class(right.type)):
        return None
    return swapped(chk, REFLECTED[op], left, right, span)


def swapped(chk: FunctionChecker, method: str, left: TExpr, right: TExpr, span: Span) -> TExpr | None:
    """`right.method(left)`, left evaluated first (into a variable), or None where right has no such
    method. Also `b == ba` of bytes and a bytearray: CPython's bytes compare with any buffer's
    bytes, pyx's bytearray's `__eq__` takes bytes (stdlib/pybytes.px)."""
    structs = chk.structs
    owner = structs.struct_of(right.type)
    if owner is None or method not in owner.methods:
        return None
    var = chk.new_var(f"$left{chk.next_id}", left.type, left.span)
    chk.next_id += 1
    held = TLocal(left.span, var.type, var)
    result = structs.method_call(right, method, [held], span)
    if result is None:
        return None
    return TStmtExpr(span, result.type, [chk.store([var], [left], left.span)], result)


def class_extreme(chk: FunctionChecker, name: str, args: list[TExpr], span: Span) -> TExpr | None:
    """`max(a, b, ...)` / `min(...)` of objects of a class that is not `Comparable` (it has `__lt__`
    but not all four orderings, as Python classes usually do): CPython's loop (bltinmodule.c,
    min_max), the first argument kept unless a later one compares greater (`item > best`, reflected
    to `best < item` where only `__lt__` exists) or smaller. Each argument is evaluated once, in
    order, before any comparison. None where the class is Comparable (the stdlib's fold serves)."""
    from ..syntax import ast
    from .module import type_conforms
    from .strformat import Checked
    from .typed import TIf

    t = args[0].type
    if not classes.is_class(t) or type_conforms(t, "Comparable", chk.module):
        return None
    prelude: list = []
    held: list[TLocal] = []
    for a in args:
        var = chk.new_var(f"$arg{chk.next_id}", t, a.span)
        chk.next_id += 1
        prelude.append(chk.store([var], [a], a.span))
        held.append(TLocal(a.span, t, var))
    best = chk.new_var(f"$best{chk.next_id}", t, span)
    chk.next_id += 1
    prelude.append(chk.store([best], [held[0]], span))
    op = ">" if name == "max" else "<"
    for item in held[1:]:
        test = chk.exprs.expr(ast.Compare(span, Checked(span, item), (op,), (Checked(span, TLocal(span, t, best)),)))
        if test.type == T.ERROR:
            return test
        prelude.append(TIf(span, chk.exprs.truth(test, span), [chk.store([best], [item], span)], []))
    # The result is a new reference (a copy of the handle): `best` keeps its own until the function
    # ends, and the caller may give the result away (a value that is not a place is moved).
    result = chk.ownership.copy_of(TLocal(span, t, best))
    if result is None or result.type == T.ERROR:
        return None
    chk.ownership.need_drop(t, span)
    return TStmtExpr(span, t, prelude, result)
