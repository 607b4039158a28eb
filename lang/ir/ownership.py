"""Destructor calls: where the values the checker's ownership rules track are destroyed.

Each owned variable holding a value with a destructor, and each temporary one (a call's
result nobody binds), gets a hidden *live* flag: set when a value is stored, cleared when
it is moved out (`x^`, `return x`) or destroyed. A value is destroyed when its variable is
assigned again, a temporary at the end of its statement (or when its expression runs
again, in a loop), and everything still live when the function returns or an exception
leaves it: a function that holds such values lowers with a `cleanup` handler under every
other, which destroys what is live and re-raises (a chain of blocks per set of values that
may be live where an exception is raised: `finish`). Destroying runs the struct's `__del__`
and then its fields' destructors. LLVM removes the flags wherever it can prove them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from .. import types as T
from ..semantics import typed as t
from ..semantics.classes import is_class
from ..semantics.ownership import owning
from ..source import Span
from . import nodes as ir

if TYPE_CHECKING:
    from ..syntax.ast import Param
    from .lower import FunctionLowering

TAKING = ("var", "owned")

Slot = tuple[ir.Var, ir.Var, T.Type]  # a value owned: where it is, its live flag, its type
Handled = ir.Call | ir.CallFn | ir.Launch | ir.ParallelFor | ir.Raise | ir.Reraise  # what has a handler


class OwnershipLowering:
    """Destructor calls for one function's lowering (`FunctionLowering.own`): the live flags and
    slots of the values it owns, reached back through `self.lw` for blocks, values and handlers."""

    def __init__(self, lw: FunctionLowering, whole_function: bool) -> None:
        self.lw: FunctionLowering = lw
        # A LocalVar, or the expression of a temporary -> (value Var, live flag Var, its type).
        self.slots: dict[t.LocalVar | t.TExpr, Slot] = {}
        self.statement_temps: list[Slot] = []  # the temporaries of the statements being lowered
        self.cleanup: ir.Block | None = None
        self.unwinding: bool = False  # lowering the cleanup handler (`finish`)
        if lw.instance.drops and whole_function:  # (a prange body holds no such values: E0007)
            self.cleanup = lw.new_block("cleanup")
            lw.handlers = [self.cleanup]
        destructor = lw.instance.decl.name == "__del__" and lw.instance.owner is not None
        for p in lw.instance.params if whole_function else ():
            if p.owned and owning(p.type) and not destructor:
                self.live_flag(p, initially=True)

    # ---- flags ----
    def new_flag(self, name: str, initially: bool = False) -> ir.Var:
        """A live flag, set at the function's entry (whatever path reaches a use of it)."""
        flag = self.lw.hidden(name, T.BOOL)
        self.lw.fn.blocks[0].instrs.insert(0, ir.Store(None, flag, ir.Const(T.BOOL, initially)))
        return flag

    def live_flag(self, local: t.LocalVar, initially: bool = False) -> ir.Var:
        if local.global_symbol is not None:
            # A module-level variable's flag is its `.defined` global; it is no function's to destroy.
            return self.lw.defined_flag(local)
        found = self.slots.get(local)
        if found is None:
            found = self.slots[local] = (self.lw.var(local), self.new_flag(f"{local.name}.live", initially), local.type)
        return found[1]

    def when_live(self, flag: ir.Var, span: Span | None, body: Callable[[], None]) -> None:
        """`body()` only where the flag is set."""
        live = self.lw.emit(ir.Load(span, self.lw.temp(T.BOOL), flag))
        now, after = self.lw.new_block("drop"), self.lw.new_block("dropped")
        self.lw.block.term = ir.Branch(span, live, now, after)
        self.lw.block = now
        body()
        self.lw.goto(after)

    def set_flag(self, flag: ir.Var, value: bool, span: Span | None) -> None:
        self.lw.emit(ir.Store(span, flag, ir.Const(T.BOOL, value)))

    # ---- destroying ----
    def destroy(self, value: ir.Value, type_: T.Type, span: Span | None) -> None:
        """Run `__del__` on a value, then its fields' destructors."""
        instance = self.lw.instance.drops.get(type_)
        if instance is not None and is_class(type_) and not self.unwinding:
            self.release(value, instance, span)
        elif instance is not None:
            self.lw.emit(ir.Call(span, None, instance.symbol, [value], self.lw.handler()))
        for index, (_, ftype) in enumerate(cast(T.StructType, type_).fields):
            if owning(ftype):
                field = self.lw.emit(ir.Extract(span, self.lw.temp(ftype), value, index))
                self.destroy(field, ftype, span)

    def release(self, value: ir.Value, instance: t.FunctionInstance, span: Span | None) -> None:
        """A class handle's `__del__` (syntax/classes.py), its common case written here: a null
        handle holds nothing, and one of several references takes one away from the count; only the
        last reference calls `__del__`, which destroys the object. (`__del__` is recursive through
        the objects an object holds, so ir/recursion.py gives its entry a guard, a setjmp and a
        look-up of the thread's state: that on every reference dropped made richards slower than
        CPython.)"""
        lw = self.lw
        address = lw.emit(ir.Extract(span, lw.temp(T.ptr(T.INT)), value, 0))
        test, shared, last, done = (lw.new_block(n) for n in ("release", "shared", "last", "released"))
        lw.block.term = ir.Branch(span, lw.cmp("eq", address, ir.Const(T.ptr(T.INT), None), span), done, test)
        lw.block = test
        zero = ir.Const(T.INT, 0)
        count = lw.emit(ir.PtrLoad(span, lw.temp(T.INT), address, zero))
        lw.block.term = ir.Branch(span, lw.cmp("sgt", count, ir.Const(T.INT, 1), span), shared, last)
        lw.block = shared
        lw.emit(ir.PtrStore(span, address, zero, lw.binop("sub", count, ir.Const(T.INT, 1), span)))
        lw.goto(done)
        lw.block = last
        lw.emit(ir.Call(span, None, instance.symbol, [value], lw.handler()))
        lw.goto(done)

    def destroy_if_live(self, var: ir.Var, flag: ir.Var, type_: T.Type, span: Span | None) -> None:
        def destroy() -> None:
            self.set_flag(flag, False, span)
            self.destroy(self.lw.emit(ir.Load(span, self.lw.temp(type_), var)), type_, span)

        self.when_live(flag, span, destroy)

    def destroy_all(self, span: Span | None) -> None:
        """Everything still live, the most recently declared first: before a return, and in the
        cleanup handler."""
        for var, flag, type_ in reversed(list(self.slots.values())):
            self.destroy_if_live(var, flag, type_, span)

    def finish(self) -> None:
        """Once the body is lowered: the `cleanup` handler. Each place an exception goes to it
        goes instead to the entry of a chain that destroys just the values that may be live
        there (`may_be_live`), the most recently made first, and re-raises; chains with the same
        tail share its blocks, and a place where nothing may be live leaves the function at once.
        (One block destroying every value, reached from every raise site, became hundreds of
        phis of hundreds of edges each in LLVM, whose code generation took tens of seconds.)"""
        if self.cleanup is None:
            return
        cleanup, slots = self.cleanup, list(self.slots.values())
        sites, jumped = self.may_be_live(cleanup, slots)
        self.lw.block, self.lw.handlers, self.lw.finally_stack = cleanup, [], []
        self.unwinding = True  # (an exception's path is rare: a plain `__del__` call keeps it small)
        links: dict[tuple[int, int], ir.Block] = {}  # (slot, id of the next link) -> the block destroying it

        def chain(live: int) -> ir.Block | None:
            """The entry of the chain destroying the slots of `live`, the last made first."""
            entry: ir.Block | None = None
            for i in range(len(slots)):  # built from its end: the earliest slot is destroyed last
                if live >> i & 1:
                    link = links.get((i, id(entry)))
                    if link is None:
                        self.lw.block = link = links[i, id(entry)] = self.lw.new_block("cleanup")
                        self.destroy_if_live(*slots[i], None)
                        self.lw.terminate(ir.Reraise(None, entry))
                    entry = link
            return entry

        for holder, live in sites:
            holder.handler = chain(live)
        # Only blocks no path from the entry reaches still go to `cleanup` (remove_unreachable_blocks
        # drops them and it), unless a jump does: that destroys every value that may be live.
        self.lw.block = cleanup
        if jumped:
            self.lw.terminate(ir.Reraise(None, chain((1 << len(slots)) - 1)))
        else:
            self.lw.terminate(ir.Unreachable(None))

    def may_be_live(self, cleanup: ir.Block, slots: list[Slot]) -> tuple[list[tuple[Handled, int]], bool]:
        """Each instruction or terminator whose handler is `cleanup`, with the set of slots whose
        live flag may be set when it raises (bit i: slots[i]): a forward data flow over the
        function's blocks, from the flags' stores; and whether a jump reaches `cleanup`."""
        index = {id(flag): i for i, (_, flag, _) in enumerate(slots)}
        entry = self.lw.fn.blocks[0]
        state_in: dict[int, int] = {id(entry): 0}
        at_site: dict[int, tuple[Handled, int]] = {}
        work = [entry]

        def reach(target: ir.Block, live: int) -> None:
            old = state_in.get(id(target))
            if old is None or live | old != old:
                state_in[id(target)] = live | (old or 0)
                work.append(target)

        def handled(holder: Handled, live: int) -> None:
            if holder.handler is cleanup:
                _, before = at_site.get(id(holder), (holder, 0))
                at_site[id(holder)] = (holder, before | live)
            elif holder.handler is not None:
                reach(holder.handler, live)

        while work:
            block = work.pop()
            live = state_in[id(block)]
            tested: dict[int, int] = {}  # a flag's value loaded in this block (its Temp) -> the flag's bit
            for instr in block.instrs:
                if isinstance(instr, ir.Store) and id(instr.var) in index:
                    bit = 1 << index[id(instr.var)]
                    cleared = isinstance(instr.value, ir.Const) and instr.value.value is False
                    live = live & ~bit if cleared else live | bit
                    tested = {temp: b for temp, b in tested.items() if b != bit}
                elif isinstance(instr, ir.Load) and id(instr.var) in index:
                    tested[id(instr.result)] = 1 << index[id(instr.var)]
                elif isinstance(instr, (ir.Call, ir.CallFn, ir.Launch, ir.ParallelFor)):
                    handled(instr, live)
            term = block.term
            if isinstance(term, ir.Jump):
                reach(term.target, live)
            elif isinstance(term, ir.Branch):  # (`when_live`: on the other side the flag is clear)
                reach(term.then, live)
                reach(term.orelse, live & ~tested.get(id(term.cond), 0))
            elif isinstance(term, (ir.Raise, ir.Reraise)):
                handled(term, live)
        return list(at_site.values()), id(cleanup) in state_in

    # ---- values changing hands ----
    def move_out(self, e: t.TMove) -> ir.Value:
        var = self.lw.var(e.var)
        value = self.lw.emit(ir.Load(e.span, self.lw.temp(e.type), var))
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
            return self.lw.call(e)
        if isinstance(e, t.TMove):
            return self.move_out(e)
        if isinstance(e, t.TListLit):
            return self.new_list(e)
        if isinstance(e, t.TDictLit):
            return self.new_dict(e)
        if isinstance(e, t.TCopy):
            return self.copy_fields(e)
        if isinstance(e, t.TStmtExpr):  # a comprehension's value goes to the new owner
            for inner in e.body:
                self.lw.stmt(inner)
            return self.take(e.result)
        if isinstance(e, t.TLend):  # `got = self.rows.pop()`: the call's result, made while the object is lent
            return self.lw.expr_TLend(e, taken=True)
        return self.lw.expr(e)

    def expr_TCopy(self, e: t.TCopy) -> ir.Value:
        return self.temporary(e, self.copy_fields(e))

    def copy_fields(self, e: t.TCopy) -> ir.Value:
        value = self.lw.expr(e.value)
        for index, copied in e.fields.items():
            value = self.lw.emit(ir.Insert(e.span, self.lw.temp(e.type), value, index, self.take(copied)))
        return value

    def expr_TDictLit(self, e: t.TDictLit) -> ir.Value:
        return self.temporary(e, self.new_dict(e))

    def new_dict(self, e: t.TDictLit) -> ir.Value:
        """`{k: v, ...}`: the stdlib Dict's `__init__`, then `__setitem__` for each pair in order."""
        slot = self.lw.hidden("dict", e.type)
        self.lw.emit(ir.Store(e.span, slot, self.lw.call(e.init)))
        for key, value in zip(e.keys, e.values):
            args = [ir.Ref(e.type, slot)] + [self.take(x) if owning(x.type) else self.lw.expr(x) for x in (key, value)]
            self.lw.emit(ir.Call(e.span, None, e.setitem.symbol, args, self.lw.handler()))
        return self.lw.emit(ir.Load(e.span, self.lw.temp(e.type), slot))

    def expr_TListLit(self, e: t.TListLit) -> ir.Value:
        return self.temporary(e, self.new_list(e))

    def new_list(self, e: t.TListLit) -> ir.Value:
        """`[a, b, c]`: the stdlib List built in place: its memory holds exactly the elements."""
        fields = cast(T.StructType, e.type).fields
        (data_name, ptr_type), (size_name, _), (capacity_name, _) = fields
        if (data_name, size_name, capacity_name) != ("data", "size", "capacity"):
            raise AssertionError(f"stdlib List's fields changed: {fields}")
        count = ir.Const(T.INT, len(e.elts))
        data = self.lw.expr(t.TPtrOp(e.span, ptr_type, "alloc", [t.TConst(e.span, T.INT, len(e.elts))]))
        for k, x in enumerate(e.elts):
            value = self.take(x) if owning(x.type) else self.lw.expr(x)
            self.lw.emit(ir.PtrStore(e.span, data, ir.Const(T.INT, k), value))
        value = self.lw.emit(ir.Load(e.span, self.lw.temp(e.type), self.lw.hidden("list", e.type)))
        for index, field in enumerate((data, count, count)):
            value = self.lw.emit(ir.Insert(e.span, self.lw.temp(e.type), value, index, field))
        return value

    def bind(self, local: t.LocalVar, value: ir.Value, span: Span | None) -> None:
        """`local = value` where local owns values with a destructor: the old one is destroyed."""
        var = self.lw.var(local)
        if local.by_ref:  # a `mut` argument: the caller's variable always holds a value
            self.destroy(self.lw.emit(ir.Load(span, self.lw.temp(local.type), var)), local.type, span)
            self.lw.emit(ir.Store(span, var, value))
            return
        flag = self.live_flag(local)
        self.destroy_if_live(var, flag, local.type, span)
        self.lw.emit(ir.Store(span, var, value))
        self.set_flag(flag, True, span)

    def replaced_field(self, target: t.FieldTarget, span: Span | None) -> None:
        """`v.f = x` where f holds a value with a destructor: destroy the old one first (if v has a value)."""
        def destroy() -> None:
            self.destroy(self.lw.field_value(target, span), target.type, span)

        if target.var.by_ref:  # a `mut` argument always holds a value
            destroy()
        else:
            self.when_live(self.live_flag(target.var), span, destroy)

    def temporary(self, e: t.TExpr, value: ir.Value) -> ir.Value:
        """A call's result with a destructor that nobody takes: destroyed after the statement."""
        found = self.slots.get(e)
        if found is None:
            found = self.slots[e] = (self.lw.hidden("temporary", e.type), self.new_flag("temporary.live"), e.type)
        slot, flag, _ = found
        self.destroy_if_live(slot, flag, e.type, e.span)  # the same expression's last value, in a loop
        self.lw.emit(ir.Store(e.span, slot, value))
        self.set_flag(flag, True, e.span)
        self.statement_temps.append(found)
        return value

    def end_statement(self, mark: int, span: Span | None) -> None:
        temps, self.statement_temps = self.statement_temps[mark:], self.statement_temps[:mark]
        if self.lw.block.term is not None or not temps:
            return
        for slot, flag, type_ in temps:
            self.destroy_if_live(slot, flag, type_, span)

    def argument(self, arg: t.TExpr, param: Param | None) -> ir.Value:
        """An argument: taken over by a `var` parameter, borrowed otherwise."""
        if param is not None and param.convention in TAKING and owning(arg.type):
            return self.take(arg)
        return self.lw.expr(arg)
