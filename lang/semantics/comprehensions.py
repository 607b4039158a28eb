"""Comprehensions, generator expressions, and the builtins that consume an iterable.

A comprehension is checked as the loop it stands for. Its `for` and `if` clauses become `for`
and `if` statements, checked by the statement checker (so a clause iterates whatever a `for`
loop can: a range, a List, a Dict's keys, any struct with `__iter__`), in a scope of their own
(the loop variables do not leak, as in Python 3), and the innermost statement is a `CompStep`:
what the consumer does with each item (append it to a List, set a Dict entry, add it to a sum,
...). The typed result is a `TStmtExpr`: those statements, then the value they built. Lowering
runs the statements as they are, so a builtin consuming a generator expression is one fused
loop: no list is built in between, and `any`/`all` stop at the first item that decides.

A generator expression anywhere else (stored, passed to a function) is not supported yet
(E0270): pyx has no generator objects.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import Note
from ..node_methods import syntax_node
from ..source import Span
from ..syntax import ast
from ..types import ERROR, ScalarType, StructType, Type, default_type
from . import float_sums
from .builtin_types import is_builtin
from .imports import is_stdlib_file
from .messages import MessageBuilder
from .typed import (
    LocalVar,
    TBlock,
    TBreak,
    TConst,
    TExpr,
    TExprStmt,
    TIf,
    TLocal,
    TMove,
    TRaise,
    TStmt,
    TStmtExpr,
    TUnary,
)

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker

# The builtins checked here when they are given an iterable (or a generator expression).
CONSUMERS = frozenset({"sum", "any", "all", "min", "max", "list", "sorted", "round", "dict", "next"})


def _is_mapping(t: Type | None) -> bool:
    """A dict, or one of collections' dicts: what `dict(x)` copies by its `items()`."""
    return t is not None and any(is_builtin(t, name) for name in ("Dict", "defaultdict", "OrderedDict", "Counter"))


@syntax_node
class CompStep(ast.Stmt):
    """A statement of a comprehension's loop that the checker makes itself: `make()` gives its
    typed statements (the consumer's work on one item, an early exit, fresh loop variables)."""

    make: Callable[[], list[TStmt]]


def _target_names(target: ast.Expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.TupleExpr):
        return [n for elt in target.elts for n in _target_names(elt)]
    return []


def _names_in(e: ast.Node) -> set[str]:
    found, stack = set(), [e]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            found.add(node.id)
        stack.extend(ast.children(node))
    return found


def _type_arg(t: StructType, name: str) -> Type | None:
    found = t.ct_env.get(name)
    return found if isinstance(found, Type) else None


def is_generator(e: ast.Expr) -> bool:
    return isinstance(e, ast.Comprehension) and e.kind == "generator"


class ComprehensionChecker:
    """Comprehensions and the builtins consuming iterables (`chk.comprehensions`)."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg
        # name -> (where a comprehension binds it as a loop variable, that comprehension's span)
        self.loop_names: dict[str, tuple[Span, Span]] = {}
        self.current: Span | None = None  # the comprehension being checked

    def explain_unknown(self, name: str, span: Span) -> Note | None:
        """E0101's note for a comprehension's loop variable used where it is not defined."""
        found = self.loop_names.get(name)
        if found is None:
            return None
        bound, whole = found
        if whole.start <= span.start < whole.end:  # `[y for x in xs for y in y]`
            return Note(f"`{name}` is this comprehension's loop variable, not bound yet here", bound)
        return Note(f"`{name}` is the loop variable of a comprehension, which has a scope of its own (as in "
                    f"Python 3): it is not defined after it", bound)

    # ---- the loop ----
    def loop(self, clauses: tuple, span: Span, item: Callable[[], list[TStmt]],
             stop: Callable[[], TExpr] | None = None) -> list[TStmt]:
        """The clauses' loops in a scope of their own, `item()`'s statements innermost; once
        `stop()` (a Bool) is true, every loop ends (`any`, `all`)."""
        scopes = self.chk.scopes
        clauses, early, hidden = self._first_iterable(clauses)
        scopes.push()
        for name, var in hidden:
            scopes.declare(name, var)
        saved, outer = scopes.function_block, self.current
        scopes.function_block, self.current = len(scopes.blocks) - 1, span
        try:
            return early + self.chk.block(self._nest(clauses, 0, span, item, stop))
        finally:
            scopes.function_block, self.current = saved, outer
            scopes.pop()

    def _first_iterable(self, clauses: tuple) -> tuple[tuple, list[TStmt], list[tuple[str, LocalVar]]]:
        """Python reads the first clause's iterable outside the comprehension: `[x for x in x]`
        walks the enclosing x. Where that iterable names a loop variable of the comprehension,
        it (or each argument of its `range`) is computed first, into a variable of its own."""
        first = clauses[0]
        names = set(_target_names(first.target))
        if not names & _names_in(first.iter):
            return clauses, [], []
        it = first.iter
        is_range = isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
            and not it.keywords and self.chk.scopes.lookup("range") is None
        parts = list(it.args) if is_range else [it]
        early: list[TStmt] = []
        hidden: list[tuple[str, LocalVar]] = []
        replaced = []
        for part in parts:
            if not names & _names_in(part):
                replaced.append(part)
                continue
            value = self.exprs.value(self.exprs.expr(part))
            if value.type == ERROR:
                replaced.append(part)
                continue
            name = f"$first{len(hidden)}"
            var = self.chk.new_var(name, self.exprs.string_or(value.type), part.span)
            early.append(self.chk.store([var], [self.exprs.coerce(value, var.type)], part.span))
            hidden.append((name, var))
            replaced.append(ast.Name(part.span, name))
        it = replace(it, args=tuple(replaced)) if is_range else replaced[0]
        return (replace(first, iter=it), *clauses[1:]), early, hidden

    def _nest(self, clauses: tuple, k: int, span: Span, item, stop) -> tuple:
        if k == len(clauses):
            return (CompStep(span, item),)
        clause = clauses[k]
        inner = self._nest(clauses, k + 1, span, item, stop)
        if isinstance(clause, ast.CompIf):
            return (ast.If(clause.span, clause.test, inner, ()),)
        if stop is not None and any(isinstance(c, ast.CompFor) for c in clauses[k + 1:]):
            # A `break` leaves only the innermost loop: each outer one checks again.
            inner = (*inner, CompStep(span, lambda: [TIf(span, stop(), [TBreak(span)], [])]))
        return (CompStep(clause.span, lambda: self._fresh(clause.target)),
                ast.For(clause.span, clause.target, clause.iter, inner))

    def _fresh(self, target: ast.Expr) -> list[TStmt]:
        """The clause's loop variables are new names of the comprehension's scope, whatever
        the enclosing function calls so (a name bound to nothing reads as undefined)."""
        block = self.chk.scopes.blocks[self.chk.scopes.function_block]
        for name in _target_names(target):
            block[name] = None  # type: ignore[assignment]
            if self.current is not None:
                self.loop_names[name] = (target.span, self.current)
        return []

    def step(self, s: CompStep) -> TStmt | None:
        stmts = s.make()
        return TBlock(s.span, stmts) if stmts else None

    def finish(self, span: Span, acc: LocalVar, body: list[TStmt], init: Callable[[], TExpr],
               after: Callable[[], list[TStmt]] = list) -> TExpr:
        """The statements of the loop after `acc = init()`, then acc's value."""
        if acc.type == ERROR:
            return TConst(span, ERROR, None)
        start = init()
        if start.type == ERROR:
            return TConst(span, ERROR, None)
        self.chk.ownership.need_drop(acc.type, span)
        first = self.chk.store([acc], [start], span)
        return TStmtExpr(span, acc.type, [first, *body, *after()], TMove(span, acc.type, acc))

    def item_value(self, elt: ast.Expr) -> TExpr:
        """An item's value: untyped constants take their default type, a string literal is a String."""
        v = self.exprs.expr(elt)
        if v.type == ERROR:
            return v
        return self.exprs.coerce(v, self.exprs.string_or(default_type(v.type)))

    def stdlib_type(self, base: str, args: tuple, span: Span) -> Type:
        from .module import DICT_LITERAL, LIST_LITERAL, struct_instance

        sym = self.chk.module.structs.get(LIST_LITERAL if base == "List" else DICT_LITERAL)
        if sym is None:  # module.py binds them for every module with a comprehension
            raise AssertionError(f"the stdlib's {base} is not bound for a comprehension")
        return struct_instance(sym, args, span, self.chk.module, self.msg.bag, self.chk.module.lookup_constant)

    def new_value(self, t: Type, span: Span) -> TExpr:
        """`List[T]()` or `Dict[K, V]()`."""
        sym = self.chk.structs.struct_of(t)
        assert isinstance(t, StructType) and sym is not None
        return self.chk.calls.finish_call(sym.methods["__init__"], [], span, span, t)

    # ---- comprehensions ----
    def expr_Comprehension(self, e: ast.Comprehension) -> TExpr:
        if e.kind == "list":
            return self.build_list(e.span, e.elt, e.clauses)
        if e.kind == "dict":
            return self.build_dict(e)
        return self.chk.generators.genexpr_value(e)  # a value (semantics/generators.py)

    def in_context(self, e: ast.Comprehension, declared: Type | None) -> TExpr | None:
        """A comprehension where a declaration gives its type: an empty `[]` or `{}` element (or
        dict value) takes its type from there. Other elements keep their own types, as in Python
        (`xs: list[float] = [0 for ...]` holds ints there, so pyx reports the mismatch)."""
        if not isinstance(declared, StructType):
            return None
        if e.kind == "list" and is_builtin(declared, "List"):
            return self.build_list(e.span, e.elt, e.clauses, _type_arg(declared, "T"))
        if e.kind == "dict" and is_builtin(declared, "Dict"):
            return self.build_dict(e, _type_arg(declared, "V"))
        return None

    def contextual(self, elt: ast.Expr, expected: Type | None) -> TExpr:
        made = self.chk.empty_container(elt, expected) if expected is not None else None
        return made if made is not None else self.item_value(elt)

    def build_list(self, span: Span, elt: ast.Expr, clauses: tuple, expected: Type | None = None) -> TExpr:
        acc = self.chk.new_var("$list", ERROR, span)

        def item() -> list[TStmt]:
            v = self.contextual(elt, expected)
            if v.type == ERROR:
                return []
            if acc.type == ERROR:
                acc.type = self.stdlib_type("List", (v.type,), span)
                if acc.type == ERROR:
                    return []
            call = self.chk.structs.method_call(TLocal(elt.span, acc.type, acc), "append", [v], elt.span)
            return [TExprStmt(elt.span, call)] if call is not None else []

        body = self.loop(clauses, span, item)
        return self.finish(span, acc, body, lambda: self.new_value(acc.type, span))

    def build_dict(self, e: ast.Comprehension, expected: Type | None = None) -> TExpr:
        acc = self.chk.new_var("$dict", ERROR, e.span)
        value_expr = e.value
        assert value_expr is not None

        def item() -> list[TStmt]:
            key = self.item_value(e.elt)  # the key first, as Python 3.8 and later
            value = self.contextual(value_expr, expected)
            if ERROR in (key.type, value.type):
                return []
            if acc.type == ERROR:
                acc.type = self.stdlib_type("Dict", (key.type, value.type), e.span)
                if acc.type == ERROR:
                    return []
            call = self.chk.structs.method_call(TLocal(e.span, acc.type, acc), "__setitem__", [key, value],
                                                e.elt.span)
            return [TExprStmt(e.elt.span, call)] if call is not None else []

        body = self.loop(e.clauses, e.span, item)
        return self.finish(e.span, acc, body, lambda: self.new_value(acc.type, e.span))

    # ---- builtins consuming an iterable ----
    def builtin_call(self, name: str, e: ast.Call) -> TExpr | None:
        """sum, any, all, list, sorted, and min/max of one iterable; None where the call is not
        one of these (a user's own function of that name, `max(a, b)`)."""
        decl = self.chk.module.functions.get(name)
        if decl is not None and not is_stdlib_file(decl.span.file.name):
            return None
        if name == "next":  # next(generator[, default]): its first item (semantics/generators.py)
            return self.chk.generators.next_call(e) if decl is None else None
        if name == "dict":  # dict(pairs of a generator): semantics/generators.py
            made = (self.chk.generators.dict_call(e) or self.dict_of_pairs(e)) if decl is None else None
            return self.build_dict(made) if made is not None else None
        if name == "sorted":
            return self.sorted_call(e) if decl is not None else None
        if name == "round":
            return self.round_call(decl, e) if decl is not None else None
        if name in ("min", "max") and len(e.args) != 1:
            return None
        if name in ("min", "max"):
            return self.extreme(name, e)
        allowed = {"sum": ("start",), "list": (), "any": (), "all": ()}[name]
        for kw in e.keywords:
            if kw.name not in allowed:
                self.msg.error("E0207", kw.span, func=name, name=kw.name)
                return TConst(e.span, ERROR, None)
        most = 2 if name == "sum" else 1
        if name == "list" and not e.args:
            self.msg.error("E0272", e.span)
            return TConst(e.span, ERROR, None)
        if not 1 <= len(e.args) + len(e.keywords) <= most or len(e.args) < 1:
            self.msg.error("E0204", e.span, func=name, expected=most if most == 1 else "1 or 2",
                           s="" if most == 1 else "s", found=len(e.args) + len(e.keywords))
            return TConst(e.span, ERROR, None)
        elt, clauses = self.source(float_sums.mixed_display(e.args[0]) if name == "sum" else e.args[0])
        if name == "list":
            return self.build_list(e.span, elt, clauses)
        if name == "sum":
            start = e.args[1] if len(e.args) > 1 else (e.keywords[0].value if e.keywords else None)
            return self.sum_of(e, elt, clauses, start)
        return self.any_all(name, e.span, elt, clauses)

    def _known_type(self, e: ast.Expr) -> Type | None:
        """The type of a local variable `d`, or of `d[k]` of a local dict or defaultdict, read
        without checking the expression; None for anything else."""
        if isinstance(e, ast.Name):
            found = self.chk.scopes.lookup(e.id)
            return found.type if isinstance(found, LocalVar) else None
        if isinstance(e, ast.Subscript) and len(e.items) == 1 and not isinstance(e.items[0], ast.Slice):
            base = self._known_type(e.value)
            if isinstance(base, StructType) and (is_builtin(base, "Dict") or is_builtin(base, "defaultdict")):
                held = base.ct_env.get("V")
                return held if isinstance(held, Type) else None
        return None

    def dict_of_pairs(self, e: ast.Call) -> ast.Comprehension | None:
        """`dict(pairs)` of a list (or any iterable) of pairs, `dict(zip(ks, vs))`: the dict
        comprehension `{k: v for k, v in pairs}` (whose unpacking refuses items that are not
        pairs); `dict(d)` of a dict: a copy, `{k: v for k, v in d.items()}`."""
        if len(e.args) != 1 or e.keywords:
            return None
        arg = e.args[0]
        if _is_mapping(self._known_type(arg)) or isinstance(arg, ast.DictExpr) \
                or (isinstance(arg, ast.Comprehension) and arg.kind == "dict"):
            arg = ast.Call(arg.span, ast.Attribute(arg.span, arg, "items"), (), ())
        key, value = ast.Name(arg.span, f"$key{arg.span.start}"), ast.Name(arg.span, f"$value{arg.span.start}")
        pair = ast.TupleExpr(arg.span, (key, value))
        return ast.Comprehension(e.span, "dict", key, value, (ast.CompFor(arg.span, pair, arg),))

    def sorted_call(self, e: ast.Call) -> TExpr | None:
        """sorted(iterable, reverse=...) of anything but a List variable (the stdlib's `sorted`
        copies that one): the items collected into a new List, as Python's sorted does, which
        `List.sort` then sorts. None where the stdlib's `sorted` applies."""
        if len(e.args) != 1 or any(kw.name != "reverse" for kw in e.keywords):
            return None
        arg = e.args[0]
        found = self.chk.scopes.lookup(arg.id) if isinstance(arg, ast.Name) else None
        if isinstance(found, LocalVar) and is_builtin(found.type, "List"):
            return None
        elt, clauses = self.source(arg)
        made = self.build_list(e.span, elt, clauses)
        if not isinstance(made, TStmtExpr) or not isinstance(made.result, TMove):
            return made
        acc = made.result.var
        reverse = [self.exprs.expr(kw.value) for kw in e.keywords] or [TConst(e.span, T.BOOL, False)]
        call = self.chk.structs.method_call(TLocal(e.span, acc.type, acc), "sort", reverse, e.span)
        if call is None or call.type == ERROR:
            return TConst(e.span, ERROR, None)
        made.body.append(TExprStmt(e.span, call))
        return made

    def round_call(self, decl: ast.FnDef, e: ast.Call) -> TExpr:
        """round(x) of a float is an int, round(x, n) a float (stdlib/builtins.px has each);
        round of an int is an int."""
        for kw in e.keywords:
            if kw.name != "ndigits" or len(e.args) != 1:
                self.msg.error("E0207", kw.span, func="round", name=kw.name)
                return TConst(e.span, ERROR, None)
        given = [*e.args, *(kw.value for kw in e.keywords)]
        if not 1 <= len(given) <= 2:
            self.msg.error("E0204", e.span, func="round", expected="1 or 2", s="s", found=len(given))
            return TConst(e.span, ERROR, None)
        x = self.exprs.expr(given[0])
        digits = self.exprs.coerce(self.exprs.expr(given[1]), T.INT) if len(given) == 2 else None
        if x.type == ERROR or (digits is not None and digits.type == ERROR):
            return TConst(e.span, ERROR, None)
        if x.type == T.BOOL:
            x = self.chk.calls.convert(x, T.INT, x.span)
        if is_builtin(x.type, "Number"):  # Python's `int | float`: an int, or as it holds (stdlib/number.px)
            found = self.chk.structs.method_call(x, "_round_to" if digits is not None else "_round_int",
                                                 [digits] if digits is not None else [], e.span)
            return found if found is not None else TConst(e.span, ERROR, None)
        t = default_type(x.type)
        if not (isinstance(t, ScalarType) and not t.is_bool):
            self.msg.error("E0203", e.span, op="round", operand=x.type)
            return TConst(e.span, ERROR, None)
        home = self.chk.home_of(decl)
        if not t.is_float:
            x = self.exprs.coerce(x, T.INT) if t != T.INT else x
            if digits is None:
                return x
            return self.chk.calls.finish_call(home.functions["_round_int"], [x, digits], e.span, e.func.span)
        x = self.exprs.coerce_or_convert(x, T.FLOAT64) if t != T.FLOAT64 else self.exprs.coerce(x, t)
        if digits is None:
            return self.chk.calls.finish_call(decl, [x], e.span, e.func.span)
        return self.chk.calls.finish_call(home.functions["_round_digits"], [x, digits], e.span, e.func.span)

    def joined(self, e: ast.Call) -> ast.Call:
        """`sep.join(generator)`: Python's join makes a list of the items first; so does pyx."""
        if len(e.args) == 1 and is_generator(e.args[0]):
            gen = e.args[0]
            assert isinstance(gen, ast.Comprehension)
            return replace(e, args=(replace(gen, kind="list"),))
        if len(e.args) == 1 and self.chk.generators.names_generator(e.args[0]):  # `sep.join(words(s))`
            arg = e.args[0]
            item = ast.Name(arg.span, "$item")
            listed = ast.Comprehension(arg.span, "list", item, None, (ast.CompFor(arg.span, item, arg),))
            return replace(e, args=(listed,))
        return e

    def source(self, arg: ast.Expr) -> tuple[ast.Expr, tuple]:
        """A generator expression's element and clauses; any other iterable `it` is `x for x in it`."""
        if isinstance(arg, ast.Comprehension) and arg.kind == "generator":
            return arg.elt, arg.clauses
        item = ast.Name(arg.span, "$item")
        return item, (ast.CompFor(arg.span, item, arg),)

    def sum_of(self, e: ast.Call, elt: ast.Expr, clauses: tuple, start_expr: ast.Expr | None) -> TExpr:
        """Python's sum: start + the items, added left to right (floats in that order exactly).

        Floats from an int start (`sum(xs)` starts from the int 0) add as from the float start:
        `0 + x` is `0.0 + x`, even for `-0.0`. Only with no items does CPython give the int start,
        which a float result cannot be: there the sum raises, saying what to write, unless the
        iterable is a display with items (semantics/float_sums.py gives the float start where the
        int cannot show)."""
        start = self.exprs.expr(start_expr) if start_expr is not None else TConst(e.span, T.INT_LITERAL, 0)
        if start.type == ERROR:
            return start
        acc = self.chk.new_var("$sum", ERROR, e.span)
        seen = self.chk.new_var("$summed", T.BOOL, e.span)  # set by each item where the int start can show
        int_start = start.type == T.INT_LITERAL or (isinstance(start.type, ScalarType) and start.type.is_int)
        arg = e.args[0]
        shown = not (isinstance(arg, (ast.ListExpr, ast.TupleExpr, ast.SetExpr)) and arg.elts
                     and not any(isinstance(x, ast.Starred) for x in arg.elts))
        check: list[bool] = []

        def item() -> list[TStmt]:
            v = self.item_value(elt)
            if v.type == T.BOOL:
                v = self.chk.calls.convert(v, T.INT, v.span)  # True counts 1, as in Python
            if v.type == ERROR:
                return []
            if acc.type == ERROR:
                total = self.exprs.binary("+", start, v, e.span)
                if total.type == ERROR:
                    return []
                t = default_type(total.type)
                from .classes import is_class

                # objects add with their class's `__add__` from the start given (`sum(fs, Frac(0))`)
                if not ((isinstance(t, ScalarType) and not t.is_bool) or (is_class(t) and start_expr is not None)
                        or is_builtin(t, "Number")):  # (Python's `int | float`: semantics/numbers.py)
                    self.msg.error("E0203", e.span, op="sum", operand=v.type)
                    return []
                acc.type = t
                if isinstance(t, ScalarType) and t.is_float and int_start and shown:
                    check.append(True)
            total = self.exprs.binary("+", TLocal(e.span, acc.type, acc), v, e.span)
            add = self.chk.store([acc], [self.exprs.coerce(total, acc.type)], e.span)
            return [add, self.chk.store([seen], [TConst(e.span, T.BOOL, True)], e.span)] if check else [add]

        body = self.loop(clauses, e.span, item)
        if not check:
            return self.finish(e.span, acc, body, lambda: self.exprs.coerce(start, acc.type))
        body.insert(0, self.chk.store([seen], [TConst(e.span, T.BOOL, False)], e.span))
        empty = TUnary(e.span, T.BOOL, "not", TLocal(e.span, T.BOOL, seen))
        failure = float_sums.empty_sum_failure(e.span, start_expr is None)
        return self.finish(e.span, acc, body, lambda: self.exprs.coerce(start, acc.type),
                           lambda: [TIf(e.span, empty, failure, [])])

    def any_all(self, name: str, span: Span, elt: ast.Expr, clauses: tuple) -> TExpr:
        """any: False until an item is true; all: True until one is false. Each stops at once."""
        found = name == "any"
        acc = self.chk.new_var(f"${name}", T.BOOL, span)

        def read() -> TExpr:
            return TLocal(span, T.BOOL, acc)

        def decided() -> TExpr:
            return read() if found else TUnary(span, T.BOOL, "not", read())

        def item() -> list[TStmt]:
            v = self.exprs.expr(elt)
            if v.type == ERROR:
                return []
            test = self.exprs.truth(self.exprs.value(v), elt.span)
            if test.type == ERROR:
                return []
            if not found:
                test = TUnary(elt.span, T.BOOL, "not", test)
            return [TIf(elt.span, test, [self.chk.store([acc], [TConst(span, T.BOOL, found)], span),
                                         TBreak(span)], [])]

        body = self.loop(clauses, span, item, decided)
        return self.finish(span, acc, body, lambda: TConst(span, T.BOOL, not found))

    def extreme(self, name: str, e: ast.Call) -> TExpr:
        """min/max of an iterable: the first item, then each one that compares below (above) the
        one kept, so the first of equal items wins, as in Python; `default=` for an empty one."""
        default = None
        for kw in e.keywords:
            if kw.name == "default":
                default = kw.value
            else:  # (`key=` is semantics/closures.py's, which sees the call first)
                self.msg.error("E0207", kw.span, func=name, name=kw.name)
                return TConst(e.span, ERROR, None)
        elt, clauses = self.source(e.args[0])
        acc = self.chk.new_var(f"${name}", ERROR, e.span)
        seen = self.chk.new_var("$seen", T.BOOL, e.span)
        op = "<" if name == "min" else ">"

        def item() -> list[TStmt]:
            v = self.item_value(elt)
            if v.type == ERROR:
                return []
            if acc.type == ERROR:
                acc.type = v.type
            v = self.exprs.coerce(v, acc.type)
            if v.type == ERROR:
                return []
            current = self.chk.new_var("$current", acc.type, elt.span)
            self.chk.scopes.declare("$current", current)
            self.chk.scopes.declare("$kept", acc)
            keep = self.chk.store([current], [v], elt.span)
            assigned = self.chk.assigned
            if assigned is not None:
                assigned.add(acc)  # read only once an item is kept (`$seen`)
            better = self.exprs.condition(ast.Compare(elt.span, ast.Name(elt.span, "$current"), (op,),
                                                      (ast.Name(elt.span, "$kept"),)))
            if better.type == ERROR:
                return []
            take: list[TStmt] = [self.chk.store([acc], [TMove(elt.span, acc.type, current)], elt.span)]
            first: list[TStmt] = [*take, self.chk.store([seen], [TConst(e.span, T.BOOL, True)], e.span)]
            return [keep, TIf(elt.span, TUnary(e.span, T.BOOL, "not", TLocal(e.span, T.BOOL, seen)), first,
                              [TIf(elt.span, better, list(take), [])])]

        body = self.loop(clauses, e.span, item)

        def after() -> list[TStmt]:
            empty = TUnary(e.span, T.BOOL, "not", TLocal(e.span, T.BOOL, seen))
            if default is None:
                return [TIf(e.span, empty, [TRaise(e.span, "ValueError", f"{name}() arg is an empty sequence")], [])]
            value = self.exprs.coerce(self.exprs.expr(default), acc.type)
            if value.type == ERROR:
                return []
            return [TIf(e.span, empty, [self.chk.store([acc], [value], e.span)], [])]

        if acc.type == ERROR:
            return TConst(e.span, ERROR, None)
        self.chk.ownership.need_drop(acc.type, e.span)
        start = self.chk.store([seen], [TConst(e.span, T.BOOL, False)], e.span)  # acc holds nothing yet
        return TStmtExpr(e.span, acc.type, [start, *body, *after()], TMove(e.span, acc.type, acc))
