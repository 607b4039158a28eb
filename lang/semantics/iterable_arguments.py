"""Methods whose container parameter takes any iterable, as Python's do.

Python's `list.extend`, `set.update`, `set.union`, `set.issubset`, ... take any iterable: a
generator, a tuple, a range, a list where a set is wanted. The stdlib writes each once, for its
own container (`fn update(mut self, other: Set[T])`), and marks it `@iterable_arguments`; an
argument that is not that container is converted first, as `list(arg)` / `set(arg)` would, which
iterates it in order as Python's method does (semantics/calls.py `user_call`).

A set method with another path in CPython for a non-set iterable (adding or discarding one
item at a time, where a set argument is merged: the order the result prints in depends on it)
names its variant for that path (`@iterable_arguments("_update_items")`): the call goes to the
variant with `list(arg)` (`redirect`). A dict argument is left alone (CPython merges it as it
merges a set), as is any argument whose kind is not known before it is checked.

One case would differ: a generator or lazy iterator that reads the receiver while the method
changes it (`xs.extend(x for x in xs)` never ends in CPython; `s.update(x + 1 for x in s)`
raises RuntimeError). pyx refuses it (E0199), advising to build the items first.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR, Type
from .builtin_types import is_builtin
from .slicing import is_slicing
from .strformat import Checked

if TYPE_CHECKING:
    from .check import FunctionChecker

MARKER = "iterable_arguments"  # the stdlib decorator (stdlib/collections.px, stdlib/set.px)


def marked(decl: ast.FnDef) -> bool:
    return any(d.name == MARKER for d in decl.decorators)


LAZY = ("map", "filter", "zip", "enumerate", "iter")  # iterators reading their arguments as they go


def reads_receiver_lazily(call: ast.Call, arg: ast.Expr) -> bool:
    """Whether `arg` of a marked method's `call` is a generator or a lazy iterator that reads the
    receiver while the method runs (`xs.extend(f(x) for x in xs)`)."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    while isinstance(receiver, (ast.Attribute, ast.Subscript)):
        receiver = receiver.value
    if not isinstance(receiver, ast.Name):
        return False
    lazy = (isinstance(arg, ast.Comprehension) and arg.kind == "generator") \
        or (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in LAZY)
    return lazy and _reads(arg, receiver.id)


def _reads(node: ast.Node, name: str) -> bool:
    """Whether `name` appears in `node` other than sliced (`xs[:2]` is a new list, made first)."""
    stack: list[ast.Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Subscript) and is_slicing(n):
            stack.extend(i for i in n.items if isinstance(i, ast.Node))  # (the bounds are read, not xs)
            continue
        if isinstance(n, ast.Name) and n.id == name:
            return True
        stack.extend(ast.children(n))
    return False


def converted(chk: FunctionChecker, arg: ast.Expr, declared: Type):
    """The argument as the container `declared` is (a List or a Set): itself when it already is
    one, else `list(arg)` / `set(arg)`. None where `declared` is neither."""
    maker = "list" if is_builtin(declared, "List") else "set" if is_builtin(declared, "Set") else None
    if maker is None:
        return None
    if isinstance(arg, (ast.ListExpr, ast.SetExpr)) and isinstance(arg, ast.ListExpr) == (maker == "list"):
        return None  # a literal of the container itself: checked as usual
    if isinstance(arg, (ast.Name, ast.Attribute)):
        value = chk.exprs.expr(arg)  # (a name or a field reads nothing else: checked again below if need be)
        if value.type == declared or value.type == ERROR:
            return value
    elif maker == "list" and not isinstance(arg, ast.Comprehension):
        # `sep.join(f())`, `xs.extend(t)`: checked once; listed only where it is not a List already
        # (`"".join(sorted(w))` is not copied first)
        value = chk.exprs.expr(arg)
        if value.type == declared or value.type == ERROR:
            return value
        arg = Checked(arg.span, value)
    return chk.exprs.expr(ast.Call(arg.span, ast.Name(arg.span, maker), (arg,), ()))


BUILDERS = ("range", "zip", "enumerate", "map", "filter", "reversed", "sorted", "list", "tuple")
LIST_METHODS = ("split", "rsplit", "splitlines", "keys", "values", "items")


def variant(decl: ast.FnDef) -> str | None:
    """The method a marked method names for non-set iterables (`@iterable_arguments("_x")`)."""
    for d in decl.decorators:
        if d.name == MARKER and d.args and isinstance(d.args[0], ast.StrLit):
            return d.args[0].value
    return None


def _iterable_not_set(chk: FunctionChecker, arg: ast.Expr) -> bool:
    """Whether `arg` is known to be an iterable other than a set or a dict."""
    if isinstance(arg, (ast.ListExpr, ast.TupleExpr)):
        return True
    if isinstance(arg, ast.Comprehension):
        return arg.kind in ("generator", "list")
    if isinstance(arg, ast.Call):
        if isinstance(arg.func, ast.Name):
            return arg.func.id in BUILDERS
        return isinstance(arg.func, ast.Attribute) and arg.func.attr in LIST_METHODS
    if isinstance(arg, (ast.Name, ast.Attribute)):
        t = chk.exprs.expr(arg).type  # (a name or a field: nothing runs twice)
        return t != ERROR and not is_builtin(t, "Set") and not is_builtin(t, "Dict")
    return False


def redirect(chk: FunctionChecker, decl: ast.FnDef, call: ast.Call, owner) -> tuple | None:
    """(the variant's declaration, the call to it with `list(arg)`) for a marked set method called
    with a non-set iterable; None otherwise."""
    name = variant(decl)
    if name is None or owner is None or len(call.args) != 1 or call.keywords \
            or not _iterable_not_set(chk, call.args[0]):
        return None
    methods = chk.structs.struct_of(owner).methods
    if name not in methods:
        return None
    a = call.args[0]
    items = ast.Call(a.span, ast.Name(a.span, "list"), (a,), ())
    return methods[name], ast.Call(call.span, call.func, (items,), ())
