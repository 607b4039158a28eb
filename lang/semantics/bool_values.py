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
from ..types import ScalarType, StructType, Type
from .builtin_types import is_builtin
from .typed import TBoolOp, TExpr, TIf, TLocal, TMove, TStmt, TStmtExpr

if TYPE_CHECKING:
    from .expressions import ExpressionChecker


def optional_or(exprs: ExpressionChecker, values: list[TExpr], span: Span) -> TExpr | None:
    """`opt or default` of a "T or None" (`d.get(k) or 0`, `find(x) or ""`): Python's result is the
    value where there is one and it is true, else the default, which must be a T (or None where the
    result stays optional: not handled here). None where this is not that shape.

        $opt = opt
        if $opt.__bool__() and truth($opt.value()): $chosen = $opt.value()
        else: $chosen = default      # evaluated only here, as Python evaluates it
        -> $chosen"""
    if len(values) != 2:
        return None
    opt, default = values
    if not (isinstance(opt.type, StructType) and is_builtin(opt.type, "Optional")):
        return None
    inner = opt.type.ct_env.get("T")
    literal = isinstance(default.type, T.LiteralType) or default.type == T.STRING_LITERAL
    if not isinstance(inner, Type) or not (default.type == inner or literal):
        return None  # (`a or b` of two optionals, `a or None`: E0014 as before)
    default = exprs.coerce(default, inner)
    if default.type != inner:
        return None
    chk = exprs.chk
    held = chk.new_var(f"$optional{chk.next_id}", opt.type, span)
    chosen = chk.new_var(f"$chosen{chk.next_id}", inner, span)
    structs = chk.structs
    present = structs.method_call(TLocal(span, opt.type, held), "__bool__", [], span)
    value = structs.method_call(TLocal(span, opt.type, held), "value", [], span)
    again = structs.method_call(TLocal(span, opt.type, held), "value", [], span)
    if present is None or value is None or again is None:
        return None
    truth = exprs.truth(value, span)
    if truth.type == T.ERROR:
        return truth
    body: list[TStmt] = [
        chk.store([held], [chk.ownership.consume(opt, "assigned")], span),
        TIf(span, TBoolOp(span, T.BOOL, "and", [present, truth]), [chk.store([chosen], [again], span)],
            [chk.store([chosen], [chk.ownership.consume(default, "assigned")], span)]),
    ]
    chk.ownership.need_drop(opt.type, span)
    chk.ownership.need_drop(inner, span)
    return TStmtExpr(span, inner, body, TMove(span, inner, chosen), tuple(values))


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
