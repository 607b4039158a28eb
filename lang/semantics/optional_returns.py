"""A `def` without a result annotation that returns None on one path and a value on another.

Python's `find` returns None when nothing is found and the node otherwise:

    def find(self, key):
        node = self.root
        for ch in key:
            node = node.children.get(ch)
            if node is None:
                return None
        return node

The checker is one pass and takes a `def`'s result type from its first `return`. When a later
`return` contradicts it only by None (`return None` first, then `return node`; or `return n`
first, then `return None`), the result is "that type or None": a class's own reference (which
may be None already) or the stdlib's `Optional[T]`. It is recorded as a hint of the function
(`FunctionInstance.empty_hints`, keyed by the declaration) and the function is checked again from
the start (`empty_literals.Retry`), so every `return` is checked against the wider type. A class
result that falls off the end of the body returns None, as in Python.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR, StructType, Type
from .builtin_types import is_builtin
from .classes import is_class
from .empty_literals import MAX_RETRIES, Retry
from .typed import TConst, TExpr, TReturn

if TYPE_CHECKING:
    from .check import FunctionChecker


def hinted(chk: FunctionChecker) -> Type | None:
    """The result type an earlier check of this function found ("T or None"), if any."""
    return chk.fn.empty_hints.get(id(chk.fn.decl))


def nullable(t: Type) -> bool:
    """Whether a value of type t may be None already (a class's reference, an Optional)."""
    return is_class(t) or is_builtin(t, "Optional")


def widen(chk: FunctionChecker, expected: Type, value: TExpr | None, node: ast.Expr | None) -> None:
    """A `return` of an inferred result that differs from the type so far only by None: record
    "that type or None" and check the function again (raises Retry); else nothing."""
    from .inheritance import dispatched_class

    if not chk.infer_return or chk.fn.retries >= MAX_RETRIES or id(chk.fn.decl) in chk.fn.empty_hints \
            or dispatched_class(chk, node) is not None:  # (a method's dispatcher: E0311 where types differ)
        return
    at = node if node is not None else ast.NoneLit(chk.fn.decl.name_span)  # (a bare `return`)
    if expected == T.NONE and value is not None and value.type not in (T.NONE, ERROR):
        wider = chk.empties.optional_of(value.type, at)
    elif (value is None or isinstance(node, ast.NoneLit)) and expected not in (T.NONE, ERROR) \
            and not nullable(expected):
        wider = chk.empties.optional_of(expected, at)
    else:
        return
    if wider == ERROR or (isinstance(wider, StructType)
                          and any(isinstance(t, T.LiteralType) for t in wider.ct_env.values())):
        return  # (an Optional of an untyped constant: the module binds no str, say)
    chk.fn.empty_hints[id(chk.fn.decl)] = wider
    raise Retry()


def falls_off(chk: FunctionChecker) -> bool:
    """The end of an inferred `def` whose result is a class or an Optional is reachable: Python
    returns None there. Appends that `return None`; False where the result is another type."""
    ret = chk.fn.return_type
    if not chk.infer_return or ret is None or not nullable(ret):
        return False
    span = chk.fn.decl.name_span
    chk.fn.body.append(TReturn(span, chk.exprs.coerce(TConst(span, T.NONE, None), ret)))
    return True
