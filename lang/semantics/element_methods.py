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

from typing import TYPE_CHECKING

from ..syntax import ast
from .typed import TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker


def method_call(chk: FunctionChecker, base: ast.Subscript, func: ast.Attribute, e: ast.Call,
                ct_items) -> TExpr | None:
    """`o.items[i].m(args)` (m a `mut` method): on the object's own item. None when the container
    is not an attribute of an object."""
    from .classes import items_of
    from .classes import method_call as attribute_method_call

    inner, subs = items_of(base)
    if not isinstance(inner, ast.Attribute):
        return None
    return attribute_method_call(chk, inner, func, e, ct_items, subs=subs)
