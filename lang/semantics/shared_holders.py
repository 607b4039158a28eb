"""An object that keeps a caller's list, dict or set (docs/semantics.md, "An object holding an
argument's list"): `p = Parser(tokens, env)` where `Parser.__init__` does `self.env = env`.

Python's `p.env` is the caller's `env` itself; pyx's is a copy (semantics/stored_arguments.py). The
two cannot be told apart while neither side is changed in place and read through the other, so
pyx accepts the call, as it accepts `b = a` (semantics/sharing.py, E0231), where:

- the class keeps the argument only as attributes of the new object (`self.env = env` in
  `__init__`), and none of its methods changes such an attribute in place (an item stored, a
  method of a list, dict or set that changes it, an item changed in a loop over it) or lets
  `self` go anywhere (`self` appears only as `self.x` and `self.m(...)`; no method is a
  generator), so nothing but the new object reaches the copy, and the copy never changes;
- the new object is bound to a local variable of the calling function (not a generator), used
  only as `p.x` and `p.m(...)`, outside nested functions, and `p.env` is not changed in place
  there either: the object dies with the call, and nothing else sees its copy;
- the argument is a local variable or a parameter (not a module-level variable, whose changes a
  called function could make).

The argument is then a copy's original: changing it in place while the holder is still used
afterwards (Python's `p.env` would show the change) is E0345 (sharing.py `report_sharing`). A use
of the holder after a statement that binds it afresh on every path (`p = Parser(tokens, env)`
again) is another object's and does not count. Everything else stays E0190/E0298, with a note
saying which condition failed.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..syntax.classes import INIT_VAR
from .implicit_mut import DICT_CHANGES, LIST_CHANGES
from .typed import LocalVar, TExpr, TLocal

if TYPE_CHECKING:
    from .check import FunctionChecker

# Methods that change a list, dict or set in place (on the attribute or on one of its items).
_CHANGES = LIST_CHANGES | DICT_CHANGES | {"add", "discard", "difference_update", "intersection_update",
                                          "symmetric_difference_update"}
# Builtins that only read what they are given (an item of the attribute passed to one stays unchanged).
_READING = frozenset({"print", "len", "str", "repr", "sorted", "list", "dict", "set", "tuple", "min", "max",
                      "sum", "any", "all", "abs", "int", "float", "bool", "isinstance", "enumerate", "zip",
                      "reversed", "format", "hash", "round"})


@dataclass
class Holder:
    """An accepted `p = C(..., xs, ...)`: `p` keeps a copy of `xs` as `p.field`."""

    call: Span  # the call `C(...)`
    root: LocalVar  # the argument's variable
    source: str  # the argument, as written
    func: str  # `C`
    field: str  # the attribute `__init__` stores it in
    holder: str  # the variable bound to the new object


def accept(chk: FunctionChecker, init: ast.FnDef, param: str, arg: TExpr, call: Span, func: str,
           sym) -> Holder | Note | None:
    """The holder of `arg` (passed to `param` of `init`, the `__init__` of the class `sym`) where
    keeping a copy is indistinguishable from Python's sharing (this module's docstring); else a note
    saying why not (None: not an object keeping a variable)."""
    if not isinstance(arg, TLocal) or not isinstance(arg.var, LocalVar) or arg.var.name.startswith("$") \
            or arg.var.global_symbol is not None:
        return None
    why = _changed_elsewhere(chk, arg.var)
    if why is not None:
        return why
    fields = _stored_fields(init, param)
    if fields is None:
        return Note(f"`{func}.__init__` keeps `{param}` elsewhere than in an attribute of the new object")
    bound = _bound_to(chk.fn.decl.body, call)
    if bound is None:
        return Note(f"pyx follows Python's sharing only where the new object is bound to a local variable "
                    f"(`obj = {func}(...)`) and used there: this one is kept elsewhere", call)
    name = bound
    why = _escapes(chk.fn.decl, name)
    if why is not None:
        return why
    for field in fields:
        changed = _changed_through(chk.fn.decl.body, _attribute_of(name, field))
        if changed is not None:
            return Note(f"`{name}.{field}` is changed in place here: Python's is `{arg.var.name}` itself, pyx's a copy",
                        changed)
    for method in _user_methods(sym):
        this = method.params[0].name if method.params else "self"
        why = _self_escapes(method, this, func)
        if why is not None:
            return why
        for field in fields:
            changed = _changed_through(method.body, _attribute_of(this, field))
            if changed is not None:
                return Note(f"`{func}.{method.name}` changes `{this}.{field}` in place here: Python's is the "
                            f"caller's `{arg.var.name}` itself, pyx's a copy", changed)
    source = arg.span.file.text[arg.span.start:arg.span.end]
    return Holder(call, arg.var, source, func, fields[0], name)


def _changed_elsewhere(chk: FunctionChecker, var: LocalVar) -> Note | None:
    """Where code this function's checks of changes in place do not see may change `var`'s object
    while the holder lives: a nested function that names it, or (for a parameter, whose caller may
    pass a module-level variable) a function that changes a module-level variable of its type."""
    for n, _, nested in _walk_nested(chk.fn.decl.body):
        if nested and _is_name(n, var.name):
            return Note(f"`{var.name}` is used in a nested function here, which may change it", n.span)
    if not var.is_param:
        return None
    module = chk.module
    functions = list(module.functions.values()) + [m for sym in module.structs.values() for m in _user_methods(sym)]
    for g in list(module.globals.values()):
        if g.type != var.type:
            continue
        for f in functions:
            changed = _changed_through(f.body, _name_is(g.name))
            if changed is not None:
                return Note(f"`{f.name}` changes the module-level `{g.name}` here, which a caller may pass as "
                            f"`{var.name}`", changed)
    return None


def changed_in_nested(body, name: str) -> Span | None:
    """Where a nested function or lambda of `body` changes the variable `name` it shares with the
    function around it in place (one that binds `name` itself has its own). Passing it to a
    function that changes it is not seen here."""
    for n, _, _ in _walk_nested(body):
        if isinstance(n, ast.FnDef) and not any(p.name == name for p in n.params) \
                and not _binds_own(n.body, name):
            changed = _changed_through(n.body, _name_is(name), passed=False)
            if changed is not None:
                return changed
        elif isinstance(n, ast.Lambda) and not any(p.name == name for p in n.params):
            changed = _changed_through([n.body], _name_is(name), passed=False)
            if changed is not None:
                return changed
    return None


def _binds_own(body, name: str) -> bool:
    """Whether a function body binds `name` as its own local (`name = ...`, without `nonlocal`)."""
    nodes = list(_walk(body))
    if any(isinstance(n, (ast.Nonlocal, ast.Global)) and name in n.names for n in nodes):
        return False
    return any((isinstance(n, ast.Assign) and any(_is_name(t, name) for t in n.targets))
               or (isinstance(n, ast.VarDecl) and n.name == name) for n in nodes)


def _user_methods(sym) -> list[ast.FnDef]:
    """The class's methods as written (inherited ones too), not those the compiler writes for it."""
    return [m for m in sym.methods.values() if not m.span.file.name.startswith("<")]


def _stored_fields(init: ast.FnDef, param: str) -> list[str] | None:
    """The attributes `__init__` keeps `param` in (`self.f = param`), or None where it keeps it
    anywhere else (an item, another object, a container's `append`)."""
    this = init.params[0].name if init.params else "self"
    fields: list[str] = []
    for n in _walk(init.body):
        if isinstance(n, ast.VarDecl) and n.name.startswith(INIT_VAR) and _is_name(n.value, param):
            fields.append(n.name[len(INIT_VAR):])  # `self.f = param`, as syntax/classes.py spells it
        elif isinstance(n, ast.Assign) and _is_name(n.value, param):
            for t in n.targets:
                if not (isinstance(t, ast.Attribute) and _is_name(t.value, this)):
                    return None
                fields.append(t.attr)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and any(_is_name(a, param) for a in n.args):
            return None  # `registry.append(param)`, `d.setdefault(k, param)`
    return fields or None


def _bound_to(body, call: Span) -> str | None:
    """The local variable `name = C(...)` binds to the call at `call`, or None."""
    for n in _walk(body):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and _at(n.value, call):
            return n.targets[0].id
        if isinstance(n, ast.VarDecl) and not n.explicit and n.value is not None and _at(n.value, call):
            return n.name
    return None


def _escapes(fn: ast.FnDef, name: str) -> Note | None:
    """Where the calling function lets the object in `name` go (anything but `name.x`, `name.m(...)`
    and a binding of `name`), or where something may see it after the call (a generator's frame, a
    nested function)."""
    if any(p.name == name for p in fn.params) or ast.yields(fn.body):
        return Note(f"pyx follows Python's sharing only where `{name}` is a local variable of a function "
                    "that is not a generator", fn.name_span)
    parents = _parents(fn.body)
    for n, parent, nested in _walk_nested(fn.body):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return Note(f"`{name}` is declared here: pyx follows Python's sharing only for a local variable", n.span)
        if not _is_name(n, name):
            continue
        if nested:
            return Note(f"`{name}` is used in a nested function here, which may run later", n.span)
        if isinstance(parent, ast.Attribute) and parent.value is n:
            continue
        if _stored_name(n, parents):
            continue
        return Note(f"`{name}` is passed on, stored or returned here: Python's `{name}` keeps sharing the object "
                    "after this function, pyx's holds a copy", n.span)
    return None


def _self_escapes(method: ast.FnDef, this: str, func: str) -> Note | None:
    """Where a method lets its object go (a generator keeps it, `return self`, `f(self)`)."""
    if ast.yields(method.body):
        return Note(f"`{func}.{method.name}` is a generator, whose object keeps `{this}`", method.name_span)
    for n, parent, nested in _walk_nested(method.body):
        if _is_name(n, this) and (nested or not (isinstance(parent, ast.Attribute) and parent.value is n)):
            return Note(f"`{func}.{method.name}` lets `{this}` go here, with the copy it holds", n.span)
    return None


def _changed_through(body, is_root: Callable[[ast.Node], bool], passed: bool = True) -> Span | None:
    """Where `body` changes in place what a root expression (`self.env`, a loop variable over it)
    reaches: an item stored, changed or deleted through it, a changing method called on it or on
    an item of it, `+=` on it, an item of it changed by a loop over it. Binding the root afresh
    (`self.env = {}`) is no change."""
    parents = _parents(body)
    for n in _walk(body):
        if not is_root(n):
            continue
        top = n
        link = parents.get(id(top))
        while isinstance(link, (ast.Subscript, ast.Attribute)) and link.value is top:
            top, link = link, parents.get(id(link))
        parent = parents.get(id(top))
        if isinstance(parent, ast.Call) and parent.func is top and top is not n and isinstance(top, ast.Attribute) \
                and top.attr in _CHANGES:
            return parent.span
        call = parents.get(id(parent)) if isinstance(parent, ast.Keyword) else parent
        if passed and isinstance(call, ast.Call) and call.func is not top and isinstance(n, ast.Name) \
                and not (isinstance(call.func, ast.Name) and call.func.id in _READING):
            return call.span  # an item (a loop's variable) passed to a function that may change it
        target, above = top, parent
        while isinstance(above, (ast.TupleExpr, ast.ListExpr, ast.Starred)):
            target, above = above, parents.get(id(above))
        if isinstance(above, ast.Assign) and any(t is target for t in above.targets):
            if top is not n or target is not top:
                return top.span
        elif (isinstance(above, (ast.AugAssign, ast.For, ast.CompFor)) and above.target is target) \
                or (isinstance(above, ast.Delete) and any(t is target for t in above.targets)):
            return top.span  # `+=`, `del`, or a loop storing into it
    for loop in _walk(body):
        if not isinstance(loop, (ast.For, ast.Comprehension)):
            continue
        clauses = [loop] if isinstance(loop, ast.For) else [c for c in loop.clauses if isinstance(c, ast.CompFor)]
        for clause in clauses:
            if not any(is_root(m) for m in _walk([clause.iter])):
                continue
            names = {t.id for t in _walk([clause.target]) if isinstance(t, ast.Name)}
            # a comprehension's clause binds its own names: what reads them is the item and the clauses after it
            scope = loop.body if isinstance(loop, ast.For) else \
                [x for x in (loop.elt, loop.value, *loop.clauses[loop.clauses.index(clause) + 1:]) if x is not None]
            changed = _changed_through(scope, _name_is(*names))
            if changed is not None:
                return changed
    return None


def _name_is(*names: str) -> Callable[[ast.Node], bool]:
    return lambda n: isinstance(n, ast.Name) and n.id in names


def _attribute_of(name: str, field: str) -> Callable[[ast.Node], bool]:
    return lambda n: isinstance(n, ast.Attribute) and n.attr == field and _is_name(n.value, name)


def _stored_name(n: ast.Name, parents: dict) -> bool:
    """Whether `n` is a binding target (`p = ...`, `p, q = ...`, `for p in ...`)."""
    target: ast.Node = n
    above = parents.get(id(n))
    while isinstance(above, (ast.TupleExpr, ast.ListExpr)):
        target, above = above, parents.get(id(above))
    return (isinstance(above, ast.Assign) and any(t is target for t in above.targets)) \
        or (isinstance(above, ast.For) and above.target is target)


def _is_name(n, name: str) -> bool:
    return isinstance(n, ast.Name) and n.id == name


def _at(e: ast.Node, span: Span) -> bool:
    return e.span.start == span.start and e.span.end == span.end


def _walk(nodes):
    stack: list[ast.Node] = list(nodes)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(ast.children(n))


def _walk_nested(nodes):
    """Each node with its parent, and whether it lies in a nested function or lambda."""
    stack: list[tuple[ast.Node, ast.Node | None, bool]] = [(n, None, False) for n in nodes]
    while stack:
        n, parent, nested = stack.pop()
        yield n, parent, nested
        inner = nested or isinstance(n, (ast.FnDef, ast.Lambda))
        stack.extend((c, n, inner) for c in ast.children(n))


def _parents(nodes) -> dict[int, ast.Node]:
    return {id(n): parent for n, parent, _ in _walk_nested(nodes) if parent is not None}
