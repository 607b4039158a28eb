"""`for ... else` and `while ... else`, as Python runs them: the `else` block runs when the loop
ends because its condition is false or its iterable is exhausted, not when a `break` left it.

The builder rewrites such a loop into plain statements the later stages already know:

    var <flag> = True            # "the loop ended without `break`"
    for x in xs:                 # each `break` of this loop (not of a loop nested in it)
        ...                      # becomes `<flag> = False; break`
    if <flag>:
        <else block>

`continue`, `return` and exceptions need nothing: `continue` goes on with the loop, `return`
and an exception leave the function, skipping the `else` as in Python. The flag's name is no
identifier (`loop-else@L:C`), so it can never meet a name of the program.
"""
from __future__ import annotations

import dataclasses

from ..source import Span
from . import ast

# Statements that start a scope of their own for `break`: a `break` inside them is not ours.
_OWN_BREAKS = (ast.While, ast.For, ast.ComptimeFor, ast.FnDef, ast.StructDef, ast.TraitDef)


def with_else(loop: ast.While | ast.For, orelse: tuple[ast.Stmt, ...], span: Span) -> list[ast.Stmt]:
    """The statements that run `loop` with `orelse` as its `else` block (in the builder's list
    form: a rule that returns a list puts its statements into the enclosing block)."""
    flag = f"loop-else@{span.line}:{span.col}"
    body = _mark_breaks(loop.body, flag, span)
    return [
        ast.VarDecl(span, flag, span, None, ast.BoolLit(span, True), True),
        dataclasses.replace(loop, body=body),
        ast.If(span, ast.Name(span, flag), orelse, ()),
    ]


def _mark_breaks(stmts: tuple[ast.Stmt, ...], flag: str, span: Span) -> tuple[ast.Stmt, ...]:
    out: list[ast.Stmt] = []
    for s in stmts:
        if isinstance(s, ast.Break):
            out.append(ast.Assign(s.span, (ast.Name(s.span, flag),), ast.BoolLit(s.span, False)))
            out.append(s)
        elif isinstance(s, _OWN_BREAKS):
            out.append(s)
        else:
            out.append(_mark_in_blocks(s, flag, span))  # type: ignore[arg-type]  # a Stmt stays one
    return tuple(out)


def _mark_in_blocks(node: ast.Node, flag: str, span: Span) -> ast.Node:
    """`node` with the breaks in its blocks (fields that hold statements, and the handlers of a
    `try`) marked; any statement kind with blocks, present or future, is walked the same way."""
    changes: dict[str, tuple] = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple) and value and all(isinstance(v, ast.Stmt) for v in value):
            changes[f.name] = _mark_breaks(value, flag, span)
        elif isinstance(value, tuple) and value and all(isinstance(v, ast.Handler) for v in value):
            changes[f.name] = tuple(_mark_in_blocks(h, flag, span) for h in value)
    return dataclasses.replace(node, **changes) if changes else node  # type: ignore[arg-type]
