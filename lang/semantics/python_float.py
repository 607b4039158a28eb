"""Python's `float` annotation converts nothing: after `x: float = 0`, CPython's `x` is the int 0 (it
prints `0`, and `x + 1` is the int 1), where pyx's Float64 would print `0.0`. So an int constant bound
where Python keeps it an int in a float's place is refused (E0288) with the fix, `0.0`:

- an argument or a default for a parameter annotated `float`, a `return` in a function returning
  `float`;
- the value of a variable annotated `float`, or of one whose type came from a float value (`x = 1.5`
  then `x = 2`), on its declaration or any later assignment.

Mojo's spellings convert the constant, as in Mojo (`var x: Float64 = 0`, a parameter `x: Float64`), and
so does all code in an `fn` (no Python program has one: Mojo's rules hold there). Arithmetic is not
binding: `x + 1` of a float `x` is a float in CPython too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from .. import types as T
from ..syntax import ast
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker


def spelled_float(annotation: ast.Expr | None) -> bool:
    """Whether an annotation is Python's `float` (not Mojo's `Float64`)."""
    return isinstance(annotation, ast.Name) and annotation.id == "float"


def is_float(t: T.Type) -> bool:
    return isinstance(t, T.ScalarType) and t.is_float


def refuse_int_constant(chk: FunctionChecker, value: TExpr | None, target: T.Type | None, python: bool,
                        where: str) -> None:
    """E0288 when `value` is an int constant bound to a float in Python's sense; `where` says where
    ("as the argument `x` of `f`")."""
    if python and python_code(chk) and target is not None and is_float(target) and is_int_constant(value):
        chk.msg.error("E0288", value.span, value=value.value, where=where)


ANNOTATION = " (a `float` annotation converts nothing)"
INFERRED = " (its type came from a float value, which converts nothing)"


def python_code(chk: FunctionChecker) -> bool:
    """Whether the function being checked follows Python's rules: a `def` (or a module's script),
    not an `fn`."""
    return chk.fn.decl.kind == "def"


def is_int_constant(value: TExpr | None) -> TypeGuard[TConst]:
    return isinstance(value, TConst) and value.type == T.INT_LITERAL and isinstance(value.value, int)


def refuse_mixed_extreme(chk: FunctionChecker, name: str, args: list[TExpr], result: T.Type) -> bool:
    """`max(x, 0)` of a float x: CPython returns the winner as it is (the int 0, printed `0`), where
    pyx's one result type would make it `0.0`. E0288 at the int constant; True if reported."""
    if not (is_float(result) or result == T.FLOAT_LITERAL) or not python_code(chk):
        return False
    found = False
    for a in args:
        if is_int_constant(a):
            chk.msg.error("E0288", a.span, value=a.value,
                          where=f"as an argument of `{name}`, which returns the winner as it is")
            found = True
    return found


def refuse_mixed_items(chk: FunctionChecker, items: list[TExpr], elem: T.Type, where: str) -> bool:
    """`[1, 2.5]`: CPython's list keeps the int 1 (printed `[1, 2.5]`), where a List[Float64] holds
    1.0. E0288 at each int constant among float items; True if reported."""
    if not (is_float(elem) or elem == T.FLOAT_LITERAL) or not any(not is_int_constant(x) for x in items) \
            or not python_code(chk):
        return False
    found = False
    for x in items:
        if is_int_constant(x):
            chk.msg.error("E0288", x.span, value=x.value, where=where)
            found = True
    return found
