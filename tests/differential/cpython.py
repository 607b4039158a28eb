"""Run a generated program under CPython, watching for what pyx legitimately does differently.

The program text is parsed with `ast` and rewritten before it runs:

- every BinOp, UnaryOp and Call (and every augmented assignment, rewritten to a plain one)
  passes its value through `_pyx_check`, which raises `Discard` when an int leaves the
  64-bit range (pyx's `int` wraps there, Python's grows) or a float `**` turns complex
  (pyx gives nan; so is Python's OverflowError for a complex result too large);
- `/` goes through `_pyx_truediv`, which discards `int / int` with an operand beyond 2**53
  when converting both to float first (what pyx does) rounds differently;
- every comparison becomes `_pyx_compare(lambda: a, "<", lambda: b, ...)`, which keeps
  Python's chained, short-circuit evaluation (an int beyond 2**53 compared with a float is
  no longer discarded: pyx compares them exactly too, ir/mixed_compare.py);
- every function body and loop body starts with `_pyx_tick()`, which raises `Discard`
  once the program has run too many steps.

`run_cpython(source)` returns an `Outcome`, or raises `Discard` when the case says
nothing about pyx and must be thrown away.
"""
from __future__ import annotations

import ast
import io
import operator
import traceback
from dataclasses import dataclass

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
EXACT_FLOAT_INT = 2**53
DEFAULT_STEP_BUDGET = 4000


class Discard(Exception):
    """The case is outside the common subset at run time; the test throws it away."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Outcome:
    stdout: str
    exception: str | None = None   # the exception class name, None when it ran to the end
    message: str = ""
    frames: list[tuple[str, int]] | None = None   # (function, line) of the traceback, outermost first


_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne}
_AST_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


def _check(value):
    if isinstance(value, int) and not INT_MIN <= value <= INT_MAX:
        raise Discard(f"int out of 64-bit range: {value}")
    if isinstance(value, complex):
        raise Discard(f"complex result: {value}")
    return value


def _truediv(a, b):
    result = a / b
    # Documented: pyx converts both ints to float first (rounding twice above 2**53).
    if type(a) is int and type(b) is int and max(abs(a), abs(b)) > EXACT_FLOAT_INT and float(a) / float(b) != result:
        raise Discard(f"int / int beyond 2**53 rounds differently (documented): {a} / {b}")
    return result


def _compare(first, *rest):
    left = first()
    for i in range(0, len(rest), 2):
        op, right = rest[i], rest[i + 1]()
        if not _COMPARE[op](left, right):
            return False
        left = right
    return True


class _Instrument(ast.NodeTransformer):
    def _wrap(self, node):
        return ast.copy_location(ast.Call(ast.Name("_pyx_check", ast.Load()), [node], []), node)

    def visit_BinOp(self, node):
        return self._binop(self.generic_visit(node))

    def _binop(self, node):
        if isinstance(node.op, ast.Div):
            call = ast.Call(ast.Name("_pyx_truediv", ast.Load()), [node.left, node.right], [])
            return ast.copy_location(call, node)
        return self._wrap(node)

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        return node if isinstance(node.op, ast.Not) else self._wrap(node)

    def visit_Call(self, node):
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in ("print", "range", "_pyx_tick"):
            return node
        return self._wrap(node)

    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            raise ValueError("only simple names are augmented-assigned in generated programs")
        value = ast.BinOp(ast.Name(node.target.id, ast.Load()), node.op, node.value)
        return ast.copy_location(ast.Assign([ast.Name(node.target.id, ast.Store())], self._binop(value)), node)

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        args = [ast.Lambda(_no_args(), node.left)]
        for op, right in zip(node.ops, node.comparators, strict=True):
            args += [ast.Constant(_AST_COMPARE[type(op)]), ast.Lambda(_no_args(), right)]
        return ast.copy_location(ast.Call(ast.Name("_pyx_compare", ast.Load()), args, []), node)

    def _tick_body(self, node):
        node = self.generic_visit(node)
        tick = ast.Expr(ast.Call(ast.Name("_pyx_tick", ast.Load()), [], []))
        node.body.insert(0, tick)
        return node

    visit_FunctionDef = visit_While = visit_For = _tick_body


def _no_args() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                         defaults=[])


def instrument(source: str) -> ast.Module:
    tree = _Instrument().visit(ast.parse(source))
    return ast.fix_missing_locations(tree)


def run_cpython(source: str, step_budget: int = DEFAULT_STEP_BUDGET) -> Outcome:
    code = compile(instrument(source), "<generated>", "exec")
    out = io.StringIO()
    steps = [0]

    def tick():
        steps[0] += 1
        if steps[0] > step_budget:
            raise Discard("step budget exhausted")

    def captured_print(*args, sep=" ", end="\n", flush=False):
        out.write(sep.join(str(a) for a in args) + end)
        if out.tell() > 1_000_000:
            raise Discard("too much output")

    namespace = {
        "__name__": "__main__", "print": captured_print, "_pyx_check": _check,
        "_pyx_compare": _compare, "_pyx_tick": tick,
        "_pyx_truediv": _truediv,
    }
    try:
        exec(code, namespace)
    except Discard:
        raise
    except RecursionError:
        raise Discard("recursion too deep") from None
    except Exception as exc:  # noqa: BLE001 - the program's own exception is the result
        if isinstance(exc, OverflowError) and str(exc) == "complex exponentiation":
            # A negative float ** fraction whose complex result overflows: pyx gives nan (documented).
            raise Discard("complex result overflowed") from None
        frames = [(f.name, f.lineno) for f in traceback.extract_tb(exc.__traceback__)
                  if f.filename == "<generated>" and f.name not in ("<module>", "<lambda>")]
        return Outcome(out.getvalue(), type(exc).__name__, str(exc), frames)
    return Outcome(out.getvalue())
