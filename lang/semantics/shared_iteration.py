"""`for` over a container that code run by the loop's body may change: a module-level variable's
or an object's attribute (docs/semantics.md, "Loops over shared containers").

A local list, dict or set can only change through its own name, so a change in the body is seen
where it is written (E0230). A module-level variable, or an attribute of an object (which any
other name of the object reaches), can also change inside any function the body calls. A
`ListIterator` holds the list's memory: an `append` there reallocated it under the loop (the
loop read freed memory), and an object's attribute was walked as a copy, so the loop did not see
the items appended (CPython does). So such a loop is written as CPython's iterators run it:

- a list: by index, reading the list's length again before each step (CPython's list iterator);
- a dict (its keys, `keys()`, `values()`, `items()`) or a set: over a snapshot of what it walks,
  checking before each step that the container's size is the one it had when the loop began,
  else `RuntimeError: dictionary changed size during iteration` (`Set changed size ...`), as
  CPython's iterators check. A local dict walked through a view (`for k in d.keys()`) is walked
  so too: the body's changes of `d` are not seen as changes of the container walked (E0230).

Both read the container through the variable or the attribute at each step. Python's loop keeps
walking the old object when the variable or attribute is *rebound* meanwhile. A body that
rebinds it itself walks a copy taken when the loop begins (`_walk_copy`; a local variable's
loop too, which read the freed old list before); a rebinding in a function the body may call
(found by name, `_reached`) cannot be followed, and is E0289, as is a body that rebinds it and
calls a function that changes it in place.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Note
from ..syntax import ast
from ..syntax.loop_else import with_else
from ..types import ERROR
from .builtin_types import is_builtin
from .classes import is_class
from .typed import LocalVar, TBlock

if TYPE_CHECKING:
    from .check import FunctionChecker

VIEWS = ("keys", "values", "items")
# Builtins a loop body may call without running any of the program's code.
_PURE_BUILTINS = frozenset(("print", "len", "str", "repr", "int", "float", "bool", "abs", "min", "max", "round",
                            "ord", "chr", "range", "isinstance", "hash", "divmod", "sum", "any", "all", "sorted",
                            "enumerate", "zip", "list", "dict", "set", "tuple", "format", "pow"))
_CHANGING = frozenset(("append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort", "update",
                       "setdefault", "popitem", "add", "discard"))
_CHANGED_SIZE = {"Dict": "dictionary changed size during iteration", "Set": "Set changed size during iteration"}


def walk_shared(chk: FunctionChecker, s: ast.For):
    """The typed statement for `s` when it walks a module-level variable's or an object's list,
    dict or set (this module's docstring); None after an error; False when `s` walks anything
    else (the ordinary iterator protocol applies)."""
    place, view = _place_of(s.iter)
    if place is None:
        return False
    root = _root_name(place)
    var = chk.scopes.lookup(root.id) if root is not None else None
    if not isinstance(var, LocalVar):
        return False
    local = isinstance(place, ast.Name) and var.global_symbol is None
    if local:
        if view is None and _assignment_to(place, s.body) is None:
            return False  # a local container: changed only where the body names it (E0230)
    elif isinstance(place, ast.Name):
        pass
    else:
        assert isinstance(place, ast.Attribute)
        base = chk.exprs.expr(place.value)
        if base.type == ERROR:
            return None
        if not is_class(base.type):
            return False
    kind = _container_kind(chk, place)
    if kind == "error":
        return None
    if kind in ("Dict", "Set") and chk.fn.decl.kind != "def":
        return False  # an `fn` walks as Mojo does (the check would make it raise RuntimeError)
    in_body = _assignment_to(place, s.body)
    if local and in_body is not None and (view is None or kind == "Dict"):
        return _walk_copy(chk, s, place, view, var, kind)  # (only the body can change a local)
    if kind is None or (kind == "List" and view is not None) or (kind == "Set" and view is not None):
        return False
    if in_body is not None:
        # The body rebinds it: walk the container the loop began with, as Python's loop does (the
        # ordinary path walks a copy), unless a function the body calls may change it in place.
        changed = _reached(chk, place, s.body, lambda decl: _changes_in_place(place, decl))
        if changed is None:
            return False if isinstance(place, ast.Attribute) else _walk_copy(chk, s, place, view, var, kind)
        chk.msg.error("E0289", in_body.span, (Note("the loop", s.iter.span),
                                              Note("a function the loop's body may call changes it in place here",
                                                   changed.span)), place=_text(place))
        return None
    elsewhere = _rebinding(chk, place, s)
    if elsewhere is not None:
        chk.msg.error("E0289", s.iter.span, (Note("a function the loop's body may call rebinds it here",
                                                  elsewhere.span),), place=_text(place))
        return None
    return TBlock(s.span, chk.block(_rewrite(chk, s, place, view, kind), new_scope=True))


def _walk_copy(chk: FunctionChecker, s: ast.For, place: ast.Expr, view: str | None, var: LocalVar,
               kind: str | None):
    """`for x in xs:` whose body rebinds `xs`: Python's loop goes on over the old list, so this
    one walks a copy taken when it begins (the iterator held the old list's memory, which the
    rebinding freed: the loop read freed memory). The body still may not change `xs` in place
    before rebinding it (E0230), which Python's loop would see."""
    sp = s.iter.span
    chk.next_id += 1
    copy = ast.Name(sp, f"$walked{chk.next_id}")
    taken = ast.Call(sp, ast.Attribute(sp, place, view or "copy"), (), ()) if view or kind else place  # (a str: a copy)
    state = chk.sharing.sharing_state()["iterating"]
    state.append((var, sp))
    try:
        stmts = chk.block([ast.Assign(sp, (copy,), taken), ast.For(s.span, s.target, copy, s.body)], new_scope=True)
    finally:
        state.pop()
    return TBlock(s.span, stmts)


def _place_of(it: ast.Expr) -> tuple[ast.Expr | None, str | None]:
    """`xs` / `o.items` (a place), and the dict view walked (`d.items()`: "items")."""
    view = None
    func = it.func if isinstance(it, ast.Call) else None
    if isinstance(it, ast.Call) and isinstance(func, ast.Attribute) and func.attr in VIEWS \
            and not it.args and not it.keywords:
        it, view = func.value, func.attr
    node = it
    while isinstance(node, ast.Attribute):
        node = node.value
    return (it, view) if isinstance(node, ast.Name) else (None, None)


def _root_name(place: ast.Expr) -> ast.Name | None:
    while isinstance(place, ast.Attribute):
        place = place.value
    return place if isinstance(place, ast.Name) else None


def _container_kind(chk: FunctionChecker, place: ast.Expr) -> str | None:
    t = chk.exprs.expr(place).type
    if t == ERROR:
        return "error"
    return next((k for k in ("List", "Dict", "Set") if is_builtin(t, k)), None)


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _rewrite(chk: FunctionChecker, s: ast.For, place: ast.Expr, view: str | None, kind: str) -> list[ast.Stmt]:
    sp = s.iter.span
    chk.next_id += 1
    n = chk.next_id

    def name(tag: str) -> ast.Name:
        return ast.Name(sp, f"${tag}{n}")

    def call(func: str, *args: ast.Expr) -> ast.Call:
        return ast.Call(sp, ast.Name(sp, func), tuple(args), ())

    out: list[ast.Stmt] = []
    if isinstance(place, ast.Attribute):
        # The object is the one named when the loop begins, as Python evaluates the iterable once.
        out.append(ast.Assign(sp, (name("object"),), place.value))
        place = ast.Attribute(place.span, name("object"), place.attr)
    if kind == "List":
        index = name("index")
        out.append(ast.Assign(sp, (index,), ast.IntLit(sp, 0)))
        step = ast.AugAssign(sp, index, "+", ast.IntLit(sp, 1))
        item = ast.Assign(s.target.span, (s.target,), ast.Subscript(sp, place, (index,)))
        test = ast.Compare(sp, index, ("<",), (call("len", place),))
        out.append(ast.While(s.span, test, (item, step) + tuple(s.body)))
        return out
    # A snapshot (a copy: the view's list, or the set's copy) walked by the iterator protocol, each
    # step checking the size first, and once more when it is exhausted (CPython checks before
    # each fetch); a `break` of the body leaves without that last check (for-else).
    snapshot, size, each = name("items"), name("size"), name("item")
    out.append(ast.Assign(sp, (size,), call("len", place)))
    taken = ast.Call(sp, ast.Attribute(sp, place, view or ("keys" if kind == "Dict" else "copy")), (), ())
    out.append(ast.Assign(sp, (snapshot,), taken))
    changed = ast.If(sp, ast.Compare(sp, call("len", place), ("!=",), (size,)),
                     (ast.Raise(sp, call("RuntimeError", ast.StrLit(sp, _CHANGED_SIZE[kind])), None),), ())
    bind = ast.Assign(s.target.span, (s.target,), each)
    loop = ast.For(s.span, each, snapshot, (changed, bind) + tuple(s.body))
    out.extend(with_else(loop, (changed,), sp))
    return out


def _rebinding(chk: FunctionChecker, place: ast.Expr, s: ast.For) -> ast.Node | None:
    """Where a function the loop's body may call (directly or through others, found by name) may
    rebind the variable or attribute `place` names while the loop walks it."""
    return _reached(chk, place, s.body, lambda decl: _rebinds(place, decl))


def _rebinds(place: ast.Expr, decl: ast.FnDef) -> ast.Node | None:
    if isinstance(place, ast.Name):
        if not any(isinstance(n, ast.Global) and place.id in n.names for n in _walk(decl.body)):
            return None
    elif decl.name == "__init__":
        return None  # (a new object's attribute)
    return _assignment_to(place, decl.body)


def _reached(chk: FunctionChecker, place: ast.Expr, body, found) -> ast.Node | None:
    """The first `found(decl)` among the program's functions and methods that running `body` may
    call, by name (a method by its name in any class). A call of something else that is not a
    builtin (a function passed as a value) may run any of them."""
    by_name: dict[str, list[ast.FnDef]] = {}
    for decl in chk.module.functions.values():
        by_name.setdefault(decl.name, []).append(decl)
    for name, sym in chk.module.structs.items():
        for method in sym.methods.values():
            by_name.setdefault(method.name, []).append(method)
        if "__init__" in sym.methods:
            by_name.setdefault(name, []).append(sym.methods["__init__"])
    for decl in [d for ds in by_name.values() for d in ds]:
        for node in _walk(decl.body):  # nested functions, by their names
            if isinstance(node, ast.FnDef):
                by_name.setdefault(node.name, []).append(node)
    todo, seen = [body], set()
    # Special methods run without a call written (`print(o)` runs `__str__`, `a < b` `__lt__`):
    # any of them may run.
    for decl in [d for name, ds in by_name.items() if name.startswith("__") and name != "__init__" for d in ds]:
        if decl.span.file is place.span.file:
            hit = found(decl)
            if hit is not None:
                return hit
            seen.add(id(decl))
            todo.append(decl.body)
    while todo:
        for node in _walk(todo.pop()):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if callee is None or (isinstance(func, ast.Name) and callee not in by_name and callee not in _PURE_BUILTINS
                                  and chk.scopes.lookup(callee) is not None):
                return _anywhere(chk, place, found)  # a function value: it may be any of them
            for decl in by_name.get(callee, ()):
                if id(decl) in seen or decl.span.file is not place.span.file:
                    continue
                seen.add(id(decl))
                hit = found(decl)
                if hit is not None:
                    return hit
                todo.append(decl.body)
    return None


def _anywhere(chk: FunctionChecker, place: ast.Expr, found) -> ast.Node | None:
    decls = list(chk.module.functions.values())
    decls += [m for sym in chk.module.structs.values() for m in sym.methods.values()]
    for decl in decls:
        if decl.span.file is place.span.file:
            hit = found(decl)
            if hit is not None:
                return hit
    return None


def _changes_in_place(place: ast.Expr, decl: ast.FnDef) -> ast.Node | None:
    """A change in place, in `decl`, of a list or dict named as `place` is (`o.items.append(v)`,
    `o.items[i] = v`, `o.items += vs`, `del o.items[i]`), by the attribute's or variable's name."""
    def named(e: ast.Expr) -> bool:
        if isinstance(place, ast.Name):
            return isinstance(e, ast.Name) and e.id == place.id
        return isinstance(e, ast.Attribute) and isinstance(place, ast.Attribute) and e.attr == place.attr

    for node in _walk(decl.body):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CHANGING \
                and named(node.func.value):
            return node
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else \
            (node.target,) if isinstance(node, ast.AugAssign) else ()
        for t in targets:
            if (isinstance(t, ast.Subscript) and named(t.value)) or (isinstance(node, ast.AugAssign) and named(t)):
                return node
    return None


def _assignment_to(place: ast.Expr, body) -> ast.Node | None:
    for node in _walk(body):
        targets = node.targets if isinstance(node, ast.Assign) else \
            (node.target,) if isinstance(node, ast.For) else ()
        for t in targets:
            for leaf in _leaves(t):
                if isinstance(place, ast.Name) and isinstance(leaf, ast.Name) and leaf.id == place.id:
                    return node
                if isinstance(place, ast.Attribute) and isinstance(leaf, ast.Attribute) and leaf.attr == place.attr:
                    return node
    return None


def _leaves(target: ast.Expr):
    if isinstance(target, ast.TupleExpr):
        for t in target.elts:
            yield from _leaves(t)
    else:
        yield target


def _walk(body):
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(ast.children(node))
