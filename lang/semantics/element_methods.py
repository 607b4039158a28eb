"""`reg.groups[0].append(x)`, `self.named[k].sort()`: a method that changes its receiver (`mut
self`) called on an item of a container that is an attribute of an object.

Python changes the list inside the object's list. pyx lends the object's data (as it does for
`obj.items.append(v)` and `obj.items[i] = v`, semantics/classes.py) and calls the method on the
item of the lent attribute, in place, so the change stays in the object. Python evaluates the
receiver (the object, then each index), then the arguments, then calls: the indices and the
arguments that may run code are computed first, in that order, into variables of their own, so
nothing they run happens while the object is lent.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR
from .typed import TConst, TExpr, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker


def method_call(chk: FunctionChecker, base: ast.Subscript, func: ast.Attribute, e: ast.Call,
                ct_items) -> TExpr | None:
    """`o.items[i].m(args)` (m a `mut` method): on the object's own item. None when the container
    is not an attribute of an object."""
    from .classes import indices_first, items_of, lend, named_first, reroot, rewrap, split

    inner, subs = items_of(base)
    if not isinstance(inner, ast.Attribute):
        return None
    found = split(chk, inner)
    if found is None:
        return None
    handle, rest, _ = found
    if handle.type == ERROR:
        return handle
    prelude: list = []
    named = indices_first(chk, subs, prelude)
    if named is None:
        return TConst(e.span, ERROR, None)
    args = []
    for a in e.args:
        arg = named_first(chk, a, prelude)
        if arg is None:
            return TConst(a.span, ERROR, None)  # (reported)
        args.append(arg)
    call = replace(e, args=tuple(args))

    def use(name):
        receiver = rewrap(reroot(name, rest, inner.span), named)
        return chk.structs.attribute_call(replace(func, value=receiver), call, ct_items)

    lent = lend(chk, handle, e.span, use, rest[0][0])
    if not prelude or lent.type == ERROR:
        return lent
    return TStmtExpr(e.span, lent.type, prelude, lent)
