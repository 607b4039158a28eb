"""`[2, None, 6]`, `{"x": None, "y": "yes"}`, `b: list[int | None] = [None]`: a display whose items
are values of one type and None holds "T or None" items (the stdlib's Optional[T]), as Python's list
holds both; where a declaration gives the item type as an Optional, the display takes it. Objects
need none of this (a class reference may be None already)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..types import Type
from .builtin_types import is_builtin

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .typed import TExpr


def optional_display(value, declared: Type | None) -> bool:
    """Whether value is a list display (a dict display) of items where declared is a list (a dict)
    of Optional items: `xs: list[int | None] = [None]`."""
    from ..syntax import ast

    if isinstance(value, ast.ListExpr) and value.elts and is_builtin(declared, "List"):
        return is_builtin(declared.ct_env["T"], "Optional")  # type: ignore[union-attr]
    if isinstance(value, ast.DictExpr) and value.keys and is_builtin(declared, "Dict"):
        return is_builtin(declared.ct_env["V"], "Optional")  # type: ignore[union-attr]
    return False


def item_type(chk: FunctionChecker, items: list[TExpr], elem: Type, expected: Type | None, literal,
              inner: Type) -> Type:
    """The item type of a list display (or a dict display's values) whose items' own type is elem,
    and whose items other than None are of type inner."""
    from .classes import is_class

    if expected is not None and is_builtin(expected, "Optional"):
        return expected
    values = [x for x in items if x.type != T.NONE]
    if len(values) == len(items) or not values or is_builtin(elem, "Optional") or is_class(elem):
        return elem
    if is_class(inner) or is_builtin(inner, "Optional") or inner == T.ERROR:
        return elem
    wider = chk.empties.optional_of(inner, literal)
    return elem if wider == T.ERROR else wider
