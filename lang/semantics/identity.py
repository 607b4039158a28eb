"""`a is b` / `a is not b` of lists, dicts and sets (objects: semantics/classes.py `identity`).

Python answers whether the two are one object. pyx's lists, dicts and sets are values (a copy
where Python would share a reference: semantics/sharing.py), so there is no address to compare;
but the answer often shows in the source, and then pyx gives it when compiling:

- a new object (a display `[...]`, `{...}`, a comprehension, `list(x)`, `dict(x)`, `set(x)`,
  `sorted(x)`, `x.copy()`, `x[a:b]`, `a + b`) is no other object: `xs is []` is False;
- `a is a` is True;
- a name bound once in the function (or the script), outside loops, to a new object, is that
  object; a name bound once, outside loops, to another such name (`b = a`) is the other's object.
  So after `a = [1]; b = a; c = a.copy()`, `a is b` is True and `a is c` False, as in Python.

Anything else (a parameter, a name bound twice, in a loop, by a `for`, unpacking or a call's
result, a module-level variable from a function) is E0327: pyx cannot tell, and says so.
The operands are evaluated as they are written; the answer is a constant.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from .globals import bound_names, is_script
from .typed import TConst, TExpr, TExprStmt, TLocal, TStmt, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

_MAKERS = frozenset({"list", "dict", "set", "sorted", "Counter", "defaultdict", "deque", "OrderedDict"})


def is_new(e: ast.Expr) -> bool:
    """An expression that makes a new list, dict or set each time it runs."""
    if isinstance(e, (ast.ListExpr, ast.DictExpr, ast.SetExpr)):
        return True
    if isinstance(e, ast.Comprehension):
        return e.kind != "generator"
    if isinstance(e, ast.Call):
        if isinstance(e.func, ast.Name):
            return e.func.id in _MAKERS
        return isinstance(e.func, ast.Attribute) and e.func.attr == "copy" and not e.args and not e.keywords
    if isinstance(e, ast.Subscript):
        return len(e.items) == 1 and isinstance(e.items[0], ast.Slice)
    return isinstance(e, ast.Binary) and e.op in ("+", "*", "|", "&", "-", "^")


class _Bindings:
    """Each name's bindings in a function body (nested functions' too, conservatively): the value
    of each plain binding (`x = v`, `x: T = v`), None for any other kind; and whether in a loop."""

    def __init__(self, decl: ast.FnDef) -> None:
        self.found: dict[str, list[tuple[ast.Expr | None, bool]]] = {}
        for p in decl.params:
            self._add(p.name, None, False)
        stack: list[tuple[ast.Node, bool]] = [(s, False) for s in decl.body]
        while stack:
            node, looped = stack.pop()
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self._add(target.id, node.value, looped)
                    else:
                        self._names(target, looped)
            elif isinstance(node, ast.VarDecl):
                self._add(node.name, node.value, looped)
            elif isinstance(node, ast.For):
                self._names(node.target, True)
            elif isinstance(node, ast.Handler) and node.name:
                self._add(node.name, None, looped)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                for name in node.names:
                    self._add(name, None, looped)
            elif isinstance(node, ast.FnDef):
                self._add(node.name, None, looped)
                for p in node.params:
                    self._add(p.name, None, looped)
            elif isinstance(node, ast.Import):
                self._add(node.alias or node.module, None, looped)
                for _, local in node.names:
                    self._add(local, None, looped)
            elif isinstance(node, ast.CompFor):
                self._names(node.target, True)
            inner = looped or isinstance(node, (ast.For, ast.While))
            stack.extend((child, inner) for child in ast.children(node))

    def _add(self, name: str, value: ast.Expr | None, looped: bool) -> None:
        self.found.setdefault(name, []).append((value, looped))

    def _names(self, target: ast.Node, looped: bool) -> None:
        if isinstance(target, ast.Name):
            self._add(target.id, None, looped)
        for child in ast.children(target):
            self._names(child, looped)

    def object_of(self, name: str) -> str | None:
        """The name whose one binding made the object `name` holds; None where that does not show."""
        seen: set[str] = set()
        while name not in seen:
            seen.add(name)
            bindings = self.found.get(name, [])
            if len(bindings) != 1 or bindings[0][1] or bindings[0][0] is None:
                return None
            value = bindings[0][0]
            if is_new(value):
                return name
            if not isinstance(value, ast.Name):
                return None
            name = value.id
        return None


def identity(chk: FunctionChecker, e: ast.Compare, left: TExpr, right: TExpr) -> TExpr:
    """`left is right` (or `is not`) of two lists, dicts or sets: a constant, after the operands, or
    E0327."""
    op = e.ops[0]
    a, b = e.left, e.comparators[0]
    answer: bool | None = None
    if is_new(a) or is_new(b):
        answer = False
    elif isinstance(a, ast.Name) and isinstance(b, ast.Name):
        if a.id == b.id:
            answer = True
        elif _visible(chk, a.id) and _visible(chk, b.id):
            bindings = _Bindings(chk.fn.decl)
            first, second = bindings.object_of(a.id), bindings.object_of(b.id)
            if first is not None and second is not None:
                answer = first == second
    if answer is None:
        kind = "dict" if is_builtin_dict(left.type) else "set" if is_builtin_set(left.type) else "list"
        chk.msg.error("E0327", e.span, op=op, kind=kind)
        return TConst(e.span, T.ERROR, None)
    value = TConst(e.span, T.BOOL, answer if op == "is" else not answer)
    effects: list[TStmt] = [TExprStmt(x.span, x) for x in (left, right) if not isinstance(x, TLocal)]
    return TStmtExpr(e.span, T.BOOL, effects, value) if effects else value


def _visible(chk: FunctionChecker, name: str) -> bool:
    """Whether `name` is the function's own variable (or the script's, no function rebinding it
    through `global`), so that its bindings are all in this body."""
    var = chk.scopes.lookup(name)
    if var is None or isinstance(var, TConst):
        return False
    if not is_script(chk.fn.decl):
        return getattr(var, "global_symbol", None) is None
    return not any(name in bound_names(d.body)[1] for d in chk.module.functions.values() if not is_script(d))


def is_builtin_dict(t) -> bool:
    from .builtin_types import is_builtin

    return is_builtin(t, "Dict") or is_builtin(t, "Counter") or is_builtin(t, "OrderedDict")


def is_builtin_set(t) -> bool:
    from .builtin_types import is_builtin

    return is_builtin(t, "Set")
