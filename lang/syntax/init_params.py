"""Unannotated `__init__` parameters stored as attributes (`def __init__(self, name, age):
self.name = name`): typed by what the module's calls of the class pass, as a Python reader would
read them (docs/semantics.md, "Classes").

A parameter p of class C's `__init__` gets a type when every call `C(...)` in the module passes
it (or leaves it to its default) a value whose type can be read off the call: a literal (`3`,
`-1.5`, `"x"`, `True`), a new object or struct (`Point(0, 0)`), or a parameter of the calling
function that has an annotation. Where two calls pass different types the program is E0177
(Python would store either: say which with an annotation), but for an int and a float: the
parameter is then `int | float`, as Python's (semantics/numbers.py). Nothing is inferred, and E0256 stays,
where any call passes something else, where there is no call, or where the class name is used
otherwise than called (passed as a function, say), since a call pyx cannot see could pass
anything; nor for a class in a hierarchy, whose `__init__` subclasses also reach. Calls from
other modules are checked against the inferred type like any annotation (a mismatch is a type
error, never a conversion)."""
from __future__ import annotations

from dataclasses import fields, replace

from ..diagnostics import DiagnosticBag
from . import ast

_LITERALS = {"IntLit": "int", "FloatLit": "float", "StrLit": "str", "BoolLit": "bool"}


def infer_init_params(items: tuple, classes: dict, in_hierarchy, structs: set[str], diags: DiagnosticBag) -> tuple:
    """items with the ClassDefs' unannotated, stored `__init__` parameters annotated (classes:
    name -> ClassDef)."""
    wanted = {}
    for name, cls in classes.items():
        if in_hierarchy(name):
            continue
        init = next((s for s in cls.body if isinstance(s, ast.FnDef) and s.name == "__init__"), None)
        if init is None or len(init.params) < 2 or init.params[0].name != "self":
            continue
        stored = _stored_params(init)
        untyped = [p for p in init.params[1:] if p.annotation is None and p.name in stored and not p.variadic]
        if untyped:
            wanted[name] = (init, untyped)
    if not wanted:
        return items
    calls: dict[str, list] = {name: [] for name in wanted}
    other_uses: set[str] = set()
    for item in items:
        _walk(item, None, set(wanted), calls, other_uses)
    for found in calls.values():  # (in the order written: the first call's type is the one compared)
        found.sort(key=lambda call: (call[0].span.file.name, call[0].span.start))
    known = set(classes) | structs
    out = []
    for item in items:
        cls_name: str = getattr(item, "name", "")  # (a ClassDef: syntax/classes.py imports this module)
        if isinstance(item, ast.Stmt) and type(item).__name__ == "ClassDef" and cls_name in wanted \
                and cls_name not in other_uses and calls[cls_name]:
            init, untyped = wanted[cls_name]
            typed = _typed(init, untyped, calls[cls_name], known, cls_name, diags)
            if typed is not init:
                body = getattr(item, "body")  # noqa: B009  (typed as a Stmt here)
                item = replace(item, body=tuple(typed if s is init else s for s in body))  # type: ignore[call-arg]
        out.append(item)
    return tuple(out)


def _stored_params(init: ast.FnDef) -> set[str]:
    """The parameters `__init__` stores as an attribute as they are (`self.x = x`)."""
    from .classes import attribute_assigns

    return {assign.value.id for _, assign in attribute_assigns(init.body, [])
            if isinstance(assign.value, ast.Name)}


def _walk(node, fn, names: set[str], calls: dict, other_uses: set[str], annotation: bool = False) -> None:
    """Collect, for each class in names, its calls (with the function each is in) and whether its
    name is used any other way."""
    stack = [(node, fn, annotation)]
    while stack:
        node, fn, annotation = stack.pop()
        if isinstance(node, tuple):
            stack.extend((x, fn, annotation) for x in node)
            continue
        if not isinstance(node, ast.Node):
            continue
        if isinstance(node, ast.FnDef):
            fn = node
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            calls[node.func.id].append((node, fn))
            stack.extend((x, fn, False) for x in (node.args, node.keywords))
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            stack.extend((x, fn, False) for x in node.args[:1])  # (`isinstance(x, C)` makes nothing)
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names:
            continue  # `C.LIMIT`, `C.make()`: a class attribute or static method, no `__init__`
        if isinstance(node, ast.Name) and node.id in names and not annotation:
            other_uses.add(node.id)
        for f in fields(node):
            if f.name not in ("span", "name_span"):
                stack.append((getattr(node, f.name), fn, annotation or f.name in ("annotation", "returns")
                              or isinstance(node, ast.Subscript)))


def _typed(init: ast.FnDef, untyped: list, calls: list, known: set[str], cls: str, diags: DiagnosticBag):
    params = list(init.params[1:])
    position = {p.name: k for k, p in enumerate(params)}
    found: dict[str, ast.Expr] = {}  # name -> the annotation its calls give it
    for p in untyped:
        seen: list[tuple] = []
        for call, fn in calls:
            k = position[p.name]
            value = next((kw.value for kw in call.keywords if kw.name == p.name), None)
            if value is None and k < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:k + 1]):
                value = call.args[k]
            if value is None:
                value = p.default
            t = _type_of(value, fn, known) if value is not None else None
            if t is None:
                seen = []
                break  # a value of a type pyx cannot read here: nothing inferred
            seen.append((t, value))
        if not seen:
            continue
        first_text, first_value = _text(seen[0][0]), seen[0][1]
        clash = next(((t, v) for t, v in seen if _text(t) != first_text), None)
        if clash is not None and {_text(t) for t, _v in seen} == {"int", "float"}:
            # `P(1)` and `P(2.5)`: Python's `int | float` (semantics/numbers.py)
            span = seen[0][0].span
            found[p.name] = ast.Binary(span, "|", ast.Name(span, "int"), ast.Name(span, "float"))
            continue
        if clash is not None:
            diags.error("E0177", clash[1].span, param=p.name, cls=cls, found=_text(clash[0]), first=first_text,
                        line=first_value.span.line)
            continue
        found[p.name] = seen[0][0]
    if not found:
        return init
    new = tuple(replace(p, annotation=found[p.name]) if p.name in found else p for p in init.params)
    return replace(init, params=new)


def _type_of(value: ast.Expr, fn, known: set[str]) -> ast.Expr | None:
    """The annotation the value's type is written as, where the call shows it."""
    inner = value.operand if isinstance(value, ast.Unary) and value.op in ("-", "+") else value
    kind = _LITERALS.get(type(inner).__name__)
    if kind is not None and (inner is value or kind in ("int", "float")):
        return ast.Name(value.span, kind)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in known:
        return ast.Name(value.span, value.func.id)
    if isinstance(value, ast.Name) and fn is not None:
        p = next((p for p in fn.params if p.name == value.id), None)
        if p is not None and p.annotation is not None and not p.variadic and not _rebound(fn, value.id):
            return p.annotation
    return None


def _rebound(fn: ast.FnDef, name: str) -> bool:
    from .inheritance import binding_count

    return binding_count(fn, name) > 1


def _text(annotation: ast.Node) -> str:
    return annotation.span.file.text[annotation.span.start:annotation.span.end] \
        if not isinstance(annotation, ast.Name) else annotation.id
