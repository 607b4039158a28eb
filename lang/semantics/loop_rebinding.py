"""A `for` loop binding a name the function used before for a value of another type:

    for v in [0, 1, -1]:
        print(f"{v:>4}")
    for k, v in prices.items():    # v: a float now
        print(k, v)

Python lets each binding hold any type; a pyx variable has one. When nothing reads the name
after the loop (nor, in an enclosing loop, before it: the next iteration would read what this
loop left), and no nested function or lambda names it, the earlier values can never be seen
again from here on, so the loop's binding gets a variable of its own (check.py `assign_target`),
as `_` does (semantics/discard.py). Otherwise the loop's binding stays a type error (E0201).
"""
from __future__ import annotations

from ..syntax import ast
from .per_declaration import PerDeclaration

# For each function: the `for` statement of each name node bound by one (by the node's id),
# and the function's statements and loops, for the test below.
_TARGETS: PerDeclaration[dict[int, ast.For]] = PerDeclaration()


def _loop_targets(decl: ast.FnDef) -> dict[int, ast.For]:
    found = _TARGETS.get(decl)
    if found is not None:
        return found
    out: dict[int, ast.For] = {}
    stack: list[ast.Node] = list(decl.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            continue
        if isinstance(n, ast.For):
            names: list[ast.Node] = [n.target]
            while names:
                t = names.pop()
                if isinstance(t, ast.Name):
                    out[id(t)] = n
                elif isinstance(t, (ast.TupleExpr, ast.ListExpr)):
                    names.extend(t.elts)
        stack.extend(ast.children(n))
    return _TARGETS.put(decl, out)


def rebinds_unobserved(decl: ast.FnDef, target: ast.Name) -> bool:
    """Whether `target`, a name a `for` statement of `decl` binds, may get a variable of its own:
    the name is not read after that loop, nor anywhere in a loop around it outside it, nor by a
    nested function or lambda, nor declared `global`/`nonlocal`."""
    loop = _loop_targets(decl).get(id(target))
    if loop is None:
        return False
    name = target.id
    outermost = None  # the outermost loop around `loop`, whose next iteration runs code before it again
    stack: list[tuple[ast.Node, ast.Node | None]] = [(s, None) for s in decl.body]
    while stack:
        n, around = stack.pop()
        if n is loop:
            outermost = around
            continue  # its own body reads the loop's new variable
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            if ast.mentions([n], name):
                return False
            continue
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in getattr(n, "names", ()):
            return False
        if isinstance(n, ast.Name) and n.id == name and n.span.start >= loop.span.end:
            return False
        if isinstance(n, ast.For) and _binds(n.target, name) and n.span.start >= loop.span.end:
            stack.append((n.iter, around))  # a later loop binding it afresh: its body reads its own
            continue
        inner = around if around is not None or not isinstance(n, (ast.For, ast.While)) else n
        stack.extend((c, inner) for c in ast.children(n))
    return outermost is None or not _mentioned_outside(outermost, loop, name)


def _binds(target: ast.Node, name: str) -> bool:
    if isinstance(target, ast.Name):
        return target.id == name
    if isinstance(target, (ast.TupleExpr, ast.ListExpr)):
        return any(_binds(t, name) for t in target.elts)
    return False


def _mentioned_outside(outer: ast.Node, loop: ast.For, name: str) -> bool:
    stack: list[ast.Node] = [outer]
    while stack:
        n = stack.pop()
        if n is loop:
            continue
        if isinstance(n, ast.Name) and n.id == name:
            return True
        stack.extend(ast.children(n))
    return False
