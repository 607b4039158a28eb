"""Rules the checker's parts share: operator tables, names, and small helpers."""
from __future__ import annotations

from typing import Protocol

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ERROR, ScalarType, Type
from .typed import FunctionInstance, LocalVar, TConst, TExpr

BUILTIN_FUNCTIONS = {"print", "range", "abs", "min", "max", "int", "float", "bool", "len", "normalize_index", "hash",
                     "sum", "any", "all", "list"}  # (these four: semantics/comprehensions.py)


# Names of features pyx plans and has not built: using one says "not supported yet" (E0007), not
# "not defined". (`simd_width_of` and `vectorize` were here and exist now; `parallel_for` went
# too: `prange` is pyx's parallel loop, and `parallelize[body](n)` its Mojo spelling.)
FUTURE_NAMES = {"UnsafePointer", "DeviceBuffer", "Tuple"}

# Built-in forms that take compile-time parameters and are only ever called in their own shape:
# named on their own they are not values, and pyx says how to write them (E0002).
COMPILE_TIME_FORMS = {
    "simd_width_of": "`simd_width_of[DType.float32]()`",
    "vectorize": "`for i, w in vectorize[W](n)`",
    "external_call": "`external_call[\"symbol\", ResultType](arguments...)`",
    "constrained": "`constrained[condition, \"message\"]()`",
}


ARITH_OPS = {"+", "-", "*", "/", "//", "%", "**"}


MAX_UNROLL = 4096  # `comptime for` copies its body this many times at most


BINARY_METHODS = {"+": "__add__", "-": "__sub__", "*": "__mul__", "/": "__truediv__", "//": "__floordiv__",
                  "%": "__mod__", "**": "__pow__", "@": "__matmul__", "&": "__and__", "|": "__or__",
                  "^": "__xor__", "<<": "__lshift__", ">>": "__rshift__"}


INPLACE_METHODS = {op: "__i" + name[2:] for op, name in BINARY_METHODS.items()}


COMPARE_METHODS = {"==": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}


UNARY_METHODS = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}


BIT_OPS = {"&", "|", "^", "<<", ">>"}


CMP_OPS = {"<", ">", "<=", ">=", "==", "!="}


class ResolveType(Protocol):
    """The type an annotation names, with these compile-time names bound; `decl` says where it is
    written (a callee's parameter types resolve in the module that declares it)."""

    def __call__(self, expr: ast.Expr, env: dict | None = None, decl: ast.Node | None = None) -> Type: ...


class Instantiate(Protocol):
    """Asks the instantiation stage for the instance of `decl` at these argument types (a method's
    with its owner, a parameterized function's with its compile-time arguments)."""

    def __call__(self, decl: ast.FnDef, param_types: tuple[Type, ...], span: Span | None,
                 owner: Type | None = None, ct_args: tuple = ()) -> FunctionInstance | None: ...


class Loop:
    def __init__(self, infinite: bool, parallel: bool = False, first_inner: int = 0):
        self.infinite = infinite
        self.parallel = parallel
        self.first_inner = first_inner  # a prange: variables with ids from here are its body's own
        self.shadowed: set[LocalVar] = set()  # a prange: outer loop variables its body re-bound
        self.break_states: list[set[LocalVar]] = []
        self.body: list = []  # its statements (a rebinding at their top level starts each iteration afresh)


def is_num(t: Type) -> bool:
    return isinstance(t, ScalarType) and t.is_numeric


def is_float(t: Type) -> bool:
    return (isinstance(t, ScalarType) and t.is_float) or t == T.FLOAT_LITERAL


def unify_annotation(annotation: ast.Expr, t: Type, names: set, out: dict) -> None:
    """Bind compile-time parameters by matching a parameter's annotation against an argument type."""
    def value(expr, v):
        if isinstance(expr, ast.Name) and expr.id in names and expr.id not in out:
            out[expr.id] = v

    if isinstance(annotation, ast.Name) and annotation.id in names and annotation.id not in out:
        out[annotation.id] = t
    elif isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name):
        kind, items = annotation.value.id, annotation.items
        if kind == "SIMD" and isinstance(t, T.SIMDType) and len(items) == 2:
            value(items[0], T.dtype_of(t.elem))
            value(items[1], t.width)
        elif kind == "Scalar" and isinstance(t, ScalarType) and len(items) == 1:
            value(items[0], T.dtype_of(t))
        elif kind == "Ptr" and isinstance(t, T.PtrType) and items:
            unify_annotation(items[0], t.pointee, names, out)
        elif isinstance(t, T.StructType) and t.base == kind and t.symbol is not None:
            # `List[T]` against `List[Int]`: each parameter of the struct against its value.
            for item, p in zip(items, t.symbol.decl.ct_params):
                bound = t.ct_env.get(p.name)
                if isinstance(bound, T.Type):
                    unify_annotation(item, bound, names, out)
                else:
                    value(item, bound)


def _ct_kind(p: ast.CtParam) -> str:
    ann = p.annotation
    if isinstance(ann, ast.Name) and ann.id in ("Int", "Bool", "DType"):
        return ann.id
    return "type"  # `T: AnyType`, a trait bound, or no annotation


class TypeParam:
    """Marks a type-valued compile-time parameter in scope (it names a type, not a value)."""

    def __init__(self, name: str):
        self.name = name


def ct_type(value) -> Type:
    if isinstance(value, T.DTypeValue):
        return T.DTYPE
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.INT
    if isinstance(value, float):
        return T.FLOAT64
    return ERROR


def source_text(node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def field_span(sym, name: str) -> Span | None:
    for f in sym.decl.fields:
        if f.name == name:
            return f.name_span
    return None


def signature(instance: FunctionInstance) -> str:
    decl = instance.decl
    params = ", ".join(f"{p.name}: {t}" for p, t in zip(decl.params, instance.param_types))
    ret = instance.return_type
    tail = f" -> {ret}" if ret not in (None, T.NONE) else ""
    raises = " raises" if decl.raises else ""
    return f"{decl.kind} {decl.name}({params}){raises}{tail}"


def nonempty_range(start: TExpr, stop: TExpr, step: TExpr) -> bool:
    if not all(isinstance(x, TConst) and isinstance(x.value, int) for x in (start, stop, step)):
        return False
    if step.value > 0:
        return start.value < stop.value
    return step.value < 0 and start.value > stop.value


def merge_assigned(a: set | None, b: set | None) -> set | None:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def typed_by_argument(decl, matches):
    """`decl` with each parameter whose annotation `matches` (`Callable[...]`, `Iterable[...]`)
    given a compile-time type parameter of its own, bound to the type of what is passed: the
    function is compiled once per kind of argument (semantics/closures.py, generators.py)."""
    from dataclasses import replace

    from ..syntax import ast

    if not any(matches(p.annotation) for p in decl.params):
        return decl
    params, extra = [], []
    for p in decl.params:
        if p.annotation is not None and matches(p.annotation):
            hidden = f"type of {p.name}"  # no source can spell it
            extra.append(ast.CtParam(p.annotation.span, hidden, None, None))
            p = replace(p, annotation=ast.Name(p.annotation.span, hidden))
        params.append(p)
    return replace(decl, ct_params=decl.ct_params + tuple(extra), params=tuple(params))
