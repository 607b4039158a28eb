"""Typed tree -> pyx IR. Every Python rule becomes explicit instructions here."""
from __future__ import annotations

import dataclasses
from typing import overload

from .. import types as T
from ..diagnostics import note_statement
from ..gpu_limits import MAX_BLOCK_THREADS, MAX_GRID, MAX_STATIC_SHARED_BYTES
from ..interop import is_string as is_python_str
from ..monomorphize import Program
from ..semantics import typed as t
from ..semantics.exceptions import UNCATCHABLE
from ..semantics.globals import MAIN_FLAG_PREFIX, is_script
from ..semantics.gpu import static_shared_bytes
from ..semantics.ownership import owning
from ..source import Span
from ..types import LiteralType, ScalarType, SIMDType, Type, default_type, elem_type
from . import closures, function_values, mixed_compare, ops
from . import nodes as ir
from .builtins import ipow_function, ipow_symbol
from .globals import defined_flag, mark_defined, program_entry
from .int_overflow import MESSAGE as OVERFLOW_MESSAGE
from .int_overflow import checked as checked_int_op
from .int_overflow import guard_negated_min, python_ints
from .ownership import OwnershipLowering

_ARITH = {("+", "int"): "add", ("-", "int"): "sub", ("*", "int"): "mul", ("&", "int"): "and",
          ("|", "int"): "or", ("^", "int"): "xor",
          ("+", "float"): "fadd", ("-", "float"): "fsub", ("*", "float"): "fmul"}
_INT_CMP = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
_FLOAT_CMP = {"==": "oeq", "!=": "une", "<": "olt", "<=": "ole", ">": "ogt", ">=": "oge"}

# The instructions whose `result` is never None (a Call's or an Intrinsic's may be): `emit` of
# one of them is a value, as the type checker sees it.
ValueInstr = (ir.BinOp | ir.Cmp | ir.Cast | ir.Select | ir.Extract | ir.Insert | ir.Splat | ir.ExtractLane
              | ir.InsertLane | ir.Shuffle | ir.Reduce | ir.PtrOffset | ir.PtrLoad | ir.Alloc | ir.Load
              | ir.AddressOf)


TEXT_MARK = T.ptr(T.UINT8)  # where this thread's list of run-time messages started
# Iterations of a call-free counted loop between two polls for Ctrl-C (see stmt_TForRange).
POLL_EVERY = 1 << 16


def lower_program(program: Program, bounds_check: bool = True) -> ir.Module:
    file = program.instances[0].decl.span.file.name if program.instances else ""
    module = ir.Module(program.module, file)
    helpers: dict[str, ir.Function] = {}
    texts = any(i.raises_text for i in program.instances)

    def lower(instance, checked: bool, symbol: str | None = None) -> ir.Function:
        lowering = FunctionLowering(instance, helpers, bounds_check=checked, symbol=symbol)
        lowering.texts = texts
        return lowering.lower()

    unchecked = [i for i in program.instances if _no_bounds_check(i)]
    for instance in program.instances:
        module.functions.append(lower(instance, bounds_check and instance not in unchecked))
    if bounds_check and unchecked:
        module.functions += _unchecked_copies(unchecked, module.functions, lower)
    module.functions.extend(helpers[k] for k in sorted(helpers))
    if program.main is not None:
        module.main = program.main.symbol
        if program.imported_scripts:
            entry = program_entry(program.main.symbol, [s.symbol for s in program.imported_scripts], file)
            module.functions.append(entry)
            module.main = entry.symbol
    return module


UNCHECKED = "$unchecked"  # the suffix of a function's copy without index checks


def _no_bounds_check(instance: t.FunctionInstance) -> bool:
    return any(d.name == "no_bounds_check" for d in instance.decl.decorators)


def _unchecked_copies(unchecked: list, functions: list[ir.Function], lower) -> list[ir.Function]:
    """`@no_bounds_check fn f`: f, and everything it calls (transitively), index without checks.
    What it calls gets a copy lowered without them, which f (and the copies) call instead; the
    checked originals stay for everyone else."""
    copies: dict[str, ir.Function] = {}
    skip = {i.symbol for i in unchecked}
    todo = [callee for i in unchecked for callee, _ in i.callees]
    while todo:
        instance = todo.pop()
        if instance.symbol in copies or instance.symbol in skip or instance.is_kernel:
            continue
        copies[instance.symbol] = lower(instance, False, instance.symbol + UNCHECKED)
        todo.extend(callee for callee, _ in instance.callees)
    for f in [f for f in functions if f.symbol in skip] + list(copies.values()):
        for block in f.blocks:
            for instr in block.instrs:
                if isinstance(instr, ir.Call) and instr.callee in copies:
                    instr.callee += UNCHECKED
    return list(copies.values())


class FunctionLowering:
    """Lowers one function instance: owns its IR function, blocks, values, variables, loops and
    handlers. Destructor calls go to `self.own` (ownership.py), which reaches back through `lw`."""

    def __init__(self, instance: t.FunctionInstance, helpers: dict[str, ir.Function],
                 outlined: ir.Function | None = None, bounds_check: bool = True, symbol: str | None = None) -> None:
        """Lower `instance`; or, given `outlined`, fill that function with a piece of it (a prange body)."""
        self.instance: t.FunctionInstance = instance
        self.helpers: dict[str, ir.Function] = helpers  # symbol -> a helper function (ir/builtins.py, prange bodies)
        self.bounds_check: bool = bounds_check  # normalize_index checks its range (off: --no-bounds-check)
        self.texts: bool = False  # the program raises messages made at run time: each `try` frees its own
        self.try_marks: list[tuple[ir.Var, int]] = []  # (mark, loop depth) of the trys around here
        # The exception each enclosing handler caught, kept where its body re-raises it (`raise`):
        # an exception raised and handled inside the handler replaces the thread's current one.
        self.handling: list[ir.Var | None] = []
        self.vars: dict[t.LocalVar, ir.Var] = {}
        self.global_flags: dict[t.LocalVar, ir.Var] = {}  # module-level variables' `.defined` flags
        self.next_temp: int = 0
        self.next_block: int = 0
        self.outlined: int = 0  # prange bodies taken out of this function so far
        decl = instance.decl
        self.fn: ir.Function  # the function being filled
        if outlined is not None:
            self.fn = outlined
        else:
            self.fn = ir.Function(symbol or instance.symbol, decl.name, decl.span.file.name, [],
                                  instance.return_type or T.NONE, decl.span)
            names = {d.name for d in decl.decorators}
            self.fn.inline = "always" if "always_inline" in names else "never" if "noinline" in names else None
            self.fn.kernel = "kernel" in names
            self.fn.fastmath = "fastmath" in names
            self.fn.noalias = "noalias" in names
        self.block: ir.Block = self.new_block("entry")
        self.loops: list[tuple[ir.Block, ir.Block]] = []  # (continue target, break target)
        self.handlers: list[ir.Block] = []  # innermost last: where an exception in a try goes
        # Active `finally` bodies, innermost last, each with the loop depth where its try began:
        # return, break and continue run the ones they leave, as CPython's compiler does.
        self.finally_stack: list[tuple[list[t.TStmt], int, list[ir.Block]]] = []  # (body, depth, its handlers)
        self.own: OwnershipLowering = OwnershipLowering(self, whole_function=outlined is None)

    # ---- scaffolding ----
    def new_block(self, hint: str) -> ir.Block:
        block = ir.Block(f"{hint}{self.next_block}" if hint != "entry" else "entry")
        self.next_block += 1
        self.fn.blocks.append(block)
        return block

    def temp(self, type_: Type) -> ir.Temp:
        self.next_temp += 1
        return ir.Temp(type_, self.next_temp)

    def var(self, local: t.LocalVar) -> ir.Var:
        v = self.vars.get(local)
        if v is None:
            v = ir.Var(local.name, local.type, local.id, by_ref=local.by_ref, global_symbol=local.global_symbol)
            self.vars[local] = v
            self.fn.vars.append(v)
        return v

    def hidden(self, name: str, type_: Type) -> ir.Var:
        self.next_temp += 1
        v = ir.Var(name, type_, 10_000 + self.next_temp)
        self.fn.vars.append(v)
        return v

    @overload
    def emit(self, instr: ValueInstr) -> ir.Temp: ...
    @overload
    def emit(self, instr: ir.Instr) -> ir.Temp | None: ...

    def emit(self, instr: ir.Instr) -> ir.Temp | None:
        """Append `instr`; its result (an instruction of ValueInstr always has one)."""
        self.block.instrs.append(instr)
        return getattr(instr, "result", None)

    def terminate(self, term: ir.Terminator) -> None:
        if self.block.term is None:
            self.block.term = term
        # Code after a return/break lands in a fresh block nobody jumps to; simplify drops it.
        self.block = self.new_block("dead")

    def goto(self, block: ir.Block) -> None:
        if self.block.term is None:
            self.block.term = ir.Jump(None, block)
        self.block = block

    def binop(self, op: str, a: ir.Value, b: ir.Value, span: Span | None) -> ir.Temp:
        return self.emit(ir.BinOp(span, self.temp(a.type), op, a, b))

    def cmp(self, pred: str, a: ir.Value, b: ir.Value, span: Span | None) -> ir.Temp:
        return self.emit(ir.Cmp(span, self.temp(T.mask_of(a.type)), pred, a, b))

    def select(self, cond: ir.Value, a: ir.Value, b: ir.Value, span: Span | None) -> ir.Temp:
        return self.emit(ir.Select(span, self.temp(a.type), cond, a, b))

    def intrinsic(self, name: str, args: list[ir.Value], result: Type | None, span: Span | None, **attrs):
        """An operation of ops.py's table, its compile-time operands (`attrs`) checked as it is built."""
        return self.emit(ops.make(span, self.temp(result) if result is not None else None, name, args, **attrs))

    def guard(self, failed: ir.Value, exc: str, message: str, span: Span | None) -> None:
        """Raise `exc` when `failed` is true (in any lane); go on in a new block otherwise."""
        if isinstance(failed.type, SIMDType):
            failed = self.emit(ir.Reduce(span, self.temp(T.BOOL), "or", failed))
        fail, ok = self.new_block("raise"), self.new_block("ok")
        self.block.term = ir.Branch(span, failed, fail, ok)
        fail.term = ir.Raise(span, exc, message, self.handler())
        self.block = ok

    def handler(self) -> ir.Block | None:
        return self.handlers[-1] if self.handlers else None

    def poll_interrupt(self, span: Span | None) -> None:
        """A loop back-edge: a pending Ctrl-C (SIGINT) raises KeyboardInterrupt here, inside
        whatever try the loop is in, as Python raises it between two bytecodes."""
        raised = self.intrinsic("interrupt_poll", [], T.BOOL, span)
        stop, go_on = self.new_block("interrupted"), self.new_block("polled")
        self.block.term = ir.Branch(span, raised, stop, go_on)
        stop.term = ir.Reraise(span, self.handler())
        self.block = go_on

    def calls_since(self, first_block: int) -> bool:
        """Whether the blocks made since `first_block` call a function (whose running time the
        loop around them cannot bound: a loop-free recursion polls nothing)."""
        return any(isinstance(i, (ir.Call, ir.Launch, ir.CallFn))
                   for b in self.fn.blocks[first_block:] for i in b.instrs)

    # ---- functions ----
    def lower(self) -> ir.Function:
        for p in self.instance.params:
            self.fn.params.append(self.var(p))
        self.stmts(self.instance.body)
        if self.block.term is None:
            if self.fn.return_type == T.NONE:
                self.own.destroy_all(None)
                self.block.term = ir.Ret(None, None)
            else:
                self.block.term = ir.Unreachable(None)
        self.own.finish()
        for block in self.fn.blocks:
            if block.term is None:
                block.term = ir.Unreachable(None)
        mark_defined(self.fn)
        return self.fn

    # ---- statements ----
    def stmts(self, body: list[t.TStmt]) -> None:
        for s in body:
            mark = len(self.own.statement_temps)
            self.stmt(s)
            self.own.end_statement(mark, s.span)

    def stmt(self, s: t.TStmt) -> None:
        """Lower one statement; an internal error escaping it names it (the innermost wins)."""
        try:
            getattr(self, "stmt_" + type(s).__name__)(s)
        except Exception as exc:
            note_statement(exc, s.span)
            raise

    def stmt_TAssign(self, s: t.TAssign) -> None:
        # `a = b = f()` hands every target the same value: evaluate it once.
        computed: dict[int, ir.Value] = {}
        values = [computed[id(v)] if id(v) in computed else
                  computed.setdefault(id(v), self.own.take(v) if owning(v.type) else self.expr(v))
                  for v in s.values]
        for target, value in zip(s.targets, values):
            if isinstance(target, t.FieldTarget):
                if owning(target.type):
                    self.own.replaced_field(target, s.span)
                self.store_field(target, value, s.span)
            elif isinstance(target, t.LocalVar) and owning(target.type):
                self.own.bind(target, value, s.span)
            elif isinstance(target, t.LaneTarget):
                var = self.var(target.var)
                index = self.lane_index(self.expr(target.index), var.type.width, s.span)
                vector = self.emit(ir.Load(s.span, self.temp(var.type), var))
                self.emit(ir.Store(s.span, var, self.emit(ir.InsertLane(s.span, self.temp(var.type), vector,
                                                                         index, value))))
            else:
                self.emit(ir.Store(s.span, self.var(target), value))

    def store_field(self, target: t.FieldTarget, value: ir.Value, span) -> None:
        """`v.a.b = x` on values: load v, rebuild the path with x inside, store v."""
        var = self.var(target.var)
        outer = self.emit(ir.Load(span, self.temp(var.type), var))
        chain = [outer]
        for index in target.path[:-1]:
            agg = chain[-1]
            chain.append(self.emit(ir.Extract(span, self.temp(agg.type.fields[index][1]), agg, index)))
        new = value
        for agg, index in zip(reversed(chain), reversed(target.path)):
            new = self.emit(ir.Insert(span, self.temp(agg.type), agg, index, new))
        self.emit(ir.Store(span, var, new))

    def stmt_TExprStmt(self, s: t.TExprStmt) -> None:
        self.expr(s.expr)

    def stmt_TIf(self, s: t.TIf) -> None:
        cond = self.expr(s.test)
        then, orelse, done = self.new_block("then"), self.new_block("else"), self.new_block("endif")
        self.block.term = ir.Branch(s.span, cond, then, orelse)
        self.block = then
        self.stmts(s.body)
        self.goto(done)
        self.block = orelse
        self.stmts(s.orelse)
        self.goto(done)

    def stmt_TWhile(self, s: t.TWhile) -> None:
        head, body, done = self.new_block("while"), self.new_block("body"), self.new_block("endwhile")
        self.goto(head)
        self.poll_interrupt(s.span)  # head is where `continue` goes too: every iteration polls
        cond = self.expr(s.test)
        self.block.term = ir.Branch(s.span, cond, body, done)
        self.block = body
        self.loops.append((head, done))
        self.stmts(s.body)
        self.loops.pop()
        self.goto(head)
        self.block = done

    def stmt_TForRange(self, s: t.TForRange) -> None:
        if s.parallel:
            from .parallel import lower_prange

            lower_prange(self, s)
            return
        itype = s.var.type
        counter, stop_var = self.hidden("it", itype), self.hidden("stop", itype)
        start = self.expr(s.start)
        stop = self.expr(s.stop)
        step = self.expr(s.step)
        self.emit(ir.Store(s.span, counter, start))
        self.emit(ir.Store(s.span, stop_var, stop))
        signed = itype.is_signed
        if isinstance(step, ir.Const):
            if step.value == 0:
                self.block.term = ir.Raise(s.span, "ValueError", "range() arg 3 must not be zero")
                self.block = self.new_block("dead")
                return
            direction = step.value > 0
        else:
            direction = None
            step_var = self.hidden("step", itype)
            self.emit(ir.Store(s.span, step_var, step))
            self.guard(self.cmp("eq", step, ir.Const(itype, 0), s.span), "ValueError",
                       "range() arg 3 must not be zero", s.span)
        head, body, latch, done = (self.new_block("for"), self.new_block("body"), self.new_block("next"),
                                   self.new_block("endfor"))
        # Ctrl-C: a loop over a type of at most 16 bits ends within 65536 iterations. Other loops
        # with a constant step run in chunks of POLL_EVERY iterations and poll between chunks:
        # the loop inside a chunk keeps a trip count LLVM can compute, so it still vectorizes.
        quiet = itype.bits <= 16
        chunked = not quiet and direction is not None and abs(step.value) * POLL_EVERY <= itype.max
        lt = ("slt" if signed else "ult")
        outer = self.new_block("for.chunk") if chunked else head
        self.goto(outer)
        current = self.emit(ir.Load(s.span, self.temp(itype), counter))
        limit = self.emit(ir.Load(s.span, self.temp(itype), stop_var))
        if direction is True:
            cond = self.cmp(lt, current, limit, s.span)
        elif direction is False:
            cond = self.cmp("sgt", current, limit, s.span)
        else:
            st = self.emit(ir.Load(s.span, self.temp(itype), step_var))
            up = self.cmp("sgt", st, ir.Const(itype, 0), s.span)
            cond = self.select(up, self.cmp(lt, current, limit, s.span),
                               self.cmp("sgt", current, limit, s.span), s.span)
        if chunked:
            # A chunk is a counted loop: `left` iterations, at most POLL_EVERY, then a poll. A
            # counter running down to zero gives LLVM a trip count it can compute, so the chunk
            # vectorizes and unrolls even with a step other than 1 (`range(lane, n, 32)` in a
            # kernel), where `i < end` plus an overflow exit would leave a loop of two exits.
            left_var, last_var = self.hidden("left", itype), self.hidden("last", T.BOOL)
            refill = self.new_block("for.refill")
            self.block.term = ir.Branch(s.span, cond, refill, done)
            self.block = refill
            self.poll_interrupt(s.span)
            # `room`, the distance to stop, is positive here and exact as an unsigned number of
            # the type's width; the values left are ceil(room / step), written so it cannot wrap.
            room = self.binop("sub", limit, current, s.span) if direction else self.binop("sub", current, limit, s.span)
            stride = ir.Const(itype, abs(step.value))
            one = ir.Const(itype, 1)
            remaining = self.binop("add", self.binop("udiv", self.binop("sub", room, one, s.span), stride, s.span),
                                   one, s.span)
            most = ir.Const(itype, POLL_EVERY)
            final = self.cmp("ule", remaining, most, s.span)
            self.emit(ir.Store(s.span, left_var, self.select(final, remaining, most, s.span)))
            self.emit(ir.Store(s.span, last_var, final))
            self.goto(head)
            left = self.emit(ir.Load(s.span, self.temp(itype), left_var))
            chunk_done = self.new_block("for.chunk.end")
            self.block.term = ir.Branch(s.span, self.cmp("ne", left, ir.Const(itype, 0), s.span), body, chunk_done)
            # After the range's last chunk the counter may have stepped past the type's largest
            # value (wrapped): it is not compared again, the loop is over.
            chunk_done.term = ir.Branch(s.span, self.emit(ir.Load(s.span, self.temp(T.BOOL), last_var)), done, outer)
        else:
            self.block.term = ir.Branch(s.span, cond, body, done)
        self.block = body
        value = self.emit(ir.Load(s.span, self.temp(itype), counter))
        self.emit(ir.Store(s.span, self.var(s.var), value))
        self.loops.append((latch, done))
        first_body_block = len(self.fn.blocks)
        self.stmts(s.body)
        self.loops.pop()
        self.goto(latch)
        if self.calls_since(first_body_block) or not (chunked or quiet):
            self.poll_interrupt(s.span)  # `continue` comes here too
        current = self.emit(ir.Load(s.span, self.temp(itype), counter))
        if direction is None:
            step = self.emit(ir.Load(s.span, self.temp(itype), step_var))
        if chunked:
            left = self.emit(ir.Load(s.span, self.temp(itype), left_var))
            self.emit(ir.Store(s.span, left_var, self.binop("sub", left, ir.Const(itype, 1), s.span)))
            self.emit(ir.Store(s.span, counter, self.binop("add", current, step, s.span)))
            self.goto(head)
            self.block = done
            return
        # Stop where the next value would not fit the type: Python's range never wraps around.
        top, bottom = ir.Const(itype, itype.max), ir.Const(itype, itype.min)
        if direction is True:
            past = self.cmp("sgt" if signed else "ugt", current, self.binop("sub", top, step, s.span), s.span)
        elif direction is False:
            past = self.cmp("slt", current, self.binop("sub", bottom, step, s.span), s.span)
        else:
            up = self.cmp("sgt", step, ir.Const(itype, 0), s.span)
            past = self.select(up, self.cmp("sgt", current, self.binop("sub", top, step, s.span), s.span),
                               self.cmp("slt", current, self.binop("sub", bottom, step, s.span), s.span), s.span)
        advance = self.new_block("advance")
        self.block.term = ir.Branch(s.span, past, done, advance)
        self.block = advance
        self.emit(ir.Store(s.span, counter, self.binop("add", current, step, s.span)))
        self.goto(head)
        self.block = done

    def run_finally(self, down_to_loop_depth: int) -> None:
        """Emit the finally bodies being left, innermost first, each outside its own try."""
        saved_finally, saved_handlers = self.finally_stack, self.handlers
        for i in range(len(saved_finally) - 1, -1, -1):
            body, loop_depth, handlers = saved_finally[i]
            if loop_depth < down_to_loop_depth:
                break
            self.finally_stack, self.handlers = saved_finally[:i], handlers
            self.stmts(body)
        self.finally_stack, self.handlers = saved_finally, saved_handlers

    def stmt_TBreak(self, s) -> None:
        self.run_finally(len(self.loops))
        self.release_texts(len(self.loops), s.span)
        self.terminate(ir.Jump(s.span, self.loops[-1][1]))

    def stmt_TContinue(self, s) -> None:
        self.run_finally(len(self.loops))
        self.release_texts(len(self.loops), s.span)
        self.terminate(ir.Jump(s.span, self.loops[-1][0]))

    def release_texts(self, down_to_loop_depth: int, span) -> None:
        """Leaving trys by break, continue or return: free the messages made inside the outermost
        one left (nothing can refer to them once their handlers are left)."""
        left = [mark for mark, depth in self.try_marks if depth >= down_to_loop_depth]
        if left:
            self.intrinsic("texts_release", [self.emit(ir.Load(span, self.temp(TEXT_MARK), left[0]))], None, span)

    def stmt_TReturn(self, s: t.TReturn) -> None:
        value = None if s.value is None else self.own.take(s.value) if owning(s.value.type) else self.expr(s.value)
        if self.finally_stack:
            if value is not None:  # the value is computed before the finally bodies run
                slot = self.hidden("retval", value.type)
                self.emit(ir.Store(s.span, slot, value))
            self.run_finally(0)
            if value is not None:
                value = self.emit(ir.Load(s.span, self.temp(slot.type), slot))
        self.release_texts(0, s.span)
        self.own.destroy_all(s.span)
        self.terminate(ir.Ret(s.span, value))

    def stmt_TRaise(self, s: t.TRaise) -> None:
        if s.value is not None:
            self.intrinsic("exc_restore", [self.expr(s.value)], None, s.span)
            self.terminate(ir.Reraise(s.span, self.handler()))
        elif s.exc is None:
            if self.handling and self.handling[-1] is not None:  # the exception this handler caught
                saved = self.emit(ir.Load(s.span, self.temp(T.EXCEPTION), self.handling[-1]))
                self.intrinsic("exc_restore", [saved], None, s.span)
            self.terminate(ir.Reraise(s.span, self.handler()))
        elif s.text is not None:  # the message's bytes are copied before its String is dropped
            text = self.expr(s.text)
            # (its bytes by the field names the String's `@python_layout("str")` promises, as print_value)
            data_at, size_at = s.text.type.field_index("data"), s.text.type.field_index("size")
            assert data_at is not None and size_at is not None
            data = self.emit(ir.Extract(s.span, self.temp(s.text.type.fields[data_at][1]), text, data_at))
            size = self.emit(ir.Extract(s.span, self.temp(T.INT), text, size_at))
            kind = self.expr(s.kind) if s.kind is not None else ir.Const(T.STRING_LITERAL, s.exc)
            self.intrinsic("raise_text", [kind, data, size], None, s.span)
            if s.payload is not None:  # (after the raise, which set the class and the message)
                self.intrinsic("exc_set_payload", [self.expr(s.payload)], None, s.span, drop=s.drop)
            if s.shown is not None:
                self.intrinsic("exc_set_shown", [self.expr(s.shown)], None, s.span)
            self.terminate(ir.Reraise(s.span, self.handler()))
        else:
            self.terminate(ir.Raise(s.span, s.exc, s.message, self.handler()))

    def stmt_TTry(self, s: t.TTry) -> None:
        outer = list(self.handlers)
        done = self.new_block("endtry")
        if self.texts:  # messages made inside this try are freed when it completes normally
            mark = self.hidden("texts", TEXT_MARK)
            self.emit(ir.Store(s.span, mark, self.intrinsic("texts_mark", [], TEXT_MARK, s.span)))
            self.try_marks.append((mark, len(self.loops)))
        finally_entry = (s.finalbody, len(self.loops), outer)
        if s.finalbody:
            self.finally_stack.append(finally_entry)
        # Exceptions in the body go to the except dispatch (or, with only a finally, to the
        # block that runs it and re-raises); in else and in the handlers, only to the latter.
        cleanup = self.new_block("finally_exc") if s.finalbody else None
        dispatch = self.new_block("except") if s.handlers else cleanup
        if dispatch is not None:
            self.handlers = outer + [dispatch]
        self.stmts(s.body)
        self.handlers = outer + ([cleanup] if cleanup is not None else [])
        self.stmts(s.orelse)
        self.exit_try(s, done)
        if s.handlers:
            self.block = dispatch
            for h in s.handlers:
                body = self.new_block("handler")
                following = self.new_block("nomatch")
                if h.classes is None:  # a bare `except:` catches all but what pyx stops at
                    stop = self.intrinsic("exc_stopping", [], T.BOOL, h.span or s.span)
                    self.block.term = ir.Branch(s.span, stop, following, body)
                else:
                    names = [ir.Const(T.STRING_LITERAL, c) for c in sorted(h.classes)]
                    match = self.intrinsic("exc_matches", names, T.BOOL, h.span or s.span)
                    self.block.term = ir.Branch(s.span, match, body, following)
                self.block = body
                if h.var is not None:
                    value = self.intrinsic("exc_value", [], T.EXCEPTION, h.span or s.span)
                    self.emit(ir.Store(s.span, self.var(h.var), value))
                self.handling.append(self.kept_exception(h.body, s.span, True))
                self.stmts(h.body)
                self.handling.pop()
                self.exit_try(s, done)
                self.block = following
            self.terminate(ir.Reraise(s.span, cleanup or (outer[-1] if outer else None)))
        if cleanup is not None:
            self.block = cleanup
            self.handlers = outer
            if s.finalbody:
                self.finally_stack.pop()
            kept = self.kept_exception(s.finalbody, s.span, False)
            self.handling.append(None)  # (a `raise` here re-raises no handler's exception)
            self.stmts(s.finalbody)
            self.handling.pop()
            if kept is not None and self.block.term is None:  # what the finally's own trys raised is gone
                saved = self.emit(ir.Load(s.span, self.temp(T.EXCEPTION), kept))
                self.intrinsic("exc_restore", [saved], None, s.span)
            self.terminate(ir.Reraise(s.span, outer[-1] if outer else None))
            self.finally_stack.append(finally_entry)
        if s.finalbody:
            self.finally_stack.pop()
        self.handlers = outer
        self.block = done
        if self.texts:
            self.try_marks.pop()
            self.intrinsic("texts_release", [self.emit(ir.Load(s.span, self.temp(TEXT_MARK), mark))], None, s.span)

    def exit_try(self, s: t.TTry, done: ir.Block) -> None:
        """Normal completion of a try body, else or handler: run finally, then go on after the try."""
        if self.block.term is not None:
            return
        if s.finalbody:
            saved, handlers = self.finally_stack, self.handlers
            self.finally_stack, self.handlers = saved[:-1], saved[-1][2]
            self.stmts(s.finalbody)
            self.finally_stack, self.handlers = saved, handlers
        self.goto(done)

    def kept_exception(self, body: list, span, handler: bool) -> ir.Var | None:
        """The thread's current exception kept in a variable, where body (a handler's, which
        re-raises it with `raise`; or a finally's, run while it propagates, which raises it again
        after) has a `try` of its own that may replace it; None elsewhere."""
        stack: list = list(body)
        while stack:
            node = stack.pop()
            if (handler and isinstance(node, t.TRaise) and node.exc is None and node.value is None) \
                    or (not handler and isinstance(node, t.TTry)):
                saved = self.hidden("caught", T.EXCEPTION)
                self.emit(ir.Store(span, saved, self.intrinsic("exc_value", [], T.EXCEPTION, span)))
                return saved
            if isinstance(node, t.TStmt):
                for f in dataclasses.fields(node):
                    value = getattr(node, f.name)
                    if isinstance(value, list):
                        stack.extend(x for x in value if isinstance(x, t.TStmt))
        return None

    def stmt_TAssert(self, s: t.TAssert) -> None:
        cond = self.expr(s.test)
        failed = self.cmp("eq", cond, ir.Const(T.BOOL, False), s.span)
        if s.text is None:
            self.guard(failed, "AssertionError", s.message or "", s.span)
            return
        raised, ok = self.new_block("assert.failed"), self.new_block("assert.ok")
        self.block.term = ir.Branch(s.span, failed, raised, ok)
        self.block = raised  # (the message is made only here)
        self.stmt_TRaise(t.TRaise(s.span, "AssertionError", "", text=s.text))
        self.block = ok

    def stmt_TPrint(self, s: t.TPrint) -> None:
        values = [self.expr(arg) for arg in s.args]  # Python evaluates every argument before printing
        for i, value in enumerate(values):
            if i:
                self.print_str(s.sep, s.span)
            self.print_value(value, s.span)
        self.print_str(s.end, s.span)
        # A write that failed (stdout a closed pipe, a full disk) raises here, as Python's print
        # does (BrokenPipeError, OSError): `pyx run prog.px | head -1` stops instead of running on.
        failed = self.intrinsic("stdout_failed", [], T.BOOL, s.span)
        raised, ok = self.new_block("print.failed"), self.new_block("printed")
        self.block.term = ir.Branch(s.span, failed, raised, ok)
        raised.term = ir.Reraise(s.span, self.handler())
        self.block = ok

    def print_str(self, text: str, span) -> None:
        if text:
            self.intrinsic("print_str", [ir.Const(T.STRING_LITERAL, text)], None, span)

    def print_value(self, v: ir.Value, span) -> None:
        """One value as Python's print shows it (a struct was turned into its `__str__` String by
        the checker; a String's bytes are written as they are)."""
        vt = v.type
        if isinstance(vt, SIMDType):
            self.print_str("[", span)
            for lane in range(vt.width):
                if lane:
                    self.print_str(", ", span)
                item = self.emit(ir.ExtractLane(span, self.temp(vt.elem), v, ir.Const(T.INT, lane)))
                self.print_value(item, span)
            self.print_str("]", span)
            return
        if is_python_str(vt):
            # The stdlib's String, as its `@python_layout("str")` marker declares it (interop.LAYOUTS,
            # checked against its fields): UTF-8 bytes at `data`, `size` of them.
            data_at, size_at = vt.field_index("data"), vt.field_index("size")
            assert data_at is not None and size_at is not None
            data = self.emit(ir.Extract(span, self.temp(vt.fields[data_at][1]), v, data_at))
            size = self.emit(ir.Extract(span, self.temp(T.INT), v, size_at))
            length_at = vt.field_index("length")
            if length_at is not None:  # a lone surrogate raises UnicodeEncodeError here, as CPython's print
                length = self.emit(ir.Extract(span, self.temp(T.INT), v, length_at))
                failed = self.intrinsic("text_unencodable", [data, size, length], T.BOOL, span)
                raised, ok = self.new_block("print.unencodable"), self.new_block("print.text")
                self.block.term = ir.Branch(span, failed, raised, ok)
                raised.term = ir.Reraise(span, self.handler())
                self.block = ok
            self.intrinsic("print_bytes", [data, size], None, span)
            return
        if vt == T.EXCEPTION:
            self.intrinsic("print_exception", [v], None, span)
        elif vt == T.STRING_LITERAL:
            self.intrinsic("print_str", [v], None, span)
        elif vt == T.NONE:
            self.print_str("None", span)
        elif vt == T.BOOL:
            self.intrinsic("print_bool", [v], None, span)
        elif vt.is_float:
            self.intrinsic("print_bf16" if vt == T.BFLOAT16 else f"print_f{vt.bits}", [v], None, span)
        elif vt.is_signed:
            if vt.bits < 64:
                v = self.emit(ir.Cast(span, self.temp(T.INT64), "sext", v))
            self.intrinsic("print_i64", [v], None, span)
        else:
            if vt.bits < 64:
                v = self.emit(ir.Cast(span, self.temp(T.UINT64), "zext", v))
            self.intrinsic("print_u64", [v], None, span)

    # ---- expressions ----
    def expr(self, e: t.TExpr) -> ir.Value:
        return getattr(self, "expr_" + type(e).__name__)(e)

    def const(self, value, type_: Type) -> ir.Const:
        if isinstance(type_, LiteralType):
            type_ = default_type(type_)
        kind = elem_type(type_)
        if isinstance(kind, ScalarType):
            if kind.is_float:
                value = float(value)
            elif kind.is_bool:
                value = bool(value)
            else:
                value = int(value)
        return ir.Const(type_, value)

    def expr_TConst(self, e: t.TConst) -> ir.Value:
        return self.const(e.value, e.type)

    def expr_TLocal(self, e: t.TLocal) -> ir.Value:
        return self.emit(ir.Load(e.span, self.temp(e.type), self.read_global(e.var, e.span)))

    def read_global(self, local: t.LocalVar, span: Span | None) -> ir.Var:
        """A variable about to be read: a module-level one, outside the script, must have been assigned
        (CPython's NameError otherwise: ir/globals.py)."""
        var = self.var(local)
        if local.global_symbol is not None and not is_script(self.instance.decl) \
                and not local.global_symbol.startswith(MAIN_FLAG_PREFIX):  # (set before `main` runs)
            defined = self.emit(ir.Load(span, self.temp(T.BOOL), self.defined_flag(local)))
            missing = self.emit(ir.Cmp(span, self.temp(T.BOOL), "eq", defined, ir.Const(T.BOOL, False)))
            self.guard(missing, "NameError", f"name '{local.name}' is not defined", span)
        return var

    def defined_flag(self, local: t.LocalVar) -> ir.Var:
        """The `.defined` flag of a module-level variable, one Var per function."""
        flag = self.global_flags.get(local)
        if flag is None:
            flag = self.global_flags[local] = defined_flag(self.var(local))
            self.fn.vars.append(flag)
        return flag

    def expr_TCall(self, e: t.TCall) -> ir.Value:
        value = self.call(e)
        return self.own.temporary(e, value) if owning(e.type) else value

    # The nodes the ownership lowering owns (`expr` dispatches on the class name).
    def expr_TMove(self, e: t.TMove) -> ir.Value:
        return self.own.expr_TMove(e)

    def expr_TCopy(self, e: t.TCopy) -> ir.Value:
        return self.own.expr_TCopy(e)

    def expr_TListLit(self, e: t.TListLit) -> ir.Value:
        return self.own.expr_TListLit(e)

    def expr_TDictLit(self, e: t.TDictLit) -> ir.Value:
        return self.own.expr_TDictLit(e)

    def expr_TStmtExpr(self, e: t.TStmtExpr) -> ir.Value:
        # A comprehension: the loop the checker made of it, then what it built.
        for inner in e.body:
            self.stmt(inner)
        return self.expr(e.result)

    def call(self, e: t.TCall) -> ir.Value:
        decl = e.callee.decl
        # A method's receiver is its first argument; a constructor's `out self` is not an argument.
        params = list(decl.params[1:] if decl.self_convention == "out" else decl.params)
        if len(params) != len(e.args):
            params = [None] * len(e.args)
        args = [None if isinstance(a, t.TFieldRef) else self.own.argument(a, p) for a, p in zip(e.args, params)]
        fields = [(k, a.target) for k, a in enumerate(e.args) if isinstance(a, t.TFieldRef)]
        slots = []
        for k, target in fields:  # the field in a variable of its own, lent to the callee
            slot = self.hidden("field", target.type)
            self.emit(ir.Store(e.span, slot, self.field_value(target, e.span)))
            args[k] = ir.Ref(target.type, slot)
            slots.append((target, slot))
        handler = self.handler()
        if slots:  # written back on the way out too: the callee may have freed what the old bits point at
            handler = self.new_block("writeback")
            resume = self.block
            self.block = handler
            self.write_back(slots, e.span)
            self.terminate(ir.Reraise(e.span, self.handler()))
            self.block = resume
        result = self.temp(e.type) if e.type != T.NONE else None
        self.emit(ir.Call(e.span, result, e.callee.symbol, args, handler))
        self.write_back(slots, e.span)
        return result if result is not None else ir.Const(T.NONE, None)

    def field_value(self, target: t.FieldTarget, span) -> ir.Value:
        var = self.var(target.var)
        value = self.emit(ir.Load(span, self.temp(var.type), var))
        for index in target.path:
            value = self.emit(ir.Extract(span, self.temp(value.type.fields[index][1]), value, index))
        return value

    def write_back(self, slots, span) -> None:
        for target, slot in slots:
            self.store_field(target, self.emit(ir.Load(span, self.temp(slot.type), slot)), span)

    def expr_TUnary(self, e: t.TUnary) -> ir.Value:
        v = self.expr(e.operand)
        if e.op == "not":
            return self.cmp("eq", v, ir.Const(T.BOOL, False), e.span)
        et = elem_type(v.type)
        if e.op == "~":
            if et.is_bool:
                return self.binop("xor", v, ir.Const(v.type, True), e.span)
            return self.binop("xor", v, ir.Const(v.type, -1 if et.is_signed else et.max), e.span)
        if et.is_float:
            return self.intrinsic("fneg", [v], v.type, e.span)
        if v.type == T.INT and python_ints(self):
            guard_negated_min(self, v, e.span)  # -(-2**63) is 2**63 in Python
        return self.binop("sub", ir.Const(v.type, 0), v, e.span)

    def expr_TBoolOp(self, e: t.TBoolOp) -> ir.Value:
        # Python: `a or b` is a if a is truthy else b; b is not evaluated when a decides.
        result = self.hidden(e.op, e.type)
        done = self.new_block("end" + e.op)
        for i, operand in enumerate(e.values):
            v = self.expr(operand)
            self.emit(ir.Store(e.span, result, v))
            if i == len(e.values) - 1:
                self.goto(done)
                break
            truth = self.truth(v, operand.span)
            more = self.new_block(e.op)
            if e.op == "or":
                self.block.term = ir.Branch(e.span, truth, done, more)
            else:
                self.block.term = ir.Branch(e.span, truth, more, done)
            self.block = more
        return self.emit(ir.Load(e.span, self.temp(e.type), result))

    def expr_TIfExp(self, e: t.TIfExp) -> ir.Value:
        result = self.hidden("ifexp", e.type)
        cond = self.expr(e.test)
        then, orelse, done = self.new_block("then"), self.new_block("else"), self.new_block("endif")
        self.block.term = ir.Branch(e.span, cond, then, orelse)
        for block, value in ((then, e.body), (orelse, e.orelse)):
            self.block = block
            self.emit(ir.Store(e.span, result, self.expr(value)))
            self.goto(done)
        self.block = done
        return self.emit(ir.Load(e.span, self.temp(e.type), result))

    def expr_TCompare(self, e: t.TCompare) -> ir.Value:
        if len(e.ops) == 1:
            if e.link_types[0] == T.FLOAT64:  # an int with a float: exact, as CPython (ir/mixed_compare.py)
                a, b = self.expr(e.operands[0]), self.expr(e.operands[1])
                exact = mixed_compare.link(self, e.ops[0], (e.operands[0].type, a), (e.operands[1].type, b),
                                           T.FLOAT64, e.span)
                if exact is not None:
                    return exact
                a, b = (self.const(v.value, T.FLOAT64) if isinstance(v, ir.Const)
                        else self.cast_to(v, T.FLOAT64, e.span) for v in (a, b))
                return self.compare(e.ops[0], a, b, e.span)
            a = self.operand(e.operands[0], e.link_types[0])
            b = self.operand(e.operands[1], e.link_types[0])
            return self.compare(e.ops[0], a, b, e.span)
        # a < b < c: b is evaluated once; stop at the first false link.
        result = self.hidden("cmp", T.BOOL)
        done = self.new_block("endcmp")
        left = self.expr(e.operands[0])
        for i, op in enumerate(e.ops):
            right = self.expr(e.operands[i + 1])
            lt = e.link_types[i]
            c = mixed_compare.link(self, op, (e.operands[i].type, left), (e.operands[i + 1].type, right), lt, e.span)
            if c is None:
                c = self.compare(op, self.cast_to(left, lt, e.span), self.cast_to(right, lt, e.span), e.span)
            self.emit(ir.Store(e.span, result, c))
            if i == len(e.ops) - 1:
                self.goto(done)
            else:
                more = self.new_block("cmp")
                self.block.term = ir.Branch(e.span, c, more, done)
                self.block = more
            left = right
        return self.emit(ir.Load(e.span, self.temp(T.BOOL), result))

    def operand(self, e: t.TExpr, type_: Type) -> ir.Value:
        if isinstance(e, t.TConst):
            return self.const(e.value, type_)
        return self.cast_to(self.expr(e), type_, e.span)

    def compare(self, op: str, a: ir.Value, b: ir.Value, span) -> ir.Value:
        vt = elem_type(a.type)
        if vt == T.STRING_LITERAL:
            raise AssertionError("string comparison reaches lowering only when folded")
        if isinstance(vt, T.PtrType):
            return self.cmp("eq" if op == "==" else "ne", a, b, span)
        if vt.is_float:
            return self.cmp(_FLOAT_CMP[op], a, b, span)
        if op in ("==", "!="):
            return self.cmp("eq" if op == "==" else "ne", a, b, span)
        prefix = "s" if vt.is_signed else "u"
        return self.cmp(prefix + _INT_CMP[op], a, b, span)

    # Functions as values (ir/closures.py).
    def expr_TClosure(self, e: t.TClosure) -> ir.Value:
        return closures.closure(self, e)

    def expr_TAddress(self, e: t.TAddress) -> ir.Value:
        return closures.address(self, e)

    def stmt_TBindRef(self, s: t.TBindRef) -> None:
        closures.bind_ref(self, s)

    # Functions chosen at run time (ir/function_values.py).
    def expr_TFnAddr(self, e) -> ir.Value:
        return function_values.address(self, e)

    def expr_TCallPtr(self, e) -> ir.Value:
        return function_values.call(self, e)

    def expr_TAtomic(self, e) -> ir.Value:  # host atomics (semantics/c_functions.py)
        args = [self.expr(a) for a in e.args]
        return self.intrinsic(e.op, args, e.type if e.type != T.NONE else None, e.span, ordering=e.ordering)

    def expr_TMakeFnValue(self, e) -> ir.Value:
        return function_values.make(self, e)

    def expr_TField(self, e: t.TField) -> ir.Value:
        agg = self.expr(e.base)
        return self.emit(ir.Extract(e.span, self.temp(e.type), agg, e.index))

    def expr_TSplat(self, e: t.TSplat) -> ir.Value:
        return self.emit(ir.Splat(e.span, self.temp(e.type), self.expr(e.value)))

    def expr_TVector(self, e: t.TVector) -> ir.Value:
        values = [self.expr(x) for x in e.elements]
        vector = ir.Undef(e.type)
        for lane, value in enumerate(values):
            vector = self.emit(ir.InsertLane(e.span, self.temp(e.type), vector, ir.Const(T.INT, lane), value))
        return vector

    def lane_index(self, index: ir.Value, width: int, span) -> ir.Value:
        if isinstance(index, ir.Const) and 0 <= index.value < width:
            return index
        outside = self.binop("or", self.cmp("slt", index, ir.Const(T.INT, 0), span),
                             self.cmp("sge", index, ir.Const(T.INT, width), span), span)
        self.guard(outside, "IndexError", "SIMD lane index out of range", span)
        if isinstance(index, ir.Const):  # `v[40]` of 4 lanes: always raises above; the lane read is never reached
            return ir.Const(T.INT, 0)
        return index

    def expr_TLane(self, e: t.TLane) -> ir.Value:
        vector = self.expr(e.vector)
        index = self.lane_index(self.expr(e.index), vector.type.width, e.span)
        return self.emit(ir.ExtractLane(e.span, self.temp(e.type), vector, index))

    def expr_TSIMDOp(self, e: t.TSIMDOp) -> ir.Value:
        args = [self.expr(a) for a in e.args]
        if e.op.startswith("reduce_"):
            return self.emit(ir.Reduce(e.span, self.temp(e.type), e.op.removeprefix("reduce_"), args[0]))
        if e.op == "fma":
            return self.intrinsic("fma", args, e.type, e.span)
        if e.op == "select":
            return self.select(args[0], args[1], args[2], e.span)
        if e.op == "shuffle":
            return self.emit(ir.Shuffle(e.span, self.temp(e.type), args[0], e.lanes))
        raise AssertionError(e.op)

    def expr_TPtrOp(self, e: t.TPtrOp) -> ir.Value:
        # A stored value with a destructor now belongs to the memory (it is not a temporary).
        args = [self.own.take(a) if e.op == "store" and k == 2 and owning(a.type) else self.expr(a)
                for k, a in enumerate(e.args)]
        if e.op == "alloc":
            self.guard(self.cmp("slt", args[0], ir.Const(T.INT, 0), e.span), "ValueError",
                       "negative allocation size", e.span)
            align = e.args[1].value if len(e.args) > 1 else 0  # a TConst: `alignment=`
            p = self.emit(ir.Alloc(e.span, self.temp(e.type), args[0], align))
            self.guard(self.cmp("eq", p, ir.Const(e.type, None), e.span), "MemoryError", "", e.span)
            return p
        if e.op == "free":
            self.emit(ir.Free(e.span, args[0]))
            return ir.Const(T.NONE, None)
        if e.op == "offset":
            return self.emit(ir.PtrOffset(e.span, self.temp(e.type), args[0], args[1]))
        if e.op in ("load", "take"):
            return self.emit(ir.PtrLoad(e.span, self.temp(e.type), args[0], args[1]))
        if e.op == "store":
            self.emit(ir.PtrStore(e.span, args[0], args[1], args[2]))
            return ir.Const(T.NONE, None)
        if e.op == "bitcast":
            return self.emit(ir.Cast(e.span, self.temp(e.type), "bitcast", args[0]))
        if e.op == "prefetch":
            address = self.emit(ir.PtrOffset(e.span, self.temp(args[0].type), args[0], args[1]))
            self.intrinsic("prefetch", [address], None, e.span)
            return ir.Const(T.NONE, None)
        raise AssertionError(e.op)

    def expr_TMath(self, e: t.TMath) -> ir.Value:
        args = [self.expr(a) for a in e.args]
        x, op, span = args[0], e.op, e.span
        ft = x.type
        if e.checked:
            zero, one, inf = ir.Const(ft, 0.0), ir.Const(ft, 1.0), ir.Const(ft, float("inf"))

            def domain(failed):
                self.guard(failed, "ValueError", "math domain error", span)

            def is_inf(v):
                return self.cmp("oeq", self.intrinsic("fabs", [v], ft, span), inf, span)

            if op == "sqrt":
                domain(self.cmp("olt", x, zero, span))
            elif op in ("log", "log2", "log10"):
                domain(self.cmp("ole", x, zero, span))
            elif op == "log1p":
                domain(self.cmp("ole", x, ir.Const(ft, -1.0), span))
            elif op in ("asin", "acos"):
                domain(self.cmp("ogt", self.intrinsic("fabs", [x], ft, span), one, span))
            elif op in ("sin", "cos", "tan"):
                domain(is_inf(x))
            elif op == "fmod":
                domain(self.binop("or", self.cmp("oeq", args[1], zero, span), is_inf(x), span))
            elif op == "pow":
                y = args[1]
                zero_to_negative = self.binop("and", self.cmp("oeq", x, zero, span),
                                              self.cmp("olt", y, zero, span), span)
                fractional = self.cmp("une", self.intrinsic("floor", [y], ft, span), y, span)
                negative_to_fraction = self.binop("and", self.cmp("olt", x, zero, span),
                                                  self.binop("and", fractional, self.cmp("one", self.intrinsic(
                                                      "fabs", [y], ft, span), inf, span), span), span)
                domain(self.binop("or", zero_to_negative, negative_to_fraction, span))
        result = self.intrinsic("math." + op, args, e.type, span)
        if e.checked and op in ("exp", "exp2", "expm1"):
            # These never give -inf (exp(-inf) is 0), so `|r| == inf` is `r == inf`, and of the
            # arguments only +inf gives +inf (cosh(-inf) is inf too: not here): half the checks of
            # the general test below, the same truth table.
            inf = ir.Const(ft, float("inf"))
            overflow = self.binop("and", self.cmp("one", x, inf, span), self.cmp("oeq", result, inf, span), span)
            self.guard(overflow, "OverflowError", "math range error", span)
        elif e.checked and op in ("sinh", "cosh", "pow"):
            finite_args = None
            for a in args:
                finite = self.cmp("one", self.intrinsic("fabs", [a], ft, span), ir.Const(ft, float("inf")), span)
                finite_args = finite if finite_args is None else self.binop("and", finite_args, finite, span)
            overflow = self.binop("and", finite_args, self.cmp("oeq", self.intrinsic("fabs", [result], ft, span),
                                                              ir.Const(ft, float("inf")), span), span)
            self.guard(overflow, "OverflowError", "math range error", span)
        return result

    def stmt_TLaunch(self, s: t.TLaunch) -> None:
        args = [self.expr(a) for a in s.call.args]
        grid = [self.expr(g) for g in s.grid]
        block = [self.expr(b) for b in s.block]
        shared = self.expr(s.shared_bytes)
        stream = self.expr(s.stream)
        for dim in grid + block:
            self.guard(self.cmp("slt", dim, ir.Const(T.INT, 1), s.span), "ValueError",
                       "launch dimensions must be at least 1", s.span)
        # Each dimension within the GPU's limits first, so the products below cannot wrap around
        # (a block of (2**62 + 1, 4) threads counted 4; a grid of (2**62, 2) blocks, none).
        for dim, most in zip(grid, MAX_GRID):
            self.guard(self.cmp("sgt", dim, ir.Const(T.INT, most), s.span), "ValueError",
                       f"a grid has at most {MAX_GRID} blocks in each dimension", s.span)
        for dim in block:
            self.guard(self.cmp("sgt", dim, ir.Const(T.INT, MAX_BLOCK_THREADS), s.span), "ValueError",
                       f"a block has at most {MAX_BLOCK_THREADS} threads", s.span)
        threads = self.binop("mul", self.binop("mul", block[0], block[1], s.span), block[2], s.span)
        self.guard(self.cmp("sgt", threads, ir.Const(T.INT, MAX_BLOCK_THREADS), s.span), "ValueError",
                   f"a block has at most {MAX_BLOCK_THREADS} threads", s.span)
        # Dynamic shared memory shares the block's 48 KiB with the kernel's shared arrays; the CPU
        # allocates it per block (a negative or huge size crashed there, and fails on a GPU).
        most = MAX_STATIC_SHARED_BYTES - static_shared_bytes(s.call.callee)[0]
        outside = self.binop("or", self.cmp("slt", shared, ir.Const(T.INT, 0), s.span),
                             self.cmp("sgt", shared, ir.Const(T.INT, most), s.span), s.span)
        self.guard(outside, "ValueError", f"shared_bytes must be from 0 to {most} for this kernel "
                   f"({MAX_STATIC_SHARED_BYTES} bytes a block, less its shared arrays)", s.span)
        self.emit(ir.Launch(s.span, s.call.callee.symbol, args, grid, block, shared, stream, self.handler()))

    def expr_TGpu(self, e: t.TGpu) -> ir.Value:
        args = [self.expr(a) for a in e.args]
        result = e.type if e.type != T.NONE else None
        op, attrs = e.op, {}
        if op == "shared_array":
            # One array per declaration *and instance*: a generic `shared_array[T, N]` at one source
            # offset is a different size for each T and N, and another file may have a declaration
            # at the same offset; sharing one slot let the larger instance write past it.
            attrs = {"site": e.site, "owner": self.instance.symbol, "count": e.count}
        elif "." in op:  # the checker's `thread_idx.x`: the axis is a compile-time operand
            op, axis = op.split(".")
            attrs = {"axis": axis}
        value = self.intrinsic(f"gpu.{op}", args, result, e.span, **attrs)
        return value if value is not None else ir.Const(T.NONE, None)

    def stmt_TBlock(self, s: t.TBlock) -> None:
        # One source statement: its temporaries (the list a `for` walks) live until it ends.
        for inner in s.body:
            self.stmt(inner)

    def expr_TRef(self, e: t.TRef) -> ir.Value:
        return ir.Ref(e.type, self.read_global(e.var, e.span))

    def expr_TLend(self, e: t.TLend, taken: bool = False) -> ir.Value:
        """An element changed in place: its bits lent to a slot, stored back afterwards (also on
        the way out of a raise: the change may have freed what the old bits point at), as
        call() lends a field to a `mut` argument. While lent, the slot's live flag is set, so
        replacing one of its fields destroys the old value; the flag is cleared as the bits go back.
        `taken`: the value goes to a new owner (`got = self.rows.pop()`), not to a temporary."""
        ptr = self.expr(e.ptr)
        slot = self.var(e.slot)
        zero = ir.Const(T.INT, 0)
        self.emit(ir.Store(e.span, slot, self.emit(ir.PtrLoad(e.span, self.temp(e.slot.type), ptr, zero))))
        flag = self.own.live_flag(e.slot) if owning(e.slot.type) else None

        # An object's data (syntax/classes.py) begins with its reference count, which the change may
        # have moved in memory meanwhile (`a.link = a` copies `a`): the count goes back as it is now,
        # not as it was lent (which lost the copy's count, and freed `a` twice).
        counted = isinstance(slot.type, T.StructType) and bool(slot.type.fields) \
            and slot.type.fields[0][0] == "__pyx_rc"

        def store_back() -> None:
            if flag is not None:
                self.own.set_flag(flag, False, e.span)
            bits = self.emit(ir.Load(e.span, self.temp(slot.type), slot))
            if counted:
                count = self.emit(ir.PtrLoad(e.span, self.temp(T.INT),
                                             self.emit(ir.Cast(e.span, self.temp(T.ptr(T.INT)), "bitcast", ptr)), zero))
                bits = self.emit(ir.Insert(e.span, self.temp(slot.type), bits, 0, count))
            self.emit(ir.PtrStore(e.span, ptr, zero, bits))

        if flag is not None:
            self.own.set_flag(flag, True, e.span)
        writeback = self.new_block("writeback")
        resume, self.block = self.block, writeback
        store_back()
        self.terminate(ir.Reraise(e.span, self.handler()))
        self.block = resume
        self.handlers.append(writeback)
        try:
            result = ir.Const(T.NONE, None) if e.inner is None else self.own.take(e.inner) if taken \
                else self.expr(e.inner)
            for inner in e.body:
                self.stmt(inner)
        finally:
            self.handlers.remove(writeback)
        store_back()
        return result

    def expr_TConvert(self, e: t.TConvert) -> ir.Value:
        v = self.expr(e.value)
        if e.checked:
            self.check_float_to_int(v, e.type, e.span)
        return self.cast_to(v, e.type, e.span)

    def check_float_to_int(self, v: ir.Value, target: ScalarType, span) -> None:
        # Python's int(): NaN and infinities raise; pyx also refuses values the type cannot hold.
        self.guard(self.cmp("uno", v, v, span), "ValueError", "cannot convert float NaN to integer", span)
        inf = float("inf")
        is_inf = self.cmp("oeq", self.intrinsic("fabs", [v], v.type, span), ir.Const(v.type, inf), span)
        self.guard(is_inf, "OverflowError", "cannot convert float infinity to integer", span)
        lo, hi = float(target.min), float(target.max + 1)  # exact powers of two
        # Truncation keeps anything above min - 1; when min - 1 is not a float (Int64), the bound is min.
        if target.is_signed and target.bits >= 53:
            too_small = self.cmp("olt", v, ir.Const(v.type, lo), span)
        else:
            too_small = self.cmp("ole", v, ir.Const(v.type, lo - 1.0), span)
        too_big = self.cmp("oge", v, ir.Const(v.type, hi), span)
        either = self.binop("or", too_small, too_big, span)
        # In a program's `def`, CPython's int() of it is a big int: no OverflowError a handler may catch.
        if target == T.INT and python_ints(self):
            self.guard(either, UNCATCHABLE, "float too large to convert to pyx's 64-bit int (CPython's ints have "
                       "no limit)", span)
        else:
            self.guard(either, "OverflowError", f"float too large to convert to {target}", span)

    def cast_to(self, v: ir.Value, target: Type, span) -> ir.Value:
        if v.type == target:
            return v
        if isinstance(v, ir.Const) and not isinstance(v.type, (ScalarType, SIMDType)):
            return self.const(v.value, target)
        result_type = target
        src, target = elem_type(v.type), elem_type(target)
        if target == T.BOOL:
            return self.truth(v, span)
        if src == T.BOOL:
            kind = "uitofp" if target.is_float else "zext"
        elif src.is_int and target.is_int:
            kind = "trunc" if target.bits < src.bits else ("sext" if src.is_signed else "zext")
            if target.bits == src.bits:
                kind = "bitcast"
        elif src.is_int and target.is_float:
            kind = "sitofp" if src.is_signed else "uitofp"
        elif src.is_float and target.is_float:
            kind = "fpext" if target.bits > src.bits else "fptrunc"
        else:
            kind = "fptosi" if target.is_signed else "fptoui"
        return self.emit(ir.Cast(span, self.temp(result_type), kind, v))

    def truth(self, v: ir.Value, span) -> ir.Value:
        if isinstance(v.type, T.PtrType):
            return self.cmp("ne", v, ir.Const(v.type, None), span)
        et = elem_type(v.type)
        if et == T.BOOL:
            return v
        if et.is_float:
            return self.cmp("une", v, ir.Const(v.type, 0.0), span)
        return self.cmp("ne", v, ir.Const(v.type, 0), span)

    def expr_TBuiltin(self, e: t.TBuiltin) -> ir.Value:
        if e.name == "truth":
            return self.truth(self.expr(e.args[0]), e.span)
        if e.name == "hash":
            x = self.expr(e.args[0])
            return self.python_float_hash(x, e.span) if x.type.is_float else self.python_int_hash(x, e.span)
        if e.name == "normalize_index":
            index, count = self.expr(e.args[0]), self.expr(e.args[1])
            wrapped = self.binop("add", index, count, e.span)
            index = self.select(self.cmp("slt", index, ir.Const(T.INT, 0), e.span), wrapped, index, e.span)
            if self.bounds_check:  # one unsigned compare covers both ends
                self.guard(self.cmp("uge", index, count, e.span), "IndexError", e.args[2].value, e.span)
            return index
        args = [self.expr(a) for a in e.args]
        if e.name in ("exc_message", "exc_kind"):
            return self.intrinsic(e.name, args, T.STRING_LITERAL, e.span)
        if e.name == "exc_is":
            return self.intrinsic(e.name, args, T.BOOL, e.span)
        if e.name == "exc_shown":
            return self.intrinsic(e.name, args, T.INT, e.span)
        if e.name == "exc_payload":
            return self.intrinsic(e.name, args, e.type, e.span)
        if e.name.startswith("extern:"):
            return self.intrinsic("extern", args, e.type if e.type != T.NONE else None, e.span, symbol=e.name[7:])
        if e.name == "extern_ptr":  # `external_call[p, R](...)`: through a C function pointer
            return self.intrinsic("extern_ptr", args, e.type if e.type != T.NONE else None, e.span)
        if e.name == "abs":
            v = args[0]
            if elem_type(v.type).is_float:
                return self.intrinsic("fabs", [v], v.type, e.span)
            if not elem_type(v.type).is_signed:
                return v
            if v.type == T.INT and python_ints(self):
                guard_negated_min(self, v, e.span)
            neg = self.binop("sub", ir.Const(v.type, 0), v, e.span)
            return self.select(self.cmp("slt", v, ir.Const(v.type, 0), e.span), neg, v, e.span)
        # Python's min/max keep the first of equal items and follow `<`/`>` exactly (NaN too).
        current = args[0]
        for nxt in args[1:]:
            better = self.compare("<" if e.name == "min" else ">", nxt, current, e.span)
            current = self.select(better, nxt, current, e.span)
        return current

    def python_int_hash(self, x: ir.Value, span) -> ir.Value:
        """CPython's hash of an int: its value modulo 2**61 - 1 with the int's sign, and -2 for -1."""
        modulus = ir.Const(T.INT, 2**61 - 1)
        if x.type.is_bool or not x.type.is_signed:
            wide = self.emit(ir.Cast(span, self.temp(T.INT), "zext", x)) if x.type.bits < 64 else x
            if x.type.bits == 64:
                return self.binop("urem", self.emit(ir.Cast(span, self.temp(T.INT), "bitcast", x)), modulus, span)
            return self.binop("urem", wide, modulus, span)
        wide = self.emit(ir.Cast(span, self.temp(T.INT), "sext", x)) if x.type.bits < 64 else x
        negative = self.cmp("slt", wide, ir.Const(T.INT, 0), span)
        magnitude = self.select(negative, self.binop("sub", ir.Const(T.INT, 0), wide, span), wide, span)
        rest = self.binop("urem", magnitude, modulus, span)
        signed = self.select(negative, self.binop("sub", ir.Const(T.INT, 0), rest, span), rest, span)
        return self.select(self.cmp("eq", signed, ir.Const(T.INT, -1), span), ir.Const(T.INT, -2), signed, span)

    def python_float_hash(self, x: ir.Value, span) -> ir.Value:
        """CPython's hash of a float, so a whole float hashes as the int it equals: x is M * 2**E
        with M a 53-bit integer, and its hash is M * 2**E modulo 2**61 - 1 (where 2**61 is 1, so
        multiplying by 2**E is a 61-bit rotation by E mod 61), with x's sign; +-inf are +-314159,
        and -1 becomes -2. A NaN hashes to 0 (CPython uses the NaN object's identity; either way
        a NaN key is never found again, as NaN != NaN)."""
        if x.type != T.FLOAT64:
            x = self.cast_to(x, T.FLOAT64, span)
        u = T.UINT64

        def k(value):
            return ir.Const(u, value)

        bits = self.emit(ir.Cast(span, self.temp(u), "bitcast", x))
        field = self.binop("and", self.binop("lshr", bits, k(52), span), k(0x7FF), span)
        fraction = self.binop("and", bits, k(2**52 - 1), span)
        normal = self.cmp("ne", field, k(0), span)
        mantissa = self.select(normal, self.binop("or", fraction, k(2**52), span), fraction, span)
        exponent = self.select(normal, self.binop("sub", field, k(1075), span), k(2**64 - 1074), span)
        # The exponent is signed (as an Int); its remainder mod 61, made non-negative, is the rotation.
        signed_exponent = self.emit(ir.Cast(span, self.temp(T.INT), "bitcast", exponent))
        rest = self.binop("srem", signed_exponent, ir.Const(T.INT, 61), span)
        rest = self.select(self.cmp("slt", rest, ir.Const(T.INT, 0), span),
                           self.binop("add", rest, ir.Const(T.INT, 61), span), rest, span)
        turn = self.emit(ir.Cast(span, self.temp(u), "bitcast", rest))
        modulus = k(2**61 - 1)
        rotated = self.binop("or", self.binop("and", self.binop("shl", mantissa, turn, span), modulus, span),
                             self.binop("lshr", mantissa, self.binop("sub", k(61), turn, span), span), span)
        magnitude = self.emit(ir.Cast(span, self.temp(T.INT), "bitcast", rotated))
        negative = self.cmp("ne", self.binop("lshr", bits, k(63), span), k(0), span)
        value = self.select(negative, self.binop("sub", ir.Const(T.INT, 0), magnitude, span), magnitude, span)
        value = self.select(self.cmp("eq", value, ir.Const(T.INT, -1), span), ir.Const(T.INT, -2), value, span)
        special = self.cmp("eq", field, k(0x7FF), span)
        infinite = self.select(negative, ir.Const(T.INT, -314159), ir.Const(T.INT, 314159), span)
        not_finite = self.select(self.cmp("eq", fraction, k(0), span), infinite, ir.Const(T.INT, 0), span)
        return self.select(special, not_finite, value, span)

    def expr_TBinary(self, e: t.TBinary) -> ir.Value:
        a = self.expr(e.left)
        b = self.expr(e.right)
        vt = elem_type(a.type)
        op = e.op
        if vt == T.BOOL:  # & | ^ on Bools
            return self.binop({"&": "and", "|": "or", "^": "xor"}[op], a, b, e.span)
        kind = "float" if vt.is_float else "int"
        if op in ("+", "-", "*", "**", "<<") and vt == T.INT and python_ints(self):
            return checked_int_op(self, op, a, b, e.span)  # Python's ints: OverflowError, never a wrap
        if op == "//" and vt == T.INT and python_ints(self) and not (isinstance(b, ir.Const) and b.value != -1):
            self.guard(self.binop("and", self.cmp("eq", b, ir.Const(T.INT, -1), e.span),
                                  self.cmp("eq", a, ir.Const(T.INT, -(2**63)), e.span), e.span),
                       UNCATCHABLE, OVERFLOW_MESSAGE, e.span)  # (CPython's is a big int: ir/int_overflow.py)
        if (op, kind) in _ARITH:
            return self.binop(_ARITH[(op, kind)], a, b, e.span)
        if kind == "float":
            return self.float_op(op, a, b, e.span, "division by zero" if e.ints else "float division by zero")
        return self.int_op(op, a, b, e.span)

    def int_op(self, op: str, a: ir.Value, b: ir.Value, span) -> ir.Value:
        vt, et = a.type, elem_type(a.type)
        zero = ir.Const(vt, 0)
        if op in ("//", "%"):
            if not _nonzero(b):
                message = "integer division or modulo by zero" if op == "//" else "integer modulo by zero"
                self.guard(self.cmp("eq", b, zero, span), "ZeroDivisionError", message, span)
            if not et.is_signed:
                return self.binop("udiv" if op == "//" else "urem", a, b, span)
            # MIN // -1 traps in hardware: divide by 1 instead and negate (wrapping, like Int).
            minus_one = self.cmp("eq", b, ir.Const(vt, -1), span)
            safe_b = self.select(minus_one, ir.Const(vt, 1), b, span)
            q = self.binop("sdiv", a, safe_b, span)
            r = self.binop("srem", a, safe_b, span)
            # Floor toward negative infinity: when the remainder's sign differs from b's.
            r_nonzero = self.cmp("ne", r, zero, span)
            signs_differ = self.cmp("slt", self.binop("xor", r, b, span), zero, span)
            adjust = self.binop("and", r_nonzero, signs_differ, span)
            if op == "%":
                return self.select(adjust, self.binop("add", r, b, span), r, span)
            q = self.select(minus_one, self.binop("sub", zero, a, span), q, span)
            return self.select(adjust, self.binop("sub", q, ir.Const(vt, 1), span), q, span)
        if op == "**":
            symbol = ipow_symbol(vt)
            if symbol not in self.helpers:
                self.helpers[symbol] = ipow_function(vt)
            return self.emit(ir.Call(span, self.temp(vt), symbol, [a, b]))
        if op in ("<<", ">>"):
            if et.is_signed:
                self.guard(self.cmp("slt", b, zero, span), "ValueError", "negative shift count", span)
            too_far = self.cmp("uge", b, ir.Const(vt, et.bits), span)
            safe = self.select(too_far, zero, b, span)
            if op == "<<":
                return self.select(too_far, zero, self.binop("shl", a, safe, span), span)
            shr = "ashr" if et.is_signed else "lshr"
            fill = self.binop(shr, a, ir.Const(vt, et.bits - 1), span) if et.is_signed else zero
            return self.select(too_far, fill, self.binop(shr, a, safe, span), span)
        raise AssertionError(f"int operator {op}")

    def float_op(self, op: str, a: ir.Value, b: ir.Value, span, division_message: str = "") -> ir.Value:
        vt = a.type
        zero = ir.Const(vt, 0.0)
        if isinstance(vt, SIMDType) or self.fn.fastmath:
            # SIMD lanes (and @fastmath functions) follow IEEE 754: a zero divisor gives inf or nan.
            if op == "/":
                return self.binop("fdiv", a, b, span)
            if op == "**":
                return self.intrinsic("pow", [a, b], vt, span)
            return self.float_floordiv_mod(op, a, b, span)
        if op == "/":
            if not _nonzero(b):
                self.guard(self.cmp("oeq", b, zero, span), "ZeroDivisionError", division_message, span)
            return self.binop("fdiv", a, b, span)
        if op in ("//", "%"):
            if not _nonzero(b):
                message = "float floor division by zero" if op == "//" else "float modulo by zero"
                self.guard(self.cmp("oeq", b, zero, span), "ZeroDivisionError", message, span)
            return self.float_floordiv_mod(op, a, b, span)
        if op == "**":
            base_zero = self.cmp("oeq", a, zero, span)
            # A finite negative exponent: CPython gives 0.0 ** -inf == inf without complaint.
            neg_exp = self.binop("and", self.cmp("olt", b, zero, span),
                                 self.cmp("one", b, ir.Const(vt, float("-inf")), span), span)
            self.guard(self.binop("and", base_zero, neg_exp, span), "ZeroDivisionError",
                       "0.0 cannot be raised to a negative power", span)
            result = self.intrinsic("pow", [a, b], vt, span)
            # CPython: a finite base and exponent whose power is infinite raise OverflowError.
            inf = ir.Const(vt, float("inf"))
            finite = self.binop("and", self.cmp("one", self.intrinsic("fabs", [a], vt, span), inf, span),
                                self.cmp("one", self.intrinsic("fabs", [b], vt, span), inf, span), span)
            overflow = self.binop("and", finite, self.cmp("oeq", self.intrinsic("fabs", [result], vt, span), inf,
                                                         span), span)
            self.guard(overflow, "OverflowError", "(34, 'Numerical result out of range')", span)
            return result
        raise AssertionError(f"float operator {op}")

    def float_floordiv_mod(self, op: str, a: ir.Value, b: ir.Value, span) -> ir.Value:
        # CPython's float_divmod, step by step, so results match to the last bit and sign.
        vt = a.type
        zero, one, half = ir.Const(vt, 0.0), ir.Const(vt, 1.0), ir.Const(vt, 0.5)
        mod = self.binop("frem", a, b, span)
        div = self.binop("fdiv", self.binop("fsub", a, mod, span), b, span)
        mod_nonzero = self.cmp("une", mod, zero, span)
        b_neg = self.cmp("olt", b, zero, span)
        mod_neg = self.cmp("olt", mod, zero, span)
        fix = self.binop("and", mod_nonzero, self.cmp("ne", b_neg, mod_neg, span), span)
        signed_zero = self.intrinsic("copysign", [zero, b], vt, span)
        mod = self.select(mod_nonzero, self.select(fix, self.binop("fadd", mod, b, span), mod, span),
                          signed_zero, span)
        if op == "%":
            return mod
        div = self.select(fix, self.binop("fsub", div, one, span), div, span)
        floordiv = self.intrinsic("floor", [div], vt, span)
        round_up = self.cmp("ogt", self.binop("fsub", div, floordiv, span), half, span)
        floordiv = self.select(round_up, self.binop("fadd", floordiv, one, span), floordiv, span)
        div_nonzero = self.cmp("une", div, zero, span)
        zero_result = self.intrinsic("copysign", [zero, self.binop("fdiv", a, b, span)], vt, span)
        return self.select(div_nonzero, floordiv, zero_result, span)


def _nonzero(v: ir.Value) -> bool:
    """A constant divisor that is not zero needs no zero check."""
    return isinstance(v, ir.Const) and not isinstance(v.type, SIMDType) and v.value != 0
