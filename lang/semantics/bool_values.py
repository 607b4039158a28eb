"""The value of `a or b` / `a and b` whose operands are not numbers: a str (`prefix or "0"`,
`name or default`), a list, an object.

Python gives the first operand that decides (`or`: the first truthy one, else the last; `and`: the
first falsy one, else the last), evaluating no operand after it. The lowering's TBoolOp tests a
number's or a Bool's truth only; here the operands are stored one by one into a variable of their
common type, each tested through `truth` (a str's length, a list's, an object's `__bool__`/`__len__`)
before the next is evaluated, and the variable's value is the result:

    $chosen = a
    if not truth($chosen): $chosen = b      # `or`  (`and`: if truth($chosen))
    ...
    -> $chosen (moved out)
"""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..types import ScalarType, Type
from .typed import TExpr, TIf, TLocal, TMove, TStmt, TStmtExpr

if TYPE_CHECKING:
    from .expressions import ExpressionChecker


def tested_in_place(t: Type) -> bool:
    """Types whose TBoolOp the lowering tests directly (a number, a Bool, a pointer, a number literal)."""
    return isinstance(t, (ScalarType, T.LiteralType, T.PtrType)) or t in (T.BOOL, T.NONE)


def chosen_value(exprs: ExpressionChecker, op: str, values: list[TExpr], t: Type, span: Span) -> TExpr:
    chk = exprs.chk
    var = chk.new_var(f"$chosen{chk.next_id}", t, span)

    def assign(v: TExpr) -> TStmt:
        return chk.store([var], [chk.ownership.consume(exprs.coerce(v, t), "assigned")], v.span)

    body: list[TStmt] = [assign(values[0])]
    for tested, v in itertools.pairwise(values):
        test = exprs.truth(TLocal(tested.span, t, var), tested.span)
        if test.type == T.ERROR:  # (reported: `opt or "x"` of an Optional, E0014)
            return test
        taken = [assign(v)]
        # `or` goes on while what it holds is false, `and` while it is true
        body.append(TIf(v.span, test, [], taken) if op == "or" else TIf(v.span, test, taken, []))
    chk.ownership.need_drop(t, span)
    return TStmtExpr(span, t, body, TMove(span, t, var), tuple(values))
