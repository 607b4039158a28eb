"""itertools calls whose Python form the stdlib's functions cannot take as written (keyword
arguments that change the result's shape, a function called with each item's fields), rewritten
on the call's syntax before it is checked (from `CallChecker.user_call`):

- `accumulate(xs, f)`, `accumulate(xs, initial=v)`, both: stdlib/itertools.px's `_accumulate_by`,
  `_accumulate_from`, `_accumulate_by_from` (a literal `initial` keeps its own type, `int(v)` or
  `float(v)`, so `accumulate(floats, initial=0)` is a type error, never a `0.0` CPython would print
  as `0`);
- `starmap(f, xs)`: `_starmap2(f, xs)` (a generator calling `f(t[0], t[1])` for each tuple t), the
  tuples' length read from xs (a display, a local list of tuples, `zip(...)`); E0330 where it
  cannot be seen;
- `zip_longest(a, b[, c], fillvalue=v)`: `_zip_longest2`/`3` with the fill for each iterable that
  may be the shorter one (None for one a length known when compiling says never is); without
  `fillvalue`, `_zip_longest_none2`, the missing items None. E0331 for what pyx's tuples cannot
  hold (a fill of another type where it may be used, more than three iterables);
- `groupby(xs[, key])`: `_groupby`/`_groupby_key`, only as the iterable of a `for` or a
  comprehension (E0332 elsewhere: CPython's groups are used up when the next one is reached).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR
from .typed import LocalVar, TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

STARMAP_MOST = 4  # stdlib/itertools.px has _starmap1 ... _starmap4
REWRITTEN = frozenset({"accumulate", "starmap", "zip_longest", "groupby"})


def applies(chk: FunctionChecker, decl: ast.FnDef) -> bool:
    from .everyday import in_itertools  # (imported here: everyday imports this module's callers)

    return decl.name in REWRITTEN and in_itertools(chk, decl)


def _typed_literal(e: ast.Expr) -> ast.Expr:
    """A number literal as a value of its own type (`int(0)`), not one coerced to the items' type."""
    inner = e.operand if isinstance(e, ast.Unary) and e.op == "-" else e
    if isinstance(inner, ast.IntLit):
        return ast.Call(e.span, ast.Name(e.span, "int"), (e,), ())
    if isinstance(inner, ast.FloatLit):
        return ast.Call(e.span, ast.Name(e.span, "float"), (e,), ())
    return e


def call(chk: FunctionChecker, decl: ast.FnDef, e: ast.Call) -> TExpr | None:
    """The checked value of the rewritten call; None where the call is checked as written."""
    home = chk.home_of(decl)

    def stdlib(name: str, args: tuple) -> TExpr:
        target = home.functions[name]
        return chk.calls.user_call(target, ast.Call(e.span, ast.Name(e.func.span, name), args, ()))

    keywords = {kw.name: kw.value for kw in e.keywords}
    if decl.name == "accumulate":
        func = keywords.pop("func", e.args[1] if len(e.args) == 2 else None)
        initial = keywords.pop("initial", None)
        if keywords or not 1 <= len(e.args) <= 2 or (len(e.args) == 2 and "func" in {k.name for k in e.keywords}):
            return None  # (reported as the stdlib's accumulate)
        if func is None and initial is None:
            return None
        if func is not None and initial is None:
            return stdlib("_accumulate_by", (e.args[0], func))
        assert initial is not None
        if func is None:
            return stdlib("_accumulate_from", (e.args[0], _typed_literal(initial)))
        return stdlib("_accumulate_by_from", (e.args[0], func, _typed_literal(initial)))
    if decl.name == "starmap":
        return _starmap(chk, e, stdlib)
    if decl.name == "zip_longest":
        return _zip_longest(chk, e, stdlib)
    return _groupby(chk, e, stdlib)


def _tuple_length(chk: FunctionChecker, e: ast.Expr) -> int | None:
    """How many items each tuple of the iterable e has, where its spelling shows it."""
    if isinstance(e, (ast.ListExpr, ast.TupleExpr)) and e.elts and isinstance(e.elts[0], ast.TupleExpr):
        return len(e.elts[0].elts)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "zip" \
            and chk.scopes.lookup("zip") is None and e.args and not e.keywords \
            and not any(isinstance(a, ast.Starred) for a in e.args):
        return len(e.args)
    if isinstance(e, ast.Name):
        found = chk.scopes.lookup(e.id)
        t = found.type if isinstance(found, LocalVar) else None
        if isinstance(t, T.StructType) and t.ct_env:
            items = list(t.ct_env.values())
            if len(items) == 1 and isinstance(items[0], T.TupleType):
                return len(items[0].items)
    return None


def _starmap(chk: FunctionChecker, e: ast.Call, stdlib) -> TExpr:
    from .function_arguments import as_lambda, builtin_named

    if len(e.args) != 2 or e.keywords:
        chk.msg.error("E0204", e.span, func="starmap", expected=2, s="s", found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    func, items = e.args
    n = _tuple_length(chk, items)
    if n is None or not 1 <= n <= STARMAP_MOST:
        chk.msg.error("E0330", items.span)
        return TConst(e.span, ERROR, None)
    if builtin_named(chk, func):
        func = as_lambda(func, n)
    return stdlib(f"_starmap{n}", (func, items))


def _zip_longest(chk: FunctionChecker, e: ast.Call, stdlib) -> TExpr:
    from .everyday import known_length

    keywords = {kw.name: kw.value for kw in e.keywords}
    extra = set(keywords) - {"fillvalue"}
    if extra:
        chk.msg.error("E0207", e.span, func="zip_longest", name=sorted(extra)[0])
        return TConst(e.span, ERROR, None)
    if not 2 <= len(e.args) <= 3 or any(isinstance(a, ast.Starred) for a in e.args):
        chk.msg.error("E0331", e.span, detail="pyx's takes two or three iterables")
        return TConst(e.span, ERROR, None)
    listed = tuple(ast.Call(a.span, ast.Name(a.span, "list"), (a,), ()) for a in e.args)
    fill = keywords.get("fillvalue")
    if fill is None or isinstance(fill, ast.NoneLit):
        if len(e.args) != 2:
            chk.msg.error("E0331", e.span, detail="without `fillvalue`, pyx's takes two iterables")
            return TConst(e.span, ERROR, None)
        return stdlib("_zip_longest_none2", listed)
    lengths = [known_length(a) for a in e.args]
    longest = max(lengths) if None not in lengths else None  # type: ignore[type-var]
    if not isinstance(fill, (ast.Name, ast.StrLit, ast.IntLit, ast.FloatLit, ast.BoolLit, ast.Unary)):
        chk.msg.error("E0331", fill.span, detail="name the fill value first (`fill = ...`), so it is computed once")
        return TConst(e.span, ERROR, None)
    fill = _typed_literal(fill)  # (`fillvalue=0` among floats is CPython's int 0, never a `0.0`)
    fills = tuple(ast.NoneLit(fill.span) if longest is not None and n == longest else fill for n in lengths)
    return stdlib(f"_zip_longest{len(e.args)}", (*listed, *fills))


# What may take a group of `groupby` where the loop reads it: each walks the group at once.
_GROUP_CONSUMERS = frozenset({"list", "sorted", "sum", "min", "max", "any", "all", "set", "tuple", "join"})


def _walking(decl: ast.FnDef, e: ast.Call) -> tuple[ast.Expr, tuple[ast.Node, ...]] | None:
    """The target a `for` statement or a comprehension of decl binds walking e, with the nodes that
    read it (the loop's body; the comprehension's item and later clauses); None where nothing walks e."""
    stack: list[ast.Node] = [decl]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.For) and node.iter is e:
            return node.target, node.body
        if isinstance(node, ast.Comprehension):
            for k, clause in enumerate(node.clauses):
                if isinstance(clause, ast.CompFor) and clause.iter is e:
                    rest = (node.elt, *((node.value,) if node.value is not None else ()), *node.clauses[k + 1:])
                    return clause.target, rest
        stack.extend(ast.children(node))
    return None


def _groups_read_at_once(target: ast.Expr, readers: tuple[ast.Node, ...]) -> bool:
    """Whether each use of the group name of `for k, g in groupby(...)` walks it there and then
    (`list(g)`, `for x in g`, `[m for m in g]`): a group kept (`out.append(g)`, `[g for ...]`)
    would keep items CPython's group no longer has once the next group is reached."""
    if not (isinstance(target, ast.TupleExpr) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name)):
        return False
    name = target.elts[1].id
    allowed: set[int] = set()
    uses: list[ast.Name] = []
    stack: list[ast.Node] = list(readers)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.For, ast.CompFor)) and isinstance(node.iter, ast.Name):
            allowed.add(id(node.iter))
        if isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.args[0], ast.Name) \
                and isinstance(node.func, (ast.Name, ast.Attribute)) \
                and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) in _GROUP_CONSUMERS:
            allowed.add(id(node.args[0]))
        if isinstance(node, ast.Name) and node.id == name:
            uses.append(node)
        stack.extend(ast.children(node))
    return all(id(u) in allowed for u in uses)


def _groupby(chk: FunctionChecker, e: ast.Call, stdlib) -> TExpr:
    keywords = {kw.name: kw.value for kw in e.keywords}
    key = keywords.pop("key", e.args[1] if len(e.args) == 2 else None)
    if keywords or not 1 <= len(e.args) <= 2:
        chk.msg.error("E0204", e.span, func="groupby", expected="1 or 2", s="s", found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    walking = _walking(chk.fn.decl, e)
    if walking is None or not _groups_read_at_once(*walking):
        chk.msg.error("E0332", e.span)
        return TConst(e.span, ERROR, None)
    listed = ast.Call(e.args[0].span, ast.Name(e.args[0].span, "list"), (e.args[0],), ())
    if key is None or isinstance(key, ast.NoneLit):
        return stdlib("_groupby", (listed,))
    return stdlib("_groupby_key", (listed, key))
