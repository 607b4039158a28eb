"""`class Color(Enum)`: Python's `enum.Enum` written out as an ordinary pyx class.

`import enum` and `from enum import Enum, auto, unique` bind nothing in pyx: before anything else
is expanded (build_ast.py, `file_input`), each class whose one base is `Enum` becomes the class a
user would write by hand (docs/python-subset.md, "Enums"):

- the members `RED = 1`, `GREEN = auto()` become class attributes (syntax/class_attributes.py)
  holding the module's only objects of the class, `Color("RED", 1)`, in definition order;
  `auto()` numbers as Python's `_generate_next_value_` does: 1 for the first member, else the
  largest value so far plus one (3.11 sorts the values it has seen; 3.13 documents the rule);
- the object keeps `_name_` and `_value_` (Python's own attribute names); `name` and `value` are
  read-only properties, so `c.value = 3` is refused at compile time as Python refuses it at run time;
- `__str__` gives `Color.RED`, `__repr__` `<Color.RED: 1>`, `__hash__` the hash of the name
  (Python's `Enum.__hash__`, so a set of members iterates as CPython's with `PYTHONHASHSEED=0`,
  as a set of `str` does); `==` and `is` are identity, as no `__eq__` is written;
- uses of the class itself: `Color(2)` calls `__pyx_enum_Color_lookup(2)` (ValueError `2 is not
  a valid Color` when no member has that value), `Color["RED"]` calls `__pyx_enum_Color_by_name`
  (KeyError), and `for c in Color`, `c in Color`, comprehensions and `list`/`len`/`sorted`/...
  of `Color` read `__pyx_enum_Color_members`, the members in definition order.

What Python does and this does not reproduce is refused: E0195 for a definition (aliases, `Flag`,
`IntEnum`, mixins, the functional API, `_missing_` and other `_sunder_` names, values of mixed or
other types), E0196 for a use of the class (reassigning a member, the class as a value).
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import DiagnosticBag
from ..source import SourceFile
from . import ast
from .written_modules import WrittenImport

MODULE = "enum"
SUPPORTED = {"Enum", "auto", "unique"}
PREFIX = "__pyx_enum_"
# builtins taking an iterable: `len(Color)`, `list(Color)`, ... read the members list
ITERABLE_BUILTINS = {"list", "tuple", "set", "len", "sorted", "reversed", "enumerate", "iter", "min", "max",
                     "any", "all", "zip", "frozenset"}
VALUE_TYPES = {int: "int", str: "str", float: "float"}
FORBIDDEN_METHODS = {"__init__", "__new__", "__eq__", "__ne__", "__hash__", "_missing_", "_generate_next_value_",
                     "__init_subclass__", "name", "value"}  # (`name` and `value` are the members' properties)


def members_name(cls: str) -> str:
    return f"{PREFIX}{cls}_members"


class _Names(WrittenImport):
    """What the module's `enum` imports bound (syntax/written_modules.py)."""

    def __init__(self) -> None:
        super().__init__(MODULE, ("Enum", "auto", "unique"))

    def is_enum(self, e: ast.Expr) -> bool:
        return self.refers(e, "Enum")

    def is_auto(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.Call) and self.refers(e.func, "auto")

    def is_unique(self, name: str) -> bool:
        return self.means(name, "unique")

    def any_bound(self) -> bool:
        return self.bound()


def _parse(name: str, text: str, diags: DiagnosticBag) -> tuple:
    from .parser import parse  # (the parser imports the builder, which imports this module)

    return parse(SourceFile(name, text), diags).body


def _literal(e: ast.Expr):
    """The value of a member's literal (None: not an int, str or float literal)."""
    if isinstance(e, (ast.IntLit, ast.FloatLit, ast.StrLit)):
        return e.value
    if isinstance(e, ast.Unary) and e.op in ("-", "+") and isinstance(e.operand, (ast.IntLit, ast.FloatLit)):
        return -e.operand.value if e.op == "-" else e.operand.value
    return None


class Enums:
    """One module's enums (see the module docstring): `run` gives its statements with each enum
    written out and the `enum` imports removed."""

    def __init__(self, items: tuple, diags: DiagnosticBag):
        self.items = items
        self.diags = diags
        self.names = _Names()

    def run(self) -> tuple:
        from .classes import ClassDef

        kept = tuple(i for i in self.items if not self._enum_import(i))
        if not self.names.any_bound():
            return kept
        self.enums: dict[str, tuple] = {}  # enum name -> (value type, [(member, value, its literal or None)])
        for item in kept:
            if isinstance(item, ClassDef) and any(self.names.is_enum(b) for b in item.bases):
                self._members(item)
        for item in kept:  # a class deriving from an enum
            if isinstance(item, ClassDef):
                for b in item.bases:
                    if isinstance(b, ast.Name) and b.id in self.enums:
                        self._refuse(b, f"a class deriving from the enum `{b.id}`",
                                     "Python refuses to extend an enum with members; write a separate enum")
        out: list = []
        for item in kept:
            item = self._uses(item)
            if isinstance(item, ClassDef) and item.name in self.enums:
                out.extend(self._expand(item))
            else:
                out.append(item)
        return tuple(out)

    def _refuse(self, node, what: str, advice: str) -> None:
        self.diags.error("E0195", node.span, what=what, advice=advice)

    # ---- imports ----
    def _enum_import(self, item) -> bool:
        """Record what an import of `enum` binds; True when it is one (it is then dropped)."""
        others = self.names.record(item)
        if others is None:
            return False
        for name, _local in others:
            self._refuse(item, f"`enum.{name}`", "`IntEnum`, `StrEnum`, `Flag` and the rest of "
                         "the module are not built yet")
        return True

    # ---- one enum's members ----
    def _members(self, c) -> None:
        if len(c.bases) != 1:
            self._refuse(c.bases[0], f"`{c.name}` with bases besides `Enum`",
                         "a mixin type changes how members print and compare; derive from `Enum` alone")
        for d in c.decorators:
            if not self.names.is_unique(d.name):
                self._refuse(d, f"the decorator `@{d.name}` on an enum", "pyx writes enums out itself")
        members: list = []
        refused = len(self.diags.items)
        values: dict = {}
        kind = None
        for s in c.body:
            if isinstance(s, ast.FnDef):
                if s.name in FORBIDDEN_METHODS or (s.name.startswith("_") and s.name.endswith("_")
                                                   and not s.name.startswith("__")):
                    self._refuse(replace(s, span=s.name_span), f"`{s.name}` in an enum",
                                 "pyx writes the enum's construction, lookup, equality and hash itself; "
                                 "keep to ordinary methods")
                continue
            if isinstance(s, ast.Pass) or (isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.StrLit)):
                continue
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                name, value = s.targets[0].id, s.value
            elif isinstance(s, ast.VarDecl) and not s.explicit and s.value is not None:
                name, value = s.name, s.value
            else:
                self._refuse(s, "this statement in an enum's body",
                             "an enum's body holds members (`NAME = value`), methods and a docstring")
                continue
            if name in ("name", "value"):
                self._refuse(s, f"a member named `{name}`", "pyx's members keep `name` and `value` for "
                             "their name and value; name the member otherwise")
                continue
            if name.startswith("_"):
                self._refuse(s, f"`{name}` in an enum", "`_sunder_` and private names are not members in Python "
                             "and have meanings of their own there (`_ignore_`, `_order_`); pyx does not build them")
                continue
            if isinstance(value, ast.Call) and self.names.is_auto(value) and not value.args and not value.keywords:
                if kind not in (None, int):
                    self._refuse(value, "`auto()` after a non-int value",
                                 "give every member an int with `auto()`, or write each value")
                    continue
                v = 1 if not values else max(values) + 1
            else:
                v = _literal(value)
                if v is None or isinstance(v, bool):
                    self._refuse(value, "this member value",
                                 "tuples, bools, expressions and the rest are not built yet")
                    continue
            if kind is not None and type(v) is not kind:
                self._refuse(value, f"a {type(v).__name__} value among {kind.__name__} values",
                             "give every member a value of one type")
                continue
            kind = type(v)
            if v in values:
                self._refuse(s, f"`{name}`, an alias of `{values[v]}` (the same value {v!r})",
                             "give each member its own value")
                continue
            values[v] = name
            members.append((name, v, None if self.names.is_auto(value) else value))
        if not members and len(self.diags.items) == refused:
            self._refuse(c, f"the enum `{c.name}` without members", "Python uses one as a base for other enums, "
                         "which pyx does not build; give it members")
        self.enums[c.name] = (VALUE_TYPES[kind or int], members)

    def _expand(self, c) -> list:
        """The enum as a class, its members list and its lookup functions (module docstring)."""
        name = c.name
        vtype, members = self.enums[name]
        members_var = members_name(name)
        # the class's body, parsed as module-level statements (a `class` in the text would be
        # expanded by the parse itself) and put into the class; `name` and `value` become properties
        text = f'''def __init__(self, name: str, value: {vtype}):
    self._name_ = name
    self._value_ = value


def name(self) -> str:
    return self._name_


def value(self) -> {vtype}:
    return self._value_


def __hash__(self) -> int:
    return hash(self._name_)
'''
        own = {s.name for s in c.body if isinstance(s, ast.FnDef)}
        if "__str__" not in own:
            text += f'''

def __str__(self) -> str:
    return "{name}." + self._name_
'''
        if "__repr__" not in own:
            text += f'''

def __repr__(self) -> str:
    return "<{name}." + self._name_ + ": " + repr(self._value_) + ">"
'''
        # (the statements of a module are parsed into its `<module>` function: the members and
        # their list are read out of one)
        text += "\n\ndef __pyx_enum_statements():\n"
        text += "".join(f"    {m} = {name}({m!r}, {v!r})\n" for m, v, _ in members)
        text += f"    {members_var}: list[{name}] = [{', '.join(f'{name}.{m}' for m, _, _ in members)}]\n"
        *methods, statements = _parse(f"<enum {name}>", text, self.diags)
        body = tuple(replace(s, decorators=(ast.Decorator(s.span, "property", ()),))
                     if s.name in ("name", "value") else s for s in methods)
        # each member's value is the user's literal itself, so a diagnostic about it (an int too
        # large) points at the user's line, not at this text
        created = zip(statements.body[:-1], members, strict=True)
        body += tuple(replace(a, value=replace(a.value, args=(a.value.args[0], literal))) if literal is not None else a
                      for a, (_, _, literal) in created)
        after = f'''


def {PREFIX}{name}_lookup(value: {vtype}) -> {name}:
    for member in {members_var}:
        if member._value_ == value:
            return member
    raise ValueError(repr(value) + " is not a valid {name}")


def {PREFIX}{name}_by_name(name: str) -> {name}:
    for member in {members_var}:
        if member._name_ == name:
            return member
    raise KeyError(name)
'''
        own_methods = tuple(s for s in c.body if isinstance(s, ast.FnDef) and s.name not in FORBIDDEN_METHODS)
        written = replace(c, bases=(), decorators=(), body=body + own_methods)
        return [written, statements.body[-1], *_parse(f"<enum {name}>", after, self.diags)]

    # ---- uses of the enum classes ----
    def _uses(self, item):
        """item with `Color(v)`, `Color["N"]` and iterations over `Color` rewritten (module docstring);
        any other use of the class as a value, and assignments to members, refused (E0196)."""
        enums = self.enums

        def is_enum(e) -> bool:
            return isinstance(e, ast.Name) and e.id in enums

        def members(e):
            return ast.Name(e.span, members_name(e.id)) if is_enum(e) else e

        def fix(node):
            if isinstance(node, ast.Call):
                if is_enum(node.func):
                    if len(node.args) != 1 or node.keywords:
                        self.diags.error("E0196", node.span, what=f"`{node.func.id}(...)` with other than one argument",
                                         advice="`Color(value)` looks a member up by its value; Python's "
                                                "functional API (`Enum(\"Color\", ...)`) is not built")
                        return ast.ErrorExpr(node.span)
                    return ast.Call(node.span, ast.Name(node.func.span, f"{PREFIX}{node.func.id}_lookup"),
                                    node.args, ())
                if isinstance(node.func, ast.Name) and node.func.id in ITERABLE_BUILTINS:
                    return replace(node, args=tuple(members(a) for a in node.args))
                if self.names.is_enum(node.func) or self.names.is_auto(node):
                    self._refuse(node, "this call of `Enum`/`auto`" if not self.names.is_auto(node)
                                 else "`auto()` outside a member of an enum",
                                 "the functional API (`Enum(\"Color\", \"RED GREEN\")`) is not built; "
                                 "write `class Color(Enum):` with its members")
                    return ast.ErrorExpr(node.span)
                return node
            if isinstance(node, ast.Subscript) and is_enum(node.value) and len(node.items) == 1 \
                    and isinstance(node.items[0], ast.Expr) and not isinstance(node.items[0], ast.Slice):
                return ast.Call(node.span, ast.Name(node.value.span, f"{PREFIX}{node.value.id}_by_name"),
                                node.items, ())
            if isinstance(node, (ast.For, ast.CompFor)) and is_enum(node.iter):
                return replace(node, iter=members(node.iter))
            if isinstance(node, ast.Compare) and any(op in ("in", "not in") for op in node.ops):
                return replace(node, comparators=tuple(
                    members(e) if op in ("in", "not in") else e
                    for op, e in zip(node.ops, node.comparators, strict=True)))
            return node

        item = self._apply(item, fix)
        bad = self._check_uses(item)
        if bad:  # (the refused names stand for errors already reported, so checking goes on quietly)
            item = self._apply(item, lambda n: ast.ErrorExpr(n.span) if id(n) in bad else n)
        return item

    def _apply(self, item, fix):
        """item with `fix` applied to its expressions (an enum: its methods only, as its members'
        values are read by `_members`)."""
        from .classes import ClassDef

        if isinstance(item, ClassDef) and item.name in self.enums:
            return replace(item, body=tuple(ast.transform(s, fix) if isinstance(s, ast.FnDef) else s
                                            for s in item.body))
        if isinstance(item, ClassDef):  # (attr_annotations name `self.x: T = v` assignments by identity)
            moved: dict = {}
            body = ast.transform(item.body, fix, moved)
            if body is item.body:
                return item
            return replace(item, body=body, attr_annotations=tuple(
                (moved.get(id(a), a), ann) for a, ann in item.attr_annotations))
        return ast.transform(item, fix)

    def _check_uses(self, item) -> set:
        """E0196 for the enum class as a value anywhere the rewrite left it (the ids of those names),
        and for assignments to its attributes (Python's AttributeError: cannot reassign member)."""
        from .classes import ClassDef

        enums = self.enums
        bad: set = set()
        nodes = [s for s in item.body if isinstance(s, ast.FnDef) or item.name not in enums] \
            if isinstance(item, ClassDef) else [item]
        stack = [(n, False) for n in nodes]
        while stack:
            node, allowed = stack.pop()
            if isinstance(node, ast.Name):
                if node.id in enums and not allowed:
                    bad.add(id(node))
                    self.diags.error("E0196", node.span, what=f"the enum class `{node.id}` as a value",
                                     advice=f"pyx builds `{node.id}.MEMBER`, `{node.id}(value)`, "
                                            f"`{node.id}[\"NAME\"]`, `for m in {node.id}`, `m in {node.id}`, "
                                            f"`len({node.id})`, `list({node.id})` and annotations")
                continue
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else (node.target,)
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in enums:
                        self.diags.error("E0196", t.span, what=f"an assignment to `{t.value.id}.{t.attr}`",
                                         advice="Python raises AttributeError (cannot reassign member); "
                                                "an enum's members are constants")
            if not isinstance(node, ast.Node):
                continue
            for f in ast._CHILD_FIELDS.get(type(node)) or ast._child_fields(type(node)):
                value = getattr(node, f)
                ok = allowed or f in ("annotation", "returns") \
                    or (isinstance(node, ast.Attribute) and f == "value") \
                    or (isinstance(node, ast.Subscript) and f == "items") \
                    or (isinstance(node, ast.Call) and f == "args" and isinstance(node.func, ast.Name)
                        and node.func.id == "isinstance")
                for child in (value if isinstance(value, tuple) else (value,)):
                    if isinstance(child, ast.Node):
                        stack.append((child, ok))
        return bad


def expand_enums(items: tuple, diags: DiagnosticBag) -> tuple:
    """The module's statements with each `Enum` class written out (see above)."""
    return Enums(items, diags).run()
