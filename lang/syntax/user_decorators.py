"""Decorators the program defines: `@logged` on a module-level `def`, where `logged` is a
module-level `def` of this module taking the function (docs/python-subset.md, "Decorators").

Python's

    @logged
    def square(n): ...

binds `square` to `logged(<the function>)`. pyx writes that out: the function under the name
`__pyx_undecorated_square`, and after it the module-level assignment
`square = logged(__pyx_undecorated_square)`, so every call of `square` (a recursive one too) goes
through what the decorator returned, as in Python. Stacked decorators apply from the innermost
out. What the decorator does is checked as any code is: a wrapper closure that calls the function
works, and so does one that keeps a dict of the enclosing decorator (a hand-written cache, in a
heap cell: semantics/function_values.py) once something says what the dict holds (E0287).

Left to E0134 (unknown decorator): a decorator called with arguments (`@retry(3)`), one that is
not such a `def`, and decorators on methods, nested functions and `fn`s.
"""
from __future__ import annotations

from dataclasses import replace

from . import ast

UNDECORATED = "__pyx_undecorated_"


def _decorators(items: tuple) -> set[str]:
    """The module-level `def`s that can decorate: one positional parameter, no decorators."""
    return {i.name for i in items if isinstance(i, ast.FnDef) and i.kind == "def" and not i.decorators
            and len(i.params) == 1 and i.params[0].default is None and not i.params[0].variadic}


def _applies(d: ast.Decorator, names: set[str]) -> bool:
    written = d.span.file.text[d.span.start:d.span.end].rstrip()
    return d.name in names and not d.args and not written.endswith(")")  # (`@make()` makes a decorator)


def expand_user_decorators(items: tuple) -> tuple:
    names = _decorators(items)
    if not names:
        return items
    out: list = []
    for item in items:
        if not (isinstance(item, ast.FnDef) and item.kind == "def" and item.decorators
                and all(_applies(d, names) for d in item.decorators)):
            out.append(item)
            continue
        inner = UNDECORATED + item.name
        out.append(replace(item, name=inner, decorators=()))
        value: ast.Expr = ast.Name(item.name_span, inner)
        for d in reversed(item.decorators):
            value = ast.Call(d.span, ast.Name(d.span, d.name), (value,), ())
        out.append(ast.Assign(item.span, (ast.Name(item.name_span, item.name),), value))
    return tuple(out)
