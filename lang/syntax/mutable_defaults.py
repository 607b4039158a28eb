"""A list, dict, set or object as a parameter's default (`def fib(n: int, memo: dict[int, int] = {})`,
`def add(x: int, xs: list[int] = [])`, `def f(p: Point = Point(0, 0))`): CPython evaluates the
default once, when the module runs the `def`, and every call that leaves the argument out gets that
one object (the memo idiom relies on it; the list that grows across calls is the famous surprise).

pyx does the same: each such default becomes a module-level variable no source spells
(`__pyx_default_add_xs`, `__pyx_default_C_m_xs` for a method of class C), assigned just before the
`def` (or its class), with the parameter's annotation, and the default is written as that name. A
call that leaves the argument out passes the variable (semantics/calls.py `default_value`), so the
calls share one object; a body that changes it in place gets the implicit `mut`
(semantics/implicit_mut.py), which changes the variable itself.

What pyx does not follow: a `def` that returns such a list, dict or set (`return xs`) gives the
caller, in Python, the default object itself, which later calls change; pyx's caller gets a copy.
So a call that leaves the argument out is taken only where nothing of its result is kept: a
statement of its own (`add(1)`) or `print(add(1))` alone; elsewhere E0326 says so. An object's
default (a class instance) is a reference, shared as in Python, and has no such limit. A call from
another module reads the variable as an alias of its global (semantics/calls.py `_shared_default`).

The other idiom, `xs: list[int] | None = None` with `if xs is None: xs = []` first in the body, is
a new list at each call that leaves xs out: `_none_guarded` writes it as `xs: list[int] = FRESH([])`,
a default made at each call, and a `None` passed to it as that new list."""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import DiagnosticBag
from . import ast

PREFIX = "__pyx_default_"
FRESH = "__pyx_fresh_default"  # `FRESH(E)`: a default made again at each call (Python's `if p is None: p = E`)
# Calls that make a new container: Python's list, dict and set, and collections' (their imports
# make them the stdlib's, stdlib/_collections.px).
_CONTAINER_CALLS = frozenset({"list", "dict", "set", "Counter", "defaultdict", "deque", "OrderedDict"})


def _container(e) -> bool:
    """`[]`, `{}`, `{1, 2}`, `[0] * 3`? no: displays and `list()`/`Counter()`/... calls only."""
    if isinstance(e, (ast.ListExpr, ast.DictExpr, ast.SetExpr)):
        return True
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in _CONTAINER_CALLS


def _object(e, classes: frozenset = frozenset()) -> bool:
    """`Point(0, 0)`: a call of a class the module defines (`classes`; any capitalized name before
    they are known, for the cheap test)."""
    if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name)):
        return False
    return e.func.id in classes if classes else e.func.id[:1].isupper() and e.func.id not in _CONTAINER_CALLS


def expand(items: tuple, class_def, diags: DiagnosticBag) -> tuple:
    """items with each shared default a module-level variable assigned before its `def` or class."""
    classes = frozenset(i.name for i in items if isinstance(i, class_def))
    returned: dict[str, tuple[int, ast.Param]] = {}  # function -> (index, parameter) it returns
    out: list = []
    guarded: dict[str, dict[int, ast.Expr]] = {}  # function -> position -> E of `if p is None: p = E`
    for item in items:
        if isinstance(item, ast.FnDef):
            item, made = _rewrite(_none_guarded(item, guarded), "", classes, returned, diags)
        elif isinstance(item, class_def):
            body, made, changed = [], [], False
            for m in item.body:
                if isinstance(m, ast.FnDef):
                    m2, own = _rewrite(_none_guarded(m, None), item.name + "_", classes, None, diags)
                    made += own
                    changed = changed or m2 is not m
                    m = m2
                body.append(m)
            item = replace(item, body=tuple(body)) if changed else item
        else:
            made = []
        out += made
        out.append(item)
    if returned:
        _check_kept_results(tuple(out), returned, class_def, diags)
    if guarded:
        out = list(ast.transform(tuple(out), lambda n: _none_passed(n, guarded)))
    return tuple(out)


def _none_guarded(fn: ast.FnDef, guarded: dict | None) -> ast.FnDef:
    """`def f(xs: list[int] | None = None):` whose body starts `if xs is None: xs = []` (and never
    binds xs again): Python's idiom for a new list at each call that leaves xs out. Written as
    `xs: list[int] = FRESH([])`, a default made again at each call (semantics/calls.py
    `default_value`), without the `if`; `guarded` (a module-level function's) notes E, which
    replaces a `None` its calls pass (`_none_passed`). E must be made of literals alone (it is
    evaluated where the call is)."""
    if fn.kind != "def" or not fn.body:
        return fn
    first = fn.body[0]
    params = list(fn.params)
    for i, p in enumerate(params):
        kept = _optional_container(p.annotation)
        if kept is None or not isinstance(p.default, ast.NoneLit):
            continue
        made = _guard_value(first, p.name)
        if made is None or _binds(fn.body[1:], p.name):
            continue
        params[i] = replace(p, annotation=kept, default=ast.Call(made.span, ast.Name(made.span, FRESH), (made,), ()))
        if guarded is not None:
            guarded.setdefault(fn.name, {})[i] = (p.name, made)
        return replace(fn, params=tuple(params), body=fn.body[1:])
    return fn


def _optional_container(annotation) -> ast.Expr | None:
    """T of `T | None`, `None | T` or `Optional[T]`, T a list, dict or set annotation."""
    inner: ast.Node | None = None
    if isinstance(annotation, ast.Binary) and annotation.op == "|":
        sides = (annotation.left, annotation.right)
        if isinstance(sides[1], ast.NoneLit):
            inner = sides[0]
        elif isinstance(sides[0], ast.NoneLit):
            inner = sides[1]
    elif isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) \
            and annotation.value.id == "Optional" and len(annotation.items) == 1:
        inner = annotation.items[0]
    container = inner.value if isinstance(inner, ast.Subscript) else inner
    ok = isinstance(container, ast.Name) and container.id in ("list", "dict", "set", "List", "Dict", "Set")
    return inner if ok and isinstance(inner, ast.Expr) else None


def _guard_value(stmt, name: str) -> ast.Expr | None:
    """E of `if name is None: name = E` (nothing else in the `if`), E a new container of literals."""
    if not (isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1):
        return None
    test, body = stmt.test, stmt.body[0]
    if not (isinstance(test, ast.Compare) and test.ops == ("is",) and isinstance(test.left, ast.Name)
            and test.left.id == name and isinstance(test.comparators[0], ast.NoneLit)):
        return None
    if not (isinstance(body, ast.Assign) and len(body.targets) == 1 and isinstance(body.targets[0], ast.Name)
            and body.targets[0].id == name):
        return None
    value = body.value
    return value if _container(value) and _literal_only(value) else None


def _literal_only(e) -> bool:
    """No name in e but the container call itself (`[]`, `{}`, `set()`, `[0, 0]`, `{"n": 0}`)."""
    stack = [e.args if isinstance(e, ast.Call) else e]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
            continue
        if isinstance(node, (ast.Name, ast.Call, ast.Comprehension, ast.Lambda)):
            return False
        stack.extend(ast.children(node))
    return True


def _binds(body: tuple, name: str) -> bool:
    """Whether body binds name again (an assignment, a `for`, a nested function's parameter...)."""
    from ..semantics.globals import bound_names

    return name in bound_names(body)[0]


def _none_passed(node, guarded: dict):
    """`f(1, None)` of a function in `guarded`: `f(1, E)`, as Python's body would have made E."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in guarded):
        return None
    made = guarded[node.func.id]
    by_name = dict(made.values())
    args = tuple(made[i][1] if i in made and isinstance(a, ast.NoneLit) else a for i, a in enumerate(node.args))
    keywords = tuple(replace(k, value=by_name[k.name]) if k.name in by_name and isinstance(k.value, ast.NoneLit)
                     else k for k in node.keywords)
    if all(a is b for a, b in zip(args, node.args, strict=True)) \
            and all(a is b for a, b in zip(keywords, node.keywords, strict=True)):
        return None
    return replace(node, args=args, keywords=keywords)


def _rewrite(fn: ast.FnDef, owner: str, classes: frozenset, returned: dict | None,
             diags: DiagnosticBag) -> tuple[ast.FnDef, list]:
    if fn.kind != "def":
        return fn, []
    made: list = []
    params = []
    returns = _returned_names(fn.body)
    for i, p in enumerate(fn.params):
        container = _container(p.default)
        if p.annotation is None or p.default is None or not (container or _object(p.default, classes)):
            params.append(p)
            continue
        name = f"{PREFIX}{owner}{fn.name}_{p.name}"
        made.append(ast.VarDecl(p.default.span, name, p.default.span, p.annotation, p.default, False))
        params.append(replace(p, default=ast.Name(p.default.span, name)))
        if container and p.name in returns:
            if returned is not None:
                returned[fn.name] = (i, p)
            else:  # a method's calls are not found by name: its result is never taken
                for span in returns[p.name]:
                    diags.error("E0326", span, func=f"{owner[:-1]}.{fn.name}", param=p.name,
                                kind=_kind(p.default))
    return (replace(fn, params=tuple(params)) if made else fn), made


def _kind(e) -> str:
    called = e.func.id if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) else None
    if isinstance(e, ast.ListExpr) or called in ("list", "deque"):
        return "list"
    if isinstance(e, ast.SetExpr) or called == "set":
        return "set"
    return "dict"


def _returned_names(body: tuple) -> dict[str, list]:
    """The names a body returns as they are (`return xs`) -> the spans of those returns (nested
    functions aside)."""
    found: dict[str, list] = {}
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FnDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Name):
            found.setdefault(node.value.id, []).append(node.value.span)
        stack.extend(ast.children(node))
    return found


def _check_kept_results(items: tuple, returned: dict, class_def, diags: DiagnosticBag) -> None:
    """E0326 for each call of a function in `returned` that leaves the returned default out, where
    its result is not used up at once (a statement of its own, or `print(call)` alone), and for the
    function taken as a value (`f = grow`, `map(grow, xs)`), whose calls are not seen."""
    stack: list[tuple[ast.Node, ast.Node | None, ast.Node | None]] = [(i, None, None) for i in items]
    while stack:
        node, parent, grand = stack.pop()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in returned:
            index, p = returned[node.func.id]
            left_out = len(node.args) <= index and all(k.name != p.name for k in node.keywords) \
                and not any(isinstance(a, ast.Starred) for a in node.args)
            alone = isinstance(parent, ast.ExprStmt) or (
                isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "print"
                and len(parent.args) == 1 and parent.args[0] is node and isinstance(grand, ast.ExprStmt)
                and all(isinstance(k.value, ast.StrLit) for k in parent.keywords))
            if left_out and not alone:
                diags.error("E0326", node.span, func=node.func.id, param=p.name, kind=_kind(p.default))
        elif isinstance(node, ast.Name) and node.id in returned \
                and not (isinstance(parent, ast.Call) and parent.func is node):  # `f = grow`: its calls unseen
            index, p = returned[node.id]
            diags.error("E0326", node.span, func=node.id, param=p.name, kind=_kind(p.default))
        for child in (node.body if isinstance(node, class_def) else ast.children(node)):
            stack.append((child, node, parent))
