"""Python's changes in place through a `def`'s parameters: the implicit `mut`.

In Python, `def app(xs): xs.append(9)` changes the caller's list, because the parameter names the
caller's object. pyx passes arguments by borrowing (docs/semantics.md), so a `def` parameter that
the body changes in place is taken as `mut` (by reference) without being written so, and the
caller sees the change as in Python. A parameter gets the implicit `mut` when, in its `def`'s body
(nested functions aside):

- it is changed in place as a list or dict: an item stored or deleted, or changed through an
  item (`xs[i] = v`, `xs[i] += v`, `g[i][j] = v`, `ps[i].x = v`, `del xs[i]`), a method that
  changes a list or dict called on it or on an item of it (`xs.append(v)`, `d.pop(k)`,
  `g[i].append(v)`), or `xs += ys`; all of these for a parameter annotated as a list or dict,
  and only the methods called on the parameter itself (`xs.append(v)`) for an unannotated one
  (whose `xs[i] = v` may be a pointer's or a SIMD vector's, which are not shared), unless every
  call of the module passes it a variable bound only to lists, dicts or sets (`_given_containers`); or
- it is passed to a parameter that is `mut` (written or implicit) of a function of this module
  (`dfs(child, visited)` inside `dfs`, or a helper that appends);

and it is never rebound (`xs = ...`, `for xs in ...`): a parameter that is both rebound and changed
in place stays borrowed, and the change is E0228, whose note shows the rebinding (Python would
change the caller's object before the rebinding and not after, which pyx does not follow).
Only lists and dicts (a parameter annotated `list`/`List`/`dict`/`Dict`, or not annotated) get
it, as above: Python shares those, while a struct is a value (Mojo's), whose `mut` stays written. A
parameter with a default value (but a list or dict made once, syntax/mutable_defaults.py), or with
a convention written (`mut`, `var`), is left alone, and
so is every `fn` (pyx's own functions say `mut`). Methods are not covered yet.
"""
from __future__ import annotations

from dataclasses import replace
from typing import cast

from ..syntax import ast

# Methods of Python's list and dict (pyx's List and Dict) that change the receiver in place.
# collections.deque is changed as a list is, Counter and defaultdict as a dict (stdlib/_collections.px).
LIST_CHANGES = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort",
                          "appendleft", "popleft", "extendleft", "rotate"})
DICT_CHANGES = frozenset({"pop", "clear", "update", "setdefault", "popitem", "subtract", "move_to_end"})
_LIST_NAMES = {"list", "List", "deque"}
_DICT_NAMES = {"dict", "Dict", "Counter", "defaultdict", "OrderedDict"}


def infer(functions: dict[str, ast.FnDef], structs: dict[str, ast.StructDef]) -> dict[str, ast.FnDef]:
    """The module's functions, each `def` with the implicit `mut` on the parameters it changes in place."""
    facts = {name: _Facts(decl) for name, decl in functions.items() if decl.kind == "def"}
    marked = {name: set(f.changed) | {p for p, how in f.element_changes.items()
                                      if _items_changed(functions[name], p, how, structs)}
              for name, f in facts.items()}
    for name, params in _given_containers(functions, facts).items():
        marked[name] |= params
    changed = True
    while changed:  # a parameter passed on to a `mut` one is changed too: to a fixed point
        changed = False
        for name, f in facts.items():
            for callee, index, keyword, param in f.passed:
                target = functions.get(callee)
                if target is None or param in marked[name]:
                    continue
                at = index if keyword is None else next(
                    (i for i, p in enumerate(target.params) if p.name == keyword), None)
                if at is None or at >= len(target.params):
                    continue
                p = target.params[at]
                if p.convention == "mut" or p.name in marked.get(callee, ()):
                    marked[name].add(param)
                    changed = True
    out = dict(functions)
    for name, f in facts.items():
        # An object (a class's instance) is shared already: changing it needs no `mut` (classes.py).
        chosen = {p for p in marked[name] if p in f.candidates and not _names_class(functions[name], p, structs)}
        if chosen:
            decl = functions[name]
            out[name] = replace(decl, params=tuple(replace(p, convention="mut") if p.name in chosen else p
                                                   for p in decl.params))
    return out


def _shared_default(e: ast.Expr) -> bool:
    """A list or dict default, made once (syntax/mutable_defaults.py): a call that leaves the argument
    out passes that module-level variable, which a change in place changes, as Python's."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "__pyx_fresh_default":
        return True  # (one made at each call: `if xs is None: xs = []`)
    return isinstance(e, ast.Name) and e.id.startswith("__pyx_default_")


class _Facts:
    """What one `def`'s body does with its parameters: which it changes in place, which it
    rebinds, and which it passes on to calls of module functions."""

    def __init__(self, decl: ast.FnDef):
        self.kinds = {p.name: _kind(p.annotation) for p in decl.params
                      if p.convention is None and not p.variadic
                      and (p.default is None or _shared_default(p.default))
                      and _kind(p.annotation) != "other"}
        self.changed: set[str] = set()
        self.rebound: set[str] = set()
        self.passed: list[tuple[str, int, str | None, str]] = []  # (callee, position, keyword, parameter)
        self.element_changes: dict[str, set[str]] = {}  # a list parameter -> how a loop changes its items
        self.items_stored: set[str] = set()  # unannotated parameters changed as a list's or dict's items are
        stack: list = list(decl.body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.FnDef):
                continue  # a nested function's own names
            self._visit(node)
            stack.extend(ast.children(node))

    @property
    def candidates(self) -> set[str]:
        return set(self.kinds) - self.rebound

    def _root(self, e: ast.Expr, whole: bool = False) -> str | None:
        """The parameter whose items a place (`p[i]`, `p[i].f[j]`) is, or (`whole`) `p` itself: a
        field of a parameter (`p.f`) is a struct's, not a list's or dict's."""
        item = False
        while isinstance(e, (ast.Subscript, ast.Attribute)):
            item = isinstance(e, ast.Subscript)  # the link next to the root decides
            e = e.value
        if not isinstance(e, ast.Name) or e.id not in self.kinds:
            return None
        if item and self.kinds[e.id] is None:
            return None  # `p[i] = v` of an unannotated `p`: a Ptr's or a SIMD's as well as a list's
        return e.id if item or whole else None

    def _store(self, target: ast.Expr) -> None:
        if isinstance(target, ast.TupleExpr):
            for t in target.elts:
                self._store(t)
        elif isinstance(target, ast.Name):
            if target.id in self.kinds:
                self.rebound.add(target.id)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            root = self._root(target)
            if root is not None:
                self.changed.add(root)
            else:
                self._untyped_item(target)

    def _visit(self, node) -> None:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                self._store(t)
        elif isinstance(node, ast.VarDecl):
            if node.name in self.kinds:
                self.rebound.add(node.name)
        elif isinstance(node, ast.For):
            self._store(node.target)
            it, target = node.iter, node.target
            if isinstance(it, ast.Name) and self.kinds.get(it.id) == "list" and isinstance(target, ast.Name):
                from .element_loops import element_changes, rebinds

                # `for row in rows: row.append(v)` may change the items in place (semantics/element_loops.py):
                # whether it does depends on the items' type (`infer`).
                changes = element_changes(node.body, target.id)
                if changes and not rebinds(node.body, target.id):
                    self.element_changes.setdefault(it.id, set()).update(changes)
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name):
                name = node.target.id
                if name in self.kinds:
                    # `xs += ys` extends a list in place; on a number or a str it binds a new value.
                    (self.changed if self.kinds[name] == "list" else self.rebound).add(name)
            else:
                self._store(node.target)
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                if isinstance(t, (ast.Subscript, ast.Attribute)):
                    self._store(t)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                root = self._root(func.value, whole=isinstance(func.value, ast.Name))
                if root is not None and func.attr in self._changing(root, func.value):
                    self.changed.add(root)
                elif root is None and func.attr in LIST_CHANGES | DICT_CHANGES:
                    self._untyped_item(func.value)
            elif isinstance(func, ast.Name):
                for i, a in enumerate(node.args):
                    if isinstance(a, ast.Name) and a.id in self.kinds:
                        self.passed.append((func.id, i, None, a.id))
                for kw in node.keywords:
                    if isinstance(kw.value, ast.Name) and kw.value.id in self.kinds:
                        self.passed.append((func.id, 0, kw.name, kw.value.id))

    def _untyped_item(self, place: ast.Expr) -> None:
        """`p[k] = v`, `p[i].append(v)` of an unannotated `p`: a list's or dict's change where the
        callers pass one (`_given_containers`)."""
        if isinstance(place, ast.Subscript) and isinstance(place.value, ast.Name) \
                and place.value.id in self.kinds and self.kinds[place.value.id] is None:
            self.items_stored.add(place.value.id)
        elif isinstance(place, (ast.Subscript, ast.Attribute)) and isinstance(place.value, ast.Subscript):
            self._untyped_item(place.value)

    def _changing(self, root: str, receiver: ast.Expr) -> frozenset[str]:
        """The method names that change `receiver` (the parameter `root` or an item of it) in place."""
        if isinstance(receiver, ast.Name):
            return {"list": LIST_CHANGES, "dict": DICT_CHANGES}.get(self.kinds[root] or "", LIST_CHANGES | DICT_CHANGES)
        return LIST_CHANGES | DICT_CHANGES  # an item: a list's or dict's changes


def _given_containers(functions: dict[str, ast.FnDef], facts: dict[str, _Facts]) -> dict[str, set[str]]:
    """The unannotated parameters whose items a `def` changes (`env[k] = v`) and to which every call
    of the module passes a variable that holds a list, dict or set (bound only to such literals,
    comprehensions or constructor calls, or annotated so): those are a list's or dict's changes,
    as for an annotated parameter. A function named anywhere but as a call's callee (a function
    value) keeps its parameters as they are."""
    wanted = {name: f.items_stored for name, f in facts.items() if f.items_stored}
    if not wanted:
        return {}
    passed: dict[tuple[str, str], list[bool]] = {}
    values: set[str] = set()  # the functions named other than as a call's callee
    for caller in functions.values():
        kinds = _container_names(caller)
        stack: list = list(caller.body)
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                stack.extend(c for c in ast.children(n) if c is not n.func)
            else:
                stack.extend(ast.children(n))
            if isinstance(n, ast.Name) and n.id in wanted:
                values.add(n.id)
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in wanted):
                continue
            params = functions[n.func.id].params
            given = list(zip((p.name for p in params), n.args, strict=False)) + [(k.name, k.value) for k in n.keywords]
            for pname, arg in given:
                if pname in wanted[n.func.id]:
                    passed.setdefault((n.func.id, pname), []).append(isinstance(arg, ast.Name) and arg.id in kinds)
    return {name: {p for p in params if passed.get((name, p)) and all(passed[(name, p)])}
            for name, params in wanted.items() if name not in values}


def _container_names(decl: ast.FnDef) -> set[str]:
    """The names `decl` binds only to lists, dicts or sets: parameters annotated so, and variables
    whose every binding is an annotation saying so or a container literal, comprehension or
    constructor call (`env = {}`, `rows = [r for r in x]`, `seen = set()`)."""
    good = {p.name for p in decl.params if _kind(p.annotation) in ("list", "dict")}
    bad = {p.name for p in decl.params} - good
    stack: list = list(decl.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            continue
        stack.extend(ast.children(n))
        bindings: list[tuple[str, bool]] = []
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    bindings.append((t.id, len(n.targets) == 1 and _container_value(n.value)))
                elif isinstance(t, ast.TupleExpr):
                    bindings += [(e.id, False) for e in t.elts if isinstance(e, ast.Name)]
        elif isinstance(n, ast.VarDecl):
            bindings.append((n.name, _kind(n.annotation) in ("list", "dict")
                             or (n.annotation is None and n.value is not None and _container_value(n.value))))
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            bindings += [(name, False) for name in n.names]
        elif isinstance(n, ast.Handler) and n.name is not None:
            bindings.append((n.name, False))
        elif isinstance(n, (ast.For, ast.CompFor)):
            targets: list[ast.Node] = [n.target]
            while targets:
                leaf = targets.pop()
                if isinstance(leaf, ast.Name):
                    bindings.append((leaf.id, False))
                targets.extend(ast.children(leaf))
        for name, ok in bindings:
            (good if ok else bad).add(name)
    return good - bad


def _container_value(e: ast.Expr) -> bool:
    if isinstance(e, (ast.ListExpr, ast.DictExpr, ast.SetExpr)):
        return True
    if isinstance(e, ast.Comprehension):
        return e.kind in ("list", "dict", "set")
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) \
        and e.func.id in ("list", "dict", "set", "defaultdict", "Counter", "OrderedDict", "deque")


def _items_changed(decl: ast.FnDef, param: str, how: set[str], structs: dict[str, ast.StructDef]) -> bool:
    """Whether `for p in param:` changing its items as `how` says (element_loops.element_changes)
    changes the list's items: lists' or dicts' by a store or a changing method, a struct's by a
    store or a `mut` method. (A class's objects are shared already; other items are left alone.)"""
    from ..syntax.classes import is_class_decl

    annotation = next((p.annotation for p in decl.params if p.name == param), None)
    if not isinstance(annotation, ast.Subscript) or len(annotation.items) != 1:
        return False
    item = annotation.items[0]
    if _kind(cast(ast.Expr, item)) in ("list", "dict"):
        return bool(how & ({"="} | LIST_CHANGES | DICT_CHANGES))
    if isinstance(item, ast.Name) and item.id in structs and not is_class_decl(structs[item.id]):
        methods = {m.name: m for m in structs[item.id].methods}
        return "=" in how or any(m in methods and methods[m].self_convention == "mut" for m in how)
    return False


def _names_class(decl: ast.FnDef, param: str, structs: dict[str, ast.StructDef]) -> bool:
    from ..syntax.classes import is_class_decl

    annotation = next((p.annotation for p in decl.params if p.name == param), None)
    return isinstance(annotation, ast.Name) and annotation.id in structs and is_class_decl(structs[annotation.id])


def _kind(annotation: ast.Expr | None) -> str | None:
    """"list", "dict", None (not annotated: a list or dict if it is changed as one) or "other"."""
    if annotation is None:
        return None
    node = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    if isinstance(node, ast.Name) and node.id in _LIST_NAMES:
        return "list"
    if isinstance(node, ast.Name) and node.id in _DICT_NAMES:
        return "dict"
    return "other"


def aliased_argument(params, args: list, msg) -> bool:
    """A call that passes a variable to a `mut` parameter and the same variable (or a field of it)
    to a borrowed one, `one(a, a)`: Python would pass one object to both, so the borrowed
    parameter would see the changes; pyx's borrow would hold the value from before (and memory
    the change may have moved). E0246; True if the call is fine."""
    from ..diagnostics import Note
    from ..types import StructType
    from .sharing import place_root
    from .typed import TRef

    own = args[len(args) - len(params):]
    refs = {a.var: (p, a) for p, a in zip(params, own, strict=False) if p.convention == "mut" and isinstance(a, TRef)}
    if not refs:
        return True
    for p, a in zip(params, own, strict=False):
        root = place_root(a) if p.convention is None and isinstance(a.type, StructType) else None
        if root is not None and root in refs:
            mut_param, ref = refs[root]
            msg.error("E0246", a.span, (Note(f"passed to `mut {mut_param.name}` here", ref.span),),
                      name=ref.var.name, param=p.name)
            return False
    return True
