"""Unpacking a list or a str into several targets, and starred targets (issue 17):
`name, age = line.split()`, `x, y = [1, 2]`, `a, b = "xy"`, `first, *rest = xs`,
`*init, last = t`.

A tuple's length is part of its type, so `a, b = t` is checked when compiling (semantics/
tuples.py). A list's or a str's is known only when the program runs: the value is held in a
variable, its length compared with the targets' (CPython's ValueError and message when they
differ: "not enough values to unpack (expected 2, got 1)", "too many values to unpack (expected
2)", "... (expected at least 2, got 1)" with a starred target), then each target is assigned its
item from the left, the starred one a list of the items between (Python's is always a list, of
a str's characters too). The statements are written as Python and checked as any other, so the
targets may be names, attributes or items.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..source import Span
from ..syntax import ast
from ..types import ERROR, TupleType
from .builtin_types import is_builtin
from .imports import is_string
from .typed import TBlock, TExpr, TLocal, TStmt

if TYPE_CHECKING:
    from .check import FunctionChecker


def _str(span: Span, text: str) -> ast.StrLit:
    return ast.StrLit(span, text)


def _call(span: Span, name: str, *args: ast.Expr) -> ast.Call:
    return ast.Call(span, ast.Name(span, name), tuple(args), ())


def _raise(span: Span, *pieces: ast.Expr) -> ast.Raise:
    message: ast.Expr = pieces[0]
    for piece in pieces[1:]:
        message = ast.Binary(span, "+", message, piece)
    return ast.Raise(span, _call(span, "ValueError", message), None)


def unpack_sequence(chk: FunctionChecker, targets: ast.TupleExpr, hold: TExpr, span: Span) -> TStmt | None:
    """The statements assigning `targets` from the list, str or tuple `hold` (a variable), or
    None after an error."""
    t = hold.type
    elts = targets.elts
    stars = [k for k, x in enumerate(elts) if isinstance(x, ast.Starred)]
    if len(stars) > 1:
        chk.msg.error("E0001", elts[stars[1]].span, detail="multiple starred expressions in assignment")
        return None
    star = stars[0] if stars else None
    if any(isinstance(x, ast.TupleExpr) for x in elts):
        chk.msg.error("E0007", targets.span, construct="a nested target in unpacking a list or with `*`")
        return None
    starred = elts[star] if star is not None else None
    if isinstance(starred, ast.Starred) and not isinstance(starred.value, (ast.Name, ast.Attribute, ast.Subscript)):
        chk.msg.error("E0108", starred.span)
        return None
    if isinstance(t, TupleType):
        return _from_tuple(chk, targets, hold, star, span)
    if is_builtin(t, "ZipRows"):  # `xs, ys = zip(*pairs)`: the items the iterator gives, in a list
        return _from_iterator(chk, targets, hold, span)
    text = is_string(t)
    var_tuple = is_builtin(t, "VarTuple")  # an item of `zip(*rows)` (semantics/zip_rows.py)
    if not (text or var_tuple or is_builtin(t, "List")):
        chk.msg.error("E0213", targets.span, type=t)
        return None
    name = f"$sequence{chk.next_id}"
    chk.next_id += 1
    assert isinstance(hold, TLocal)
    chk.scopes.declare(name, hold.var)
    seq = ast.Name(span, name)
    length = _call(span, "len", seq)
    fixed = len(elts) - (star is not None)
    stmts: list[ast.Stmt] = []
    if star is None:
        stmts.append(ast.If(span, ast.Compare(span, length, ("<",), (ast.IntLit(span, fixed),)), (
            _raise(span, _str(span, f"not enough values to unpack (expected {fixed}, got "),
                   _call(span, "str", length), _str(span, ")")),), ()))
        stmts.append(ast.If(span, ast.Compare(span, length, (">",), (ast.IntLit(span, fixed),)), (
            _raise(span, _str(span, f"too many values to unpack (expected {fixed})")),), ()))
    else:
        stmts.append(ast.If(span, ast.Compare(span, length, ("<",), (ast.IntLit(span, fixed),)), (
            _raise(span, _str(span, f"not enough values to unpack (expected at least {fixed}, got "),
                   _call(span, "str", length), _str(span, ")")),), ()))
    after = len(elts) - 1 - star if star is not None else 0
    for k, target in enumerate(elts):
        if star is not None and k == star:
            stop: ast.Expr = ast.Binary(span, "-", length, ast.IntLit(span, after))
            items: ast.Expr = ast.Subscript(span, seq, (ast.Slice(span, ast.IntLit(span, k), stop, None),))
            if text or var_tuple:  # Python's starred target is a list, of a str's characters too
                items = _call(span, "list", items)
            assert isinstance(target, ast.Starred)
            stmts.append(ast.Assign(target.span, (target.value,), items))
            continue
        index: ast.Expr = ast.IntLit(span, k)
        if star is not None and k > star:  # counted from the end
            index = ast.Binary(span, "-", length, ast.IntLit(span, len(elts) - k))
        stmts.append(ast.Assign(target.span, (target,), ast.Subscript(span, seq, (index,))))
    checked = [chk.stmt(s) for s in stmts]
    return TBlock(span, [s for s in checked if s is not None])


def _from_iterator(chk: FunctionChecker, targets: ast.TupleExpr, hold: TExpr, span: Span) -> TStmt | None:
    """Unpacking an iterator (`xs, ys = zip(*pairs)`): Python walks it to the end first, so the
    targets are assigned from `list(it)`, with its length checks."""
    assert isinstance(hold, TLocal)
    name = f"$sequence{chk.next_id}"
    chk.next_id += 1
    chk.scopes.declare(name, hold.var)
    listed = chk.exprs.expr(_call(span, "list", ast.Name(span, name)))
    if listed.type == ERROR:
        return None
    var = chk.new_var(f"$sequence{chk.next_id}", listed.type, span)
    chk.next_id += 1
    stored = chk.store([var], [listed], span)
    rest = unpack_sequence(chk, targets, TLocal(span, var.type, var), span)
    return TBlock(span, [stored, rest]) if rest is not None else None


def _from_tuple(chk: FunctionChecker, targets: ast.TupleExpr, hold: TExpr, star: int | None,
                span: Span) -> TStmt | None:
    """`first, *rest = t` of a tuple: its length is known, so each target's items are too; the
    starred one gets a list of those between."""
    assert isinstance(hold.type, TupleType) and isinstance(hold, TLocal) and star is not None
    elts = targets.elts
    n = len(hold.type.items)
    fixed = len(elts) - 1
    if n < fixed:
        chk.msg.error("E0236", targets.span, expected=f"at least {fixed}", found=n)
        return None
    name = f"$sequence{chk.next_id}"
    chk.next_id += 1
    chk.scopes.declare(name, hold.var)
    seq = ast.Name(span, name)
    after = len(elts) - 1 - star
    stmts: list[ast.Stmt] = []
    for k, target in enumerate(elts):
        if k == star:
            picked = range(k, n - after)
            if not picked:
                chk.msg.error("E0007", target.span, construct="a starred target that gets none of a tuple's items")
                return None
            items = ast.ListExpr(span, tuple(ast.Subscript(span, seq, (ast.IntLit(span, i),)) for i in picked))
            assert isinstance(target, ast.Starred)
            stmts.append(ast.Assign(target.span, (target.value,), items))
            continue
        index = k if k < star else n - (len(elts) - k)
        stmts.append(ast.Assign(target.span, (target,), ast.Subscript(span, seq, (ast.IntLit(span, index),))))
    checked = [chk.stmt(s) for s in stmts]
    return TBlock(span, [s for s in checked if s is not None])
