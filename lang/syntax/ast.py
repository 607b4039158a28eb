"""The syntax tree: frozen dataclasses (`@syntax_node`), every node with the span it came from."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import field, fields, replace

from ..node_methods import NodeBase, fields_eq, fields_hash, syntax_node
from ..source import Span

# `match@sequence(x)`: whether x is a sequence a sequence pattern may match, written by syntax/match_stmt.py
# and read by semantics/match_patterns.py (here: a module without `match` imports neither)
SEQUENCE_TEST = "match@sequence"


@syntax_node
class Node(NodeBase):
    # value equality and hash, as `dataclass(frozen=True)` would give each class (node_methods.py)
    __eq__ = fields_eq
    __hash__ = fields_hash
    span: Span


# ---- expressions ----
@syntax_node
class Expr(Node):
    pass


@syntax_node
class Name(Expr):
    id: str


@syntax_node
class IntLit(Expr):
    value: int


@syntax_node
class FloatLit(Expr):
    value: float


@syntax_node
class StrLit(Expr):
    value: str


@syntax_node
class BoolLit(Expr):
    value: bool


@syntax_node
class NoneLit(Expr):
    pass


@syntax_node
class EllipsisLit(Expr):
    pass


@syntax_node
class ErrorExpr(Expr):
    """Stands in for a construct that was already reported, so checking goes on quietly."""


@syntax_node
class TupleExpr(Expr):
    elts: tuple[Expr, ...]


@syntax_node
class Starred(Expr):
    """`*rest` among a tuple's items: a starred assignment target (`first, *rest = xs`)."""

    value: Expr


@syntax_node
class SetExpr(Expr):
    """`{a, b}` (elts), or `{x for x in xs}` (comprehension, a list comprehension of its items): a
    Python set, the stdlib's `Set` (semantics/sets.py)."""

    elts: tuple[Expr, ...]
    comprehension: Expr | None = None


@syntax_node
class DictExpr(Expr):
    """`{k: v, ...}`: a Dict of the keys' and the values' types."""

    keys: tuple[Expr, ...]
    values: tuple[Expr, ...]


@syntax_node
class ListExpr(Expr):
    """`[a, b, c]`: a List of the elements' type."""

    elts: tuple[Expr, ...]


@syntax_node
class CompFor(Node):
    """A comprehension's `for target in iter` clause."""

    target: Expr
    iter: Expr


@syntax_node
class CompIf(Node):
    """A comprehension's `if test` clause."""

    test: Expr


@syntax_node
class Comprehension(Expr):
    """`[elt for ...]` (kind "list"), `{elt: value for ...}` ("dict"), `{elt for ...}` ("set") or
    `(elt for ...)` ("generator"); `clauses` are CompFor and CompIf, in source order (the first a
    CompFor). semantics/comprehensions.py checks them."""

    kind: str
    elt: Expr
    value: Expr | None
    clauses: tuple[Node, ...]


@syntax_node
class Unary(Expr):
    op: str  # "-", "+", "~", "not"
    operand: Expr


@syntax_node
class Transfer(Expr):
    """`x^`: the value of x, which x gives up (a move)."""

    value: Expr


@syntax_node
class Binary(Expr):
    op: str  # "+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@"
    left: Expr
    right: Expr


@syntax_node
class Compare(Expr):
    """`a < b <= c`: each operand evaluated once, stops at the first false link."""

    left: Expr
    ops: tuple[str, ...]
    comparators: tuple[Expr, ...]


@syntax_node
class BoolOp(Expr):
    op: str  # "and" | "or"
    values: tuple[Expr, ...]


@syntax_node
class IfExp(Expr):
    test: Expr
    body: Expr
    orelse: Expr


@syntax_node
class Lambda(Expr):
    """`lambda a, b: body`: a function value (semantics/closures.py), its parameters unannotated."""

    params: tuple[Param, ...]
    body: Expr


@syntax_node
class Keyword(Node):
    name: str
    value: Expr


@syntax_node
class Call(Expr):
    func: Expr
    args: tuple[Expr, ...]
    keywords: tuple[Keyword, ...]


@syntax_node
class Subscript(Expr):
    """`a[i]`, `f[T]`, `SIMD[DType.float32, 8]`: items are expressions or keywords."""

    value: Expr
    items: tuple[Node, ...]


@syntax_node
class Slice(Expr):
    """`start:stop:step` as an item of `x[...]` (Python's slice): a bound left out is None."""

    start: Expr | None
    stop: Expr | None
    step: Expr | None


@syntax_node
class Attribute(Expr):
    value: Expr
    attr: str


# ---- statements ----
@syntax_node
class Stmt(Node):
    pass


@syntax_node
class VarDecl(Stmt):
    """`var x: T = v` (explicit) or `x: T = v` (Python's annotated assignment)."""

    name: str
    name_span: Span
    annotation: Expr | None
    value: Expr | None
    explicit: bool


@syntax_node
class Comptime(Stmt):
    name: str
    name_span: Span
    annotation: Expr | None
    value: Expr


@syntax_node
class Assign(Stmt):
    """`a = b = v`: targets are assigned left to right after one evaluation of v."""

    targets: tuple[Expr, ...]
    value: Expr


@syntax_node
class AugAssign(Stmt):
    target: Expr
    op: str
    value: Expr


@syntax_node
class ExprStmt(Stmt):
    expr: Expr


@syntax_node
class Delete(Stmt):
    """`del a[i], d[k], xs[a:b]`: each target's `__delitem__`, left to right."""

    targets: tuple[Expr, ...]


@syntax_node
class Nonlocal(Stmt):
    """`nonlocal x, y` in a nested function: assignments to them change the enclosing function's
    variables (semantics/closures.py)."""

    names: tuple[str, ...]


@syntax_node
class Pass(Stmt):
    pass


@syntax_node
class Break(Stmt):
    pass


@syntax_node
class Continue(Stmt):
    pass


@syntax_node
class Return(Stmt):
    value: Expr | None


@syntax_node
class Yield(Stmt):
    """`yield value` (`value` None for a bare `yield`) or `yield from value` (`delegate`):
    a statement only, which makes its `def` a generator (semantics/generators.py)."""

    value: Expr | None
    delegate: bool = False


@syntax_node
class Assert(Stmt):
    test: Expr
    msg: Expr | None


@syntax_node
class If(Stmt):
    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@syntax_node
class ComptimeIf(Stmt):
    """`comptime if`: the condition is folded and only the branch taken is checked and compiled."""

    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@syntax_node
class ComptimeFor(Stmt):
    """`comptime for i in range(...)`: the body is unrolled once per value, i a constant in each."""

    target: Expr
    iter: Expr
    body: tuple[Stmt, ...]


@syntax_node
class While(Stmt):
    test: Expr
    body: tuple[Stmt, ...]


@syntax_node
class For(Stmt):
    target: Expr
    iter: Expr
    body: tuple[Stmt, ...]


@syntax_node
class Raise(Stmt):
    exc: Expr | None  # None: re-raise the exception being handled
    cause: Expr | None


@syntax_node
class Handler(Node):
    types: Expr | None  # None: a bare `except:`
    name: str | None
    body: tuple[Stmt, ...]


@syntax_node
class Try(Stmt):
    body: tuple[Stmt, ...]
    handlers: tuple[Handler, ...]
    orelse: tuple[Stmt, ...]
    finalbody: tuple[Stmt, ...]


@syntax_node
class Launch(Stmt):
    kernel: Expr
    config: tuple[Node, ...]
    args: tuple[Expr, ...]
    keywords: tuple[Keyword, ...]


# ---- declarations ----
@syntax_node
class Param(Node):
    name: str
    annotation: Expr | None
    default: Expr | None
    convention: str | None
    variadic: bool = False  # `*xs: T`: the remaining positional arguments, as one SIMD[T, n]


def variadic_count(name: str) -> str:
    """The hidden compile-time parameter holding how many arguments `*name` collected (no user
    code can spell it)."""
    return f"*{name}"


@syntax_node
class CtParam(Node):
    name: str
    annotation: Expr | None
    default: Expr | None


@syntax_node
class Decorator(Node):
    name: str
    args: tuple[Expr, ...]


@syntax_node
class FnDef(Stmt):
    kind: str  # "fn" | "def"
    name: str
    name_span: Span
    ct_params: tuple[CtParam, ...]
    params: tuple[Param, ...]
    raises: bool
    returns: Expr | None
    body: tuple[Stmt, ...]
    decorators: tuple[Decorator, ...] = field(default=())

    @property
    def is_generic(self) -> bool:
        """A `def` with an unannotated parameter gets one copy per call signature."""
        return bool(self.ct_params) or any(p.annotation is None and not (i == 0 and p.name == "self")
                                           for i, p in enumerate(self.params))

    @property
    def variadic(self) -> int | None:
        """The index of the `*xs` parameter, if there is one."""
        return next((i for i, p in enumerate(self.params) if p.variadic), None)

    @property
    def self_convention(self) -> str | None:
        """For a method: how it takes `self` ("" read-only, "mut", "out"); None for a static one."""
        if self.params and self.params[0].name == "self" and self.params[0].annotation is None:
            return self.params[0].convention or ""
        return None


@syntax_node
class FieldDecl(Node):
    name: str
    name_span: Span
    annotation: Expr


@syntax_node
class StructDef(Stmt):
    name: str
    name_span: Span
    ct_params: tuple[CtParam, ...]
    traits: tuple[Expr, ...]
    fields: tuple[FieldDecl, ...]
    methods: tuple[FnDef, ...]
    decorators: tuple[Decorator, ...] = field(default=())


@syntax_node
class TraitDef(Stmt):
    """`trait Shape:` with required methods (bodies `...`)."""

    name: str
    name_span: Span
    parents: tuple[Expr, ...]
    methods: tuple[FnDef, ...]


@syntax_node
class Import(Stmt):
    """`import m [as a]` (names empty) or `from m import x [as y], ...` (names: (x, y) pairs)."""

    module: str
    alias: str | None
    names: tuple[tuple[str, str], ...]
    from_import: bool


@syntax_node
class MainGuard(Stmt):
    """`if __name__ == "__main__": ...` at module level: its body runs in the program's main module
    only (a common-subset file runs under CPython too)."""

    body: tuple[Stmt, ...] = ()
    orelse: tuple[Stmt, ...] = ()  # `else:` of the guard: runs when the module is imported instead


@syntax_node
class Global(Stmt):
    """`global x, y`: in a function, `x` and `y` are the module-level variables (semantics/globals.py)."""

    names: tuple[str, ...]


@syntax_node
class Module(Node):
    name: str
    body: tuple[Stmt, ...]


# Per node class, the fields that can hold child nodes (all but its spans), in declaration order.
# Every pass that walks the tree goes through `children`, and `dataclasses.fields` rebuilt this
# list for each node: about a third of a small program's check pass went there.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    names = _CHILD_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name not in ("span", "name_span"))
    return names


def children(node: Node) -> Iterator[Node]:
    """The direct child nodes, in source order."""
    names = _CHILD_FIELDS.get(type(node))
    for name in names if names is not None else _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item


def transform(node, fn: Callable[[Node], Node | None], moved: dict[int, Node] | None = None):
    """`node` (a node, or a tuple of items) rebuilt bottom-up with each node replaced by `fn(node)`, called on
    the node with its children already rebuilt (None keeps it). The tree is copied only where something
    changed: an unchanged subtree is the same object. `moved`, if given, maps the id of each node replaced
    to its replacement. The one tree rewriter of the passes that write Python's classes, generators and
    calls out (generator objects, named tuples, inherited methods, autotuned calls)."""
    if isinstance(node, tuple):
        items = tuple(transform(x, fn, moved) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not isinstance(node, Node):
        return node
    changes = {}
    names = _CHILD_FIELDS.get(type(node))
    for name in names if names is not None else _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, (Node, tuple)):
            new_value = transform(value, fn, moved)
            if new_value is not value:
                changes[name] = new_value
    rebuilt = replace(node, **changes) if changes else node
    result = fn(rebuilt)
    result = rebuilt if result is None else result
    if moved is not None and result is not node:
        moved[id(node)] = result
    return result


def yields(stmts) -> bool:
    """Whether the statements `yield` (as a function body: a nested function's or lambda's yield is its own)."""
    stack: list[Node] = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, Yield):
            return True
        if isinstance(n, (FnDef, Lambda)):
            continue
        stack.extend(children(n))
    return False


def mentions(nodes, name: str) -> bool:
    """Whether the name `name` appears anywhere in `nodes` (nested functions included)."""
    stack: list[Node] = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, Name) and n.id == name:
            return True
        stack.extend(children(n))
    return False
