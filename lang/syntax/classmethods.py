"""`@classmethod` (Python's alternative constructors, `cls(...)`, `cls.count`): each class gets its
own copy of every class method it has, its own or the nearest base's, as a static method with `cls`
written as the class's name (before class attributes become module variables and bases' methods
are copied into subclasses: syntax/classes.py). So `Dog.make("rex")` makes a Dog where
`Animal.make` makes an Animal, as Python's `cls` is the class the method is called on.

Called on a class, that is Python's answer. Called through an object (`pet.make()`), Python's `cls`
is the object's class: where a subclass has its own copy (any subclass, since each gets one),
semantics/structs.py refuses the call (E0342) rather than pick the declared class's."""
from __future__ import annotations

from dataclasses import replace

from . import ast

DECORATOR = "classmethod"


def expand(items: tuple, class_def) -> tuple:
    """items with each class (a `class_def`, syntax/classes.py ClassDef) holding a static copy of
    each class method it has."""
    defs = {c.name: c for c in items if isinstance(c, class_def)}
    if not any(isinstance(m, ast.FnDef) and _is_class_method(m) for c in defs.values() for m in c.body):
        return items

    def base_of(c) -> str | None:
        base = c.bases[0] if len(c.bases) == 1 else None
        return base.id if isinstance(base, ast.Name) and base.id in defs else None

    def visible(name: str) -> dict[str, ast.FnDef]:
        """The class methods of class name: its own, then its bases' (nearest first)."""
        found: dict[str, ast.FnDef] = {}
        decided: set[str] = set()  # names a nearer class defines (a plain method hides a base's)
        walked: set[str] = set()
        c = defs.get(name)
        while c is not None and c.name not in walked:
            walked.add(c.name)  # (a cycle of bases ends here; its error is the hierarchy's)
            for m in c.body:
                if isinstance(m, ast.FnDef) and m.name not in decided:
                    decided.add(m.name)
                    if _is_class_method(m):
                        found[m.name] = m
            base = base_of(c)
            c = defs.get(base) if base is not None else None
        return found

    out = []
    for item in items:
        if not isinstance(item, class_def):
            out.append(item)
            continue
        methods = visible(item.name)
        if not methods:
            out.append(item)
            continue
        body = [as_static(s, item.name) if isinstance(s, ast.FnDef) and s.name in methods else s for s in item.body]
        own = {s.name for s in item.body if isinstance(s, ast.FnDef)}
        body += [as_static(m, item.name) for name, m in methods.items() if name not in own]
        out.append(replace(item, body=tuple(body)))
    return tuple(out)


def _is_class_method(method: ast.FnDef) -> bool:
    return any(d.name == DECORATOR for d in method.decorators)


def as_static(method: ast.FnDef, cls: str) -> ast.FnDef:
    """method, if it is a `@classmethod` of class cls, as cls's static method; else itself."""
    if not _is_class_method(method) or not method.params:
        return method
    own = method.params[0].name

    def named_class(node):
        if isinstance(node, ast.Name) and node.id == own:
            return replace(node, id=cls)
        return None

    body = ast.transform(method.body, named_class)
    decorators = tuple(ast.Decorator(d.span, "staticmethod", ()) if d.name == DECORATOR else d
                       for d in method.decorators)
    return replace(method, params=method.params[1:], body=body, decorators=decorators)
