"""A tuple of constants as a parameter's default (`def f(p: tuple[int, int] = (0, 0))`, and a
dataclass field's `pos: tuple[int, int] = (0, 0)`, whose `__init__` takes it so).

Python evaluates the default once and passes that one tuple to every call that leaves the
argument out; pyx builds an equal tuple at each such call. No program can tell the two apart: a
tuple never changes, and pyx has no identity (`is`) for tuples. Only literals are taken (numbers,
strings, bools, nested tuples of them): a name in a default would be read where pyx checks the
call, not where Python evaluated it.
"""
from __future__ import annotations

from ..syntax import ast

_LITERALS = (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit)


def is_constant_tuple(e: ast.Expr) -> bool:
    """`(0, 0)`, `("a", -1.5, (1, 2))`: a tuple whose items are all literals."""
    if not isinstance(e, ast.TupleExpr) or not e.elts:
        return False
    return all(isinstance(x, _LITERALS) or is_constant_tuple(x)
               or (isinstance(x, ast.Unary) and x.op == "-" and isinstance(x.operand, (ast.IntLit, ast.FloatLit)))
               for x in e.elts)
