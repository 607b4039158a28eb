"""What a `match` statement's sequence pattern asks of its subject's type (syntax/match_stmt.py
writes the test as a call of SEQUENCE_TEST, a name no source can spell).

Python's sequence pattern (`case [a, b]:`, `case (x, *rest):`) matches only a
`collections.abc.Sequence` that is not a str, bytes or bytearray: a list, a tuple, a deque, a
range. pyx knows the subject's type when compiling, so the test is a constant: true for a list,
a tuple or a deque, an error (E0021) for a range, false for anything else (a str, a dict, a
number, an object of a class: a class is no Sequence unless it derives from one, which a pyx
class cannot)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..syntax.ast import SEQUENCE_TEST
from ..types import ERROR
from .builtin_types import builtin_role
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

__all__ = ["SEQUENCE_TEST", "sequence_test"]

_SEQUENCES = ("List", "VarTuple", "deque")


def sequence_test(chk: FunctionChecker, e: ast.Call) -> TExpr:
    value = chk.exprs.value(chk.exprs.expr(e.args[0]))
    if value.type == ERROR:
        return value
    t = value.type
    if _is_range(chk, t):  # a Sequence to Python; pyx's Range has no indexing the lowered test could use
        chk.msg.error("E0021", e.span, pattern="a sequence pattern on a `range`",
                      advice="write `match list(r):` (Python matches a list the same way)")
        return TConst(e.span, T.BOOL, False)
    return TConst(e.span, T.BOOL, isinstance(t, T.TupleType) or builtin_role(t) in _SEQUENCES)


def _is_range(chk: FunctionChecker, t: T.Type) -> bool:
    from .module import RANGE_VALUE

    sym = chk.module.structs.get(RANGE_VALUE)
    return sym is not None and getattr(t, "symbol", None) is sym
