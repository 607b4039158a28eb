"""`sum(xs)` of floats with no start, where CPython's int start cannot show (issue 17).

Python's `sum` starts from the int 0: a sum of floats is a float unless there are no items, when
it is the int 0, which prints as `0` where a float prints `0.0`. So `sum(floats)` on its own is a
float that raises when there are no items (semantics/comprehensions.py `sum_of`). Where the int
cannot show, the checker reads `sum(xs)` as `sum(xs, 0.0)` (the same float, added in the same
order: `0 + x` is `0.0 + x`, even for `-0.0`), which needs no such check:

- formatted with a float presentation type (`f"{sum(xs):.2f}"`, `format(sum(xs), "e")`): Python
  formats an int with `e`, `f`, `g` or `%` as the float it converts it to (`in_format`);

Inside an arithmetic operation (`rewrite`):

- the other operand is a float (`sum(xs) * 0.5`, `total - sum(xs)`, `sum(xs) / n_float`): an int
  0 meets the float as 0.0 does, and a division by a float zero says "float division by zero"
  either way;
- `sum(xs) / c` with an int constant c other than 0: 0 / c and 0.0 / c are the same 0.0;
- `sum(xs) / d` with an int d, where xs (or the one `for` of a generator expression over it) is a
  variable: `sum(xs, 0.0) / d if len(xs) else 0 / d`, so an empty xs divides the int 0 as CPython
  does ("division by zero" when d is 0, where 0.0 / 0 says "float division by zero"): the mean,
  `sum(xs) / len(xs)`.

Which sums add floats is found by checking `sum(xs, 0)` once (its diagnostics dropped: the real
check reports them); a sum of ints is left alone (an int sum is exact, a float one would round).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ScalarType
from .exceptions import UNCATCHABLE
from .typed import TRaise, TStmt

if TYPE_CHECKING:
    from .check import FunctionChecker

_ARITHMETIC = ("+", "-", "*", "/", "//", "%", "**")


def empty_sum_failure(span: Span, int_zero: bool) -> list[TStmt]:
    """What `sum(floats)` does when there turn out to be no items: CPython's result is then an
    int, which pyx's float cannot be, so the program stops with a traceback saying what to write
    (exit status 1; from Python, pyx.ProgramStopped). No `except` catches it: a handler would run
    where CPython runs none, and print something else."""
    which = "the int 0" if int_zero else "its int start"
    return [TRaise(span, UNCATCHABLE, f"sum() of no floats: CPython gives {which} here, which pyx's float sum "
                   "cannot be; write sum(xs, 0.0) to get the float 0.0")]


def _plain_sum(chk: FunctionChecker, e: ast.Expr) -> ast.Expr | None:
    """The iterable of `sum(it)` (Python's builtin, no start), else None."""
    if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "sum" and len(e.args) == 1
            and not e.keywords):
        return None
    if chk.scopes.lookup("sum") is not None:
        return None
    return e.args[0]


def _walked_name(it: ast.Expr) -> ast.Name | None:
    """The variable whose items the sum walks one for one (`xs`, `f(x) for x in xs`), else None."""
    if isinstance(it, ast.Name):
        return it
    if isinstance(it, ast.Comprehension) and it.kind == "generator" and len(it.clauses) == 1 \
            and isinstance(it.clauses[0], ast.CompFor) and isinstance(it.clauses[0].iter, ast.Name):
        return it.clauses[0].iter
    return None


def _type_of(chk: FunctionChecker, e: ast.Expr):
    """e's type, its diagnostics dropped (e is checked again where it stands)."""
    bag = chk.msg.bag
    mark = len(bag.items)
    t = chk.exprs.expr(e).type
    bag.drop_since(mark, lambda span: True)
    return t


def _is_float(t) -> bool:
    return t == T.FLOAT_LITERAL or (isinstance(t, ScalarType) and t.is_float)


_FLOAT_PRESENTATIONS = "eEfFgG%"
_EXACT = 2 ** 53  # ints up to this add as floats with no rounding


def _literal(e: ast.Expr) -> ast.IntLit | ast.FloatLit | None:
    """The number a literal item spells (`2`, `-2.5`), else None."""
    if isinstance(e, ast.Unary) and e.op in ("-", "+"):
        inner = _literal(e.operand)
        if inner is None:
            return None
        return type(inner)(e.span, -inner.value if e.op == "-" else inner.value)  # type: ignore[arg-type]
    return e if isinstance(e, (ast.IntLit, ast.FloatLit)) else None


def mixed_display(arg: ast.Expr) -> ast.Expr:
    """`sum([1, 2.5, 3])`: a list or tuple display of number literals, some floats, with its ints
    written as floats. CPython adds the ints as ints up to the first float and each later one as its
    float, which is the same float while the ints add up to no more than 2**53 (checked); a sum of
    them is a float either way. A set keeps `1` or `1.0`, whichever comes first, so it is left as is
    (as is any other display: E0288 says what to write)."""
    if not isinstance(arg, (ast.ListExpr, ast.TupleExpr)):
        return arg
    items = [_literal(x) for x in arg.elts]
    if any(x is None for x in items) or not any(isinstance(x, ast.FloatLit) for x in items) \
            or sum(abs(x.value) for x in items if isinstance(x, ast.IntLit)) > _EXACT:
        return arg
    floats = tuple(ast.FloatLit(x.span, float(x.value)) if isinstance(x, ast.IntLit) else x
                   for x in items if x is not None)
    return replace(arg, elts=floats)


def in_format(chk: FunctionChecker, e: ast.Call) -> ast.Call | None:
    """`format(sum(xs), "SPEC")` with a float presentation type: the sum with the start 0.0, else None."""
    if len(e.args) != 2 or e.keywords or not isinstance(e.func, ast.Name) or chk.scopes.lookup(e.func.id) is not None:
        return None
    it, spec = _plain_sum(chk, e.args[0]), e.args[1]
    if it is None or not (isinstance(spec, ast.StrLit) and spec.value[-1:] in _FLOAT_PRESENTATIONS):
        return None
    floated = ast.Call(it.span, ast.Name(it.span, "sum"), (it, ast.FloatLit(it.span, 0.0)), ())
    return ast.Call(e.span, e.func, (floated, spec), ())


def rewrite(chk: FunctionChecker, e: ast.Binary) -> ast.Expr | None:
    """`e` with its float `sum(...)` given the start 0.0 where that prints what CPython prints; None
    where nothing changes."""
    if e.op not in _ARITHMETIC:
        return None
    left, right = _plain_sum(chk, e.left), _plain_sum(chk, e.right)
    it = left if left is not None else right
    if it is None:
        return None
    probe = ast.Call(it.span, ast.Name(it.span, "sum"), (it, ast.IntLit(it.span, 0)), ())
    if not _is_float(_type_of(chk, probe)):
        return None  # a sum of ints (or an error, which the ordinary check reports)
    other = e.right if left is not None else e.left
    floated = ast.Call(it.span, ast.Name(it.span, "sum"), (it, ast.FloatLit(it.span, 0.0)), ())
    other_type = _type_of(chk, other)
    if _is_float(other_type):
        if left is not None:
            return ast.Binary(e.span, e.op, floated, e.right)
        return ast.Binary(e.span, e.op, e.left, floated)
    if left is None or e.op != "/":
        return None
    if isinstance(other, ast.IntLit) and other.value != 0:
        return ast.Binary(e.span, "/", floated, other)
    walked = _walked_name(it)
    int_divisor = other_type == T.INT_LITERAL or (isinstance(other_type, ScalarType) and other_type.is_int)
    if walked is None or not int_divisor:
        return None
    length = ast.Call(walked.span, ast.Name(walked.span, "len"), (walked,), ())
    return ast.IfExp(e.span, length, ast.Binary(e.span, "/", floated, other),
                     ast.Binary(e.span, "/", ast.IntLit(e.left.span, 0), other))
