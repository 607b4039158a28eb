"""Python's int methods: `x.bit_length()`, `x.bit_count()`, `x.to_bytes(...)` of an Int (from
`StructChecker._value_method_call`, where a number has no struct) and `int.from_bytes(...)` (from
`StructChecker.attribute_call`), as calls of stdlib/pyint.px's functions, bound under names no source
spells (`BOUND`) in a module that writes one of the methods (semantics/module.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from .strformat import Checked
from .typed import TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

METHODS = ("bit_length", "bit_count", "to_bytes")
FROM_BYTES = "from_bytes"
BOUND = {name: f"int {name}" for name in (*METHODS, FROM_BYTES)}  # stdlib/pyint.px's name -> the bound one
USED = "int methods"  # in a module's `_Uses.names` when it writes one


def written(node: ast.Attribute) -> bool:
    """Whether `node` may be one of these methods (semantics/module.py binds them then)."""
    return node.attr in METHODS or (node.attr == FROM_BYTES and isinstance(node.value, ast.Name)
                                    and node.value.id == "int")


def method_call(chk: FunctionChecker, receiver: TExpr, func: ast.Attribute, e: ast.Call) -> TExpr | None:
    """`x.bit_length()` (and the others) of an Int x; None where x is no int or the method none of these."""
    t = receiver.type
    if func.attr not in METHODS or BOUND[func.attr] not in chk.module.functions \
            or not (t == T.INT_LITERAL or (isinstance(t, T.ScalarType) and t.is_int and not t.is_bool)):
        return None
    x = chk.exprs.coerce(receiver, T.INT) if t != T.INT else receiver
    return chk.exprs.expr(ast.Call(e.span, ast.Name(func.span, BOUND[func.attr]), (Checked(x.span, x), *e.args),
                                   e.keywords))


def from_bytes_call(chk: FunctionChecker, func: ast.Attribute, e: ast.Call) -> TExpr | None:
    """`int.from_bytes(b, byteorder, signed=...)`; None for any other call."""
    if func.attr != FROM_BYTES or not isinstance(func.value, ast.Name) or func.value.id != "int" \
            or chk.scopes.lookup("int") is not None or BOUND[FROM_BYTES] not in chk.module.functions:
        return None
    return chk.exprs.expr(ast.Call(e.span, ast.Name(func.span, BOUND[FROM_BYTES]), e.args, e.keywords))
