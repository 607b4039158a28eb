"""Class attributes (`class A: count = 0`, `A.LIMIT = 10` after the class): module-level variables.

A class attribute is one value for the whole program, as a module-level variable is, so it
becomes one (docs/semantics.md, "Class attributes"), named `__pyx_A_count`:

- `count = 0` (or `count: int = 0`) in the body of class `A` becomes the module-level statement
  `__pyx_A_count = 0`, right after the class (where Python runs the class body);
  `A.NAME = v` at the top of the module, for a NAME the body does not have, declares one too;
- `A.count` anywhere, and `B.count` for a subclass B that does not define its own, read and
  assign that variable (a function that assigns it gets the `global` it needs);
- `obj.count` and `self.count` are looked up by the checker (semantics/inheritance.py,
  `class_attribute`): the attribute of the object's class, which a subclass may define again.

Python's `self.count = v` would make an instance attribute that hides the class attribute for
that object only, and `B.count = v` in a function (B inheriting A's `count`) a new attribute of
B; pyx refuses both (E0269) rather than change the class attribute for everyone.
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import DiagnosticBag
from . import ast

PREFIX = "__pyx_"


def global_name(cls: str, attr: str) -> str:
    return f"{PREFIX}{cls}_{attr}"


def _class_attribute_stmt(stmt) -> str | None:
    """The name a class-body statement binds as a class attribute (None: not one)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, ast.VarDecl) and not stmt.explicit and stmt.value is not None:
        return stmt.name
    return None


def hoist(items: tuple, class_type, diags: DiagnosticBag) -> tuple:
    """items with every class attribute a module-level variable (see the module's docstring)."""
    defs = {c.name: c for c in items if isinstance(c, class_type)}
    parent = {c.name: c.bases[0].id for c in defs.values()
              if len(c.bases) == 1 and isinstance(c.bases[0], ast.Name) and c.bases[0].id in defs}
    owned: dict[str, set[str]] = {name: set() for name in defs}  # class -> its class attributes
    for c in defs.values():
        for stmt in c.body:
            name = _class_attribute_stmt(stmt)
            if name is not None:
                owned[c.name].add(name)
    for item in items:  # `A.NAME = v` at the top of the module: A's own attribute, as in Python
        if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Attribute) \
                and isinstance(item.targets[0].value, ast.Name) and item.targets[0].value.id in defs:
            owned[item.targets[0].value.id].add(item.targets[0].attr)
    if not any(owned.values()):
        return items

    def resolve(cls: str, attr: str) -> str | None:
        found = _resolve(cls, attr, owned, parent)
        return global_name(found, attr) if found is not None else None

    assigned_through_self = _self_assigned(defs.values())

    def fix_refs(node):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in defs:
            g = resolve(node.value.id, node.attr)
            if g is not None:
                return ast.Name(node.span, g)
        return node

    def fix_function(fn: ast.FnDef, moved: dict | None = None) -> ast.FnDef:
        for target in _assigned_attributes(fn):  # `B.x = v` where B inherits x: a new attribute of B
            cls, attr = target.value.id, target.attr
            found = _resolve(cls, attr, owned, parent)
            if found is not None and found != cls:
                diags.error("E0269", target.span, target=f"{cls}.{attr}", owner=f"class `{cls}`", cls=found, name=attr)
        return _with_globals(ast.transform(fn, fix_refs, moved))

    refused = {span for (cls, attr), span in assigned_through_self.items() if _resolve(cls, attr, owned, parent)}

    def drop_refused(node):  # (reported: E0269, and not reported again as an unknown attribute)
        targets = _targets(node)
        return ast.Pass(node.span) if any(t.span in refused for t in targets) else node

    out: list = []
    for item in items:
        if isinstance(item, class_type):
            body, hoisted = [], []
            moved: dict = {}  # (rebuilt `self.x: T = v` keep their annotations)
            for stmt in item.body:
                name = _class_attribute_stmt(stmt)
                if name is None:
                    if isinstance(stmt, ast.FnDef):
                        stmt = fix_function(ast.transform(stmt, drop_refused, moved) if refused else stmt, moved)
                    body.append(stmt)
                    continue
                value = ast.transform(stmt.value, fix_refs)
                g = global_name(item.name, name)
                hoisted.append(ast.Assign(stmt.span, (ast.Name(stmt.span, g),), value) if isinstance(stmt, ast.Assign)
                               else replace(stmt, name=g, value=value))
            for (cls, attr), span in assigned_through_self.items():
                found = _resolve(cls, attr, owned, parent) if cls == item.name else None
                if found is not None:
                    diags.error("E0269", span, target=f"self.{attr}", owner="this object", cls=found, name=attr)
            annotations = tuple((moved.get(id(node), node), ann) for node, ann in item.attr_annotations)
            out.append(replace(item, body=tuple(body) or (ast.Pass(item.span),), attr_annotations=annotations))
            out.extend(hoisted)
            continue
        out.append(fix_function(item) if isinstance(item, ast.FnDef) else ast.transform(item, fix_refs))
    return tuple(out)


def _resolve(cls: str, attr: str, owned: dict, parent: dict) -> str | None:
    """The class (cls or a base) whose class attribute `cls.attr` is."""
    current: str | None = cls
    while current is not None:
        if attr in owned.get(current, ()):
            return current
        current = parent.get(current)
    return None


def _self_assigned(defs) -> dict:
    """(class, name) -> span of each `self.name = v` (or `op=`) in a class's methods."""
    out: dict = {}
    for c in defs:
        for m in c.body:
            if not (isinstance(m, ast.FnDef) and m.params):
                continue
            self_name = m.params[0].name
            stack = list(m.body)
            while stack:
                s = stack.pop()
                targets = _targets(s)
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == self_name:
                        out.setdefault((c.name, t.attr), t.span)
                stack.extend(x for x in ast.children(s) if isinstance(x, ast.Stmt))
    return out


def _assigned_attributes(fn: ast.FnDef) -> list:
    """The `Name.attr` targets fn assigns (or changes with `op=`)."""
    out = []
    stack = list(fn.body)
    while stack:
        s = stack.pop()
        targets = _targets(s)
        out += [t for t in targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)]
        stack.extend(x for x in ast.children(s) if isinstance(x, ast.Stmt))
    return out


def _with_globals(fn: ast.FnDef) -> ast.FnDef:
    """fn with `global` for each class attribute variable it assigns."""
    names: list[str] = []
    stack = list(fn.body)
    while stack:
        s = stack.pop()
        if isinstance(s, ast.FnDef):
            continue
        targets = _targets(s)
        for t in targets:
            if isinstance(t, ast.Name) and t.id.startswith(PREFIX) and t.id not in names:
                names.append(t.id)
        stack.extend(x for x in ast.children(s) if isinstance(x, ast.Stmt))
    if not names:
        return fn
    return replace(fn, body=(ast.Global(fn.span, tuple(sorted(names))),) + tuple(fn.body))


def _targets(s) -> tuple:
    """What an assignment (or `op=`) statement assigns; () for any other node."""
    if isinstance(s, ast.Assign):
        return s.targets
    return (s.target,) if isinstance(s, ast.AugAssign) else ()
