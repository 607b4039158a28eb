"""`_`, the name Python code binds for values nobody reads (`for _ in range(n)`, `for _, p in
pairs`, `_ = f()`). Python lets each binding hold any type; a pyx variable has one. In a
function that never reads `_`, no binding of it can be observed, so each binding of another
type gets a variable of its own instead of a type error (check.py `assign_target`)."""
from __future__ import annotations

from ..syntax import ast

DISCARD = "_"


def reads_discard(body: tuple[ast.Node, ...]) -> bool:
    """Whether `_` is read anywhere in `body` (nested functions and comprehensions included):
    every `Name("_")` that is not a binding target is a read; `_ += 1` reads it too."""
    bound: set[int] = set()
    stack: list[ast.Node] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Assign):
            for t in n.targets:
                _mark_targets(t, bound)
        elif isinstance(n, (ast.For, ast.CompFor)):
            _mark_targets(n.target, bound)
        elif isinstance(n, ast.Name) and n.id == DISCARD and id(n) not in bound:
            return True
        stack.extend(ast.children(n))
    return False


def _mark_targets(target: ast.Node, bound: set[int]) -> None:
    if isinstance(target, ast.Name):
        bound.add(id(target))
    elif isinstance(target, (ast.TupleExpr, ast.ListExpr)):
        for item in target.elts:
            _mark_targets(item, bound)
