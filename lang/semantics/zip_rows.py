"""`zip(*rows)`: Python's transposition (issue 17).

Each item of `zip(*rows)` is a tuple with one item per row: a length only the run knows, where a
pyx tuple's length is part of its type. So the items are `VarTuple[T]` (stdlib/zip_rows.px),
Python's `tuple[T, ...]`: a tuple whose items share the type T, printed, compared, ordered and
hashed as CPython's tuples are. The builder turns `zip(*rows)` into a call of the stdlib's
`zip_rows` under a name no source can spell (syntax/build_ast.py, ZIP_ROWS); this checks that
call: `rows` must be a list (or a tuple of one item type) of lists, strs, tuples of one item type
or VarTuples, so that every row gives items of one type T. Anything else is E0192, which says
what to write instead; so is `zip(*rows)` where `zip` is not the builtin (the module's own
function, or a variable), which Python would call with the rows as arguments.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..source import Span
from ..syntax import ast
from ..syntax.build_ast import VAR_TUPLE
from ..types import ERROR, StructType, TupleType, Type
from .builtin_types import is_builtin
from .imports import is_string
from .strformat import Checked
from .tuples import same_items
from .typed import TBlock, TConst, TExpr, TStmt

if TYPE_CHECKING:
    from .check import FunctionChecker


def _row_item(t: Type) -> Type | None:
    """The type of a row's items, if the row is a sequence whose items have one type."""
    if is_builtin(t, "List") or is_builtin(t, "VarTuple"):
        return t.ct_env.get("T") if hasattr(t, "ct_env") else None
    if is_string(t):
        return t
    if isinstance(t, TupleType):
        return same_items(t)
    return None


def _rows_item(t: Type) -> Type | None:
    """The type of the rows in `rows`: a list's element, or a tuple's one item type."""
    if is_builtin(t, "List") and isinstance(t, StructType):
        item = t.ct_env.get("T")
        return item if isinstance(item, Type) else None
    if isinstance(t, TupleType):
        return same_items(t)
    return None


_ROWS = ("and each of its items is a tuple of one item type, `tuple[T, ...]`, which pyx makes of a list or tuple "
         "of rows (lists, strs or tuples) whose items have one type; transpose other rows by index, "
         "`[[row[i] for row in rows] for i in range(len(rows[0]))]`, or unzip them into one tuple per column, "
         "`xs, ys = zip(*pairs)`")


def _own_zip(chk: FunctionChecker) -> bool:
    from .builtin_functions import is_builtin_function

    zip_decl = chk.module.functions.get("zip")
    return chk.scopes.lookup("zip") is not None or (zip_decl is not None and not is_builtin_function(zip_decl, "zip"))


def unzip(chk: FunctionChecker, targets: ast.TupleExpr, e: ast.Call, span: Span) -> tuple[TStmt | None, ast.Call]:
    """`xs, ys = zip(*pairs)` of tuples whose items differ in type (`[(1, "a"), (2, "b")]`): each
    target gets the tuple of one column (`xs = (1, 2)`, `ys = ('a', 'b')`), which as a
    `VarTuple` holds items of one type, as CPython's unzipping gives; no rows is CPython's
    ValueError. Else (None, the call with its rows checked), for the usual path."""
    if _own_zip(chk):
        return None, e
    rows = chk.exprs.value(chk.exprs.expr(e.args[0]))
    checked = replace(e, args=(Checked(e.args[0].span, rows),))
    row = _rows_item(rows.type) if is_builtin(rows.type, "List") else None
    plain = all(isinstance(x, (ast.Name, ast.Attribute, ast.Subscript)) for x in targets.elts)
    if not isinstance(row, TupleType) or same_items(row) is not None or not plain:
        return None, checked
    n = len(row.items)
    if n != len(targets.elts):
        chk.msg.error("E0192", span, detail=f"gives {n} tuples here, one per item of a `{row}`, and "
                      f"{len(targets.elts)} targets take them (CPython's ValueError)")
        return TBlock(span, []), checked
    name = f"$unzip{chk.next_id}"
    chk.next_id += 1
    var = chk.new_var(name, rows.type, span)
    stored = chk.store([var], [rows], span)
    chk.scopes.declare(name, var)
    held, row_name = ast.Name(span, name), ast.Name(span, f"$unzip_row{span.start}")
    empty = ast.Call(span, ast.Name(span, "ValueError"), (ast.StrLit(span, f"not enough values to unpack "
                                                                       f"(expected {n}, got 0)"),), ())
    stmts: list[ast.Stmt] = [ast.If(span, ast.Compare(span, ast.Call(span, ast.Name(span, "len"), (held,), ()),
                                                      ("==",), (ast.IntLit(span, 0),)),
                                    (ast.Raise(span, empty, None),), ())]
    for k, target in enumerate(targets.elts):
        column = ast.Comprehension(span, "list", ast.Subscript(span, row_name, (ast.IntLit(span, k),)), None,
                                   (ast.CompFor(span, row_name, held),))
        stmts.append(ast.Assign(target.span, (target,), ast.Call(span, ast.Name(span, VAR_TUPLE), (column,), ())))
    done = [chk.stmt(s) for s in stmts]
    return TBlock(span, [stored, *(s for s in done if s is not None)]), checked


def call(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`zip(*rows)`, built as `ZIP_ROWS(rows)`: the call of stdlib/zip_rows.px's `zip_rows`, or E0192."""
    if _own_zip(chk):
        chk.msg.error("E0192", e.func.span, detail="calls this module's own `zip`, which pyx cannot give a "
                      "`*` argument; call it with the rows listed, or rename it")
        return TConst(e.span, ERROR, None)
    rows = chk.exprs.value(chk.exprs.expr(e.args[0]))
    if rows.type == ERROR:
        return TConst(e.span, ERROR, None)
    row = _rows_item(rows.type)
    if row is None or _row_item(row) is None:
        chk.msg.error("E0192", e.args[0].span, detail=f"walks a `{rows.type}`, " + _ROWS)
        return TConst(e.span, ERROR, None)
    assert isinstance(e.func, ast.Name)  # (the call is written `ZIP_ROWS(rows)`)
    decl = chk.module.functions[e.func.id]
    return chk.calls.user_call(decl, replace(e, args=(Checked(e.args[0].span, rows),)))
