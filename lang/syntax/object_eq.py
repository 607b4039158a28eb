"""`def __eq__(self, other: object) -> bool:` (Python's usual spelling, with `isinstance(other, C)`
inside), or `def __eq__(self, other):` without annotations: for a class outside any hierarchy,
`other` is typed as the class itself (the result, unannotated, as `bool`), and
`return NotImplemented` is written as the answer CPython ends with.

For such a class C, every operand pyx lets reach `__eq__` is a C or None (comparing a C with
anything else stays a compile error, E0202: Python would compare by identity and print False,
pyx rejects it). For None, CPython's NotImplemented goes on to the reflected `None.__eq__`, also
NotImplemented, then to identity: `==` is False and `!=` True, so `return NotImplemented` is
`return False` in `__eq__` and `return True` in `__ne__`. In a hierarchy a subclass's
NotImplemented would reach a base's reflected method, so classes with a base or subclasses keep
the annotation as written (E0105 names `object`)."""
from __future__ import annotations

from dataclasses import replace

from . import ast

_ANSWERS = {"__eq__": False, "__ne__": True}


def typed_object_eq(cls, in_hierarchy: bool):
    """cls (a ClassDef) with its `__eq__`/`__ne__(self, other: object)` typed as described above."""
    if in_hierarchy:
        return cls
    body = []
    for stmt in cls.body:
        if isinstance(stmt, ast.FnDef) and stmt.name in _ANSWERS and len(stmt.params) == 2 and (
                stmt.params[1].annotation is None or (isinstance(stmt.params[1].annotation, ast.Name)
                                                      and stmt.params[1].annotation.id == "object")):
            other = stmt.params[1]
            other = replace(other, annotation=ast.Name((other.annotation or other).span, cls.name))
            returns = stmt.returns if stmt.returns is not None else ast.Name(stmt.name_span, "bool")
            stmt = replace(stmt, params=(stmt.params[0], other), returns=returns,
                           body=_answered(stmt.body, _ANSWERS[stmt.name]))
        body.append(stmt)
    return replace(cls, body=tuple(body))


def _answered(stmts: tuple, answer: bool) -> tuple:
    """stmts with each `return NotImplemented` (in nested blocks too, not in nested functions)
    returning `answer`."""
    out = []
    for s in stmts:
        if isinstance(s, ast.Return) and isinstance(s.value, ast.Name) and s.value.id == "NotImplemented":
            s = replace(s, value=ast.BoolLit(s.value.span, answer))
        elif not isinstance(s, ast.FnDef):
            changes = {name: _answered(getattr(s, name), answer) for name in ("body", "orelse", "finalbody")
                       if isinstance(getattr(s, name, None), tuple)}
            if changes:
                s = replace(s, **changes)
        out.append(s)
    return tuple(out)
