"""Format specs with nested fields: `f"{x:<{w}}"`, `f"{x:{w}.{p}f}"`, `"{:>{}}".format(s, w)`.

A constant spec becomes `format(x, "spec")`, checked when compiling. A spec with `{...}` inside
is text only the run knows: it becomes the concatenation of its text and of each nested field's
value (Python formats a nested field as any field, `format(w, "")` being `str(w)`), passed to
the stdlib's `format_at_run_time` (stdlib/format_spec.py), which raises CPython's ValueError for
a spec the value's type rejects. The checker binds that function under `NESTED_FORMAT`, a name no
source can spell, in a module that uses it (semantics/module.py)."""
from __future__ import annotations

from ..source import Span
from . import ast

NESTED_FORMAT = "format at run time"


def spec_text(pieces: list[ast.Expr], span: Span) -> ast.Expr:
    """The spec's pieces (text literals and nested fields' values) joined with `+`, a str."""
    out: ast.Expr = ast.Call(span, ast.Name(span, "str"), (pieces[0],), ()) if isinstance(pieces[0], ast.StrLit) \
        else pieces[0]
    for piece in pieces[1:]:
        out = ast.Binary(span, "+", out, piece)
    return out


def formatted(value: ast.Expr, spec: ast.Expr, span: Span) -> ast.Expr:
    """`format_at_run_time(value, spec)`: the field's text."""
    return ast.Call(value.span, ast.Name(span, NESTED_FORMAT), (value, spec), ())
