"""Mojo's closure loops: `parallelize[body](n)` and `vectorize[body, W](n)` (`from algorithm import ...`).

Mojo passes the loop body as a nested `@parameter fn` that captures the enclosing function's
variables. pyx compiles the call as the loop it stands for, with the closure's body as the loop's
body, so it is the same code as the loop written by hand:

- `parallelize[body](n)` is `for i in prange(n): <body's statements>` (semantics/parallel.py checks
  what the body touches; ir/parallel.py outlines it for the thread pool),
- `vectorize[body, W](n)` with `fn body[width: Int](i: Int)` is `for i, width in vectorize[W](n):
  <body's statements>` (semantics/vectorize.py: the body checked with width = W, then with 1).

The body keeps Python's scoping for a nested function: its parameter and the names it assigns
are its own (renamed apart from the frame's, so nothing of the frame is assigned by them and each
call starts afresh, as an iteration of a prange does), it reads the frame's variables as they
are when the loop runs (a closure called there sees the same), writes through `Ptr`/`Span`
captured from the frame, and `return` ends one call (`continue`). `nonlocal` in a parallel body
would be a data race: E0185. In a `@parameter fn`, a plain assignment of the frame's variable is
refused (Mojo writes that variable where Python binds a local of the body's own): E0185 in a
parallel body, E0179 in a vectorize one, which may say `var x` or `nonlocal x`. A module-level
`fn work(i: Int)` (or `fn work[width: Int](i: Int)`)
is a body too: the loop calls it. Any other body, or one of the wrong shape, is E0179; a
`@parameter fn` named anywhere but as such a body is E0184 (it is not a value here). Mojo's
`@__copy_capture(a, ...)` on it copies those variables where it is defined (`define_parameter_fn`),
and the body reads the copies (here, and as `elementwise`'s kernel: semantics/device_closures.py).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from ..syntax import ast
from ..types import ERROR, FunctionType
from .typed import LocalVar, TBlock, TConst

if TYPE_CHECKING:
    from .check import FunctionChecker

FORMS = ("parallelize", "vectorize")
# `from algorithm import ...` (Mojo's module, with or without `std.`): the built-in forms it provides.
ALGORITHM_MODULES = ("algorithm", "algorithm.functional")
# Decorators Mojo puts on such a body: `@parameter` makes it a compile-time closure; inlining is
# what pyx does anyway.
_BODY_DECORATORS = {"parameter", "always_inline"}


@dataclass(frozen=True)
class ParameterFn:
    """A nested `@parameter fn`: not a value, only a body for a closure loop (the scope holds it as
    a TConst of ERROR type with this value, so every other use reports E0184)."""

    decl: ast.FnDef
    # Mojo's `@__copy_capture(a, b)`: the variables copied when the closure is defined, each with
    # the name of its copy (taken then); the body reads the copy, whatever the variable holds later.
    copies: tuple[tuple[str, str], ...] = ()


COPY_CAPTURE = "__copy_capture"


def is_algorithm_import(name: str) -> bool:
    return name.removeprefix("std.") in ALGORITHM_MODULES


def collect_algorithm_import(item: ast.Import, diags) -> None:
    """`from algorithm import parallelize, vectorize`: pyx's forms are built in, so the import binds
    nothing; any other name of Mojo's module is not provided."""
    if not item.from_import:
        diags.error("E0179", item.span, form=item.module,
                    detail="its names imported: `from algorithm import parallelize, vectorize`")
        return
    provided = (*FORMS, "elementwise")  # (the GPU form: semantics/device_closures.py)
    for name, local in item.names:
        if name not in provided or local != name:
            diags.error("E0130", item.span, module=item.module,
                        name=name if name not in provided else f"{name}` under another name `{local}")


def is_closure_loop(chk: FunctionChecker, e: ast.Expr) -> bool:
    """`parallelize[...](...)` / `vectorize[...](...)` where those are pyx's forms (not the program's
    own names), with a function as the body (`vectorize[W](n)` alone is the `for` loop's iterable)."""
    if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Subscript) and isinstance(e.func.value, ast.Name)):
        return False
    name = e.func.value.id
    if name not in FORMS or chk.scopes.lookup(name) is not None or name in chk.module.functions:
        return False
    return name == "parallelize" or (len(e.func.items) >= 1 and isinstance(e.func.items[0], ast.Name)
                                     and _is_function_name(chk, e.func.items[0].id))


def _is_function_name(chk: FunctionChecker, name: str) -> bool:
    found = chk.scopes.lookup(name)
    if found is None:
        return name in chk.module.functions
    return (isinstance(found, TConst) and isinstance(found.value, ParameterFn)) or (
        isinstance(found, LocalVar) and found.type in chk.closures.nested_defs)


def define_parameter_fn(chk: FunctionChecker, s: ast.FnDef):
    """A nested `@parameter fn`: its name holds it for the closure loops; it makes no code itself,
    but the copies `@__copy_capture(a, ...)` asks for, taken here."""
    other = [d for d in s.decorators if d.name not in _BODY_DECORATORS and d.name != COPY_CAPTURE]
    if other:
        chk.msg.error("E0281", other[0].span, construct=f"the decorator `@{other[0].name}`")
    copies: dict[str, str] = {}
    made: list = []
    for d in s.decorators:
        if d.name != COPY_CAPTURE:
            continue
        for a in d.args:
            if not (isinstance(a, ast.Name) and isinstance(chk.scopes.lookup(a.id), LocalVar)):
                chk.msg.error("E0281", a.span, construct="`@__copy_capture` of something other than a variable of "
                              "the enclosing function")
                continue
            if a.id not in copies:
                copies[a.id] = f"{a.id}@copy:{s.name_span.line}:{s.name_span.col}"
                made.append(chk.stmt(ast.VarDecl(a.span, copies[a.id], a.span, None, a, True)))
    chk.scopes.declare(s.name, TConst(s.name_span, ERROR, ParameterFn(s, tuple(copies.items()))), function_wide=True)
    made = [m for m in made if m is not None]
    return TBlock(s.span, made) if made else None


def misused(chk: FunctionChecker, e: ast.Name, fn: ParameterFn) -> TConst:
    chk.msg.error("E0184", e.span, name=e.id)
    return TConst(e.span, ERROR, None)


def misused_form(chk: FunctionChecker, name: ast.Name) -> bool:
    """`name[...](...)` that is not a closure loop statement: a `@parameter fn` called with its
    width (E0184), or `parallelize[...]` inside an expression (it gives nothing: E0179)."""
    found = chk.scopes.lookup(name.id)
    if isinstance(found, TConst) and isinstance(found.value, ParameterFn):
        misused(chk, name, found.value)
        return True
    if name.id == "elementwise" and found is None and name.id not in chk.module.functions:
        chk.msg.error("E0176", name.span, detail='a statement of its own: `elementwise[body, W, target="gpu"](n)` '
                      "gives nothing")
        return True
    if name.id in FORMS and found is None and name.id not in chk.module.functions:
        _error(chk, name.span, name.id, "a statement of its own, with a function as its body: "
               + ("`parallelize[body](n)`" if name.id == "parallelize" else "`vectorize[body, W](n)`"))
        return True
    return False


def closure_loop(chk: FunctionChecker, s: ast.ExprStmt):
    """The statement `parallelize[body](n)` or `vectorize[body, W](n)`, as its loop."""
    e = s.expr
    assert isinstance(e, ast.Call) and isinstance(e.func, ast.Subscript) and isinstance(e.func.value, ast.Name)
    form = e.func.value.id
    items = e.func.items
    want = 1 if form == "parallelize" else 2
    if len(items) != want or len(e.args) != 1 or e.keywords or any(isinstance(a, ast.Starred) for a in e.args):
        shape = "`parallelize[body](n)`" if form == "parallelize" else "`vectorize[body, W](n)`"
        return _error(chk, e.span, form, f"its body{', a width' if want == 2 else ''} and one count: {shape}")
    body_name = items[0]
    if not isinstance(body_name, ast.Name):
        return _error(chk, body_name.span, form, "the name of a function as its body (a nested `@parameter fn`)")
    found = chk.scopes.lookup(body_name.id)
    decl: ast.FnDef | None = None
    inline = True
    if isinstance(found, TConst) and isinstance(found.value, ParameterFn):
        decl = found.value.decl
    elif isinstance(found, LocalVar) and isinstance(found.type, FunctionType) \
            and found.type in chk.closures.nested_defs:
        decl = chk.closures.nested_defs[found.type]
    elif found is None and body_name.id in chk.module.functions:
        decl, inline = chk.module.functions[body_name.id], False
    if decl is None:
        return _error(chk, body_name.span, form,
                      f"a function defined in this function (`@parameter fn`) or at the top level as its body; "
                      f"`{body_name.id}` is not one")
    problem = _shape_problem(decl, form)
    if problem is not None:
        return _error(chk, body_name.span, form, problem)
    count = e.args[0]
    span = s.span
    if not inline:
        index, width = ast.Name(span, "$i"), ast.Name(span, "$w")
        callee: ast.Expr = ast.Name(body_name.span, decl.name)
        if form == "vectorize":
            callee = ast.Subscript(body_name.span, callee, (width,))
        body: tuple[ast.Stmt, ...] = (ast.ExprStmt(span, ast.Call(span, callee, (index,), ())),)
        return chk.stmt_For(_loop(span, form, index, width, items, count, body))
    inlined = _inlined_body(chk, decl, form)
    if inlined is None:
        return None
    body = inlined
    if isinstance(found, TConst) and isinstance(found.value, ParameterFn) and found.value.copies:
        body = tuple(_rename(stmt, dict(found.value.copies)) for stmt in body)  # `@__copy_capture`'s copies
    index = ast.Name(decl.params[0].span, _fresh(decl, decl.params[0].name))
    width = ast.Name(decl.ct_params[0].span, decl.ct_params[0].name) if decl.ct_params else index
    return chk.stmt_For(_loop(span, form, index, width, items, count, body))


def _loop(span, form: str, index: ast.Name, width: ast.Name, items, count: ast.Expr, body) -> ast.For:
    if form == "parallelize":
        return ast.For(span, index, ast.Call(span, ast.Name(span, "prange"), (count,), ()), body)
    iterable = ast.Call(span, ast.Subscript(span, ast.Name(span, "vectorize"), (items[1],)), (count,), ())
    return ast.For(span, ast.TupleExpr(span, (index, width)), iterable, body)


def _error(chk: FunctionChecker, span, form: str, detail: str) -> None:
    chk.msg.error("E0179", span, form=form, detail=detail)
    return None


def _is_int(annotation: ast.Expr | None) -> bool:
    return annotation is None or (isinstance(annotation, ast.Name) and annotation.id in ("Int", "int"))


def _shape_problem(decl: ast.FnDef, form: str) -> str | None:
    """Why `decl` cannot be the body of `form` (Mojo's `fn(Int) capturing -> None` for parallelize,
    `fn[width: Int](Int) capturing -> None` for vectorize), or None."""
    shape = "`fn body(i: Int)`" if form == "parallelize" else "`fn body[width: Int](i: Int)`"
    returns_none = decl.returns is None or isinstance(decl.returns, ast.NoneLit) or (
        isinstance(decl.returns, ast.Name) and decl.returns.id == "None")
    params_ok = len(decl.params) == 1 and _is_int(decl.params[0].annotation) and decl.params[0].default is None \
        and not decl.params[0].variadic and decl.params[0].convention is None
    cts_ok = not decl.ct_params if form == "parallelize" else (
        len(decl.ct_params) == 1 and _is_int(decl.ct_params[0].annotation) and decl.ct_params[0].default is None)
    if not (returns_none and params_ok and cts_ok):
        return f"a body of the shape {shape} returning nothing; `{decl.name}` does not fit"
    return None


def _fresh(decl: ast.FnDef, name: str) -> str:
    """A name of the closure's own, apart from every name of the frame (no source can spell it)."""
    return f"{name}@{decl.name}:{decl.name_span.line}"


def _inlined_body(chk: FunctionChecker, decl: ast.FnDef, form: str) -> tuple[ast.Stmt, ...] | None:
    """The closure's statements as the loop's body: its own names renamed apart, `return` as
    `continue`; `nonlocal` (a write of the frame's variable) stays a write of it, except in a
    parallel body, where it is a race (E0185)."""
    from .closures import scope_of

    own, nonlocal_names, _free = scope_of(decl.params, decl.body)
    if nonlocal_names and form == "parallelize":
        where = next(n for n in walk_body(decl.body) if isinstance(n, ast.Nonlocal))
        chk.msg.error("E0185", where.span, name=sorted(nonlocal_names)[0])
        return None
    if any(d.name == "parameter" for d in decl.decorators):
        # Mojo's `@parameter fn` writes the captured variable where Python's def binds a local of its
        # own: a plain assignment of a frame's variable is ambiguous, so it must say which.
        for target in assigned_names(decl.body):
            found = chk.scopes.lookup(target.id)
            if isinstance(found, LocalVar) and target.id in own:
                if form == "parallelize":
                    chk.msg.error("E0185", target.span, name=target.id)
                else:
                    _error(chk, target.span, form,
                           f"a body that says which `{target.id}` it assigns: `var {target.id}` for a variable "
                           f"of its own, `nonlocal {target.id}` for the enclosing function's")
                return None
    names = {n: _fresh(decl, n) for n in own}
    body = tuple(_rename(stmt, names) for stmt in decl.body)
    problems: list = []
    body = tuple(s for s in (_returns(stmt, 0, problems) for stmt in body) if s is not None)
    for span, detail in problems:
        _error(chk, span, form, detail)
    return None if problems else body


def walk_body(roots):
    """The nodes of a function's body, not those of the functions and lambdas it defines (closure loops'
    and semantics/device_closures.py's bodies)."""
    stack = list(roots)
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, (ast.FnDef, ast.Lambda)):
            stack.extend(ast.children(n))


def assigned_names(body):
    """The names a body assigns, with `=` or an augmented assignment (`x += 1`), in its own code."""
    for node in walk_body(body):
        targets = node.targets if isinstance(node, ast.Assign) else (node.target,) if isinstance(
            node, ast.AugAssign) else ()
        yield from (t for t in targets if isinstance(t, ast.Name))


def _rename(node, names: dict[str, str]):
    """`node` with the closure's own names replaced (not inside a nested function that binds them
    itself)."""
    if not names:
        return node
    if isinstance(node, ast.Name):
        return replace(node, id=names[node.id]) if node.id in names else node
    if isinstance(node, (ast.FnDef, ast.Lambda)):
        from .closures import scope_of

        inner = scope_of(node.params, node.body if isinstance(node, ast.FnDef) else (node.body,))[0]
        names = {k: v for k, v in names.items() if k not in inner}
        if not names:
            return node
    changes: dict[str, Any] = {}
    if isinstance(node, (ast.VarDecl, ast.Handler)) and node.name in names:
        changes["name"] = names[node.name]
    if isinstance(node, ast.Nonlocal):
        changes["names"] = tuple(names.get(n, n) for n in node.names)
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, ast.Node):
            new = _rename(value, names)
            if new is not value:
                changes[f.name] = new
        elif isinstance(value, tuple) and any(isinstance(v, ast.Node) for v in value):
            new_items = tuple(_rename(v, names) if isinstance(v, ast.Node) else v for v in value)
            if any(a is not b for a, b in zip(new_items, value, strict=True)):
                changes[f.name] = new_items
    return replace(node, **changes) if changes else node


def _returns(node, loops: int, problems: list):
    """`return` ends one call of the body: `continue` of the loop it becomes. Inside a loop of the
    body's own that would continue the wrong loop: reported. `nonlocal` (vectorize: the frame's
    variable itself) is dropped; `yield` would make the frame a generator: reported."""
    if isinstance(node, ast.Return):
        if node.value is not None:
            problems.append((node.span, "a body returning nothing; this `return` gives a value"))
        elif loops:
            problems.append((node.span, "a body without `return` inside its own loops (use a flag and `break`)"))
        return ast.Continue(node.span)
    if isinstance(node, ast.Nonlocal):
        return None
    if isinstance(node, ast.Yield):
        problems.append((node.span, "a body that is not a generator (`yield`)"))
        return node
    if isinstance(node, (ast.FnDef, ast.Lambda)) or not isinstance(node, ast.Stmt | ast.Handler):
        return node
    inner = loops + (1 if isinstance(node, (ast.For, ast.While)) else 0)
    changes: dict[str, Any] = {}
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple) and any(isinstance(v, (ast.Stmt, ast.Handler)) for v in value):
            new_items = tuple(x for x in (_returns(v, inner, problems) for v in value) if x is not None)
            if len(new_items) != len(value) or any(a is not b for a, b in zip(new_items, value, strict=True)):
                changes[f.name] = new_items or (ast.Pass(node.span),)
    return replace(node, **changes) if changes else node
