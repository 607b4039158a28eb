"""Python's sets on the standard library's `Set` (stdlib/set.px, CPython's own table, so sets
iterate and print in CPython's order). The checker turns each set form into calls of `Set`:

- `{a, b}`: `Set.of([a, b])`, the items added in order, as CPython's BUILD_SET adds them; with three
  or more constant items, `Set.of_constants([...])`, since CPython compiles those to a frozenset
  constant merged into a new set, which can lay the table out differently;
- `{f(x) for x in xs}`: `Set.of([f(x) for x in xs])` (SET_ADD in the loop's order);
- `set()`: an empty `Set` of the type its context gives (an annotation, or the first `add`:
  semantics/empty_literals.py); `set(s)` of a set: `s.copy()` (CPython merges, which can resize);
  `set(xs)`: `Set.of(list(xs))`, the items added in iteration order;
- `set[int]` / `Set[Int]` in annotations: the stdlib's `Set` (semantics/module.py binds it under
  `SET_LITERAL` for a module that uses any of these).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import ast
from ..types import ERROR
from .builtin_types import is_builtin
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

# Under these names (no source can spell them) a module sees the stdlib's Set and the functions
# that build one (semantics/module.py binds them for a module that uses a set form).
SET_LITERAL = "Set literal"
SET_OF = "set of items"
SET_OF_CONSTANTS = "set of constants"
HIDDEN = (("Set", SET_LITERAL), ("set_of", SET_OF), ("set_of_constants", SET_OF_CONSTANTS))


def _constant(e: ast.Expr) -> bool:
    """What CPython's compiler folds to a constant before it builds a set display."""
    if isinstance(e, (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit, ast.NoneLit)):
        return True
    if isinstance(e, ast.Unary) and e.op in ("-", "+", "~") and isinstance(e.operand, (ast.IntLit, ast.FloatLit)):
        return True
    return isinstance(e, ast.TupleExpr) and all(_constant(x) for x in e.elts)


def _set_call(span, builder: str, args: tuple[ast.Expr, ...]) -> ast.Call:
    return ast.Call(span, ast.Name(span, builder), args, ())


def set_display(chk: FunctionChecker, e: ast.SetExpr) -> TExpr:
    if e.comprehension is not None:
        return chk.exprs.expr(_set_call(e.span, SET_OF, (e.comprehension,)))
    builder = SET_OF_CONSTANTS if len(e.elts) >= 3 and all(_constant(x) for x in e.elts) else SET_OF
    return chk.exprs.expr(_set_call(e.span, builder, (ast.ListExpr(e.span, e.elts),)))


def set_call(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`set(...)` outside an assignment that gives it a type."""
    if e.keywords or len(e.args) > 1:
        chk.msg.error("E0204", e.span, func="set", expected="0 or 1", s="s", found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    if not e.args:
        chk.msg.error("E0287", e.span, kind="set", name="set()", example="s: set[int] = set()")
        return TConst(e.span, ERROR, None)
    arg = e.args[0]
    walked_by_list = (isinstance(arg, (ast.StrLit, ast.Comprehension))
                      or (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "range"))
    if not walked_by_list:  # a set is copied (as CPython's set_copy lays it out), a list's items added
        value = chk.exprs.expr(arg)
        if value.type == ERROR:
            return value
        if is_builtin(value.type, "Set"):
            return chk.structs.method_call(value, "copy", [], e.span) or TConst(e.span, ERROR, None)
        if is_builtin(value.type, "List"):
            return chk.exprs.expr(_set_call(e.span, SET_OF, (arg,)))
    # Anything else iterable (a range, a string, a generator expression): its items as `list()` walks them.
    return chk.exprs.expr(_set_call(e.span, SET_OF, (ast.Call(arg.span, ast.Name(arg.span, "list"), (arg,), ()),)))


def is_empty_set(value: ast.Expr) -> bool:
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "set"
            and not value.args and not value.keywords)
