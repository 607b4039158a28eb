"""Attributes typed from an unannotated value (`self.d = OrderedDict()`, `self.items = []` later
appended to, `self.head = None` later given a Node, `self.tokens = tokens` of an unannotated
parameter): typed as mypy types them, from the first assignment, and, where that is an empty
container or None, from the first later use that says what it holds.

The class expansion (syntax/classes.py) cannot read such a type off the source: it declares the
attribute with a *pending* annotation (syntax/pending_attributes.py), a name that records the
module, the class and the attribute, and whether the first value is None. While pending, the
attribute reads as `<error>` (which every use accepts silently), and the first assignment stays
in the body of `__init__`. The checker then resolves it from, in this order of checking:

- the first assignment itself, when its value is neither None nor an empty container: its type;
- for a first `None`: the first other value assigned (`self.head = node`): an Optional of its
  type (a class's own reference type, which may be None);
- for a first empty container: the first use of `self.x` that says what it holds, by the rules
  of empty local variables (semantics/empty_literals.py: `append`, `d[k] = v`, `add`, ...), or a
  whole container of that kind assigned to it.

The check goes on to its end (what it reports is dropped), and the whole program is checked again
from the start with the types found (`check_with_attribute_types`): a field's type changes every
function that reads it, and what was accepted silently meanwhile is then checked for real. Each
run resolves at least one attribute more (those whose uses needed another's type, the next run),
so a program is checked at most once per pending attribute plus once, and most in two runs. An
attribute nothing resolves is E0256 at its first value, saying which annotation to write. The
types found are kept from run to run as the types of the run that found them, and rebuilt in the
next run from the same declarations (`_rebuilt`).

What the runs found is an `AttributeTypes`, made by `check_with_attribute_types` for one check of
one program and handed to the run's ModuleLoader, which gives it to every module it collects
(`ModuleSymbols.attribute_types`): the checker reaches it through the module it checks, and a
pending attribute met in the check carries it (`PendingAttribute.types`). No process or context
state: two checks at once in one thread do not meet.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import DiagnosticBag
from ..syntax import ast
from ..syntax.pending_attributes import attribute_name, is_pending_annotation
from ..types import ERROR, StructType, Type


def _key(annotation: ast.Name) -> str:
    return annotation.id  # (it names the module, the class and the attribute: syntax/pending_attributes.py)


@dataclass
class AttributeTypes:
    found: dict = field(default_factory=dict)  # key -> the Type a run found
    new: dict = field(default_factory=dict)  # key -> the Type this run found (the next run has it)
    lost: set = field(default_factory=set)  # keys found whose type this run could not rebuild
    rebuilt: dict = field(default_factory=dict)  # key -> the Type in this run
    loader: object = None  # the run's ModuleLoader (run_once sets it)
    # Attribute name -> where this run first changed one in place, and the locals bound to such an
    # attribute that wait for the end of the check (semantics/object_containers.py).
    changed: dict = field(default_factory=dict)
    copies: list = field(default_factory=list)
    stores: list = field(default_factory=list)  # (`o.items = xs`, a later read of xs): object_containers.py


def check_with_attribute_types(module: ast.Module, diags, run_once):
    """run_once(attribute_types) checks the program with a ModuleLoader given attribute_types (and
    sets its `loader`); it is run again while a run finds a pending attribute's type, and what a
    run reported is dropped before the next."""
    state = AttributeTypes()
    while True:
        before = diags.snapshot()
        state.rebuilt, state.new, state.lost = {}, {}, set()
        state.changed, state.copies, state.stores = {}, [], []
        program = run_once(state)
        if state.new:
            diags.rewind(before)
            state.found.update(state.new)
            continue
        _report_unresolved(module, state, diags)
        from .object_containers import report

        report(state, diags)
        return program


def resolve_pending(annotation: ast.Name, symbols) -> Type:
    """The type of a pending annotation in this run: the one found, or `<error>` while pending
    (and outside a check with attribute types). symbols: the module the annotation is resolved in."""
    state = getattr(symbols, "attribute_types", None)
    if state is None:
        return ERROR
    key = _key(annotation)
    if key not in state.found:
        return ERROR
    if key not in state.rebuilt:
        state.rebuilt[key] = _rebuilt(state.found[key], state) or ERROR
        if state.rebuilt[key] == ERROR:
            state.lost.add(key)  # (E0256 at the end: never compiled with no type)
    return state.rebuilt[key]


def _rebuilt(t: Type, state: AttributeTypes) -> Type | None:
    """t (a type of an earlier run) in this run: the same declaration, the same arguments."""
    from .module import resolve_fields, struct_instance

    if not isinstance(t, StructType):
        return t
    decl = getattr(t.symbol, "decl", None)
    loader = state.loader
    if decl is None or loader is None:
        return None
    for module in getattr(loader, "modules", []):
        for sym in module.structs.values():
            # The same declaration (the main module's and the standard library's are kept from run
            # to run), or, for a module parsed again, the struct of that name in that module.
            if sym.decl is not decl and not (module.name == t.module and getattr(sym.decl, "name", None) == decl.name
                                             and sym.type is not None and sym.type.module == t.module):
                continue
            if not decl.ct_params:
                resolve_fields(sym, module, DiagnosticBag())
                return sym.type if sym.state == "done" else None
            args = []
            for p in decl.ct_params:
                value = t.ct_env.get(p.name)
                if isinstance(value, Type):
                    value = _rebuilt(value, state)
                    if value is None:
                        return None
                args.append(value)
            made = struct_instance(sym, tuple(args), sym.decl.name_span, module, DiagnosticBag(),
                                   module.lookup_constant)  # (valid in the run that found it: nothing to report)
            return None if made == ERROR else made
    return None  # (a type no module declares: a closure's, say)


# ---- the checker's side ----

@dataclass(frozen=True)
class PendingAttribute:
    """A pending attribute met in the check: its key, and its first value as written."""

    key: str
    cls: str
    attr: str
    first: ast.Expr
    types: AttributeTypes = field(compare=False, repr=False)  # where a type found for it is recorded


def pending_of(chk, base_type: Type, attr: str) -> PendingAttribute | None:
    """The pending attribute `attr` of class type base_type (None when it has a type)."""
    from .classes import data_type, is_class

    state = chk.module.attribute_types
    if state is None or not is_class(base_type):
        return None
    data = data_type(chk, base_type)
    decl = getattr(getattr(data, "symbol", None), "decl", None)
    if decl is None:
        return None
    annotation = next((f.annotation for f in decl.fields if f.name == attr), None)
    if not is_pending_annotation(annotation) or _key(annotation) in state.found:
        return None
    assert isinstance(annotation, ast.Name)
    cls, name = attribute_name(annotation)
    # (the class that declares it, whose methods assign it first: a subclass inherits the attribute)
    home = getattr(getattr(base_type, "symbol", None), "home", None) or chk.module
    declaring = home.structs.get(cls)
    first = _first_value(getattr(declaring, "decl", None), name)
    if first is None:
        return None
    return PendingAttribute(_key(annotation), cls, name, first, state)


def _first_value(handle: object, attr: str) -> ast.Expr | None:
    """The attribute's first value: its first assignment in `__init__`, else in the other
    methods in order (as syntax/classes.py declares attributes). handle: the class's StructDef."""
    from ..syntax.classes import attribute_assigns

    methods = list(getattr(handle, "methods", ()))
    methods.sort(key=lambda m: m.name != "__init__")
    for method in methods:
        for target, assign in attribute_assigns(method.body, []):
            if target.attr == attr:
                return assign.value
    return None


def is_first(pending: PendingAttribute, value_node: ast.Expr) -> bool:
    """Whether value_node is the attribute's first value (by place: the class expansion may
    rebuild the statement, a subclass's copy of a method holds the same text)."""
    a, b = pending.first.span, value_node.span
    return a.file is b.file and a.start == b.start and a.end == b.end


def is_empty_first(pending: PendingAttribute) -> bool:
    from .empty_literals import is_empty_literal

    return is_empty_literal(pending.first)


def resolve(pending: PendingAttribute, t: Type) -> None:
    """Record t for the attribute (the first use that says, in the order checked), for the next
    run (not a type that tells nothing)."""
    if t != ERROR:
        pending.types.new.setdefault(pending.key, t)


def assigned(chk, pending: PendingAttribute, value_node: ast.Expr, value) -> None:
    """`obj.x = v` to a pending attribute (value: v checked, `<error>` while v itself is pending)."""
    from . import empty_literals
    from .builtin_types import is_builtin

    first = pending.first
    if value.type == ERROR:
        return
    if isinstance(first, ast.NoneLit):
        if is_first(pending, value_node) or isinstance(value_node, ast.NoneLit):
            return
        resolve(pending, chk.empties.optional_of(value.type, first))
    elif is_empty_first(pending):
        if is_builtin(value.type, empty_literals._kind(first)):  # a whole container of that kind
            resolve(pending, value.type)
    elif is_first(pending, value_node):
        from ..types import default_type

        # (an object's value before `__init__` assigns it is None: `object_start`)
        resolve(pending, chk.exprs.string_or(default_type(value.type)))


def object_start(chk, func: ast.Subscript, e: ast.Call):
    """`__pyx_zero[T]()`, the value an attribute typed by the checker holds before `__init__`
    assigns it (syntax/pending_attributes.py), where T turned out to be a class (`self.p =
    origin()`): None, the null handle, as for an attribute annotated with a class, not `T()`, a
    new object (its `__init__` may take arguments). None (no value) for any other call."""
    from ..syntax.classes import ZERO_FN
    from .classes import is_class, none_value

    if not (isinstance(func.value, ast.Name) and func.value.id == ZERO_FN and len(func.items) == 1
            and is_pending_annotation(func.items[0]) and not e.args and not e.keywords):
        return None
    t = chk.resolve_type(func.items[0])
    return none_value(chk, t, e.span) if is_class(t) else None


def _report_unresolved(module: ast.Module, state: AttributeTypes, diags) -> None:
    """E0256 for each attribute still pending after the whole check, at its first value (in every
    module of the program: an imported module's class too)."""
    seen = set()
    decls = [item for item in module.body if isinstance(item, ast.StructDef)]
    for each in getattr(state.loader, "modules", []):
        decls += [sym.decl for sym in each.structs.values() if isinstance(sym.decl, ast.StructDef)]
    handles = {(d.span.file.name, d.name): d for d in decls}
    for item in decls:
        for f in item.fields:
            if is_pending_annotation(f.annotation) and _key(f.annotation) not in seen \
                    and (_key(f.annotation) not in state.found or _key(f.annotation) in state.lost):
                seen.add(_key(f.annotation))
                cls, attr = attribute_name(f.annotation)
                first = _first_value(handles.get((item.span.file.name, cls)), attr)
                diags.error("E0256", first.span if first is not None else f.annotation.span,
                            _why_unresolved(first, attr), name=attr, cls=cls)


def _why_unresolved(first: ast.Expr | None, attr: str) -> tuple:
    """A note saying why nothing typed the attribute."""
    from ..diagnostics import Note
    from .empty_literals import is_empty_literal

    if first is None:
        return ()
    if isinstance(first, ast.NoneLit):
        return (Note(f"pyx types it from the first value assigned to `self.{attr}` after None, and no "
                     "other value is assigned to it in the program"),)
    if is_empty_literal(first):
        return (Note(f"pyx types an empty container from the first use of `self.{attr}` that says "
                     f"what it holds (`self.{attr}.append(v)`, `self.{attr}[k] = v`, `.add(v)`, ...), "
                     "and the program has none"),)
    return (Note("pyx types it from this first value, whose type is not known here (an object "
                 "passed through a parameter no annotation or call types, or a value never checked)"),)
