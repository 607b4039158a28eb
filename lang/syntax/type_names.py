"""`type(obj).__name__` and `obj.__class__.__name__` of a class's objects: the name of the
object's own class, which a subclass object reached through its base's type shows as its own.

Each class of a module that reads `.__name__` gets a method returning its name
(`TYPE_NAME_METHOD`), which a subclass overrides with its own, so the call dispatches on the
object's class as Python's `type(obj)` does (syntax/inheritance.py). The checker turns the
expressions into that call, or into the name of a value's Python type for the types that are
not classes (semantics/type_names.py).
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..diagnostics import DiagnosticBag
from ..source import SourceFile
from . import ast

TYPE_NAME_METHOD = "__pyx_type_name"
TYPE_OBJECT = "__pyx_TypeObject"
_TYPE_CALL = re.compile(r"(?<![\w.])type\(")  # `type(x)`, not `dtype(`, `x.type(`
# What `type(x)` is as a value: Python's class object reduced to what a program can do with it
# here, print it (`<class '__main__.C'>`) and compare it with another (semantics/type_objects.py).
TYPE_OBJECT_SOURCE = f"""struct {TYPE_OBJECT}:
    var text: String

    fn __init__(out self, text: String):
        self.text = text

    fn __eq__(self, other: Self) -> Bool:
        return self.text == other.text

    fn __ne__(self, other: Self) -> Bool:
        return self.text != other.text

    fn __str__(self) -> String:
        return self.text

    fn __repr__(self) -> String:
        return self.text
"""


def add_type_name_methods(items: tuple, diags: DiagnosticBag) -> tuple:
    """items with a TYPE_NAME_METHOD in each class, where the module reads `.__name__` or calls
    `type(...)` (and then the TYPE_OBJECT struct too)."""
    from .classes import ClassDef
    from .parser import parse  # (the parser imports the builder, which imports this module)

    written = next((i.span.file.text for i in items if not i.span.file.name.startswith("<")), "")
    calls_type = _TYPE_CALL.search(written) is not None
    if calls_type:  # `type(x)` as a value: printed, compared (semantics/type_objects.py)
        items = tuple(items) + tuple(parse(SourceFile("<type objects>", TYPE_OBJECT_SOURCE), diags).body)
    classes = [c for c in items if isinstance(c, ClassDef)]
    if not classes or (".__name__" not in classes[0].span.file.text and not calls_type):
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
