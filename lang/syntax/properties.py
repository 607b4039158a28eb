"""`@property` methods of a class, and their `@name.setter`s.

A getter keeps its name and its `@property` decorator: the checker reads `obj.name` as a call of
it (semantics/classes.py `read_attribute`). A setter is renamed `<name>{SETTER_SUFFIX}` (the two
would otherwise be one name defined twice), and `obj.name = v` calls it
(semantics/classes.py `assign_statement`). An assignment to a property without a setter stays
a compile error (Python's AttributeError: "property ... has no setter"); `@name.deleter` is
E0007 (not yet).
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import DiagnosticBag
from . import ast

PROPERTY = "property"
SETTER_SUFFIX = "__pyx_setter"


def setter_name(name: str) -> str:
    return name + SETTER_SUFFIX


def is_property(decl: ast.FnDef) -> bool:
    return any(d.name == PROPERTY for d in decl.decorators)


def expand_properties(items: tuple, diags: DiagnosticBag) -> tuple:
    """items with each class's property setters renamed (see the module docstring)."""
    from .classes import ClassDef

    out = []
    for item in items:
        if isinstance(item, ClassDef):
            body = (_method(s, item, diags) for s in item.body)
            item = replace(item, body=tuple(s for s in body if s is not None))
        out.append(item)
    return tuple(out)


def _method(s, cls, diags: DiagnosticBag):
    if not isinstance(s, ast.FnDef) or not s.decorators:
        return s
    getters = {m.name for m in cls.body if isinstance(m, ast.FnDef) and is_property(m)}
    for d in s.decorators:
        owner, _, kind = d.name.partition(".")
        if owner in getters and kind == "setter":
            kept = tuple(x for x in s.decorators if x is not d)
            return replace(s, name=setter_name(s.name), decorators=kept)
        if owner in getters and kind:
            diags.error("E0007", d.span, construct=f"`@{d.name}`")
            return None  # (dropped: reported)
    return s
