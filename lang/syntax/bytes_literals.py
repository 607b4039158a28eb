"""`b"..."` literals: Python's bytes, built by the standard library's `bytes` (stdlib/pybytes.px).

A bytes literal (and adjacent ones, `b"a" b"b"`, joined as Python joins them) becomes a call of
`_bytes_literal` with the bytes written as hex digits: a StringLiteral is a C string, and a bytes
literal may hold a NUL or any byte above 127. The call's name is one no source can spell, bound by
semantics/module.py for a module that uses one, so a program's own `bytes` cannot capture it.
Python's rules for the text itself (escapes, `rb"..."` raw, ASCII only) are Python's own
`ast.literal_eval`'s; mixing bytes and str literals is Python's SyntaxError, E0004 here.
"""
from __future__ import annotations

import ast as pyast
import warnings

from . import ast

BYTES_LITERAL = "bytes literal"  # stdlib/pybytes.px `_bytes_literal`, under a name no source spells


def is_bytes_token(text: str) -> bool:
    return text[:1] in "bB" or text[:2].lower() in ("rb", "br")


def bytes_literal(span, pieces, error) -> ast.Expr:
    """The literal made of `pieces` ((token text or None for an f-string, its span)); `error(span,
    detail)` reports E0004 and the result is an ErrorExpr."""
    value = b""
    for text, where in pieces:
        if text is None or not is_bytes_token(text):
            error(span, "cannot mix bytes and nonbytes literals")
            return ast.ErrorExpr(span)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # '\d' keeps its backslash, as in Python
                value += pyast.literal_eval(text)
        except (ValueError, SyntaxError) as exc:
            error(where, str(exc))
            return ast.ErrorExpr(span)
    return ast.Call(span, ast.Name(span, BYTES_LITERAL), (ast.StrLit(span, value.hex()),), ())
