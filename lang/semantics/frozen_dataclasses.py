"""`@dataclass(frozen=True)`: an assignment to a field of a frozen dataclass's object is a compile
error (E0153), where Python raises `dataclasses.FrozenInstanceError: cannot assign to field 'x'`.

The dataclass pass (syntax/dataclass_methods.py) gives a frozen class a method `FROZEN_METHOD`
returning its fields' names, which hold for its subclasses too (Python's frozen `__setattr__`
refuses the fields for them as well). Every assignment of an attribute of an object (`obj.x = v`,
`obj.x += v`, `a, obj.x = ...`) is checked here: the class's own generated `__init__` (Python's
`object.__setattr__`) is the one place a field is set. An assignment pyx cannot see does not
exist: an object's attributes are assigned only by such statements, each compiled, so the error
is at compile time wherever Python's would be raised at run time (a `try` around it included).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..source import Span
from ..syntax import ast
from ..syntax.dataclass_methods import FROZEN_METHOD
from ..syntax.inheritance import UP
from .classes import is_class

if TYPE_CHECKING:
    from .check import FunctionChecker


def frozen_fields(chk: FunctionChecker, t) -> tuple[str, set[str]]:
    """The frozen dataclass class t is or derives from, and its fields ("" and none when there is
    no such class)."""
    if not is_class(t):
        return "", set()
    sym = chk.structs.struct_of(t)
    if sym is None:
        return "", set()
    home = getattr(sym, "home", None) or chk.module
    # (generated methods are not inherited: a subclass's bases are named by its cast methods)
    for owner in [sym] + [home.structs.get(n[len(UP):]) for n in sym.methods if n.startswith(UP)]:
        method = owner.methods.get(FROZEN_METHOD) if owner is not None else None
        if method is not None and method.body and isinstance(method.body[0], ast.Return) \
                and isinstance(method.body[0].value, ast.StrLit):
            return owner.decl.name, set(method.body[0].value.value.split(",")) - {""}
    return "", set()


def refused(chk: FunctionChecker, handle_type, rest: list, span: Span) -> bool:
    """Whether `obj.<rest> = ...` assigns a frozen field (reported: E0153)."""
    if len(rest) != 1:
        return False
    attr = rest[0][0]
    owner, fields = frozen_fields(chk, handle_type)
    if attr not in fields:
        return False
    if chk.fn.decl.span.file.name.startswith("<dataclass "):
        return False  # the dataclass's own `__init__` (of the methods written out, the one that assigns):
        # Python's `object.__setattr__(self, ...)`, also when a subclass's `__init__` runs it
    chk.msg.error("E0153", span, cls=owner, name=attr)  # (the dataclass: one error for its inherited copies)
    return True
