"""Exception classes with data: `class InsufficientFunds(LedgerError):` whose `__init__` stores
attributes and calls `super().__init__(message)` (docs/semantics.md, "Exception classes").

Such a class C is two things after this pass:

- C itself, emptied: a name in the module's exception hierarchy (`ExceptionClassDef`, made by
  syntax/classes.py), raised and caught by name as any exception class is;
- `__pyx_exc_C`, a plain class (no base) with C's `__init__`, where `super().__init__(m)` became
  `self.__pyx_message = str(m)`: the object `raise C(...)` makes (semantics/raising.py). The
  raised exception carries its message (what `str(e)` and the traceback show) and the object,
  which `e.needed` reads in `except C as e`.

The message is `str()` of what `super().__init__` was given (`repr()` under a KeyError, whose str()
Python's KeyError gives as the repr of its argument). What stays refused: other methods or class
attributes (E0255), an `__init__` without exactly one top-level `super().__init__(message)`
(E0320, Python would keep the constructor's arguments as the message), a class deriving from a
class with data (E0321), and one deriving from an exception that is not a message alone (E0324).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..diagnostics import DiagnosticBag
from . import ast

DATA = "__pyx_exc_"  # `__pyx_exc_C`: the object of exception class C
MESSAGE = "__pyx_message"  # its message, as super().__init__ was given it

_EXCLUDED = {"_SystemExitCode", "Error"}  # (as syntax/inheritance.py: pyx's own classes)
# Builtin exceptions whose text or meaning is not the message `super().__init__` is given: the
# Unicode errors take five arguments, SystemExit is the exit status, KeyboardInterrupt is Ctrl-C.
_OTHER_TEXT = {"UnicodeError", "SystemExit", "KeyboardInterrupt"}


def covering(name: str) -> set[str]:
    """The builtin classes name derives from (semantics/exceptions.py's hierarchy)."""
    from ..semantics.exceptions import PARENT

    out: set[str] = set()
    while PARENT.get(name) is not None:
        name = PARENT[name]  # type: ignore[assignment]
        out.add(name)
    return out


def _trivial(stmt: ast.Node) -> bool:
    return isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit))


def _super_init(stmt: ast.Node) -> ast.Call | None:
    """`super().__init__(...)` as a statement: the call."""
    if isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.Call):
        f = stmt.expr.func
        if isinstance(f, ast.Attribute) and f.attr == "__init__" and isinstance(f.value, ast.Call) \
                and isinstance(f.value.func, ast.Name) and f.value.func.id == "super" and not f.value.args:
            return stmt.expr
    return None


def _mentions_super_init(node: ast.Node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Attribute) and n.attr == "__init__" and isinstance(n.value, ast.Call) \
                and isinstance(n.value.func, ast.Name) and n.value.func.id == "super":
            return True
        stack.extend(ast.children(n))
    return False


def split(items: tuple, class_def: Any, diags: DiagnosticBag) -> tuple:
    """items with each exception class that has an `__init__` split into the emptied class and
    its object's class `__pyx_exc_C` (placed first)."""
    from ..semantics.exceptions import PARENT

    defs = {c.name for c in items if isinstance(c, class_def)}
    parent: dict[str, str] = {}  # the module's exception classes -> their bases
    exceptions: set[str] = set()
    data: set[str] = set()
    out: list = []
    item: Any
    for item in items:
        if not (isinstance(item, class_def) and len(item.bases) == 1 and isinstance(item.bases[0], ast.Name)):
            out.append(item)
            continue
        base = item.bases[0].id
        if not (base in exceptions or (base in PARENT and base not in _EXCLUDED and base not in defs)):
            out.append(item)
            continue
        exceptions.add(item.name)
        parent[item.name] = base
        init = next((s for s in item.body if isinstance(s, ast.FnDef) and s.name == "__init__"), None)
        if base in data:
            if init is not None or not all(_trivial(s) for s in item.body):
                out.append(item)  # (E0255 is reported for it)
                continue
            diags.error("E0321", item.bases[0].span, name=item.name, base=base)
            out.append(replace(item, body=(ast.Pass(item.name_span),)))
            continue
        if init is None:
            out.append(item)  # `pass` or a docstring (or E0255 for anything else)
            continue
        root = base
        while root in parent:
            root = parent[root]
        ancestors = {root} | covering(root)
        if ancestors & _OTHER_TEXT:
            diags.error("E0324", item.bases[0].span, name=item.name, builtin=sorted(ancestors & _OTHER_TEXT)[0])
            out.append(replace(item, body=(ast.Pass(item.name_span),)))
            continue
        others = [s for s in item.body if s is not init and not _trivial(s)]
        if others:
            out.append(item)  # E0255 names the first of them
            continue
        calls = [(s, c) for s in init.body if (c := _super_init(s)) is not None]
        if len(calls) != 1 or len(calls[0][1].args) > 1 or calls[0][1].keywords \
                or sum(_mentions_super_init(s) for s in init.body) != 1:
            diags.error("E0320", init.name_span, name=item.name)
            out.append(replace(item, body=(ast.Pass(item.name_span),)))
            continue
        data.add(item.name)
        statement, call = calls[0]
        span = statement.span
        # (Python's str() of a KeyError is the repr of its one argument: `'abc'`)
        text = "repr" if "KeyError" in ancestors else "str"
        message = ast.Call(span, ast.Name(span, text), call.args, ()) if call.args else ast.StrLit(span, "")
        store = ast.Assign(span, (ast.Attribute(span, ast.Name(span, init.params[0].name), MESSAGE),), message)
        body = tuple(store if s is statement else s for s in init.body)
        annotations = tuple(item.attr_annotations) + ((store, ast.Name(span, "str")),)
        out.append(replace(item, name=DATA + item.name, bases=(), body=(replace(init, body=body),),
                           attr_annotations=annotations))
        out.append(replace(item, body=(ast.Pass(item.name_span),)))
    if not data:
        return tuple(out)

    def made(node):  # `raise C(...)` makes a `__pyx_exc_C` (what types its `__init__`: syntax/init_params.py)
        if not isinstance(node, ast.Raise):
            return node
        exc = node.exc
        if isinstance(exc, ast.Name) and exc.id in data:
            exc = ast.Call(exc.span, exc, (), ())  # `raise C`: Python calls C()
        if isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name) and exc.func.id in data:
            return replace(node, exc=replace(exc, func=replace(exc.func, id=DATA + exc.func.id)))
        return node

    return tuple(ast.transform(item, made) if isinstance(item, (ast.FnDef, class_def)) else item for item in out)
