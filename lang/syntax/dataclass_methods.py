"""`@dataclass` classes: the methods Python's `dataclasses` module writes, written out as pyx source.

`from dataclasses import dataclass, field` binds nothing in pyx: a class decorated with
`@dataclass` (or `@dataclass(order=True, ...)`, `@dataclasses.dataclass`) gets, before classes
are expanded (syntax/classes.py), the methods CPython's decorator would add, as the pyx a user
would write by hand (docs/python-subset.md, "Dataclasses"):

- `__init__` taking the fields in declaration order (a base dataclass's fields first), with
  their defaults; a `field(default_factory=f)` parameter defaults to None and the body calls
  `f()` when it is, so each object gets its own value, as Python's sentinel does; `init=False`
  fields are set from their default; `__post_init__` is called last when the class defines it;
- `__repr__`: `P(x=1, y='a')`, the `repr` of each field with `repr=True`, under the name of the
  object's own class (a plain subclass that does not define `__repr__` gets one with its name,
  as Python's `self.__class__.__qualname__` gives);
- `__eq__`: equal when both are of exactly the same class and every `compare=True` field is
  equal (the class test is written as isinstance tests against each subclass in the module);
- `order=True`: `__lt__`, `__le__`, `__gt__`, `__ge__` comparing the fields as tuples do (the
  first unequal field decides);
- `unsafe_hash=True`, or `frozen=True` with `eq=True`: `__hash__` of the tuple of the hashed
  fields, so objects can be set members and dict keys (with `eq=True` and no `__hash__`, Python's
  dataclass is unhashable, as pyx's class with `__eq__` is);
- `frozen=True`: an assignment to a field outside the generated `__init__` is E0153 at compile
  time, where Python raises FrozenInstanceError (semantics/frozen_dataclasses.py); a frozen and
  a non-frozen dataclass in one hierarchy is E0198 (Python's TypeError).

Anything whose meaning pyx would not reproduce is refused at compile time with E0198 (a field
without a default after one with a default, a mutable or non-constant default that Python would
share between objects, `kw_only`, `InitVar`, an unknown option, ...), never run differently.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..diagnostics import DiagnosticBag
from ..source import SourceFile
from . import ast
from .written_modules import WrittenImport

MODULE = "dataclasses"
OPTIONS = {"init": True, "repr": True, "eq": True, "order": False, "frozen": False, "unsafe_hash": False,
           "match_args": True, "slots": False, "weakref_slot": False}
IGNORED_OPTIONS = {"match_args", "slots", "weakref_slot"}  # no behaviour a pyx program can observe
FIELD_OPTIONS = {"default", "default_factory", "init", "repr", "compare", "hash", "metadata"}
ORDER = (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">="))
FROZEN_METHOD = "__pyx_frozen_fields"  # a frozen dataclass's fields, "x,y" (semantics/frozen_dataclasses.py)


@dataclass(frozen=True)
class _Field:
    name: str
    decl: ast.VarDecl
    annotation: ast.Expr
    default: ast.Expr | None = None
    factory: ast.Expr | None = None
    init: bool = True
    repr: bool = True
    compare: bool = True
    hash: bool | None = None

    @property
    def hashed(self) -> bool:
        return self.compare if self.hash is None else self.hash


class _Names(WrittenImport):
    """What the module's `dataclasses` imports bound (syntax/written_modules.py)."""

    def __init__(self) -> None:
        super().__init__(MODULE, ("dataclass", "field"))

    def is_decorator(self, name: str) -> bool:
        return self.means(name, "dataclass")

    def is_field(self, e: ast.Expr) -> bool:
        return self.refers(e, "field")


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _parse(name: str, text: str, diags: DiagnosticBag) -> tuple:
    from .parser import parse  # (the parser imports the builder, which imports this module)

    return parse(SourceFile(name, text), diags).body


def _is_constant(e: ast.Expr, constants: set) -> bool:
    """A default Python would evaluate once and pyx may evaluate per call with the same result:
    an immutable literal, a tuple of them, or a module constant bound to one."""
    if isinstance(e, (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit, ast.NoneLit)):
        return True
    if isinstance(e, ast.Unary) and e.op in ("-", "+"):
        return isinstance(e.operand, (ast.IntLit, ast.FloatLit))
    if isinstance(e, ast.TupleExpr):
        return all(_is_constant(x, constants) for x in e.elts)
    return isinstance(e, ast.Name) and e.id in constants


def _literal_constants(items: tuple) -> set:
    """Module-level names bound exactly once, to an immutable literal."""
    seen: dict[str, int] = {}
    literal: set = set()
    for item in items:
        if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
            name = item.targets[0].id
            seen[name] = seen.get(name, 0) + 1
            if _is_constant(item.value, set()):
                literal.add(name)
    return {n for n in literal if seen[n] == 1}


class Dataclasses:
    """One module's dataclasses (see the module docstring): `run` gives its statements with each
    `@dataclass` class written out and the `dataclasses` imports removed."""

    def __init__(self, items: tuple, diags: DiagnosticBag):
        self.items = items
        self.diags = diags
        self.names = _Names()
        self.fields: dict[str, list[_Field]] = {}  # dataclass -> all its fields (bases' first)
        self.generated_repr: dict[str, list[_Field]] = {}  # class with a generated __repr__ -> its fields
        self.frozen: dict[str, bool] = {}  # dataclass -> whether it is frozen

    def run(self) -> tuple:
        from .classes import ClassDef

        kept = tuple(i for i in self.items if not self._dataclasses_import(i))
        if not any(isinstance(c, ClassDef) and c.decorators for c in kept):
            return kept
        self.constants = _literal_constants(kept)
        self.defs = defs = {c.name: c for c in kept if isinstance(c, ClassDef)}
        self.parent = {c.name: c.bases[0].id for c in defs.values()
                       if len(c.bases) == 1 and isinstance(c.bases[0], ast.Name)}
        out = []
        for item in kept:
            if isinstance(item, ClassDef) and item.decorators:
                item = self._class(item)
            elif isinstance(item, ClassDef):
                item = self._plain_subclass(item)
            out.append(item)
        return tuple(out)

    # ---- imports ----
    def _dataclasses_import(self, item) -> bool:
        """Record what an import of `dataclasses` binds; True when it is one (it is then dropped)."""
        others = self.names.record(item)
        if others is None:
            return False
        for name, _local in others:
            self.diags.error("E0198", item.span, what=f"`dataclasses.{name}`",
                             advice="pyx writes `dataclass` and `field` out; write the function by hand")
        return True

    # ---- one class ----
    def _class(self, c):
        options = dict(OPTIONS)
        for d in c.decorators:
            if not self.names.is_decorator(d.name):
                self.diags.error("E0260", d.span, name=d.name, cls=c.name)
                return replace(c, decorators=())
            self._options(d, options)
        if options["order"] and not options["eq"]:
            self.diags.error("E0198", c.decorators[0].span, what="`order=True` with `eq=False`",
                             advice="Python raises ValueError: eq must be true if order is true")
        own = self._fields(c)
        base = self.parent.get(c.name)
        fields = [f for f in self.fields.get(base, []) if f.name not in {g.name for g in own}] + own
        self.fields[c.name] = fields
        self._check_defaults(c, fields)
        methods = {s.name for s in c.body if isinstance(s, ast.FnDef)}
        body = [self._declaration(s) for s in c.body]
        added: list = []
        if options["init"] and "__init__" not in methods:
            added += self._init(c, fields, "__post_init__" in methods)
        if options["repr"] and "__repr__" not in methods and not self._shows_address(fields):
            added += self._repr(c.name, fields)
            self.generated_repr[c.name] = fields
        if options["eq"] and "__eq__" not in methods:
            added += self._eq(c, [f for f in fields if f.compare])
        if options["order"]:
            for s in c.body:
                if isinstance(s, ast.FnDef) and s.name in dict(ORDER):
                    self.diags.error("E0198", s.name_span, what=f"`order=True` with `{s.name}` defined",
                                     advice=f"Python raises TypeError: Cannot overwrite attribute {s.name} in "
                                            f"class {c.name}. Consider using functools.total_ordering")
            if self._subclasses(c.name) or base in self.fields:
                self.diags.error("E0198", c.decorators[0].span, what="`order=True` on a class with a base or "
                                 "subclasses", advice="compare objects of one class, or write `__lt__` by hand")
            added += [m for m in self._order(c, [f for f in fields if f.compare]) if m.name not in methods]
        if "__hash__" not in methods and (options["unsafe_hash"] or (options["eq"] and options["frozen"])):
            added += self._hash(c, [f for f in fields if f.hashed])  # (Python's table: frozen and eq hash)
        self.frozen[c.name] = options["frozen"]
        if base in self.frozen and self.frozen[base] != options["frozen"]:
            self.diags.error("E0198", c.decorators[0].span, what="a frozen and a non-frozen dataclass in one hierarchy",
                             advice="Python raises TypeError: cannot inherit "
                                    + ("frozen dataclass from a non-frozen one" if options["frozen"]
                                       else "non-frozen dataclass from a frozen one"))
        if options["frozen"]:  # its fields are refused as assignment targets (semantics/frozen_dataclasses.py)
            names = ",".join(f.name for f in fields)
            added += _parse(f"<class {c.name}>", f'def {FROZEN_METHOD}(self) -> str:\n    return "{names}"\n',
                            self.diags)
        return replace(c, body=tuple(body) + tuple(added), decorators=())

    def _options(self, d: ast.Decorator, options: dict) -> None:
        for a in d.args:
            if not isinstance(a, ast.Keyword):
                self.diags.error("E0198", a.span, what="a positional argument to `@dataclass`",
                                 advice="Python's dataclass() takes keyword arguments only")
            elif a.name not in OPTIONS:
                self.diags.error("E0198", a.span, what=f"`@dataclass({a.name}=...)`",
                                 advice="pyx supports " + ", ".join(sorted(OPTIONS)))
            elif not isinstance(a.value, ast.BoolLit):
                self.diags.error("E0198", a.value.span, what=f"a computed `{a.name}=`",
                                 advice="write `True` or `False`")
            else:
                options[a.name] = a.value.value

    def _fields(self, c) -> list[_Field]:
        out = []
        for s in c.body:
            if not (isinstance(s, ast.VarDecl) and not s.explicit and s.annotation is not None):
                continue
            ann = s.annotation
            head = ann.value if isinstance(ann, ast.Subscript) else ann
            head_name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", "")
            if head_name == "ClassVar":
                continue  # a class attribute (syntax/class_attributes.py), not a field
            if head_name == "InitVar":
                self.diags.error("E0198", ann.span, what="`InitVar`",
                                 advice="take the value as a parameter of a hand-written `__init__`")
                continue
            f = _Field(s.name, s, ann)
            v = s.value
            if v is not None and isinstance(v, ast.Call) and self.names.is_field(v.func):
                f = self._field_call(f, v)
            elif v is not None:
                f = replace(f, default=v)
            out.append(f)
        return out

    def _field_call(self, f: _Field, call: ast.Call) -> _Field:
        for a in call.args:
            self.diags.error("E0198", a.span, what="a positional argument to `field()`",
                             advice="Python's field() takes keyword arguments only")
        for k in call.keywords:
            if k.name not in FIELD_OPTIONS:
                self.diags.error("E0198", k.span, what=f"`field({k.name}=...)`",
                                 advice="pyx supports " + ", ".join(sorted(FIELD_OPTIONS - {"metadata"})))
            elif k.name == "default":
                f = replace(f, default=k.value)
            elif k.name == "default_factory":
                f = replace(f, factory=k.value)
            elif k.name == "metadata":
                continue  # read only through dataclasses.fields(), which pyx does not have
            elif k.name == "hash" and isinstance(k.value, ast.NoneLit):
                f = replace(f, hash=None)
            elif not isinstance(k.value, ast.BoolLit):
                self.diags.error("E0198", k.value.span, what=f"a computed `{k.name}=`",
                                 advice="write `True` or `False`")
            elif k.name == "init":
                f = replace(f, init=k.value.value)
            elif k.name == "repr":
                f = replace(f, repr=k.value.value)
            elif k.name == "compare":
                f = replace(f, compare=k.value.value)
            else:
                f = replace(f, hash=k.value.value)
        if f.default is not None and f.factory is not None:
            self.diags.error("E0198", call.span, what="both `default` and `default_factory`",
                             advice="Python raises ValueError: cannot specify both default and default_factory")
        return f

    def _check_defaults(self, c, fields: list[_Field]) -> None:
        seen_default = None
        from ..semantics.tuple_defaults import is_constant_tuple

        for f in fields:
            constant_tuple = f.default is not None and is_constant_tuple(f.default)  # (semantics/tuple_defaults.py)
            if isinstance(f.default, ast.TupleExpr) and f.init and not constant_tuple:
                self.diags.error("E0198", f.default.span, what=f"the tuple default of field `{f.name}`",
                                 advice="a tuple default is taken when its items are literals (Python evaluates "
                                        "it once); leave the default out and pass the tuple where objects are made")
                continue
            if f.default is not None and not constant_tuple and not _is_constant(f.default, self.constants):
                mutable = isinstance(f.default, (ast.ListExpr, ast.DictExpr, ast.SetExpr)) \
                    if hasattr(ast, "SetExpr") else isinstance(f.default, (ast.ListExpr, ast.DictExpr))
                self.diags.error("E0198", f.default.span, what=f"the default of field `{f.name}`",
                                 advice=("Python refuses a mutable default: write "
                                         "`field(default_factory=...)`" if mutable else
                                         "Python evaluates it once and shares that one object between all "
                                         "objects; write a constant, or `field(default_factory=...)` for a new "
                                         "value per object"))
            if not f.init:
                if f.default is None and f.factory is None:
                    self.diags.error("E0198", f.decl.span, what=f"`init=False` field `{f.name}` without a default",
                                     advice="Python leaves it unset until assigned; give it a default")
                continue
            has_default = f.default is not None or f.factory is not None
            if has_default:
                seen_default = f
            elif seen_default is not None:
                self.diags.error("E0198", f.decl.span, what=f"field `{f.name}` without a default after "
                                 f"`{seen_default.name}`, which has one",
                                 advice=f"Python raises TypeError: non-default argument '{f.name}' follows default "
                                        "argument; give it a default or move it up")

    @staticmethod
    def _declaration(s):
        """A field's class-body line as a declaration only: its default goes to `__init__`."""
        if isinstance(s, ast.VarDecl) and not s.explicit and s.annotation is not None and s.value is not None:
            head = s.annotation.value if isinstance(s.annotation, ast.Subscript) else s.annotation
            if getattr(head, "id", getattr(head, "attr", "")) != "ClassVar":
                return replace(s, value=None)
        return s

    def _shows_address(self, fields: list[_Field]) -> bool:
        """Whether a field's type is a class of this module without `__repr__`, whose repr in
        Python is its address: no `__repr__` is written then, so printing the dataclass is
        refused where it is printed (E0264), not in a method Python would have."""
        plain = {name for name, d in self.defs.items()
                 if name not in self.generated_repr and not d.decorators
                 and not any(isinstance(s, ast.FnDef) and s.name == "__repr__" for s in d.body)}
        for f in fields:
            stack: list = [f.annotation]
            while stack:
                e = stack.pop()
                if (isinstance(e, ast.Name) and e.id in plain) or (isinstance(e, ast.StrLit) and e.value in plain):
                    return True
                stack.extend(x for x in vars(e).values() if isinstance(x, ast.Expr))
                stack.extend(x for v in vars(e).values() if isinstance(v, tuple) for x in v if isinstance(x, ast.Expr))
        return False

    def _subclasses(self, name: str) -> list[str]:
        out, todo = [], [name]
        while todo:
            n = todo.pop()
            for child, base in self.parent.items():
                if base == n and child not in out:
                    out.append(child)
                    todo.append(child)
        return out

    # ---- the generated methods ----
    def _generated(self, c, text: str) -> tuple:
        return _parse(f"<dataclass {c if isinstance(c, str) else c.name}>", text, self.diags)

    def _init(self, c, fields: list[_Field], post_init: bool) -> list:
        params, lines = [], []
        for f in fields:
            ann = _text(f.annotation)
            if not f.init and f.default is None and f.factory is None:
                continue  # (reported: E0198)
            if not f.init:
                value = _text(f.default) if f.default is not None else self._factory_call(f.factory)
                lines.append(f"    self.{f.name} = {value}")
            elif f.factory is not None:
                head = f.annotation.value if isinstance(f.annotation, ast.Subscript) else None
                if getattr(head, "id", "") in ("tuple", "Tuple"):
                    self.diags.error("E0198", f.factory.span,
                                     what=f"a `default_factory` for the tuple field `{f.name}`",
                                     advice="pyx has no optional tuple parameter yet: leave the default out and pass "
                                            "the tuple where objects are made")
                    continue
                made = self._factory_call(f.factory)
                params.append(f"{f.name}: {ann} | None = None")
                lines += [f"    if {f.name} is not None:", f"        self.{f.name} = {f.name}", "    else:",
                          f"        self.{f.name} = {made}"]
            else:
                params.append(f"{f.name}: {ann}" + (" = 0" if f.default is not None else ""))
                lines.append(f"    self.{f.name} = {f.name}")
        if post_init:
            lines.append("    self.__post_init__()")
        text = f"def __init__(self{''.join(', ' + p for p in params)}) -> None:\n" + "\n".join(lines or ["    pass"])
        init = self._generated(c, text + "\n")
        if not init:
            return []
        fn = init[0]
        by_name = {f.name: f for f in fields}
        # the user's own annotation and default nodes: an error in one points at what they wrote
        new_params = []
        for p in fn.params:
            field_of = by_name.get(p.name)
            if field_of is not None and field_of.factory is None:
                p = replace(p, annotation=field_of.annotation, default=field_of.default)
            new_params.append(p)
        return [replace(fn, params=tuple(new_params))]

    @staticmethod
    def _factory_call(factory: ast.Expr | None) -> str:
        assert factory is not None
        if isinstance(factory, ast.Name) and factory.id == "list":
            return "[]"  # typed by the field's declaration, as `self.xs = []` is
        if isinstance(factory, ast.Name) and factory.id == "dict":
            return "{}"
        return f"{_text(factory)}()"

    def _repr(self, name: str, fields: list[_Field]) -> tuple:
        shown = [f for f in fields if f.repr]
        parts = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in shown)
        return self._generated(name, f'def __repr__(self) -> str:\n    return f"{name}({parts})"\n')

    def _same_class(self, c) -> list[str]:
        """Lines returning False unless self and other are of the same class: Python's dataclass
        compares only objects whose `__class__` is the same."""
        return [f"    if isinstance(self, {d}) != isinstance(other, {d}):\n        return False"
                for d in self._subclasses(c.name)]

    def _root(self, name: str) -> str:
        """The topmost class of the module that `name` derives from (itself when it has no base
        here): an overriding `__eq__` takes what the base's takes, for dispatch through the base."""
        while self.parent.get(name) in self.defs:
            name = self.parent[name]
        return name

    def _eq(self, c, fields: list[_Field]) -> tuple:
        test = " and ".join(f"self.{f.name} == other.{f.name}" for f in fields) or "True"
        root = self._root(c.name)
        lines = self._same_class(c) + [f"    return {test}"]
        if root != c.name:  # (narrowed inside the `if`, where other's own fields can be read)
            nested = ["    " + line.replace("\n", "\n    ") for line in lines]
            lines = [f"    if isinstance(other, {c.name}):", *nested, "    return False"]
        return self._generated(c, f"def __eq__(self, other: {root}) -> bool:\n" + "\n".join(lines) + "\n")

    def _order(self, c, fields: list[_Field]) -> list:
        out: list = []
        for name, op in ORDER:
            lines = [f"    if self.{f.name} != other.{f.name}:\n        return self.{f.name} {op} other.{f.name}"
                     for f in fields]
            lines.append(f"    return {'True' if op in ('<=', '>=') else 'False'}")
            out += self._generated(c, f"def {name}(self, other: {c.name}) -> bool:\n" + "\n".join(lines) + "\n")
        return out

    def _hash(self, c, fields: list[_Field]) -> tuple:
        if not fields:  # hash(()), a constant of CPython's tuple hash (pyx has no empty tuple)
            return self._generated(c, "def __hash__(self) -> int:\n    return 5740354900026072187\n")
        items = ", ".join(f"self.{f.name}" for f in fields)
        tup = f"({items},)" if len(fields) == 1 else f"({items})"
        return self._generated(c, f"def __hash__(self) -> int:\n    return hash({tup})\n")

    def _plain_subclass(self, c):
        """A class that is not a dataclass, deriving from one with a generated `__repr__` and not
        defining its own: Python's repr names the object's class, so it gets one with its name."""
        base = self.parent.get(c.name)
        while base is not None and base not in self.generated_repr and base in self.parent:
            base = self.parent.get(base)
        if base not in self.generated_repr or any(isinstance(s, ast.FnDef) and s.name == "__repr__" for s in c.body):
            return c
        self.generated_repr[c.name] = self.generated_repr[base]
        return replace(c, body=tuple(c.body) + tuple(self._repr(c.name, self.generated_repr[base])))


def expand_dataclasses(items: tuple, diags: DiagnosticBag) -> tuple:
    """The module's statements with each `@dataclass` class's methods written out (see above)."""
    return Dataclasses(items, diags).run()

