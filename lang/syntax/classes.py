"""`class C:`, Python's reference type, built from two structs the rest of the compiler knows.

A class becomes (docs/semantics.md, "Classes"):

- `__pyx_data_C`, a plain struct holding a reference count and the attributes, in the order
  they are declared (class-level annotations first, then `self.x: T = ...` in `__init__`);
- `C` itself, a *handle*: one field, the address of the heap block holding the data (typed
  `Ptr[Int]`, whose element 0 is the count: a struct may not contain itself even through a
  pointer, and the data of a `Node` holds `Node` handles). Copying a handle adds one to the
  count (`__copyinit__`), destroying one takes one away (`__del__`), and the last one destroys
  the data and frees the block. The user's methods are the handle's methods; its `__init__`
  allocates the block (every attribute at its type's zero value, or the null handle for a class)
  before the user's body runs.

What makes `obj.x` read and write the object rather than the handle is the checker's
(`semantics/classes.py`). Generated code is parsed from text (one small file per class) so that
it reads as the pyx a user would write.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..diagnostics import DiagnosticBag
from ..source import SourceFile, Span
from . import ast

OBJECT_FIELD = "__pyx_obj"  # the handle's one field: Ptr[Int] to the block (element 0: the count)
COUNT_FIELD = "__pyx_rc"
NULL_METHOD = "__pyx_null"
ZERO_FN = "__pyx_zero"


def is_class_decl(decl: ast.StructDef) -> bool:
    """Whether a struct is a class's handle (made by `expand_classes`)."""
    return len(decl.fields) == 1 and decl.fields[0].name == OBJECT_FIELD


def data_name(cls: str) -> str:
    return f"__pyx_data_{cls}"


@dataclass(frozen=True)
class ClassDef(ast.Stmt):
    """A parsed `class` before it is expanded (`expand_classes`): the body as written, and the
    annotations of `self.x: T = v` assignments (which pyx's AST otherwise drops) by node id."""

    name: str
    name_span: Span
    bases: tuple
    body: tuple
    attr_annotations: tuple = ()  # ((Assign node, annotation), ...)


def attribute_assigns(stmts, out: list) -> list:
    """Every `self.NAME = v` assignment among stmts and the blocks nested in them, in order."""
    stack = list(reversed(stmts))
    while stack:
        s = stack.pop()
        if isinstance(s, ast.Assign):
            for target in s.targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    out.append((target, s))
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(s, name, None)
            if isinstance(inner, tuple):
                stack.extend(reversed([x for x in inner if isinstance(x, ast.Stmt)]))
    return out


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _is_class_annotation(annotation: ast.Expr, classes: set[str]) -> bool:
    return isinstance(annotation, ast.Name) and annotation.id in classes


def _literal_annotation(value: ast.Expr) -> str | None:
    kinds = {"BoolLit": "bool", "IntLit": "int", "FloatLit": "float", "StrLit": "str"}
    return kinds.get(type(value).__name__)


def expand_classes(items: tuple, diags: DiagnosticBag) -> tuple:
    """The module's statements with each `ClassDef` replaced by its two structs."""
    classes = {c.name for c in items if isinstance(c, ClassDef)}
    structs = {s.name for s in items if isinstance(s, ast.StructDef)}
    if not classes:
        return items
    out: list = []
    zero_needed = False
    for item in items:
        if not isinstance(item, ClassDef):
            out.append(item)
            continue
        expanded = _expand(item, classes, structs, diags)
        if expanded is not None:
            out.extend(expanded)
            zero_needed = True
    if zero_needed:
        out.extend(_parse_generated("<classes>", f"fn {ZERO_FN}[T: AnyType]() -> T:\n    return T()\n", diags))
    return tuple(_nullable(item, classes) for item in out)


def _optional_class(node: ast.Node, classes: set[str]) -> ast.Expr | None:
    """`C | None`, `None | C`, `Optional[C]` of a class C: C itself (a class's handle may be None)."""
    if isinstance(node, ast.Binary) and node.op == "|":
        for a, b in ((node.left, node.right), (node.right, node.left)):
            if isinstance(a, ast.Name) and a.id in classes and isinstance(b, ast.NoneLit):
                return a
    if isinstance(node, ast.Subscript) and len(node.items) == 1 and isinstance(node.items[0], ast.Name) \
            and node.items[0].id in classes and dotted(node.value) in ("Optional", "typing.Optional"):
        return node.items[0]
    if isinstance(node, ast.Subscript) and len(node.items) == 2 and dotted(node.value) in ("Union", "typing.Union"):
        for x, y in (node.items, reversed(node.items)):
            if isinstance(x, ast.Name) and x.id in classes and isinstance(y, ast.NoneLit):
                return x
    return None


def dotted(node: ast.Node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return ""


def _string_annotation(node: ast.Node, classes: set[str]) -> ast.Expr | None:
    """`"Node"`, `"Node | None"`, `"Optional[Node]"` in an annotation (how Python refers to a class
    not defined yet): the class."""
    if not isinstance(node, ast.StrLit):
        return None
    text = node.value.replace(" ", "")
    for form in ("{}", "{}|None", "None|{}", "Optional[{}]", "typing.Optional[{}]"):
        for name in classes:
            if text == form.format(name):
                return ast.Name(node.span, name)
    return None


ANNOTATION_FIELDS = ("annotation", "returns")


def _nullable(node, classes: set[str], annotation: bool = False):
    """node with every `C | None` / `Optional[C]` of a class C written `C`, and in annotations a
    string naming a class written as the class (the tree is rebuilt only where something changes)."""
    if isinstance(node, tuple):
        items = tuple(_nullable(x, classes, annotation) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not isinstance(node, ast.Node):
        return node
    changes = {}
    for f in fields(node):
        if f.name in ("span", "name_span"):
            continue
        value = getattr(node, f.name)
        new = _nullable(value, classes, annotation or f.name in ANNOTATION_FIELDS)
        if new is not value:
            changes[f.name] = new
    node = replace(node, **changes) if changes else node  # (`Optional["C"]`: the string first)
    found = _optional_class(node, classes) or (_string_annotation(node, classes) if annotation else None)
    return found if found is not None else node


def _expand(cls: ClassDef, classes: set[str], structs: set[str], diags: DiagnosticBag):
    if cls.bases:
        diags.error("E0257", cls.bases[0].span, name=cls.name)
        return None
    annotations = {id(node): ann for node, ann in cls.attr_annotations}
    fields: dict[str, ast.Expr] = {}  # name -> annotation
    methods: list[ast.FnDef] = []
    for stmt in cls.body:
        if isinstance(stmt, ast.VarDecl) and not stmt.explicit and stmt.annotation is not None:
            if stmt.value is not None:
                diags.error("E0258", stmt.span, name=stmt.name, cls=cls.name)
                continue
            fields.setdefault(stmt.name, stmt.annotation)
        elif isinstance(stmt, ast.FnDef):
            if stmt.name in ("__del__", "__copyinit__", "__moveinit__") or stmt.name.startswith("__pyx_"):
                diags.error("E0262", stmt.name_span, cls=cls.name, name=stmt.name)
                continue
            methods.append(stmt)
        elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit)):
            continue
        elif isinstance(stmt, (ast.Assign, ast.VarDecl)):
            diags.error("E0258", stmt.span, name=_text(stmt.targets[0]) if isinstance(stmt, ast.Assign)
                        else stmt.name, cls=cls.name)
        else:
            diags.error("E0116", stmt.span)
    init = next((m for m in methods if m.name == "__init__"), None)
    untyped: set[int] = set()
    if init is not None:
        params = {p.name: p for p in init.params[1:]}
        for target, assign in attribute_assigns(init.body, []):
            name = target.attr
            annotation = annotations.get(id(assign))
            if name in fields:
                continue
            if annotation is None:
                value = assign.value
                if isinstance(value, ast.Name) and value.id in params and params[value.id].annotation is not None:
                    annotation = params[value.id].annotation  # `self.x = x` takes x's annotation
                elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                        and value.func.id in classes | structs:
                    annotation = value.func  # `self.pos = Vec(0, 0)`: a `Vec`
                else:
                    literal = _literal_annotation(value)
                    if literal is None:
                        diags.error("E0256", target.span, name=name, cls=cls.name)
                        untyped.add(id(assign))
                        continue
                    annotation = ast.Name(value.span, literal)
            fields[name] = annotation  # type: ignore[assignment]  # (set on every path that gets here)
        # (an attribute without a type is reported once, not again as a missing field)
        init = replace(init, body=tuple(s for s in init.body if id(s) not in untyped))
        methods = [init if m.name == "__init__" else m for m in methods]
    fields = {name: _nullable(ann, classes, True) for name, ann in fields.items()}
    if init is not None and (not init.params or init.params[0].name != "self"):
        diags.error("E0259", init.span, cls=cls.name)
        return None
    handle, data = cls.name, data_name(cls.name)
    lines = ["@fieldwise_init", f"struct {data}:", f"    var {COUNT_FIELD}: Int"]
    lines += [f"    var {name}: {_annotation_text(ann)}" for name, ann in fields.items()]
    # The leading `self.x = v` of `__init__` (v not reading self) give the attributes their first
    # values; every other attribute starts at its type's zero value (None for an object) until
    # `__init__` sets it. Each v is evaluated in the order written, into a variable of its own.
    leading, rest_of_init = _leading_assignments(init, fields, classes) if init is not None else ({}, ())
    firsts = []
    for name, ann in fields.items():
        if name in leading:
            firsts.append(f"{_INIT_VAR}{name}^")
        elif _is_class_annotation(ann, classes):
            firsts.append(f"{_annotation_text(ann)}.{NULL_METHOD}()")
        else:
            firsts.append(f"{ZERO_FN}[{_annotation_text(ann)}]()")
    defaults = ", ".join(["1"] + firsts)
    lines += [
        "",
        f"struct {handle}({', '.join(_traits(methods))}):",
        f"    var {OBJECT_FIELD}: Ptr[Int]",
        "",
        "    fn __copyinit__(out self, other: Self):",
        f"        self.{OBJECT_FIELD} = other.{OBJECT_FIELD}",
        f"        if self.{OBJECT_FIELD}:",
        f"            self.{OBJECT_FIELD}[0] += 1",
        "",
        "    fn __del__(var self):",
        f"        if self.{OBJECT_FIELD}:",
        f"            if self.{OBJECT_FIELD}[0] == 1:",
        f"                var dead = self.{OBJECT_FIELD}.bitcast[{data}]().take(0)",
        f"                self.{OBJECT_FIELD}.free()",
        "            else:",
        f"                self.{OBJECT_FIELD}[0] -= 1",
        "",
        "    @staticmethod",
        f"    fn {NULL_METHOD}() -> {handle}:",
        "        var cell = Ptr[Ptr[Int]].alloc(1)",
        "        cell[0] = Ptr[Int]()",
        f"        var null = cell.bitcast[{handle}]().take(0)",
        "        cell.free()",
        "        return null^",
        "",
        f"    fn {cls.name}__pyx_prologue(out self):",
        f"        var new = Ptr[{data}].alloc(1)",
        f"        new[0] = {data}({defaults})",
        f"        self.{OBJECT_FIELD} = new.bitcast[Int]()",
    ]
    names = {m.name for m in methods}
    if "__eq__" not in names:  # Python's default: an object equals only itself
        lines += ["", f"    fn __eq__(self, other: {handle}) -> Bool:",
                  f"        return self.{OBJECT_FIELD} == other.{OBJECT_FIELD}"]
    # A reference that is None prints as `None`; an object prints what its `__str__` (else its
    # `__repr__`, as Python's str() falls back on it) returns: the user's methods, renamed, behind these.
    texts = {"__str__": "__str__" if "__str__" in names else "__repr__", "__repr__": "__repr__"}
    for special, written in texts.items():
        if written in names:
            lines += ["", f"    def {special}(self) -> String:", f"        if not self.{OBJECT_FIELD}:",
                      '            return String("None")', f"        return self.{_TEXT_PREFIX}{written}()"]
    methods = [replace(m, name=f"{_TEXT_PREFIX}{m.name}") if m.name in texts else m for m in methods]
    if "__ne__" not in names:  # Python's default: the opposite of `__eq__`
        lines += ["", f"    fn __ne__(self, other: {handle}) -> Bool:", "        return not (self == other)"]
    generated = _parse_generated(f"<class {cls.name}>", "\n".join(lines) + "\n", diags)
    if len(generated) != 2:
        return None
    data_def, handle_def = generated
    prologue = next(m for m in handle_def.methods if m.name.endswith("__pyx_prologue"))
    if init is None:
        init = ast.FnDef(cls.span, "def", "__init__", cls.name_span, (), (ast.Param(cls.name_span, "self", None, None,
                                                                                        None),), False, None, ())
    self_param = replace(init.params[0], convention="out")
    values = tuple(ast.VarDecl(assign.span, f"{_INIT_VAR}{name}", target.span, fields[name], assign.value, True)
                   for name, (target, assign) in leading.items())
    new_init = replace(init, params=(self_param,) + tuple(init.params[1:]), returns=None,
                       body=values + prologue.body + tuple(rest_of_init if init.body else ()))
    own = [m for m in handle_def.methods if m is not prologue]
    user = [new_init if m is init else m for m in methods]
    if new_init not in user:
        user.insert(0, new_init)
    handle_def = replace(handle_def, span=cls.span, name_span=cls.name_span, methods=tuple(own + user))
    data_def = replace(data_def, span=cls.span, name_span=cls.name_span)
    return [data_def, handle_def]


_INIT_VAR = "__pyx_init_"
_TEXT_PREFIX = "__pyx_user"  # `__str__` -> `__pyx_user__str__`


def _mentions_self(node: ast.Node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and n.id == "self":
            return True
        stack.extend(ast.children(n))
    return False


def _leading_assignments(init: ast.FnDef, fields: dict, classes: set[str]) -> tuple[dict, tuple]:
    """The `self.x = v` statements that open `__init__` (each attribute once, v not reading self,
    and not an empty `[]`/`{}`, which is the zero value already): name -> (target, Assign), in
    order, and the statements after them."""
    leading: dict = {}
    seen: set[str] = set()
    body = tuple(init.body)
    k = 0
    while k < len(body):
        s = body[k]
        if isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.StrLit) and k == 0:
            k += 1  # a docstring
            continue
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Attribute)
                and isinstance(s.targets[0].value, ast.Name) and s.targets[0].value.id == "self"):
            break
        name = s.targets[0].attr
        if name not in fields or name in seen or _mentions_self(s.value):
            break
        seen.add(name)
        k += 1
        empty = (isinstance(s.value, ast.ListExpr) and not s.value.elts) or (
            isinstance(s.value, ast.DictExpr) and not s.value.keys) or (
            isinstance(s.value, ast.NoneLit) and _is_class_annotation(fields[name], classes))
        if not empty:  # (an empty one is the attribute's zero value already)
            leading[name] = (s.targets[0], s)
    return leading, body[k:]


def _traits(methods: list[ast.FnDef]) -> list[str]:
    """The standard traits a class conforms to, by the special methods it has: pyx's conformance is
    declared (Mojo's), Python's is by having the methods. `__eq__` and `__ne__` it always has."""
    names = {m.name for m in methods}
    traits = ["KeyElement" if "__hash__" in names else "EqualityComparable"]
    if {"__lt__", "__le__", "__gt__", "__ge__"} <= names:
        traits.append("Comparable")
    return traits


def _annotation_text(annotation: ast.Node) -> str:
    """A type annotation written back as source (after `_nullable` rewrote parts of it)."""
    if isinstance(annotation, ast.Name):
        return annotation.id
    if isinstance(annotation, ast.Attribute):
        return f"{_annotation_text(annotation.value)}.{annotation.attr}"
    if isinstance(annotation, ast.Subscript):
        return f"{_annotation_text(annotation.value)}[{', '.join(_annotation_text(i) for i in annotation.items)}]"
    if isinstance(annotation, ast.Binary) and annotation.op == "|":
        return f"{_annotation_text(annotation.left)} | {_annotation_text(annotation.right)}"
    if isinstance(annotation, ast.NoneLit):
        return "None"
    return _text(annotation)


def _parse_generated(name: str, text: str, diags: DiagnosticBag) -> tuple:
    from .parser import parse  # (the parser imports this module's builder)

    return parse(SourceFile(name, text), diags).body
