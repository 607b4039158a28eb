"""String annotations (`x: "Node"`, `-> "Tree | None"`, `list["Node"]`): Python's forward
references, which PEP 563's `from __future__ import annotations` makes of every annotation.

pyx knows every type of a file wherever it is used, so a string annotation is only the type
written inside quotes: the text is parsed as an expression where it stands (its nodes keep the
places of the characters inside the quotes, so a diagnostic about the type points into the
string) and used in the string's place. A string with escapes or a prefix (`r"..."`) is not
rewritten (E0002 when it is resolved as a type, semantics/module.py).
"""
from __future__ import annotations

import dataclasses

from ..source import SourceFile, Span
from . import ast

# `from __future__ import ...` features: each is the behaviour of every Python 3 pyx follows, or
# (annotations) makes annotations strings, which pyx reads as the types they spell.
FUTURE_FEATURES = frozenset({"annotations", "division", "absolute_import", "print_function", "generator_stop",
                             "unicode_literals", "nested_scopes", "generators", "with_statement"})


def is_future_import(item: ast.Import) -> bool:
    """`from __future__ import annotations` (and the other features): nothing to do."""
    return item.from_import and item.module == "__future__" and all(n in FUTURE_FEATURES for n, _ in item.names)


def annotation(expr, source: SourceFile):
    """The annotation `expr` with each string in it (the whole, or an item of `list["Node"]`, a
    side of `"A" | None`) replaced by the type it spells."""
    if expr is None or not isinstance(expr, ast.Expr):
        return expr
    if isinstance(expr, ast.StrLit):
        return _parsed(expr, source) or expr
    if isinstance(expr, ast.Subscript):
        items = tuple(annotation(x, source) for x in expr.items)
        value = annotation(expr.value, source)
        return expr if value is expr.value and all(a is b for a, b in zip(items, expr.items, strict=True)) \
            else dataclasses.replace(expr, value=value, items=items)
    if isinstance(expr, ast.Binary) and expr.op == "|":
        left, right = annotation(expr.left, source), annotation(expr.right, source)
        return expr if left is expr.left and right is expr.right else dataclasses.replace(expr, left=left, right=right)
    return expr


def _parsed(lit: ast.StrLit, source: SourceFile) -> ast.Expr | None:
    from lark.exceptions import LarkError
    from lark.indenter import DedentError

    from .build_ast import build
    from .parser import FStringError, parse_tree

    text = source.text
    raw = text[lit.span.start:lit.span.end]
    quote = next((q for q in ('"""', "'''", '"', "'") if raw.startswith(q) and raw.endswith(q)), None)
    if quote is None or raw[len(quote):len(raw) - len(quote)] != lit.value or not lit.value.strip() \
            or "\n" in lit.value:
        return None
    start = lit.span.start + len(quote)
    line_start = text.rfind("\n", 0, start) + 1
    if start - line_start < 3:
        return None
    # The same offsets as in the file: every earlier line blank, then `_=(` and the type where
    # the string's characters are, so the nodes' spans are the file's.
    blank = "".join("\n" if c == "\n" else " " for c in text[:line_start])
    synthetic = blank + "_=(" + " " * (start - line_start - 3) + lit.value + ")\n"
    try:
        tree = parse_tree(synthetic)
    except (LarkError, DedentError, FStringError):  # (not a type: E0002 where it is resolved, as before)
        return None
    from ..diagnostics import DiagnosticBag

    bag = DiagnosticBag()
    body = build(tree, SourceFile(source.name, synthetic), bag)
    if bag.items or len(body) != 1 or not isinstance(body[0], ast.Assign):
        return None
    return _respanned(body[0].value, source)


def _respanned(node, source: SourceFile):
    """node with every span in it pointing into `source` (the same offsets)."""
    if isinstance(node, Span):
        return Span(source, node.start, node.end)
    if isinstance(node, tuple):
        return tuple(_respanned(x, source) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.replace(node, **{f.name: _respanned(getattr(node, f.name), source)
                                            for f in dataclasses.fields(node) if f.init})
    return node
