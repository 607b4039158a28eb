"""Destructor calls: where the values the checker's ownership rules track are destroyed.

Each owned variable holding a value with a destructor, and each temporary one (a call's
result nobody binds), gets a hidden *live* flag: set when a value is stored, cleared when
it is moved out (`x^`, `return x`) or destroyed. A value is destroyed when its variable is
assigned again, a temporary at the end of its statement (or when its expression runs
again, in a loop), and everything still live when the function returns or an exception
leaves it: a function that holds such values lowers with a `cleanup` handler under every
other, which destroys what is live and re-raises. Destroying runs the struct's `__del__`
and then its fields' destructors. LLVM removes the flags wherever it can prove them.
"""
from __future__ import annotations

from .. import types as T
from ..semantics import typed as t
from ..semantics.ownership import owning
from . import nodes as ir

TAKING = ("var", "owned")


class OwnershipLowering:
    def init_ownership(self, whole_function: bool) -> None:
        self.slots: dict = {}  # LocalVar or temporary's TCall -> (value Var, live flag Var)
        self.statement_temps: list = []
        self.cleanup: ir.Block | None = None
        if self.instance.drops and whole_function:  # (a prange body holds no such values: E0007)
            self.cleanup = self.new_block("cleanup")
            self.handlers = [self.cleanup]
        destructor = self.instance.decl.name == "__del__" and self.instance.owner is not None
        for p in self.instance.params if whole_function else ():
            if p.owned and owning(p.type) and not destructor:
                self.live_flag(p, initially=True)

    # ---- flags ----
    def new_flag(self, name: str, initially: bool = False) -> ir.Var:
        """A live flag, set at the function's entry (whatever path reaches a use of it)."""
        flag = self.hidden(name, T.BOOL)
        self.fn.blocks[0].instrs.insert(0, ir.Store(None, flag, ir.Const(T.BOOL, initially)))
        return flag

    def live_flag(self, local: t.LocalVar, initially: bool = False) -> ir.Var:
        found = self.slots.get(local)
        if found is None:
            found = self.slots[local] = (self.var(local), self.new_flag(f"{local.name}.live", initially), local.type)
        return found[1]

    def when_live(self, flag: ir.Var, span, body) -> None:
        """`body()` only where the flag is set."""
        live = self.emit(ir.Load(span, self.temp(T.BOOL), flag))
        now, after = self.new_block("drop"), self.new_block("dropped")
        self.block.term = ir.Branch(span, live, now, after)
        self.block = now
        body()
        self.goto(after)

    def set_flag(self, flag: ir.Var, value: bool, span) -> None:
        self.emit(ir.Store(span, flag, ir.Const(T.BOOL, value)))

    # ---- destroying ----
    def destroy(self, value: ir.Value, type_: T.Type, span) -> None:
        """Run `__del__` on a value, then its fields' destructors."""
        instance = self.instance.drops.get(type_)
        if instance is not None:
            self.emit(ir.Call(span, None, instance.symbol, [value], self.handler()))
        for index, (_, ftype) in enumerate(type_.fields):
            if owning(ftype):
                field = self.emit(ir.Extract(span, self.temp(ftype), value, index))
                self.destroy(field, ftype, span)

    def destroy_if_live(self, var: ir.Var, flag: ir.Var, type_: T.Type, span) -> None:
        def destroy():
            self.set_flag(flag, False, span)
            self.destroy(self.emit(ir.Load(span, self.temp(type_), var)), type_, span)

        self.when_live(flag, span, destroy)

    def destroy_all(self, span) -> None:
        """Everything still live, the most recently declared first: before a return, and in the
        cleanup handler."""
        for var, flag, type_ in reversed(list(self.slots.values())):
            self.destroy_if_live(var, flag, type_, span)

    def finish_ownership(self) -> None:
        if self.cleanup is None:
            return
        self.block, self.handlers, self.finally_stack = self.cleanup, [], []
        self.destroy_all(None)
        self.terminate(ir.Reraise(None, None))

    # ---- values changing hands ----
    def move_out(self, e: t.TMove) -> ir.Value:
        var = self.var(e.var)
        value = self.emit(ir.Load(e.span, self.temp(e.type), var))
        if owning(e.type):
            self.set_flag(self.live_flag(e.var), False, e.span)
        return value

    def expr_TMove(self, e: t.TMove) -> ir.Value:
        """`x^` where nobody takes the value (`print(x^.size)`, a borrowed argument): a temporary."""
        value = self.move_out(e)
        return self.temporary(e, value) if owning(e.type) else value

    def take(self, e: t.TExpr) -> ir.Value:
        """The value of `e` for a new owner: a call's result or a moved value is not a temporary then."""
        if isinstance(e, t.TCall):
            return self.call(e)
        if isinstance(e, t.TMove):
            return self.move_out(e)
        if isinstance(e, t.TListLit):
            return self.new_list(e)
        if isinstance(e, t.TDictLit):
            return self.new_dict(e)
        if isinstance(e, t.TCopy):
            return self.copy_fields(e)
        return self.expr(e)

    def expr_TCopy(self, e: t.TCopy) -> ir.Value:
        return self.temporary(e, self.copy_fields(e))

    def copy_fields(self, e: t.TCopy) -> ir.Value:
        value = self.expr(e.value)
        for index, copied in e.fields.items():
            value = self.emit(ir.Insert(e.span, self.temp(e.type), value, index, self.take(copied)))
        return value

    def expr_TDictLit(self, e: t.TDictLit) -> ir.Value:
        return self.temporary(e, self.new_dict(e))

    def new_dict(self, e: t.TDictLit) -> ir.Value:
        """`{k: v, ...}`: the stdlib Dict's `__init__`, then `__setitem__` for each pair in order."""
        slot = self.hidden("dict", e.type)
        self.emit(ir.Store(e.span, slot, self.call(e.init)))
        for key, value in zip(e.keys, e.values):
            args = [ir.Ref(e.type, slot)] + [self.take(x) if owning(x.type) else self.expr(x) for x in (key, value)]
            self.emit(ir.Call(e.span, None, e.setitem.symbol, args, self.handler()))
        return self.emit(ir.Load(e.span, self.temp(e.type), slot))

    def expr_TListLit(self, e: t.TListLit) -> ir.Value:
        return self.temporary(e, self.new_list(e))

    def new_list(self, e: t.TListLit) -> ir.Value:
        """`[a, b, c]`: the stdlib List built in place: its memory holds exactly the elements."""
        (data_name, ptr_type), (size_name, _), (capacity_name, _) = e.type.fields
        if (data_name, size_name, capacity_name) != ("data", "size", "capacity"):
            raise AssertionError(f"stdlib List's fields changed: {e.type.fields}")
        count = ir.Const(T.INT, len(e.elts))
        data = self.expr(t.TPtrOp(e.span, ptr_type, "alloc", [t.TConst(e.span, T.INT, len(e.elts))]))
        for k, x in enumerate(e.elts):
            value = self.take(x) if owning(x.type) else self.expr(x)
            self.emit(ir.PtrStore(e.span, data, ir.Const(T.INT, k), value))
        value = self.emit(ir.Load(e.span, self.temp(e.type), self.hidden("list", e.type)))
        for index, field in enumerate((data, count, count)):
            value = self.emit(ir.Insert(e.span, self.temp(e.type), value, index, field))
        return value

    def bind(self, local: t.LocalVar, value: ir.Value, span) -> None:
        """`local = value` where local owns values with a destructor: the old one is destroyed."""
        var = self.var(local)
        if local.by_ref:  # a `mut` argument: the caller's variable always holds a value
            self.destroy(self.emit(ir.Load(span, self.temp(local.type), var)), local.type, span)
            self.emit(ir.Store(span, var, value))
            return
        flag = self.live_flag(local)
        self.destroy_if_live(var, flag, local.type, span)
        self.emit(ir.Store(span, var, value))
        self.set_flag(flag, True, span)

    def replaced_field(self, target: t.FieldTarget, span) -> None:
        """`v.f = x` where f holds a value with a destructor: destroy the old one first (if v has a value)."""
        def destroy():
            self.destroy(self.field_value(target, span), target.type, span)

        if target.var.by_ref:  # a `mut` argument always holds a value
            destroy()
        else:
            self.when_live(self.live_flag(target.var), span, destroy)

    def temporary(self, e: t.TExpr, value: ir.Value) -> ir.Value:
        """A call's result with a destructor that nobody takes: destroyed after the statement."""
        found = self.slots.get(e)
        if found is None:
            found = self.slots[e] = (self.hidden("temporary", e.type), self.new_flag("temporary.live"), e.type)
        slot, flag, _ = found
        self.destroy_if_live(slot, flag, e.type, e.span)  # the same expression's last value, in a loop
        self.emit(ir.Store(e.span, slot, value))
        self.set_flag(flag, True, e.span)
        self.statement_temps.append(found)
        return value

    def end_statement(self, mark: int, span) -> None:
        temps, self.statement_temps = self.statement_temps[mark:], self.statement_temps[:mark]
        if self.block.term is not None or not temps:
            return
        for slot, flag, type_ in temps:
            self.destroy_if_live(slot, flag, type_, span)

    def argument(self, arg: t.TExpr, param) -> ir.Value:
        """An argument: taken over by a `var` parameter, borrowed otherwise."""
        if param is not None and param.convention in TAKING and owning(arg.type):
            return self.take(arg)
        return self.expr(arg)
