"""Generators: `def` functions with `yield`, run where they are iterated.

A call of a generator function makes a *generator value*: a struct of the call's arguments (a
`GeneratorType`, one per generator function and argument types), nothing run yet, as in Python.
Iterating it (a `for` loop, or a builtin that consumes an iterable: sum, list, sorted, min, max,
any, all, str.join, set, dict, ...) expands the generator's body in place, at the loop: its
parameters are bound to the arguments, and each `yield v` binds the loop's target to v and runs
the loop's body there. So a generator is compiled into its consumer's loop, with no frame and no
resume function: `for x in gen(n)` runs as fast as the loop written out by hand. The body keeps
its own scope (the consumer's names are not visible in it, nor its names in the consumer), and:

- `break` in the consumer's body ends the generator where it stands (its `finally` blocks run, its
  values are destroyed, as CPython's garbage collection of the abandoned generator does); so does
  `return` in the generator; `continue` goes back into the generator after its `yield`;
- a `$stop` flag carries a `break` out of the generator's own loops: each of them is followed by a
  check of it;
- `yield from it` is `for x in it: yield x`.

`next(g[, default])` is a consumer too: the loop up to the first `yield`; `enumerate(gen)` and
`zip(gen, lists or strings...)` become a count and indexes beside the generator's loop. The uses
that need the generator suspended as an object of its own (`next(g)` then more, `zip` with a
generator after the first argument, recursion, ...) get a generator object instead, made before
checking (syntax/generator_objects.py: a class; `object_next` here gives it `next`). What neither
can do is rejected when compiling, never run differently from CPython: a generator
variable used again after it was iterated, passed, given to `next` or rebound where no object
could be made (E0274); a generator that iterates itself
(recursion), `yield` inside a `try` body that has `except` clauses (the consumer's exceptions would
reach the generator's handlers), `return value` in a generator, a nested function or lambda in
one (E0275); `yield` in a `fn` or kernel (E0273) or outside any function (E0016).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ERROR, StructType, Type
from .builtin_types import is_builtin
from .comprehensions import CompStep
from .globals import bound_names
from .imports import is_stdlib_file
from .lazy_itertools import takes_generators
from .per_declaration import PerDeclaration
from .rules import Loop, typed_by_argument
from .scope import StructSymbol
from .typed import (
    LocalVar,
    TAssign,
    TBlock,
    TBreak,
    TClosure,
    TConst,
    TContinue,
    TCopy,
    TExpr,
    TField,
    TIf,
    TLocal,
    TMove,
    TRaise,
    TStmt,
    TStmtExpr,
    TTry,
    TUnary,
    TWhile,
)

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .messages import MessageBuilder


@dataclass(frozen=True, eq=False)
class GeneratorType(StructType):
    """A generator value: the arguments of one call of a generator function, one field each. Its
    symbol (a `GeneratorSymbol`) names the function; iterating the value runs its body."""

    def declaration(self) -> object:
        """One type per generator function, owner and argument types (not per name: `gen(Point)`
        of two modules' Points reads the same); the struct behind it is made again at each call."""
        sym = self.symbol
        return ("generator", id(getattr(sym, "function", None)), getattr(sym, "owner", None),
                tuple(t for _, t in self.fields))

    @property
    def qualified_name(self) -> str:
        plain = ", ".join(t.name for _, t in self.fields)
        return self.name.replace(f"({plain})", f"({', '.join(T.qualified_name(t) for _, t in self.fields)})", 1)


@dataclass(eq=False)
class GeneratorSymbol(StructSymbol):
    function: ast.FnDef | None = None
    owner: StructType | None = None  # a generator method's struct: its first field is `self`


# Whether a declaration's body yields: walked once (every call asks).
_YIELDS: PerDeclaration[bool] = PerDeclaration()


def _walk_stmts(body) -> list[ast.Node]:
    """Every statement and expression of a body, not entering nested functions, lambdas or classes."""
    out: list[ast.Node] = []
    stack = list(reversed(body))
    while stack:
        n = stack.pop()
        out.append(n)
        if isinstance(n, (ast.FnDef, ast.Lambda)) or type(n).__name__ in ("ClassDef", "StructDef"):
            continue
        stack.extend(reversed(list(ast.children(n))))
    return out


def yields(decl: ast.FnDef) -> bool:
    """Whether `decl`'s own body has a `yield` (one in a nested function is that function's)."""
    found = _YIELDS.get(decl)
    if found is not None:
        return found
    return _YIELDS.put(decl, any(isinstance(n, ast.Yield) for n in _walk_stmts(decl.body)))


def is_generator(decl: ast.FnDef) -> bool:
    """A `def` whose body yields: calling it makes a generator value (a `fn` with `yield` is E0273)."""
    return decl.kind == "def" and yields(decl)


# `typing` names of iterables: a parameter annotated with one takes whatever is passed (a List, a
# generator, ...): Python checks nothing at run time either.
ITERABLE_NAMES = ("Iterable", "Iterator", "Generator")


def _is_iterable_annotation(e: ast.Expr | None) -> bool:
    if isinstance(e, ast.Subscript):
        e = e.value
    return (isinstance(e, ast.Name) and e.id in ITERABLE_NAMES) or (
        isinstance(e, ast.Attribute) and e.attr in ITERABLE_NAMES and isinstance(e.value, ast.Name)
        and e.value.id == "typing")


def iterable_params(decl: ast.FnDef) -> ast.FnDef:
    """`def total(xs: Iterable[int])`: the parameter gets a compile-time type parameter of its own,
    bound to the type of what is passed (as `Callable[...]` parameters do: closures.py), so the
    function is compiled once per kind of iterable passed; a generator's result annotation
    (`-> Iterator[int]`) is not needed: its yields give the items' type."""
    return typed_by_argument(decl, _is_iterable_annotation)


class _Context:
    """What the checker's name lookup and loop state were at one place: the consumer's, while the
    generator's body is checked, and back."""

    def __init__(self, chk: FunctionChecker, active: list) -> None:
        scopes = chk.scopes
        self.blocks = scopes.blocks
        self.function_block = scopes.function_block
        self.on_outermost = scopes.on_outermost
        self.loops = chk.loops
        self.active = active

    def enter(self, chk: FunctionChecker, gens: GeneratorChecker) -> _Context:
        here = _Context(chk, gens.active)
        chk.scopes.blocks, chk.scopes.function_block = self.blocks, self.function_block
        chk.scopes.on_outermost, chk.loops, gens.active = self.on_outermost, self.loops, self.active
        return here


class GeneratorChecker:
    """Generator functions and their values (`chk.generators`)."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.msg: MessageBuilder = chk.msg
        # The iterable of the `for` being checked: a generator call there is expanded with its
        # arguments as they are (no copies into a value first).
        self.direct: ast.Expr | None = None
        self.direct_args: dict[int, list[TExpr]] = {}
        self.active: list[ast.FnDef] = []  # the generators being expanded, outermost first
        # The generator function made for each generator expression used as a value, by site.
        self._genexprs: dict[tuple, ast.FnDef] = {}
        self.count = 0
        self.stops_used: set[LocalVar] = set()  # the stop flags something may set
        self.first_inner: dict[int, int] = {}  # id(a `for` over a generator) -> its body's first variable id
        self.stop_checks: dict[LocalVar, list[TIf]] = {}  # each flag's checks

    # ---- `yield` where no generator is being expanded ----
    def stmt_Yield(self, s: ast.Yield) -> TStmt | None:
        decl = self.chk.fn.decl
        if decl.name == "<module>" or self.chk.globals.script:
            self.msg.error("E0016", s.span)
        elif decl.kind == "fn" or self.chk.fn.is_kernel:
            self.msg.error("E0273", s.span, func=decl.name,
                           what="a kernel" if self.chk.fn.is_kernel else "a `fn`")
        else:  # (a generator's body is checked only where it is iterated)
            self.msg.error("E0275", s.span, construct="`yield` here")
        return None

    def names_generator(self, e: ast.Expr) -> bool:
        """Whether `e` is, by its spelling, a call of a generator function or a generator variable."""
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and self.chk.scopes.lookup(e.func.id) is None:
            decl = self.chk.module.functions.get(e.func.id)
            return decl is not None and is_generator(decl)
        if isinstance(e, ast.Name):
            found = self.chk.scopes.lookup(e.id)
            return isinstance(found, LocalVar) and isinstance(found.type, GeneratorType)
        return False

    def _stdlib_or_none(self, name: str) -> bool:
        """Whether the module's function `name` (not shadowed) is the stdlib's `enumerate` or `zip`
        (its `@builtin_function` role, semantics/builtin_functions.py), or there is none."""
        from .builtin_functions import is_builtin_function

        decl = self.chk.module.functions.get(name)
        return decl is None or is_builtin_function(decl, name)

    def enumerated(self, s: ast.For) -> TStmt | None:
        """`for i, x in enumerate(gen(...), start)`: a count beside the generator's own loop (the
        standard library's `enumerate` steps through an iterator object, which a generator is not).
        None where the iterable is anything else."""
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate"
                and self.chk.scopes.lookup("enumerate") is None and it.args):
            return None
        if not self._stdlib_or_none("enumerate"):
            return None
        source = it.args[0]
        if not (self.names_generator(source) or (isinstance(source, ast.Comprehension) and source.kind == "generator")):
            return None
        starts = [*it.args[1:], *(kw.value for kw in it.keywords if kw.name == "start")]
        if len(starts) > 1 or len(it.args) + len(it.keywords) > 2 or any(kw.name != "start" for kw in it.keywords):
            return None
        start = starts[0] if starts else ast.IntLit(it.span, 0)
        plain = (ast.IntLit, ast.Name)  # read before the generator is made: nothing to run out of order
        if not (isinstance(start, plain) or (isinstance(start, ast.Unary) and isinstance(start.operand, ast.IntLit))):
            return None
        count, item = f"$enumerate{it.span.start}", f"$enumerated{it.span.start}"
        sp = it.span
        loop = ast.For(s.span, ast.Name(sp, item), source, (
            ast.Assign(s.target.span, (s.target,), ast.TupleExpr(sp, (ast.Name(sp, count), ast.Name(sp, item)))),
            ast.AugAssign(sp, ast.Name(sp, count), "+", ast.IntLit(sp, 1)),
            *s.body))
        return TBlock(s.span, self.chk.block([ast.Assign(sp, (ast.Name(sp, count),), start), loop]))

    def zipped(self, s: ast.For) -> TStmt | None:
        """`for a, b in zip(gen(...), xs, ...)` with the generator first and lists or strings after:
        the generator's loop, each item paired with the others' next element, read by index through
        the list itself (as CPython's list iterator reads it), ending when one runs out. The
        generator runs to its next item before the others are looked at, as `zip` asks it first.
        None where the arguments are anything else (a generator after the first is E0274, from
        the standard library's `zip`)."""
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "zip"
                and self.chk.scopes.lookup("zip") is None and len(it.args) >= 2 and not it.keywords):
            return None
        if not self._stdlib_or_none("zip"):
            return None
        source, others = it.args[0], it.args[1:]
        if not (self.names_generator(source) or (isinstance(source, ast.Comprehension) and source.kind == "generator")):
            return None
        sp = it.span
        if isinstance(source, ast.Name):  # a variable's generator: iterated through it (its rules apply)
            made, stmts = source.id, []
        else:  # made first, as zip's argument; a temporary, as Python's zip object is
            made = f"$generator_zip{sp.start}"
            stmts = self.chk.block([ast.Assign(sp, (ast.Name(sp, made),), source)])
        refs: list[ast.Expr] = []
        for k, other in enumerate(others):
            found = self.chk.scopes.lookup(other.id) if isinstance(other, ast.Name) else None
            if isinstance(found, LocalVar):
                t = found.type
                ref: ast.Expr = other  # read through the variable at each step: changes are seen
            else:
                value = self.chk.exprs.expr(other)
                if value.type == T.STRING_LITERAL and self.chk.exprs.string_type() is not None:
                    value = self.chk.exprs.coerce(value, self.chk.exprs.string_type())
                t = value.type
                if t == ERROR:
                    return TBlock(s.span, stmts)
                var = self.chk.new_var(f"$zipped{k}_{sp.start}", t, other.span)
                self.chk.scopes.declare(var.name, var, function_wide=True)
                stmts.append(self.chk.store([var], [value], other.span))
                ref = ast.Name(other.span, var.name)
            if t == ERROR:
                return TBlock(s.span, stmts)
            if not (is_builtin(t, "List") or is_builtin(t, "String")):
                self.msg.error("E0274", other.span, what=f"zipped with a `{t}` (only lists and strings, after it)")
                return TBlock(s.span, stmts)
            refs.append(ref)
        index, item = ast.Name(sp, f"$zip_index{sp.start}"), ast.Name(sp, f"$zip_item{sp.start}")
        ended = [ast.If(sp, ast.Compare(sp, index, (">=",), (ast.Call(sp, ast.Name(sp, "len"), (r,), ()),)),
                        (ast.Break(sp),), ()) for r in refs]
        row = ast.TupleExpr(sp, (item, *(ast.Subscript(sp, r, (index,)) for r in refs)))
        loop = ast.For(s.span, item, ast.Name(sp, made), (
            *ended, ast.Assign(s.target.span, (s.target,), row), ast.AugAssign(sp, index, "+", ast.IntLit(sp, 1)),
            *s.body))
        stmts += self.chk.block([ast.Assign(sp, (index,), ast.IntLit(sp, 0)), loop])
        return TBlock(s.span, stmts)

    def dict_call(self, e: ast.Call) -> ast.Comprehension | None:
        """`dict((k, v) for ...)` or `dict(gen())` of pairs: the dict comprehension it stands for
        (`{k: v for k, v in gen()}`, whose unpacking refuses items that are not pairs). None for
        any other `dict(...)`."""
        if len(e.args) != 1 or e.keywords:
            return None
        arg = e.args[0]
        if isinstance(arg, ast.Comprehension) and arg.kind == "generator":
            if isinstance(arg.elt, ast.TupleExpr) and len(arg.elt.elts) == 2:
                return ast.Comprehension(e.span, "dict", arg.elt.elts[0], arg.elt.elts[1], arg.clauses)
        elif not self.names_generator(arg):
            return None
        key, value = ast.Name(arg.span, f"$key{arg.span.start}"), ast.Name(arg.span, f"$value{arg.span.start}")
        pair = ast.TupleExpr(arg.span, (key, value))
        return ast.Comprehension(e.span, "dict", key, value, (ast.CompFor(arg.span, pair, arg),))

    def next_call(self, e: ast.Call) -> TExpr | None:
        """`next(gen(...))`, `next(x for x in xs if ...)`, `next(g, default)`: the first item, found
        by running the generator until it yields (the rest of it is dropped, as CPython drops the
        generator object; a variable `g` is used up: E0274 if read again). With no item, the
        default, else StopIteration. None where the argument is no generator."""
        if not 1 <= len(e.args) <= 2 or e.keywords:
            return None
        arg = e.args[0]
        if not (self.names_generator(arg) or (isinstance(arg, ast.Comprehension) and arg.kind == "generator")):
            return self.object_next(e)
        comps = self.chk.comprehensions
        span = e.span
        elt, clauses = comps.source(arg)
        acc = self.chk.new_var("$next", ERROR, span)
        found = self.chk.new_var("$found", T.BOOL, span)

        def item() -> list[TStmt]:
            v = comps.item_value(elt)
            if v.type == ERROR:
                return []
            if acc.type == ERROR:
                acc.type = v.type
                self.chk.ownership.need_drop(acc.type, span)
            v = self.chk.exprs.coerce(v, acc.type)
            if v.type == ERROR:
                return []
            if self.chk.assigned is not None:
                self.chk.assigned.add(acc)  # read only once found
            return [self.chk.store([acc], [v], span), self.chk.store([found], [TConst(span, T.BOOL, True)], span),
                    TBreak(span)]

        body = comps.loop(clauses, span, item, lambda: TLocal(span, T.BOOL, found))
        if acc.type == ERROR:
            return TConst(span, ERROR, None)
        missing = TUnary(span, T.BOOL, "not", TLocal(span, T.BOOL, found))
        if len(e.args) == 1:
            after: TStmt = TIf(span, missing, [TRaise(span, "StopIteration", "")], [])
        else:
            default = self.chk.exprs.coerce(self.chk.exprs.expr(e.args[1]), acc.type)
            if default.type == ERROR:
                return TConst(span, ERROR, None)
            after = TIf(span, missing, [self.chk.store([acc], [default], span)], [])
        start = self.chk.store([found], [TConst(span, T.BOOL, False)], span)
        return TStmtExpr(span, acc.type, [start, *body, after], TMove(span, acc.type, acc))

    def object_next(self, e: ast.Call) -> TExpr | None:
        """`next(g[, default])` of a generator object (a class made by syntax/generator_objects.py):
        its `__next__()` (StopIteration when exhausted) or `_pyx_next_or(default)`, the default
        evaluated before the generator runs, as Python evaluates arguments. None for anything else."""
        from ..syntax.generator_objects import PREFIX

        arg = e.args[0]
        if any(isinstance(n, (ast.Call, ast.Lambda, ast.Comprehension)) for n in _walk_stmts([arg])):
            return None  # (its type is looked at first: nothing that runs code is checked twice)
        if isinstance(arg, ast.Name):
            found = self.chk.scopes.lookup(arg.id)
            t = found.type if isinstance(found, LocalVar) else None
        else:
            t = self.chk.exprs.expr(arg).type
        if not (isinstance(t, StructType) and t.name.startswith(PREFIX)):
            return None
        method = ast.Attribute(e.func.span, arg, "__next__" if len(e.args) == 1 else "_pyx_next_or")
        return self.chk.exprs.expr(ast.Call(e.span, method, tuple(e.args[1:]), ()))

    # ---- generator expressions as values ----
    def genexpr_value(self, e: ast.Comprehension) -> TExpr:
        """`(f(x) for x in xs if p(x))` anywhere but as the argument of a builtin that consumes it at
        once: the value of a generator function made for it, `def <genexpr>(it, names...): for x
        in it: if p(x): yield f(x)`, called with the first iterable (Python evaluates it at once)
        and the values of the names it reads from the enclosing function. Those must be bound
        only once there (Python reads them when the generator runs: E0270 otherwise)."""
        from .closures import binding_count, scope_of

        first = e.clauses[0]
        assert isinstance(first, ast.CompFor)
        span = e.span
        it = first.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
                and not it.keywords and self.chk.scopes.lookup("range") is None:
            # `range(n)` is no value in pyx: its arguments are, and the body calls range itself
            names = [f"$genexpr_range{i}" for i in range(len(it.args))]
            named = tuple(ast.Name(a.span, n) for a, n in zip(it.args, names, strict=True))
            first_iter: ast.Expr = ast.Call(it.span, it.func, named, ())
            args: list[ast.Expr] = list(it.args)
        else:
            names = ["$genexpr_iterable"]
            first_iter = ast.Name(it.span, names[0])
            args = [it]
        body: ast.Stmt = ast.Yield(e.elt.span, e.elt)
        for clause in reversed(e.clauses):
            if isinstance(clause, ast.CompIf):
                body = ast.If(clause.span, clause.test, (body,), ())
            else:
                assert isinstance(clause, ast.CompFor)
                body = ast.For(clause.span, clause.target, clause.iter if clause is not first else first_iter,
                               (body,))
        params = [ast.Param(it.span, n, None, None, None) for n in names]
        locals_, _, free = scope_of(tuple(params), (body,))
        frame = self.chk.fn.decl.body
        for name in free:
            found = self.chk.scopes.lookup(name)
            if not isinstance(found, LocalVar) or found.global_symbol is not None or name in locals_:
                continue  # a function, a module-level variable, a builtin: the body finds it itself
            rebound = binding_count(name, frame) > (0 if found.is_param else 1)
            if rebound:
                self.msg.error("E0270", span, name=name)
                return TConst(span, ERROR, None)
            params.append(ast.Param(span, name, None, None, None))
            args.append(ast.Name(span, name))
        key = (id(e), tuple(p.name for p in params))
        decl = self._genexprs.get(key)
        if decl is None:
            decl = ast.FnDef(span, "def", "<genexpr>", span, (), tuple(params), False, None, (body,))
            self._genexprs[key] = decl
        values = [self.chk.exprs.value(self.chk.exprs.expr(a)) for a in args]
        if any(v.type == ERROR for v in values):
            return TConst(span, ERROR, None)
        values = [self.chk.exprs.coerce(v, self.chk.exprs.string_or(T.default_type(v.type))) for v in values]
        return self.made(decl, values, [v.type for v in values], span, None)

    # ---- making a generator value ----
    def type_for(self, decl: ast.FnDef, types: list[Type], owner: StructType | None) -> GeneratorType:
        where = f"{owner.name}." if owner is not None else ""
        name = f"<generator {where}{decl.name}({', '.join(t.name for t in types)}) at {decl.name_span}>"
        home = self.chk.home_of(decl)
        fields = [(f"arg{i}", t) for i, t in enumerate(types)]
        gtype = GeneratorType(name, getattr(home, "name", ""), fields, name, {}, None)
        struct = ast.StructDef(decl.span, name, decl.name_span, (), (), (), (), ())
        sym = GeneratorSymbol(struct, gtype, {}, "done", home=home, function=decl, owner=owner)
        object.__setattr__(gtype, "symbol", sym)
        return gtype

    def made(self, decl: ast.FnDef, args: list[TExpr], types: list[Type], span: Span,
             owner: StructType | None) -> TExpr:
        """`gen(args)`: the generator value, or, where a `for` iterates the call itself, a marker the
        loop expands with the arguments as they are."""
        if any(a.type == ERROR for a in args):
            return TConst(span, ERROR, None)
        if self.chk.home_of(decl) is not self.chk.module:
            self.msg.error("E0275", span, construct=f"`{decl.name}` (a generator of another module) called here; "
                           "a generator's body")
            return TConst(span, ERROR, None)
        problem = self.unsupported(decl)
        if problem is not None:
            self.msg.error("E0275", problem[1], construct=problem[0])
            return TConst(span, ERROR, None)
        gtype = self.type_for(decl, list(types), owner)
        if self.direct is not None and self.direct.span == span:
            self.direct = None
            marker = TConst(span, gtype, None)
            self.direct_args[id(marker)] = args
            return marker
        values = [self.taken(a) if isinstance(a.type, GeneratorType) and is_place(a)
                  else self.chk.ownership.consume(a, "kept by a generator") for a in args]
        if any(v.type == ERROR for v in values):
            return TConst(span, ERROR, None)
        holder = self.chk.new_var("$generator", gtype, span)
        self.chk.ownership.need_drop(gtype, span)
        # Each value inserted into the struct as its new owner takes it (a TCopy of nothing, all its
        # fields given: ir/ownership.py `copy_fields`), so no copy is also destroyed as a temporary.
        built = TCopy(span, gtype, TClosure(span, gtype, []), dict(enumerate(values)))
        store = self.chk.store([holder], [built], span)
        result = TMove(span, gtype, holder) if self.chk.ownership.owning(gtype) else TLocal(span, gtype, holder)
        return TStmtExpr(span, gtype, [store], result)

    def unsupported(self, decl: ast.FnDef) -> tuple[str, Span] | None:
        """What in a generator's body pyx cannot run (E0275), and where."""
        for n in _walk_stmts(decl.body):
            if isinstance(n, (ast.FnDef, ast.Lambda)):
                return "a nested function or lambda", n.span
            if isinstance(n, ast.Return) and n.value is not None:
                return "`return` with a value", n.span
            if isinstance(n, ast.Yield) and n.value is None:
                return "a bare `yield` (it yields None)", n.span
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                return "`global` or `nonlocal`", n.span
            if isinstance(n, ast.Try) and n.handlers:
                inside = [y for part in (n.body, *(h.body for h in n.handlers))
                          for y in _walk_stmts(part) if isinstance(y, ast.Yield)]
                if inside:
                    return "`yield` inside `try` ... `except`", inside[0].span
        if any(not p.name.startswith("type of ") for p in decl.ct_params):
            return "compile-time parameters", decl.name_span
        if decl.self_convention not in (None, ""):
            return f"a `{decl.self_convention} self` method", decl.name_span
        if any(p.variadic for p in decl.params):
            return "a `*` parameter", decl.name_span
        if any(p.convention is not None for p in decl.params[1 if decl.self_convention is not None else 0:]):
            return "an argument convention", decl.name_span
        return None

    def passed(self, decl: ast.FnDef, args: list[TExpr], span: Span) -> bool:
        """A generator variable passed to a function: the callee may iterate it, so it is used up
        here, as iterating it would. The standard library's functions (`zip`, `enumerate`, ...)
        step through an iterator object, which a generator is not (E0274)."""
        for a in args:
            if not isinstance(a.type, GeneratorType):
                continue
            if is_stdlib_file(decl.span.file.name) and not takes_generators(decl):
                self.msg.error("E0274", a.span, what=f"passed to `{decl.name}`")
                return False
            if isinstance(a, TLocal) and not self.use_up(a):
                return False
        return True

    def use_up(self, value: TLocal) -> bool:
        """A generator variable is iterated once: reading it again is E0160 (it was used up here),
        and one made outside a loop cannot be used up inside it."""
        var = value.var
        loop = self.chk.loops[-1] if self.chk.loops else None
        if loop is not None and 0 < var.id < loop.first_inner and not var.is_param:
            self.msg.error("E0274", value.span, what="made outside a loop and iterated inside it (each pass would "
                           "start it again, where Python's is used up after the first)")
            return False
        if var.is_param and self.chk.loops and any(0 < var.id < lp.first_inner for lp in self.chk.loops):
            self.msg.error("E0274", value.span, what="iterated inside a loop (each pass would start it again, "
                           "where Python's is used up after the first)")
            return False
        self.chk.moved_at[var] = value.span
        if self.chk.assigned is not None:
            self.chk.assigned.discard(var)
        return True

    def taken(self, value: TExpr) -> TExpr:
        """A generator held somewhere (a variable, a field of another generator's arguments) given to
        a new owner that will iterate it: the old place is used up, so a copy of its arguments is
        the same generator."""
        if isinstance(value, TLocal) and not self.use_up(value):
            return TConst(value.span, ERROR, None)
        fields: dict[int, TExpr] = {}
        assert isinstance(value.type, GeneratorType)
        for i, (_, ft) in enumerate(value.type.fields):
            if not self.chk.ownership.owning(ft):
                continue
            inner = TField(value.span, ft, value, i)
            copied = self.taken(inner) if isinstance(ft, GeneratorType) else self.chk.ownership.copy_of(inner)
            if copied is None or copied.type == ERROR:
                self.msg.error("E0274", value.span, what="holding a value that cannot be copied")
                return TConst(value.span, ERROR, None)
            self.chk.ownership.need_drop(ft, value.span)
            fields[i] = copied
        return TCopy(value.span, value.type, value, fields)

    def rebound(self, value: TExpr) -> TExpr:
        """`h = g`: Python has one generator under two names; here h takes it and g is used up
        (reading g again is E0160), so the two can never be iterated apart."""
        if not isinstance(value, TLocal):
            self.copied(value)
            return TConst(value.span, ERROR, None)
        return self.taken(value)

    def copied(self, value: TExpr) -> None:
        """A generator value copied (`h = g`): two generators that would each start afresh, where
        Python has one object."""
        self.msg.error("E0274", value.span, what="copied (Python would share one generator)")

    # ---- iterating a generator value ----
    def iterate(self, s: ast.For, source: TExpr) -> TStmt | None:
        gtype = source.type
        assert isinstance(gtype, GeneratorType)
        sym = gtype.symbol
        assert isinstance(sym, GeneratorSymbol) and sym.function is not None
        decl = sym.function
        if decl in self.active:
            self.msg.error("E0275", s.iter.span, construct=f"a generator that iterates itself (`{decl.name}`)")
            return None
        stmts: list[TStmt] = []
        raw = self.direct_args.pop(id(source), None)
        if raw is not None:
            args = raw
        else:
            holder: LocalVar
            if isinstance(source, TLocal):
                if _has_finally(decl) and not source.var.name.startswith("$generator"):  # (not a temporary)
                    # A generator left early runs its `finally` when CPython drops it: at once for
                    # `for x in gen()`, but only when the variable goes for one a variable holds.
                    self.msg.error("E0274", source.span, what=f"with a `finally` block, iterated through the "
                                   f"variable `{source.var.name}` (Python runs the `finally` of one left early "
                                   "when the variable is dropped; iterate the call itself: `for x in gen(...)`)")
                    return None
                if not self.use_up(source):
                    return None
                holder = source.var
            else:
                holder = self.chk.new_var("$generator", gtype, s.iter.span)
                stmts.append(self.chk.store([holder], [source], s.iter.span))
            base = TLocal(s.iter.span, gtype, holder)
            args = [TField(s.iter.span, ft, base, i) for i, (_, ft) in enumerate(gtype.fields)]
        self.count += 1
        n = self.count
        span = s.iter.span
        stop = self.chk.new_var(f"$stop{n}", T.BOOL, span)
        stmts.append(self.chk.store([stop], [TConst(span, T.BOOL, False)], span))
        before = self.chk.copy_state()
        consumer = _Context(self.chk, self.active)
        scopes = self.chk.scopes
        scopes.blocks, scopes.function_block, scopes.on_outermost = [self.globals_block(decl), {}], 1, None
        self.chk.loops, self.active = [], [*self.active, decl]
        try:
            params = decl.params
            rebound, _ = bound_names(decl.body)
            for p, a in zip(params, args, strict=True):
                if isinstance(a, TLocal) and a.var.global_symbol is None and p.name not in rebound:
                    scopes.blocks[1][p.name] = a.var  # the caller's object itself, as Python passes it
                    continue
                var = self.chk.new_var(p.name, a.type, p.span)
                scopes.blocks[1][p.name] = var
                value = self.taken(a) if isinstance(a.type, GeneratorType) and is_place(a) else a
                stmts.append(self.chk.store([var], [value], p.span))
                if self.chk.assigned is not None:
                    self.chk.assigned.add(var)
            body = self.chk.block(self.rewrite(decl.body, s, consumer, stop), new_scope=True)
        finally:
            consumer.enter(self.chk, self)
        self.chk.assigned = before
        if stop not in self.stops_used:  # nothing stops it early: no check can be true
            for check in self.stop_checks.get(stop, []):
                check.test = TConst(span, T.BOOL, False)
        stmts.append(TWhile(s.span, TConst(span, T.BOOL, True), [*body, TBreak(span)]))
        return TBlock(s.span, stmts)

    def globals_block(self, decl: ast.FnDef) -> dict:
        """The module-level variables the generator's body may mean (Python's rule: not those it binds)."""
        block: dict = {}
        bound, declared = bound_names(decl.body)
        home = self.chk.home_of(decl)
        for name, var in getattr(home, "globals", {}).items():
            if name in bound and name not in declared:
                continue
            self.chk.next_id += 1
            alias = LocalVar(name, var.type, var.span, id=self.chk.next_id, owned=False,
                             global_symbol=var.global_symbol)
            block[name] = alias
            if self.chk.assigned is not None:
                self.chk.assigned.add(alias)
        return block

    def rewrite(self, body: tuple, s: ast.For, consumer: _Context, stop: LocalVar) -> tuple:
        """The generator's statements with each `yield` the consumer's step, each `return` a stop,
        and a check of the stop flag after each loop."""
        span = s.iter.span

        def stop_check() -> list[TStmt]:
            return [self.stop_check(stop, span)]

        def stopping() -> list[TStmt]:
            self.stops_used.add(stop)
            return [self.chk.store([stop], [TConst(span, T.BOOL, True)], span), TBreak(span)]

        out: list[ast.Stmt] = []
        for st in body:
            if isinstance(st, ast.Yield):
                if st.delegate:
                    name = f"$yield_from{self.chk.next_id}_{st.span.start}"
                    assert st.value is not None
                    loop = ast.For(st.span, ast.Name(st.span, name), st.value,
                                   (ast.Yield(st.span, ast.Name(st.span, name)),))
                    out.extend(self.rewrite((loop,), s, consumer, stop))
                    continue
                out.append(CompStep(st.span, self._yield_step(st, s, consumer, stop)))
            elif isinstance(st, ast.Return):
                out.append(CompStep(st.span, stopping))
            elif isinstance(st, (ast.For, ast.While)):
                out.append(_replace_body(st, self.rewrite(st.body, s, consumer, stop)))
                out.append(CompStep(st.span, stop_check))
            elif isinstance(st, ast.If):
                out.append(_replace(st, body=self.rewrite(st.body, s, consumer, stop),
                                    orelse=self.rewrite(st.orelse, s, consumer, stop)))
            elif isinstance(st, ast.Try):
                handlers = tuple(_replace(h, body=self.rewrite(h.body, s, consumer, stop)) for h in st.handlers)
                out.append(_replace(st, body=self.rewrite(st.body, s, consumer, stop), handlers=handlers,
                                    orelse=self.rewrite(st.orelse, s, consumer, stop),
                                    finalbody=self.rewrite(st.finalbody, s, consumer, stop)))
            else:
                out.append(st)
        return tuple(out)

    def _yield_step(self, y: ast.Yield, s: ast.For, consumer: _Context, stop: LocalVar) -> Callable[[], list[TStmt]]:
        return lambda: self.yield_point(y, s, consumer, stop)

    def yield_point(self, y: ast.Yield, s: ast.For, consumer: _Context, stop: LocalVar) -> list[TStmt]:
        """`yield v`: the consumer's target bound to v, then the consumer's body, in the consumer's
        scope; its `break` stops the generator, its `continue` comes back here."""
        assert y.value is not None
        value = self.chk.comprehensions.item_value(y.value)
        if value.type == ERROR:
            return []
        span = y.span
        generator = consumer.enter(self.chk, self)
        try:
            target, body_ast = s.target, list(s.body)
            if isinstance(target, ast.TupleExpr):
                name, unpack = self.chk.tuples.loop_target(target, s.iter.span)
                target, body_ast = ast.Name(target.span, name), unpack + body_ast
            if not isinstance(target, ast.Name):
                self.msg.error("E0007", s.target.span, construct="this kind of `for` target")
                return []
            var = self.chk.assign_target(target, value)
            if var is None:
                return []
            if var.type != value.type and ERROR not in (var.type, value.type):
                self.msg.error("E0201", y.value.span, expected=var.type, found=value.type)
                return []
            assign = self.chk.store([var], [value], span)
            # The loop's body is checked once per `yield`: the variables its first check made are
            # its own in the later ones too (a generator made in it is not "made outside").
            first_inner = self.first_inner.setdefault(id(s), self.chk.next_id + 1)
            body = self.chk.loop_body(var, body_ast, Loop(False, first_inner=first_inner))
        finally:
            generator.enter(self.chk, self)
        redirected: list[bool] = []
        body = _redirect(body, stop, redirected)
        if not redirected:  # no `break` or `continue` of its own: the body as it is
            return [assign, TBlock(span, body)]
        self.stops_used.add(stop)
        once = TWhile(span, TConst(span, T.BOOL, True), [*body, TBreak(span)])
        return [assign, once, self.stop_check(stop, span)]

    def stop_check(self, stop: LocalVar, span: Span) -> TIf:
        """`if $stop: break`; its test becomes False if nothing of its expansion ever stops."""
        check = TIf(span, TLocal(span, T.BOOL, stop), [TBreak(span)], [])
        self.stop_checks.setdefault(stop, []).append(check)
        return check


def _has_finally(decl: ast.FnDef) -> bool:
    """Whether leaving the generator early runs code of its own: a `finally` block or a `with`."""
    return any((isinstance(n, ast.Try) and n.finalbody) or type(n).__name__ in ("With", "AsyncWith")
               for n in _walk_stmts(decl.body))


def is_place(e: TExpr) -> bool:
    from .ownership import is_place as place  # (ownership.py imports this module)

    return place(e)


def _replace(node, **changes):
    from dataclasses import replace

    return replace(node, **changes)


def _replace_body(loop: ast.For | ast.While, body: tuple) -> ast.Stmt:
    return _replace(loop, body=body)


def _redirect(body: list[TStmt], stop: LocalVar, redirected: list[bool]) -> list[TStmt]:
    """The consumer's own `break` (not one of a loop inside it) sets the stop flag and leaves; its
    `continue` just leaves (back into the generator). `redirected` gets an item for each."""
    out: list[TStmt] = []
    for st in body:
        if isinstance(st, TBreak):
            out.append(TAssign(st.span, [stop], [TConst(st.span, T.BOOL, True)]))
            out.append(TBreak(st.span))
            redirected.append(True)
        elif isinstance(st, TContinue):
            out.append(TBreak(st.span))
            redirected.append(True)
        elif isinstance(st, TBlock):
            out.append(TBlock(st.span, _redirect(st.body, stop, redirected)))
        elif isinstance(st, TIf):
            out.append(TIf(st.span, st.test, _redirect(st.body, stop, redirected),
                           _redirect(st.orelse, stop, redirected)))
        elif isinstance(st, TTry):
            for h in st.handlers:
                h.body = _redirect(h.body, stop, redirected)
            out.append(TTry(st.span, _redirect(st.body, stop, redirected), st.handlers,
                            _redirect(st.orelse, stop, redirected), _redirect(st.finalbody, stop, redirected)))
        else:
            out.append(st)
    return out
