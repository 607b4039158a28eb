"""Functions as values: named functions, lambdas and nested `def`s (closures).

Every function used as a value has a type of its own, a `FunctionType`: a struct whose fields are
what it captured and whose `__call__` is its body. Nothing is decided at run time: a call through
the value is a direct call of that body, and a function that takes it (`key=`, a `def` parameter,
`fn apply[F: AnyType](f: F, ...)`) is compiled once per function passed, so the call inlines.

Python's rules for the names a nested function reads from the function around it (its *frame*):

- A name assigned in the nested function is its own local, unless declared `nonlocal`.
- The closure sees the variable's current value when it runs (late binding). A variable of the
  frame that is bound once and never again (and is not assigned in a loop), of a plain type (a
  number, a Bool, a function value that holds no address), is captured by value: the same thing.
  Any other variable (assigned again, `nonlocal`, a List, a String, a struct) is shared: the
  closure keeps its address, so each side sees the other's changes, as in Python.
- A closure that keeps an address cannot outlive its frame: returning one (or a container of
  them) is an error (E0278); one that captured only values can be returned. Where the shared
  variables are locals holding numbers, the frame is checked again with them in heap cells
  (semantics/function_values.py), and the closure holds counted references to those instead.

A type's `symbol` is a `ClosureSymbol`: its captures, and for a named function its declaration
(`target`), which calls go to directly.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from .. import types as T
from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..types import ERROR, FunctionType, ScalarType, StructType, Type
from .builtin_types import is_builtin
from .classes import is_class
from .function_values import cell_prologue, cell_value, is_fn_value, try_cells
from .imports import is_stdlib_file
from .ownership import owning
from .rules import typed_by_argument
from .scope import StructSymbol
from .typed import (
    LocalVar,
    TAddress,
    TAssign,
    TBindRef,
    TBlock,
    TClosure,
    TConst,
    TExpr,
    TExprStmt,
    TField,
    TFieldRef,
    THandler,
    TLocal,
    TRef,
    TReturn,
    TStmt,
    TStmtExpr,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder


# The builtins that take `key=` (and list.sort, reached as an attribute call).
KEYED = ("sorted", "min", "max")
_KEY_FUNCTIONS = {"sorted": "sorted by key", "sort": "sort by key", "min": "min by key", "max": "max by key"}

# Builtins that are functions of one argument in Python, usable as values (`key=len`, `map(str, xs)`):
# each becomes `lambda x: name(x)`.
BUILTIN_VALUES = ("len", "abs", "str", "int", "float", "bool", "repr", "hash", "ord", "chr")


@dataclass(frozen=True)
class Capture:
    name: str
    type: Type  # the variable's type (a by-reference capture's field is a Ptr to it)
    by_ref: bool
    mutable: bool
    const: TConst | None = None  # a compile-time constant of the frame: no field
    cell: bool = False  # shared through a heap cell (a `Cell[T]` field): semantics/function_values.py


@dataclass(eq=False)
class ClosureSymbol(StructSymbol):
    captures: list[Capture] = field(default_factory=list)
    target: ast.FnDef | None = None  # a named function used as a value: calls go straight to it
    own_name: str = ""  # a nested def's name, which its body may call (recursion) as itself


def is_callable_annotation(e: ast.Expr | None) -> bool:
    """`Callable[[int], int]`, `Callable[..., int]`, `typing.Callable[...]` or a bare `Callable`."""
    if isinstance(e, ast.Subscript):
        e = e.value
    return (isinstance(e, ast.Name) and e.id == "Callable") or (
        isinstance(e, ast.Attribute) and e.attr == "Callable" and isinstance(e.value, ast.Name)
        and e.value.id == "typing")


def callable_params(decl: ast.FnDef) -> ast.FnDef:
    """A parameter annotated `Callable[...]` takes any function value: it gets a compile-time type
    parameter of its own, bound to the type of the function passed, so the function is compiled
    once per function passed and calls through the parameter are direct (Python checks nothing
    at run time either; a call with the wrong arguments is an error in that instance)."""
    return typed_by_argument(decl, is_callable_annotation)


# ---- which names a function body binds and reads (Python's scoping rules) ----
def _target_names(target: ast.Node, out: list[str]) -> None:
    if isinstance(target, ast.Name):
        out.append(target.id)
    elif isinstance(target, ast.TupleExpr):
        for elt in target.elts:
            _target_names(elt, out)


def _bindings(stmt: ast.Node) -> list[str]:
    """The names a statement binds in its own function (not in nested ones)."""
    out: list[str] = []
    if isinstance(stmt, ast.Assign):
        for t in stmt.targets:
            _target_names(t, out)
    elif isinstance(stmt, ast.AugAssign):
        _target_names(stmt.target, out)
    elif isinstance(stmt, ast.VarDecl):
        out.append(stmt.name)
    elif isinstance(stmt, (ast.For, ast.CompFor)):
        _target_names(stmt.target, out)
    elif isinstance(stmt, (ast.FnDef, ast.Handler)) and stmt.name:
        out.append(stmt.name)
    elif isinstance(stmt, ast.Import):
        out.extend(alias for _, alias in stmt.names)
    return out


def _walk(roots: tuple[ast.Node, ...], visit) -> None:
    """Every node of a function body (`roots`) that belongs to that function, in source order,
    without recursion: a nested def or lambda is given to `visit` but not entered."""
    stack = list(reversed(roots))
    while stack:
        n = stack.pop()
        visit(n)
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.children(n))))


def _body(fn: ast.FnDef | ast.Lambda) -> tuple[ast.Node, ...]:
    return fn.body if isinstance(fn, ast.FnDef) else (fn.body,)


def scope_of(params: tuple[ast.Param, ...], body: tuple[ast.Node, ...]) -> tuple[set[str], set[str], list[str]]:
    """(locals, nonlocals, free): the names a function binds, those it declares `nonlocal`, and
    those it reads (or its nested functions read) without binding them, in first-use order."""
    bound = {p.name for p in params}
    nonlocal_names: set[str] = set()
    used: list[str] = []
    nested: list[ast.FnDef | ast.Lambda] = []

    def visit(n: ast.Node) -> None:
        if isinstance(n, ast.Nonlocal):
            nonlocal_names.update(n.names)
        elif isinstance(n, ast.Name):
            used.append(n.id)
        elif isinstance(n, (ast.FnDef, ast.Lambda)):
            nested.append(n)
            if isinstance(n, ast.FnDef):  # its defaults and annotations are read here
                for p in n.params:
                    _walk(tuple(x for x in (p.annotation, p.default) if x is not None), visit)
        bound.update(_bindings(n))

    _walk(body, visit)
    for inner in nested:
        used.extend(scope_of(inner.params, _body(inner))[2])
    bound -= nonlocal_names
    free: list[str] = []
    for name in used:
        if name not in bound and name not in free:
            free.append(name)
    return bound, nonlocal_names, free


def _declares_nonlocal(fn: ast.FnDef | ast.Lambda, name: str) -> bool:
    """Whether `fn`, or a function nested in it at any depth, says `nonlocal name` (which may
    reach past `fn`: a shared variable either way)."""
    stack: list[ast.Node] = [fn]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Nonlocal) and name in n.names:
            return True
        stack.extend(ast.children(n))
    return False


def binding_count(name: str, body: tuple[ast.Node, ...]) -> int:
    """How many times the frame's body may bind `name`: each binding once, twice inside a loop
    (it runs again), and twice for a nested function that assigns it through `nonlocal`."""
    count = 0
    stack: list[tuple[ast.Node, int]] = [(s, 0) for s in reversed(body)]
    while stack:
        n, depth = stack.pop()
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            if _declares_nonlocal(n, name):
                count += 2
            if isinstance(n, ast.FnDef) and n.name == name:
                count += 2 if depth else 1
            continue
        if name in _bindings(n):
            # A loop's own variable is bound again on each pass, as is anything bound in a loop.
            count += 2 if depth or isinstance(n, (ast.For, ast.CompFor)) else 1
        inner = depth + (1 if isinstance(n, (ast.For, ast.While)) else 0)
        stack.extend((c, inner) for c in reversed(list(ast.children(n))))
    return count


def _typed_nodes(body: list) -> list:
    """Every node of a typed body (statements, expressions), without recursion."""
    from dataclasses import fields as dataclass_fields

    out, stack = [], list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, list):
            stack.extend(n)
            continue
        if not isinstance(n, (TExpr, TStmt, THandler)):
            continue
        out.append(n)
        for f in dataclass_fields(n):
            value = getattr(n, f.name)
            if isinstance(value, (list, TExpr, TStmt, THandler)):
                stack.append(value)
    return out


def holds_address(t: Type) -> bool:
    """Whether values of t keep the address of some frame's variable (directly or inside)."""
    return next(_frames(t), None) is not None


def _frames(t: Type) -> Iterator[FunctionType]:
    """The closure types in t (itself, its fields', its parameters') that keep a frame's address."""
    seen: set[Type] = set()
    stack = [t]
    while stack:
        u = stack.pop()
        if not isinstance(u, StructType) or u in seen:
            continue
        seen.add(u)
        if isinstance(u, FunctionType) and u.frame:
            yield u
        stack.extend(ft for _, ft in u.fields)
        stack.extend(v for v in u.ct_env.values() if isinstance(v, Type))


class _Captures:
    """A closure being made by `ClosureChecker._closure`: what it captures, the values it is made
    with and its fields' types (one of each per capture, but for a constant); `ok` is False once
    an error was reported."""

    def __init__(self, decl: ast.FnDef, span: Span, nonlocal_names, by_value: tuple):
        self.decl, self.span, self.nonlocal_names, self.by_value = decl, span, nonlocal_names, by_value
        self.captures: list[Capture] = []
        self.values: list[TExpr] = []
        self.fields: list[tuple[str, Type]] = []
        self.ok = True

    def add(self, capture: Capture, value: TExpr, field_type: Type) -> None:
        self.captures.append(capture)
        self.values.append(value)
        self.fields.append((capture.name, field_type))


class ClosureChecker:
    """Functions as values, lambdas and nested functions (this module's docstring).
    Reached as `chk.closures` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg
        # Closures made here that keep addresses of this frame's variables, and where (E0278).
        self.shared: list[tuple[FunctionType, Span, str]] = []
        # Variables captured by value (bound once), and where: passing one to a `mut` parameter
        # would change it behind the closure's copy.
        self.copied: dict[LocalVar, Span] = {}
        # The nested defs made here, by their closure's type: a closure loop's body (closure_loops.py).
        self.nested_defs: dict[FunctionType, ast.FnDef] = {}

    # ---- making function values ----
    def function_value(self, decl: ast.FnDef, span: Span) -> TExpr:
        """A module-level function named as a value."""
        problem = self._value_problem(decl)
        if problem is not None and decl.ct_params and is_stdlib_file(decl.span.file.name):
            return self.builtin_value(decl.name, span)  # `repr`, `round`: Python's builtins of one argument
        if problem is not None:
            self.msg.error("E0276", span, name=decl.name, reason=problem)
            return TConst(span, ERROR, None)
        home = self.chk.home_of(decl)
        name = f"<function {decl.name}>"
        ftype = home.function_types.get(name)
        if ftype is None:
            ftype = self._make_type(name, home.name, [], decl, target=decl)
            home.function_types[name] = ftype
        return TClosure(span, ftype, [])

    def builtin_value(self, name: str, span: Span) -> TExpr:
        """A builtin of one argument named as a value: `lambda x: name(x)`."""
        arg = ast.Param(span, "x", None, None, None)
        body = ast.Call(span, ast.Name(span, name), (ast.Name(span, "x"),), ())
        return self.lambda_value(ast.Lambda(span, (arg,), body), f"<built-in function {name}>")

    def bound_method(self, e: ast.Attribute, var: LocalVar, decl: ast.FnDef) -> TExpr:
        """`obj.method` as a value (`max(d, key=d.get)`): `lambda a, b: obj.method(a, b)`, sharing
        the variable obj as any closure does."""
        if decl.self_convention is None or decl.variadic is not None or decl.ct_params:
            self.msg.error("E0276", e.span, name=f"{var.type}.{e.attr}",
                           reason="only a method taking `self` and plain parameters is a bound method here")
            return TConst(e.span, ERROR, None)
        # Its own parameter names (`$0`, ...) cannot hide the receiver's.
        params = tuple(ast.Param(p.span, f"${i}", None, p.default, None) for i, p in enumerate(decl.params[1:]))
        body: ast.Expr = ast.Call(e.span, e, tuple(ast.Name(p.span, p.name) for p in params), ())
        if e.attr == "get" and is_builtin(var.type, "Dict"):
            # `key=d.get`: Python's get of one argument gives None for a missing key, which the
            # key function's caller could not compare anyway (TypeError); pyx reads d[k] (KeyError).
            params = params[:1]
            body = ast.Subscript(e.span, e.value, (ast.Name(e.span, "$0"),))
        name = f"<bound method {var.type}.{e.attr} at {self._where(e.span)} in {self._frame_name()}>"
        # Python's bound method holds the object, not the variable: an object (a class's, counted)
        # is held by the method value itself, which may then outlive the frame.
        by_value = (var.name,) if isinstance(e.value, ast.Name) and is_class(var.type) else ()
        made = self.lambda_value(ast.Lambda(e.span, params, body), name, by_value)
        if isinstance(made, TClosure):  # its signature is the method's (function_values.signature_type)
            cast(Any, made.type).symbol.bound = (decl, var.type)  # (ClosureSymbol has no `bound` field)
        return made

    def lambda_value(self, e: ast.Lambda, name: str | None = None, by_value: tuple = ()) -> TExpr:
        decl = ast.FnDef(e.span, "def", "<lambda>", e.span, (), e.params, False, None,
                         (ast.Return(e.body.span, e.body),))
        made = self._closure(decl, name or f"<lambda at {self._where(e.span)} in {self._frame_name()}>", e.span,
                             own_name="", by_value=by_value)
        return made if made is not None else TConst(e.span, ERROR, None)

    def define(self, s: ast.FnDef) -> TStmt | None:
        """A nested `def`/`fn`: its name, in the enclosing function, holds the closure."""
        if any(d.name == "parameter" for d in s.decorators):  # Mojo's body of a closure loop
            from .closure_loops import define_parameter_fn

            return define_parameter_fn(self.chk, s)  # (the copies `@__copy_capture` takes)
        made: TExpr | None = None
        for unsupported, what in ((s.decorators, "a decorator"), (s.variadic is not None, "a `*` parameter"),
                                  (s.ct_params, "compile-time parameters")):
            if unsupported:
                self.msg.error("E0281", s.name_span, construct=what)
                break
        else:
            made = self._closure(s, f"<function {self._frame_name()}.<locals>.{s.name} at "
                                    f"{self._where(s.name_span)}>", s.name_span, own_name=s.name)
        if made is None:  # its name stays defined, quietly, so its uses say nothing more
            if self.chk.scopes.lookup(s.name) is None:
                quiet = self.chk.assign_target(ast.Name(s.name_span, s.name), TConst(s.span, ERROR, None))
                if quiet is not None and self.chk.assigned is not None:
                    self.chk.assigned.add(quiet)  # (not "used before it is assigned", E0103, either)
            return None
        existing = self.chk.scopes.lookup(s.name)
        if isinstance(existing, LocalVar) and existing.type != made.type and existing.type != ERROR \
                and not is_fn_value(existing.type):  # (a `Callable[...]` variable takes it: function_values.py)
            self.msg.error("E0280", s.name_span, name=s.name)
            return None
        if existing is None and s.name in self.chk.module.functions:
            # A nested def hides the module's function of that name, as in Python.
            var = self.chk.new_var(s.name, made.type, s.name_span)
            self.chk.scopes.declare(s.name, var, function_wide=True)
        else:
            var = self.chk.assign_target(ast.Name(s.name_span, s.name), made)
        if var is None:
            return None
        if isinstance(made.type, FunctionType):
            self.nested_defs[made.type] = s
        return self.chk.store([var], [self.exprs.coerce(made, var.type)], s.span)

    def _frame_name(self) -> str:
        """The enclosing instance, as its symbol names it without the module (`outer[Int]`): a
        closure's type is one per instance of the function that makes it."""
        symbol = self.chk.fn.symbol
        prefix = self.chk.fn.module + "."
        return symbol[len(prefix):] if symbol.startswith(prefix) else symbol

    def _where(self, span: Span) -> str:
        return str(span).rsplit(":", 2)[-2] + ":" + str(span).rsplit(":", 1)[-1]

    def _value_problem(self, decl: ast.FnDef) -> str | None:
        if any(d.name == "kernel" for d in decl.decorators):
            return "a `@kernel` is launched, not called"
        if decl.ct_params:
            return "it has compile-time parameters (wrap it: `lambda x: f[...](x)`)"
        if decl.variadic is not None:
            return "it has a `*` parameter"
        return None

    def _make_type(self, name: str, module: str, fields: list, call: ast.FnDef, target=None, captures=(),
                   frame: str = "", own_name: str = "") -> FunctionType:
        ftype = FunctionType(name, module, list(fields), name, dict(self.chk.ct_env) if target is None else {},
                             None, frame)
        struct = ast.StructDef(call.span, name, call.name_span, (), (), (), (call,), ())
        sym = ClosureSymbol(struct, ftype, {"__call__": call}, "done", home=self.chk.home_of(call) if target
                            else self.chk.module, captures=list(captures), target=target, own_name=own_name)
        object.__setattr__(ftype, "symbol", sym)
        return ftype

    def _closure(self, decl: ast.FnDef, name: str, span: Span, own_name: str,
                 by_value: tuple = ()) -> TClosure | None:
        """The closure of `decl` made here: its captures and their values, and its type."""
        if any(p.name == "self" for p in decl.params) or any(p.variadic for p in decl.params):
            self.msg.error("E0281", span, construct="a parameter named `self`" if any(
                p.name == "self" for p in decl.params) else "a `*` parameter")
            return None
        _, nonlocal_names, free = scope_of(decl.params, decl.body)
        made = _Captures(decl, span, nonlocal_names, by_value)
        for n in nonlocal_names:
            found = self.chk.scopes.lookup(n)
            if not isinstance(found, LocalVar):
                self.msg.error("E0197", span, name=n)
                made.ok = False
        for n in free:
            if n != own_name:  # (the function calling itself: its own value, see enter)
                self._capture(made, n)
        if not made.ok:
            return None
        if any(c.by_ref for c in made.captures) and (any(loop.parallel for loop in self.chk.loops)
                                                     or self.chk.fn.is_kernel):
            # A prange body is outlined with copies of what it reads; a kernel's variables are per thread.
            self.msg.error("E0281", span, construct="a shared variable inside a `prange` loop or a kernel")
            return None
        ftype, frame = self._closure_type(made, name, own_name if own_name in free else "")
        if frame == self.chk.fn.symbol:
            self.shared.append((ftype, span, next(c.name for c in made.captures if c.by_ref and not c.cell)))
        return TClosure(span, ftype, made.values)

    def _capture(self, made: _Captures, n: str) -> None:
        """Capture the free name `n`: a compile-time constant, or a variable of the frame (E0277 where
        it is bound after the closure is made); a module-level name or a builtin is not captured."""
        decl, span = made.decl, made.span
        found = self.chk.scopes.lookup(n)
        if isinstance(found, TConst):
            made.captures.append(Capture(n, found.type, False, False, found))
            return
        if found is None and n in made.nonlocal_names:
            return  # reported above
        if found is None and binding_count(n, self.chk.fn.decl.body):  # bound later in the frame
            self.msg.error("E0277", span, func=decl.name, name=n)
            made.ok = False
            return
        if not isinstance(found, LocalVar) or found.global_symbol is not None:
            return  # a module-level name (the nested function reads it itself), a builtin, or a mistake
        if found.type == ERROR:
            self.chk.empties.unmade_closure(decl, found)  # `out = []` appended to in here (empty_literals.py)
            made.ok = False
            return
        if self.chk.assigned is not None and found not in self.chk.assigned:
            self.msg.error("E0277", span, func=decl.name, name=n)
            made.ok = False
            return
        self._capture_variable(made, n, found)

    def _capture_variable(self, made: _Captures, n: str, found: LocalVar) -> None:
        """A variable of the frame: a copy of its value (a number or a plain function bound once), else
        its address; a bound method's object given to the closure; a heap cell's reference."""
        span = made.span
        plain = isinstance(found.type, ScalarType) or (isinstance(found.type, FunctionType)
                                                       and not holds_address(found.type)
                                                       and not owning(found.type))
        bound = binding_count(n, self.chk.fn.decl.body) + (1 if found.is_param else 0)
        by_ref = found.by_ref or n in made.nonlocal_names or not plain or bound > 1
        if n in made.by_value:  # a bound method's object: a counted copy of the handle, the closure's own
            made.add(Capture(n, found.type, False, False),
                     self.chk.ownership.consume(TLocal(span, found.type, found), "captured"), found.type)
            return
        holder = getattr(found, "cell", None)
        if holder is not None:  # the variable lives in a heap cell: the closure holds a reference to it
            made.add(Capture(n, found.type, True, found.mutable, cell=True),
                     self.chk.ownership.consume(TLocal(span, holder.type, holder), "captured"), holder.type)
            return
        if by_ref:
            made.add(Capture(n, found.type, by_ref, found.mutable), TAddress(span, T.ptr(found.type), found),
                     T.ptr(found.type))
        else:
            made.add(Capture(n, found.type, by_ref, found.mutable), TLocal(span, found.type, found), found.type)
            self.copied.setdefault(found, span)

    def _closure_type(self, made: _Captures, name: str, own_name: str) -> tuple[FunctionType, str]:
        """The closure's type (one per name, frame and field types, made once) and the frame whose
        variables it shares ("" for none)."""
        decl, captures, fields = made.decl, made.captures, made.fields
        call = ast.FnDef(decl.span, decl.kind, "__call__", decl.name_span, (),
                         (ast.Param(decl.name_span, "self", None, None, None),) + decl.params,
                         decl.raises, decl.returns, decl.body)
        frame = self.chk.fn.symbol if any(c.by_ref and not c.cell for c in captures) else ""
        frame = frame or next((t.frame for _, t in fields if isinstance(t, FunctionType) and t.frame), "")
        consts = [f"{c.name}={c.const.value!r}" for c in captures if c.const is not None]
        if consts:  # (a `comptime for` body makes one per value of its constants)
            name = name[:-1] + f" with {', '.join(consts)}>"
        if any(c.cell for c in captures):  # (not the type this frame's first check made: function_values.py)
            # Which ones: each check of the frame may put more variables in cells, and the types of
            # two checks (both compiled) must not share a name, which is their functions' symbol.
            name = name[:-1] + f" sharing cells {', '.join(c.name for c in captures if c.cell)}>"
        key = f"{name} in {self.chk.fn.symbol}" + (
            f" [{', '.join(str(t) for _, t in fields)}]" if fields else "")
        ftype = self.chk.module.function_types.get(key)
        if ftype is None:
            ftype = self._make_type(name, self.chk.module.name, fields, call, captures=captures, frame=frame,
                                    own_name=own_name)
            self.chk.module.function_types[key] = ftype
        return ftype, frame

    # ---- calling them ----
    def call(self, callee: TExpr, e: ast.Call) -> TExpr:
        """`f(args)` of a function value: a direct call of its body."""
        ftype = callee.type
        assert isinstance(ftype, FunctionType) and isinstance(ftype.symbol, ClosureSymbol)
        sym = ftype.symbol
        if sym.target is not None:
            call = self.chk.calls.user_call(sym.target, e)
            if isinstance(callee, (TLocal, TClosure)) or call.type == ERROR:
                return call
            # `pick()(x)`: what made the value runs first (a named function's value holds nothing).
            return TStmtExpr(e.span, call.type, [TExprStmt(callee.span, callee)], call)
        return self.chk.calls.user_call(sym.methods["__call__"], e, ftype, callee)

    # ---- builtins taking a key function ----
    def builtin(self, name: str) -> bool:
        """Whether `name` here is Python's builtin, not a function of the program's own."""
        decl = self.chk.module.functions.get(name)
        return decl is None or is_stdlib_file(decl.span.file.name)

    def keyed(self, name: str, e: ast.Call) -> TExpr:
        """`sorted(xs, key=f, reverse=r)`, `xs.sort(key=f, reverse=r)`, `min(xs, key=f)`,
        `max(a, b, key=f)`: calls of stdlib/functional.px's versions taking the function."""
        allowed = ("key", "reverse") if name in ("sorted", "sort") else ("key",)
        for kw in e.keywords:
            if kw.name == "default" and name in ("min", "max"):
                self.msg.error("E0363", kw.span, func=name)
                return TConst(e.span, ERROR, None)
            if kw.name not in allowed:
                self.msg.error("E0207", kw.span, func=name, name=kw.name)
                return TConst(e.span, ERROR, None)
        key = next(kw.value for kw in e.keywords if kw.name == "key")  # (`key=str.lower`: function_arguments.py)
        rest = tuple(kw for kw in e.keywords if kw.name != "key")
        if isinstance(key, ast.NoneLit):  # `key=None`: no key, as in Python
            return self.chk.exprs.expr(replace(e, keywords=rest))
        decl = self.chk.module.functions.get(_KEY_FUNCTIONS[name])
        if name == "sort":
            assert isinstance(e.func, ast.Attribute)
            if decl is None or e.args:
                self.msg.error("E0204", e.span, func="sort", expected=0, s="s", found=len(e.args))
                return TConst(e.span, ERROR, None)
            return self.chk.calls.user_call(decl, ast.Call(e.span, ast.Name(e.func.span, decl.name),
                                                           (e.func.value, key), rest))
        args = e.args
        if name in ("min", "max") and len(args) > 1:
            args = (ast.ListExpr(e.span, args),)  # `min(a, b, key=f)`: the first smallest of the arguments
        if len(args) != 1 or decl is None:
            self.msg.error("E0204", e.span, func=name, expected="1" if name == "sorted" else "at least 1",
                           s="", found=len(args))
            return TConst(e.span, ERROR, None)
        items = args[0]
        found = self.chk.scopes.lookup(items.id) if isinstance(items, ast.Name) else None
        if not isinstance(items, ast.ListExpr) and not (isinstance(items, ast.Comprehension) and items.kind == "list") \
                and not (isinstance(found, LocalVar) and is_builtin(found.type, "List")):
            # Any other iterable (a dict's keys, a generator expression, ...): its items, as a list.
            if isinstance(items, ast.Comprehension) and items.kind == "generator":
                items = replace(items, kind="list")
            else:
                item = ast.Name(items.span, "$item")
                items = ast.Comprehension(items.span, "list", item, None, (ast.CompFor(items.span, item, items),))
        return self.chk.calls.user_call(decl, ast.Call(e.span, ast.Name(e.func.span, decl.name), (items, key), rest))

    # ---- inside a closure's body ----
    def enter(self) -> list[TStmt]:
        """At the start of a closure's `__call__`: its captured names, each a variable (by
        reference where it shares the frame's), bound from the closure's fields."""
        owner = self.chk.fn.owner
        if not isinstance(owner, FunctionType) or not isinstance(owner.symbol, ClosureSymbol):
            return []
        receiver = self.chk.self_var
        assert receiver is not None
        sym = owner.symbol
        span = self.chk.fn.decl.name_span
        prologue: list[TStmt] = []
        assigned = self.chk.assigned if self.chk.assigned is not None else set()
        index = 0
        for cap in sym.captures:
            if cap.const is not None:
                self.chk.scopes.declare(cap.name, cap.const, function_wide=True)
                continue
            ftype = owner.fields[index][1]
            value = TField(span, ftype, TLocal(span, owner, receiver), index)
            index += 1
            var = self.chk.new_var(cap.name, cap.type, span, mutable=cap.mutable or not cap.by_ref)
            var.owned = False
            self.chk.scopes.declare(cap.name, var, function_wide=True)
            assigned.add(var)
            if cap.cell:
                var.by_ref = True
                prologue.append(TBindRef(span, var, cell_value(span, value, cap.type)))
            elif cap.by_ref:
                var.by_ref = True
                prologue.append(TBindRef(span, var, value))
            elif owning(cap.type):  # a bound method's object: this call's own counted copy
                var.mutable, var.owned = False, True
                prologue.append(TAssign(span, [var], [self.chk.ownership.consume(value, "captured")]))
            else:
                var.mutable = False
                prologue.append(TAssign(span, [var], [value]))
        if sym.own_name and self.chk.scopes.lookup(sym.own_name) is None:
            # Its own name, called from its body (recursion): the closure itself.
            var = self.chk.new_var(sym.own_name, owner, span, mutable=False)
            var.owned = False
            self.chk.scopes.declare(sym.own_name, var, function_wide=True)
            assigned.add(var)
            prologue.append(TAssign(span, [var], [TLocal(span, owner, receiver)]))
        return prologue

    def void_return(self, value: TExpr, span: Span) -> TStmt | None:
        """`lambda v: xs.append(v)`: a lambda whose body gives nothing returns None, as Python's
        does; elsewhere `return f()` of such an f stays an error (None)."""
        owner = self.chk.fn.owner
        if value.type != T.NONE or not isinstance(owner, FunctionType) or not isinstance(
                owner.symbol, ClosureSymbol) or owner.symbol.own_name or owner.symbol.target is not None:
            return None
        return TBlock(span, [TExprStmt(span, value), TReturn(span, None)])

    def stmt_Nonlocal(self, s: ast.Nonlocal) -> None:
        """`nonlocal x`: checked where the nested function is made (its captures); here only that
        this is a nested function and x is one of the names it shares."""
        owner = self.chk.fn.owner
        sym = owner.symbol if isinstance(owner, FunctionType) else None
        for name in s.names:
            if not isinstance(sym, ClosureSymbol) or not any(c.name == name and c.by_ref for c in sym.captures):
                self.msg.error("E0197", s.span, name=name)
        return None

    def finish(self) -> None:
        """After the body: a closure sharing this frame's variables must not be returned, and a
        variable a closure copied must not be changed through a `mut` argument."""
        self.chk.fn.body[0:0] = cell_prologue(self.chk)  # (semantics/function_values.py)
        if self.copied:
            for node in _typed_nodes(self.chk.fn.body):
                var = node.var if isinstance(node, TRef) else node.target.var if isinstance(node, TFieldRef) else None
                if var in self.copied:
                    self.msg.error("E0281", self.copied[var], (Note("changed here", node.span),),
                                   construct=f"a copy of `{var.name}`, which a `mut` argument changes,")
                    del self.copied[var]
        ret = self.chk.fn.return_type
        if ret is None or ret == ERROR or not self.shared:
            return
        escaping = {t for t in _frames(ret) if t.frame == self.chk.fn.symbol}
        for ftype, span, name in self.shared:
            if ftype in escaping and not try_cells(self.chk, ftype):  # (or checked again, with cells)
                found = self.chk.scopes.lookup(name)
                why = "pyx shares a variable that is assigned again, or is not a number, by keeping its address"
                if isinstance(found, LocalVar) and found.is_param and owning(found.type):
                    why = (f"Python's closure would share the caller's own `{name}`; pyx keeps it beyond this "
                           f"call only as a copy: copy it into a variable here (`own = {name}.copy()`) and "
                           "use that, if a copy is meant")
                self.msg.error("E0278", span, (Note(why, span),), name=name, func=self.chk.fn.name)
                return
