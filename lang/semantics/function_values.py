"""Functions chosen at run time: the type `Callable[[A, ...], R]`.

Every function, lambda and nested `def` has a type of its own (semantics/closures.py), so a call
through it is direct. Where a program needs *any* function of one signature (a variable, list
element, dict value, field or result annotated `Callable[[A, ...], R]`; a list or dict mixing
several functions; `f if c else g`), the value becomes a `FnValueType`: two words,

- `code`: the address of a *thunk* compiled for the function's own type (`__pyx_fnv_thunkN`
  below, one instance per function type and signature), which reads what the closure captured
  from the environment and calls the function's body directly;
- `env`: null when the function captured nothing, else a heap block: a reference count, then the
  closure's captured values (its struct). Copying the value adds one to the count, destroying it
  takes one away, and the last one frees the block (`__copyinit__`, `__del__`).

A call through such a value is an indirect call of `code` with `env` and the arguments
(`__pyx_fnv_call`, the one primitive: TCallPtr, lowered by ir/function_values.py). Everything
else is ordinary pyx, generated below and parsed once per arity, so ownership, exceptions and
the calls' instances need nothing new.

A closure that keeps the address of a variable of the function that made it (it shares the
variable) cannot become such a value: the value could outlive that call (E0291).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from .. import types as T
from ..diagnostics import DiagnosticBag
from ..source import SourceFile, Span
from ..syntax import ast
from ..types import ERROR, FunctionType, ScalarType, StructType, Type, default_type
from .ownership import owning
from .scope import StructSymbol
from .typed import FunctionInstance, TCall, TClosure, TConst, TExpr, TExprStmt, TLocal, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .closures import ClosureSymbol

GENERATED_FILE = "<function values>"
CALL_PRIMITIVE = "__pyx_fnv_call"
DROP_PRIMITIVE = "__pyx_fnv_drop_env"
PTR_INT = T.ptr(T.INT)
PTR_U8 = T.ptr(T.UINT8)
MAX_ARITY = 8


@dataclass(frozen=True, eq=False)  # (a struct type's identity: types.StructType)
class FnValueType(StructType):
    """`Callable[[A, ...], R]`: any function of that signature, chosen at run time."""

    params: tuple = field(default=(), compare=False, hash=False)
    result: Type = field(default=T.NONE, compare=False, hash=False)


@dataclass(eq=False)
class TFnAddr(TExpr):
    """The address of `thunk`'s entry for indirect calls (a Ptr[UInt8]); `direct`: of the function
    itself, as a C function pointer (semantics/c_functions.py)."""

    thunk: FunctionInstance
    direct: bool = False


@dataclass(eq=False)
class TMakeFnValue(TExpr):
    """A function value of its two words (`code`, `env`), borrowed: nothing is counted."""

    parts: list[TExpr]


@dataclass(eq=False)
class TCallPtr(TExpr):
    """`__pyx_fnv_call(f, args...)`: an indirect call through the function value `args[0]`."""

    args: list[TExpr]


# ---- the generated code, one file per arity and result kind ----
def _text(n: int, void: bool) -> str:
    a = [f"a{i}: A{i}" for i in range(n)]
    names = [f"a{i}" for i in range(n)]
    cts = "".join(f", A{i}: AnyType" for i in range(n))
    result = " raises:" if void else " raises -> R:"
    ret = "" if void else "return "
    return "\n".join([
        "struct __pyx_callable:",
        "    var code: Ptr[UInt8]",
        "    var env: Ptr[Int]",
        "",
        "    fn __init__(out self):",
        "        self.code = Ptr[UInt8]()",
        "        self.env = Ptr[Int]()",
        "",
        "    fn __copyinit__(out self, other: Self):",
        "        self.code = other.code",
        "        self.env = other.env",
        "        if self.env:",
        "            self.env[0] += 1",
        "",
        "    fn __del__(var self):",
        "        if self.env:",
        "            if self.env[0] == 1:",
        "                var drop = (self.env + 1).bitcast[Ptr[UInt8]]()[0]",
        "                if drop:",  # what the closure holds has a destructor (a heap cell it shares)
        f"                    {DROP_PRIMITIVE}(drop, self.env)",
        "                self.env.free()",
        "            else:",
        "                self.env[0] -= 1",
        "",
        # A `def`, not a `fn ... raises`: a `fn` may call it (`sorted`'s key), and whether the call
        # raises is the IR's to know (passes.infer_raises), as for any `def`.
        f"    def __call__({', '.join(['self'] + a)}){result.replace(' raises', '')}",
        "        if not self.code:",  # only a field never assigned (a class's zero value) is null
        "            raise AttributeError(\"the function attribute was never assigned\")",
        f"        {ret}{CALL_PRIMITIVE}({', '.join(['self'] + names)})",
        "",
        f"fn __pyx_fnv_thunk[F: AnyType, R: AnyType{cts}]({', '.join(['env: Ptr[Int]'] + a)}){result}",
        "    var f = (env + 2).bitcast[F]()[0]",
        f"    {ret}f({', '.join(names)})",
        "",
        # The environment: [count, drop, the closure's struct...]; drop: null, or the address of
        # `__pyx_fnv_drop[F]`'s entry where the struct has a destructor.
        "fn __pyx_fnv_make[C: AnyType, F: AnyType, N: Int](code: Ptr[UInt8], drop: Ptr[UInt8], var f: F) -> C:",
        "    var made = C()",
        "    var env = Ptr[Int].alloc(N)",
        "    env[0] = 1",
        "    (env + 1).bitcast[Ptr[UInt8]]()[0] = drop",
        "    (env + 2).bitcast[F]()[0] = f^",
        "    made.code = code",
        "    made.env = env",
        "    return made^",
        "",
        "fn __pyx_fnv_drop[F: AnyType](env: Ptr[Int]):",
        "    var f = (env + 2).bitcast[F]().take(0)",  # destroyed here, once
        "",
        "fn __pyx_fnv_make_empty[C: AnyType](code: Ptr[UInt8]) -> C:",
        "    var made = C()",
        "    made.code = code",
        "    return made^",
        "",
    ])


@dataclass(frozen=True)
class _Decls:
    struct: ast.StructDef
    thunk: ast.FnDef
    make: ast.FnDef
    make_empty: ast.FnDef
    drop: ast.FnDef


# Parsed once per process: immutable trees, like the standard library's (parse_cache._MEMO).
_DECLS: dict[tuple[int, bool], _Decls] = {}
# By the types they are made of, not by their names: `Callable[[Point], Int]` of two modules'
# `Point`s are two types (issue 15 item 4), though both read the same.
_TYPES: dict[tuple[object, ...], FnValueType | CellType] = {}
_LOCK = threading.Lock()


def _decls(n: int, void: bool) -> _Decls:
    key = (n, void)
    found = _DECLS.get(key)
    if found is None:
        from ..syntax.parser import parse

        bag = DiagnosticBag()
        body = parse(SourceFile(GENERATED_FILE, _text(n, void)), bag).body
        assert not bag.items, bag.items
        struct = next(s for s in body if isinstance(s, ast.StructDef))
        fns = {f.name: f for f in body if isinstance(f, ast.FnDef)}
        found = _DECLS.setdefault(key, _Decls(struct, fns["__pyx_fnv_thunk"], fns["__pyx_fnv_make"],
                                              fns["__pyx_fnv_make_empty"], fns["__pyx_fnv_drop"]))
    return found


def fn_value_type(params: tuple[Type, ...], result: Type) -> FnValueType:
    """The one type `Callable[[params], result]`."""
    shown = f"Callable[[{', '.join(str(p) for p in params)}], {result}]"
    key = ("Callable", tuple(params), result)
    with _LOCK:
        found = _TYPES.get(key)
        if found is not None:
            return cast(FnValueType, found)
        decls = _decls(len(params), result == T.NONE)
        env: dict[str, object] = {f"A{i}": p for i, p in enumerate(params)}
        env["R"] = result
        t = FnValueType(shown, "function_values", [("code", PTR_U8), ("env", PTR_INT)], "Callable", env, None,
                        tuple(params), result)
        sym = StructSymbol(decls.struct, t, {m.name: m for m in decls.struct.methods}, "done")
        object.__setattr__(t, "symbol", sym)
        _TYPES[key] = t
        return t


def is_callable_annotation(e: ast.Expr | None) -> bool:
    from .closures import is_callable_annotation as test

    return test(e)


def callable_type(expr: ast.Expr, diags: DiagnosticBag, resolve) -> Type:
    """`Callable[[A, B], R]` in an annotation (a parameter's is a type parameter instead:
    closures.callable_params). A bare `Callable` or `Callable[..., R]` says nothing of the
    parameters: E0279."""
    if not (isinstance(expr, ast.Subscript) and len(expr.items) == 2 and isinstance(expr.items[0], ast.ListExpr)):
        diags.error("E0279", expr.span)
        return ERROR
    params = tuple(resolve(p) for p in expr.items[0].elts)
    result = resolve(expr.items[1]) if not isinstance(expr.items[1], ast.NoneLit) else T.NONE
    if ERROR in params or result == ERROR:
        return ERROR
    if len(params) > MAX_ARITY:
        diags.error("E0279", expr.span)
        return ERROR
    params = tuple(T.STRING_LITERAL if p == T.STRING_LITERAL else p for p in params)
    return fn_value_type(params, result)


def is_fn_value(t: Type) -> bool:
    return isinstance(t, FnValueType)


# ---- a known function's signature ----
def _decl_of(ftype: FunctionType) -> tuple[ast.FnDef, tuple[ast.Param, ...], bool]:
    """The declaration a call of ftype runs, its parameters as the caller sees them, and whether
    it is a closure's `__call__` (taking the closure as `self`)."""
    sym = cast("ClosureSymbol", ftype.symbol)
    if sym.target is not None:
        return sym.target, sym.target.params, False
    call = sym.methods["__call__"]
    return call, call.params[1:], True


def _result_of(chk: FunctionChecker, ftype: FunctionType, params: tuple[Type, ...], span: Span) -> Type | None:
    """What ftype returns when called with arguments of these types (checking its body)."""
    decl, _, method = _decl_of(ftype)
    instance = chk.instantiate(decl, ((ftype,) if method else ()) + params, span, ftype if method else None, ())
    if instance is None or instance.return_type is None:
        return None
    return default_type(instance.return_type)


def _declared_params(chk: FunctionChecker, ftype: FunctionType) -> tuple[Type, ...] | None:
    """Its parameters' types where every one is annotated; else None."""
    decl, params, _ = _decl_of(ftype)
    env = dict(ftype.ct_env)
    bound = getattr(ftype.symbol, "bound", None)
    if bound is not None:  # `obj.method`: the method's parameters after `self`
        decl, owner = bound
        params, env = decl.params[1:], {**getattr(owner, "ct_env", {}), "Self": owner}
    if any(p.annotation is None or p.variadic for p in params):
        return None
    return tuple(chk.type_resolver(cast(ast.Expr, p.annotation), env, decl) for p in params)


def _shown(ftype: FunctionType) -> str:
    from ..syntax.user_decorators import UNDECORATED

    sym = cast("ClosureSymbol", ftype.symbol)
    name = sym.target.name if sym.target is not None else ftype.name
    return name.replace(UNDECORATED, "", 1)  # (a decorated def's own function: syntax/user_decorators.py)


def python_name(ftype: FunctionType) -> str | None:
    """`f.__name__` of a known function, as CPython's: a def's name (the function a decorator was
    given: its own), `<lambda>`; None for another kind of function value."""
    sym = ftype.symbol
    from .closures import ClosureSymbol

    if not isinstance(sym, ClosureSymbol):
        return None
    if sym.target is not None:
        return _shown(ftype)
    if ftype.name.startswith("<lambda"):
        return "<lambda>"
    call = sym.methods.get("__call__")
    span = call.name_span if call is not None else None
    written = span.file.text[span.start:span.end] if span is not None else ""
    return written if written.isidentifier() else None  # (a nested def's name, where its type was made)


def signature_type(chk: FunctionChecker, ftype: FunctionType, span: Span) -> Type | None:
    """`Callable[[...], R]` of a known function with annotated parameters; None if one is not."""
    params = _declared_params(chk, ftype)
    if params is None:
        return None
    if ERROR in params:
        return ERROR
    result = _result_of(chk, ftype, params, span)
    if result is None or result == ERROR:
        return ERROR
    return fn_value_type(params, result)


# ---- converting a known function to the general type ----
def _sized(t: Type) -> bool:
    """Whether values of t take any memory (a closure capturing only named functions takes none)."""
    if isinstance(t, StructType):
        return any(_sized(ft) for _, ft in t.fields)
    return True


def _words(t: Type) -> int | None:
    """An upper bound on the 8-byte words a closure's struct takes; None for what may need more
    alignment than the heap block's (a SIMD value)."""
    if isinstance(t, StructType):
        total = 0
        for _, ft in t.fields:
            w = _words(ft)
            if w is None:
                return None
            total += w
        return total
    if isinstance(t, (ScalarType, T.PtrType)):
        return 1
    return None


def convert(chk: FunctionChecker, e: TExpr, target: FnValueType) -> TExpr:
    """A known function's value where `target`, any function of its signature, is wanted."""
    from .closures import holds_address

    ftype = e.type
    assert isinstance(ftype, FunctionType)
    if holds_address(ftype) and not try_cells(chk, ftype):  # (or checked again, with heap cells)
        shared = next((c.name for c in getattr(ftype.symbol, "captures", []) if c.by_ref), None)
        what = f"the variable `{shared}`" if shared is not None else "a variable"
        chk.msg.error("E0291", e.span, func=_shown(ftype), type=target,
                      reason=f"shares {what} of the function that made it, by that variable's address, and a "
                             "function value may outlive that call (a variable assigned once, holding a number, "
                             "is copied instead)")
        return TConst(e.span, ERROR, None)
    decl, params, _ = _decl_of(ftype)
    problem = None
    if len(params) != len(target.params) or any(p.variadic for p in params):
        problem = f"it takes {len(params)} argument{'s' if len(params) != 1 else ''}"
    else:
        for p, want in zip(params, target.params, strict=True):
            if p.annotation is not None:
                have = chk.type_resolver(p.annotation, dict(ftype.ct_env), decl)
                if have == ERROR:
                    return TConst(e.span, ERROR, None)
                if have != want:
                    problem = f"its parameter `{p.name}` is `{have}`"
                    break
    if problem is None:
        result = _result_of(chk, ftype, target.params, e.span)
        if result is None or result == ERROR:
            return TConst(e.span, ERROR, None)
        if result != target.result and not (result == T.STRING_LITERAL and target.result == T.STRING_LITERAL):
            problem = f"it returns `{result}`"
    if problem is not None:
        chk.msg.error("E0293", e.span, func=_shown(ftype), type=target, problem=problem)
        return TConst(e.span, ERROR, None)
    decls = _decls(len(target.params), target.result == T.NONE)
    thunk = chk.instantiate(decls.thunk, (PTR_INT,) + target.params, e.span, None,
                            (ftype, target.result) + target.params)
    if thunk is None:
        return TConst(e.span, ERROR, None)
    chk.fn.callees.append((thunk, e.span))
    code = TFnAddr(e.span, PTR_U8, thunk)
    if _sized(ftype):
        words = _words(ftype)
        if words is None:
            chk.msg.error("E0291", e.span, func=_shown(ftype), type=target, reason="captured a SIMD value")
            return TConst(e.span, ERROR, None)
        drop: TExpr = TConst(e.span, PTR_U8, None)
        if owning(ftype):  # it holds heap cells: the environment's last owner destroys it
            dropper = chk.instantiate(decls.drop, (PTR_INT,), e.span, None, (ftype,))
            if dropper is None:
                return TConst(e.span, ERROR, None)
            chk.fn.callees.append((dropper, e.span))
            drop = TFnAddr(e.span, PTR_U8, dropper)
        make = chk.instantiate(decls.make, (PTR_U8, PTR_U8, ftype), e.span, None, (target, ftype, 2 + words))
        args: list[TExpr] = [code, drop, chk.ownership.consume(e, "made a function value")]  # (`var f`)
    else:
        make = chk.instantiate(decls.make_empty, (PTR_U8,), e.span, None, (target,))
        args = [code]
    if make is None:
        return TConst(e.span, ERROR, None)
    chk.fn.callees.append((make, e.span))
    chk.ownership.need_drop(target, e.span)
    made: TExpr = TCall(e.span, target, make, args)
    if len(args) == 1 and not isinstance(e, (TLocal, TClosure, TConst)):
        made = TStmtExpr(e.span, target, [TExprStmt(e.span, e)], made)  # what made the value runs first
    return made


def coerce(chk: FunctionChecker, e: TExpr, target: Type) -> TExpr | None:
    """The coercion hook (ExpressionChecker.coerce): a known function where any function of a
    signature is wanted; None where this module has nothing to say."""
    if isinstance(target, FnValueType) and isinstance(e.type, FunctionType):
        return convert(chk, e, target)
    if isinstance(target, FunctionType) and isinstance(e.type, (FunctionType, FnValueType)):
        found = _shown(e.type) if isinstance(e.type, FunctionType) else str(e.type)
        chk.msg.error("E0292", e.span, what=f"this holds `{_shown(target)}`, and is given `{found}` here")
        return TConst(e.span, ERROR, None)
    return None


def common_type(chk: FunctionChecker, values: list[TExpr], span: Span) -> Type | None:
    """The element type of a list or dict (or the type of `f if c else g`) holding several
    different functions: `Callable[...]` of their one signature. None where the values are not
    several functions (the caller goes on as before)."""
    kinds = [v.type for v in values]
    if not all(isinstance(t, (FunctionType, FnValueType)) for t in kinds):
        return None
    general = {t for t in kinds if isinstance(t, FnValueType)}
    known = [t for t in kinds if isinstance(t, FunctionType)]
    if len(general) > 1:
        return None  # two signatures: the caller's "different types" error
    if general:
        return next(iter(general)) if known else None
    if len(set(known)) < 2:
        return None
    for ftype in dict.fromkeys(known):
        found = signature_type(chk, ftype, span)
        if found is not None:
            return found
    chk.msg.error("E0292", span, what="these functions' parameters are not annotated")
    return ERROR


# ---- calls ----
def call_primitive(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`__pyx_fnv_call(self, a0, ...)` inside the generated `__call__`: the indirect call; and
    `__pyx_fnv_drop_env(drop, env)` in its `__del__`: the call of an environment's destructor
    (an entry of the same convention, taking no arguments)."""
    args = [chk.exprs.expr(a) for a in e.args]
    if any(a.type == ERROR for a in args):
        return TConst(e.span, ERROR, None)
    if cast(ast.Name, e.func).id == DROP_PRIMITIVE:
        return TCallPtr(e.span, T.NONE, [TMakeFnValue(e.span, fn_value_type((), T.NONE), args)])
    ftype = args[0].type
    assert isinstance(ftype, FnValueType)
    return TCallPtr(e.span, ftype.result, args)


def is_primitive_call(e: ast.Call) -> bool:
    return isinstance(e.func, ast.Name) and e.func.id in (CALL_PRIMITIVE, DROP_PRIMITIVE) \
        and e.span.file.name == GENERATED_FILE


def attribute_type(chk: FunctionChecker, base: ast.Attribute) -> Type | None:
    """The type of `var.name` where it is a field (or a class's attribute) of a variable, not a
    method; None otherwise. `self.handlers[0](x)`, `self.callback(x)` call such an element."""
    from ..syntax.classes import data_name, is_class_decl
    from .typed import LocalVar

    if not isinstance(base.value, ast.Name):
        return None
    found = chk.scopes.lookup(base.value.id)
    if not isinstance(found, LocalVar) or not isinstance(found.type, StructType) or found.type.symbol is None:
        return None
    t = found.type
    if base.attr in cast(StructSymbol, t.symbol).methods:
        return None
    at = t.field_index(base.attr)
    if at is not None:
        return t.fields[at][1]
    if is_class_decl(cast(StructSymbol, t.symbol).decl):
        data = chk.module.structs.get(data_name(cast(StructSymbol, t.symbol).decl.name))
        at = data.type.field_index(base.attr) if data is not None else None
        return cast(StructSymbol, data).type.fields[at][1] if at is not None else None
    return None


def names_element(chk: FunctionChecker, base: ast.Attribute) -> bool:
    return attribute_type(chk, base) is not None


def _binding_statements(name: str, body: tuple) -> int:
    """How many statements of a function body (not of the functions nested in it) bind `name`
    (an assignment, an augmented one, a declaration; a `for` loop's variable is bound by one)."""

    def _bindings(n) -> list[str]:
        targets = n.targets if isinstance(n, ast.Assign) else (n.target,) if isinstance(n, ast.AugAssign) else ()
        names = [n.name] if isinstance(n, ast.VarDecl) else []
        stack = list(targets)
        while stack:
            t = stack.pop()
            if isinstance(t, ast.Name):
                names.append(t.id)
            elif isinstance(t, ast.TupleExpr):
                stack.extend(t.elts)
        return names

    count = 0
    stack = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.FnDef):
            count += n.name == name
            continue
        if isinstance(n, ast.Lambda):
            continue
        if name in _bindings(n):
            count += 1
        stack.extend(ast.children(n))
    return count


def variable_type(chk: FunctionChecker, name: str, vtype: Type, span: Span) -> Type:
    """The type of a new variable first bound to a known function: `Callable[...]` of its
    signature where another statement binds the variable again (`op = add` ... `op = sub`), so
    it can hold either; the function's own type otherwise (calls through it stay direct)."""
    if not isinstance(vtype, FunctionType) or _binding_statements(name, chk.fn.decl.body) < 2:
        return vtype
    found = signature_type(chk, vtype, span)
    return found if found is not None and found != ERROR else vtype


# ---- heap cells: a variable shared with a closure that outlives its frame ----
# A closure that shares a variable with the function that made it keeps the variable's address
# (semantics/closures.py). Where such a closure leaves the frame (returned, or made a
# `Callable[...]` value), the variable lives in a heap cell instead: a reference count, then the
# value. The frame holds one reference (a hidden variable, destroyed as any value with a
# destructor is, on every way out), each closure capturing it another (a `Cell[T]` field), so
# each call of the maker gets its own cell, shared by the closures it made and freed once, by
# whichever lets go of it last. Which variables need one is found while checking the frame,
# after they were declared: the frame is checked again from the start with their names
# (the Retry of semantics/empty_literals.py), and they are made cells where they are declared.
CELLS_KEY = "function_values.cells"
def _cell_struct(name: str, release: list[str]) -> list[str]:
    """A counted reference to a heap block: a count, then the value; `release`, the last one's
    lines before the block is freed (the value's destructor, where it has one)."""
    return [f"struct {name}:", "    var ptr: Ptr[Int]", "",
            "    fn __init__(out self):", "        self.ptr = Ptr[Int]()", "",
            "    fn __copyinit__(out self, other: Self):", "        self.ptr = other.ptr",
            "        if self.ptr:", "            self.ptr[0] += 1", "",
            "    fn __del__(var self):", "        if self.ptr:", "            if self.ptr[0] == 1:",
            *(" " * 16 + line for line in release), "                self.ptr.free()",
            "            else:", "                self.ptr[0] -= 1", ""]


def _cell_new(name: str, params: str, fill: list[str]) -> list[str]:
    """A function making a cell C of N words, its count 1 and its value what `fill` puts there."""
    return [f"fn {name}[C: AnyType, {params}N: Int]() -> C:", "    var made = C()",
            "    var p = Ptr[Int].alloc(N)", "    p[0] = 1", *("    " + line for line in fill),
            "    made.ptr = p", "    return made^", ""]


# A cell holding a value with a destructor (a list, a dict, a str, a class's object) always holds
# one, so that assigning the variable can destroy the one it replaces, and the last reference
# destroys it: made holding T() (a struct's), or a null handle (a class's, which holds nothing).
CELL_TEXT = "\n".join([
    *_cell_struct("__pyx_cell", []),
    *_cell_new("__pyx_cell_new", "", []),
    *_cell_struct("__pyx_owning_cell", ["var gone = (self.ptr + 1).bitcast[T]().take(0)"]),
    *_cell_new("__pyx_owning_cell_new", "T: AnyType, ", ["(p + 1).bitcast[T]()[0] = T()"]),
    *_cell_new("__pyx_handle_cell_new", "", ["for i in range(1, N):", "    p[i] = 0"]),
])
_CELL_DECLS: list = []


@dataclass(frozen=True, eq=False)  # (a struct type's identity: types.StructType)
class CellType(StructType):
    """`Cell[T]`: a counted reference to a heap cell holding a T (a number or other value without
    a destructor)."""

    held: Type = field(default=T.NONE, compare=False, hash=False)


def _cell_decls() -> dict[str, ast.StructDef | ast.FnDef]:
    """The declarations of CELL_TEXT, by name."""
    if not _CELL_DECLS:
        from ..syntax.parser import parse

        bag = DiagnosticBag()
        body = parse(SourceFile(GENERATED_FILE, CELL_TEXT), bag).body
        assert not bag.items, bag.items
        found = {d.name: d for d in body if isinstance(d, (ast.StructDef, ast.FnDef))}
        with _LOCK:
            if not _CELL_DECLS:
                _CELL_DECLS.append(found)
    return _CELL_DECLS[0]


def cell_type(held: Type) -> CellType:
    shown = f"Cell[{held}]"
    key = ("Cell", held)
    with _LOCK:
        found = cast("CellType | None", _TYPES.get(key))
    if found is not None:
        return found
    struct = cast(ast.StructDef, _cell_decls()["__pyx_owning_cell" if owning(held) else "__pyx_cell"])
    t = CellType(shown, "function_values", [("ptr", PTR_INT)], "Cell", {"T": held}, None, held)
    object.__setattr__(t, "symbol", StructSymbol(struct, t, {m.name: m for m in struct.methods}, "done"))
    with _LOCK:
        return cast(CellType, _TYPES.setdefault(key, t))


def cell_value(span: Span, cell: TExpr, held: Type) -> TExpr:
    """The address of the value in the cell `cell` refers to (after its count)."""
    from .typed import TField, TPtrOp

    ptr = TField(span, PTR_INT, cell, 0)
    after = TPtrOp(span, PTR_INT, "offset", [ptr, TConst(span, T.INT, 1)])
    return TPtrOp(span, T.ptr(held), "bitcast", [after])


def _cell_maker(t: Type) -> str | None:
    """The function that makes a cell for a variable of type t; None where none can (a SIMD
    value; a value with a destructor that no `T()` makes, to stand in until the first assignment)."""
    from .classes import is_class

    if _words(t) is None:
        return None
    if not owning(t):
        return "__pyx_cell_new"
    if is_class(t):
        return "__pyx_handle_cell_new"
    sym = cast(StructSymbol, t.symbol) if isinstance(t, StructType) else None
    init = sym.methods.get("__init__") if sym is not None else None
    if init is None or not init.params or any(p.default is None for p in init.params[1:]):
        return None  # (`T()` must make one: `out self`, the rest with defaults)
    return "__pyx_owning_cell_new"


def _cellable(t: Type) -> bool:
    return _cell_maker(t) is not None


def _param_cellable(t: Type) -> bool:
    """A parameter's cell holds a copy of the argument: the same object as Python's only for a
    value that cannot change in place (a number, a str) or a class's handle (counted, shared);
    a list or dict parameter stays the caller's (E0278)."""
    from .classes import is_class
    from .imports import is_string

    return not owning(t) or is_class(t) or is_string(t)


def param_cell(chk: FunctionChecker, param) -> None:
    """A parameter that a closure leaving the frame shares (`def counter(n: int)` ... `nonlocal n`):
    its name is a variable in a heap cell instead, first given the argument's value."""
    from .typed import LocalVar

    cells = chk.fn.empty_hints.get(CELLS_KEY)
    if not cells or param.name not in cells or param.by_ref or not _param_cellable(param.type):
        return
    var: LocalVar = chk.new_var(param.name, param.type, param.span)
    declared(chk, var)
    if getattr(var, "cell", None) is None:
        return
    chk.scopes.declare(param.name, var)
    if chk.assigned is not None:
        chk.assigned.add(var)
    chk.__dict__["cell_prologue"].append(chk.store([var], [TLocal(param.span, param.type, param)], param.span))


def try_cells(chk: FunctionChecker, ftype: FunctionType) -> bool:
    """ftype, made here, shares variables of this frame and leaves it: check the frame again
    with those variables in heap cells (raises Retry). False where that cannot help (the caller
    reports): a parameter, a loop's variable, a value with a destructor, or already tried."""
    from .closures import ClosureSymbol
    from .empty_literals import Retry
    from .typed import LocalVar

    sym = ftype.symbol
    if ftype.frame != chk.fn.symbol or not isinstance(sym, ClosureSymbol):
        return False
    names = [c.name for c in sym.captures if c.by_ref and not getattr(c, "cell", False)]
    if not names:
        return False
    for n in names:
        var = chk.scopes.lookup(n)
        if not isinstance(var, LocalVar) or var.by_ref or var.global_symbol is not None \
                or not _cellable(var.type) or (var.is_param and not _param_cellable(var.type)):
            return False
    cells = chk.fn.empty_hints.setdefault(CELLS_KEY, set())
    if all(n in cells for n in names):
        return False
    cells.update(names)
    raise Retry()


def declared(chk: FunctionChecker, var) -> None:
    """A new variable of the frame: in a heap cell if a closure leaving the frame shares it."""
    from .typed import TBindRef

    cells = chk.fn.empty_hints.get(CELLS_KEY)
    maker = _cell_maker(var.type) if cells and var.name in cells and not chk.fn.is_kernel else None
    if maker is None:
        return
    ctype = cell_type(var.type)
    new = cast(ast.FnDef, _cell_decls()[maker])
    words = 1 + cast(int, _words(var.type))
    instance = chk.instantiate(new, (), var.span, None,
                               (ctype, var.type, words) if maker == "__pyx_owning_cell_new" else (ctype, words))
    if instance is None:
        return
    chk.fn.callees.append((instance, var.span))
    chk.ownership.need_drop(ctype, var.span)
    holder = chk.new_var(f"{var.name}$cell", ctype, var.span)
    made = chk.store([holder], [TCall(var.span, ctype, instance, [])], var.span)
    var.by_ref = True
    var.owned = not owning(var.type)  # (the cell destroys its value: never moved out of it, `x^`)
    var.cell = holder  # (read by semantics/closures.py when a closure captures var)
    chk.__dict__.setdefault("cell_prologue", []).extend(
        [made, TBindRef(var.span, var, cell_value(var.span, TLocal(var.span, ctype, holder), var.type))])


def cell_prologue(chk: FunctionChecker) -> list:
    """The statements that make this frame's cells, first in its body (a by-reference variable
    is bound in the function's entry block: ir.BindRef)."""
    return chk.__dict__.pop("cell_prologue", [])
