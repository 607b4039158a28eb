"""Host code that talks to C as C does: atomics on memory, a function's address as a C function
pointer, and a call through such a pointer. What the thread pool (stdlib/runtime_pool.px) is
written in, and what a user's own threads need.

- `atomic_load(p)`, `atomic_store(p, v)`, `atomic_fetch_add(p, v)`, `atomic_fetch_sub(p, v)`,
  `atomic_exchange(p, v)` (each of these two returns the old value) and
  `atomic_compare_exchange(p, expected, desired)` (True when `*p` was `expected` and is now
  `desired`) on a `Ptr` to an integer (or to a `Ptr`, for load, store, exchange and
  compare-exchange), with C11's orderings as `ordering="relaxed" | "acquire" | "release" |
  "acq_rel" | "seq_cst"` (the default, as in C). They are LLVM's atomic instructions, so they
  are as fast as C's `<stdatomic.h>`. Host only: a GPU target refuses them (E0226), and GPU code
  keeps `atomic_add` and friends.
- The name of a module-level `fn` given as an argument of `external_call` is its address, a C
  function pointer (`Ptr[UInt8]`): `external_call["pthread_create", Int32](tid, attr, worker, arg)`.
  Its parameters and result must be what C can pass (numbers, Bools, pointers) and it must not
  raise (C has no way to see an exception): E0194 says which rule a function breaks; one that
  only turns out to raise once compiled (a division, a recursion) is refused by the code
  generator with the same code.
- `external_call[p, R](args...)` with a pointer `p` instead of a symbol calls the C function at
  `p` with the arguments' own types, as `external_call` calls a symbol.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR, ScalarType
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

# The name a user writes -> (the operation in ir/ops.py, how many operands).
ATOMICS = {"atomic_load": 1, "atomic_store": 2, "atomic_fetch_add": 2, "atomic_fetch_sub": 2, "atomic_exchange": 2,
           "atomic_compare_exchange": 3}
# C11's names -> LLVM's, and which of them each kind of access may use (as C11 allows).
ORDERINGS = {"relaxed": "monotonic", "acquire": "acquire", "release": "release", "acq_rel": "acq_rel",
             "seq_cst": "seq_cst"}
_ALLOWED = {"atomic_load": ("relaxed", "acquire", "seq_cst"), "atomic_store": ("relaxed", "release", "seq_cst")}
_ARITHMETIC = ("atomic_fetch_add", "atomic_fetch_sub")


@dataclass(eq=False)
class TAtomic(TExpr):
    """An atomic access (`op` names the entry in ir/ops.py; `ordering` is LLVM's name)."""

    op: str
    ordering: str
    args: list[TExpr]


def atomic_call(chk: FunctionChecker, name: str, e: ast.Call) -> TExpr:
    args = [chk.exprs.expr(a) for a in e.args]
    ordering = "seq_cst"
    for kw in e.keywords:
        if kw.name != "ordering":
            chk.msg.error("E0207", kw.span, func=name, name=kw.name)
            return TConst(e.span, ERROR, None)
        allowed = _ALLOWED.get(name, tuple(ORDERINGS))
        if not isinstance(kw.value, ast.StrLit) or kw.value.value not in allowed:
            chk.msg.error("E0194", kw.value.span, what=f"`{name}`",
                          problem=f"its `ordering` must be one of {', '.join(repr(o) for o in allowed)}, written as "
                                  "a string literal")
            return TConst(e.span, ERROR, None)
        ordering = kw.value.value
    if any(a.type == ERROR for a in args):
        return TConst(e.span, ERROR, None)
    expected = ATOMICS[name]
    if len(args) != expected:
        chk.msg.error("E0204", e.span, func=name, expected=expected, s="s" if expected > 1 else "", found=len(args))
        return TConst(e.span, ERROR, None)
    pointer = chk.exprs.value(args[0])
    pt = pointer.type
    integer = isinstance(pt, T.PtrType) and isinstance(pt.pointee, ScalarType) and pt.pointee.is_int \
        and not pt.pointee.is_bool and pt.address_space == 0
    to_pointer = isinstance(pt, T.PtrType) and isinstance(pt.pointee, T.PtrType) and pt.address_space == 0
    if not (integer or (to_pointer and name not in _ARITHMETIC)):
        what = "a Ptr to an integer" if name in _ARITHMETIC else "a Ptr to an integer or to a Ptr"
        chk.msg.error("E0201", pointer.span, expected=what, found=pt)
        return TConst(e.span, ERROR, None)
    assert isinstance(pt, T.PtrType)
    values = [chk.exprs.coerce(a, pt.pointee) for a in args[1:]]
    if any(v.type == ERROR for v in values):
        return TConst(e.span, ERROR, None)
    result = T.NONE if name == "atomic_store" else T.BOOL if name == "atomic_compare_exchange" else pt.pointee
    return TAtomic(e.span, result, name, ORDERINGS[ordering], [pointer, *values])


def function_address(chk: FunctionChecker, e: ast.Name) -> TExpr | None:
    """The module-level `fn` that `e` names, as a C function pointer; None when `e` names no
    function (a variable, or nothing: the ordinary expression then says what it is)."""
    from .function_values import PTR_U8, TFnAddr

    decl = chk.module.functions.get(e.id)
    if decl is None or chk.scopes.lookup(e.id) is not None:
        return None
    problem = None
    if decl.kind != "fn":
        problem = "it is a `def`: give C an `fn`, whose parameters and result have C's types"
    elif decl.raises:
        problem = "it is declared `raises`, and C cannot see an exception"
    elif decl.ct_params or decl.is_generic or decl.variadic is not None:
        problem = "it has compile-time or variadic parameters, so it is no single C function"
    elif decl.self_convention is not None or any(p.convention not in (None, "", "read") for p in decl.params):
        problem = "a parameter is passed by reference (`mut`, `out`, `owned`, `var`), which C cannot do"
    elif any(d.name in ("kernel",) for d in decl.decorators):
        problem = "it is a kernel"
    if problem is None:
        params = tuple(chk.type_resolver(p.annotation, {}, decl) if p.annotation is not None else ERROR
                       for p in decl.params)  # (an `fn` annotates every parameter)
        returns = decl.returns
        result = chk.type_resolver(returns, {}, decl) if returns is not None else T.NONE
        if ERROR in params or result == ERROR:
            return TConst(e.span, ERROR, None)
        bad = next((t for t in (*params, result) if not _c_type(t) and not (t is result and t == T.NONE)), None)
        if bad is not None:
            problem = f"it takes or returns a `{bad}`, and C function pointers pass numbers, Bools and pointers only"
    if problem is not None:
        chk.msg.error("E0194", e.span, what=f"`{decl.name}` as a C function pointer", problem=problem)
        return TConst(e.span, ERROR, None)
    instance = chk.instantiate(decl, params, e.span)
    if instance is None:
        return TConst(e.span, ERROR, None)
    chk.fn.callees.append((instance, e.span))
    return TFnAddr(e.span, PTR_U8, instance, direct=True)


def _c_type(t: T.Type) -> bool:
    return isinstance(t, (ScalarType, T.PtrType)) and getattr(t, "address_space", 0) == 0
