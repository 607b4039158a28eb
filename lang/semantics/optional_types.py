"""Python's names for "a T or None", and the `typing` module's names.

`Optional[T]`, `T | None`, `None | T`, `Union[T, None]` and `typing.Optional[T]` all name one
type, which `optional_of` decides: the one hook for "optional of X". Today it is the standard
library's `Optional[T]` (stdlib/optional.px) for every X; a nullable reference for a class type
belongs there too. Where such a type is expected, `None` is the empty Optional and a T is
wrapped (`x: int | None = 5`), as Python writes them; `x is None` and `x is not None` test it.

`from typing import ...` and `import typing` load stdlib/typing.px, which re-exports what pyx has
under Python's names (`Optional`, `List`, `Dict`). `Tuple` and `Union` are spelled by pyx itself
(their import binds nothing); names pyx has not (yet) are reported at the import with advice.
"""
from __future__ import annotations

from ..diagnostics import DiagnosticBag
from ..syntax import ast
from ..types import ERROR, Type

# The name (no source can spell it) a module sees the stdlib's Optional by when it spells an
# optional type Python's way; bound by module._bind_prelude where `uses_optional_spelling`.
OPTIONAL_TYPE = "Optional type"

TYPING = "typing"
# `typing` names pyx spells itself: importing them binds nothing, the spelling works as it is.
SPELLED_BY_PYX = {"Tuple", "Union", "Callable",  # Callable: semantics/closures.py
                  "Iterable", "Iterator", "Generator"}  # semantics/generators.py
# Not yet (E0011), with what to write today.
NOT_YET = {
    "Set": "write the builtin's name, `set[int]`",
    "FrozenSet": "frozen sets are not supported yet; a `set[T]` (`Set[T]`) keeps unique items",
    "Sequence": "annotate the concrete type (`List[int]`), or leave a `def` parameter unannotated",
    "Mapping": "annotate the concrete type (`Dict[str, int]`), or leave a `def` parameter unannotated",
    "MutableMapping": "annotate the concrete type (`Dict[str, int]`)",
    "MutableSequence": "annotate the concrete type (`List[int]`)",
    "Deque": "write `deque[int]` (`from collections import deque`)",
    "DefaultDict": "write `defaultdict[str, int]` (`from collections import defaultdict`)",
    "Counter": "write `Counter[str]` (`from collections import Counter`)",
    "TypeVar": "write a generic function with compile-time parameters (`fn f[T: AnyType](x: T)`), "
               "or leave a `def` parameter unannotated",
    "Generic": "declare the struct's parameters in brackets: `struct Box[T: AnyType]:`",
    "Protocol": "declare a `trait` and list it after the struct's name: `struct S(MyTrait):`",
    "Literal": "annotate the value's type (`str`, `int`)",
}
# Never (E0012): pyx is statically typed; each says what to write instead.
NEVER = {
    "Any": "every pyx value has one static type: annotate that type, or leave a `def` parameter "
           "unannotated to make the function generic",
    "cast": "pyx checks types at compile time; convert values with their constructors (`int(x)`, `str(x)`)",
    "TYPE_CHECKING": "pyx always checks types; import what you need unconditionally",
    "no_type_check": "pyx always checks types",
}


def filter_typing_import(item: ast.Import, symbols, seen: dict, diags: DiagnosticBag) -> ast.Import | None:
    """`from typing import ...` without the names stdlib/typing.px does not hold: those pyx spells
    itself bind nothing; the others are reported (E0011 not yet, E0012 never). None when no name
    is left to import."""
    if item.module != TYPING or not item.from_import:
        return item
    kept = []
    for name, local in item.names:
        if name in SPELLED_BY_PYX and local == name:
            seen[local] = item
        elif name in SPELLED_BY_PYX:
            diags.error("E0011", _name_span(item, name), name=name, advice=f"import it as `{name}`, without `as`")
            symbols.unresolved.add(local)
        elif name in NOT_YET:
            diags.error("E0011", _name_span(item, name), name=name, advice=NOT_YET[name])
            symbols.unresolved.add(local)
        elif name in NEVER:
            diags.error("E0012", _name_span(item, name), name=name, advice=NEVER[name])
            symbols.unresolved.add(local)
        else:
            kept.append((name, local))
    return ast.Import(item.span, item.module, item.alias, tuple(kept), True) if kept else None


def _name_span(item: ast.Import, name: str):
    """Where `name` is written in the import (the statement keeps no span per name)."""
    import re

    span = item.span
    text = span.file.text[span.start:span.end]
    at = text.find(" import ")
    found = re.compile(rf"\b{re.escape(name)}\b").search(text, max(at, 0))
    return span.file.span(span.start + found.start(), span.start + found.end()) if found else span


def uses_optional_spelling(node: ast.Node) -> bool:
    """Whether a node spells an optional type Python's way (`X | None`), or makes one (`x if c
    else None`), for module._Uses."""
    if isinstance(node, ast.IfExp):  # `d if d < INF else None` is an Optional (expressions.py)
        return isinstance(node.body, ast.NoneLit) or isinstance(node.orelse, ast.NoneLit)
    return isinstance(node, ast.Binary) and node.op == "|" and (
        isinstance(node.left, ast.NoneLit) or isinstance(node.right, ast.NoneLit))


OPTIONAL_NAMES = {"Optional", "Union", TYPING}  # a module that mentions one may need OPTIONAL_TYPE


def optional_of(inner: ast.Expr, span, resolve) -> Type:
    """The hook: the type "inner or None" names, however it is spelled. `resolve` resolves an
    annotation in the module where it is written."""
    return resolve(ast.Subscript(span, ast.Name(span, OPTIONAL_TYPE), (inner,)))


def _typing_module(node: ast.Expr, symbols):
    """The stdlib's typing module when node names it (`typing` after `import typing [as t]`)."""
    from .module import px_module_named

    other = px_module_named(node, symbols)
    if other is None or other.name != TYPING:
        return None
    opt = other.structs.get("Optional")  # stdlib/typing.px re-exports the stdlib's Optional
    return other if opt is not None and opt.role == "Optional" else None


def _head(expr: ast.Expr, symbols) -> str | None:
    """`Union`, `Optional`, `Tuple`, ... when expr names that `typing` name: spelled bare (and not
    a struct of the program's own), or as `typing.X`."""
    if isinstance(expr, ast.Name):
        if expr.id == "Optional":  # the stdlib's, where this module sees it (not within optional.px)
            structs = symbols.structs if symbols is not None else {}
            same = "Optional" in structs and structs["Optional"] is structs.get(OPTIONAL_TYPE)
            return "Optional" if same else None
        if expr.id == "Union" and (symbols is None or "Union" not in symbols.structs):
            return "Union"
        return None
    if isinstance(expr, ast.Attribute) and _typing_module(expr.value, symbols) is not None:
        return expr.attr
    return None


def typing_type(expr: ast.Expr, diags: DiagnosticBag, symbols, resolve) -> Type | None:
    """The type an annotation written with Python's typing spellings names, or None when it is
    not one (resolve_type goes on). Reports what pyx does not have."""
    if isinstance(expr, ast.Binary) and expr.op == "|":
        return _union(expr, _union_members(expr), diags, resolve)
    if isinstance(expr, ast.Attribute):
        if _typing_module(expr.value, symbols) is None:
            return None
        if expr.attr in NOT_YET:
            diags.error("E0011", expr.span, name=expr.attr, advice=NOT_YET[expr.attr])
            return ERROR
        if expr.attr in NEVER:
            diags.error("E0012", expr.span, name=expr.attr, advice=NEVER[expr.attr])
            return ERROR
        return None
    if not isinstance(expr, ast.Subscript):
        return None
    head = _head(expr.value, symbols)
    items = [i for i in expr.items if isinstance(i, ast.Expr)]
    if head == "Optional" and len(expr.items) == 1 and items:
        return optional_of(items[0], expr.span, resolve)
    if head == "Union" and len(items) == len(expr.items):
        return _union(expr, items, diags, resolve)
    if head == "Tuple" and isinstance(expr.value, ast.Attribute):  # `typing.Tuple[int, str]`
        return resolve(ast.Subscript(expr.span, ast.Name(expr.value.span, "Tuple"), expr.items))
    if head in NOT_YET and isinstance(expr.value, ast.Attribute):
        diags.error("E0011", expr.span, name=head, advice=NOT_YET[head])
        return ERROR
    return None


def _union_members(expr: ast.Expr) -> list[ast.Expr]:
    members, stack = [], [expr]
    while stack:  # `a | b | c` nests to the left; the order of members does not matter here
        node = stack.pop()
        if isinstance(node, ast.Binary) and node.op == "|":
            stack += [node.right, node.left]
        else:
            members.append(node)
    return members


def _union(expr: ast.Expr, members: list[ast.Expr], diags: DiagnosticBag, resolve) -> Type:
    values = [m for m in members if not isinstance(m, ast.NoneLit)]
    if len(values) == 1 and len(members) == 2:
        return optional_of(values[0], expr.span, resolve)
    if len(values) == 2 and sorted(v.id for v in values if isinstance(v, ast.Name)) == ["float", "int"]:
        from .numbers import NUMBER_TYPE  # Python's `int | float` (semantics/numbers.py)

        number = ast.Name(expr.span, NUMBER_TYPE)
        return resolve(number) if len(members) == 2 else optional_of(number, expr.span, resolve)
    text = expr.span.file.text[expr.span.start:expr.span.end]
    diags.error("E0013", expr.span, text=text if len(text) <= 60 else text[:57] + "...")
    return ERROR


def coerce_to_optional(exprs, e, target):
    """`None` or a T where the stdlib's Optional[T] is expected (`x: int | None = None`, `= 5`,
    `return None`): the empty Optional, or the value wrapped. None when `e` is neither."""
    from .. import types as T
    from .builtin_types import is_builtin

    if not is_builtin(target, "Optional"):
        return None
    sym = exprs.chk.structs.struct_of(target)
    if e.type == T.NONE:
        return exprs.chk.calls.finish_call(sym.methods["none"], [], e.span, e.span, target)
    inner = target.ct_env.get("T")
    if not isinstance(inner, T.Type) or is_builtin(e.type, "Optional"):
        return None
    if e.type != inner and not isinstance(e.type, T.LiteralType) and e.type != T.STRING_LITERAL:
        return None
    return exprs.chk.calls.finish_call(sym.methods["__init__"], [exprs.coerce(e, inner)], e.span, e.span, target)


def none_test(structs, e: ast.Compare, left, right):
    """`x is None` / `x is not None` (either side) on the stdlib's Optional: whether it is empty.
    None when the comparison is not one of these."""
    from .. import types as T
    from ..types import StructType
    from .builtin_types import is_builtin
    from .typed import TUnary

    op = e.ops[0]
    if op not in ("is", "is not"):
        return None
    value = left if right.type == T.NONE else right if left.type == T.NONE else None
    if value is None or not (isinstance(value.type, StructType) and is_builtin(value.type, "Optional")):
        return None
    empty = structs.method_call(value, "is_none", [], e.span)
    if empty is None:
        return None
    return empty if op == "is" else TUnary(e.span, T.BOOL, "not", empty)


def _may_be_false(exprs, inner) -> bool:
    """Whether a value of type inner can be false (a number, or a struct with `__bool__`/`__len__`)."""
    from .. import types as T
    from ..types import StructType

    if isinstance(inner, StructType):
        sym = exprs.chk.structs.struct_of(inner)
        return sym is not None and ("__bool__" in sym.methods or "__len__" in sym.methods)
    return isinstance(inner, (T.ScalarType, T.LiteralType))


def python_truth(exprs, v, span):
    """`if opt:` / `not opt` of the stdlib's Optional in a `def`: Python's truth, false for None and
    for a false value (`0`, `""`, an empty Counter), the value tested only where there is one:

        $optional = opt
        -> $optional.__bool__() and truth($optional.value())

    None outside a `def` (a Mojo-style `fn` tests `x is not None` written out: E0014) or for other types."""
    from .. import types as T
    from ..types import StructType
    from .builtin_types import is_builtin
    from .typed import TBoolOp, TLocal, TStmtExpr

    chk = exprs.chk
    if chk.fn.decl.kind != "def" or not (isinstance(v.type, StructType) and is_builtin(v.type, "Optional")) \
            or not _may_be_false(exprs, v.type.ct_env.get("T")):
        return None  # (a value that is always true: `__bool__`, whether there is one, is Python's truth)
    held = chk.new_var(f"$optional{chk.next_id}", v.type, span)
    present = chk.structs.method_call(TLocal(span, v.type, held), "__bool__", [], span)
    value = chk.structs.method_call(TLocal(span, v.type, held), "value", [], span)
    if present is None or value is None:
        return None
    tested = exprs.truth(value, span)
    if tested.type == T.ERROR:
        return tested
    chk.ownership.need_drop(v.type, span)
    store = chk.store([held], [chk.ownership.consume(v, "assigned")], span)
    return TStmtExpr(span, T.BOOL, [store], TBoolOp(span, T.BOOL, "and", [present, tested]))


def ambiguous_truth(exprs, v, span) -> bool:
    """`if x:` on an Optional whose value may itself be false (a number, a str, a list, ...):
    Python tests the value too (`0`, `""` and `[]` are false), Mojo's `Optional` only whether there
    is one, and the two would print differently. Reported (E0014); True when it was."""
    from ..types import StructType
    from .builtin_types import is_builtin

    if not (isinstance(v.type, StructType) and is_builtin(v.type, "Optional")):
        return False
    inner = v.type.ct_env.get("T")
    falsy = _may_be_false(exprs, inner)
    if falsy:
        exprs.msg.error("E0014", span, type=v.type, inner=inner)
    return falsy
