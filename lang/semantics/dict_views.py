"""Dict views and Python's one-shot iterators kept in a variable (docs/python-subset.md, "Views
and iterators").

CPython's `d.keys()`, `d.values()` and `d.items()` are live views, and `map`, `filter`,
`enumerate`, `zip` and `reversed` give lazy iterators that read their list as they go: `k =
d.keys()`, then `d[9] = 1`, and `k` shows the new key; `m = map(f, xs)`, then `xs.append(4)`, and
`list(m)` calls f on 4 too. pyx's views (stdlib/collections.px: DictKeysView, DictValuesView,
DictItems) hold the items as they were when taken, and `map` and `filter` a copy of the list
(stdlib/functional.px), while `enumerate`, `zip` and `reversed` borrow the list's memory, which
a change may reallocate. They agree with CPython unless the container changes in place while
a view or iterator taken from it is kept in a variable and used afterwards: that is E0290,
found by the sharing checker (semantics/sharing.py) as it finds the other changes Python would
show through a second name. One used where it is made (`for k in d.keys()`,
`sorted(d.items())`, `list(map(f, xs))`) is never kept, so it is never stale.

An iterator is also used up as it is walked: after `list(m)`, a second `list(m)` is `[]` in
CPython. A `for` loop (or a comprehension, `list`, `sum`, ...) over a variable holding one of
these iterators therefore walks the variable itself, not a copy of it (`consumes_in_place`).
"""
from __future__ import annotations

from ..syntax import ast
from ..types import Type
from .builtin_types import is_builtin

VIEWS = ("keys", "values", "items")
VIEW_TYPES = ("DictKeysView", "DictValuesView", "DictItems")
# The stdlib's structs for Python's iterators, which a walk uses up (Python's builtins that give them).
ITERATOR_TYPES = ("MapIterator", "FilterIterator", "Enumerate", "Zip2", "Zip3", "ReversedList", "ZipRows")
ITERATOR_BUILTINS = {"map": 1, "filter": 1, "enumerate": 0, "zip": 0, "reversed": 0}  # -> first iterable argument


def is_view(t: Type) -> bool:
    """A dict view or one of Python's iterators: what E0290 tracks when kept in a variable."""
    return any(is_builtin(t, name) for name in VIEW_TYPES + ITERATOR_TYPES)


def is_iterator(t: Type) -> bool:
    return any(is_builtin(t, name) for name in ITERATOR_TYPES)


def viewed_sources(value_ast: ast.Expr) -> list[ast.Expr]:
    """What a view or iterator reads, as written: `d` of `d.keys()`, `xs` and `ys` of `zip(xs, ys)`."""
    if not isinstance(value_ast, ast.Call):
        return []
    if value_ast.keywords and not (isinstance(value_ast.func, ast.Name) and value_ast.func.id == "enumerate"):
        return []  # (`enumerate(xs, start=1)` still reads xs)
    func = value_ast.func
    if isinstance(func, ast.Attribute) and func.attr in VIEWS and not value_ast.args:
        return [func.value]
    if isinstance(func, ast.Name) and func.id in ITERATOR_BUILTINS:
        return list(value_ast.args[ITERATOR_BUILTINS[func.id]:])
    return []


# Builtins that walk an iterable where they are called: an iterator passed to them is used up in
# the caller's variable, as in CPython (their loops are the compiler's own: comprehensions.py).
_WALKED_IN_PLACE = frozenset(("list", "set", "sum", "any", "all", "min", "max", "sorted", "enumerate", "zip",
                              "map", "filter", "dict", "tuple",
                              "print", "str", "repr", "len"))  # (these refuse an iterator themselves)


def passed_on(body, name: str) -> ast.Expr | None:
    """Where the variable `name`, holding an iterator, is passed to a function of the program or
    a method: that function walks a copy, while CPython's would use up the caller's iterator."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _WALKED_IN_PLACE) \
                and not (isinstance(node.func, ast.Attribute) and node.func.attr == "join"):  # (a loop of its own)
            for arg in (*node.args, *(k.value for k in node.keywords)):
                if isinstance(arg, ast.Name) and arg.id == name:
                    return arg
        stack.extend(ast.children(node))
    return None
