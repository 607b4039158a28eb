"""`print(a, b, ...)` in Python's order: every argument is evaluated, then each is written.

Python evaluates all of print's arguments before it writes any, and takes `str()` of each as it
writes it, so `print(c, c.bump())` shows the object as `bump` left it, and
`print(d, d["new"])` of a defaultdict shows the key the read added. pyx's `TPrint` formats each
argument right after evaluating it; where a later argument may run code (`classes.runs_code`),
the arguments up to the last such one are evaluated first, in order, into temporaries, and only
formatted when printed:

- an object Python shares (a class instance, a list, dict, set, deque, Counter, defaultdict) held
  by a variable is printed from that variable, as it is when printed (Python's object);
- an object's list, dict or set attribute (`print("items:", self.items, len(self.items))`) is
  printed from where it is when the later arguments run no user code (only the standard library's,
  on no object: nothing can put another list in the attribute meanwhile, and what changes it in
  place shows, as in Python); else it would be a copy (E0263, classes.shared_attribute_copied);
- any other value (a number, a str, a tuple, a call's result) is kept as it was when evaluated
  (Python's immutable object, or the one object a call returned).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR
from . import object_containers
from .builtin_types import is_builtin
from .classes import is_class, reaches_object, runs_code
from .typed import TConst, TExpr, TExprStmt, TLocal, TMove

if TYPE_CHECKING:
    from .check import FunctionChecker


def _shared(t) -> bool:
    from .sharing import python_shared

    return python_shared(t) or is_class(t) or is_builtin(t, "defaultdict")


def mentions_object(t) -> bool:
    """Whether t is, or holds among its compile-time arguments, a class's object."""
    return T.mentions(t, is_class)


def runs_user_code(e) -> bool:
    """Whether the checked expression e calls a function of the program, or one of the standard
    library's on an object (`sorted(objs)` calls their `__lt__`): code that could rebind an
    object's attribute."""
    from dataclasses import fields, is_dataclass

    from ..semantics.imports import is_stdlib_file
    from .typed import TCall

    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, TCall):
            inst = node.callee
            if inst.decl.name != "__copyinit__" and (  # (an object's: a new reference)
                    not is_stdlib_file(inst.decl.span.file.name) or mentions_object(inst.owner)
                    or any(mentions_object(t) for t in inst.param_types)):
                return True
        if not is_dataclass(node):
            continue
        for f in fields(node):
            value = getattr(node, f.name)
            if isinstance(value, (list, tuple)):
                stack.extend(x for x in value if is_dataclass(x) and not isinstance(x, type))
            elif is_dataclass(value) and not isinstance(value, type) and f.name not in ("type", "callee", "var"):
                stack.append(value)
    return False


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
        if _shared(v.type) and reaches_object(v) and not any(runs_user_code(w) for w in values[i + 1:last + 1]):
            continue  # an object's list attribute: printed from where it is (see the docstring)
        if v.type == T.NONE:  # a call giving None: run now, printed as None (no value to hold)
            prelude.append(TExprStmt(v.span, v))
            values[i] = TConst(v.span, T.NONE, None)
            continue
        var = chk.new_var("$printed", v.type, v.span)
        object_containers.printed(chk, v, var)  # an object's list, held until printed (E0263 if changed in place)
        prelude.append(chk.store([var], [v], v.span))
        values[i] = TMove(v.span, var.type, var) if chk.ownership.owning(var.type) else TLocal(v.span, var.type, var)
    return prelude
