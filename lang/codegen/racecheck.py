"""The runtime of `--racecheck` (see ir/racecheck.py): a shadow of the block's shared memory.

Each byte of a block's shared memory has a shadow entry: the last thread that wrote it (with the
number of barriers it had passed then, its epoch, and the source line), and the first two threads
that read it. Two accesses of different threads race when they have the same epoch (no barrier
between them) and one of them writes. Every block runs on one OS thread (gpu_cpu.py), so the
shadow is that OS thread's, found through a pthread key, and needs no lock; it is cleared when a
block begins (`__pyx_racecheck_block`, which gpu_cpu.py calls once it has zeroed the block's shared
memory). A thread's epoch is counted per thread (`racecheck.barrier` before each of its barriers).

A race raises `RuntimeError` at the second access's line:
`race in kernel K on shared array A[i]: thread (..) wrote it at f.px:L and thread (..) read it at
f.px:M, in block (..), with no barrier() between`. The array is named by the variable its
`shared_array` is stored in; the element by the access's element size.
"""
from __future__ import annotations

import os

from llvmlite import ir as ll

from .. import types as T
from ..ir import nodes as ir
from .runtime_lib import CHARP, I1, I32, I64, VOID, counted_loop

BLOCK_HOOK = "__pyx_racecheck_block"
CHECK = "__pyx_racecheck"  # i1 (address, size, ...): one shared-memory access checked
# Per byte: writer, its epoch, its line; the first reader, ...; a second reader, ...
# (threads as index + 1: 0 is nobody; all zeros is an empty entry).
ENTRY = ll.LiteralStructType([I32, I32, CHARP, I32, I32, CHARP, I32, I32, CHARP])
WRITER, FIRST_READER, SECOND_READER = 0, 3, 6
# Per OS thread: the shadow (entries), how many it holds, the threads' epochs, how many it holds.
STATE = ll.LiteralStructType([ENTRY.as_pointer(), I64, I32.as_pointer(), I64])
MESSAGE_BYTES = 512


def shared_array_names(module: ir.Module) -> dict[str, str]:
    """`shared_site` -> the name of the variable its `shared_array` is stored in (else where it is declared)."""
    from .llvm_gen import shared_site

    names: dict[str, str] = {}
    for f in module.functions:
        for block in f.blocks:
            stored = {id(i.value): i.var.name for i in block.instrs if isinstance(i, ir.Store)}
            for i in block.instrs:
                if isinstance(i, ir.Intrinsic) and i.name == "gpu.shared_array":
                    where = f"declared at {os.path.basename(i.span.file.name)}:{i.span.line}" if i.span else "?"
                    names.setdefault(shared_site(i), stored.get(id(i.result), where))
    return names


class RacecheckRuntime:
    """Made before the module's GPU runtime (gpu_cpu.py looks for BLOCK_HOOK when it builds its block loops)."""

    def __init__(self, mg):
        self.mg = mg
        rt = self.rt = mg.rt
        hook, hook_builder = rt._function(BLOCK_HOOK, VOID, [CHARP])
        self.gpu = mg.gpu_cpu  # its block loops now call the hook
        self.key = rt._global("__pyx_racecheck_key", I32, I32(0))
        self.once = rt._global("__pyx_racecheck_once", I32, I32(0))
        make, mb = rt._function("__pyx_racecheck_make_key", VOID, [])
        no_destructor = ll.Constant(ll.FunctionType(VOID, [CHARP]).as_pointer(), None)
        mb.call(rt.libc("pthread_key_create"), [self.key, no_destructor])
        mb.ret_void()
        self.make_key = make
        self.table, self.table_size = self._array_table()
        self._define_block_hook(hook, hook_builder)
        self.barrier_fn = self._define_barrier()
        self.check = self._define_check()

    def _array_table(self):
        """The shared arrays by offset in the block's shared memory, ascending: (offset, name)."""
        names = shared_array_names(self.mg.ir_module)
        rows = sorted((offset, names.get(site, "?")) for site, offset in self.mg.shared_offsets.items())
        rows.append((self.mg.static_shared_bytes, "dynamic_shared"))  # the launch's shared_bytes come last
        row = ll.LiteralStructType([I64, CHARP])
        table_type = ll.ArrayType(row, len(rows))
        init = ll.Constant(table_type, [ll.Constant(row, [I64(o), self.rt.cstr_constant(n)]) for o, n in rows])
        table = self.rt._global("__pyx_racecheck_arrays", table_type, init)
        table.global_constant = True
        return table, len(rows)

    def _state(self, b: ll.IRBuilder):
        rt = self.rt
        b.call(rt.libc("pthread_once"), [self.once, self.make_key])
        raw = b.call(rt.libc("pthread_getspecific"), [b.load(self.key)])
        return b.bitcast(raw, STATE.as_pointer())

    @staticmethod
    def _at(b, state, k):
        return b.gep(state, [I32(0), I32(k)], inbounds=True)

    def _thread(self, b: ll.IRBuilder, ctx):
        """The calling GPU thread's index in its block (x fastest)."""
        x, y, z, bx, by = (b.load(b.gep(self.gpu.field(b, "idx", ctx), [I32(0), I32(k)], inbounds=True))
                           for k in (0, 1, 2, 6, 7))
        return b.add(x, b.mul(bx, b.add(y, b.mul(by, z))))

    def _define_block_hook(self, fn: ll.Function, b: ll.IRBuilder) -> None:
        """`void __pyx_racecheck_block(ctx)`: an empty shadow for the block's shared memory, every epoch 0."""
        rt = self.rt
        ctx = b.bitcast(fn.args[0], self.gpu.ctx_type.as_pointer())
        malloc, free, memset = rt.libc("malloc"), rt.libc("free"), rt.libc("memset")
        state = self._state(b)
        with b.if_then(b.icmp_unsigned("==", state, ll.Constant(state.type, None))):
            raw = b.call(rt.libc("calloc"), [I64(1), I64(64)])
            b.call(rt.libc("pthread_setspecific"), [b.load(self.key), raw])
        state = self._state(b)
        entry_bytes = b.ptrtoint(b.gep(ll.Constant(ENTRY.as_pointer(), None), [I32(1)]), I64)
        for data, cap, need, unit in ((0, 1, b.load(self.gpu.field(b, "shared_size", ctx)), entry_bytes),
                                      (2, 3, b.load(self.gpu.field(b, "nthreads", ctx)), I64(4))):
            have = self._at(b, state, cap)
            slot = self._at(b, state, data)
            with b.if_then(b.icmp_unsigned("<", b.load(have), need)):
                b.call(free, [b.bitcast(b.load(slot), CHARP)])
                b.store(b.bitcast(b.call(malloc, [b.mul(need, unit)]), slot.type.pointee), slot)
                b.store(need, have)
            b.call(memset, [b.bitcast(b.load(slot), CHARP), I32(0), b.mul(need, unit)])
        b.ret_void()

    def _define_barrier(self) -> ll.Function:
        """`void __pyx_racecheck_barrier()`: the calling thread passes a barrier (its epoch + 1)."""
        fn, b = self.rt._function("__pyx_racecheck_barrier", VOID, [])
        ctx = b.call(self.gpu.ctx_fn, [])
        with b.if_then(b.icmp_unsigned("==", ctx, ll.Constant(ctx.type, None))):
            b.ret_void()  # a device function called from the host
        state = self._state(b)
        with b.if_then(b.icmp_unsigned("==", state, ll.Constant(state.type, None))):
            b.ret_void()
        epoch = b.gep(b.load(self._at(b, state, 2)), [self._thread(b, ctx)])
        b.store(b.add(b.load(epoch), I32(1)), epoch)
        b.ret_void()
        return fn

    def _define_check(self) -> ll.Function:
        """`bool __pyx_racecheck(address, index, elem_bytes, lanes, is_store, site, func, file, line)`:
        false when the access races with no other thread's; otherwise RuntimeError is raised (with a
        frame for the access) and the result is true."""
        rt, gpu = self.rt, self.gpu
        fn, b = rt._function(CHECK, I1, [I64, I64, I64, I64, I32, CHARP, CHARP, CHARP, I32])
        fn.attributes.add("noinline")
        address, index, elem, lanes, store, site, func, file, line = fn.args
        no = ll.Constant(I1, 0)
        ctx = b.call(gpu.ctx_fn, [])
        with b.if_then(b.icmp_unsigned("==", ctx, ll.Constant(ctx.type, None))):
            b.ret(no)  # a device function called from the host: no block, no race
        state = self._state(b)
        with b.if_then(b.icmp_unsigned("==", state, ll.Constant(state.type, None))):
            b.ret(no)
        base = b.ptrtoint(b.load(gpu.field(b, "shared", ctx)), I64)
        start = b.sub(b.add(address, b.mul(index, elem)), base)
        end = b.add(start, b.mul(lanes, elem))
        size = b.load(gpu.field(b, "shared_size", ctx))
        inside = b.and_(b.icmp_signed(">=", start, I64(0)), b.icmp_signed("<=", end, size))
        with b.if_then(b.not_(inside)):
            b.ret(no)  # outside the block's shared memory: --memcheck's business
        t = self._thread(b, ctx)
        me = b.trunc(b.add(t, I64(1)), I32)
        epoch = b.load(b.gep(b.load(self._at(b, state, 2)), [t]))
        shadow = b.load(self._at(b, state, 0))
        writes = b.icmp_unsigned("!=", store, I32(0))
        other, other_site, other_wrote, at = b.alloca(I32), b.alloca(CHARP), b.alloca(I1), b.alloca(I64)
        b.store(I32(0), other)

        def visit(b, k):
            entry = b.gep(shadow, [k])

            def field(n):
                return b.gep(entry, [I32(0), I32(n)], inbounds=True)

            def live(first):  # this slot holds another thread's access of this epoch
                who = b.load(field(first))
                same_epoch = b.icmp_unsigned("==", b.load(field(first + 1)), epoch)
                return who, b.and_(b.and_(b.icmp_unsigned("!=", who, I32(0)), same_epoch),
                                   b.icmp_unsigned("!=", who, me))

            def conflict(first, wrote):
                who, hit = live(first)
                with b.if_then(b.and_(hit, b.icmp_unsigned("==", b.load(other), I32(0)))):
                    b.store(who, other)
                    b.store(b.load(field(first + 2)), other_site)
                    b.store(ll.Constant(I1, wrote), other_wrote)
                    b.store(k, at)

            def record(first):
                b.store(me, field(first))
                b.store(epoch, field(first + 1))
                b.store(site, field(first + 2))

            with b.if_then(b.icmp_unsigned("==", b.load(other), I32(0))):
                conflict(WRITER, True)
                with b.if_else(writes) as (write, read):
                    with write:
                        conflict(FIRST_READER, False)
                        conflict(SECOND_READER, False)
                        record(WRITER)
                    with read:
                        # Keep two readers of this epoch: a later writer races with any but itself.
                        first = b.load(field(FIRST_READER))
                        first_here = b.and_(b.icmp_unsigned("!=", first, I32(0)),
                                            b.icmp_unsigned("==", b.load(field(FIRST_READER + 1)), epoch))
                        with b.if_else(b.not_(first_here)) as (empty, taken):
                            with empty:
                                record(FIRST_READER)
                            with taken, b.if_then(b.icmp_unsigned("!=", first, me)):
                                record(SECOND_READER)

        counted_loop(b, start, end, visit)
        with b.if_then(b.icmp_unsigned("==", b.load(other), I32(0)), likely=True):
            b.ret(no)
        self._report(b, ctx, t, b.load(other), b.load(other_site), b.load(other_wrote), b.load(at), elem,
                     writes, site, func, file, line)
        b.ret(ll.Constant(I1, 1))
        return fn

    def _report(self, b, ctx, t, other, other_site, other_wrote, at, elem, writes, site, func, file, line):
        rt, gpu = self.rt, self.gpu
        # The array holding byte `at`: the last one starting at or before it.
        offset, name = b.alloca(I64), b.alloca(CHARP)
        b.store(I64(0), offset)
        b.store(rt.cstr(b, "?"), name)

        def look(b, k):
            row = b.gep(self.table, [I32(0), k], inbounds=True)
            o = b.load(b.gep(row, [I32(0), I32(0)], inbounds=True))
            with b.if_then(b.icmp_unsigned("<=", o, at)):
                b.store(o, offset)
                b.store(b.load(b.gep(row, [I32(0), I32(1)], inbounds=True)), name)

        counted_loop(b, 0, I64(self.table_size), look)
        element = b.udiv(b.sub(at, b.load(offset)), elem)
        bx, by = (b.load(b.gep(gpu.field(b, "idx", ctx), [I32(0), I32(k)], inbounds=True)) for k in (6, 7))

        def coords(linear):
            return [b.urem(linear, bx), b.urem(b.udiv(linear, bx), by), b.udiv(linear, b.mul(bx, by))]

        def verb(wrote):
            return b.select(wrote, rt.cstr(b, "wrote"), rt.cstr(b, "read"))

        block = [b.load(b.gep(gpu.field(b, "idx", ctx), [I32(0), I32(k)], inbounds=True)) for k in (3, 4, 5)]
        text = b.call(rt.libc("malloc"), [I64(MESSAGE_BYTES)])  # kept by the exception
        earlier = b.sub(b.zext(other, I64), I64(1))
        b.call(rt.libc("snprintf"), [
            text, I64(MESSAGE_BYTES),
            rt.cstr(b, "race in kernel %s on shared array %s[%lld]: thread (%lld, %lld, %lld) %s it at %s and "
                       "thread (%lld, %lld, %lld) %s it at %s, in block (%lld, %lld, %lld), with no barrier() between"),
            b.load(gpu.field(b, "kernel", ctx)), b.load(name), element, *coords(earlier), verb(other_wrote),
            other_site, *coords(t), verb(writes), site, *block])
        b.call(rt.raise_, [rt.cstr(b, "RuntimeError"), text, func, file, line])

    def op(self, cg, i: ir.Intrinsic, variant: str, args):
        """`racecheck` (an access) and `racecheck.barrier` in a function being generated."""
        b = cg.b
        if variant == "barrier":
            b.call(self.barrier_fn, [])
            return None
        ptr = i.args[0]
        pty = cg.mg.llvm_type(ptr.type)
        elem_bytes = b.ptrtoint(b.gep(ll.Constant(pty, None), [I32(1)]), I64)
        span = i.span
        where = f"{os.path.basename(span.file.name)}:{span.line}" if span is not None else "?"
        assert isinstance(ptr.type, T.PtrType)
        return b.call(self.check, [
            b.ptrtoint(args[0], I64), args[1], elem_bytes, args[2], b.zext(args[3], I32), self.rt.cstr(b, where),
            self.rt.cstr(b, cg.f.name), self.rt.cstr(b, cg.f.file), I32(span.line if span is not None else 0)])
