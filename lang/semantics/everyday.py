"""Everyday builtins written as the stdlib calls they mean (issue 17): each is a small rewrite of
the call's syntax (into a String method of stdlib/string.px, a function of stdlib/itertools.px
or a generator expression), done before the call is checked, so the call is then checked (and
reported) as any other.

- `s.startswith((a, b))` / `s.endswith(t)` with a tuple of strings: `s._startswith_any([a, b])`
  (Python's str.startswith takes a tuple and is true when any item matches);
- `sep.join("abc")` / `sep.join(s)` of a str, and of `reversed(...)`, `map(...)`, `filter(...)`:
  `sep.join(list(...))` (a str is an iterable of one-character strs); of a tuple: a list of its items;
- `int(s, base)`: `s._int_base(base)` (Python's int() of text in bases 0 and 2 to 36);
- `chain(a, b, c)` (the stdlib's takes two) and `chain.from_iterable(xss)`;
- itertools' functions that yield tuples (`permutations`, ..., below);
- an int raised to a negative constant power is a float (`2 ** -1` is 0.5), as in Python.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import LiteralType, ScalarType
from .imports import is_string
from .typed import LocalVar, TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

_ANY_METHODS = {"startswith": "_startswith_any", "endswith": "_endswith_any"}
STR_REWRITTEN = frozenset({"join", "startswith", "endswith"})  # str methods whose calls may take a list here
_ITERATORS = frozenset({"reversed", "map", "filter"})  # builtins whose result `join` takes as a list


def _tuple_items(chk: FunctionChecker, e: ast.Expr) -> list[ast.Expr] | None:
    """The items of a tuple display, or `t[0], t[1], ...` of a variable holding a tuple."""
    if isinstance(e, ast.TupleExpr):
        return list(e.elts)
    if isinstance(e, ast.Name):
        found = chk.scopes.lookup(e.id)
        if isinstance(found, LocalVar) and isinstance(found.type, T.TupleType):
            return [ast.Subscript(e.span, e, (ast.IntLit(e.span, k),)) for k in range(len(found.type.items))]
    return None


def _is_str(chk: FunctionChecker, e: ast.Expr) -> bool:
    if isinstance(e, ast.StrLit):
        return True
    if isinstance(e, ast.Name):
        found = chk.scopes.lookup(e.id)
        return isinstance(found, LocalVar) and is_string(found.type)  # (the stdlib's, not a class called String)
    return False


def method_call(chk: FunctionChecker, func: ast.Attribute, e: ast.Call) -> ast.Call:
    """The call a str method call with a tuple or str argument means (the call itself otherwise)."""
    if len(e.args) != 1 or e.keywords:
        return e
    if func.attr in _ANY_METHODS:
        items = _tuple_items(chk, e.args[0])
        if items is None:
            return e
        listed = ast.ListExpr(e.args[0].span, tuple(items))
        return ast.Call(e.span, ast.Attribute(func.span, func.value, _ANY_METHODS[func.attr]), (listed,), ())
    if func.attr != "join":
        return e
    arg: ast.Expr = e.args[0]
    items = _tuple_items(chk, arg)
    if items is not None:  # `"".join(pair)`: a tuple's items
        return ast.Call(e.span, func, (ast.ListExpr(arg.span, tuple(items)),), ())
    builtin = None
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in _ITERATORS \
            and chk.scopes.lookup(arg.func.id) is None:
        builtin = arg.func.id
        if builtin == "reversed" and len(arg.args) == 1 and not arg.keywords and _is_str(chk, arg.args[0]):
            # `"".join(reversed(s))` of a str: reversed() of the list of its characters
            characters = ast.Call(arg.span, ast.Name(arg.span, "list"), arg.args, ())
            arg = ast.Call(arg.span, arg.func, (characters,), ())
    if _is_str(chk, arg) or builtin is not None:
        made = ast.Call(arg.span, ast.Name(arg.span, "list"), (arg,), ())  # Python's join lists them first
        return ast.Call(e.span, func, (made,), ())
    return e


def int_of_base(e: ast.Call) -> ast.Call | None:
    """`int(s, base)` (or `int(s, base=b)`) as `s._int_base(base)`; None for any other int()."""
    base = [kw.value for kw in e.keywords if kw.name == "base"]
    if len(e.args) == 2 and not e.keywords:
        base = [e.args[1]]
    elif not (len(e.args) == 1 and len(base) == 1 and len(e.keywords) == 1):
        return None
    return ast.Call(e.span, ast.Attribute(e.func.span, e.args[0], "_int_base"), tuple(base), ())


def negative_power(chk: FunctionChecker, op: str, left: TExpr, right: TExpr) -> TExpr:
    """The left operand of `left ** right`, a float where Python's result is one: an int raised to
    a negative int constant (`2 ** -1` is 0.5, `10 ** -2` is 0.01). A negative exponent known only
    at run time stays an int power, which raises ValueError there (a static int cannot become a
    float by its value: docs/python-subset.md)."""
    if op != "**" or not isinstance(right, TConst) or not isinstance(right.value, int) \
            or isinstance(right.value, bool) or right.value >= 0:
        return left
    rt, lt = right.type, left.type
    int_exponent = (isinstance(rt, LiteralType) and rt.kind == "int") or (isinstance(rt, ScalarType) and rt.is_int)
    int_base = (isinstance(lt, LiteralType) and lt.kind == "int") or (isinstance(lt, ScalarType) and
                                                                     (lt.is_int or lt.is_bool))
    if not (int_exponent and int_base):
        return left
    if isinstance(lt, LiteralType):
        return TConst(left.span, T.FLOAT_LITERAL, float(left.value)) if isinstance(left, TConst) \
            else chk.exprs.coerce_or_convert(left, T.FLOAT64)
    return chk.calls.convert(left, T.FLOAT64, left.span)


# itertools' functions whose items are tuples as long as an argument says: stdlib/itertools.px makes
# each item a List (a row), and a Python call becomes a generator expression of tuples of the rows'
# items, `((_row[0], _row[1]) for _row in permutations(list(xs), 2))`, the inner call marked so it
# is not rewritten again. A tuple's length is part of its type, so it must be a constant.
TUPLE_ITERTOOLS = frozenset({"permutations", "combinations", "combinations_with_replacement", "product"})
# The itertools functions whose calls are rewritten here: their modules need the stdlib's tuples,
# lists and String loaded (semantics/module.py, _Uses).
ITERTOOLS_REWRITTEN = TUPLE_ITERTOOLS | {"compress", "accumulate", "chain", "islice", "repeat", "from_iterable",
                                          "zip_longest", "groupby", "starmap", "pairwise"}
MAX_TUPLE = 8  # stdlib/tuple.px has Tuple1 ... Tuple8
_ROW = "_itertools_row"


def _constant(e: ast.Expr) -> int | None:
    if isinstance(e, ast.IntLit):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


def known_length(e: ast.Expr) -> int | None:
    """The number of items of a display, a str literal or `range(n)` of constants."""
    if isinstance(e, (ast.ListExpr, ast.TupleExpr)):
        return len(e.elts)
    if isinstance(e, ast.StrLit):
        return len(e.value)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "range" and not e.keywords:
        bounds = [b for b in (_constant(a) for a in e.args) if b is not None]
        if 1 <= len(bounds) == len(e.args) <= 3 and (len(bounds) < 3 or bounds[2] != 0):
            return len(range(*bounds))
    return None


def in_itertools(chk: FunctionChecker, decl: ast.FnDef) -> bool:
    """Whether decl is a function of the stdlib module that declares itself Python's itertools
    (`comptime _PYTHON_MODULE = "itertools"`, semantics/builtin_functions.py)."""
    from .builtin_functions import python_module

    return python_module(chk.home_of(decl)) == "itertools"


def is_itertools_call(chk: FunctionChecker, decl: ast.FnDef, e: ast.Call, raw: dict[int, ast.Call]) -> bool:
    return decl.name in TUPLE_ITERTOOLS and id(e) not in raw and in_itertools(chk, decl)


def _finite(chk: FunctionChecker, e: ast.Expr) -> bool:
    """A str, `range(...)` or `reversed(...)`: an iterable whose items a list holds (never endless)."""
    return _is_str(chk, e) or (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in
                               ("range", "reversed") and chk.scopes.lookup(e.func.id) is None)


def _as_list(chk: FunctionChecker, a: ast.Expr) -> ast.Expr:
    """An argument where a List is taken: a tuple display as the list display of its items (its
    items walked in the same order: `chain([1, 2], (3, 4))`), a str, range or reversed as `list(a)`."""
    if isinstance(a, ast.TupleExpr):
        return ast.ListExpr(a.span, a.elts)
    return ast.Call(a.span, ast.Name(a.span, "list"), (a,), ()) if _finite(chk, a) else a


def _literal_pool(e: ast.Expr) -> bool:
    """A str literal, a display of literals or `range(...)` of int literals: a pool whose items are
    the same however often it is read."""
    def literal(x: ast.Expr) -> bool:
        inner = x.operand if isinstance(x, ast.Unary) and x.op == "-" else x
        return isinstance(inner, (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit, ast.NoneLit))

    if isinstance(e, ast.StrLit):
        return True
    if isinstance(e, (ast.ListExpr, ast.TupleExpr)):
        return all(literal(x) for x in e.elts)
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "range" and not e.keywords \
        and all(literal(x) for x in e.args)


def _nested_product(e: ast.Call, pools: list[ast.Expr]) -> ast.Expr:
    """`product(p, q)` of literal pools as `((a, b) for a in p for b in q)`: the same tuples in the
    same order (the last pool varying fastest), each pool's items free to have a type of its own."""
    span = e.span
    names = [ast.Name(p.span, f"_itertools_item{k}") for k, p in enumerate(pools)]
    clauses = tuple(ast.CompFor(span, n, p) for n, p in zip(names, pools, strict=True))
    return ast.Comprehension(span, "generator", ast.TupleExpr(span, tuple(names)), None, clauses)


def itertools_arguments(chk: FunctionChecker, decl: ast.FnDef, e: ast.Call) -> ast.Call:
    """The call of an itertools function with its arguments as the stdlib's take them: a str,
    `range(...)` or `reversed(...)` where it takes a list (`compress(range(n), flags)`) as
    `list(...)` of it, which Python's iterator walks the same way; `repeat("ab", 3)`'s literal
    as a String, the items' type (not the literal's)."""
    if not in_itertools(chk, decl):
        return e
    if decl.name == "repeat":
        if not e.args or not isinstance(e.args[0], ast.StrLit):
            return e
        text = ast.Call(e.args[0].span, ast.Name(e.args[0].span, "str"), (e.args[0],), ())
        return ast.Call(e.span, e.func, (text, *e.args[1:]), e.keywords)
    takes_list = [p.annotation is not None and isinstance(p.annotation, ast.Subscript)
                  and isinstance(p.annotation.value, ast.Name) and p.annotation.value.id == "List" for p in decl.params]
    args = tuple(_as_list(chk, a) if k < len(takes_list) and takes_list[k] else a for k, a in enumerate(e.args))
    return ast.Call(e.span, e.func, args, e.keywords)


def itertools_call(chk: FunctionChecker, decl: ast.FnDef, e: ast.Call, raw: dict[int, ast.Call]) -> ast.Expr | None:
    """The generator expression of tuples a call of `permutations`, `combinations`,
    `combinations_with_replacement` or `product` means; None after reporting E0297 (or E0204)."""
    name = decl.name
    keywords = {kw.name: kw.value for kw in e.keywords}
    listed = [ast.Call(a.span, ast.Name(a.span, "list"), (a,), ()) for a in e.args]
    if name == "product":
        if set(keywords) - {"repeat"}:
            chk.msg.error("E0207", e.span, func=name, name=sorted(set(keywords) - {"repeat"})[0])
            return None
        repeat = _constant(keywords["repeat"]) if "repeat" in keywords else 1
        if repeat is None:
            chk.msg.error("E0297", keywords["repeat"].span, func=name, detail="write `repeat=` as a constant")
            return None
        length = len(e.args) * max(repeat, 0)
        if e.args and all(_literal_pool(a) for a in e.args) and 1 <= length <= MAX_TUPLE:
            return _nested_product(e, list(e.args) * repeat)  # `product("ab", [1, 2])`: pools of two types
        inner_args: tuple = (ast.ListExpr(e.span, tuple(listed)), ast.IntLit(e.span, repeat))
    else:
        if set(keywords) - {"r"} or len(e.args) + len(keywords) not in ((1, 2) if name == "permutations" else (2,)):
            expected = "1 or 2" if name == "permutations" else 2
            chk.msg.error("E0204", e.span, func=name, expected=expected, s="s", found=len(e.args) + len(keywords))
            return None
        r_expr = keywords.get("r", e.args[1] if len(e.args) == 2 else None)
        known = _constant(r_expr) if r_expr is not None else known_length(e.args[0])
        if known is None:
            detail = "write `r` as a constant" if r_expr is not None else \
                "give `r` as a constant (`permutations(xs, 3)`), or pass a list display or `range(n)` of constants"
            chk.msg.error("E0297", (r_expr or e.args[0]).span, func=name, detail=detail)
            return None
        length = known
        inner_args = (listed[0], ast.IntLit(e.span, length))
    if length > MAX_TUPLE:
        chk.msg.error("E0297", e.span, func=name, detail=f"its tuples would have {length} items, and pyx's tuples "
                                                         f"have at most {MAX_TUPLE}")
        return None
    length = max(length, 0)
    inner = ast.Call(e.span, e.func, inner_args, ())
    raw[id(inner)] = inner
    row = ast.Name(e.span, _ROW)
    item = ast.TupleExpr(e.span, tuple(ast.Subscript(e.span, row, (ast.IntLit(e.span, k),)) for k in range(length)))
    return ast.Comprehension(e.span, "generator", item, None, (ast.CompFor(e.span, ast.Name(e.span, _ROW), inner),))


def result_type(chk: FunctionChecker, t: T.Type) -> T.Type:
    """The result type a `def` without an annotation takes from its first `return`: a str
    literal's is Python's str, a String, so a later `return s` of a built string fits it."""
    string = chk.exprs.string_type()
    if t == T.STRING_LITERAL and chk.fn.decl.kind == "def" and string is not None:
        return string
    return t



def _itertools_function(chk: FunctionChecker, callee: ast.Expr) -> ast.FnDef | None:
    """The stdlib itertools function `chain` (or `itertools.chain`) names, else None."""
    decl = None
    if isinstance(callee, ast.Name) and chk.scopes.lookup(callee.id) is None:
        decl = chk.module.functions.get(callee.id)
    elif isinstance(callee, ast.Attribute):
        module = chk.structs.px_module_of(callee.value)
        decl = module.functions.get(callee.attr) if module is not None else None
    return decl if decl is not None and in_itertools(chk, decl) else None


def from_iterable(chk: FunctionChecker, func: ast.Attribute, e: ast.Call) -> ast.Expr | None:
    """`chain.from_iterable(xss)`: `(x for xs in xss for x in xs)`, the items of each iterable in
    turn, lazily as CPython's; None for any other call."""
    if func.attr != "from_iterable" or len(e.args) != 1 or e.keywords:
        return None
    decl = _itertools_function(chk, func.value)
    if decl is None or decl.name != "chain":
        return None
    span = e.span
    pool, item = ast.Name(span, "_itertools_pool"), ast.Name(span, "_itertools_item")
    return ast.Comprehension(span, "generator", item, None,
                             (ast.CompFor(span, pool, e.args[0]), ast.CompFor(span, item, pool)))


def chain_pairs(chk: FunctionChecker, decl: ast.FnDef, e: ast.Call) -> ast.Call:
    """`chain(a, b, c, ...)` as `chain(list(chain(a, b)), c)`, ...: the stdlib's `chain` takes two."""
    if decl.name != "chain" or len(e.args) <= 2 or e.keywords or not in_itertools(chk, decl):
        return e
    made = e.args[0]
    for k, arg in enumerate(e.args[1:]):
        made = ast.Call(e.span, e.func, (made, arg), ())
        if k < len(e.args) - 2:
            made = ast.Call(e.span, ast.Name(e.span, "list"), (made,), ())
    assert isinstance(made, ast.Call)
    return made
