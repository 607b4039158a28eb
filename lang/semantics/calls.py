"""Checking of calls: arguments, defaults, compile-time parameters, conversions and the
built-in functions (abs, min, max, int(), float(), ...)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..types import ERROR, LiteralType, ScalarType, StructType, Type, default_type
from . import classes, everyday, fold, function_values, iterable_arguments, itertools_calls, python_float
from .builtin_types import is_builtin
from .drained_loops import owned_variant
from .empty_literals import is_empty_literal, needs_context
from .generators import is_generator
from .identity import is_new
from .implicit_mut import aliased_argument
from .imports import is_string
from .narrowing import optional_notes
from .rules import FUTURE_NAMES, TypeParam, is_float, is_num, signature, unify_annotation
from .sharing import place_root
from .typed import (
    FieldTarget,
    LocalVar,
    Reference,
    TBuiltin,
    TCall,
    TConst,
    TConvert,
    TExpr,
    TExprStmt,
    TField,
    TFieldRef,
    TLocal,
    TRef,
    TStmtExpr,
    TVector,
)

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder


class _Passing:
    """The arguments of one call as `finish_call` passes them (`args`, in order), and the variables
    passed by reference so far (`borrowed`: one may not be passed twice)."""

    def __init__(self, decl: ast.FnDef, params, bound: list[TExpr], owner: StructType | None,
                 receiver: TExpr | None):
        self.decl, self.params, self.bound, self.owner, self.receiver = decl, params, bound, owner, receiver
        self.args: list[TExpr] = []
        self.borrowed: dict[LocalVar, Span] = {}


class CallChecker:
    """Calls of functions, builtins and conversions: arguments, compile-time parameters, defaults.
    Reached as `chk.calls` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg
        self._itertools_raw: dict[int, ast.Call] = {}  # the calls everyday.itertools_call made (kept: ids stay unique)
        # id -> argument of a `def`'s call written as a new list, dict or set (`grow(6, [1])`): a `mut`
        # parameter may take it, held in a variable of its own (`_pass_by_reference`); kept: ids stay unique
        self._new_arguments: dict[int, TExpr] = {}

    def parameterized_call(self, func: ast.Subscript, e: ast.Call) -> TExpr:
        """`f[...](...)`: compile-time arguments, then an ordinary call."""
        base = func.value
        if isinstance(base, ast.Name) and self.chk.scopes.lookup(base.id) is None:
            if base.id in ("SIMD", "Scalar"):
                return self.chk.simd.simd_construct(self.chk.resolve_type(func), e)
            if base.id == "Ptr":
                return self.chk.pointers.ptr_construct(self.chk.resolve_type(func), e)
            if base.id in self.chk.module.structs:
                return self.chk.structs.struct_call(self.chk.module.structs[base.id], e, self.chk.resolve_type(func))
            if base.id == "constrained":
                return self.constrained(func, e)
            if base.id == "external_call":
                return self.external_call(func, e)
            if base.id == "simd_width_of":
                return self.chk.simd.simd_width_of(func, e)
            if base.id == "shared_array":
                return self.chk.gpu.shared_array(func, e)
            if base.id == "dynamic_shared":
                return self.chk.gpu.dynamic_shared(func, e)
            if base.id in self.chk.module.functions:
                from .attribute_types import object_start
                start = object_start(self.chk, func, e)  # an object attribute's None before `__init__` sets it
                if start is not None:
                    return start
                return self.user_call(self.chk.module.functions[base.id], e, ct_items=func.items)
            if base.id in FUTURE_NAMES:
                self.msg.error("E0007", func.span, construct=f"`{base.id}[...]`")
                return TConst(e.span, ERROR, None)
        if isinstance(base, ast.Attribute) and not function_values.names_element(self.chk, base):
            return self.chk.structs.attribute_call(base, e, ct_items=func.items)
        if not isinstance(base, ast.Name) or isinstance(self.chk.scopes.lookup(base.id), LocalVar):
            callee = self.exprs.expr(func)  # `fs[0](x)`: an element that is a function value
            if isinstance(callee.type, T.FunctionType):
                return self.chk.closures.call(callee, e)
            if function_values.is_fn_value(callee.type):  # `ops[c](a, b)`: any function (function_values.py)
                return self.chk.structs.call_value(callee, e)
            if callee.type == ERROR:
                return callee
        if isinstance(base, ast.Name):  # Mojo's closure loops and their bodies (closure_loops.py)
            from .closure_loops import misused_form

            if misused_form(self.chk, base):
                return TConst(e.span, ERROR, None)
        self.msg.error("E0224", func.span, func=getattr(base, "id", "this"))
        return TConst(e.span, ERROR, None)

    def ct_value(self, expr: ast.Expr):
        from .comptime import CtError, evaluate

        def lookup(name, span):
            found = self.chk.scopes.lookup(name)
            if isinstance(found, LocalVar):
                raise CtError(span, f"`{name}` is a variable, not known at compile time")
            if isinstance(found, TConst) and not isinstance(found.value, TypeParam):
                return found.value
            if name in self.chk.module.comptimes:
                value = self.chk.comptime_value(self.chk.module.comptimes[name])
                return value.value if value is not None else ERROR
            return None

        return evaluate(expr, self.chk.ct_env, lookup, self.chk.resolve_type)

    def bind_ct(self, decl: ast.FnDef, items, params, bound: list[TExpr], span: Span) -> dict | None:
        """Compile-time arguments: explicit ones in order or by name, the rest inferred from the
        argument types or taken from defaults. Returns name -> value, or None after an error."""
        from .comptime import CtError

        # The count of a `*xs` parameter is never written: it is how many arguments it collected.
        ct_params = [p for p in decl.ct_params if not p.name.startswith("*")]
        if items and not ct_params:
            self.msg.error("E0224", span, func=decl.name)
            return None
        values: dict = {}
        try:
            positional = [i for i in (items or ()) if not isinstance(i, ast.Keyword)]
            if len(positional) > len(ct_params):
                self.msg.error("E0128", span, func=decl.name, expected=len(ct_params),
                                 s="s" if len(ct_params) != 1 else "", found=len(positional))
                return None
            for p, item in zip(ct_params, positional):
                values[p.name] = self.ct_value(item)
            for item in items or ():
                if isinstance(item, ast.Keyword):
                    if item.name not in {p.name for p in ct_params}:
                        self.msg.error("E0207", item.span, func=decl.name, name=item.name)
                        return None
                    values[item.name] = self.ct_value(item.value)
            names = {p.name for p in ct_params}
            for p, b in zip(params, bound):
                if p.variadic:
                    values[ast.variadic_count(p.name)] = b.type.width
                    unify_annotation(p.annotation, b.type.elem, names, values)
                elif p.annotation is not None:
                    unify_annotation(p.annotation, default_type(b.type), names, values)
            for p in ct_params:
                if p.name not in values and p.default is not None:
                    values[p.name] = self.ct_value(p.default)
        except CtError as exc:
            self.msg.error("E0219", exc.span, detail=exc.detail)
            return None
        from .module import conforms_kind

        for p in decl.ct_params:
            if p.name not in values:
                self.msg.error("E0124", span, name=p.name, func=decl.name)
                return None
            if not conforms_kind(p, values[p.name], self.chk.home_of(decl), self.msg.bag, span, decl.name):
                return None
        return values

    def user_call(self, decl: ast.FnDef, e: ast.Call, owner: StructType | None = None,
                  receiver: TExpr | None = None, ct_items=None, launching: bool = False) -> TExpr:
        if everyday.is_itertools_call(self.chk, decl, e, self._itertools_raw):  # `permutations(xs, 2)`: tuples
            made = everyday.itertools_call(self.chk, decl, e, self._itertools_raw)
            return self.exprs.expr(made) if made is not None else TConst(e.span, ERROR, None)
        # `accumulate(xs, max)`, `starmap(f, xs)`, `zip_longest(a, b, fillvalue=v)`
        if itertools_calls.applies(self.chk, decl):
            rewritten = itertools_calls.call(self.chk, decl, e)
            if rewritten is not None:
                return rewritten
        # `compress(range(n), flags)`
        e = everyday.itertools_arguments(self.chk, decl, everyday.chain_pairs(self.chk, decl, e))
        if _plays(decl, "map", "filter") and len(e.args) == 2 and not e.keywords:
            listed = self._map_iterable(decl, e)  # `map(str, range(4))`: the items as a list
            if listed is None:
                return TConst(e.span, ERROR, None)
            e = listed
        mode = _binary_mode(decl, e)
        if mode is not None:  # `open(path, "rb")`
            self.msg.error("E0341", mode.span, mode=repr(mode.value), text=f"'{mode.value.replace('b', '') or 'r'}'")
            return TConst(e.span, ERROR, None)
        if owner is None and receiver is None:  # `take(n, self.bank)`, `heappush(self.heap, x)`: the object lent
            from .object_containers import passed_attribute

            lent = passed_attribute(self.chk, decl, e)
            if lent is not None:
                return lent
        if not launching and any(d.name == "kernel" for d in decl.decorators):
            self.msg.error("E0148", e.func.span, func=decl.name)
            for a in e.args:
                self.exprs.expr(a)
            return TConst(e.span, ERROR, None)
        params = decl.params[1:] if decl.self_convention is not None else decl.params
        bound: list[TExpr | None] = [None] * len(params)
        name = decl.name if owner is None else (owner.name if decl.name == "__init__" else f"{owner}.{decl.name}")
        typed_params = {id(a): params[i] for i, a in enumerate(e.args[:len(params)])
                        if (is_empty_literal(a, self.chk.module) or needs_context(a, self.chk.module))
                        and params[i].annotation is not None
                        and not decl.ct_params}
        if iterable_arguments.marked(decl):  # `s.update(gen)`, `xs.extend((1, 2))`: any iterable, as in Python
            for i, a in enumerate(e.args[:len(params)]):
                if iterable_arguments.reads_receiver_lazily(e, a):
                    self.msg.error("E0199", a.span, method=decl.name)
                    return TConst(e.span, ERROR, None)
                if params[i].annotation is not None:
                    typed_params[id(a)] = params[i]
            redirected = iterable_arguments.redirect(self.chk, decl, e, owner)
            if redirected is not None:  # a set method's path for a non-set iterable, as CPython's
                return self.user_call(redirected[0], redirected[1], owner, receiver, ct_items, launching)
        env = {**getattr(owner, "ct_env", {}), **({"Self": owner} if owner is not None else {})}
        untyped = {id(a): i for i, a in enumerate(e.args[:len(params)]) if decl.kind == "def" and not decl.ct_params
                   and params[i].annotation is None and is_empty_literal(a, self.chk.module)}  # `merge([])`

        def argument(a: ast.Expr, keyword: ast.Param | None = None) -> TExpr:
            if id(a) in untyped:
                return self.chk.empties.passed_empty(a, decl, params[untyped[id(a)]], untyped[id(a)])
            param = typed_params.get(id(a))
            if keyword is not None and keyword.annotation is not None and not decl.ct_params \
                    and (is_empty_literal(a, self.chk.module) or needs_context(a, self.chk.module)):
                param = keyword  # `f(xs=[])` as `f([])`
            value = self.argument(a, param, decl, env)
            if decl.kind == "def" and is_new(a):
                self._new_arguments[id(value)] = value
            return value

        positional = self.chk.sharing.in_order(e.args, argument)
        if decl.variadic is not None:
            positional = self.pack_variadic(decl, params, positional, e.span, name, owner)
            if positional is None:
                return TConst(e.span, ERROR, None)
        too_many = len(positional) > len(params)
        for i, v in enumerate(positional[:len(params)]):
            bound[i] = v
        if too_many:
            self.msg.error("E0204", e.span, func=name, expected=len(params), s="s" if len(params) != 1 else "",
                             found=len(e.args))
            return TConst(e.span, ERROR, None)
        for kw in e.keywords:
            index = next((i for i, p in enumerate(params) if p.name == kw.name), None)
            v = argument(kw.value, params[index]) if index is not None else self.exprs.expr(kw.value)
            if index is None:
                self.msg.error("E0207", kw.span, func=name, name=kw.name)
                return TConst(e.span, ERROR, None)
            if bound[index] is not None:
                self.msg.error("E0133", kw.span, name=kw.name)
                return TConst(e.span, ERROR, None)
            bound[index] = v
        for i, p in enumerate(params):
            if bound[i] is None:
                at = next((j for j, q in enumerate(params) if q.variadic), None)
                if p.default is None and at is not None and i > at:
                    self.msg.error("E0168", e.span, func=name, name=p.name, pack=params[at].name)
                    return TConst(e.span, ERROR, None)
                if p.default is None:
                    missing = sum(1 for j, q in enumerate(params) if bound[j] is None and q.default is None)
                    required = sum(1 for q in params if q.default is None)
                    self.msg.error("E0204", e.span, func=name, expected=required,
                                     s="" if required == 1 else "s", found=len(params) - missing)
                    return TConst(e.span, ERROR, None)
                bound[i] = self.default_value(p, decl, name, e.span, env)
        return self.finish_call(decl, bound, e.span, e.func.span, owner, receiver, ct_items)

    def _map_iterable(self, decl: ast.FnDef, e: ast.Call) -> ast.Call | None:
        """`map(f, it)` / `filter(f, it)` of the stdlib (stdlib/functional.px), which read a List:
        another iterable whose items are there already (a range, a str, a tuple, a set, a dict or
        its view) is listed first (`list(it)`), the same items in the same order; a generator or an
        iterator is E0343, since listing it would run it to its end before f's first call, where
        Python's map interleaves the two (None then)."""
        from .dict_views import is_iterator
        from .generators import GeneratorType
        from .strformat import Checked

        arg = e.args[1]
        value = self.exprs.expr(arg)
        if value.type == ERROR:
            return None
        if is_builtin(value.type, "List"):
            return ast.Call(e.span, e.func, (e.args[0], Checked(arg.span, value)), ())
        if isinstance(value.type, GeneratorType) or is_iterator(value.type):
            also = "; for filter, `(x for x in it if p(x))`" if decl.name == "filter" else ""
            self.msg.error("E0343", arg.span, func=decl.name, also=also)
            return None
        listed = ast.Call(arg.span, ast.Name(arg.span, "list"), (Checked(arg.span, value),), ())
        return ast.Call(e.span, e.func, (e.args[0], listed), ())

    def argument(self, a: ast.Expr, param: ast.Param | None, decl: ast.FnDef, env: dict) -> TExpr:
        """An argument's value; `f([])`, `f({})`, `f(set())` for a parameter annotated with a
        container type take that type, as `xs: list[int] = []` does (`d.setdefault(k, [])` of a
        `Dict[str, List[Int]]`: V in the dict's parameters, `env`)."""
        if param is not None:
            declared = self.chk.type_resolver(param.annotation, env, decl)
            empty = self.chk.empty_container(a, declared) if declared != ERROR else None
            if empty is not None:
                return empty
            if iterable_arguments.marked(decl) and declared != ERROR:
                made = iterable_arguments.converted(self.chk, a, declared)
                if made is not None:
                    return made
        return self.exprs.expr(a)

    def pack_variadic(self, decl: ast.FnDef, params, args: list[TExpr], span: Span, name: str,
                      owner: StructType | None, trailing: int = 0) -> list[TExpr] | None:
        """Positional arguments with `*xs`'s share collected into one `SIMD[T, n]` (T its element
        type). Parameters after `*xs` are keyword-only, as in Python, except for the `trailing`
        ones an operator passes last (the value of `b[i, j] = v`)."""
        at = next(i for i, p in enumerate(params) if p.variadic)
        p = params[at]
        stop = len(args) - trailing
        collected = args[at:stop]
        if any(a.type == ERROR for a in collected):
            return None
        own = {q.name for q in decl.ct_params}
        if isinstance(p.annotation, ast.Name) and p.annotation.id in own:
            elem = default_type(collected[0].type) if collected else ERROR  # `*xs: T`: T from the arguments
        else:
            elem = self.chk.type_resolver(p.annotation, {**getattr(owner, "ct_env", {}),
                                                     **({"Self": owner} if owner is not None else {})}, decl)
        if elem == ERROR:
            if not collected:
                self.msg.error("E0166", span, func=name, name=p.name)
            return None
        if not isinstance(elem, ScalarType):
            self.msg.error("E0165", p.annotation.span, name=p.name, type=elem)
            return None
        if not collected:
            self.msg.error("E0166", span, func=name, name=p.name)
            return None
        values = [self.exprs.coerce(a, elem) for a in collected]
        if any(v.type == ERROR for v in values):
            return None
        pack = TVector(collected[0].span.to(collected[-1].span), T.simd(elem, len(values)), values)
        return args[:at] + [pack] + args[stop:]

    def _pending_arguments(self, decl: ast.FnDef, params, bound: list[TExpr], owner) -> None:
        """`head = None` (or `xs = []`), then `head = push(head, v)`: a pending variable passed
        where the parameter's annotation names a type says what it holds (may raise Retry)."""
        if not any(isinstance(b, TLocal) and b.var in self.chk.empties.pending for b in bound):
            return
        env = {**getattr(owner, "ct_env", {}), **({"Self": owner} if owner is not None else {})}
        if decl.ct_params:  # `heapq.heappush(heap, (c, w))`: T from the other arguments, then `List[T]`
            env.update(self._parameters_from_others(decl, params, bound))
            if any(p.name not in env for p in decl.ct_params):
                return
        for p, b in zip(params, bound):
            if isinstance(b, TLocal) and b.type == ERROR and p.annotation is not None and not p.variadic \
                    and (p.convention != "mut" or decl.ct_params) and b.var in self.chk.empties.pending:
                t = self.chk.type_resolver(p.annotation, env, decl)
                if t != ERROR:
                    self.chk.empties.flows_into(b, t)

    def _parameters_from_others(self, decl: ast.FnDef, params, bound: list[TExpr]) -> dict:
        """A generic's compile-time parameters as the arguments with a type bind them (the pending
        ones left out); those nothing binds are missing."""
        from .comptime import CtError

        names = {p.name for p in decl.ct_params}
        values: dict = {}
        try:
            for p, b in zip(params, bound, strict=False):
                if b.type != ERROR and p.annotation is not None and not p.variadic:
                    unify_annotation(p.annotation, self.exprs.string_or(default_type(b.type)), names, values)
        except CtError:
            return {}
        return values

    def finish_call(self, decl: ast.FnDef, bound: list[TExpr], span: Span, name_span: Span,
                    owner: StructType | None = None, receiver: TExpr | None = None, ct_items=None) -> TExpr:
        """Convert bound arguments to the parameters' types, instantiate, and build the call."""
        if receiver is not None and owner is not None and not bound:  # `f().lower()` (semantics/drained_loops.py)
            decl = owned_variant(decl, receiver, owner.symbol.methods)
        params = decl.params[1:] if decl.self_convention is not None else decl.params
        if any(b.type == ERROR for b in bound) or (receiver is not None and receiver.type == ERROR):
            self._pending_arguments(decl, params, bound, owner)
            return TConst(span, ERROR, None)
        if not self._arguments_allowed(decl, params, bound, span, owner):
            return TConst(span, ERROR, None)
        env: dict = {}
        if decl.ct_params or ct_items:
            env = self.bind_ct(decl, ct_items, params, bound, span)
            if env is None:
                return TConst(span, ERROR, None)
        env = {**getattr(owner, "ct_env", {}), **({"Self": owner} if owner is not None else {}), **env}
        arg_types = self._argument_types(decl, params, bound, span, env)
        if arg_types is None or ERROR in arg_types:
            return TConst(span, ERROR, None)
        if decl.kind == "def" and not decl.ct_params:
            self.chk.empties.passing(decl, params, arg_types)  # what `f([])` of another call passes (may Retry)
        passing = _Passing(decl, params, bound, owner, receiver)
        if decl.self_convention is not None:
            arg_types.insert(0, owner)
            if not self._pass_receiver(passing):
                return TConst(span, ERROR, None)
        if not self._pass_arguments(passing, arg_types[1:] if decl.self_convention is not None else arg_types):
            return TConst(span, ERROR, None)
        args = passing.args
        if any(a.type == ERROR for a in args) or not aliased_argument(params, args, self.msg):
            return TConst(span, ERROR, None)
        if is_generator(decl):  # nothing runs yet: the arguments, kept (semantics/generators.py)
            return self.chk.generators.made(decl, args, arg_types, span, owner)
        if not self.chk.generators.passed(decl, args, span):
            return TConst(span, ERROR, None)
        return self._instance_call(decl, args, arg_types, (span, name_span), owner, env)

    def _arguments_allowed(self, decl: ast.FnDef, params, bound: list[TExpr], span: Span,
                           owner: StructType | None) -> bool:
        """The checks of particular calls, each reporting its error: an argument stored and used after
        (`C(xs)`), bytes mixed with str, a format spec that does not fit the value."""
        from .bytes_checks import check_call as check_bytes_call
        from .stored_arguments import check_stored_arguments

        if not check_stored_arguments(self.chk, decl, params, bound, span, owner):  # `C(xs)` storing xs, xs used after
            return False
        if not check_bytes_call(self.chk, decl, params, bound, span, owner):  # `s.encode("utf-16")`, `b == "a"`
            return False
        if owner is not None or len(bound) != 2 or not _plays(decl, "format", "format_at_run_time"):
            return True
        from .format_spec import spec_problem

        if _plays(decl, "format"):
            spec = bound[1]
            problem = spec_problem(default_type(bound[0].type), spec.value, is_string) \
                if isinstance(spec, TConst) and isinstance(spec.value, str) else None
            if problem is not None:
                self.msg.error("E0172", spec.span, spec=spec.value, problem=problem)
                return False
            return True
        # `f"{x:{w}}"` (syntax/nested_spec.py)
        problem = spec_problem(default_type(bound[0].type), "", is_string)  # (None for what takes a spec)
        if problem is not None:
            self.msg.error("E0172", bound[0].span, spec="{...}", problem=problem)
            return False
        return True

    def _argument_types(self, decl: ast.FnDef, params, bound: list[TExpr], span: Span, env: dict) -> list | None:
        """The type each argument is passed as: its parameter's (a `*args`: the argument's own, a `def`'s
        unannotated parameter: its argument's); None after E0132."""
        arg_types = []
        for p, b in zip(params, bound):
            if p.variadic:
                arg_types.append(b.type)
                continue
            if p.annotation is None and b.type == T.NONE:
                # `def f(x, acc=None)` called without acc: a value of no type (it reached codegen as one)
                self.msg.error("E0132", b.span, (Note("in this call", span),),
                               name=p.name)
                return None
            declared = self.chk.type_resolver(p.annotation, env, decl) if p.annotation is not None else None
            if declared is not None and decl.kind == "def":
                from .pycollections import passed_as_dict

                declared = passed_as_dict(declared, b.type)  # `dict[K, V]` given a defaultdict: that one
                # `p(3)` of `def p(x: float)`: an instance for the int, which Python keeps
                declared = python_float.passed_for_float(self.chk, decl, p, declared, b.type)
            arg_types.append(declared if declared is not None
                             else self.exprs.string_or(default_type(b.type)))  # `f("ab")` of a `def`: a str
        return arg_types

    def _pass_receiver(self, c: _Passing) -> bool:
        """The receiver as the method's `self`: by reference for `mut self` (E0123 where it is not a
        variable or a field of one), given away for `var self`."""
        decl, owner, receiver = c.decl, c.owner, c.receiver
        convention = decl.self_convention
        if convention == "mut":
            root = place_root(receiver)
            # `xs[i] = v` stores over an item: a loop walking xs goes on (its memory stays put).
            item_store = decl.name == "__setitem__" and is_builtin(owner, "List") \
                and isinstance(receiver, TLocal) and bool(c.bound) \
                and isinstance(c.bound[0].type, (ScalarType, LiteralType))
            if root is not None and not self.chk.sharing.changed_in_place(root, receiver.span, element=item_store):
                return False
            place = field_place(receiver)
            if place is not None:  # `v.items.append(x)`: the field, written back after the call
                c.args.append(TFieldRef(receiver.span, owner, place))
            elif not (isinstance(receiver, TLocal) and receiver.var.mutable):
                self.msg.error("E0123", receiver.span, name=decl.name, struct=owner)
                return False
            else:
                c.borrowed[receiver.var] = receiver.span
                c.args.append(TRef(receiver.span, owner, receiver.var))
        elif convention == "":
            c.args.append(receiver)
        elif convention in ("var", "owned"):  # `fn _drain(var self)`: the callee takes it over
            c.args.append(self.chk.ownership.consume(receiver, f"passed to `{decl.name}`"))
        return True

    def _pass_arguments(self, c: _Passing, types: list) -> bool:
        """Each argument converted to its parameter's type; a `mut` parameter's by reference."""
        for p, b, t in zip(c.params, c.bound, types):
            if p.convention != "mut":
                self.chk.empties.flows_into(b, t)
                where = f"as the argument `{p.name}` of `{c.decl.name}`{python_float.ANNOTATION}"
                python_float.refuse_int_constant(self.chk, b, t, python_float.spelled_float(p.annotation), where)
                value = self.exprs.coerce(b, t)
                if p.convention in ("var", "owned"):  # the callee takes it over
                    value = self.chk.ownership.consume(value, f"passed to `{p.convention} {p.name}`")
                else:  # an object's attribute, which the callee could replace (semantics/classes.py)
                    value = classes.borrowed_argument(self.chk, value, [*c.bound, c.receiver])
                c.args.append(value)
            elif not self._pass_by_reference(c, p, b, t):
                return False
        return True

    def _pass_by_reference(self, c: _Passing, p: ast.Param, b: TExpr, t: Type) -> bool:
        """`mut`: the callee writes the caller's variable (or a field of one), of exactly this type;
        E0114 for anything else, E0115 for a variable passed twice."""
        root = place_root(b)
        if root is not None and b.type == t and not self.chk.sharing.changed_in_place(root, b.span):
            return False
        place = field_place(b)
        if place is not None and b.type == t:
            c.args.append(TFieldRef(b.span, t, place))
            return True
        if self._new_arguments.get(id(b)) is b and b.type == t:
            # `grow(6, [1])`: a new list only the callee sees, changed there as Python's would be
            held = self.chk.new_var(f"$argument{self.chk.next_id}", t, b.span)
            c.args.append(TStmtExpr(b.span, t, [self.chk.store([held], [b], b.span)], TRef(b.span, t, held)))
            return True
        if not (isinstance(b, TLocal) and b.var.mutable and b.type == t):
            if classes.reaches_object(b) and c.decl.kind == "def":  # `take(n, self.bank)`
                self.msg.error("E0317", b.span, source=b.span.file.text[b.span.start:b.span.end],
                               func=c.decl.name, name=p.name)
                return False
            self.msg.error("E0114", b.span, name=p.name, type=t)
            return False
        if b.var in c.borrowed:
            self.msg.error("E0115", b.span, (Note("first passed here", c.borrowed[b.var]),), name=b.var.name)
            return False
        c.borrowed[b.var] = b.span
        c.args.append(TRef(b.span, t, b.var))
        return True

    def _instance_call(self, decl: ast.FnDef, args: list[TExpr], arg_types: list, spans: tuple[Span, Span],
                       owner: StructType | None, env: dict) -> TExpr:
        """The call of decl's instance for these argument types (and compile-time arguments), noted as
        one of the function's callees and references."""
        span, name_span = spans
        ct_args = tuple(env[p.name] for p in decl.ct_params)
        instance = self.chk.instantiate(decl, tuple(arg_types), span, owner, ct_args)
        if instance is None:
            return TConst(span, ERROR, None)
        self.chk.fn.callees.append((instance, span))
        if instance.called_at is None:
            instance.called_at = (span, self.chk.fn)
        self.chk.fn.references.append(Reference(name_span, "function", decl.name, instance.return_type,
                                                decl.name_span, signature(instance)))
        if decl.raises:
            self.chk.exceptions.check_may_raise(f"through `{decl.name}` (a `raises` function)", span)
        ret = instance.return_type
        if ret is None:
            from .recursive_returns import pending
            if not pending(instance, span):  # else known from its other returns (semantics/recursive_returns.py)
                self.msg.error("E0221", span, func=decl.name)
            return TConst(span, ERROR, None)
        return self.chk.ownership.fresh_value(TCall(span, ret, instance, args))

    def constrained(self, func: ast.Subscript, e: ast.Call) -> TExpr:
        """`constrained[condition, "message"]()`: a compile-time check of a generic's parameters,
        reported (E0167) with the calls that made this instance."""
        from .comptime import CtError

        if len(func.items) != 2 or not isinstance(func.items[1], ast.StrLit) or e.args or e.keywords:
            self.msg.error("E0217", e.span, name="constrained[condition, message]` message")
            return TConst(e.span, T.NONE, None)
        try:
            holds = self.ct_value(func.items[0])
        except CtError as exc:
            self.msg.error("E0219", exc.span, detail=exc.detail)
            return TConst(e.span, T.NONE, None)
        if not holds and not self.chk.constraint_failed and not self.chk.fn.is_abstract:
            # (For a body checked with stand-ins for its types, the constraint is decided per instance.)
            self.chk.constraint_failed = True  # the first failed constraint of an instance says enough
            # Reported at the outermost call that led here (where the parameters were chosen),
            # with the constraint and the calls in between as notes.
            frames, instance = [], self.chk.fn
            while instance is not None and instance.called_at is not None and len(frames) < 8:
                frames.append((instance, instance.called_at[0]))
                instance = instance.called_at[1]
            notes = [Note(f"the constraint is in `{_instance_name(self.chk.fn)}`", e.span)]
            notes += [Note(f"through this call of `{_instance_name(inner)}`", span) for inner, span in frames[:-1]]
            at = frames[-1][1] if frames else e.span
            self.msg.error("E0167", at, tuple(notes), message=func.items[1].value)
        return TConst(e.span, T.NONE, None)

    def external_call(self, func: ast.Subscript, e: ast.Call) -> TExpr:
        """`external_call["symbol", Result](args...)`: a call of a C function in the process (libc,
        libm, the pyx runtime) with the arguments' own types; nothing about it is checked. A pointer
        in place of the symbol is a C function pointer to call, and an `fn`'s name as an argument
        passes its address (semantics/c_functions.py)."""
        from . import c_functions

        through = len(func.items) == 2 and not isinstance(func.items[0], ast.StrLit)
        if len(func.items) != 2 or not isinstance(func.items[0], (ast.StrLit, ast.Expr)) or e.keywords:
            self.msg.error("E0169", e.span)
            for a in e.args:
                self.exprs.expr(a)
            return TConst(e.span, ERROR, None)
        result = self.chk.resolve_type(func.items[1])
        callee = [self.exprs.value(self.exprs.expr(func.items[0]))] if through else []  # (first, as Python's)
        args = callee + [(isinstance(a, ast.Name) and c_functions.function_address(self.chk, a))
                         or self.exprs.value(self.exprs.expr(a)) for a in e.args]
        if through and args[0].type != ERROR and not isinstance(args[0].type, T.PtrType):
            self.msg.error("E0169", func.items[0].span)  # neither a symbol nor a C function pointer
            return TConst(e.span, ERROR, None)
        if result == ERROR or any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        if not through and not func.items[0].value.startswith("__pyx_") and not _in_process(func.items[0].value):
            self.msg.error("E0173", func.items[0].span, symbol=func.items[0].value)
            return TConst(e.span, ERROR, None)
        # The same kinds by name and through a pointer (a string literal is a C string either way).
        for t, span in [(result, func.items[1].span)] + [(a.type, a.span) for a in args[len(callee):]]:
            if not (isinstance(t, (ScalarType, T.PtrType)) or t == T.STRING_LITERAL or (t == T.NONE and span is
                                                                                     func.items[1].span)):
                self.msg.error("E0170", span, type=t)
                return TConst(e.span, ERROR, None)
        return TBuiltin(e.span, result, "extern_ptr" if through else "extern:" + func.items[0].value, args)

    def default_value(self, p: ast.Param, decl: ast.FnDef, func: str, span, env: dict) -> TExpr:
        d = p.default
        if isinstance(d, ast.Name) and d.id.startswith("__pyx_default_"):
            return self._shared_default(d, p, decl, func, span)
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "__pyx_fresh_default":
            # `if xs is None: xs = []`: a new one at each call (syntax/mutable_defaults.py), typed by xs
            made = self.argument(d.args[0], p, decl, env)
            self._new_arguments[id(made)] = made
            return made
        v = self.exprs.expr(d)
        if not isinstance(v, TConst):
            from .tuple_defaults import is_constant_tuple

            if v.type != ERROR and is_constant_tuple(p.default):
                return v  # `p: tuple[int, int] = (0, 0)`: an equal tuple at each call (semantics/tuple_defaults.py)
            if v.type != ERROR:
                self.msg.error("E0219", p.default.span, detail="a default value must be a constant")
            return TConst(p.default.span, ERROR, None)
        return v

    def _shared_default(self, d: ast.Name, p: ast.Param, decl: ast.FnDef, func: str, span) -> TExpr:
        """A list, dict, set or object default: the one object the function's module made when it ran
        the `def` (syntax/mutable_defaults.py), a module-level variable: read here as the module's
        own functions read it, or, from another module (`map(f, xs)` runs f's call in the stdlib),
        as an alias of its global (that module's script has run: imported modules' run first)."""
        from .typed import LocalVar, TLocal

        if self.chk.scopes.lookup(d.id) is not None:
            return self.exprs.expr(d)
        instantiator = getattr(self.chk.instantiate, "__self__", None)
        home = instantiator.home(decl) if instantiator is not None else None
        var = home.globals.get(d.id) if home is not None else None
        if var is None or home is None:
            self.msg.error("E0007", span, construct=f"leaving out `{p.name}` of `{func}` before its module has run "
                           "the `def` (its default is one object the module makes then)")
            return TConst(span, ERROR, None)
        self.chk.next_id += 1
        return TLocal(span, var.type, LocalVar(var.name, var.type, span, id=self.chk.next_id, owned=False,
                                               global_symbol=var.global_symbol))

    def conversion(self, name: str, e: ast.Call) -> TExpr:
        based = everyday.int_of_base(e) if name == "int" else None
        if based is not None:  # `int(s, 16)`: the String's `_int_base` (semantics/everyday.py)
            return self.exprs.expr(based)
        self._no_keywords(name, e)
        string = self.exprs.string_type() if name == "str" else None
        if string is not None:  # `str(x)`: Python's text of x, a String
            if len(e.args) != 1:
                self.msg.error("E0204", e.span, func="str", expected=1, s="", found=len(e.args))
                return TConst(e.span, ERROR, None)
            if len(e.args) == 1 and not e.keywords:
                value = self.exprs.expr(e.args[0])
                if value.type == T.EXCEPTION:  # `str(e)`: the message of a caught exception, kept
                    return self.exprs.coerce(TBuiltin(e.span, T.STRING_LITERAL, "exc_message", [value]), string)
                if value.type == T.NONE:  # `str(None)`, `f"{None}"`: its text, after the value is made
                    text = self.exprs.coerce(TConst(e.span, T.STRING_LITERAL, "None"), string)
                    if isinstance(value, TConst):
                        return text
                    return TStmtExpr(e.span, text.type, [TExprStmt(e.span, value)], text)
                if self.chk.structs.struct_of(value.type) is not None \
                        and "__str__" in self.chk.structs.struct_of(value.type).methods:
                    return self.chk.structs.method_call(value, "__str__", [], e.span)  # Python's str(x) calls __str__
            return self.chk.structs.struct_call(string.symbol or self.chk.structs.struct_of(string), e, string)
        target = T.TYPE_NAMES[name]
        if len(e.args) == 1 and name in ("int", "Int", "float", "Float64"):
            value = self.exprs.expr(e.args[0])
            method = "__int__" if target == T.INT else "__float__"
            sym = self.chk.structs.struct_of(value.type)
            if sym is not None and method in sym.methods:  # `Int(obj)`: Python's int(x) calls __int__
                return self.chk.structs.method_call(value, method, [], e.span)
        if not isinstance(target, ScalarType):
            self.msg.error("E0205", e.span, found="arguments", expected=name)
            return TConst(e.span, ERROR, None)
        if len(e.args) > 1:
            self.msg.error("E0204", e.span, func=name, expected="at most 1", s="", found=len(e.args))
            return TConst(e.span, ERROR, None)
        if not e.args:
            return TConst(e.span, target, fold.normalize(0, target))
        value = self.exprs.expr(e.args[0])
        if value.type == ERROR:
            return value
        if target.is_bool:
            return self.exprs.truth(value, e.args[0].span)
        if isinstance(value, TConst) and value.type == T.STRING_LITERAL and target.is_numeric:
            # float("inf"), int("42"): folded with Python's own parser.
            try:
                parsed = float(value.value) if target.is_float else int(value.value)
            except ValueError:
                # Not folded into an error: CPython raises a ValueError a `try` may catch, so the
                # String's own `__int__`/`__float__` raise it at run time with Python's message.
                text = self.exprs.coerce(value, self.exprs.string_type())
                return self.chk.structs.method_call(text, "__int__" if target.is_int else "__float__", [], e.span)
            if target.is_int and not target.min <= parsed <= target.max:
                self.msg.error("E0206", e.args[0].span, value=parsed, type=target)
                return TConst(e.span, ERROR, None)
            return TConst(e.span, target, fold.normalize(parsed, target))
        if not (isinstance(value.type, (LiteralType, ScalarType))):
            self.msg.error("E0205", e.args[0].span, found=value.type, expected=target)
            return TConst(e.span, ERROR, None)
        if isinstance(value.type, LiteralType) and isinstance(value, TConst) and target.is_float:
            return TConst(e.span, target, fold.round_float(float(value.value), target))  # float(2 ** 64)
        if isinstance(value.type, LiteralType) and value.type.kind == "int" and target.is_int:
            if not target.min <= value.value <= target.max and name in ("int", "Int", "Int64", "UInt64"):
                self.msg.error("E0206", e.args[0].span, value=value.value, type=target)
                return TConst(e.span, ERROR, None)
            return TConst(e.span, target, fold.wrap(value.value, target))
        return self.convert(self.exprs.value(value), target, e.span)

    def convert(self, value: TExpr, target: ScalarType, span: Span) -> TExpr:
        if value.type == target:
            return value
        checked = is_float(value.type) and target.is_int
        if isinstance(value, TConst):
            try:
                return TConst(span, target, fold.convert(value.value, target, checked))
            except fold.NoFold:
                pass
        return TConvert(span, target, value, checked)

    def normalize_index(self, e: ast.Call) -> TExpr:
        """`normalize_index(i, n[, "message"])`: i as an index into n items, Python's way (a
        negative i counts from the end); IndexError with the message (default "index out of
        range") when it is outside, unless compiled with --no-bounds-check."""
        self._no_keywords("normalize_index", e)
        args = [self.exprs.expr(a) for a in e.args]
        if not 2 <= len(args) <= 3:
            self.msg.error("E0204", e.span, func="normalize_index", expected="2 or 3", s="s", found=len(args))
            return TConst(e.span, ERROR, None)
        message = "index out of range"
        if len(args) == 3:
            if not (isinstance(args[2], TConst) and isinstance(args[2].value, str)):
                self.msg.error("E0217", args[2].span, name="the message of normalize_index")
                return TConst(e.span, ERROR, None)
            message = args[2].value
        index, count = (self.exprs.coerce(a, T.INT) for a in args[:2])
        if ERROR in (index.type, count.type):
            return TConst(e.span, ERROR, None)
        return TBuiltin(e.span, T.INT, "normalize_index", [index, count, TConst(e.span, T.STRING_LITERAL, message)])

    def hash_call(self, e: ast.Call) -> TExpr:
        """`hash(x)`: Python's value for numbers and Bools; a struct's `__hash__`."""
        self._no_keywords("hash", e)
        args = [self.exprs.expr(a) for a in e.args]
        if len(args) != 1:
            self.msg.error("E0204", e.span, func="hash", expected=1, s="", found=len(args))
            return TConst(e.span, ERROR, None)
        x = self.exprs.value(args[0])
        if x.type == ERROR:
            return x
        if self.chk.structs.struct_of(x.type) is not None:
            result = self.chk.structs.method_call(x, "__hash__", [], e.span)
            if result is None:
                self.msg.error("E0118", e.span, struct=x.type, name="__hash__")
                return TConst(e.span, ERROR, None)
            return result
        if isinstance(x.type, ScalarType):
            return TBuiltin(e.span, T.INT, "hash", [x])
        self.msg.error("E0007", e.span, construct=f"`hash` of a `{x.type}`")
        return TConst(e.span, ERROR, None)

    def struct_extreme(self, name: str, args: list[TExpr], e: ast.Call, t: StructType) -> TExpr:
        """`max(a, b, c)` of structs: the stdlib's two-argument max (a `Comparable` bound) folded
        left to right, `max(max(a, b), c)`, which keeps the first of equal items as Python does."""
        from .module import MAX_OF_STRUCTS, MIN_OF_STRUCTS

        decl = self.chk.module.functions.get(MAX_OF_STRUCTS if name == "max" else MIN_OF_STRUCTS)
        if decl is None:
            self.msg.error("E0203", e.span, op=name, operand=t)
            return TConst(e.span, ERROR, None)
        result = args[0]
        for a in args[1:]:
            result = self.finish_call(decl, [result, a], e.span, e.func.span)
        return result

    def math_builtin(self, name: str, e: ast.Call) -> TExpr:
        self._no_keywords(name, e)
        args = [self.exprs.expr(a) for a in e.args]
        if any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        vector = next((a.type for a in args if isinstance(a.type, T.SIMDType)), None)
        if vector is not None:
            if (name == "abs" and len(args) != 1) or (name != "abs" and len(args) < 2):
                self.msg.error("E0204", e.span, func=name, expected=1 if name == "abs" else "at least 2",
                                 s="" if name == "abs" else "s", found=len(args))
                return TConst(e.span, ERROR, None)
            args = [self.chk.simd.broadcast(a, vector) for a in args]
            if any(a.type == ERROR for a in args) or vector.elem.is_bool:
                if vector.elem.is_bool:
                    self.msg.error("E0203", e.span, op=name, operand=vector)
                return TConst(e.span, ERROR, None)
            return TBuiltin(e.span, vector, name, args)
        if name == "abs":
            if len(args) != 1:
                self.msg.error("E0204", e.span, func="abs", expected=1, s="", found=len(args))
                return TConst(e.span, ERROR, None)
            a = args[0]
            if a.type == T.BOOL:
                a = self.convert(a, T.INT, e.span)
            if isinstance(a.type, T.StructType):  # `abs(v)` of an object or struct with `__abs__`
                dunder = self.chk.structs.method_call(a, "__abs__", [], e.span)
                if dunder is not None:
                    return dunder
            if not (isinstance(a.type, LiteralType) or is_num(a.type)):
                self.msg.error("E0203", e.span, optional_notes(a), op="abs", operand=a.type)
                return TConst(e.span, ERROR, None)
            if isinstance(a, TConst):
                return TConst(e.span, a.type, fold.normalize(abs(a.value), a.type))
            return TBuiltin(e.span, a.type, "abs", [a])
        if len(args) < 2:
            self.msg.error("E0204", e.span, func=name, expected="at least 2", s="s", found=len(args))
            return TConst(e.span, ERROR, None)
        text = self.exprs.string_type()
        if text is not None and all(a.type in (text, T.STRING_LITERAL) for a in args):
            args = [self.exprs.coerce(a, text) for a in args]  # max("pear", "apple") and max(s, "x") are str
        from .numbers import common as number_items
        from .numbers import mixed_numbers

        # `max(n, 0)`, n an `int | float` (or a float, where the module has Numbers): compared as Numbers
        number = number_items(args) or mixed_numbers(self.chk, args)
        if number is not None:
            args = [self.exprs.coerce(a, number) for a in args]
        t = args[0].type
        for a in args[1:]:
            u = self._same_or_literal(t, a.type)
            if u is None:
                self.msg.error("E0214", a.span, func=name, left=t, right=a.type)
                return TConst(e.span, ERROR, None)
            t = u
        if isinstance(t, StructType):
            from .reflected_compare import class_extreme  # (objects with only `__lt__`)

            return class_extreme(self.chk, name, args, e.span) or self.struct_extreme(name, args, e, t)
        if not (isinstance(t, (LiteralType, ScalarType))):
            self.msg.error("E0203", e.span, op=name, operand=t)
            return TConst(e.span, ERROR, None)
        if python_float.refuse_mixed_extreme(self.chk, name, args, t):
            return TConst(e.span, ERROR, None)
        args = [self.exprs.coerce(a, t) for a in args]
        if any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        if all(isinstance(a, TConst) for a in args):
            pick = args[0].value
            for a in args[1:]:
                if (a.value > pick) if name == "max" else (a.value < pick):
                    pick = a.value
            return TConst(e.span, t, pick)
        t = default_type(t)
        return TBuiltin(e.span, t, name, [self.exprs.coerce(a, t) for a in args])

    def _same_or_literal(self, a: Type, b: Type) -> Type | None:
        if a == b:
            return a
        if isinstance(a, LiteralType) and isinstance(b, LiteralType):
            return T.FLOAT_LITERAL
        for lit, other in ((a, b), (b, a)):
            if isinstance(lit, LiteralType) and is_num(other) and (lit.kind == "int" or other.is_float):
                return other
        return None

    def _no_keywords(self, name: str, e: ast.Call) -> None:
        for kw in e.keywords:
            self.msg.error("E0207", kw.span, func=name, name=kw.name)


def _plays(decl: ast.FnDef, *roles: str) -> bool:
    """Whether decl is the stdlib function marked `@builtin_function` with one of these roles
    (semantics/builtin_functions.py; imported only for a function with decorators)."""
    if not decl.decorators:
        return False
    from .builtin_functions import is_builtin_function

    return is_builtin_function(decl, *roles)


def _binary_mode(decl: ast.FnDef, e: ast.Call) -> ast.StrLit | None:
    """The literal mode of `open(path, "rb")` (the stdlib's `@builtin_function("open")`) when it asks for binary."""
    if not _plays(decl, "open"):
        return None
    mode = e.args[1] if len(e.args) > 1 else next((k.value for k in e.keywords if k.name == "mode"), None)
    return mode if isinstance(mode, ast.StrLit) and "b" in mode.value else None


def _in_process(symbol: str) -> bool:
    """Whether a C function of this name is loaded in this process (libc, libm, Python's C API):
    calling one that is not would crash the program instead of failing to link."""
    import ctypes

    try:
        return hasattr(ctypes.CDLL(None), symbol)
    except OSError:
        return True  # no way to look here: let the linker decide


def _instance_name(instance) -> str:
    return f"{instance.owner}.{instance.name}" if instance.owner is not None else instance.name


def field_place(e: TExpr) -> FieldTarget | None:
    """`v.a.b` of a mutable variable v, as the place a `mut` argument may write; None otherwise."""
    path, field_type = [], e.type
    while isinstance(e, TField):
        path.append(e.index)
        e = e.base
    if not path or not isinstance(e, TLocal) or not e.var.mutable:
        return None
    return FieldTarget(e.var, list(reversed(path)), field_type)
