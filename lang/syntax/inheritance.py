"""Single inheritance for `class B(A):` (docs/semantics.md, "Inheritance"), and user exception classes.

A class of a hierarchy (one with a base class or a subclass) is expanded by `classes.py` as any
class is, into a handle and a data struct, with these differences:

- Its data begins with a second count-sized word, the object's class id (`__pyx_cls`, a number
  per class of the module), and then its base's attributes in the base's order, then its own: a
  `B` object's data begins as an `A` object's does, so code compiled for `A` reads an `A`'s
  attributes of a `B` object where they are.
- A handle converts to the handle of a base (`__pyx_up_A`, what passing a `B` where an `A` is
  wanted calls) or of a subclass (`__pyx_down_B`): the same object, one more reference.
- Methods are inherited by copying: `B` gets the definition of each method it does not define,
  checked again with `self` a `B`. A method some subclass overrides becomes a dispatcher: it
  reads the class id and calls the overriding definition on the object as the class that
  defines it; the definition itself is kept as `__pyx_impl_NAME`. `super().m(...)` calls the
  definition the base resolves `m` to, without dispatch, as Python's does.
- The last reference destroys the object as what it is (a switch on the class id).

`class E(Exception):` (or any exception class) with nothing but `pass` or a docstring becomes an
`ExceptionClassDef`: a name in the module's exception hierarchy (semantics/exceptions.py), raised
and caught by name as the built-in ones are.
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import DiagnosticBag
from ..node_methods import syntax_node
from ..source import Span
from . import ast

CLASS_ID_FIELD = "__pyx_cls"
UP = "__pyx_up_"  # `__pyx_up_A`: this object as an `A` (a base class)
DOWN = "__pyx_down_"  # `__pyx_down_B`: this object as a `B` (a subclass), after a check
ISA = "__pyx_isa_"  # `__pyx_isa_B`: whether this object is a `B` (Python's isinstance)
IMPL = "__pyx_impl_"  # a definition that subclasses override, without the dispatch
INIT_BODY = "__pyx_init_body"  # `__init__`'s body as a method, for the subclasses' `super().__init__`
CAST = "__pyx_cast"  # `__pyx_cast(h, C)`: the object h refers to as a C handle (semantics/inheritance.py)

# The exception classes a user class may derive from (the built-in hierarchy, less pyx's own).
_EXCEPTION_BASES_EXCLUDED = {"_SystemExitCode", "Error"}


@syntax_node
class ExceptionClassDef(ast.Stmt):
    """`class E(Base): pass` where Base is an exception class: a name in the exception hierarchy."""

    name: str
    name_span: Span
    base: str


class Hierarchy:
    """The module's classes: which derive from which, their ids, and where each method resolves."""

    def __init__(self, defs: list, diags: DiagnosticBag) -> None:
        from ..semantics.exceptions import PARENT

        self.defs = {c.name: c for c in defs}
        self.order = [c.name for c in defs]
        self.parent: dict[str, str] = {}
        self.exceptions: dict[str, str] = {}
        self.bad: set[str] = set()
        position = {name: k for k, name in enumerate(self.order)}
        for c in defs:
            if not c.bases:
                continue
            if len(c.bases) > 1:
                diags.error("E0266", c.bases[1].span, name=c.name)
                self.bad.add(c.name)
                continue
            base = c.bases[0]
            bname = base.id if isinstance(base, ast.Name) else None
            if bname == "object":
                continue
            if c.name in PARENT:  # a second `KeyError` would be caught where the builtin one is meant
                diags.error("E0102", c.name_span, name=c.name)
                self.bad.add(c.name)
            elif bname is not None and (bname in self.exceptions or (
                    bname in PARENT and bname not in _EXCEPTION_BASES_EXCLUDED and bname not in self.defs)):
                self.exceptions[c.name] = bname
            elif bname is not None and bname in self.defs and position[bname] < position[c.name] \
                    and bname not in self.bad:
                self.parent[c.name] = bname
            else:
                diags.error("E0257", base.span, name=c.name, base=_text(base))
                self.bad.add(c.name)
        for name, base in self.exceptions.items():
            c = self.defs[name]
            for stmt in c.body:  # (one with an `__init__` and nothing else: syntax/exception_data.py)
                if isinstance(stmt, ast.FnDef) and stmt.name == "__init__":
                    continue
                if not (isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.ExprStmt)
                                                       and isinstance(stmt.expr, ast.StrLit))):
                    diags.error("E0255", stmt.span, name=name, base=base)
                    break
        self.children: dict[str, list[str]] = {n: [] for n in self.order}
        for child, par in self.parent.items():
            self.children[par].append(child)
        in_hierarchy = [n for n in self.order if n in self.parent or self.children[n]]
        self.ids = {name: k + 1 for k, name in enumerate(in_hierarchy)}
        self.own = {c.name: {s.name: s for s in c.body if isinstance(s, ast.FnDef)} for c in defs}
        self.constants: dict[str, str] = {}  # module-level names bound once to a literal -> its type

    def in_hierarchy(self, name: str) -> bool:
        return name in self.ids

    def ancestors(self, name: str) -> list[str]:
        """The base classes of name, nearest first."""
        out = []
        while name in self.parent:
            name = self.parent[name]
            out.append(name)
        return out

    def descendants(self, name: str) -> list[str]:
        """Every class deriving from name, at any depth, in the module's order."""
        out: list[str] = []
        stack = list(self.children[name])
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(self.children[n])
        return sorted(out, key=self.order.index)

    def resolve(self, name: str, method: str) -> str | None:
        """The class whose definition of method a `name` object runs (None: no class defines it)."""
        for c in [name] + self.ancestors(name):
            if method in self.own[c]:
                return c
        return None

    def visible(self, name: str) -> list[str]:
        """The methods a `name` object has, the root class's first."""
        out: list[str] = []
        for c in reversed([name] + self.ancestors(name)):
            out += [m for m in self.own[c] if m not in out]
        return out

    def overriders(self, name: str, method: str) -> dict[str, list[int]]:
        """For a method of class name: the classes whose definition runs instead for some
        subclasses, each with those subclasses' ids."""
        mine = self.resolve(name, method)
        out: dict[str, list[int]] = {}
        for d in self.descendants(name):
            theirs = self.resolve(d, method)
            if theirs is not None and theirs != mine:
                out.setdefault(theirs, []).append(self.ids[d])
        return out

    def impl_name(self, name: str, method: str) -> str:
        """What class name calls its own definition of method (no dispatch)."""
        return IMPL + method if self.overriders(name, method) else method

    def init_owner(self, name: str) -> str | None:
        """The nearest of name and its bases that defines `__init__`."""
        return self.resolve(name, "__init__")


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _super_call(node: ast.Node) -> str | None:
    """`super().m` or `super(C, self).m` (an Attribute): the method's name."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call) \
            and isinstance(node.value.func, ast.Name) and node.value.func.id == "super" \
            and not node.value.keywords and len(node.value.args) in (0, 2):
        return node.attr
    return None


def _base_call(node: ast.Call, self_name: str, bases: list[str]) -> bool:
    """`Base.m(self, ...)` with Base the class itself or one of its bases."""
    f = node.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in bases[1:] \
        and bool(node.args) and isinstance(node.args[0], ast.Name) and node.args[0].id == self_name \
        and not node.keywords


def rewrite_super(h: Hierarchy, owner: str, method: ast.FnDef, diags: DiagnosticBag,
                  moved: dict | None = None) -> ast.FnDef:
    """`super().m(...)` in a method class owner defines: the definition owner's base resolves m
    to, called on self as that class (no dispatch); `super().__init__(...)` runs the nearest
    base `__init__`'s body on self (nothing where no base defines one)."""
    if not method.params:
        return method
    self_name = method.params[0].name
    base = h.parent.get(owner)

    def fix(node):
        if not isinstance(node, ast.Call):
            return node
        name = _super_call(node.func)
        if name is None and _base_call(node, self_name, [owner] + h.ancestors(owner)):
            # `Base.m(self, ...)`, Python's older spelling: Base's definition, on self
            named_base = node.func.value.id
            target = h.resolve(named_base, node.func.attr)
            if target is None:
                return node
            callee = INIT_BODY if node.func.attr == "__init__" else h.impl_name(target, node.func.attr)
            receiver = ast.Call(node.func.span, ast.Attribute(node.func.span, node.args[0], UP + target), (), ()) \
                if target != owner else node.args[0]
            return replace(node, func=ast.Attribute(node.func.span, receiver, callee), args=node.args[1:])
        if name is None:
            return node
        target = h.resolve(base, name) if base is not None else None
        if name == "__init__" and target is None and not node.args and not node.keywords:
            return ast.NoneLit(node.span)  # object.__init__(): nothing to do
        if target is None:
            return node  # (the checker reports `super` here: E0267)
        callee = INIT_BODY if name == "__init__" else h.impl_name(target, name)
        receiver = ast.Call(node.span, ast.Attribute(node.func.span, ast.Name(node.func.span, self_name),
                                                     UP + target), (), ())
        return replace(node, func=ast.Attribute(node.func.span, receiver, callee))

    return ast.transform(method, fix, moved)


def dispatcher(h: Hierarchy, cls: str, method: ast.FnDef, overriders: dict[str, list[int]], parse) -> ast.FnDef:
    """method (as class cls resolves it) as a dispatch on the object's class id."""
    self_name = method.params[0].name
    args = ", ".join(p.name for p in method.params[1:])
    returns = (method.returns is not None and not isinstance(method.returns, ast.NoneLit)) \
        or _returns_value(method.body) or any(
        _returns_value(h.own[t][method.name].body) for t in overriders if method.name in h.own[t])
    lines = [f"def __pyx_dispatch({', '.join(p.name for p in method.params)}):",
             f"    __pyx_c = {self_name}.__pyx_obj[1]"]
    for target, ids in overriders.items():
        test = " or ".join(f"__pyx_c == {i}" for i in ids)
        call = f"{self_name}.{DOWN}{target}().{h.impl_name(target, method.name)}({args})"  # (a subclass)
        lines += [f"    if {test}:"]
        lines += [f"        return {call}"] if returns else [f"        {call}", "        return"]
    own = f"{self_name}.{IMPL}{method.name}({args})"
    if returns and _only_raises(method.body):  # an "abstract" method (`raise NotImplementedError`): no value
        lines += [f"    {own}", f"    raise AssertionError({method.name!r})"]
    else:
        lines += [f"    return {own}"] if returns else [f"    {own}"]
    generated = parse("\n".join(lines) + "\n")
    if len(generated) != 1:
        return method
    # Each `return` is placed at the definition it runs (a subclass's `def`, else this one), so what
    # the checker says of its value points at the user's code (semantics/inheritance.py
    # `override_result`); the names inside stay generated (no reference of the editor's lands there).
    body = _returns_at(generated[0].body, method.name_span)
    placed = []
    targets: list[str | None] = [None, *overriders]
    for stmt, runs in zip(body, targets, strict=False):
        defined = h.own[runs].get(method.name) if runs is not None else None
        placed.append(stmt if defined is None else _returns_at(stmt, defined.name_span))
    return replace(method, body=tuple(placed) + body[len(placed):])


def _returns_at(node, span: Span):
    """node with each `return` in it, and the value it returns, at span."""
    def place(n):
        if isinstance(n, ast.Return):
            return replace(n, span=span, value=replace(n.value, span=span) if n.value is not None else None)
        return None

    return ast.transform(node, place)


def _only_raises(body) -> bool:
    """Whether a method's body ends in a `raise` and returns no value (`raise NotImplementedError`,
    Python's abstract method): a call of it gives no value, whatever type its overrides return."""
    body = [s for s in body if not (isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.StrLit))]
    return bool(body) and isinstance(body[-1], ast.Raise) and not _returns_value(body)


def _returns_value(body) -> bool:
    stack = list(body)
    while stack:
        s = stack.pop()
        if isinstance(s, ast.Return) and s.value is not None:
            return True
        if isinstance(s, ast.FnDef):
            continue
        stack.extend(x for x in ast.children(s) if isinstance(x, ast.Stmt))
    return False


def cast_methods(h: Hierarchy, cls: str) -> list[str]:
    """The handle's conversions to its bases and subclasses, and its isinstance tests (source lines)."""
    lines: list[str] = []
    for other, prefix in [(a, UP) for a in h.ancestors(cls)] + [(d, DOWN) for d in h.descendants(cls)]:
        lines += ["", f"    fn {prefix}{other}(self) -> {other}:", f"        return {CAST}(self, {other})"]
    for other in [cls] + h.ancestors(cls):
        lines += ["", f"    fn {ISA}{other}(self) -> Bool:", "        if self.__pyx_obj:",
                  "            return True", "        return False"]
    for other in h.descendants(cls):
        ids = [h.ids[other]] + [h.ids[d] for d in h.descendants(other)]
        test = " or ".join(f"c == {i}" for i in ids)
        lines += ["", f"    fn {ISA}{other}(self) -> Bool:", "        if not self.__pyx_obj:",
                  "            return False", "        var c = self.__pyx_obj[1]", f"        return {test}"]
    return lines


def destroy_lines(h: Hierarchy, cls: str, data_name) -> list[str]:
    """The last reference's destruction of the data, as the class the object is (a switch on its id)."""
    subs = h.descendants(cls)
    if not subs:
        return [f"                var dead = self.__pyx_obj.bitcast[{data_name(cls)}]().take(0)"]
    lines = ["                var c = self.__pyx_obj[1]"]
    for k, d in enumerate(subs):
        lines += [f"                {'if' if k == 0 else 'elif'} c == {h.ids[d]}:",
                  f"                    var dead{k} = self.__pyx_obj.bitcast[{data_name(d)}]().take(0)"]
    lines += ["                else:",
              f"                    var dead = self.__pyx_obj.bitcast[{data_name(cls)}]().take(0)"]
    return lines


def _inheritable(name: str) -> bool:
    return name not in ("__del__", "__copyinit__", "__moveinit__") and not name.startswith("__pyx_")


def inherited(h: Hierarchy, cls: str, methods: list, diags: DiagnosticBag, parse) -> list:
    """methods (cls's own) and a copy of each method cls inherits. Without an `__init__` of its own,
    cls takes its nearest base's parameters, and runs that base's body on the new object."""
    own = {m.name for m in methods}
    out = list(methods)
    for name in h.visible(cls):
        owner = h.resolve(cls, name)
        if name in own or owner == cls or owner is None or not _inheritable(name):
            continue
        source = h.own[owner][name]
        if name == "__init__":
            if not source.params:
                continue
            self_name = source.params[0].name
            args = ", ".join(p.name for p in source.params[1:])
            generated = parse(f"def __pyx_init({self_name}):\n    {self_name}.{UP}{owner}().{INIT_BODY}({args})\n")
            if len(generated) == 1:
                out.insert(0, replace(source, body=generated[0].body))
        else:
            out.append(rewrite_super(h, owner, source, diags))
    return out


def dispatched(h: Hierarchy, cls: str, methods: list, parse) -> list:
    """methods, each one a subclass overrides split into its definition (`__pyx_impl_NAME`) and a
    dispatcher under its name."""
    out = []
    for m in methods:
        # (a static method has no object to dispatch on: called on a class it is that class's, and
        # through an object E0342 says Python's choice differs: semantics/structs.py)
        static = any(d.name == "staticmethod" for d in m.decorators)
        overriders = h.overriders(cls, m.name) if m.name not in ("__init__", INIT_BODY) and m.params \
            and not static else {}
        if not overriders:
            out.append(m)
            continue
        out.append(replace(m, name=IMPL + m.name))
        out.append(dispatcher(h, cls, m, overriders, parse))
    return out


def narrow_ifs(items: tuple, defs: list) -> tuple:
    """Each `if isinstance(x, C):` of a `def`, with C a subclass, opened by `assert isinstance(x, C)`:
    the checker narrows x to a C after such an assert (semantics/inheritance.py), and the test
    has just held."""
    from ..semantics.exceptions import PARENT

    names = {c.name for c in defs}
    # (and exception classes, whose caught exception `e` is narrowed too: semantics/raising.py)
    subclasses = {c.name for c in defs if len(c.bases) == 1 and isinstance(c.bases[0], ast.Name)
                  and (c.bases[0].id in names or c.bases[0].id in PARENT)}
    if not subclasses:
        return items

    def narrowing(test) -> bool:
        return isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name) and isinstance(test.args[1], ast.Name) \
            and test.args[1].id in subclasses

    def fix(node):  # (`if isinstance(x, C) and ...:` too: each such operand has held in the body)
        if isinstance(node, ast.If):
            tests = node.test.values if isinstance(node.test, ast.BoolOp) and node.test.op == "and" else (node.test,)
            opening = tuple(ast.Assert(t.span, t, None) for t in tests if narrowing(t))
            if opening:
                return replace(node, body=opening + tuple(node.body))
        return node

    out = []
    for item in items:
        if (isinstance(item, ast.FnDef) and item.kind == "def") or type(item).__name__ == "ClassDef":
            item = ast.transform(item, fix)
        out.append(item)
    return tuple(out)


def binding_count(fn: ast.FnDef, name: str) -> int:
    """How many places bind name in fn: parameters, assignment and loop targets, `del`, nested defs."""
    count = sum(1 for p in fn.params if p.name == name)
    stack: list = list(fn.body)
    while stack:
        node = stack.pop()
        for attr in ("targets", "target", "name"):
            value = getattr(node, attr, None)
            values = value if isinstance(value, tuple) else (value,)
            for v in values:
                named = isinstance(v, str) and v == name and isinstance(node, (ast.FnDef, ast.VarDecl))
                if named or (isinstance(v, ast.Name) and v.id == name):
                    count += 1
                elif isinstance(v, ast.TupleExpr | ast.ListExpr):
                    stack.append(v)
        if isinstance(node, ast.TupleExpr | ast.ListExpr):
            count += sum(1 for x in node.elts if isinstance(x, ast.Name) and x.id == name)
        stack.extend(ast.children(node))
    return count
