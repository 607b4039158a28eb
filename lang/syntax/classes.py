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

from dataclasses import fields, replace

from ..diagnostics import DiagnosticBag
from ..node_methods import syntax_node
from ..source import SourceFile, Span
from . import ast, classmethods, exception_data, leak_report
from .class_attributes import hoist
from .inheritance import (
    CAST,
    CLASS_ID_FIELD,
    INIT_BODY,
    ExceptionClassDef,
    Hierarchy,
    cast_methods,
    destroy_lines,
    dispatched,
    inherited,
    narrow_ifs,
    rewrite_super,
)
from .init_params import infer_init_params
from .object_eq import typed_object_eq
from .pending_attributes import is_pending_annotation, pending_annotation, pending_first_value
from .reflected_eq import reflect_comparisons

OBJECT_FIELD = "__pyx_obj"  # the handle's one field: Ptr[Int] to the block (element 0: the count)
COUNT_FIELD = "__pyx_rc"
NULL_METHOD = "__pyx_null"
ZERO_FN = "__pyx_zero"


def is_class_decl(decl: ast.StructDef) -> bool:
    """Whether a struct is a class's handle (made by `expand_classes`)."""
    return len(decl.fields) == 1 and decl.fields[0].name == OBJECT_FIELD


def data_name(cls: str) -> str:
    return f"__pyx_data_{cls}"


@syntax_node
class ClassDef(ast.Stmt):
    """A parsed `class` before it is expanded (`expand_classes`): the body as written, and the
    annotations of `self.x: T = v` assignments (which pyx's AST otherwise drops) by node id."""

    name: str
    name_span: Span
    bases: tuple
    body: tuple
    attr_annotations: tuple = ()  # ((Assign node, annotation), ...)
    decorators: tuple = ()  # `@dataclass`: written out before expansion (syntax/dataclass_methods.py)


def attribute_assigns(stmts, out: list, origin: dict | None = None) -> list:
    """Every `self.NAME = v` assignment among stmts and the blocks nested in them, in order. Each
    `self.a, self.b = x, y` gives one `self.a = x` per attribute, made here (origin: their ids ->
    the statement written)."""
    stack = list(reversed(stmts))
    while stack:
        s = stack.pop()
        if isinstance(s, ast.Assign):
            for target in s.targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    out.append((target, s))
                elif isinstance(target, ast.TupleExpr) and isinstance(s.value, ast.TupleExpr) \
                        and len(target.elts) == len(s.value.elts):
                    for t, v in zip(target.elts, s.value.elts, strict=True):
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            one = ast.Assign(s.span, (t,), v)
                            if origin is not None:
                                origin[id(one)] = s
                            out.append((t, one))
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(s, name, None)
            if isinstance(inner, tuple):
                stack.extend(reversed([x for x in inner if isinstance(x, ast.Stmt)]))
    return out


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _as_made(annotation, value: ast.Expr):
    """`self.d: dict[K, V] = defaultdict(f)`: the attribute is the defaultdict Python's is (what
    mypy wants written: a defaultdict is a dict), so it is declared `defaultdict[K, V]`; as a
    variable's is (semantics/pycollections.py `declared_as_made`)."""
    if isinstance(annotation, ast.Subscript) and dotted(annotation.value) in ("dict", "Dict") \
            and isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords \
            and dotted(value.func) in ("defaultdict", "collections.defaultdict"):
        return replace(annotation, value=value.func)
    return annotation


def _is_class_annotation(annotation: ast.Expr, classes: set[str]) -> bool:
    return isinstance(annotation, ast.Name) and annotation.id in classes


def _literal_annotation(value: ast.Expr) -> str | None:
    kinds = {"BoolLit": "bool", "IntLit": "int", "FloatLit": "float", "StrLit": "str"}
    if isinstance(value, ast.Unary) and value.op in ("-", "+") \
            and type(value.operand).__name__ in ("IntLit", "FloatLit"):
        value = value.operand  # `self.index = -1`
    return kinds.get(type(value).__name__)


def expand_classes(items: tuple, diags: DiagnosticBag, debug_leaks: bool = False) -> tuple:
    """The module's statements with each `ClassDef` replaced by its two structs."""
    defs = [c for c in items if isinstance(c, ClassDef)]
    structs = {s.name for s in items if isinstance(s, ast.StructDef)}
    if not defs:
        return items
    items = classmethods.expand(items, ClassDef)  # each class's own static copy (syntax/classmethods.py)
    items = hoist(items, ClassDef, diags)  # class attributes: module-level variables (syntax/class_attributes.py)
    items = narrow_ifs(items, [c for c in items if isinstance(c, ClassDef)])  # (syntax/inheritance.py)
    items = exception_data.split(items, ClassDef, diags)  # exception classes with an `__init__`
    defs = [c for c in items if isinstance(c, ClassDef)]
    hierarchy = Hierarchy(defs, diags)
    hierarchy.constants = _module_constants(items)
    items = _identity_eq_roots(items, hierarchy, diags)
    items = reflect_comparisons(items, hierarchy, lambda text: _parse_generated("<classes>", text, diags), diags)
    classes = {c.name for c in defs if c.name not in hierarchy.exceptions}
    # `def __init__(self, name, age)`: typed by the module's calls (syntax/init_params.py)
    items = infer_init_params(items, {c.name: c for c in defs if c.name in classes}, hierarchy.in_hierarchy,
                              structs, diags)
    out: list = []
    zero_needed = False
    attributes: dict[str, dict] = {}  # each class's attributes, for its subclasses (bases come first)
    # --debug-leaks: each class's number in the registry of live objects (syntax/leak_report.py)
    # (not an exception's object, which the exception keeps: syntax/exception_data.py)
    kinds = [c.name for c in defs if c.name in classes and not c.name.startswith(exception_data.DATA)] \
        if debug_leaks else None
    for item in items:
        if not isinstance(item, ClassDef):
            out.append(item)
            continue
        if item.name in hierarchy.exceptions:
            out.append(ExceptionClassDef(item.span, item.name, item.name_span, hierarchy.exceptions[item.name]))
            continue
        base = hierarchy.parent.get(item.name)
        if base is not None and base not in attributes:
            continue  # (its base's errors are reported)
        inherited_fields = dict(attributes[base]) if base is not None else {}
        item = typed_object_eq(item, hierarchy.in_hierarchy(item.name))  # `other: object` (syntax/object_eq.py)
        counted = kinds if kinds is not None and item.name in kinds else None  # (--debug-leaks)
        if counted is not None and base is None:  # (first: at the same place in every class of a hierarchy)
            inherited_fields[leak_report.SLOT_FIELD] = ast.Name(item.name_span, "Int")
        expanded = _expand(item, classes, structs, diags, hierarchy, inherited_fields, attributes, counted)
        if expanded is not None:
            out.extend(expanded)
            zero_needed = True
    if zero_needed:
        out.extend(_parse_generated("<classes>", f"fn {ZERO_FN}[T: AnyType]() -> T:\n    return T()\n", diags))
    out = [nullable(item, classes) for item in out]
    if kinds:
        out = list(leak_report.instrument(tuple(out), kinds, _parser("leaks", diags)))
    return tuple(out)


def _identity_eq_roots(items: tuple, h: Hierarchy, diags: DiagnosticBag) -> tuple:
    """A base class whose subclass defines `__eq__`, and that has none itself, given Python's default
    (identity) as a method of its own, so that `==` through the base dispatches to the subclass's."""
    out = []
    for item in items:
        if isinstance(item, ClassDef) and h.in_hierarchy(item.name) and h.resolve(item.name, "__eq__") is None \
                and any("__eq__" in h.own[d] for d in h.descendants(item.name)):
            # object.__eq__: identity, else the other operand's own `__eq__` (Python's reflected try)
            overriding = " or ".join(f"isinstance(other, {d})" for d in h.descendants(item.name)
                                     if "__eq__" in h.own[d])
            text = (f"def __eq__(self, other: {item.name}) -> bool:\n    if self is other:\n        return True\n"
                    f"    if {overriding}:\n        return other == self\n    return False\n")
            eq = _parse_generated(f"<class {item.name}>", text, diags)[0]
            h.own[item.name]["__eq__"] = eq
            item = replace(item, body=tuple(item.body) + (eq,))
            h.defs[item.name] = item
        out.append(item)
    return tuple(out)


def _module_constants(items: tuple) -> dict[str, str]:
    """Module-level names bound once, to a literal or to a new object: name -> its type's name
    (`LIMIT = 10`: int; `ORIGIN = Vector(0.0, 0.0)`: Vector, Vector a class)."""
    classes = {c.name for c in items if isinstance(c, ClassDef)}
    seen: dict[str, str | None] = {}
    for item in items:
        if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
            name = item.targets[0].id
            value = item.value
            made = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                and value.func.id in classes else None
            seen[name] = None if name in seen else made or _literal_annotation(value)
    return {name: kind for name, kind in seen.items() if kind is not None}


def null_items(value: ast.Expr, annotation: ast.Node, classes: set[str]) -> ast.Expr:
    """`[None] * n` (or `[None, None]`) where a list of objects of class C is wanted: each None
    written as C's null reference, so the list has C's type (Python's list of None, to be filled)."""
    if not (isinstance(annotation, ast.Subscript) and dotted(annotation.value) in ("list", "List")
            and len(annotation.items) == 1 and isinstance(annotation.items[0], ast.Name)
            and annotation.items[0].id in classes):
        return value
    cls = annotation.items[0]
    items = value.left if isinstance(value, ast.Binary) and value.op == "*" else value
    if not (isinstance(items, ast.ListExpr) and items.elts and all(isinstance(x, ast.NoneLit) for x in items.elts)):
        return value
    null = ast.ListExpr(items.span, tuple(ast.Call(x.span, ast.Attribute(x.span, ast.Name(x.span, cls.id), NULL_METHOD),
                                                   (), ()) for x in items.elts))
    return replace(value, left=null) if isinstance(value, ast.Binary) else null


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


def nullable(node, classes: set[str], annotation: bool = False):
    """node with every `C | None` / `Optional[C]` of a class C written `C`, and in annotations a
    string naming a class written as the class (the tree is rebuilt only where something changes)."""
    if isinstance(node, tuple):
        items = tuple(nullable(x, classes, annotation) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not isinstance(node, ast.Node):
        return node
    changes = {}
    for f in fields(node):
        if f.name in ("span", "name_span"):
            continue
        value = getattr(node, f.name)
        new = nullable(value, classes, annotation or f.name in ANNOTATION_FIELDS)
        if new is not value:
            changes[f.name] = new
    node = replace(node, **changes) if changes else node  # (`Optional["C"]`: the string first)
    found = _optional_class(node, classes) or (_string_annotation(node, classes) if annotation else None)
    return found if found is not None else node


def _returns_of_own_method(value: ast.Expr, methods: list[ast.FnDef]) -> ast.Expr | None:
    """The declared return type of `self.m(...)`, m a method of the class with one."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id == "self"):
        return None
    found = next((m for m in methods if m.name == value.func.attr and m.returns is not None), None)
    return found.returns if found is not None else None


def _returns_of_parameter_method(value: ast.Expr, params: dict, h: Hierarchy) -> ast.Expr | None:
    """The declared return type of `p.m(...)`, p a parameter annotated with a class whose m (its own
    or inherited) declares one."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id in params):
        return None
    annotation = params[value.func.value.id].annotation
    cls = annotation.id if isinstance(annotation, ast.Name) else \
        annotation.value if isinstance(annotation, ast.StrLit) else None
    if cls is None or cls not in h.own:
        return None
    owner = h.resolve(cls, value.func.attr)
    found = h.own[owner][value.func.attr] if owner is not None else None
    return found.returns if found is not None and found.returns is not None else None


def _expand(cls: ClassDef, classes: set[str], structs: set[str], diags: DiagnosticBag, h: Hierarchy,
            fields: dict, attributes: dict, kinds: list[str] | None = None):
    """cls's two structs; its attributes (fields: its base's, in order, to begin with) are
    recorded in `attributes` for its subclasses. kinds: the classes' numbers in --debug-leaks's
    registry (syntax/leak_report.py), None when the mode is off."""
    if cls.name in h.bad:
        return None
    moved: dict = {}  # nodes rewritten below (`super()` calls), so their annotations follow them
    methods = _members(cls, fields, diags, h, moved)
    annotations = {id(moved.get(id(node), node)): ann for node, ann in cls.attr_annotations}
    own_ids = {id(m) for m in methods}
    if h.in_hierarchy(cls.name):
        methods = inherited(h, cls.name, methods, diags, _parser(cls.name, diags))
    init = next((m for m in methods if m.name == "__init__"), None)
    # Attributes are declared by `__init__`'s assignments, then by those of the class's other
    # methods (an attribute a method sets later starts as its type's zero value).
    setters = ([init] if init is not None else []) + [m for m in methods if id(m) in own_ids and m is not init]
    _Attributes(cls.name, classes | structs, methods, h).declare(setters, annotations, fields)
    fields = {name: nullable(ann, classes, True) for name, ann in fields.items()}
    attributes[cls.name] = fields
    if init is not None and (not init.params or init.params[0].name != "self"):
        diags.error("E0259", init.span, cls=cls.name)
        return None
    # A list or dict parameter a method changes in place is `mut`, as a function's is (Python shares it).
    from ..semantics.implicit_mut import infer

    methods = [infer({m.name: m}, {}).get(m.name, m) if m.kind == "def" else m for m in methods]
    init = next((m for m in methods if m.name == "__init__"), None)
    hierarchy = h.in_hierarchy(cls.name)
    if init is not None and h.descendants(cls.name):
        methods.append(replace(init, name=INIT_BODY))  # for the subclasses' `super().__init__(...)`
    if hierarchy:
        methods = dispatched(h, cls.name, methods, _parser(cls.name, diags))
    # The leading `self.x = v` of `__init__` (v not reading self) give the attributes their first
    # values; every other attribute starts at its type's zero value (None for an object) until
    # `__init__` sets it. Each v is evaluated in the order written, into a variable of its own.
    leading, rest_of_init = _leading_assignments(init, fields, classes) if init is not None else ({}, ())
    lines = _struct_lines(cls.name, methods, fields, leading, classes, h, kinds)
    methods = _default_methods(lines, methods, cls.name)
    generated = _parse_generated(f"<class {cls.name}>", "\n".join(lines) + "\n", diags)
    if len(generated) != 2:
        return None
    data_def, handle_def = generated
    prologue = next(m for m in handle_def.methods if m.name.endswith("__pyx_prologue"))
    new_init = _initializer(cls, init, prologue, leading, rest_of_init, fields, classes)
    own = [m for m in handle_def.methods if m is not prologue]
    user = [new_init if m is init else m for m in methods]
    if new_init not in user:
        user.insert(0, new_init)
    handle_def = replace(handle_def, span=cls.span, name_span=cls.name_span, methods=tuple(own + user))
    data_def = replace(data_def, span=cls.span, name_span=cls.name_span)
    return [data_def, handle_def]


def _members(cls: ClassDef, fields: dict, diags: DiagnosticBag, h: Hierarchy, moved: dict) -> list[ast.FnDef]:
    """The class's methods (`super()` calls rewritten); its annotated attributes go into `fields`;
    E0258 for a class attribute with a value, E0262 for a method pyx makes itself, E0116 for other
    statements."""
    methods: list[ast.FnDef] = []
    for stmt in cls.body:
        if isinstance(stmt, ast.VarDecl) and not stmt.explicit and stmt.annotation is not None:
            if stmt.value is not None:
                diags.error("E0258", stmt.span, name=stmt.name, cls=cls.name)
                continue
            fields.setdefault(stmt.name, stmt.annotation)
        elif isinstance(stmt, ast.FnDef):
            if stmt.name in ("__del__", "__copyinit__", "__moveinit__") or (
                    stmt.name.startswith("__pyx_") and not stmt.span.file.name.startswith("<class ")):  # (generated)
                diags.error("E0262", stmt.name_span, cls=cls.name, name=stmt.name)
                continue
            methods.append(rewrite_super(h, cls.name, stmt, diags, moved))
        elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit)):
            continue
        elif isinstance(stmt, (ast.Assign, ast.VarDecl)):
            diags.error("E0258", stmt.span, name=_text(stmt.targets[0]) if isinstance(stmt, ast.Assign)
                        else stmt.name, cls=cls.name)
        else:
            diags.error("E0116", stmt.span)
    return methods


class _Attributes:
    """The attributes a class's methods set (`self.x = v`), each with its annotation: the one
    written, else what the value shows."""

    def __init__(self, cls: str, named_types: set[str], methods: list[ast.FnDef], h: Hierarchy):
        self.cls, self.named_types, self.methods, self.h = cls, named_types, methods, h

    def declare(self, setters: list[ast.FnDef], annotations: dict, fields: dict) -> None:
        """Add each attribute `setters` assign, in order, that `fields` lacks."""
        for method in setters:
            params = {p.name: p for p in method.params[1:]}
            origin: dict = {}
            for target, assign in attribute_assigns(method.body, [], origin):
                name = target.attr
                annotation = _as_made(annotations.get(id(assign)), assign.value)
                if name in fields:
                    continue
                fields[name] = annotation if annotation is not None else self.inferred(name, assign.value, params)

    def inferred(self, name: str, value: ast.Expr, params: dict) -> ast.Expr:
        """The annotation of attribute `name`, first set to `value` with none written."""
        h = self.h
        if isinstance(value, ast.Name) and value.id in params and params[value.id].annotation is not None:
            return params[value.id].annotation  # `self.x = x` takes x's annotation
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in self.named_types:
            return value.func  # `self.pos = Vec(0, 0)`: a `Vec`
        returns = _returns_of_own_method(value, self.methods)  # `self.t = self.tokenize(s)`
        if returns is None:
            returns = _returns_of_parameter_method(value, params, h)  # `self.v = v.normalized()`
        if returns is not None:
            return returns
        if isinstance(value, ast.Name) and value.id in h.constants and value.id not in params:
            return ast.Name(value.span, h.constants[value.id])  # `self.k = LIMIT`, `LIMIT = 10`
        literal = _literal_annotation(value)
        if literal is None:
            # Typed by the checker from this first value and the later uses
            # (semantics/attribute_types.py); E0256 there when nothing says.
            return pending_annotation(self.cls, name, value)
        return ast.Name(value.span, literal)


def _first_value(name: str, ann: ast.Expr, leading: dict, classes: set[str]) -> str:
    """An attribute's value in a new object's data, as source text."""
    if name in leading:
        return f"{_INIT_VAR}{name}^"
    if is_pending_annotation(ann):
        return pending_first_value(ann)
    if _is_class_annotation(ann, classes):
        return f"{_annotation_text(ann)}.{NULL_METHOD}()"
    if _is_optional_annotation(ann):  # `holder: str | None` (an Optional has no `T()`): None until set
        return "None"
    return f"{ZERO_FN}[{_annotation_text(ann)}]()"


def _is_optional_annotation(ann: ast.Expr) -> bool:
    """`X | None`, `None | X`, `Optional[X]`, `typing.Optional[X]`, as written."""
    if isinstance(ann, ast.Binary) and ann.op == "|":
        return isinstance(ann.left, ast.NoneLit) or isinstance(ann.right, ast.NoneLit)
    head = ann.value if isinstance(ann, ast.Subscript) else None
    return (isinstance(head, ast.Name) and head.id == "Optional") or (
        isinstance(head, ast.Attribute) and head.attr == "Optional")


def _struct_lines(cls: str, methods: list[ast.FnDef], fields: dict, leading: dict, classes: set[str],
                  h: Hierarchy, kinds: list[str] | None) -> list[str]:
    """The source of the class's two structs: its data (a count, the class's id in a hierarchy,
    the attributes) and its handle (a pointer to the data, counted)."""
    hierarchy = h.in_hierarchy(cls)
    handle, data = cls, data_name(cls)
    lines = ["@fieldwise_init", f"struct {data}:", f"    var {COUNT_FIELD}: Int"]
    if hierarchy:
        lines.append(f"    var {CLASS_ID_FIELD}: Int")
    lines += [f"    var {name}: {_annotation_text(ann)}" for name, ann in fields.items()]
    firsts = [_first_value(name, ann, leading, classes) for name, ann in fields.items()]
    defaults = ", ".join(["1"] + ([str(h.ids[cls])] if hierarchy else []) + firsts)
    lines += [
        "",
        f"struct {handle}({', '.join(_traits(methods, cls, tuple(h.ancestors(cls))))}):",
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
        *(leak_report.forget_lines(hierarchy) if kinds is not None else []),
        *destroy_lines(h, cls, data_name),
        f"                self.{OBJECT_FIELD}.free()",
        "            else:",
        f"                self.{OBJECT_FIELD}[0] -= 1",
        "",
        "    @staticmethod",
        f"    fn {NULL_METHOD}() -> {handle}:",
        f"        return {CAST}(None, {handle})",
        "",
        f"    fn {cls}__pyx_prologue(out self):",
        f"        var new = Ptr[{data}].alloc(1)",
        f"        new[0] = {data}({defaults})",
        f"        self.{OBJECT_FIELD} = new.bitcast[Int]()",
        *(leak_report.prologue_lines(kinds.index(cls), hierarchy) if kinds is not None else []),
    ]
    if kinds is not None:
        lines += leak_report.handle_lines(cls, hierarchy, fields, classes)
    if hierarchy:
        lines += cast_methods(h, cls)
    return lines


def _default_methods(lines: list[str], methods: list[ast.FnDef], handle: str) -> list[ast.FnDef]:
    """Python's defaults the class does not define (`==` is identity, `!=` its opposite) and the
    `str()`/`repr()` of a reference that may be None, added to `lines`; the methods, with the
    user's `__str__`/`__repr__` renamed to go behind those."""
    names = {m.name for m in methods}
    # The default `__ne__` takes what the class's `__eq__` takes (a base class's objects, in a hierarchy).
    eq = next((m for m in methods if m.name == "__eq__" and len(m.params) == 2), None)
    annotation = eq.params[1].annotation if eq is not None else None
    other_type = annotation.value if isinstance(annotation, ast.StrLit) else \
        _annotation_text(annotation) if annotation is not None else handle
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
        lines += ["", f"    fn __ne__(self, other: {other_type}) -> Bool:", "        return not (self == other)"]
    return methods


def _initializer(cls: ClassDef, init: ast.FnDef | None, prologue: ast.FnDef, leading: dict, rest_of_init,
                 fields: dict, classes: set[str]) -> ast.FnDef:
    """`__init__` (an empty one where the class has none) as the handle's constructor: the leading
    assignments' values, the prologue that allocates the data, then the rest of its body."""
    if init is None:
        init = ast.FnDef(cls.span, "def", "__init__", cls.name_span, (), (ast.Param(cls.name_span, "self", None, None,
                                                                                        None),), False, None, ())
    self_param = replace(init.params[0], convention="out")
    values = tuple(ast.VarDecl(assign.span, f"{_INIT_VAR}{name}", target.span, fields[name],
                               null_items(assign.value, fields[name], classes), True)
                   for name, (target, assign) in leading.items())
    return replace(init, params=(self_param,) + tuple(init.params[1:]), returns=None,
                   body=values + prologue.body + tuple(rest_of_init if init.body else ()))


_INIT_VAR = "__pyx_init_"
INIT_VAR = _INIT_VAR  # (semantics/stored_arguments.py reads `__init__`'s stores by it)
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
        if name not in fields or name in seen or _mentions_self(s.value) or is_pending_annotation(fields[name]):
            break  # (a pending attribute's assignment stays in the body, where the checker types it)
        seen.add(name)
        k += 1
        empty = (isinstance(s.value, ast.ListExpr) and not s.value.elts) or (
            isinstance(s.value, ast.DictExpr) and not s.value.keys) or (
            isinstance(s.value, ast.NoneLit) and _is_class_annotation(fields[name], classes))
        if not empty:  # (an empty one is the attribute's zero value already)
            leading[name] = (s.targets[0], s)
    return leading, body[k:]


def _traits(methods: list[ast.FnDef], cls: str, ancestors: tuple = ()) -> list[str]:
    """The standard traits a class conforms to, by the special methods it has: pyx's conformance is
    declared (Mojo's), Python's is by having the methods. `__eq__` and `__ne__` it always has. An
    `__eq__(self, other: Base)` a subclass inherits is the trait's too (semantics/module.py
    `check_conformance` takes a base for Self there: a subclass object is one), so the subclass's
    objects are dict keys and set items as in Python."""
    names = {m.name for m in methods}
    eq = next((m for m in methods if m.name == "__eq__"), None)
    if eq is not None and len(eq.params) == 2 and isinstance(eq.params[1].annotation, ast.Name) \
            and eq.params[1].annotation.id != cls and eq.params[1].annotation.id not in ancestors:
        return []  # `__eq__(self, other: X)`, X not this class or a base: `==` calls it, but it is not the trait's
    traits = ["KeyElement" if "__hash__" in names else "EqualityComparable"]
    if {"__lt__", "__le__", "__gt__", "__ge__"} <= names:
        traits.append("Comparable")
    return traits


def _annotation_text(annotation: ast.Node) -> str:
    """A type annotation written back as source (after `nullable` rewrote parts of it)."""
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


def _parser(cls: str, diags: DiagnosticBag):
    return lambda text: _parse_generated(f"<class {cls}>", text, diags)


def _parse_generated(name: str, text: str, diags: DiagnosticBag) -> tuple:
    from .parser import parse  # (the parser imports this module's builder)

    return parse(SourceFile(name, text), diags).body
