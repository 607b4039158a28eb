"""Named tuples: `collections.namedtuple` and `typing.NamedTuple`, written out as pyx structs.

A module-level `Point = namedtuple("Point", ["x", "y"])` (or `"x y"`, `"x, y"`, a tuple of
names, `defaults=(...)`) and a `class Point(NamedTuple):` whose body declares `x: int` and
`y: float = 0.0` (with methods and a docstring) become, before classes are expanded, a struct
holding the fields in order: a value that never changes, as Python's tuple is. What Python's
class gives, written out as the pyx a user would write:

- `__init__` taking the fields in order, with their defaults (keywords too: `Point(x=1, y=2)`);
- `__str__`/`__repr__`: `Point(x=1, y=2.5)`, each field by its repr, under the type's name;
- `==`, `!=`, `<`, `<=`, `>`, `>=` and `hash` as the tuple of the fields compares and hashes
  (`hash(p) == hash((1, 2.5))`), so points are dict keys and set members and sort as tuples;
- `len(p)`, `_replace(x=...)` (a new one with some fields changed), `_asdict()` (a dict of
  the fields, where their values have one type: a dict holds one value type) and
  `Point._fields`;
- `__pyx_namedtuple_items`, the tuple of the fields: indexing (`p[0]`, `p[-1]`, `p[1:]`),
  unpacking (`x, y = p`) and `for v in p` read the point through it (semantics/named_tuples.py),
  so they behave exactly as on a tuple (a loop needs fields of one type, as a tuple's does).

`namedtuple()` gives no field types: its struct is generic, one parameter per field, each set by
what the construction passes (`Point(1, 2.5)` is `Point[Int, Float64]`); a field with a default
takes its default's type. The typed class's fields have the types written.

What pyx would not run as Python does is refused (E0186): a definition that is not at module
level, field names Python refuses (a keyword, a leading underscore, twice), more than 8 fields
(pyx's tuples hold at most 8), a default that is not a constant (Python evaluates it once and
shares it), a field without a default after one with a default, `rename=`/`module=`, other
statements in the class body, another base beside `NamedTuple`, and redefining `__init__`.
"""
from __future__ import annotations

import dataclasses
import keyword

from ..diagnostics import DiagnosticBag
from ..source import SourceFile
from . import ast
from .written_modules import WrittenImport

ITEMS = "__pyx_namedtuple_items"  # the method giving the fields as a tuple (semantics/named_tuples.py)
MAX_FIELDS = 8  # stdlib/tuple.px's tuples have 1 to 8 items
_TYPES = {ast.IntLit: "Int", ast.FloatLit: "Float64", ast.StrLit: "String", ast.BoolLit: "Bool"}


@dataclasses.dataclass
class _Tuple:
    name: str  # the struct's (the variable's or the class's) name
    shown: str  # the name its repr shows (namedtuple's first argument)
    fields: list[str]
    types: list[str | None]  # each field's type as written; None: a parameter of the generic struct
    defaults: dict[str, str]  # field -> its default's text
    methods: tuple = ()  # the class's own methods
    span: object = None


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _constant(e: ast.Expr) -> bool:
    if isinstance(e, (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit)):
        return True
    if isinstance(e, ast.Unary) and e.op in ("-", "+"):
        return isinstance(e.operand, (ast.IntLit, ast.FloatLit))
    return False


def _literal_type(e: ast.Expr) -> str | None:
    return _TYPES.get(type(e.operand if isinstance(e, ast.Unary) else e))


_SCALARS = {"int", "float", "str", "bool", "Int", "Float64", "Float32", "String", "Bool", "Int64", "Int32",
            "UInt8", "UInt32", "UInt64"}


def _split(inner: str) -> list[str]:
    """The items of `A, B[C, D]` at the top level."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(inner):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            out.append(inner[start:k].strip())
            start = k + 1
    return out + [inner[start:].strip()]


def _kind(annotation: str) -> str:
    """What a typed field's values can do, from its annotation: "key" (compared, ordered and
    hashed: numbers, str, bool, tuples of them), "ordered" (compared and ordered, not hashed:
    lists of keys), "other" (anything else: a class, a dict, a set). A typed class's methods are
    checked whether used or not, so it gets only the comparisons and hash its fields have (using
    another is then refused when compiling, where Python raises TypeError when running)."""
    text = annotation.replace(" ", "")
    if text in _SCALARS:
        return "key"
    head, _, rest = text.partition("[")
    if not rest.endswith("]"):
        return "other"
    kinds = [_kind(x) for x in _split(rest[:-1])]
    if head in ("tuple", "Tuple") and kinds:
        return "key" if all(k == "key" for k in kinds) else "ordered" if all(k != "other" for k in kinds) else "other"
    if head in ("list", "List") and len(kinds) == 1 and kinds[0] != "other":
        return "ordered"
    return "other"


def _as_str(e: ast.Expr) -> ast.Expr:
    return ast.Call(e.span, ast.Name(e.span, "str"), (e,), ()) if isinstance(e, ast.StrLit) else e


class NamedTuples:
    """One module's named tuples (see the module docstring): `run` gives its statements with each
    definition written out as a struct and the `namedtuple`/`NamedTuple` imports removed."""

    def __init__(self, items: tuple, diags: DiagnosticBag):
        self.items = items
        self.diags = diags
        self.factory = WrittenImport("collections", ("namedtuple",))
        self.base = WrittenImport("typing", ("NamedTuple",))
        self.generic: dict[str, _Tuple] = {}  # namedtuple() structs, whose keyword calls are reordered
        self.made: dict[str, _Tuple] = {}

    def run(self) -> tuple:
        kept = []
        for item in self.items:
            item = self._import(item)
            if item is not None:
                kept.append(item)
        if not (self.factory.locals or self.base.bound() or self.factory.aliases):
            return self.items
        from .classes import ClassDef

        out: list = []
        for item in kept:
            made = None
            if isinstance(item, ast.Assign) and self._is_factory_call(item.value):
                made = self._factory(item)
            elif isinstance(item, ClassDef) and any(self._is_base(b) for b in item.bases):
                made = self._class(item)
            if made is None:
                out.append(item)
            elif made is not False:
                self.made[made.name] = made
                out.append(self._struct(made))
        if not self.made and not self._mentions_any(out):
            return tuple(out)
        out = [ast.transform(item, self._use) for item in out]
        return tuple(out)

    def _refuse(self, node, what: str, advice: str) -> None:
        self.diags.error("E0186", node.span, what=what, advice=advice)

    # ---- imports ----
    def _import(self, item):
        """The import without `namedtuple`/`NamedTuple` (None when nothing is left of it)."""
        for names in (self.factory, self.base):
            others = names.record(item)
            if others is None or not item.from_import:
                continue
            if len(others) == len(item.names):
                return item
            return dataclasses.replace(item, names=tuple(others)) if others else None
        return item

    def _is_factory_call(self, e) -> bool:
        return isinstance(e, ast.Call) and (
            (isinstance(e.func, ast.Name) and e.func.id in self.factory.names("namedtuple"))
            or self.factory.refers(e.func, "namedtuple"))

    def _is_base(self, e) -> bool:
        return (isinstance(e, ast.Name) and e.id in self.base.names("NamedTuple")) or self.base.refers(e, "NamedTuple")

    def _mentions_any(self, items) -> bool:
        """Whether `namedtuple` or `NamedTuple` is still named (where pyx does not build it)."""
        stack = list(items)
        while stack:
            n = stack.pop()
            if self._is_factory_call(n) or (isinstance(n, ast.Call) and self._is_base(n.func)):
                return True
            if isinstance(n, ast.Name) and (n.id in self.factory.names("namedtuple")
                                            or n.id in self.base.names("NamedTuple")):
                return True
            stack.extend(ast.children(n))
        return False

    # ---- definitions ----
    def _names(self, node, fields: list[str], kind: str) -> bool:
        seen: set[str] = set()
        for f in fields:
            if not f.isidentifier() or keyword.iskeyword(f) or f.startswith("_"):
                self._refuse(node, f"the field name `{f}`", "Python refuses names that are keywords or start "
                             "with an underscore (ValueError); rename the field")
                return False
            if f in seen:
                self._refuse(node, f"the field `{f}` twice", "Python refuses a repeated field name (ValueError)")
                return False
            seen.add(f)
        if not fields or len(fields) > MAX_FIELDS:
            self._refuse(node, f"a {kind} of {len(fields)} fields", f"pyx builds named tuples of 1 to "
                         f"{MAX_FIELDS} fields (its tuples hold at most {MAX_FIELDS} items)")
            return False
        return True

    def _factory(self, item: ast.Assign):
        call = item.value
        assert isinstance(call, ast.Call)  # (`run` sends only `X = namedtuple(...)` here)
        if len(item.targets) != 1 or not isinstance(item.targets[0], ast.Name):
            self._refuse(item, "a `namedtuple` bound to anything but one name", "write `Point = namedtuple(...)`")
            return False
        name = item.targets[0].id
        type_name = call.args[0] if call.args else None
        if len(call.args) != 2 or not isinstance(type_name, ast.StrLit):
            self._refuse(call, "this `namedtuple` call", "pyx builds `namedtuple(\"Name\", fields)` with the "
                         "name as a str literal and the fields as a list or tuple of str literals, or one str "
                         "of names")
            return False
        spec = call.args[1]
        if isinstance(spec, ast.StrLit):
            fields = spec.value.replace(",", " ").split()
        elif isinstance(spec, (ast.ListExpr, ast.TupleExpr)) and all(isinstance(x, ast.StrLit) for x in spec.elts):
            fields = [x.value for x in spec.elts if isinstance(x, ast.StrLit)]
        else:
            self._refuse(spec, "fields that are not written out", "give the fields as a list or tuple of str "
                         "literals, or one str of names (`\"x y\"`)")
            return False
        if not type_name.value.isidentifier() or keyword.iskeyword(type_name.value):
            self._refuse(type_name, f"the type name `{type_name.value}`", "Python refuses it (ValueError)")
            return False
        if not self._names(spec, fields, "namedtuple"):
            return False
        defaults: dict[str, str] = {}
        types: list[str | None] = [None] * len(fields)
        for kw in call.keywords:
            if kw.name != "defaults":
                self._refuse(kw, f"`namedtuple(..., {kw.name}=...)`", "pyx builds `defaults=`; leave the rest out")
                return False
            values = kw.value.elts if isinstance(kw.value, (ast.ListExpr, ast.TupleExpr)) else None
            if values is None or not all(_constant(v) for v in values) or len(values) > len(fields):
                self._refuse(kw.value, "these defaults", "give `defaults=` as a tuple of int, float, str or bool "
                             "constants, at most one per field")
                return False
            for f, v in zip(fields[len(fields) - len(values):], values, strict=True):
                defaults[f] = _text(v)
                types[fields.index(f)] = _literal_type(v)  # a defaulted field takes its default's type
        made = _Tuple(name, type_name.value, fields, types, defaults, span=item.span)
        self.generic[name] = made
        return made

    def _class(self, c):
        from .classes import ClassDef

        assert isinstance(c, ClassDef)
        if len(c.bases) != 1 or c.decorators:
            self._refuse(c.bases[0] if len(c.bases) != 1 else c.decorators[0],
                         f"`{c.name}` with a base or decorator besides `NamedTuple`",
                         "a named tuple class derives from `NamedTuple` alone")
            return False
        fields: list[str] = []
        types: list[str | None] = []
        defaults: dict[str, str] = {}
        methods: list = []
        ok = True
        for s in c.body:
            if isinstance(s, ast.FnDef):
                if s.name in ("__init__", "__new__", ITEMS) or s.name in ("_make", "_replace", "_asdict", "_fields"):
                    self._refuse(dataclasses.replace(s, span=s.name_span), f"`{s.name}` in a named tuple",
                                 "Python builds it (and refuses to overwrite it: AttributeError); keep to other "
                                 "methods")
                    ok = False
                    continue
                methods.append(s)
            elif isinstance(s, ast.Pass) or (isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.StrLit)):
                continue
            elif isinstance(s, ast.VarDecl) and not s.explicit and s.annotation is not None:
                if s.value is not None:
                    if not _constant(s.value):
                        self._refuse(s.value, f"the default of `{s.name}`", "Python evaluates it once and every "
                                     "tuple shares it; give an int, float, str or bool constant")
                        ok = False
                    defaults[s.name] = _text(s.value)
                elif defaults:
                    self._refuse(s, f"the field `{s.name}` without a default after one with a default",
                                 "Python refuses it (TypeError); give it a default or move it up")
                    ok = False
                fields.append(s.name)
                types.append(_text(s.annotation))
            else:
                self._refuse(s, "this statement in a named tuple's body", "its body holds annotated fields "
                             "(`x: int`, `y: float = 0.0`), methods and a docstring")
                ok = False
        if not ok or not self._names(c, fields, "named tuple"):
            return False
        return _Tuple(c.name, c.name, fields, types, defaults, tuple(methods), span=c.span)

    # ---- the struct ----
    def _struct(self, t: _Tuple) -> ast.StructDef:
        params = [f"_T{k}" for k, ty in enumerate(t.types) if ty is None]
        typed = [ty if ty is not None else f"_T{k}" for k, ty in enumerate(t.types)]
        head = f"struct {t.name}"
        if params:
            head += "[" + ", ".join(f"{p}: AnyType" for p in params) + "]"
        own = {m.name for m in t.methods}
        f, n = t.fields, len(t.fields)
        items = "(" + ", ".join(f"self.{x}" for x in f) + ("," if n == 1 else "") + ")"
        # (a generic struct's methods are checked per instance, where used: all of them)
        kinds = {"key"} if params else {_kind(ty) for ty in typed}
        hashed, ordered = kinds == {"key"}, "other" not in kinds
        traits = ["KeyElement"] * hashed + ["Comparable"] * ordered + ["Stringable", "Sized"]
        lines = [head + f"({', '.join(traits)}):"]
        lines += [f"    var {x}: {ty}" for x, ty in zip(f, typed, strict=True)]
        args = ", ".join(f"{x}: {ty}" + (f" = {t.defaults[x]}" if x in t.defaults else "")
                         for x, ty in zip(f, typed, strict=True))
        lines += ["", f"    def __init__(out self, {args}):"] + [f"        self.{x} = {x}" for x in f]
        lines += ["", f"    def {ITEMS}(self):", f"        return {items}"]
        shown = " + \", \" + ".join(f"\"{x}=\" + repr(self.{x})" for x in f)
        methods = {
            "__str__": ["    def __str__(self) -> String:", f"        return \"{t.shown}(\" + {shown} + \")\""],
            "__repr__": ["    def __repr__(self) -> String:", "        return self.__str__()"],
            "__len__": ["    def __len__(self) -> Int:", f"        return {n}"],
            "__hash__": ["    def __hash__(self) -> Int:", f"        return hash(self.{ITEMS}())"],
        }
        if not hashed:
            del methods["__hash__"]
        for op, dunder in (("==", "__eq__"), ("!=", "__ne__"), ("<", "__lt__"), ("<=", "__le__"),
                           (">", "__gt__"), (">=", "__ge__")):
            if ordered:
                methods[dunder] = [f"    def {dunder}(self, other: Self) -> Bool:",
                                   f"        return self.{ITEMS}() {op} other.{ITEMS}()"]
        options = ", ".join(f"{x}: Optional[{ty}] = None" for x, ty in zip(f, typed, strict=True))
        picks = ", ".join(f"self.{x} if {x} is None else {x}" for x in f)
        methods["_replace"] = [f"    def _replace(self, {options}) -> Self:", f"        return {t.name}({picks})"]
        # A dict holds one value type: `_asdict()` of fields of several types is refused. A generic
        # struct's is refused where it is used (E0167, decided per instance); a typed class with
        # fields of several types has none.
        pairs = ", ".join(f"\"{x}\": self.{x}" for x in f)
        if params:
            same = " and ".join(f"{typed[0]} == {ty}" for ty in typed[1:]) or "True"
            methods["_asdict"] = ["    def _asdict(self):",
                                  f"        constrained[{same}, \"`_asdict()` of a named tuple whose fields have "
                                  f"different types: a dict holds one value type; read the fields by name\"]()",
                                  f"        comptime if {same}:", f"            return {{{pairs}}}"]
        elif len(set(typed)) == 1:
            methods["_asdict"] = ["    def _asdict(self):", f"        return {{{pairs}}}"]
        for name, body in methods.items():
            if name not in own:
                lines += [""] + body
        from .parser import parse  # (the parser imports the builder, which imports this module)

        module = parse(SourceFile(f"<namedtuple {t.name}>", "\n".join(lines) + "\n"), self.diags)
        struct = module.body[0]
        assert isinstance(struct, ast.StructDef)
        return dataclasses.replace(struct, methods=struct.methods + tuple(t.methods))

    # ---- uses ----
    def _use(self, n):
        """`Point._fields` as the tuple of names; `Point(y=2, x=1)` of a namedtuple() with its
        arguments in field order (its generic struct infers its parameters from positions)."""
        if isinstance(n, ast.Attribute) and n.attr == "_fields" and isinstance(n.value, ast.Name) \
                and n.value.id in self.made:
            names = tuple(ast.StrLit(n.span, x) for x in self.made[n.value.id].fields)
            return ast.TupleExpr(n.span, names)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in self.generic:
            # a str literal passed as Python's str (a String), the type the field then has
            n = dataclasses.replace(n, args=tuple(_as_str(a) for a in n.args),
                                    keywords=tuple(dataclasses.replace(k, value=_as_str(k.value)) for k in n.keywords))
            return self._positional(self.generic[n.func.id], n) if n.keywords else n
        if (isinstance(n, ast.Name) and (n.id in self.factory.names("namedtuple")
                                         or n.id in self.base.names("NamedTuple"))) \
                or self.factory.refers(n, "namedtuple") or self.base.refers(n, "NamedTuple"):
            self._refuse(n, f"`{_text(n)}` here", "define a named tuple at module level: "
                         "`Point = namedtuple(\"Point\", [\"x\", \"y\"])` or `class Point(NamedTuple):`")
            return ast.ErrorExpr(n.span)
        return None

    def _positional(self, t: _Tuple, call: ast.Call):
        given = {kw.name: kw.value for kw in call.keywords}
        unknown = [k for k in given if k not in t.fields]
        order = [x for x in t.fields if x in given]
        if unknown:
            return call  # (the call is checked against __init__: an unexpected keyword)
        if order != [kw.name for kw in call.keywords] and not all(
                isinstance(v, (ast.Name, ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit)) or _constant(v)
                for v in given.values()):
            self._refuse(call, f"keyword arguments to `{t.name}` out of field order",
                         "Python evaluates them as written; write them in field order, or positionally")
            return ast.ErrorExpr(call.span)
        args = list(call.args)
        for x in t.fields[len(args):]:
            if x in given:
                args.append(given.pop(x))
            else:
                break
        if given:
            return call  # a field skipped before a keyword one: left to __init__, which reports it
        return dataclasses.replace(call, args=tuple(args), keywords=())


def expand_named_tuples(items: tuple, diags: DiagnosticBag) -> tuple:
    return NamedTuples(items, diags).run()
