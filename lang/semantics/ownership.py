"""Values with destructors: `__del__`, moves (`x^`), and no implicit copies.

A struct that defines `__del__`, or has a field of such a type, *owns* something (memory,
a handle) and is destroyed exactly once: its variable's value when the function ends or
the variable is assigned again, a temporary at the end of its statement. The lowering
(ir/ownership.py) emits those destructor calls; OwnershipChecker checks the rules that make them
sound:

- such a value is copied only by its struct's `__copyinit__(out self, other: Self)`, or, for a
  struct whose destructor is only its fields', field by field when they can all be copied:
  otherwise binding a variable, a field or a pointer's element to another variable's value,
  returning a field, or passing it to a `var` argument needs a move (`x^`) or a value that
  nobody else holds (a call's result);
- a moved variable cannot be used until it is assigned again; a variable declared outside a
  loop cannot be moved inside it (the next iteration would see it moved);
- an argument the function only borrows (the default convention, or `mut`) cannot be moved.

`return x` of a local variable moves it. Borrowing (an argument by the default convention,
`self` of a method, an operand) never copies either: it passes the bits without giving up
ownership, which is why a borrowed argument cannot be moved or given away.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..source import Span
from ..syntax import ast
from ..types import ERROR, StructType, Type
from .generators import GeneratorSymbol, GeneratorType
from .typed import FieldTarget, LocalVar, TCall, TConst, TCopy, TExpr, TField, TLocal, TMove, TPtrOp, TRef

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder

def owning(t: Type) -> bool:
    """Whether values of t have a destructor to run (a `__del__` of their own or of a field).
    Remembered on the struct's symbol, which belongs to one compilation."""
    if not isinstance(t, StructType) or t.symbol is None:
        return False
    memo = t.symbol.owning
    found = memo.get(t)  # (by the type, not its name: `Box[Point]` of two modules' Points are two)
    if found is None:
        memo[t] = False  # a struct cannot contain itself by value; this also stops any cycle
        found = "__del__" in t.symbol.methods or any(owning(ft) for _, ft in t.fields)
        memo[t] = found
    return found


def is_place(e: TExpr) -> bool:
    """An expression that names memory some variable still owns (its value would be a copy)."""
    return isinstance(e, (TLocal, TField, TRef)) or (isinstance(e, TPtrOp) and e.op == "load")


class OwnershipChecker:
    """Moves, copies and destructors (the rules in this module's docstring).
    Reached as `chk.ownership` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg
    owning = staticmethod(owning)

    def need_drop(self, t: Type, span: Span) -> None:
        """This function holds a value of type t: make sure its destructors are compiled."""
        if not owning(t) or t in self.chk.fn.drops:
            return
        if self.chk.fn.is_kernel or self.chk.fn.gpu_use is not None:
            self.msg.error("E0007", span, construct=f"a value with a destructor (`{t}`) in GPU code")
            return
        if any(loop.parallel for loop in self.chk.loops):
            self.msg.error("E0007", span, construct=f"a value with a destructor (`{t}`) inside a `prange` loop")
            return
        self.chk.fn.drops[t] = None
        decl = t.symbol.methods.get("__del__") if t.symbol is not None else None
        if decl is not None:  # (a malformed one was reported with its struct, and left out)
            instance = self.chk.instantiate(decl, (t,), span, t, ())
            if instance is None:
                return
            self.chk.fn.callees.append((instance, span))
            self.chk.fn.drops[t] = instance
        for _, ft in t.fields:
            self.need_drop(ft, span)

    def consume(self, value: TExpr, what: str, into: LocalVar | None = None) -> TExpr:
        """`value` is given away (bound to `into`, stored, returned, passed to a `var` argument): for a
        value with a destructor that must be a move or a fresh value, never a copy."""
        if what != "assigned":  # (a binding's copy is judged by the variable's later use: sharing.py)
            self.chk.sharing.stored_copy(value)  # `grid.append(row)`, `[row]`: Python would store row itself
        if owning(value.type) and is_place(value):
            from .classes import shared_attribute_copied
            from .object_containers import deferred

            if not deferred(self.chk, value, into) and shared_attribute_copied(self.chk, value):
                return TConst(value.span, ERROR, None)
            copied = self.copy_of(value)
            if copied is not None:
                self.need_drop(value.type, value.span)
                return copied
            hint = (f"move it with `{value.var.name}^`" if isinstance(value, TLocal)
                    else "make a new value instead (a method that builds a copy, say)")
            hint += ", or give the struct a `__copyinit__(out self, other: Self)`"
            self.msg.error("E0161", value.span, type=value.type, what=what, hint=hint)
            return TConst(value.span, ERROR, None)
        if owning(value.type):
            self.need_drop(value.type, value.span)
        return value

    def copy_of(self, value: TExpr) -> TExpr | None:
        """A copy of `value` (a place): the struct's `__copyinit__`; or, for a struct with no
        `__del__` of its own whose fields can all be copied, each field copied; else None."""
        sym = value.type.symbol
        if isinstance(sym, GeneratorSymbol):  # one object in Python: two copies would each start afresh
            self.chk.generators.copied(value)
            return TConst(value.span, ERROR, None)
        copy = sym.methods.get("__copyinit__") if sym is not None else None
        if copy is not None and copy.self_convention == "out" and len(copy.params) == 2:
            return self.chk.calls.finish_call(copy, [value], value.span, value.span, value.type)
        if sym is None or "__del__" in sym.methods:
            return None  # it manages something itself: only it can say how to copy that
        fields = {}
        for index, (_, ftype) in enumerate(value.type.fields):
            if owning(ftype):
                copied = self.copy_of(TField(value.span, ftype, value, index))
                if copied is None or copied.type == ERROR:
                    return None
                fields[index] = copied
        return TCopy(value.span, value.type, value, fields)

    def expr_Transfer(self, e: ast.Transfer) -> TExpr:
        if not isinstance(e.value, ast.Name):
            self.msg.error("E0007", e.span, construct="moving anything but a variable (`x^`)")
            return TConst(e.span, ERROR, None)
        value = self.exprs.expr(e.value)
        if not isinstance(value, TLocal) or value.type == ERROR:
            if value.type != ERROR:
                self.msg.error("E0163", e.span, name=e.value.id, why="it is not a variable")
            return TConst(e.span, ERROR, None)
        var = value.var
        if var.global_symbol is not None:
            self.msg.error("E0163", e.span, name=var.name,
                           why="it is a module-level variable, which any function may still read (copy it instead)")
            return TConst(e.span, ERROR, None)
        if not var.owned:
            self.msg.error("E0163", e.span, name=var.name,
                             why="it is an argument this function only borrows (declare it `var` to own it)")
            return TConst(e.span, ERROR, None)
        loop = self.chk.loops[-1] if self.chk.loops else None
        if loop is not None and 0 < var.id < loop.first_inner:
            self.msg.error("E0162", e.span, name=var.name)
            return TConst(e.span, ERROR, None)
        self.chk.moved_at[var] = e.span
        if self.chk.assigned is not None:
            self.chk.assigned.discard(var)
        self.need_drop(var.type, e.span)
        return TMove(e.span, var.type, var)

    def moved_error(self, var: LocalVar, span: Span) -> bool:
        """Report a use of `var` after a move; False if it was never moved (so not this error)."""
        where = self.chk.moved_at.get(var)
        if where is None:
            return False
        from ..diagnostics import Note

        if isinstance(var.type, GeneratorType):  # iterated, passed or rebound: used up (generators.py)
            self.msg.error("E0274", span, (Note("used up here", where),),
                           what=f"`{var.name}` used again after it was iterated, passed or assigned (Python's "
                                "would be used up, or shared)")
            return True
        self.msg.error("E0160", span, (Note("moved here", where),), name=var.name)
        return True

    def store_targets(self, variables: list, values: list[TExpr]) -> list[TExpr]:
        """Bindings and stores take ownership of what they store."""
        out = []
        for k, (target, value) in enumerate(zip(variables, values)):
            if owning(value.type) and any(v is value for v in values[:k]):  # `a = b = make()`
                self.msg.error("E0161", value.span, type=value.type, what="assigned to two variables",
                                 hint="assign it to one and make a new value for the other")
                out.append(TConst(value.span, ERROR, None))
                continue
            if isinstance(value.type, GeneratorType) and is_place(value):  # `h = g`: g is used up (generators.py)
                out.append(self.chk.generators.rebound(value))
                continue
            if owning(value.type):
                value = self.consume(value, "assigned" if isinstance(target, (LocalVar, FieldTarget)) else "stored",
                                     target if isinstance(target, LocalVar) else None)
                if isinstance(target, LocalVar):
                    self.chk.moved_at.pop(target, None)
            out.append(value)
        return out

    def returned(self, value: TExpr) -> TExpr:
        """`return x` of a variable this function owns moves it; anything else it holds is a copy."""
        if owning(value.type) and isinstance(value, TLocal) and value.var.owned and not value.var.by_ref:
            self.need_drop(value.type, value.span)
            return TMove(value.span, value.type, value.var)
        return self.consume(value, "returned")

    def fresh_value(self, call: TExpr) -> TExpr:
        """A call's result with a destructor: the caller holds it (a temporary unless bound)."""
        if isinstance(call, TCall) and owning(call.type):
            self.need_drop(call.type, call.span)
        return call
