"""`for i, w in vectorize[W](n)`: a SIMD loop with its tail, without closures.

The body is checked twice: once with the compile-time name `w` equal to W, run for
i = 0, W, 2W, ... while a whole vector fits, and once with `w` equal to 1 for the
remaining elements. So `x.store(i, x.load[w](i) * 2.0)` is one vector operation in the
main loop and one scalar operation in the tail: the body is written once, for any width.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR
from .typed import TBinary, TBlock, TBuiltin, TConst, TForRange, TLocal

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder

MAX_VECTOR_WIDTH = 1024


class VectorizeChecker:
    """`for i, w in vectorize[W](n)` loops.
    Reached as `chk.vectorize` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg
    def vectorize_loop(self, s: ast.For):
        from .comptime import CtError

        it = s.iter
        target = s.target
        if not (isinstance(target, ast.TupleExpr) and len(target.elts) == 2
                and all(isinstance(e, ast.Name) for e in target.elts)):
            self.msg.error("E0159", target.span, detail="two names, `for i, w in vectorize[W](n)`")
            return None
        if len(it.func.items) != 1 or len(it.args) != 1 or it.keywords:
            self.msg.error("E0159", it.span, detail="one width and one count, `vectorize[W](n)`")
            return None
        try:
            width = self.chk.calls.ct_value(it.func.items[0])
        except CtError as exc:
            self.msg.error("E0159", exc.span, detail=exc.detail)
            return None
        if isinstance(width, bool) or not isinstance(width, int) or width < 1 or width > MAX_VECTOR_WIDTH \
                or width & (width - 1):
            self.msg.error("E0159", it.func.items[0].span,
                             detail=f"the width must be a power of two from 1 to {MAX_VECTOR_WIDTH}, got {width}")
            return None
        count = self.exprs.coerce(self.exprs.expr(it.args[0]), T.INT)
        if count.type == ERROR:
            return None
        index_name, width_name = target.elts
        span = s.span
        # The count is evaluated once, into a variable of its own.
        total = self.chk.new_var(f"{index_name.id}.count", T.INT, it.args[0].span)
        setup = [self.chk.store([total], [count], span)]
        var = self.chk.private_loop_var(index_name, T.INT) or self.chk.assign_target(index_name, TConst(span, T.INT, 0))
        if var is None:
            return None
        if var.type not in (T.INT, ERROR):
            self.msg.error("E0201", index_name.span, expected=var.type, found=T.INT)
            return None

        def n():
            return TLocal(span, T.INT, total)

        def body(lanes: int):
            self.chk.scopes.push()
            self.chk.scopes.declare(width_name.id, TConst(width_name.span, T.INT, lanes))
            checked = self.chk.loop_body(var, s.body)
            self.chk.scopes.pop()
            return checked

        # Main loop: i in range(0, n - (W - 1), W); tail: i in range((max(n, 0) // W) * W, n).
        main_stop = TBinary(span, T.INT, "-", n(), TConst(span, T.INT, width - 1))
        loops = [TForRange(span, var, TConst(span, T.INT, 0), main_stop, TConst(span, T.INT, width), body(width))]
        if width > 1:
            whole = TBinary(span, T.INT, "//", TBuiltin(span, T.INT, "max", [n(), TConst(span, T.INT, 0)]),
                            TConst(span, T.INT, width))
            tail_start = TBinary(span, T.INT, "*", whole, TConst(span, T.INT, width))
            loops.append(TForRange(span, var, tail_start, n(), TConst(span, T.INT, 1), body(1)))
        return TBlock(span, setup + loops)


def is_vectorize(it, scopes, functions) -> bool:
    return (isinstance(it, ast.Call) and isinstance(it.func, ast.Subscript)
            and isinstance(it.func.value, ast.Name) and it.func.value.id == "vectorize"
            and scopes.lookup("vectorize") is None and "vectorize" not in functions)

