"""`type(x).__name__` and `x.__class__.__name__` (syntax/type_names.py writes the classes' side).

For an object of a class, the name of its own class (a method dispatched on the object); for a
value of another type, the name of the Python type it is: `int`, `float`, `str`, `bool`, `list`,
`dict`, `set`, `tuple`, `NoneType`, known when compiling. Other types (a struct, a SIMD value)
have no Python type name: E0285.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..syntax.type_names import TYPE_NAME_METHOD
from ..types import ERROR
from .builtin_types import is_builtin
from .classes import is_class, runs_code
from .imports import is_string
from .typed import TConst, TExprStmt, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

CONTAINERS = {"List": "list", "Dict": "dict", "Set": "set", "Bytes": "bytes", "deque": "deque", "Counter": "Counter",
              "defaultdict": "defaultdict", "OrderedDict": "OrderedDict", "ByteArray": "bytearray", "VarTuple": "tuple"}


def described(chk: FunctionChecker, e: ast.Attribute) -> ast.Expr | None:
    """The `x` of `type(x).__name__` / `x.__class__.__name__`; None for any other attribute."""
    if e.attr != "__name__":
        return None
    inner = e.value
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "type" \
            and len(inner.args) == 1 and not inner.keywords and chk.scopes.lookup("type") is None:
        return inner.args[0]
    if isinstance(inner, ast.Attribute) and inner.attr == "__class__":
        return inner.value
    return None


def python_name(t) -> str | None:
    if t == T.NONE:
        return "NoneType"
    if is_string(t) or t == T.STRING_LITERAL:
        return "str"
    if isinstance(t, T.TupleType):
        return "tuple"
    if isinstance(t, (T.ScalarType, T.LiteralType)):
        return "bool" if t.kind == "bool" else "float" if t.kind == "float" else "int" \
            if isinstance(t, T.LiteralType) else ("bool" if t.is_bool else "float" if t.is_float else "int")
    for role, name in CONTAINERS.items():
        if is_builtin(t, role):
            return name
    return None


def type_name(chk: FunctionChecker, e: ast.Attribute, x: ast.Expr):
    value = chk.exprs.value(chk.exprs.expr(x))
    if value.type == ERROR:
        return value
    if is_class(value.type) or is_builtin(value.type, "Number"):  # (an `int | float`: stdlib/number.px)
        call = chk.structs.method_call(value, TYPE_NAME_METHOD, [], e.span)
        if call is not None:
            return call
    from .exception_values import type_name as value_type_name

    kept = value_type_name(chk, value, e.span)  # an exception value's class (semantics/exception_values.py)
    if kept is not None:
        return kept
    if value.type == T.EXCEPTION:  # a caught exception: the name of its class
        from .typed import TBuiltin

        string = chk.exprs.string_type()
        if string is not None:
            return chk.exprs.coerce(TBuiltin(e.span, T.STRING_LITERAL, "exc_kind", [value]), string)
    name = python_name(value.type)
    if name is None:
        chk.msg.error("E0285", e.span, type=value.type)
        return TConst(e.span, ERROR, None)
    text = chk.exprs.expr(ast.StrLit(e.span, name))
    if isinstance(value, TConst) or not runs_code(x):
        return text
    return TStmtExpr(e.span, text.type, [TExprStmt(x.span, value)], text)  # (x is still evaluated)

