"""`print(a, b, ...)` in Python's order: every argument is evaluated, then each is written.

Python evaluates all of print's arguments before it writes any, and takes `str()` of each as it
writes it, so `print(c, c.bump())` shows the object as `bump` left it, and
`print(d, d["new"])` of a defaultdict shows the key the read added. pyx's `TPrint` formats each
argument right after evaluating it; where a later argument may run code (`classes.runs_code`),
the arguments up to the last such one are evaluated first, in order, into temporaries, and only
formatted when printed:

- an object Python shares (a class instance, a list, dict, set, deque, Counter, defaultdict) held
  by a variable is printed from that variable, as it is when printed (Python's object);
- any other value (a number, a str, a tuple, a call's result) is kept as it was when evaluated
  (Python's immutable object, or the one object a call returned).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR
from .builtin_types import is_builtin
from .classes import is_class, runs_code
from .typed import TConst, TExpr, TExprStmt, TLocal, TMove

if TYPE_CHECKING:
    from .check import FunctionChecker


def _shared(t) -> bool:
    from .sharing import python_shared

    return python_shared(t) or is_class(t) or is_builtin(t, "defaultdict")


def evaluated_before_printing(chk: FunctionChecker, args: list[ast.Expr], values: list[TExpr]) -> list:
    """The statements evaluating print's arguments ahead of the printing (see the module's
    docstring); `values` is changed in place to what the printing reads. Empty when no argument
    after the first runs code."""
    last = max((i for i, a in enumerate(args) if runs_code(a)), default=0)
    prelude: list = []
    if last == 0:
        return prelude
    for i in range(last + 1):
        v = values[i]
        if v.type == ERROR or isinstance(v, TConst) or (isinstance(v, TLocal) and _shared(v.type)):
            continue
        if v.type == T.NONE:  # a call giving None: run now, printed as None (no value to hold)
            prelude.append(TExprStmt(v.span, v))
            values[i] = TConst(v.span, T.NONE, None)
            continue
        var = chk.new_var("$printed", v.type, v.span)
        prelude.append(chk.store([var], [v], v.span))
        values[i] = TMove(v.span, var.type, var) if chk.ownership.owning(var.type) else TLocal(v.span, var.type, var)
    return prelude
