"""Generator objects: a generator that must stay suspended between uses, compiled to a class.

pyx compiles `for x in gen(n)` by expanding the generator's body into the loop
(`semantics/generators.py`): the fast path, kept wherever it applies. Some uses need the
generator as an object of its own, suspended between items:

- a variable given to `next` and used again (`next(g)` twice, `next(g)` then `for x in g`), or
  used inside a loop it was made outside of;
- a generator call stored in a list, an attribute or passed to `list.append`, or one of two or
  more generators zipped together (`zip(gen_a(), gen_b())`);
- a generator that iterates itself (recursive `yield from`): every call of it.

For those, this pass (run by the builder before classes are expanded) makes a class
`__pyx_gen_G` per generator function `G`, and the call becomes a call of that class. The class
is a state machine, as issue 18 asks (no threads, no stack switching):

- its attributes are the generator's frame: each parameter and local of `G` (their types must
  be known here: annotations, or values whose type shows, E0295), the resume index, the item
  just made and whether one is waiting, and one attribute per sub-generator or loop counter;
- `_pyx_advance` runs from the resume index to the next `yield` (storing the item and the index
  after it, returning True) or to the end (returning False). `G`'s body is cut into numbered
  pieces at each `yield` and each loop or `if` that holds one; a piece ends by naming the next
  one and going round the dispatch loop again;
- `__has_next__` / `__next__` are pyx's iterator protocol, so `for`, `sum`, `zip`, `list`, ...
  take the object as they take any iterator; `next(g)` and `next(g, default)` call
  `__next__` / `_pyx_next_or` (semantics/generators.py); an exhausted one raises
  StopIteration, as Python's does.

The object is a class instance: reference counted, shared by every name that holds it, and
freed with its frame (what its attributes own) exactly once when the last reference goes, also
when abandoned half-way. `yield from sub(...)` keeps the sub-generator in an attribute and
passes its items on, so a recursive generator costs O(depth) per item, as in CPython.

What this cannot compile is rejected (E0294): `yield` inside `try`/`with`, a nested function or
lambda, `global`/`nonlocal`, `del`, and loops with a `yield` over something other than
`range(...)`, a generator call, or a list or string held in a local of known type.
`g.send(...)`, `.throw`, `.close` are E0296.
"""
from __future__ import annotations

import dataclasses

from ..diagnostics import DiagnosticBag
from ..source import Span
from . import ast

PREFIX = "__pyx_gen_"
STATE, VALUE, READY = "__pyx_state", "__pyx_value", "__pyx_ready"
ITERATOR_NAMES = ("Iterator", "Generator", "Iterable")
_SCOPES = (ast.FnDef, ast.StructDef, ast.TraitDef)
_STR_TO_STR = ("upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize", "swapcase", "replace",
               "join", "center", "ljust", "rjust", "zfill", "casefold", "removeprefix", "removesuffix", "format")


def class_name(gen: str) -> str:
    return PREFIX + gen


# ---- walking the AST ----
def _walk(node, into_scopes: bool = False):
    """`node` and every node under it (not entering nested functions or classes unless asked)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if n is not node and not into_scopes and isinstance(n, (*_SCOPES, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.children(n))))


def _walk_body(body):
    for s in body:
        yield from _walk(s)


def _yields(fn: ast.FnDef) -> bool:
    return fn.kind == "def" and any(isinstance(n, ast.Yield) for n in _walk_body(fn.body))


def _called(e, names) -> str | None:
    """The generator function `e` calls, if it is a call of one by name."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in names:
        return e.func.id
    return None


# ---- types known before checking ----
def _key(t) -> str:
    """A comparable spelling of a type annotation."""
    if t is None:
        return "?"
    if isinstance(t, ast.Name):
        return {"Int": "int", "Float64": "float", "String": "str", "Bool": "bool"}.get(t.id, t.id)
    if isinstance(t, ast.StrLit):
        return t.value.replace(" ", "")
    if isinstance(t, ast.Subscript):
        return f"{_key(t.value)}[{','.join(_key(i) for i in t.items)}]"
    if isinstance(t, ast.Attribute):
        return f"{_key(t.value)}.{t.attr}"
    if isinstance(t, ast.Binary):
        return f"{_key(t.left)}{t.op}{_key(t.right)}"
    if isinstance(t, ast.NoneLit):
        return "None"
    if isinstance(t, ast.TupleExpr):
        return f"({','.join(_key(i) for i in t.elts)})"
    return type(t).__name__


def _named(sp: Span, name: str) -> ast.Name:
    return ast.Name(sp, name)


def _class_of(t) -> str | None:
    """The class an annotation names (`C`, `"C | None"`, `Optional[C]`, `C | None`)."""
    if isinstance(t, ast.Name):
        return t.id
    if isinstance(t, ast.StrLit):
        parts = [p.strip() for p in t.value.split("|")]
        parts = [p for p in parts if p != "None"]
        return parts[0] if len(parts) == 1 and parts[0].isidentifier() else None
    if isinstance(t, ast.Binary) and t.op == "|":
        sides = [s for s in (t.left, t.right) if not isinstance(s, ast.NoneLit)]
        return _class_of(sides[0]) if len(sides) == 1 else None
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "Optional" \
            and len(t.items) == 1:
        return _class_of(t.items[0])
    return None


def _generic(t, *names: str):
    """The arguments of `t` when it is `name[...]` for one of names, else None."""
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in names:
        return t.items
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr in names:
        return t.items
    return None


class _Module:
    """What the module declares that the types of a generator's locals may come from."""

    def __init__(self, items: tuple, gens: dict[str, ast.FnDef]) -> None:
        from .classes import ClassDef

        self.gens = gens
        self.functions = {i.name: i for i in items if isinstance(i, ast.FnDef)}
        self.classes: dict[str, dict[str, ast.Expr]] = {}
        self.truthy: set[str] = set()  # classes with `__bool__` or `__len__` (their own truth)
        for c in items:
            if isinstance(c, ClassDef):
                self.classes[c.name] = self._class_fields(c)
                if any(isinstance(m, ast.FnDef) and m.name in ("__bool__", "__len__") for m in c.body) or c.bases:
                    self.truthy.add(c.name)
            elif isinstance(c, ast.StructDef):
                self.classes[c.name] = {f.name: f.annotation for f in c.fields}
        self.yield_types: dict[str, object] = {}
        self.in_progress: set[str] = set()

    @staticmethod
    def _class_fields(c) -> dict[str, ast.Expr]:
        fields: dict[str, ast.Expr] = {}
        annotations = {id(node): ann for node, ann in c.attr_annotations}
        for s in c.body:
            if isinstance(s, ast.VarDecl) and s.annotation is not None:
                fields.setdefault(s.name, s.annotation)
            if isinstance(s, ast.FnDef) and s.name == "__init__":
                params = {p.name: p.annotation for p in s.params if p.annotation is not None}
                for n in _walk_body(s.body):
                    if not isinstance(n, ast.Assign):
                        continue
                    for tg in n.targets:
                        if isinstance(tg, ast.Attribute) and isinstance(tg.value, ast.Name) and tg.value.id == "self":
                            if id(n) in annotations:
                                fields.setdefault(tg.attr, annotations[id(n)])
                            elif isinstance(n.value, ast.Name) and n.value.id in params:
                                fields.setdefault(tg.attr, params[n.value.id])
        return fields


_LITERAL_TYPES = {ast.BoolLit: "bool", ast.IntLit: "int", ast.FloatLit: "float", ast.StrLit: "str"}
# What a call of a built-in by name gives (`abs`, `min` and `max` give their arguments' type).
_BUILTIN_RESULTS = {"len": "int", "int": "int", "ord": "int", "hash": "int", "float": "float", "str": "str",
                    "chr": "str", "repr": "str", "bool": "bool"}


def _arithmetic(op: str, a: str, b: str) -> str | None:
    """The type of `a op b` for two numbers ("int" or "float"); None where the operator is not one of these."""
    if op == "/":
        return "float"
    if op in ("+", "-", "*", "//", "%"):
        return "float" if "float" in (a, b) else "int"
    if a == b == "int" and op in ("<<", ">>", "&", "|", "^"):
        return "int"
    return None


def _str_method_result(sp: Span, method: str):
    """The type a str's method gives, where it shows."""
    if method in _STR_TO_STR:
        return _named(sp, "str")
    if method in ("find", "rfind", "index", "rindex", "count"):
        return _named(sp, "int")
    if method.startswith("is") or method in ("startswith", "endswith"):
        return _named(sp, "bool")
    if method in ("split", "rsplit", "splitlines"):
        return ast.Subscript(sp, _named(sp, "list"), (_named(sp, "str"),))
    return None


def _item_of(base, index: ast.Node):
    """The type of `x[index]` (not a slice) for `x` of type `base`: a str's, list's, dict's item, a
    tuple's at a constant index."""
    if _key(base) == "str":
        return base
    items = _generic(base, "list", "List")
    if items is not None and len(items) == 1:
        return items[0]
    items = _generic(base, "dict", "Dict")
    if items is not None and len(items) == 2:
        return items[1]
    items = _generic(base, "tuple", "Tuple")
    if items is not None and isinstance(index, ast.IntLit) and 0 <= index.value < len(items):
        return items[index.value]
    return None


class _Types:
    """The types of one generator's locals, found from annotations and the values bound."""

    def __init__(self, mod: _Module, fn: ast.FnDef) -> None:
        self.mod, self.fn = mod, fn
        self.types: dict[str, object] = {}

    def of(self, e):
        """The type of expression e as an annotation, where it shows without checking; else None."""
        literal = _LITERAL_TYPES.get(type(e))
        if literal is not None:
            return _named(e.span, literal)
        infer = getattr(self, "of_" + type(e).__name__, None)  # of_Name, of_Binary, ...
        return infer(e) if infer is not None else None

    def of_Name(self, e: ast.Name):
        return self.types.get(e.id)

    def of_Unary(self, e: ast.Unary):
        inner = self.of(e.operand)
        if e.op == "not":
            return _named(e.span, "bool")
        return inner if _key(inner) in ("int", "float") else None

    def of_Compare(self, e: ast.Compare):
        return _named(e.span, "bool")

    def of_BoolOp(self, e: ast.BoolOp | ast.IfExp):
        """`a or b`, `a if c else b`: the type all the values share."""
        parts = [self.of(v) for v in (e.values if isinstance(e, ast.BoolOp) else (e.body, e.orelse))]
        keys = {_key(p) for p in parts}
        return parts[0] if len(keys) == 1 and None not in parts else None

    of_IfExp = of_BoolOp

    def of_Binary(self, e: ast.Binary):
        a, b = _key(self.of(e.left)), _key(self.of(e.right))
        if e.op == "**":
            return _named(e.span, "float") if "float" in (a, b) and {a, b} <= {"int", "float"} else None
        if {a, b} <= {"int", "float"} and a != "?" and b != "?":
            number = _arithmetic(e.op, a, b)
            if number is not None:
                return _named(e.span, number)
        if e.op == "+" and a == b and (a == "str" or a.startswith(("list[", "List["))):
            return self.of(e.left)
        if e.op == "*" and a.startswith(("list[", "List[")) and b == "int":
            return self.of(e.left)
        if e.op == "*" and {a, b} == {"str", "int"}:
            return _named(e.span, "str")
        return None

    def of_Call(self, e: ast.Call):
        if isinstance(e.func, ast.Name):
            return self._call_of_name(e, e.func.id)
        if isinstance(e.func, ast.Attribute) and _key(self.of(e.func.value)) == "str":
            return _str_method_result(e.span, e.func.attr)
        return None

    def _call_of_name(self, e: ast.Call, name: str):
        """`f(...)`: a built-in's result, a class's instance, a function's declared return type."""
        if name in self.types:
            return None
        if name in _BUILTIN_RESULTS:
            return _named(e.span, _BUILTIN_RESULTS[name])
        if name == "abs" and len(e.args) == 1:
            return self.of(e.args[0])
        if name in ("min", "max") and len(e.args) >= 2:
            parts = [self.of(a) for a in e.args]
            return parts[0] if len({_key(p) for p in parts}) == 1 and None not in parts else None
        if name in self.mod.classes:
            return _named(e.span, name)
        f = self.mod.functions.get(name)
        if f is not None and f.returns is not None and name not in self.mod.gens:
            return f.returns
        return None

    def of_Subscript(self, e: ast.Subscript):
        if len(e.items) != 1:
            return None
        base = self.of(e.value)
        if isinstance(e.items[0], ast.Slice):
            return base if _key(base) == "str" or _generic(base, "list", "List") else None
        return _item_of(base, e.items[0])

    def of_Attribute(self, e: ast.Attribute):
        cls = _class_of(self.of(e.value))
        return self.mod.classes.get(cls, {}).get(e.attr) if cls is not None else None

    def of_ListExpr(self, e: ast.ListExpr):
        if not e.elts:
            return None
        parts = [self.of(x) for x in e.elts]
        if len({_key(p) for p in parts}) == 1 and None not in parts:
            return ast.Subscript(e.span, _named(e.span, "list"), (parts[0],))
        return None

    def of_TupleExpr(self, e: ast.TupleExpr):
        if not e.elts:
            return None
        parts = [self.of(x) for x in e.elts]
        if None in parts:
            return None
        return ast.Subscript(e.span, _named(e.span, "tuple"), tuple(parts))

    def element(self, it):
        """The type of the items a `for` over `it` binds, where it shows."""
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name):
            name = it.func.id
            if name in self.mod.gens and name not in self.types:
                return self.mod.yield_type(name)
            if name == "range":
                return _named(it.span, "int")
            if name == "enumerate" and it.args:
                inner = self.element(it.args[0])
                return None if inner is None else ast.Subscript(it.span, _named(it.span, "tuple"),
                                                                (_named(it.span, "int"), inner))
            if name == "zip" and it.args:
                parts = [self.element(a) for a in it.args]
                return None if None in parts else ast.Subscript(it.span, _named(it.span, "tuple"), tuple(parts))
            if name == "reversed" and len(it.args) == 1:
                return self.element(it.args[0])
            return None
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args:
            items = _generic(self.of(it.func.value), "dict", "Dict")
            if items is not None and len(items) == 2:
                if it.func.attr == "items":
                    return ast.Subscript(it.span, _named(it.span, "tuple"), tuple(items))
                return {"keys": items[0], "values": items[1]}.get(it.func.attr)
        t = self.of(it)
        if _key(t) == "str":
            return t
        items = _generic(t, "list", "List", "set", "Set")
        if items is not None and len(items) == 1:
            return items[0]
        items = _generic(t, "dict", "Dict")
        return items[0] if items is not None and len(items) == 2 else None

    def bind(self, target, t) -> None:
        """Record the type of each name `target` binds to a value of type t (if not known yet)."""
        if isinstance(target, ast.Name):
            if t is not None and target.id not in self.types:
                self.types[target.id] = t
        elif isinstance(target, ast.TupleExpr):
            items = _generic(t, "tuple", "Tuple") if t is not None else None
            for k, sub in enumerate(target.elts):
                self.bind(sub, items[k] if items is not None and len(items) == len(target.elts) else None)

    def bind_value(self, target, value) -> None:
        if isinstance(target, ast.TupleExpr) and isinstance(value, ast.TupleExpr) \
                and len(target.elts) == len(value.elts):
            for tg, v in zip(target.elts, value.elts, strict=True):
                self.bind_value(tg, v)
        else:
            self.bind(target, self.of(value))

    def infer(self) -> None:
        for p in self.fn.params:
            if p.annotation is not None:
                self.types[p.name] = p.annotation
        while True:  # until nothing more is learnt (a local's type may come from one bound later)
            before = len(self.types)
            for n in _walk_body(self.fn.body):
                if isinstance(n, ast.VarDecl) and n.annotation is not None:
                    self.types.setdefault(n.name, n.annotation)
                elif isinstance(n, ast.VarDecl) and n.value is not None:
                    self.bind(ast.Name(n.name_span, n.name), self.of(n.value))
                elif isinstance(n, ast.Assign):
                    for tg in n.targets:
                        self.bind_value(tg, n.value)
                elif isinstance(n, ast.For):
                    self.bind(n.target, self.element(n.iter))
            if len(self.types) == before:
                return


# ---- the pass ----
def _loops_around(body: tuple) -> dict[int, tuple]:
    """id(node) -> the ids of the loops around it: a node gets the loops of the innermost statement
    holding it."""
    loops: dict[int, tuple] = {}

    def place(stmts, around: tuple) -> None:
        for s in stmts:
            for n in _walk(s):
                loops[id(n)] = around
            if isinstance(s, (ast.For, ast.While)):
                place(s.body, (*around, id(s)))
            elif isinstance(s, ast.If):
                place(s.body, around)
                place(s.orelse, around)
            elif isinstance(s, ast.Try):
                place(s.body, around)
                for h in s.handlers:
                    place(h.body, around)
                place(s.orelse, around)
                place(s.finalbody, around)

    place(body, ())
    return loops


class _ScannedBody:
    """One function's body as `GeneratorObjects.scan` looks at it: its nodes, each one's parent and
    the loops around it, the variables bound only to generator calls (`assigned`, with those
    assignments) and the variables bound otherwise (`other`)."""

    def __init__(self, body: tuple, gens: dict):
        self.loops = _loops_around(body)
        self.nodes = list(_walk_body(body))
        self.assigned: dict[str, list[ast.Assign]] = {}
        self.other: set[str] = set()
        for n in self.nodes:
            if isinstance(n, ast.Assign):
                for tg in n.targets:
                    for name in _bound(tg):
                        if len(n.targets) == 1 and isinstance(tg, ast.Name) and _called(n.value, gens):
                            self.assigned.setdefault(name, []).append(n)
                        else:
                            self.other.add(name)
            elif isinstance(n, (ast.AugAssign, ast.VarDecl, ast.For)):
                for name in _bound(n.target if not isinstance(n, ast.VarDecl) else ast.Name(n.span, n.name)):
                    self.other.add(name)
        self.parents: dict[int, ast.Node] = {}
        for n in self.nodes:
            for c in ast.children(n):
                self.parents[id(c)] = n


class GeneratorObjects:
    def __init__(self, items: tuple, diags: DiagnosticBag) -> None:
        self.items = items
        self.diags = diags
        self.gens = {i.name: i for i in items if isinstance(i, ast.FnDef) and _yields(i)}
        self.mod = _Module(items, self.gens)
        self.mod.yield_type = self.yield_type  # type: ignore[attr-defined]
        self.sites: dict[int, str] = {}  # id(a generator call) -> its generator, made an object there
        self.built: dict[str, object] = {}  # generator -> its class (None: it could not be built)
        self.reason: dict[str, str] = {}
        self.var_gens: dict[str, str] = {}  # a variable made an object -> its generator (for messages)
        self.hard: set[int] = set()  # the sites that cannot run as before: a failure to build is reported
        self.errors: dict[str, list[_Rejected]] = {}  # why a generator's class could not be made
        self.refused: set[int] = set()  # id(a `.send(...)` call reported): no further errors about it
        self.site_ctx: dict[int, tuple] = {}  # id(call) -> (names its function binds, its nodes, loops)

    # -- which calls become objects --
    def recursive(self) -> set[str]:
        """The generators that iterate themselves through calls (directly or through others)."""
        edges: dict[str, set[str]] = {}
        for name, fn in self.gens.items():
            out: set[str] = set()
            for n in _walk_body(fn.body):
                it = n.value if isinstance(n, ast.Yield) and n.delegate else n.iter if isinstance(n, ast.For) else None
                callee = _called(it, self.gens) if it is not None else None
                if callee is not None:
                    out.add(callee)
            edges[name] = out
        found = set()
        for start in edges:
            seen, stack = set(), list(edges[start])
            while stack:
                g = stack.pop()
                if g == start:
                    found.add(start)
                    break
                if g not in seen:
                    seen.add(g)
                    stack.extend(edges.get(g, ()))
        return found

    def scan(self, body: tuple, recursive: set[str]) -> None:
        """Mark the generator calls of one function's body that must be objects."""
        b = _ScannedBody(body, self.gens)
        targets = {id(tg) for n in b.nodes if isinstance(n, ast.Assign) for tg in n.targets}
        for name, assigns in b.assigned.items():
            if name not in b.other:
                self._generator_variable(name, assigns, b, targets)
        self._generator_calls(b, recursive)
        nodes = b.nodes
        bound = {x for n in nodes for x in _targets_of(n)} | {n.name for n in nodes if isinstance(n, ast.VarDecl)}
        self.zips(nodes, b.parents, b.loops, {name for name, assigns in b.assigned.items()
                                              if any(id(a.value) in self.sites for a in assigns)})
        for n in nodes:
            if id(n) in self.sites:
                self.site_ctx[id(n)] = (bound, nodes, b.loops)
        for n in nodes:  # g.send(...), gen().close(), ...: E0296
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                    and n.func.attr in ("send", "throw", "close"):
                v = n.func.value
                if _called(v, self.gens) or (isinstance(v, ast.Name) and v.id in b.assigned and v.id not in b.other):
                    self.diags.error("E0296", n.func.span, method=f".{n.func.attr}")
                    self.refused.add(id(n))

    def _generator_variable(self, name: str, assigns: list[ast.Assign], b: _ScannedBody, targets: set[int]) -> None:
        """A variable bound only to generator calls: its calls are objects where a use needs one (hard:
        what running the generator where it is iterated cannot do) or where it is used twice (soft)."""
        loads = [n for n in b.nodes if isinstance(n, ast.Name) and n.id == name and id(n) not in targets]
        # each use belongs to the assignment before it in the text
        order = sorted(assigns, key=lambda a: a.span.start)
        uses: dict[int, list] = {id(a): [] for a in order}
        for n in loads:
            before = [a for a in order if a.span.start < n.span.start]
            if before:
                uses[id(before[-1])].append(n)
        hard = soft = False
        for a in order:
            mine = uses[id(a)]
            home = b.loops[id(a)]
            if any(len(b.loops.get(id(n), ())) > len(home) for n in mine) \
                    or any(_kept(n, b.parents) or _zipped(n, b.parents, self.gens, b.assigned) for n in mine) \
                    or (len(mine) >= 2 and any(_is_next_arg(n, b.parents) for n in mine)):
                hard = True  # what pyx's generator run where it is iterated rejects (E0274)
            elif len(mine) >= 2:
                soft = True  # used twice: an object, if one can be made (else as before)
        # (one use, not in a loop: the generator runs where it is used, the fast path)
        if hard or soft:
            self.var_gens[name] = _called(assigns[0].value, self.gens) or ""
            for a in assigns:
                self.sites[id(a.value)] = _called(a.value, self.gens) or ""
                if hard:
                    self.hard.add(id(a.value))

    def _generator_calls(self, b: _ScannedBody, recursive: set[str]) -> None:
        """Generator calls that must be objects wherever they are: of a recursive generator, kept,
        zipped, or returned (the caller may use it more than once: an object, if one can be made)."""
        for n in b.nodes:
            g = _called(n, self.gens)
            if g is None:
                continue
            if g in recursive or _kept(n, b.parents) or _zipped(n, b.parents, self.gens, b.assigned):
                self.sites[id(n)] = g
                self.hard.add(id(n))
            elif isinstance(b.parents.get(id(n)), ast.Return):
                # returned: the caller may keep it and use it more than once (an object, if one can
                # be made; else it runs where the caller iterates it, as before)
                self.sites[id(n)] = g

    def zips(self, nodes: list, parents: dict, loops: dict, objects: set[str]) -> None:
        """`zip` asks each iterator for an item in turn (pyx's `__has_next__`, which makes and keeps
        the item) and stops at the first exhausted: Python's zip drops the item it already took
        from the ones before, pyx's object keeps it. So a generator object zipped before the last
        argument must not be used after the zip, and none may be zipped twice (Python's zip would
        take from it twice per step)."""
        alias = {}
        for n in nodes:  # `h = g`: the same object under two names
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                    and isinstance(n.value, ast.Name) and n.value.id in objects:
                alias[n.targets[0].id] = n.value.id
        names = objects | set(alias)
        for call in nodes:
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "zip"):
                continue
            zipped = [a for a in call.args if isinstance(a, ast.Name) and a.id in names]
            roots = [alias.get(a.id, a.id) for a in zipped]
            if len(set(roots)) < len(roots):
                self.diags.error("E0294", call.span, func=self.gens_of(roots[0]),
                                 construct="`zip` given one generator object twice")
                continue
            for a in zipped:
                if a is call.args[-1]:
                    continue
                root = alias.get(a.id, a.id)
                later = [n for n in nodes if isinstance(n, ast.Name) and alias.get(n.id, n.id) == root
                         and n.span.start > call.span.end]
                if later or loops.get(id(call)):
                    self.diags.error("E0294", a.span, func=self.gens_of(root), construct=(
                        f"`{a.id}` zipped before the last argument and used again (Python's zip drops an item "
                        "it took from it when a later argument runs out; write the generator last)"))

    def gens_of(self, name: str) -> str:
        return self.var_gens.get(name, "?")

    def check_shared(self, call: ast.Call, fn: ast.FnDef, report: bool = True) -> bool:
        """A list, dict or set passed to a generator object must be a new one, or a local variable
        not used again after the call (nor in a loop around it): the object keeps a copy, where
        Python's generator shares the caller's (a change to it afterwards would show)."""
        ctx = self.site_ctx.get(id(call))
        for p, a in zip(fn.params, call.args, strict=False):
            if not _mutable(p.annotation) or isinstance(a, _FRESH):
                continue
            if isinstance(a, ast.Name) and ctx is not None:
                bound, nodes, loops = ctx
                later = [n for n in nodes if isinstance(n, ast.Name) and n.id == a.id and n is not a
                         and n.span.start > call.span.start]
                if a.id in bound and not later and not loops.get(id(call)):
                    continue
            if report:
                self.diags.error("E0294", a.span, func=fn.name, construct=(
                    f"a `{_key(p.annotation)}` argument the caller may change afterwards (the object would keep a "
                    "copy where Python's generator shares it: pass a new one, e.g. `list(...)`, if a copy is meant)"))
            return False
        return True

    # -- types --
    def yield_type(self, name: str):
        mod = self.mod
        if name in mod.yield_types:
            return mod.yield_types[name]
        fn = self.gens[name]
        items = _generic(fn.returns, *ITERATOR_NAMES) if fn.returns is not None else None
        if items:
            mod.yield_types[name] = items[0]
            return items[0]
        if name in mod.in_progress:
            return None
        mod.in_progress.add(name)
        try:
            types = _Types(mod, fn)
            types.infer()
            found = []
            for n in _walk_body(fn.body):
                if isinstance(n, ast.Yield) and n.value is not None:
                    if n.delegate:
                        callee = _called(n.value, self.gens)
                        if callee == name:
                            continue
                        found.append(self.yield_type(callee) if callee else types.element(n.value))
                    else:
                        found.append(types.of(n.value))
            keys = {_key(t) for t in found}
            t = found[0] if found and len(keys) == 1 and None not in found else None
        finally:
            mod.in_progress.discard(name)
        mod.yield_types[name] = t
        return t

    # -- building --
    def build(self, name: str):
        """The class of generator `name`, `BUILDING` while it is made (a generator reaching itself),
        or None where it cannot be made (the reasons in self.errors)."""
        if name in self.built:
            return self.built[name]
        self.built[name] = BUILDING
        fn = self.gens[name]
        try:
            cls = _Builder(self, fn).build()
        except _Rejected as r:
            self.errors.setdefault(name, []).append(r)
            cls = None
        self.built[name] = cls
        return cls

    def report(self, name: str, seen: set[str]) -> None:
        """Why generator `name` could not be an object (and the sub-generators it needed)."""
        if name in seen:
            return
        seen.add(name)
        for r in self.errors.get(name, []):
            self.diags.error(r.code, r.span, **r.fields)
            if r.cause is not None:
                self.report(r.cause, seen)

    def run(self) -> tuple:
        if not self.gens:
            return self.items
        from .classes import ClassDef

        recursive = self.recursive()
        for item in self.items:
            if isinstance(item, (ast.FnDef, ast.MainGuard)):
                self.scan(item.body, recursive)
            elif isinstance(item, ClassDef):
                for m in item.body:
                    if isinstance(m, ast.FnDef):
                        self.scan(m.body, recursive)
            elif isinstance(item, ast.StructDef):
                for m in item.methods:
                    self.scan(m.body, recursive)
        if self.refused:
            self.items = tuple(ast.transform(item, lambda n: ast.ErrorExpr(n.span) if id(n) in self.refused else None)
                               for item in self.items)
        if not self.sites:
            return self.items
        nodes_by_id = {id(n): n for item in self.items for n in _walk(item, into_scopes=True)}
        for g in sorted(set(self.sites.values())):
            self.build(g)
        made = {g for g, c in self.built.items() if c is not None}
        reported: set[str] = set()
        for site, g in list(self.sites.items()):
            if g not in made:
                if site in self.hard:
                    self.report(g, reported)
                del self.sites[site]  # (a use that ran where it is iterated before goes on doing so)
            elif not self.check_shared(nodes_by_id[site], self.gens[g], report=site in self.hard):
                del self.sites[site]
        classes = [c for c in self.built.values() if c is not None and c is not BUILDING]
        if not classes:
            return self.items

        def objects(n):
            g = self.sites.get(id(n))
            if g in made:
                return dataclasses.replace(n, func=ast.Name(n.func.span, class_name(g)))
            return None

        out = [ast.transform(item, objects) for item in self.items]
        return tuple(out) + tuple(ast.transform(c, objects) for c in classes)


_READERS = ("len", "sum", "min", "max", "sorted", "list", "str", "repr", "enumerate", "zip", "reversed", "any",
            "all", "print", "tuple", "set", "range")
_FRESH = (ast.ListExpr, ast.DictExpr, ast.SetExpr, ast.Comprehension, ast.Call, ast.Binary)


def _mutable(t) -> bool:
    """Whether an annotation names a list, dict or set (or holds one)."""
    k = _key(t)
    return any(k == n or k.startswith(n + "[") or f"[{n}[" in k or f",{n}[" in k
               for n in ("list", "List", "dict", "Dict", "set", "Set"))


def _bound(target) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.TupleExpr, ast.ListExpr)):
        return [n for e in target.elts for n in _bound(e)]
    return []


def _is_next_arg(n, parents) -> bool:
    call = parents.get(id(n))
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "next"
            and bool(call.args) and call.args[0] is n)


def _kept(n, parents) -> bool:
    """Whether a value is stored where it outlives the statement: a list element, an attribute,
    an `append`ed item."""
    up = parents.get(id(n))
    if isinstance(up, ast.ListExpr):
        return True
    if isinstance(up, ast.Assign) and up.value is n and any(isinstance(t, (ast.Attribute, ast.Subscript))
                                                            for t in up.targets):
        return True
    return (isinstance(up, ast.Call) and isinstance(up.func, ast.Attribute) and up.func.attr == "append"
            and n in up.args)


def _zip_call(n, parents) -> ast.Call | None:
    up = parents.get(id(n))
    if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id == "zip" and n in up.args:
        return up
    return None


def _zipped(n, parents, gens, assigned) -> bool:
    """Whether n is an argument of `zip` that must be an object: one after the first (zip steps
    through it item by item), or any of two or more generators."""
    call = _zip_call(n, parents)
    if call is None:
        return False
    return call.args[0] is not n or _generator_args(call, gens, assigned) >= 2


def _generator_args(call: ast.Call, gens, assigned) -> int:
    return sum(1 for a in call.args if _called(a, gens) or (isinstance(a, ast.Name) and a.id in assigned))


BUILDING = object()  # GeneratorObjects.built: the class being made


class _Rejected(Exception):
    def __init__(self, code: str, span: Span, cause: str | None = None, **args) -> None:
        super().__init__(code)
        self.code, self.span, self.fields, self.cause = code, span, args, cause


class _Builder:
    """One generator's class: its frame's attributes, and its body cut into resumable pieces."""

    def __init__(self, owner: GeneratorObjects, fn: ast.FnDef) -> None:
        self.owner = owner
        self.fn = fn
        self.sp = fn.name_span
        self.fields: list[tuple[str, object]] = []  # (name, annotation)
        self.cases: list[list[ast.Stmt]] = []
        self.counter = 0
        self.locals: set[str] = set()
        self.value_parts: list[str] = []
        self.where: dict[str, Span] = {}

    def reject(self, span: Span, what: str) -> _Rejected:
        return _Rejected("E0294", span, construct=what, func=self.fn.name)

    # -- names --
    def self_(self, sp: Span) -> ast.Name:
        return ast.Name(sp, "self")

    def attr(self, sp: Span, name: str) -> ast.Attribute:
        return ast.Attribute(sp, self.self_(sp), name)

    def set_value(self, sp: Span, value: ast.Expr) -> ast.Stmt:
        """The item made, kept until it is taken."""
        if self.value_parts:
            return ast.Assign(sp, (ast.TupleExpr(sp, tuple(self.attr(sp, p) for p in self.value_parts)),), value)
        return ast.Assign(sp, (self.attr(sp, VALUE),), value)

    def value(self, sp: Span) -> ast.Expr:
        if self.value_parts:
            return ast.TupleExpr(sp, tuple(self.attr(sp, p) for p in self.value_parts))
        return self.attr(sp, VALUE)

    def field(self, name: str) -> str:
        """The attribute holding local `name` (one no source can spell, like a `for ... else` flag,
        gets an identifier: the class's generated parts are parsed from text)."""
        return name if name.isidentifier() else "__pyx_local_" + "".join(c if c.isalnum() else "_" for c in name)

    def local(self, sp: Span, name: str) -> ast.Attribute:
        return self.attr(sp, self.field(name))

    def hidden(self, kind: str, annotation) -> str:
        self.counter += 1
        name = f"__pyx_{kind}{self.counter}"
        self.fields.append((name, annotation))
        return name

    def unchanged(self, e) -> bool:
        """Whether e is a local this generator never changes (nor gives to anything that could):
        a copy of it, kept by a sub-generator, is then the same as the list itself."""
        if not isinstance(e, ast.Name) or e.id not in self.locals:
            return False  # (a module-level list: the caller's own, shared in Python)
        name = e.id
        nodes = list(_walk_body(self.fn.body))
        parents = {id(c): n for n in nodes for c in ast.children(n)}
        for n in nodes:
            if isinstance(n, ast.Name) and n.id == name:
                up = parents.get(id(n))
                if isinstance(up, (ast.Assign, ast.AugAssign)) and n is not getattr(up, "value", None):
                    return False  # rebound
                if isinstance(up, (ast.Subscript, ast.Attribute)) and up.value is n:
                    above = parents.get(id(up))
                    if isinstance(above, (ast.Assign, ast.AugAssign, ast.Delete)) \
                            and up is not getattr(above, "value", None):
                        return False  # `xs[i] = v`, `xs.attr = v`
                    if isinstance(up, ast.Attribute) and isinstance(above, ast.Call) and above.func is up:
                        return False  # a method, which may change it
                if isinstance(up, ast.Call) and n in up.args:
                    f = up.func
                    if not (isinstance(f, ast.Name) and (f.id in _READERS or f.id in self.owner.gens)):
                        return False
        return True

    def truth(self, e):
        """A test as written, with a bare local holding an object (`if t:`) spelled `t is not None`:
        the attribute it becomes is tested that way (a reference is true when it is not None)."""
        if isinstance(e, ast.Name) and e.id in self.locals:
            cls = _class_of(self.types.types.get(e.id))
            if cls is not None and cls in self.owner.mod.classes and cls not in self.owner.mod.truthy:
                return ast.Compare(e.span, e, ("is not",), (ast.NoneLit(e.span),))
        if isinstance(e, ast.Unary) and e.op == "not":
            return dataclasses.replace(e, operand=self.truth(e.operand))
        if isinstance(e, ast.BoolOp):
            return dataclasses.replace(e, values=tuple(self.truth(v) for v in e.values))
        return e

    def localize(self, node):
        """node with each of the generator's locals read and written as an attribute of self."""
        locals_ = self.locals

        def rewrite(n, shadow: frozenset):
            if isinstance(n, ast.Name):
                return self.local(n.span, n.id) if n.id in locals_ and n.id not in shadow else n
            if isinstance(n, ast.Lambda):
                raise self.reject(n.span, "a lambda")
            if isinstance(n, ast.Comprehension):
                bound = frozenset(x for c in n.clauses if isinstance(c, ast.CompFor) for x in _bound(c.target))
                clauses: list[ast.Node] = []
                for k, c in enumerate(n.clauses):
                    if isinstance(c, ast.CompFor):
                        it = rewrite(c.iter, shadow if k == 0 else shadow | bound)
                        clauses.append(dataclasses.replace(c, iter=it))
                    else:
                        assert isinstance(c, ast.CompIf)
                        clauses.append(dataclasses.replace(c, test=rewrite(c.test, shadow | bound)))
                elt = rewrite(n.elt, shadow | bound)
                value = rewrite(n.value, shadow | bound) if n.value is not None else None
                return dataclasses.replace(n, elt=elt, value=value, clauses=tuple(clauses))
            changes = {}
            for f in dataclasses.fields(n):
                v = getattr(n, f.name)
                if isinstance(v, ast.Node):
                    nv = rewrite(v, shadow)
                    if nv is not v:
                        changes[f.name] = nv
                elif isinstance(v, tuple) and any(isinstance(x, ast.Node) for x in v):
                    nt = tuple(rewrite(x, shadow) if isinstance(x, ast.Node) else x for x in v)
                    if any(a is not b for a, b in zip(nt, v, strict=True)):
                        changes[f.name] = nt
            out = dataclasses.replace(n, **changes) if changes else n
            g = self.owner.sites.get(id(n))
            if g is not None and out is not n:  # (an unchanged call is found by its id later)
                out = dataclasses.replace(out, func=ast.Name(n.func.span, class_name(g)))
            return out

        return rewrite(node, frozenset())

    # -- pieces --
    def new_case(self) -> int:
        self.cases.append([])
        return len(self.cases) - 1

    def jump(self, sp: Span, k: int) -> list[ast.Stmt]:
        return [ast.Assign(sp, (self.attr(sp, STATE),), ast.IntLit(sp, k)), ast.Continue(sp)]

    def finish(self, sp: Span) -> list[ast.Stmt]:
        return [ast.Return(sp, ast.BoolLit(sp, False))]

    def plain(self, s: ast.Stmt, loop: tuple | None) -> list[ast.Stmt]:
        """A statement with no `yield`: as it is, its locals made attributes; a `return` ends the
        generator, a `break`/`continue` of a loop that was cut into pieces jumps."""
        def fix(st, depth: int) -> list[ast.Stmt]:
            if isinstance(st, ast.Return):
                if st.value is not None:
                    raise self.reject(st.span, "`return` with a value")
                return self.finish(st.span)
            if isinstance(st, (ast.Break, ast.Continue)) and depth == 0:
                assert loop is not None
                return self.jump(st.span, loop[1] if isinstance(st, ast.Break) else loop[0])
            if isinstance(st, (ast.FnDef, ast.StructDef, ast.TraitDef)) or type(st).__name__ == "ClassDef":
                raise self.reject(st.span, "a nested function or class")
            if isinstance(st, (ast.Global, ast.Nonlocal)):
                raise self.reject(st.span, "`global` or `nonlocal`")
            if isinstance(st, ast.Delete):
                raise self.reject(st.span, "`del`")
            if isinstance(st, ast.For) and any(n in self.locals for n in _bound(st.target)):
                # a loop target that is an attribute: bound through a plain local first
                self.counter += 1
                temp = f"__pyx_item{self.counter}"
                names = _bound(st.target)
                temps = {n: f"{temp}_{n}" for n in names}

                def rename(e):
                    if isinstance(e, ast.Name):
                        return ast.Name(e.span, temps[e.id])
                    return dataclasses.replace(e, elts=tuple(rename(x) for x in e.elts))
                binds = [ast.Assign(st.span, (self.local(st.span, n),), ast.Name(st.span, temps[n])) for n in names]
                body = [x for b in st.body for x in fix(b, depth + 1)]
                return [ast.For(st.span, rename(st.target), self.localize(st.iter), (*binds, *body))]
            if isinstance(st, (ast.If, ast.While)):
                st = dataclasses.replace(st, test=self.truth(st.test))
            if isinstance(st, (ast.For, ast.While)):
                inner = depth + 1
            else:
                inner = depth
            changes = {}
            for f in dataclasses.fields(st):
                v = getattr(st, f.name)
                if isinstance(v, tuple) and v and all(isinstance(x, ast.Stmt) for x in v):
                    changes[f.name] = tuple(y for x in v for y in fix(x, inner))
                elif isinstance(v, tuple) and v and all(isinstance(x, ast.Handler) for x in v):
                    changes[f.name] = tuple(dataclasses.replace(h, body=tuple(y for x in h.body for y in fix(x, inner)))
                                            for h in v)
                elif isinstance(v, ast.Expr):
                    changes[f.name] = self.localize(v)
                elif isinstance(v, tuple) and v and all(isinstance(x, ast.Expr) for x in v):
                    changes[f.name] = tuple(self.localize(x) for x in v)
            if isinstance(st, ast.VarDecl):
                # `x: T = v`: the attribute is declared in the class; here it is assigned
                if st.value is None:
                    return []
                return [ast.Assign(st.span, (self.local(st.name_span, st.name),), self.localize(st.value))]
            return [dataclasses.replace(st, **changes) if changes else st]

        return fix(s, 0)

    def block(self, stmts, cur: int | None, loop: tuple | None) -> int | None:
        """Add stmts to piece `cur`; the piece where control goes on after them (None: it left)."""
        for s in stmts:
            if cur is None:
                break  # (never reached: after a `return` or a jump)
            if not any(isinstance(n, ast.Yield) for n in _walk(s)):
                self.cases[cur].extend(self.plain(s, loop))
                if isinstance(s, (ast.Return, ast.Break, ast.Continue)):
                    cur = None
                continue
            sp = s.span
            if isinstance(s, ast.Yield) and not s.delegate:
                if s.value is None:
                    raise self.reject(sp, "a bare `yield` (it yields None)")
                after = self.new_case()
                self.cases[cur] += [self.set_value(sp, self.localize(s.value)),
                                    ast.Assign(sp, (self.attr(sp, STATE),), ast.IntLit(sp, after)),
                                    ast.Return(sp, ast.BoolLit(sp, True))]
                cur = after
            elif isinstance(s, ast.Yield):
                item = f"__pyx_from{self.counter + 1}"
                self.counter += 1
                assert s.value is not None  # (the grammar's `yield from` has one)
                loop_stmt = ast.For(sp, ast.Name(sp, item), s.value, (ast.Yield(sp, ast.Name(sp, item)),))
                cur = self.for_loop(loop_stmt, cur, delegate=True)
            elif isinstance(s, ast.If):
                then_k = self.new_case()
                else_k = self.new_case() if s.orelse else None
                after = self.new_case()
                self.cases[cur].append(ast.If(sp, self.localize(self.truth(s.test)), tuple(self.jump(sp, then_k)),
                                              tuple(self.jump(sp, else_k if else_k is not None else after))))
                end = self.block(s.body, then_k, loop)
                if end is not None:
                    self.cases[end] += self.jump(sp, after)
                if else_k is not None:
                    end = self.block(s.orelse, else_k, loop)
                    if end is not None:
                        self.cases[end] += self.jump(sp, after)
                cur = after
            elif isinstance(s, ast.While):
                head, body_k, exit_k = self.new_case(), self.new_case(), self.new_case()
                self.cases[cur] += self.jump(sp, head)
                test = self.localize(self.truth(s.test))
                self.cases[head] += [ast.If(sp, ast.Unary(sp, "not", test), tuple(self.jump(sp, exit_k)), ()),
                                     *self.jump(sp, body_k)]
                end = self.block(s.body, body_k, (head, exit_k))
                if end is not None:
                    self.cases[end] += self.jump(sp, head)
                cur = exit_k
            elif isinstance(s, ast.For):
                cur = self.for_loop(s, cur)
            elif isinstance(s, ast.Try) or type(s).__name__ in ("With", "AsyncWith"):
                raise self.reject(sp, "`yield` inside `try` or `with`")
            else:
                raise self.reject(sp, f"`yield` inside this statement ({type(s).__name__})")
        return cur

    def for_loop(self, s: ast.For, cur: int, delegate: bool = False) -> int:
        """A `for` whose body yields: its iterable kept in attributes, one step per pass."""
        sp = s.span
        it = s.iter
        head, body_k, exit_k = self.new_case(), self.new_case(), self.new_case()
        callee = _called(it, self.owner.gens)
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
                and "range" not in self.locals and not it.keywords and 1 <= len(it.args) <= 3:
            done, current, advance, leave = self._range_steps(it, sp, cur, head)
        elif callee is not None and callee not in self.locals and isinstance(it, ast.Call):
            done, current, advance, leave = self._generator_steps(it, callee, sp, cur, head)
        else:
            done, current, advance, leave = self._sequence_steps(it, sp, cur, head)
        if delegate:
            # `yield from`: each item passed on as it is
            self.cases[head] += [ast.If(sp, done, tuple(self.jump(sp, exit_k)), ()),
                                 self.set_value(sp, current), *advance,
                                 ast.Assign(sp, (self.attr(sp, STATE),), ast.IntLit(sp, head)),
                                 ast.Return(sp, ast.BoolLit(sp, True))]
            self.cases[body_k] += self.jump(sp, head)
        else:
            target = self.localize(s.target)
            self.cases[head] += [ast.If(sp, done, tuple(self.jump(sp, exit_k)), ()),
                                 ast.Assign(sp, (target,), current), *advance, *self.jump(sp, body_k)]
            end = self.block(s.body, body_k, (head, exit_k))
            if end is not None:
                self.cases[end] += self.jump(sp, head)
        self.cases[exit_k] += leave
        return exit_k

    # Each kind of loop, set up in case `cur` (then on to `head`): (whether it is done, the current
    # item, the statements that step on, those that end the loop).
    def _range_steps(self, it: ast.Call, sp: Span, cur: int, head: int) -> tuple[ast.Expr, ast.Expr, list, list]:
        """`range(...)` with a literal step: a counter and its end in attributes."""
        start = self.localize(it.args[0]) if len(it.args) > 1 else ast.IntLit(sp, 0)
        stop = self.localize(it.args[1] if len(it.args) > 1 else it.args[0])
        step = it.args[2] if len(it.args) == 3 else ast.IntLit(sp, 1)
        value = -step.operand.value if isinstance(step, ast.Unary) and step.op == "-" \
            and isinstance(step.operand, ast.IntLit) else step.value if isinstance(step, ast.IntLit) else None
        if value is None or value == 0:
            raise self.reject(it.span, "a `range` whose step is not a literal other than 0, looped over with a "
                              "`yield` inside")
        count, stop_at = self.hidden("i", _named(sp, "int")), self.hidden("end", _named(sp, "int"))
        self.cases[cur] += [ast.Assign(sp, (self.attr(sp, count),), start),
                            ast.Assign(sp, (self.attr(sp, stop_at),), stop), *self.jump(sp, head)]
        done: ast.Expr = ast.Compare(sp, self.attr(sp, count), (">=" if value > 0 else "<=",),
                                     (self.attr(sp, stop_at),))
        advance = [ast.AugAssign(sp, self.attr(sp, count), "+", ast.IntLit(sp, value))]
        return done, self.attr(sp, count), advance, []

    def _generator_steps(self, it: ast.Call, callee: str, sp: Span, cur: int,
                         head: int) -> tuple[ast.Expr, ast.Expr, list, list]:
        """A generator call: its object (E0294 where it cannot be one) in an attribute."""
        if self.owner.build(callee) is None:
            raise _Rejected("E0294", it.span, cause=callee, func=self.fn.name,
                            construct=f"a loop over `{callee}(...)`, which cannot be an object itself,")
        if not self.owner.check_shared(it, self.owner.gens[callee], report=False) \
                and not all(self.unchanged(a) for a in it.args if not isinstance(a, _FRESH)):
            raise self.reject(it.span, f"a `{callee}(...)` given a list, dict or set the generator may change "
                              "(the sub-generator would keep a copy)")
        sub = self.hidden("sub", ast.StrLit(sp, f"{class_name(callee)} | None"))
        assert isinstance(it.func, ast.Name)
        made = ast.Call(it.span, ast.Name(it.func.span, class_name(callee)),
                        tuple(self.localize(a) for a in it.args), tuple(self.localize(k) for k in it.keywords))
        self.cases[cur] += [ast.Assign(sp, (self.attr(sp, sub),), made), *self.jump(sp, head)]
        done = ast.Unary(sp, "not", ast.Call(sp, ast.Attribute(sp, self.attr(sp, sub), "__has_next__"), (), ()))
        current = ast.Call(sp, ast.Attribute(sp, self.attr(sp, sub), "__next__"), (), ())
        leave = [ast.Assign(sp, (self.attr(sp, sub),), ast.NoneLit(sp))]  # dropped as CPython drops it
        return done, current, [], leave

    def _sequence_steps(self, it: ast.Expr, sp: Span, cur: int, head: int) -> tuple[ast.Expr, ast.Expr, list, list]:
        """A list or string whose type shows (in `enumerate(xs[, start])`: with the index beside each
        item): an index in an attribute."""
        counted = None  # `enumerate(xs[, start])`: the index beside each item, from start
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" \
                and "enumerate" not in self.locals and not it.keywords and 1 <= len(it.args) <= 2:
            counted = it.args[1] if len(it.args) == 2 else ast.IntLit(sp, 0)
            it = it.args[0]
        t = self.types.of(it)
        if t is None or not (_key(t) == "str" or _generic(t, "list", "List")):
            raise self.reject(it.span, "a loop with a `yield` inside over this iterable (only `range(...)`, a "
                              "generator call, or a list or string whose type shows)")
        count = self.hidden("i", _named(sp, "int"))
        if isinstance(it, ast.Name) and it.id in self.locals:
            # read through the local at each step, as CPython's list iterator reads the list
            if any(it.id in _targets_of(n) for n in _walk_body(self.fn.body)):
                raise self.reject(it.span, f"a loop with a `yield` inside over `{it.id}`, which the generator "
                                  "assigns again")
            seq = self.local(sp, it.id)
            start = []
        else:  # a new list or string, made once: kept in an attribute of its own
            held = self.hidden("seq", t)
            seq = self.attr(sp, held)
            start = [ast.Assign(sp, (seq,), self.localize(it))]
        base: ast.Expr | None = counted
        if counted is not None and not isinstance(counted, ast.IntLit):  # evaluated once, after the iterable
            base = self.attr(sp, self.hidden("start", _named(sp, "int")))
            start.append(ast.Assign(sp, (base,), self.localize(counted)))
        self.cases[cur] += [*start, ast.Assign(sp, (self.attr(sp, count),), ast.IntLit(sp, 0)),
                            *self.jump(sp, head)]
        done = ast.Compare(sp, self.attr(sp, count), (">=",),
                           (ast.Call(sp, ast.Name(sp, "len"), (seq,), ()),))
        current: ast.Expr = ast.Subscript(sp, seq, (self.attr(sp, count),))
        if base is not None:
            current = ast.TupleExpr(sp, (ast.Binary(sp, "+", self.attr(sp, count), base), current))
        return done, current, [ast.AugAssign(sp, self.attr(sp, count), "+", ast.IntLit(sp, 1))], []

    def build(self):
        from .classes import ClassDef

        fn, sp = self.fn, self.sp
        owner = self.owner
        for p in fn.params:
            if p.annotation is None:
                raise _Rejected("E0295", p.span, name=f"`{p.name}`", func=fn.name,
                                hint=f"annotate the parameter (`{p.name}: int`, say)")
            if _generic(p.annotation, *ITERATOR_NAMES) is not None or _key(p.annotation) in ITERATOR_NAMES:
                raise self.reject(p.span, f"a parameter typed `{_key(p.annotation)}` (any iterable: the object "
                                  "would need a class per kind passed)")
            if p.default is not None or p.variadic or p.convention is not None:
                raise self.reject(p.span, "a parameter with a default, `*`, or a convention")
        self.params = {p.name for p in fn.params}
        self.types = _Types(owner.mod, fn)
        self.types.infer()
        locals_: dict[str, Span] = {p.name: p.span for p in fn.params}
        for n in _walk_body(fn.body):
            if isinstance(n, (ast.FnDef, ast.Lambda)) or type(n).__name__ == "ClassDef":
                raise self.reject(n.span, "a nested function, lambda or class")
            if isinstance(n, ast.VarDecl):
                locals_.setdefault(n.name, n.name_span)
            for name in _targets_of(n):
                locals_.setdefault(name, n.span)
        self.locals = set(locals_)
        self.where = locals_
        early = _read_before_assigned(fn.body, self.locals - self.params, set(self.params))
        if early is not None:
            # the object's attributes start at zero values, where Python raises UnboundLocalError
            raise self.reject(early.span, f"`{early.id}`, which may be read before it is assigned (Python would "
                              "raise UnboundLocalError; assign it before the loop or `if`),")
        for name, where in locals_.items():
            t = self.types.types.get(name)
            if t is None:
                raise _Rejected("E0295", where, name=f"`{name}`", func=fn.name,
                                hint=f"annotate it where it is first assigned (`{name}: list[int] = ...`, say)")
            self.fields.append((self.field(name), t))
        value_type = owner.yield_type(fn.name)
        if value_type is None:
            raise _Rejected("E0295", fn.name_span, name="the items", func=fn.name,
                            hint="annotate the generator's result (`-> Iterator[int]`, from typing)")
        self.fields += [(STATE, _named(sp, "int")), (READY, _named(sp, "bool"))]
        parts = _generic(value_type, "tuple", "Tuple")
        if parts is not None:
            # a class attribute cannot hold a tuple (it has no zero value): one attribute per item
            self.value_parts = [f"{VALUE}_{k}" for k in range(len(parts))]
            self.fields += list(zip(self.value_parts, parts, strict=True))
        else:
            self.fields.append((VALUE, value_type))
        for n, t in self.fields:
            if _generic(t, "tuple", "Tuple") is not None:
                raise self.reject(fn.name_span if n.startswith("__pyx") else self.where.get(n, fn.name_span),
                                  f"a tuple held in a variable (`{n}`) or yielded inside a tuple")
        first = self.new_case()
        end = self.block(fn.body, first, None)
        if end is not None:
            self.cases[end] += self.finish(sp)
        name = class_name(fn.name)
        me = ast.StrLit(sp, name)
        selfp = ast.Param(sp, "self", None, None, None)
        # the dispatch: the piece to run is read, and the state left "finished" while it runs (an
        # exception out of the generator's body ends it, as in Python)
        # (one `if` per piece, side by side, not nested: each piece ends by jumping or returning)
        chain = tuple(ast.If(sp, ast.Compare(sp, ast.Name(sp, "__pyx_at"), ("==",), (ast.IntLit(sp, k),)),
                             tuple(body) or (ast.Pass(sp),), ()) for k, body in enumerate(self.cases))
        chain += (ast.Return(sp, ast.BoolLit(sp, False)),)
        loop = ast.While(sp, ast.BoolLit(sp, True), (
            ast.Assign(sp, (ast.Name(sp, "__pyx_at"),), self.attr(sp, STATE)),
            ast.Assign(sp, (self.attr(sp, STATE),), ast.IntLit(sp, -1)),
            *chain))
        advance = ast.FnDef(sp, "def", "_pyx_advance", sp, (), (selfp,), False, _named(sp, "bool"), (loop,))
        ready = self.attr(sp, READY)
        has_next = ast.FnDef(sp, "def", "__has_next__", sp, (), (selfp,), False, _named(sp, "bool"), (
            ast.If(sp, ast.Unary(sp, "not", ready), (
                ast.Assign(sp, (ready,), ast.Call(sp, ast.Attribute(sp, self.self_(sp), "_pyx_advance"), (), ())),),
                ()),
            ast.Return(sp, ready)))
        has = ast.Call(sp, ast.Attribute(sp, self.self_(sp), "__has_next__"), (), ())
        take = (ast.Assign(sp, (ready,), ast.BoolLit(sp, False)), ast.Return(sp, self.value(sp)))
        next_ = ast.FnDef(sp, "def", "__next__", sp, (), (selfp,), False, value_type, (
            ast.If(sp, ast.Unary(sp, "not", has), (ast.Raise(sp, ast.Name(sp, "StopIteration"), None),), ()), *take))
        default = ast.Param(sp, "__pyx_default", value_type, None, None)
        next_or = ast.FnDef(sp, "def", "_pyx_next_or", sp, (), (selfp, default), False, value_type, (
            ast.If(sp, ast.Unary(sp, "not", has), (ast.Return(sp, ast.Name(sp, "__pyx_default")),), ()), *take))
        iter_ = ast.FnDef(sp, "def", "__iter__", sp, (), (selfp,), False, me, (ast.Return(sp, self.self_(sp)),))
        init = ast.FnDef(sp, "def", "__init__", sp, (), (selfp, *fn.params), False, None, tuple(
            ast.Assign(p.span, (self.attr(p.span, p.name),), ast.Name(p.span, p.name))
            for p in fn.params) or (ast.Pass(sp),))
        decls = tuple(ast.VarDecl(sp, n, sp, t, None, False) for n, t in self.fields)
        return ClassDef(fn.span, name, fn.name_span, (), (*decls, init, advance, has_next, next_, next_or, iter_))


class _Early(Exception):
    def __init__(self, name: ast.Name) -> None:
        super().__init__(name.id)
        self.name = name


_LEAVES = (ast.Return, ast.Raise, ast.Break, ast.Continue)


def _read_before_assigned(body, locals_: set[str], assigned: set[str]) -> ast.Name | None:
    """The first read of one of `locals_` that some path reaches before the name is assigned (a
    loop's body may run no times; a read in a loop before the assignment in the same body counts),
    or None."""
    def reads(e, have: set[str]) -> None:
        if e is None:
            return
        bound = {x for n in _walk(e) if isinstance(n, ast.Comprehension)
                 for c in n.clauses if isinstance(c, ast.CompFor) for x in _bound(c.target)}
        for n in _walk(e):
            if isinstance(n, ast.Name) and n.id in locals_ and n.id not in have and n.id not in bound:
                raise _Early(n)

    def target(t, have: set[str]) -> None:
        if isinstance(t, ast.Name):
            have.add(t.id)
        elif isinstance(t, (ast.TupleExpr, ast.ListExpr)):
            for x in t.elts:
                target(x, have)
        else:
            reads(t, have)

    def block(stmts, have: set[str]) -> set[str] | None:
        """The names assigned after stmts (None: control does not come out of them)."""
        for st in stmts:
            if isinstance(st, ast.Assign):
                reads(st.value, have)
                for t in st.targets:
                    target(t, have)
            elif isinstance(st, ast.AugAssign):
                reads(st.target, have)
                reads(st.value, have)
            elif isinstance(st, ast.VarDecl):
                reads(st.value, have)
                if st.value is not None:
                    have.add(st.name)
            elif isinstance(st, ast.If):
                reads(st.test, have)
                a, b = block(st.body, set(have)), block(st.orelse, set(have))
                if a is None and b is None:
                    return None
                have = a & b if a is not None and b is not None else (a if a is not None else b)  # type: ignore[assignment]
            elif isinstance(st, ast.While):
                reads(st.test, have)
                block(st.body, set(have))
            elif isinstance(st, ast.For):
                reads(st.iter, have)
                inner = set(have)
                target(st.target, inner)
                block(st.body, inner)
            elif isinstance(st, ast.Try):
                block(st.body, set(have))
                for h in st.handlers:
                    block(h.body, set(have) | ({h.name} if h.name else set()))
                block(st.orelse, set(have))
                after = block(st.finalbody, set(have))
                if after is not None:
                    have = have | after
            elif isinstance(st, ast.Yield | ast.ExprStmt | ast.Return | ast.Raise | ast.Assert):
                for child in ast.children(st):
                    reads(child, have)
            if isinstance(st, _LEAVES):
                return None
        return have

    try:
        block(body, set(assigned))
    except _Early as e:
        return e.name
    return None


def _targets_of(n) -> list[str]:
    if isinstance(n, ast.Assign):
        return [x for t in n.targets for x in _bound(t)]
    if isinstance(n, (ast.AugAssign, ast.For)):
        return _bound(n.target)
    return []


def expand_generator_objects(items: tuple, diags: DiagnosticBag) -> tuple:
    """The module's statements, with a class for each generator some use needs as an object and
    those uses calling it (docstring above)."""
    return GeneratorObjects(items, diags).run()
