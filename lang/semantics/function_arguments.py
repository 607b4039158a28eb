"""Python's builtins and methods passed as function values (`map(sum, grid)`, `accumulate(xs, max)`,
`starmap(pow, pairs)`, `map(str.upper, words)`, `sorted(xs, key=str.lower)`, `map(math.sqrt, xs)`): in pyx a builtin
is no value of its own (most are generic, or several functions under one name), so where a call
passes one to a function that calls it, the argument becomes the lambda the callee's calls mean,
with as many parameters as the callee gives it: `lambda a, b: max(a, b)` for `accumulate`,
`lambda x: x.upper()` for `str.upper` in `map`. That lambda is then checked as any other, so
`map(sum, grid)` of a list of lists is `sum` of each row, with Python's result.

Done on the call's syntax before the call is checked (from `ExpressionChecker.expr_Call`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import ast
from .imports import is_stdlib_file
from .rules import BUILTIN_FUNCTIONS

if TYPE_CHECKING:
    from .check import FunctionChecker

# The types whose methods may be named on the type (`str.upper`): the receiver is the first argument.
_METHOD_TYPES = frozenset({"str", "list", "dict", "set", "int", "float"})

# Functions that call a function argument, by name: where it is (a position, or a keyword) and
# how many arguments they give it (`None`: one per iterable after it, as `map`'s). (`starmap`'s is
# the length of its tuples: semantics/itertools_calls.py.)
_CALLERS: dict[str, tuple[int | str, int | None]] = {
    "map": (0, None),
    "filter": (0, 1),
    "filterfalse": (0, 1),
    "takewhile": (0, 1),
    "dropwhile": (0, 1),
    "reduce": (0, 2),
    "accumulate": (1, 2),
}
_KEYED = ("key",)  # `sorted(xs, key=len)`, `groupby(xs, key=...)`, `xs.sort(key=str.lower)`: one argument


def _callee_name(func: ast.Expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def builtin_named(chk: FunctionChecker, e: ast.Expr) -> bool:
    """Whether `e` names one of Python's builtins or a standard library function (not a name the
    program binds), or a method on its type (`str.upper`)."""
    if isinstance(e, ast.Attribute) and chk.structs.module_of(e.value) == "math":
        return True  # `map(math.sqrt, xs)`
    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in _METHOD_TYPES:
        return chk.scopes.lookup(e.value.id) is None and e.value.id not in chk.module.functions \
            and e.value.id not in chk.module.structs
    if not isinstance(e, ast.Name) or chk.scopes.lookup(e.id) is not None:
        return False
    if e.id in chk.module.imported:
        return chk.module.imported[e.id][0] == "math"  # `from math import sqrt`
    decl = chk.module.functions.get(e.id)
    if decl is not None:
        return is_stdlib_file(decl.span.file.name) and decl.name not in ("print",)
    return e.id in BUILTIN_FUNCTIONS and e.id not in ("print", "range", "normalize_index")


def _kept(e: ast.Expr, arity: int) -> bool:
    """`len`, `str`, ... of one argument are values already (closures.BUILTIN_VALUES)."""
    from .closures import BUILTIN_VALUES

    return arity == 1 and isinstance(e, ast.Name) and e.id in BUILTIN_VALUES


def as_lambda(e: ast.Expr, arity: int) -> ast.Lambda:
    """`max` as `lambda $f0, $f1: max($f0, $f1)`; `str.upper` as `lambda $f0: $f0.upper()`."""
    sp = e.span
    params = tuple(ast.Param(sp, f"$f{k}", None, None, None) for k in range(arity))
    args = tuple(ast.Name(sp, p.name) for p in params)
    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in _METHOD_TYPES:
        body: ast.Expr = ast.Call(sp, ast.Attribute(sp, args[0], e.attr), args[1:], ())
    else:
        body = ast.Call(sp, e, args, ())
    return ast.Lambda(sp, params, body)


def rewrite(chk: FunctionChecker, e: ast.Call) -> ast.Call:
    """The call with each builtin it passes to a function that calls it written as a lambda; the
    call itself where there is none."""
    name = _callee_name(e.func)
    args = list(e.args)
    changed = False
    where = _CALLERS.get(name) if name is not None else None
    if where is not None and isinstance(where[0], int) and where[0] < len(args) \
            and builtin_named(chk, args[where[0]]):
        arity = where[1] if where[1] is not None else len(args) - 1 - where[0]
        if arity >= 1 and not _kept(args[where[0]], arity):
            args[where[0]] = as_lambda(args[where[0]], arity)
            changed = True
    keywords = list(e.keywords)
    for k, kw in enumerate(keywords):
        if kw.name in _KEYED and builtin_named(chk, kw.value) and not _kept(kw.value, 1):
            keywords[k] = ast.Keyword(kw.span, kw.name, as_lambda(kw.value, 1))
            changed = True
    return ast.Call(e.span, e.func, tuple(args), tuple(keywords)) if changed else e
