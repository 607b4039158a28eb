"""Compile-time evaluation of the expressions that parameterize types and functions:
`SIMD[dtype, width * 2]`, `f[DType.float32, 8](...)`, `comptime N = 4 * K`.

The result is a plain value: an int, float or bool, a DTypeValue, or a Type.
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from .. import types as T
from ..source import Span
from ..syntax import ast
from . import fold

# Compile-time work has a budget per program, so no input makes the compiler run for minutes:
# each `comptime for` may copy its body MAX_UNROLL (rules.py) times, but nested loops multiply,
# and a 1000 x 1000 nest would check a million copies. All the loops of a program together may
# make as many copies as one loop may, holding so many syntax nodes (checking them takes about a
# second; LLVM takes seconds more for the code: 4096 copies of `xs: List[String] = []` took it 8 s,
# 10000 copies 66 s).
MAX_UNROLLED_COPIES = 4096
MAX_UNROLLED_NODES = 1 << 16


class WorkBudget:
    """What one program may still spend on compile-time work."""

    def __init__(self, copies: int = MAX_UNROLLED_COPIES, nodes: int = MAX_UNROLLED_NODES):
        self.copies_left = copies
        self.nodes_left = nodes

    def unroll(self, copies: int, body: tuple) -> bool:
        """Take `copies` copies of `body` from the budget; False (and nothing taken) when they do
        not fit in what is left."""
        nodes = copies * node_count(body)
        if copies > self.copies_left or nodes > self.nodes_left:
            self.copies_left = self.nodes_left = 0  # the loops after this one are refused too
            return False
        self.copies_left -= copies
        self.nodes_left -= nodes
        return True


_budget = threading.local()


@contextlib.contextmanager
def work_budget():
    """A fresh budget for the program checked inside the block (the monomorphizer opens one)."""
    previous = getattr(_budget, "current", None)
    _budget.current = WorkBudget()
    try:
        yield _budget.current
    finally:
        _budget.current = previous


def current_budget() -> WorkBudget:
    """The budget of the program being checked; outside one (a checker used on its own), a fresh one."""
    return getattr(_budget, "current", None) or WorkBudget()


def node_count(nodes: tuple) -> int:
    """How many syntax nodes these statements hold, counted without recursion."""
    stack, count = list(nodes), 0
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(ast.children(node))
    return count


class CtError(Exception):
    def __init__(self, span: Span, detail: str):
        super().__init__(detail)
        self.span = span
        self.detail = detail


def evaluate(expr: ast.Expr, env: dict, lookup: Callable[[str, Span], object | None],
             resolve_type: Callable[[ast.Expr], T.Type]) -> object:
    """`lookup(name, span)` gives module-level constants; `resolve_type` handles type expressions."""
    return _Evaluation(env, lookup, resolve_type).value(expr)


class _Evaluation:
    """`evaluate` with what it was given: `value_<node class>` for each kind of expression that has
    a compile-time value; CtError for any other."""

    def __init__(self, env: dict, lookup: Callable[[str, Span], object | None],
                 resolve_type: Callable[[ast.Expr], T.Type]):
        self.env, self.lookup, self.resolve_type = env, lookup, resolve_type

    def value(self, expr: ast.Expr) -> object:
        if isinstance(expr, (ast.IntLit, ast.FloatLit, ast.BoolLit)):
            return expr.value
        of = getattr(self, "value_" + type(expr).__name__, None)
        if of is None:
            raise _not_a_value(expr)
        return of(expr)

    def value_Name(self, expr: ast.Name) -> object:
        if expr.id in self.env:
            return self.env[expr.id]
        found = self.lookup(expr.id, expr.span)
        if found is not None:
            return found
        return self.resolve_type(expr)

    def value_Attribute(self, expr: ast.Attribute) -> object:
        if not (isinstance(expr.value, ast.Name) and expr.value.id == "DType"):
            raise _not_a_value(expr)
        if expr.attr in T.DTYPES:
            return T.DTYPES[expr.attr]
        raise CtError(expr.span, f"`DType` has no member `{expr.attr}`")

    def value_Subscript(self, expr: ast.Subscript) -> object:
        return self.resolve_type(expr)

    def value_Call(self, expr: ast.Call) -> object:
        """`len(xs)` of a `*xs` parameter, `is_simd(T)`."""
        env = self.env
        if (isinstance(expr.func, ast.Name) and expr.func.id == "len"
                and len(expr.args) == 1 and isinstance(expr.args[0], ast.Name)
                and ast.variadic_count(expr.args[0].id) in env):
            return env[ast.variadic_count(expr.args[0].id)]  # `len(xs)` of a `*xs` parameter
        if (isinstance(expr.func, ast.Name) and expr.func.id == "is_simd"
                and len(expr.args) == 1 and not expr.keywords and "is_simd" not in env
                and self.lookup("is_simd", expr.span) is None):
            # `comptime if is_simd(T)`: whether a type parameter is a SIMD vector, so generic stdlib
            # code (String(x), repr) can give vectors their text without the compiler knowing String.
            return isinstance(self.value(expr.args[0]), T.SIMDType)
        raise _not_a_value(expr)

    def value_IfExp(self, expr: ast.IfExp) -> object:
        return self.value(expr.body if self.value(expr.test) else expr.orelse)

    def value_Unary(self, expr: ast.Unary) -> object:
        value = self.value(expr.operand)
        if expr.op == "not":
            return not value
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise CtError(expr.span, f"`{expr.op}` needs a number")
        return fold.unary(expr.op, value, T.INT_LITERAL)

    def value_Compare(self, expr: ast.Compare) -> object:
        values = [self.value(x) for x in (expr.left, *expr.comparators)]
        for op, a, b in zip(expr.ops, values, values[1:]):
            if op in ("==", "!="):
                if (op == "==") != (a == b):
                    return False
            elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
                if not fold.compare(op, a, b):
                    return False
            else:
                raise CtError(expr.span, f"`{op}` needs numbers at compile time")
        return True

    def value_BoolOp(self, expr: ast.BoolOp) -> object:
        result = None
        for value in expr.values:
            result = self.value(value)
            if (expr.op == "and") != bool(result):
                return result
        return result

    def value_Binary(self, expr: ast.Binary) -> object:
        if expr.op == "|" and (isinstance(expr.left, ast.NoneLit) or isinstance(expr.right, ast.NoneLit)):
            return self.resolve_type(expr)  # `str | None` as a type argument: `dict[str, str | None]`
        a = self.value(expr.left)
        b = self.value(expr.right)
        if expr.op == "|" and (isinstance(a, T.Type) or isinstance(b, T.Type)):
            return self.resolve_type(expr)  # a union of types: `list[int | float]`
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
            raise CtError(expr.span, f"`{expr.op}` needs numbers")
        try:
            kind = T.FLOAT_LITERAL if isinstance(a, float) or isinstance(b, float) else T.INT_LITERAL
            return fold.binary(expr.op, a, b, kind)
        except fold.TooBig:
            limit = fold.MAX_FOLD_BITS
            raise CtError(expr.span, f"the result of `{expr.op}` would have more than {limit} bits") from None
        except fold.NoFold:
            raise CtError(expr.span, f"`{expr.op}` cannot be computed at compile time here") from None


def _not_a_value(expr: ast.Expr) -> CtError:
    return CtError(expr.span, "this expression is not a compile-time value")


def kind_of(value) -> str:
    if isinstance(value, T.DTypeValue):
        return "DType"
    if isinstance(value, T.Type):
        return "type"
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int"
    if isinstance(value, float):
        return "Float64"
    return "value"


def show(value) -> str:
    if isinstance(value, T.Type):
        return value.name
    return str(value)
