"""`type(obj).__name__` and `obj.__class__.__name__` of a class's objects: the name of the
object's own class, which a subclass object reached through its base's type shows as its own.

Each class of a module that reads `.__name__` gets a method returning its name
(`TYPE_NAME_METHOD`), which a subclass overrides with its own, so the call dispatches on the
object's class as Python's `type(obj)` does (syntax/inheritance.py). The checker turns the
expressions into that call, or into the name of a value's Python type for the types that are
not classes (semantics/type_names.py).
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import DiagnosticBag
from ..source import SourceFile
from . import ast

TYPE_NAME_METHOD = "__pyx_type_name"


def add_type_name_methods(items: tuple, diags: DiagnosticBag) -> tuple:
    """items with a TYPE_NAME_METHOD in each class, where the module reads `.__name__`."""
    from .classes import ClassDef
    from .parser import parse  # (the parser imports the builder, which imports this module)

    classes = [c for c in items if isinstance(c, ClassDef)]
    if not classes or ".__name__" not in classes[0].span.file.text:
        return items
    defined = {c.name: c for c in classes}

    def exception(c) -> bool:  # (an exception class holds no methods: syntax/inheritance.py)
        seen = set()
        while c.bases and isinstance(c.bases[0], ast.Name) and c.name not in seen:
            seen.add(c.name)
            if c.bases[0].id not in defined:
                return True  # `Exception`, `ValueError`, ...: the only bases that are not the module's classes
            c = defined[c.bases[0].id]
        return False

    out = []
    for item in items:
        if isinstance(item, ClassDef) and not exception(item) \
                and not any(isinstance(s, ast.FnDef) and s.name == TYPE_NAME_METHOD for s in item.body):
            text = f'def {TYPE_NAME_METHOD}(self) -> str:\n    return "{item.name}"\n'
            method = parse(SourceFile(f"<class {item.name}>", text), diags).body
            item = replace(item, body=tuple(item.body) + tuple(method))
        out.append(item)
    return tuple(out)
