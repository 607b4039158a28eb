"""The pending annotation of an attribute typed by the checker (semantics/attribute_types.py):
what the class expansion (syntax/classes.py) writes for `self.x = v` when it cannot read v's type."""
from __future__ import annotations

import zlib
from typing import TypeGuard

from . import ast

_PREFIX = "__pyx_pending_"
_SEPARATOR = "__attr_"


def pending_annotation(cls: str, attr: str, value: ast.Expr) -> ast.Name:
    """The annotation of an attribute the checker types: a name that says the class, the
    attribute and whether its first value is None (the generated struct is parsed from text, so
    the name is all that reaches the checker)."""
    first = "none" if isinstance(value, ast.NoneLit) else "value"
    # (the module's file too: a subclass's data struct, in a file of its own, declares the same
    # attribute under the same name, and another module's class of this name is another class)
    module = f"{zlib.crc32(value.span.file.name.encode()):08x}"
    return ast.Name(value.span, f"{_PREFIX}{first}_{module}_{cls}{_SEPARATOR}{attr}")


def is_pending_annotation(annotation: object) -> TypeGuard[ast.Name]:
    return isinstance(annotation, ast.Name) and annotation.id.startswith(_PREFIX)


def pending_first_value(annotation: ast.Name) -> str:
    """The attribute's value before `__init__` assigns it (the data struct's constructor argument,
    as source): None where the first value is None (the type is then an object reference or an
    Optional, both of which take None), else the zero value of the type found."""
    from .classes import ZERO_FN

    return "None" if annotation.id.startswith(f"{_PREFIX}none_") else f"{ZERO_FN}[{annotation.id}]()"


def attribute_name(annotation: ast.Name) -> tuple[str, str]:
    """The class and the attribute a pending annotation names."""
    cls, attr = annotation.id[len(_PREFIX):].split("_", 2)[2].split(_SEPARATOR, 1)
    return cls, attr
