"""Named tuples read as tuples (syntax/named_tuples.py writes them out as structs).

A named tuple is a tuple in Python: `p[0]`, `p[-1]`, `p[1:]` (a plain tuple), `x, y = p`,
`for v in p` and `x in p` read its fields in order. Its struct has a method giving them as a tuple
(`ITEMS`); where the checker is about to index, unpack or walk a value, `as_tuple` gives that
tuple instead, so each of those behaves, and is refused, exactly as on a tuple (a loop, `in` or
an index known only at run time needs fields of one type: E0181, E0241, E0239).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax.named_tuples import ITEMS
from .typed import TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker


def as_tuple(chk: FunctionChecker, value: TExpr) -> TExpr:
    """The tuple of a named tuple's fields; any other value as it is."""
    sym = chk.structs.struct_of(value.type)
    if sym is None or ITEMS not in sym.methods:
        return value
    items = chk.structs.method_call(value, ITEMS, [], value.span)
    return items if items is not None else value
