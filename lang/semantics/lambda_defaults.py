"""Lambda default arguments: `lambda x, k=k: x + k`, Python's way of taking a loop variable's
value when the lambda is made rather than when it is called (the late-binding workaround).

Python evaluates a default once, where the lambda is made, and the lambda keeps that value. pyx
makes the lambda a closure that captures the variable *by value* at that point (its value then,
whatever the variable holds later), and the parameter is not one the closure takes: its name in
the body is the captured value. This is exactly Python's behaviour for every call that leaves the
argument to its default, which is what the idiom is for; a call that passes it is a compile error
(too many arguments), never a different result. A default that is a constant (`lambda x, n=2:`)
stays a parameter with that default, as a `def`'s does.

Refused with E0018 (Python would do something pyx cannot): a default that is neither a constant
nor the parameter's own name (`lambda x, k=i * 2:`, `lambda x, k=j:`); a default naming a
module-level variable (read when called, not when made) or a variable whose value is a shared
container (a list, dict or set: Python's default is that one object, pyx's capture a copy); a
captured default followed by a parameter that stays one (its position would change).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR, ScalarType
from .typed import LocalVar, TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

_CONSTANTS = (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit)


def _constant(e: ast.Expr) -> bool:
    return isinstance(e, _CONSTANTS) or (isinstance(e, ast.Unary) and e.op == "-"
                                         and isinstance(e.operand, (ast.IntLit, ast.FloatLit)))


def _value_kind(t) -> bool:
    """A type whose copy is what Python's default holds: a number, a bool, a str (immutable), or an
    object (the closure's copy of the handle is another reference to the one object)."""
    from .builtin_types import is_builtin
    from .classes import is_class

    return isinstance(t, ScalarType) or is_builtin(t, "String") or is_class(t)


def lambda_value(chk: FunctionChecker, e: ast.Lambda) -> TExpr:
    """`lambda params: body` whose parameters have defaults (see the module's docstring)."""
    kept: list[ast.Param] = []
    captured: list[str] = []
    ok = True
    for p in e.params:
        d = p.default
        if d is None or _constant(d):
            if d is not None and captured:
                chk.msg.error("E0018", d.span, name=p.name,
                              reason=f"it follows `{captured[-1]}={captured[-1]}`, which pyx captures instead "
                                     "of taking it as a parameter, so the positions of the arguments would change")
                ok = False
            kept.append(p)
            continue
        if not (isinstance(d, ast.Name) and d.id == p.name):
            chk.msg.error("E0018", d.span, name=p.name,
                          reason=f"only a constant or the parameter's own name (`{p.name}={p.name}`) is taken "
                                 "as a default here")
            ok = False
            continue
        found = chk.scopes.lookup(d.id)
        if isinstance(found, LocalVar) and found.type == ERROR:
            ok = False
            continue
        if not isinstance(found, LocalVar):
            if isinstance(found, TConst):  # a compile-time constant: its value whenever it is read
                captured.append(p.name)
                continue
            chk.msg.error("E0018", d.span, name=p.name,
                          reason=f"`{d.id}` is not a variable of this function (Python reads a module-level "
                                 "one when the lambda is made; pyx's closure would read it when called)")
            ok = False
            continue
        if not _value_kind(found.type):
            chk.msg.error("E0018", d.span, name=p.name,
                          reason=f"`{d.id}` holds a `{found.type}`, which Python's default would share and "
                                 "pyx's capture would copy")
            ok = False
            continue
        captured.append(p.name)
    if not ok:
        return TConst(e.span, ERROR, None)
    made = chk.closures.lambda_value(replace(e, params=tuple(kept)), by_value=tuple(captured))
    return made


__all__ = ["lambda_value"]
