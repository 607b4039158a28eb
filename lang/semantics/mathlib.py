"""The `math` module: Python's functions and constants, on scalars and SIMD values.

On scalars pyx follows CPython's `math` exactly: ints are converted to float,
`floor`/`ceil`/`trunc` return an `Int`, and arguments outside a function's domain
raise `ValueError("math domain error")` (overflow: `OverflowError("math range error")`).
On SIMD values every lane follows IEEE 754 instead (nan and inf, no exceptions), as
vector code must. Float32 arguments stay Float32.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ERROR, LiteralType, ScalarType, SIMDType
from .builtin_types import is_builtin
from .gpu import GPU_NAMES
from .typed import TConst, TConvert, TExpr, TMath

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder

UNARY = {"sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
         "atan", "sinh", "cosh", "tanh", "erf", "erfc", "fabs", "floor", "ceil", "trunc", "isnan", "isinf",
         "isfinite"}
BINARY = {"pow", "atan2", "copysign", "fmod", "hypot"}
CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}
PREDICATES = {"isnan", "isinf", "isfinite"}
TO_INT = {"floor", "ceil", "trunc"}
# math's integer functions (and `isclose`) are pyx code (stdlib/_mathint.px), bound by `import math` under
# the names `math.gcd`, ... (semantics/module.py `_bind_math_integers`), which no source can spell.
INTEGER_FUNCTIONS = frozenset({"gcd", "lcm", "factorial", "comb", "perm", "isqrt", "isclose"})
MODULES = {"math": UNARY | BINARY | set(CONSTANTS) | INTEGER_FUNCTIONS}


class MathChecker:
    """The `math` module's constants and functions.
    Reached as `chk.mathlib` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg

    def math_constant(self, name: str, span: Span) -> TExpr:
        return TConst(span, T.FLOAT_LITERAL, CONSTANTS[name])

    def math_call(self, name: str, e: ast.Call) -> TExpr:
        decl = self.chk.module.functions.get(f"math.{name}") if name in INTEGER_FUNCTIONS else None
        if decl is not None:  # `math.gcd(a, b)`: stdlib/_mathint.px
            return self.chk.calls.user_call(decl, ast.Call(e.span, ast.Name(e.func.span, f"math.{name}"), e.args,
                                                           e.keywords))
        if name in GPU_NAMES:  # `from gpu.warp import sum as warp_sum` (gpu_imports.py)
            return self.chk.gpu.gpu_call(name, e)
        for kw in e.keywords:
            self.msg.error("E0207", kw.span, func=f"math.{name}", name=kw.name)
        if name in CONSTANTS:
            self.msg.error("E0109", e.func.span, name=f"math.{name}")
            return TConst(e.span, ERROR, None)
        if name == "log" and len(e.args) == 2 and not e.keywords:
            # `math.log(x, base)`: CPython's is log(x) / log(base), each a float, in that order (a base
            # of 1 divides by 0.0: "float division by zero", as CPython says)
            logs = [ast.Call(a.span, e.func, (a,), ()) for a in e.args]
            return self.exprs.expr(ast.Binary(e.span, "/", logs[0], logs[1]))
        arity = 1 if name in UNARY else 2
        args = [self.exprs.expr(a) for a in e.args]
        if len(args) != arity:
            self.msg.error("E0204", e.span, func=f"math.{name}", expected=arity, s="s" if arity > 1 else "",
                             found=len(args))
            return TConst(e.span, ERROR, None)
        if any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        vector = next((a.type for a in args if isinstance(a.type, SIMDType)), None)
        if vector is not None:
            if not vector.elem.is_float:
                self.msg.error("E0203", e.span, op=f"math.{name}", operand=vector)
                return TConst(e.span, ERROR, None)
            args = [self.chk.simd.broadcast(a, vector) for a in args]
            if any(a.type == ERROR for a in args):
                return TConst(e.span, ERROR, None)
            result = T.simd(T.BOOL, vector.width) if name in PREDICATES else vector
            return TMath(e.span, result, name, args, False)
        if any(is_builtin(a.type, "Number") for a in args):  # Python's `int | float` (semantics/numbers.py)
            from .numbers import math_arguments

            read = math_arguments(self.chk, name, args)
            if not isinstance(read, list):
                return read
            args = read
        for a in args:
            if not (isinstance(a.type, LiteralType) or (isinstance(a.type, ScalarType) and a.type.is_numeric)):
                self.msg.error("E0203", a.span, op=f"math.{name}", operand=a.type)
                return TConst(e.span, ERROR, None)
        if name in TO_INT and all(isinstance(a.type, ScalarType) and a.type.is_int for a in args):
            return args[0]  # Python: math.floor of an int is that int
        ftype = _float_type(args)
        args = [self.exprs.promote(a, ftype) for a in args]
        if name in PREDICATES:
            return TMath(e.span, T.BOOL, name, args, False)
        value = TMath(e.span, ftype, name, args, True)
        if name in TO_INT:
            return TConvert(e.span, T.INT, value, True)
        return value


def _float_type(args: list[TExpr]) -> ScalarType:
    """Python's math works in float (Float64); Float32/Float16 arguments keep their precision."""
    floats = {a.type for a in args if isinstance(a.type, ScalarType) and a.type.is_float}
    if len(floats) == 1 and all(a.type in floats or isinstance(a.type, LiteralType) for a in args):
        return floats.pop()
    return T.FLOAT64
