"""`for p in xs:` whose body changes `p` in place: the loop variable is the element itself.

Python's loop variable names the list's element object, and Mojo's `for ref p in xs` binds a
reference to it, so `for p in points: p.normalize()` and `for row in grid: row.append(0)` change
the list's elements. pyx's ordinary `for` binds a copy of each element (a struct, or a list, is a
value), which made such a change E0229. This module writes such a loop as CPython's list iterator
runs it, by index, with each use of `p` in the body replaced by `xs[$i]`: the element itself,
reached in place through the list's `__refitem__` (TLend, semantics/sharing.py) exactly as
`xs[i].f = v` and `xs[i].method()` are (docs/semantics.md, "References into containers").

The rewrite is taken only where it is exactly Python's meaning, and otherwise the ordinary loop
(with its E0229/E0230 diagnostics) is checked:

- the target is one name (or `i, p` over `enumerate(xs)`), and the iterable a local variable
  (not module-level: walked by semantics/shared_iteration.py) holding a `List` whose items are not objects of a class (a
  class's handle already shares its object);
- the body changes `p` in place: an assignment (plain or augmented) or `del` through
  `p.attr`/`p[i]`, or a method called on `p` or on one of its attributes;
- `p` is not rebound in the body (`p = ...`, `for p in ...`, `except ... as p`; after a rebinding
  Python's `p` no longer names the element) and not named in the function outside the loop
  (after the loop Python's `p` still names the last element);
- no function or lambda in the body, and no comprehension, names `p` (they may bind it themselves
  or keep it);
- the body neither changes nor passes on `xs` (whose length the loop then reads once: nothing
  else can change a local list);
- `p` itself, not an attribute or item of it, is used only where no copy is kept: an argument
  of `print`/`str`/`repr`/`len`, an operand of a comparison, or anywhere for a struct without
  list, dict or set fields (a struct is a value in Python's subset as in Mojo: a copy is a copy).
"""
from __future__ import annotations

from dataclasses import fields, replace
from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR, StructType, Type
from .builtin_types import is_builtin
from .classes import is_class
from .sharing import python_shared
from .typed import LocalVar, TBlock

if TYPE_CHECKING:
    from .check import FunctionChecker

_CHANGING = frozenset(("append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort", "update",
                       "setdefault", "popitem", "add", "discard", "appendleft", "popleft", "extendleft", "rotate"))
_NO_COPY_CALLS = frozenset(("print", "str", "repr", "len"))


def walk_in_place(chk: FunctionChecker, s: ast.For):
    """The typed loop for `s` rewritten to reach its elements in place (this module's docstring),
    or False when the rules above do not all hold."""
    target, place, counter = s.target, s.iter, None
    if isinstance(target, ast.TupleExpr) and len(target.elts) == 2 and isinstance(target.elts[0], ast.Name) \
            and isinstance(place, ast.Call) and isinstance(place.func, ast.Name) and place.func.id == "enumerate" \
            and len(place.args) == 1 and not place.keywords and chk.scopes.lookup("enumerate") is None:
        counter, target, place = target.elts[0], target.elts[1], place.args[0]  # `for i, p in enumerate(xs)`
    if not isinstance(target, ast.Name) or not isinstance(place, ast.Name) or target.id == place.id \
            or (counter is not None and counter.id in (target.id, place.id)):
        return False
    var = chk.scopes.lookup(place.id)
    if not isinstance(var, LocalVar) or var.global_symbol is not None:
        return False
    name = target.id
    if not changes_in_place(s.body, name) or rebinds(s.body, name) or _in_nested(s.body, name) \
            or _touches(s.body, place.id) or _named_outside(chk.fn.decl.body, s, name):
        return False
    t = var.type
    if not is_builtin(t, "List"):
        return False
    item = t.ct_env.get("T") if isinstance(t, StructType) else None
    if not isinstance(item, Type) or item == ERROR or is_class(item):
        return False
    plain = not python_shared(item) and not any(python_shared(ft) or is_class(ft) for _, ft in
                                                getattr(item, "fields", ()) or ())
    if not plain and not _only_reached_through(s.body, name):
        return False
    return _rewrite(chk, s, place, name, counter)


def _rewrite(chk: FunctionChecker, s: ast.For, place: ast.Name, name: str, counter: ast.Name | None):
    sp = s.iter.span
    chk.next_id += 1
    index = ast.Name(sp, f"$element{chk.next_id}")

    def element(at: ast.Name) -> ast.Expr:
        return ast.Subscript(at.span, place, (index,))

    body = tuple(_substitute(stmt, name, element) for stmt in s.body)
    if counter is not None:  # (the body may rebind the count without changing the walk, as in Python)
        body = (ast.Assign(counter.span, (counter,), index),) + body
    length = ast.Call(sp, ast.Name(sp, "len"), (place,), ())
    loop = ast.For(s.span, index, ast.Call(sp, ast.Name(sp, "range"), (length,), ()), body)
    return TBlock(s.span, chk.block([loop], new_scope=True))


def _walk(body):
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(ast.children(node))


def _is(e: ast.Node, name: str) -> bool:
    return isinstance(e, ast.Name) and e.id == name


def _root(e: ast.Expr) -> ast.Expr:
    while isinstance(e, (ast.Attribute, ast.Subscript)):
        e = e.value
    return e


def changes_in_place(body, name: str) -> bool:
    return bool(element_changes(body, name))


def element_changes(body, name: str) -> set[str]:
    """How the body may change `name` in place: "=" for a store (plain, augmented or `del`)
    through `name.attr` or `name[i]`, or a changing list/dict method called on one of its
    attributes; the name of each method called on `name` itself (whether it changes it depends
    on the method)."""
    found: set[str] = set()
    for node in _walk(body):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else \
            (node.target,) if isinstance(node, ast.AugAssign) else ()
        for t in targets:
            for leaf in _leaves(t):
                if isinstance(leaf, (ast.Attribute, ast.Subscript)) and _is(_root(leaf), name):
                    found.add("=")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is(_root(node.func.value), name):
            if _is(node.func.value, name):
                found.add(node.func.attr)
            elif node.func.attr in _CHANGING:
                found.add("=")
    return found


def _leaves(target: ast.Expr):
    if isinstance(target, (ast.TupleExpr, ast.ListExpr)):
        for t in target.elts:
            yield from _leaves(t)
    else:
        yield target


def rebinds(body, name: str) -> bool:
    for node in _walk(body):
        targets = node.targets if isinstance(node, ast.Assign) else \
            (node.target,) if isinstance(node, (ast.AugAssign, ast.For)) else ()
        if any(_is(leaf, name) for t in targets for leaf in _leaves(t)):
            return True
        if isinstance(node, ast.Delete) and any(_is(t, name) for t in node.targets):
            return True
        if isinstance(node, (ast.VarDecl, ast.Handler, ast.Comptime)) and node.name == name:
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
        if isinstance(node, ast.Import) and (node.alias or node.module) == name:
            return True
    return False


def _mentions(node: ast.Node, name: str) -> bool:
    return any(_is(n, name) or (isinstance(n, ast.Param) and n.name == name) for n in _walk([node]))


def _in_nested(body, name: str) -> bool:
    return any(isinstance(n, (ast.FnDef, ast.Lambda, ast.Comprehension)) and _mentions(n, name) for n in _walk(body))


def _touches(body, place: str) -> bool:
    """Whether the body may change the iterated list: names it other than as `xs[i]` or `xs[i].a`
    read, `len(xs)`, or as the receiver of a method that does not change it."""
    for node in _walk(body):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else \
            (node.target,) if isinstance(node, (ast.AugAssign, ast.For)) else ()
        if any(_is(_root(leaf), place) for t in targets for leaf in _leaves(t)):
            return True
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and _is(_root(node.func.value), place) \
                    and node.func.attr in _CHANGING:
                return True
            callee = node.func.id if isinstance(node.func, ast.Name) else None
            if (callee != "len" and any(_is(a, place) for a in node.args)) \
                    or any(_is(k.value, place) for k in node.keywords):
                return True  # (a function given the list may change it)
        if isinstance(node, (ast.VarDecl, ast.Handler)) and node.name == place:
            return True
        if isinstance(node, (ast.FnDef, ast.Lambda, ast.Comprehension)) and _mentions(node, place):
            return True
    return False


def _named_outside(fn_body, loop: ast.For, name: str) -> bool:
    """Whether `name` is used in the function outside the loop, other than in another `for name
    in ...` loop (which binds it afresh before its body reads it)."""
    stack = list(fn_body)
    while stack:
        node = stack.pop()
        if node is loop or (isinstance(node, ast.For) and any(_is(t, name) for t in _leaves(node.target))):
            continue
        if _is(node, name) or (isinstance(node, (ast.VarDecl, ast.Handler)) and node.name == name):
            return True
        stack.extend(ast.children(node))
    return False


def _only_reached_through(body, name: str) -> bool:
    """Whether every use of `name` reads or changes through it (`p.a`, `p[i]`, `p.m()`) or keeps
    no copy of it (`print(p)`, `len(p)`, `p == q`)."""
    allowed: set[int] = set()
    for node in _walk(body):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and _is(node.value, name):
            allowed.add(id(node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NO_COPY_CALLS:
            allowed.update(id(a) for a in node.args if _is(a, name))
        elif isinstance(node, ast.Compare):
            allowed.update(id(a) for a in (node.left,) + tuple(node.comparators) if _is(a, name))
    return all(id(n) in allowed for n in _walk(body) if _is(n, name))


def _substitute(node, name: str, element):
    """node with each `name` replaced by `element(that Name)`."""
    if _is(node, name):
        return element(node)
    if not isinstance(node, ast.Node):
        return node
    changes = {}
    for f in fields(node):
        if f.name in ("span", "name_span"):
            continue
        value = getattr(node, f.name)
        if isinstance(value, ast.Node):
            new = _substitute(value, name, element)
            if new is not value:
                changes[f.name] = new
        elif isinstance(value, tuple) and any(isinstance(v, ast.Node) for v in value):
            new = tuple(_substitute(v, name, element) for v in value)
            if any(a is not b for a, b in zip(new, value, strict=True)):
                changes[f.name] = new
    return replace(node, **changes) if changes else node
