"""GPU kernels on the CPU, with the GPU's semantics.

A launch spreads its blocks over the thread pool (parallel.py): each pool thread runs a
range of blocks, one after another. A kernel whose only synchronization is `barrier()` in its
own body runs each block as loops over its threads (its `$regions` companion, ir/gpu_regions.py;
`__pyx_gpu_region_blocks`). Otherwise the threads of a block are cooperative contexts (made by
makecontext, switched with _setjmp/longjmp), each with its own stack, resumed round-robin by a
scheduler on one OS thread: `barrier()` switches back to it, so every thread reaches the barrier
before any passes it. Both follow the same census after each round (`__pyx_gpu_settle`).
Shared memory is one zeroed buffer per block. Blocks on different cores run at the same
time, so atomics are real atomic instructions. The scheduler's state lives in a `GpuCtx`
per OS thread, found through a pthread key (MCJIT cannot relocate thread-local globals).
A thread that raises marks its block failed; the pool then stops handing out blocks, and
the launch raises the exception of the earliest range of blocks that failed.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import CHARP, I1, I8, I32, I64, VOID, counted_loop

# ucontext_t's size, alignment and the offsets of uc_link, uc_stack.ss_sp and uc_stack.ss_size
# are the target's PlatformFacts (platform_facts.py): aarch64's is 4560 bytes, aligned to 16.
STACK_BYTES = 256 * 1024
THUNK = ll.FunctionType(I1, [CHARP])  # bool thunk(args): unpack and call the kernel; true if it raised


RUNNABLE, AT_BARRIER, AT_WARP, DONE = 0, 1, 2, 3  # a thread's state, one byte each
SETTLE_ENDED, SETTLE_RELEASED, SETTLE_STUCK = 0, 1, 2  # what __pyx_gpu_settle finds after a round
# How a launch runs a block (`__pyx_gpu_launch`'s `mode`): one coroutine per thread; each thread as
# a plain call (a kernel that never synchronizes); the kernel's `$regions` companion, which loops
# over the block's threads itself (ir/gpu_regions.py).
COROUTINES, DIRECT, REGIONS = 0, 1, 2


# The scheduler's state, one per OS thread running blocks.
# `sites`: per thread, where it waits (a C string naming the operation and its source line);
# `kernel`: the launched kernel's name (both for the deadlock report).
# The thread loops' (REGIONS): `resume`, per thread, the point where it goes on; `frames`, the
# per-thread arrays that keep variables across barriers, `frames_size` bytes; `round_site`, the
# barrier the round's first waiting thread waits at (null: none yet), `round_apart`, whether
# another waits elsewhere.
# The coroutines switch with _setjmp/longjmp (no signal mask saved, unlike swapcontext's system
# call): `sched_jb`, the scheduler's jmp_buf; `jbs`, one per thread (JB_STRIDE bytes apart);
# `started`, per thread, whether it has been entered (the first entry is a setcontext).
FIELDS = ("idx", "shared", "sched", "ctxs", "state", "slots", "nthreads", "cur", "thunk", "args", "failed",
          "shared_size", "sites", "kernel", "resume", "frames", "frames_size", "round_site", "round_apart",
          "sched_jb", "jbs", "started")
def ucontext_type(facts) -> ll.ArrayType:
    """A `ucontext_t`: its size, in units of its alignment, so a struct field of it is aligned."""
    return ll.ArrayType(ll.IntType(8 * facts.ucontext_align), -(-facts.ucontext_bytes // facts.ucontext_align))


def jmp_buf_type(facts) -> ll.ArrayType:
    return ll.ArrayType(ll.IntType(8 * facts.jmp_buf_align), -(-facts.jmp_buf_bytes // facts.jmp_buf_align))


def gpu_ctx_type(facts) -> ll.LiteralStructType:
    return ll.LiteralStructType([ll.ArrayType(I64, 12), CHARP, ucontext_type(facts), CHARP, CHARP,
                                 I64.as_pointer(), I64, I64, THUNK.as_pointer(), CHARP, I32, I64,
                                 CHARP.as_pointer(), CHARP, I64.as_pointer(), CHARP, I64, CHARP, I64,
                                 jmp_buf_type(facts), CHARP, CHARP])


# A launch's parameters, as the pool hands them to each range of blocks: thunk, args, grid, block,
# shared bytes, the kernel's name.
LAUNCH = ll.LiteralStructType([THUNK.as_pointer(), CHARP] + [I64] * 7 + [CHARP])
MAX_PIECES = 256


class CpuGpuRuntime:
    def __init__(self, rt, pool):
        self.rt = rt
        self.pool = pool
        facts = rt.facts
        self.ctx_type = gpu_ctx_type(facts)
        self.uc_bytes = ucontext_type(facts).count * facts.ucontext_align  # a multiple of the alignment
        self.uc_link, self.uc_stack_sp, self.uc_stack_size = \
            facts.uc_link_offset, facts.uc_stack_sp_offset, facts.uc_stack_size_offset
        self.key = rt._global("__pyx_gpu_key", I32, I32(0))
        self.once = once = rt._global("__pyx_gpu_once", I32, I32(0))
        self.make_key = make = rt._function("__pyx_gpu_make_key", VOID, [])[0]
        mb = ll.IRBuilder(make.entry_basic_block)
        destructor = ll.FunctionType(VOID, [CHARP]).as_pointer()  # as runtime_lib declares it
        mb.call(rt.libc("pthread_key_create"),
                [self.key, ll.Constant(destructor, None)])
        mb.ret_void()
        # The calling OS thread's context. Constant while a block runs (its coroutines share the
        # OS thread), so it is declared free of side effects and LLVM may reuse one lookup.
        ctx_fn, b = rt._function("__pyx_gpu_ctx", self.ctx_type.as_pointer(), [])
        b.call(rt.libc("pthread_once"), [once, make])
        b.ret(b.bitcast(b.call(rt.libc("pthread_getspecific"), [b.load(self.key)]),
                        self.ctx_type.as_pointer()))
        ctx_fn.attributes.add("nounwind")
        ctx_fn.attributes.add("readnone")
        self.ctx_fn = ctx_fn
        self.swap = rt.libc("swapcontext")
        self.jb_stride = -(-facts.jmp_buf_bytes // 16) * 16
        self.setjmp = rt.libc("_setjmp")
        self.setjmp.attributes.add("returns_twice")
        self.longjmp = rt.libc("longjmp")
        self.longjmp.attributes.add("noreturn")
        self._entry = self._define_thread_entry()
        self.barrier_fn = self._define_wait("__pyx_gpu_barrier", AT_BARRIER)
        self.warp_sync_fn = self._define_wait("__pyx_gpu_warp_sync", AT_WARP)
        self.deadlock_fn = self._define_deadlock()
        self.settle_fn = self._define_settle()
        self.blocks_fn = self._define_blocks()
        self.direct_blocks_fn = self._define_direct_blocks()
        self.region_blocks_fn = self._define_region_blocks()
        self.frames_fn = self._define_frames()
        self.release_fn = self._define_region_release()
        self.launch_fn = self._define_launch()

    def field(self, b: ll.IRBuilder, name: str, ctx=None) -> ll.Value:
        """The address of field `name` of this OS thread's context (or of `ctx`)."""
        ctx = ctx if ctx is not None else b.call(self.ctx_fn, [])
        return b.gep(ctx, [I32(0), I32(FIELDS.index(name))], inbounds=True)

    def block_started(self, b: ll.IRBuilder, ctx) -> None:
        """A block begins, its shared memory just zeroed: `--racecheck` forgets the accesses of the
        block before (codegen/racecheck.py declares its hook before this runtime is made)."""
        from .racecheck import BLOCK_HOOK

        hook = self.rt.module.globals.get(BLOCK_HOOK)
        if hook is not None:
            b.call(hook, [b.bitcast(ctx, CHARP)])

    def index(self, b: ll.IRBuilder, slot: int) -> ll.Value:
        return b.load(b.gep(self.field(b, "idx"), [I32(0), I32(slot)], inbounds=True))

    def _define_thread_entry(self):
        fn, b = self.rt._function("__pyx_gpu_thread", VOID, [])
        ctx = b.call(self.ctx_fn, [])
        t = b.load(self.field(b, "cur", ctx))
        failed = b.call(b.load(self.field(b, "thunk", ctx)), [b.load(self.field(b, "args", ctx))])
        with b.if_then(failed):
            b.store(I32(1), self.field(b, "failed", ctx))
        b.store(I8(DONE), b.gep(b.load(self.field(b, "state", ctx)), [t]))
        self.to_scheduler(b, ctx)
        return fn

    def to_scheduler(self, b: ll.IRBuilder, ctx) -> None:
        """Jump back into the scheduler, where it last resumed a thread (ends the block)."""
        b.call(self.longjmp, [b.bitcast(self.field(b, "sched_jb", ctx), CHARP), I32(1)])
        b.unreachable()

    def site(self, b: ll.IRBuilder, what: str, span) -> ll.Value:
        """The `site` argument of a wait: what the thread waits at and where, for the deadlock report
        (one constant string per source position, so two waits compare equal where they are the same
        operation in the source)."""
        import os

        where = f"{os.path.basename(span.file.name)}:{span.line}" if span is not None else "?"
        return self.rt.cstr(b, f"{what} at {where}")

    def _define_wait(self, name: str, state: int):
        """`wait(site)`: mark this thread waiting (at a barrier, or at a warp operation) at `site` and
        switch to the scheduler; it resumes once every live thread of the block (or lane of the warp)
        waits there too (at a barrier: the same barrier)."""
        fn, b = self.rt._function(name, VOID, [CHARP])
        ctx = b.call(self.ctx_fn, [])
        t = b.load(self.field(b, "cur", ctx))
        b.store(I8(state), b.gep(b.load(self.field(b, "state", ctx)), [t]))
        b.store(fn.args[0], b.gep(b.load(self.field(b, "sites", ctx)), [t]))
        me = b.gep(b.load(self.field(b, "jbs", ctx)), [b.mul(t, I64(self.jb_stride))])
        resumed = b.icmp_signed("!=", b.call(self.setjmp, [me]), I32(0))
        with b.if_then(b.not_(resumed)):
            self.to_scheduler(b, ctx)
        b.ret_void()
        return fn

    def _define_deadlock(self):
        """`void __pyx_gpu_deadlock(ctx)`: raise RuntimeError for a block whose live threads all wait and
        none may go on, naming the kernel, the block, and two threads that wait at different places
        (the first waiting thread, and the first that waits elsewhere)."""
        from .. import types as T
        from .c_library import call_variadic

        rt = self.rt
        fn, b = rt._function("__pyx_gpu_deadlock", VOID, [CHARP])
        fn.attributes.add("noinline")
        fn.attributes.add("cold")
        ctx = b.bitcast(fn.args[0], self.ctx_type.as_pointer())
        n = b.load(self.field(b, "nthreads", ctx))
        state = b.load(self.field(b, "state", ctx))
        sites = b.load(self.field(b, "sites", ctx))
        first, other = b.alloca(I64), b.alloca(I64)
        b.store(I64(-1), first)
        b.store(I64(-1), other)

        def look(b, t):
            waits = b.icmp_unsigned("!=", b.load(b.gep(state, [t])), I8(DONE))
            with b.if_then(waits):
                f = b.load(first)
                none_yet = b.icmp_signed("<", f, I64(0))
                with b.if_else(none_yet) as (then, otherwise):
                    with then:
                        b.store(t, first)
                    with otherwise:
                        elsewhere = b.icmp_unsigned("!=", b.load(b.gep(sites, [t])), b.load(b.gep(sites, [f])))
                        with b.if_then(b.and_(elsewhere, b.icmp_signed("<", b.load(other), I64(0)))):
                            b.store(t, other)

        counted_loop(b, 0, n, look)
        t0 = b.load(first)
        t1 = b.select(b.icmp_signed("<", b.load(other), I64(0)), t0, b.load(other))

        def idx(k):
            return b.load(b.gep(self.field(b, "idx", ctx), [I32(0), I32(k)], inbounds=True))

        bx, by = idx(6), idx(7)

        def coords(t):
            return [b.urem(t, bx), b.urem(b.udiv(t, bx), by), b.udiv(t, b.mul(bx, by))]

        size = 1024
        with b.goto_entry_block():
            buffer = b.alloca(ll.ArrayType(I8, size))
        text = b.gep(buffer, [I32(0), I32(0)])
        form = rt.cstr(b, "deadlock in kernel %s: in block (%lld, %lld, %lld), thread (%lld, %lld, %lld) waits at %s "
                          "and thread (%lld, %lld, %lld) at %s")
        values = [b.load(self.field(b, "kernel", ctx)), idx(3), idx(4), idx(5), *coords(t0),
                  b.load(b.gep(sites, [t0])), *coords(t1), b.load(b.gep(sites, [t1]))]
        types = [T.STRING_LITERAL] * 3 + [T.STRING_LITERAL] + [T.INT] * 6 + [T.STRING_LITERAL] + [T.INT] * 3 \
            + [T.STRING_LITERAL]
        length = call_variadic(b, "snprintf", I32, [text, I64(size), form, *values], types, rt.module)
        length = b.select(b.icmp_signed("<", length, I32(size)), length, I32(size - 1))
        b.call(rt.raise_text, [rt.cstr(b, "RuntimeError"), text, b.sext(length, I64), rt.cstr(b, "launch"),
                               rt.cstr(b, "<gpu>"), I32(-1)])
        b.ret_void()
        return fn

    def _define_settle(self):
        """`int32 __pyx_gpu_settle(ctx)`, the census after a round, once every thread that could run
        has run until it waits or ends: release a warp whose live lanes all wait at a warp operation,
        else the block when every live thread waits at the same barrier. 1 (SETTLE_RELEASED): some
        threads may go on; 0 (SETTLE_ENDED): every thread has ended; 2 (SETTLE_STUCK): live threads
        wait and none may go on (a deadlock). Shared by the coroutines and the thread loops."""
        fn, b = self.rt._function("__pyx_gpu_settle", I32, [CHARP])
        ctx = b.bitcast(fn.args[0], self.ctx_type.as_pointer())

        def field(name):
            return self.field(b, name, ctx)

        n = b.load(field("nthreads"))
        state = b.load(field("state"))
        sites = b.bitcast(b.load(field("sites")), CHARP)

        def state_of(b, t):
            return b.gep(state, [t])

        released = b.alloca(I1)
        b.store(ll.Constant(I1, 0), released)
        live = b.alloca(I64)
        b.store(I64(0), live)
        at_barrier = b.alloca(I64)
        b.store(I64(0), at_barrier)
        # Threads waiting at different barriers (two `barrier()` calls in the source) do not meet:
        # on a GPU the block hangs, or goes on with its shared memory half written.
        first_site, apart = b.alloca(CHARP), b.alloca(I1)
        b.store(ll.Constant(CHARP, None), first_site)
        b.store(ll.Constant(I1, 0), apart)
        sites_of = b.bitcast(sites, CHARP.as_pointer())

        def census(b, t):
            st = b.load(state_of(b, t))
            b.store(b.add(b.load(live), b.zext(b.icmp_unsigned("!=", st, I8(DONE)), I64)), live)
            waiting = b.icmp_unsigned("==", st, I8(AT_BARRIER))
            b.store(b.add(b.load(at_barrier), b.zext(waiting, I64)), at_barrier)
            with b.if_then(waiting):
                site = b.load(b.gep(sites_of, [t]))
                first = b.load(first_site)
                is_first = b.icmp_unsigned("==", first, ll.Constant(CHARP, None))
                b.store(b.select(is_first, site, first), first_site)
                differs = b.and_(b.not_(is_first), b.icmp_unsigned("!=", first, site))
                b.store(b.or_(b.load(apart), differs), apart)

        counted_loop(b, 0, n, census)

        def warp(b, base):
            # A warp goes on when every live lane waits at a warp operation.
            end = b.select(b.icmp_signed("<", b.add(base, I64(32)), n), b.add(base, I64(32)), n)
            waiting, blocked = b.alloca(I64), b.alloca(I1)
            b.store(I64(0), waiting)
            b.store(ll.Constant(I1, 0), blocked)

            def look(b, t):
                st = b.load(state_of(b, t))
                b.store(b.add(b.load(waiting), b.zext(b.icmp_unsigned("==", st, I8(AT_WARP)), I64)), waiting)
                other = b.and_(b.icmp_unsigned("!=", st, I8(AT_WARP)), b.icmp_unsigned("!=", st, I8(DONE)))
                b.store(b.or_(b.load(blocked), other), blocked)

            counted_loop(b, base, end, look)
            ready = b.and_(b.icmp_signed(">", b.load(waiting), I64(0)), b.not_(b.load(blocked)))
            with b.if_then(ready):
                def release(b, t):
                    st = state_of(b, t)
                    with b.if_then(b.icmp_unsigned("==", b.load(st), I8(AT_WARP))):
                        b.store(I8(RUNNABLE), st)
                counted_loop(b, base, end, release)
                b.store(ll.Constant(I1, 1), released)

        counted_loop(b, 0, n, warp, stride=32)
        # The block goes on from a barrier when every live thread waits at one.
        everyone = b.and_(b.and_(b.icmp_signed(">", b.load(live), I64(0)),
                                 b.icmp_unsigned("==", b.load(at_barrier), b.load(live))), b.not_(b.load(apart)))
        with b.if_then(b.and_(everyone, b.not_(b.load(released)))):
            def release_all(b, t):
                st = state_of(b, t)
                with b.if_then(b.icmp_unsigned("==", b.load(st), I8(AT_BARRIER))):
                    b.store(I8(RUNNABLE), st)
            counted_loop(b, 0, n, release_all)
            b.store(ll.Constant(I1, 1), released)
        ended = b.icmp_signed("==", b.load(live), I64(0))
        b.ret(b.select(b.load(released), I32(SETTLE_RELEASED),
                       b.select(ended, I32(SETTLE_ENDED), I32(SETTLE_STUCK))))
        return fn

    def _define_launch(self):
        """`int32 __pyx_gpu_launch(thunk, args, gx, gy, gz, bx, by, bz, shared_bytes, mode, name)`: 1 if
        a thread raised. `mode`: COROUTINES; DIRECT, the kernel never waits for other threads (no
        barrier, no warp operation, in it or what it calls), so its threads run as plain calls; REGIONS,
        the thunk runs a whole block (the kernel's `$regions` companion). `name`: the kernel's, for a
        deadlock's report."""
        fn, b = self.rt._function("__pyx_gpu_launch", I32, [THUNK.as_pointer(), CHARP] + [I64] * 8 + [CHARP])
        launch = b.alloca(LAUNCH)
        for k, value in enumerate(fn.args[:9]):
            b.store(value, b.gep(launch, [I32(0), I32(k)]))
        b.store(fn.args[10], b.gep(launch, [I32(0), I32(9)]))
        gx, gy, gz = fn.args[2:5]
        blocks = b.mul(b.mul(gx, gy), gz)
        pieces = b.select(b.icmp_signed("<", blocks, I64(MAX_PIECES)), blocks, I64(MAX_PIECES))
        mode = fn.args[9]
        piece = b.select(b.icmp_signed("==", mode, I64(DIRECT)), self.direct_blocks_fn,
                         b.select(b.icmp_signed("==", mode, I64(REGIONS)), self.region_blocks_fn, self.blocks_fn))
        b.ret(b.call(self.pool.parallel_for, [piece, b.bitcast(launch, CHARP), blocks, pieces]))
        return fn

    def _piece_function(self, name: str):
        """A pool piece over blocks [lo, hi): the function, its builder, (lo, hi), the launch's
        ten parameters, and a fresh context installed for this OS thread (ctx, its raw pointer,
        and the previous one, to put back)."""
        from .parallel import PIECE

        rt = self.rt
        fn = ll.Function(rt.module, PIECE, name)
        fn.linkage = "internal"
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        packed, lo, hi, _ = fn.args
        launch = b.bitcast(packed, LAUNCH.as_pointer())
        params = tuple(b.load(b.gep(launch, [I32(0), I32(k)])) for k in range(10))
        # Not through __pyx_gpu_ctx: that one is declared free of side effects, and LLVM could
        # then move this read past the setspecific below.
        b.call(rt.libc("pthread_once"), [self.once, self.make_key])
        previous = b.call(rt.libc("pthread_getspecific"), [b.load(self.key)])
        malloc = rt.libc("malloc")
        ctx_raw = b.call(malloc, [b.ptrtoint(b.gep(ll.Constant(self.ctx_type.as_pointer(), None), [I32(1)]), I64)])
        b.call(rt.libc("pthread_setspecific"), [b.load(self.key), ctx_raw])
        return fn, b, (lo, hi), params, (b.bitcast(ctx_raw, self.ctx_type.as_pointer()), ctx_raw, previous)

    def _define_direct_blocks(self):
        """`bool __pyx_gpu_direct_blocks(launch, lo, hi, piece)`: blocks [lo, hi) of a kernel that
        never synchronizes, each thread a call in turn (the order a GPU may also choose)."""
        fn, b, (lo, hi), launch, (ctx, ctx_raw, previous) = self._piece_function("__pyx_gpu_direct_blocks")
        thunk, args, gx, gy, gz, bx, by, bz, shared_bytes, kernel_name = launch
        rt = self.rt
        malloc, free = rt.libc("malloc"), rt.libc("free")
        memset = rt.libc("memset")
        setspecific = rt.libc("pthread_setspecific")
        b.store(kernel_name, self.field(b, "kernel", ctx))
        failed = self.field(b, "failed", ctx)
        b.store(I32(0), failed)
        n = b.mul(b.mul(bx, by), bz)
        b.store(n, self.field(b, "nthreads", ctx))
        shared = b.call(malloc, [b.add(shared_bytes, I64(16))])
        b.store(shared, self.field(b, "shared", ctx))
        b.store(shared_bytes, self.field(b, "shared_size", ctx))
        idx = self.field(b, "idx", ctx)

        def slot(k):
            return b.gep(idx, [I32(0), I32(k)], inbounds=True)

        for k, value in zip(range(6, 12), (bx, by, bz, gx, gy, gz)):
            b.store(value, slot(k))
        counter_block, counter_thread = b.alloca(I64), b.alloca(I64)
        b.store(lo, counter_block)
        block_head, block_body, thread_head, thread_body, block_next, done = (
            fn.append_basic_block(x) for x in ("block", "block.run", "thread", "thread.run", "block.next", "done"))
        b.branch(block_head)
        b.position_at_end(block_head)
        linear = b.load(counter_block)
        more = b.and_(b.icmp_signed("<", linear, hi), b.icmp_unsigned("==", b.load(failed), I32(0)))
        b.cbranch(more, block_body, done)
        b.position_at_end(block_body)
        b.store(b.urem(linear, gx), slot(3))
        b.store(b.urem(b.udiv(linear, gx), gy), slot(4))
        b.store(b.udiv(linear, b.mul(gx, gy)), slot(5))
        b.call(memset, [shared, I32(0), b.add(shared_bytes, I64(16))])
        self.block_started(b, ctx)
        b.store(I64(0), counter_thread)
        b.branch(thread_head)
        b.position_at_end(thread_head)
        t = b.load(counter_thread)
        # The block's first thread to raise ends it, so its exception is the one the launch raises.
        go_on = b.and_(b.icmp_signed("<", t, n), b.icmp_unsigned("==", b.load(failed), I32(0)))
        b.cbranch(go_on, thread_body, block_next)
        b.position_at_end(thread_body)
        b.store(t, self.field(b, "cur", ctx))
        b.store(b.urem(t, bx), slot(0))
        b.store(b.urem(b.udiv(t, bx), by), slot(1))
        b.store(b.udiv(t, b.mul(bx, by)), slot(2))
        with b.if_then(b.call(thunk, [args])):
            b.store(I32(1), failed)
        b.store(b.add(t, I64(1)), counter_thread)
        b.branch(thread_head)
        b.position_at_end(block_next)
        b.store(b.add(linear, I64(1)), counter_block)
        b.branch(block_head)
        b.position_at_end(done)
        result = b.icmp_unsigned("!=", b.load(failed), I32(0))
        b.call(free, [shared])
        b.call(setspecific, [b.load(self.key), previous])
        b.call(free, [ctx_raw])
        b.ret(result)
        return fn

    def _define_region_blocks(self):
        """`bool __pyx_gpu_region_blocks(launch, lo, hi, piece)`: blocks [lo, hi) of a kernel split at
        its barriers, one call of its `$regions` companion (the thunk) per block, which runs rounds
        over the block's threads until the census finds nothing to release; live threads left then
        wait at different barriers (a deadlock, reported as the coroutines report it)."""
        fn, b, (lo, hi), launch, (ctx, ctx_raw, previous) = self._piece_function("__pyx_gpu_region_blocks")
        thunk, args, gx, gy, gz, bx, by, bz, shared_bytes, kernel_name = launch
        rt = self.rt
        malloc, free, memset = rt.libc("malloc"), rt.libc("free"), rt.libc("memset")

        def field(name):
            return self.field(b, name, ctx)

        failed = field("failed")
        b.store(I32(0), failed)
        n = b.mul(b.mul(bx, by), bz)
        b.store(n, field("nthreads"))
        state = b.call(malloc, [n])
        resume = b.call(malloc, [b.mul(n, I64(8))])
        sites = b.call(malloc, [b.mul(n, I64(8))])
        shared = b.call(malloc, [b.add(shared_bytes, I64(16))])
        b.store(b.bitcast(sites, CHARP.as_pointer()), field("sites"))
        b.store(kernel_name, field("kernel"))
        b.store(state, field("state"))
        b.store(b.bitcast(resume, I64.as_pointer()), field("resume"))
        b.store(shared, field("shared"))
        b.store(shared_bytes, field("shared_size"))
        b.store(ll.Constant(CHARP, None), field("frames"))
        b.store(I64(0), field("frames_size"))
        for slot, value in zip(range(6, 12), (bx, by, bz, gx, gy, gz)):
            b.store(value, b.gep(field("idx"), [I32(0), I32(slot)], inbounds=True))
        stop = fn.append_basic_block("stop")

        def one_block(b, block_linear):
            run, skip = fn.append_basic_block("block"), fn.append_basic_block("block.skip")
            b.cbranch(b.icmp_unsigned("!=", b.load(failed), I32(0)), skip, run)
            b.position_at_end(run)
            b.store(b.urem(block_linear, gx), b.gep(field("idx"), [I32(0), I32(3)], inbounds=True))
            b.store(b.urem(b.udiv(block_linear, gx), gy), b.gep(field("idx"), [I32(0), I32(4)], inbounds=True))
            b.store(b.udiv(block_linear, b.mul(gx, gy)), b.gep(field("idx"), [I32(0), I32(5)], inbounds=True))
            b.call(memset, [shared, I32(0), b.add(shared_bytes, I64(16))])
            self.block_started(b, ctx)
            b.call(memset, [state, I32(RUNNABLE), n])
            b.call(memset, [resume, I32(0), b.mul(n, I64(8))])  # every thread starts at the entry
            b.store(ll.Constant(CHARP, None), field("round_site"))
            b.store(I64(0), field("round_apart"))
            with b.if_else(b.call(thunk, [args])) as (raised, returned):
                with raised:
                    b.store(I32(1), failed)
                with returned:
                    code = b.call(self.settle_fn, [ctx_raw])  # nothing released: it only looks
                    stuck = fn.append_basic_block("stuck")
                    went_on = fn.append_basic_block("went_on")
                    b.cbranch(b.icmp_unsigned("==", code, I32(SETTLE_ENDED)), went_on, stuck)
                    b.position_at_end(stuck)
                    b.branch(stop)
                    b.position_at_end(went_on)
            b.branch(skip)
            b.position_at_end(skip)

        def leave(b):
            for p in (state, resume, sites, shared):
                b.call(free, [p])
            b.call(free, [b.load(field("frames"))])
            b.call(rt.libc("pthread_setspecific"), [b.load(self.key), previous])
            b.call(free, [ctx_raw])

        counted_loop(b, lo, hi, one_block)
        result = b.icmp_unsigned("!=", b.load(failed), I32(0))
        leave(b)
        b.ret(result)
        b.position_at_end(stop)
        b.call(self.deadlock_fn, [ctx_raw])
        leave(b)
        b.ret(ll.Constant(I1, 1))
        return fn

    def _define_region_release(self):
        """`bool __pyx_gpu_region_release(ctx)`, after a round of a `$regions` companion: true when the
        block goes on (its barrier released). Every thread runnable at the start of a round runs until it
        waits or ends, and a release frees every waiting thread, so after a round every live thread
        waits at a barrier: the block goes on when some thread waited and all waited at the same one,
        which the round noted as they came (`round_site`, `round_apart`). Otherwise every thread has
        ended, or they wait apart, and __pyx_gpu_settle's census says which."""
        fn, b = self.rt._function("__pyx_gpu_region_release", I1, [CHARP])
        ctx = b.bitcast(fn.args[0], self.ctx_type.as_pointer())
        site_field, apart_field = self.field(b, "round_site", ctx), self.field(b, "round_apart", ctx)
        site, apart = b.load(site_field), b.load(apart_field)
        b.store(ll.Constant(CHARP, None), site_field)
        b.store(I64(0), apart_field)
        go_on = b.and_(b.icmp_unsigned("!=", site, ll.Constant(CHARP, None)), b.icmp_unsigned("==", apart, I64(0)))
        with b.if_then(go_on):
            state = b.load(self.field(b, "state", ctx))

            def release(b, t):
                st = b.gep(state, [t])
                b.store(b.select(b.icmp_unsigned("==", b.load(st), I8(DONE)), I8(DONE), I8(RUNNABLE)), st)

            counted_loop(b, 0, b.load(self.field(b, "nthreads", ctx)), release)
        b.ret(go_on)
        return fn

    def _define_frames(self):
        """`i8* __pyx_gpu_frames(bytes)`: this OS thread's buffer for the per-thread arrays of a
        `$regions` companion, at least `bytes` long and 64-byte aligned (a SIMD value's alignment may
        exceed malloc's), kept from block to block and freed with the piece."""
        fn, b = self.rt._function("__pyx_gpu_frames", CHARP, [I64])
        ctx = b.call(self.ctx_fn, [])
        have = self.field(b, "frames_size", ctx)
        frames = self.field(b, "frames", ctx)
        with b.if_then(b.icmp_unsigned("<", b.load(have), fn.args[0])):
            b.call(self.rt.libc("free"), [b.load(frames)])
            b.store(b.call(self.rt.libc("malloc"), [b.add(fn.args[0], I64(64))]), frames)
            b.store(fn.args[0], have)
        raw = b.ptrtoint(b.load(frames), I64)
        b.ret(b.inttoptr(b.and_(b.add(raw, I64(63)), I64(-64)), CHARP))
        return fn

    def region_op(self, cg, i, variant: str, args):
        """The `gpu.region_*` operations of a `$regions` companion (ir/gpu_regions.py)."""
        b = cg.b
        ctx = b.call(self.ctx_fn, [])
        if variant == "threads":
            return b.load(self.field(b, "nthreads", ctx))
        if variant == "enter":
            # Threads are entered in order 0, 1, ... each round: step the indices instead of dividing.
            t = args[0]
            idx = self.field(b, "idx", ctx)
            slots = [b.gep(idx, [I32(0), I32(k)], inbounds=True) for k in range(3)]
            x, y, z = (b.load(p) for p in slots)
            bx, by = (b.load(b.gep(idx, [I32(0), I32(k)], inbounds=True)) for k in (6, 7))
            first = b.icmp_unsigned("==", t, I64(0))
            x1 = b.add(x, I64(1))
            wrap_x = b.icmp_unsigned("==", x1, bx)
            y1 = b.add(y, b.zext(wrap_x, I64))
            wrap_y = b.icmp_unsigned("==", y1, by)
            z1 = b.add(z, b.zext(wrap_y, I64))
            zero = I64(0)
            b.store(b.select(first, zero, b.select(wrap_x, zero, x1)), slots[0])
            b.store(b.select(first, zero, b.select(wrap_y, zero, y1)), slots[1])
            b.store(b.select(first, zero, z1), slots[2])
            b.store(t, self.field(b, "cur", ctx))
            runnable = b.icmp_unsigned("==", b.load(b.gep(b.load(self.field(b, "state", ctx)), [t])), I8(RUNNABLE))
            where = b.load(b.gep(b.load(self.field(b, "resume", ctx)), [t]))
            return b.select(runnable, where, I64(-1))
        if variant == "wait":
            t = args[0]
            site = self.site(b, "barrier()", i.span)
            b.store(I8(AT_BARRIER), b.gep(b.load(self.field(b, "state", ctx)), [t]))
            b.store(site, b.gep(b.load(self.field(b, "sites", ctx)), [t]))
            first_field = self.field(b, "round_site", ctx)
            first = b.load(first_field)
            none_yet = b.icmp_unsigned("==", first, ll.Constant(CHARP, None))
            b.store(b.select(none_yet, site, first), first_field)
            elsewhere = b.zext(b.and_(b.not_(none_yet), b.icmp_unsigned("!=", first, site)), I64)
            apart = self.field(b, "round_apart", ctx)
            b.store(b.or_(b.load(apart), elsewhere), apart)
            b.store(I64(i.attrs["point"]), b.gep(b.load(self.field(b, "resume", ctx)), [t]))
            return None
        if variant == "done":
            b.store(I8(DONE), b.gep(b.load(self.field(b, "state", ctx)), [args[0]]))
            return None
        if variant == "settle":
            return b.call(self.release_fn, [b.bitcast(ctx, CHARP)])
        if variant == "spill":
            return self._spill_array(cg, i)
        if variant == "parallel":
            from .thread_loops import mark_parallel

            mark_parallel(cg, i.attrs["latches"].split())
            return None
        raise AssertionError(f"unknown region operation {variant}")

    def _spill_array(self, cg, i):
        """The per-thread array of spill slot `slot`: the companion's arrays lie one after another in
        this OS thread's frames buffer, each MAX_THREADS elements, 64-byte aligned. All of them are
        asked for in the companion's entry block, so the buffer is fetched once, by the first."""
        from ..ir.gpu_regions import MAX_THREADS

        layout = getattr(cg, "_region_frames", None)
        if layout is None:
            import llvmlite.binding as llvm

            target_data = llvm.create_target_data(cg.mg.module.data_layout or cg.mg.target.data_layout)
            offsets, total = {}, 0
            for instr in cg.f.blocks[0].instrs:
                if isinstance(instr, type(i)) and instr.name == "gpu.region_spill":
                    size = cg.mg.llvm_type(instr.result.type.pointee).get_abi_size(target_data)
                    offsets[instr.attrs["slot"]] = total
                    total += -(-size * MAX_THREADS // 64) * 64
            base = cg.b.call(self.frames_fn, [I64(total)])
            layout = cg._region_frames = (offsets, base)
        offsets, base = layout
        at = cg.b.gep(base, [I64(offsets[i.attrs["slot"]])])
        return cg.b.bitcast(at, cg.mg.llvm_type(i.result.type))

    def _define_blocks(self):
        """`bool __pyx_gpu_blocks(launch, lo, hi, piece)`: run blocks [lo, hi) of a launch on this OS
        thread, with a context of its own; true if a thread raised (the rest of the range is skipped)."""
        fn, b, (lo, hi), launch, (ctx, ctx_raw, previous) = self._piece_function("__pyx_gpu_blocks")
        thunk, args, gx, gy, gz, bx, by, bz, shared_bytes, kernel_name = launch
        rt = self.rt
        malloc, free = rt.libc("malloc"), rt.libc("free")
        memset = rt.libc("memset")
        getcontext = rt.libc("getcontext")
        makecontext = rt.libc("makecontext")
        setspecific = rt.libc("pthread_setspecific")

        def field(name):
            return self.field(b, name, ctx)

        b.store(thunk, field("thunk"))
        b.store(args, field("args"))
        b.store(I32(0), field("failed"))
        n = b.mul(b.mul(bx, by), bz)
        b.store(n, field("nthreads"))
        ctxs = b.call(malloc, [b.mul(n, I64(self.uc_bytes))])  # malloc's alignment is ucontext_t's
        stacks = b.call(malloc, [b.mul(n, I64(STACK_BYTES))])
        state = b.call(malloc, [n])
        slots = b.call(malloc, [b.mul(n, I64(8))])
        sites = b.call(malloc, [b.mul(n, I64(8))])
        shared = b.call(malloc, [b.add(shared_bytes, I64(16))])
        jbs = b.call(malloc, [b.mul(n, I64(self.jb_stride))])
        started = b.call(malloc, [n])
        b.store(jbs, field("jbs"))
        b.store(started, field("started"))
        b.store(b.bitcast(sites, CHARP.as_pointer()), field("sites"))
        b.store(kernel_name, field("kernel"))
        b.store(ctxs, field("ctxs"))
        b.store(state, field("state"))
        b.store(b.bitcast(slots, I64.as_pointer()), field("slots"))
        b.store(shared, field("shared"))
        b.store(shared_bytes, field("shared_size"))
        for slot, value in zip(range(6, 12), (bx, by, bz, gx, gy, gz)):
            b.store(value, b.gep(field("idx"), [I32(0), I32(slot)], inbounds=True))
        sched = b.bitcast(field("sched"), CHARP)
        stop = fn.append_basic_block("stop")  # a deadlock: leave the launch, reporting it

        def state_of(b, t):
            return b.gep(state, [t])

        def one_block(b, block_linear):
            b.store(b.urem(block_linear, gx), b.gep(field("idx"), [I32(0), I32(3)], inbounds=True))
            b.store(b.urem(b.udiv(block_linear, gx), gy), b.gep(field("idx"), [I32(0), I32(4)], inbounds=True))
            b.store(b.udiv(block_linear, b.mul(gx, gy)), b.gep(field("idx"), [I32(0), I32(5)], inbounds=True))
            b.call(memset, [shared, I32(0), b.add(shared_bytes, I64(16))])
            self.block_started(b, ctx)
            b.call(memset, [state, I32(RUNNABLE), n])
            b.call(memset, [started, I32(0), n])

            def prepare(b, t):
                ctx = b.gep(ctxs, [b.mul(t, I64(self.uc_bytes))])
                b.call(getcontext, [ctx])
                b.store(sched, b.bitcast(b.gep(ctx, [I64(self.uc_link)]), CHARP.as_pointer()))
                b.store(b.gep(stacks, [b.mul(t, I64(STACK_BYTES))]), b.bitcast(b.gep(ctx, [I64(self.uc_stack_sp)]),
                                                                             CHARP.as_pointer()))
                b.store(I64(STACK_BYTES), b.bitcast(b.gep(ctx, [I64(self.uc_stack_size)]), I64.as_pointer()))
                b.call(makecontext, [ctx, self._entry, I32(0)])

            counted_loop(b, 0, n, prepare)
            rounds, finished = fn.append_basic_block("round"), fn.append_basic_block("finished")
            b.branch(rounds)
            b.position_at_end(rounds)

            def resume(b, t):
                go, skip = fn.append_basic_block("resume"), fn.append_basic_block("skip")
                runnable = b.icmp_unsigned("==", b.load(state_of(b, t)), I8(RUNNABLE))
                # Once a thread has raised, the others stay where they are: its exception is the block's.
                b.cbranch(b.and_(runnable, b.icmp_unsigned("==", b.load(field("failed")), I32(0))), go, skip)
                b.position_at_end(go)
                b.store(t, field("cur"))
                b.store(b.urem(t, bx), b.gep(field("idx"), [I32(0), I32(0)], inbounds=True))
                b.store(b.urem(b.udiv(t, bx), by), b.gep(field("idx"), [I32(0), I32(1)], inbounds=True))
                b.store(b.udiv(t, b.mul(bx, by)), b.gep(field("idx"), [I32(0), I32(2)], inbounds=True))
                # The thread runs until it waits (longjmp back here, _setjmp giving 1) or ends.
                back = b.icmp_signed("!=", b.call(self.setjmp, [b.bitcast(field("sched_jb"), CHARP)]), I32(0))
                with b.if_then(b.not_(back)):
                    first = b.gep(started, [t])
                    with b.if_else(b.icmp_unsigned("==", b.load(first), I8(0))) as (enter, again):
                        with enter:  # its first run: the context makecontext prepared
                            b.store(I8(1), first)
                            b.call(rt.libc("setcontext", I32, [CHARP]),
                                   [b.gep(ctxs, [b.mul(t, I64(self.uc_bytes))])])
                        with again:
                            b.call(self.longjmp, [b.gep(jbs, [b.mul(t, I64(self.jb_stride))]), I32(1)])
                    b.unreachable()
                b.branch(skip)
                b.position_at_end(skip)

            # Run every runnable thread until it waits or ends; then release whoever may go on.
            counted_loop(b, 0, n, resume)
            settle = fn.append_basic_block("settle")
            b.cbranch(b.icmp_unsigned("!=", b.load(field("failed")), I32(0)), finished, settle)
            b.position_at_end(settle)
            code = b.call(self.settle_fn, [b.bitcast(ctx, CHARP)])
            more, check = fn.append_basic_block("more"), fn.append_basic_block("check")
            b.cbranch(b.icmp_unsigned("==", code, I32(SETTLE_RELEASED)), rounds, check)
            b.position_at_end(check)
            # Nobody released: either all ended, or threads wait at different places (a deadlock).
            b.cbranch(b.icmp_unsigned("==", code, I32(SETTLE_ENDED)), finished, stop)
            b.position_at_end(more)
            b.unreachable()
            b.position_at_end(finished)

        def unless_failed(b, block_linear):
            run, skip = fn.append_basic_block("block"), fn.append_basic_block("block.skip")
            b.cbranch(b.icmp_unsigned("!=", b.load(field("failed")), I32(0)), skip, run)
            b.position_at_end(run)
            one_block(b, block_linear)
            b.branch(skip)
            b.position_at_end(skip)

        def leave(b):
            for p in (ctxs, stacks, state, slots, sites, shared, jbs, started):
                b.call(free, [p])
            b.call(setspecific, [b.load(self.key), previous])
            b.call(free, [ctx_raw])

        counted_loop(b, lo, hi, unless_failed)
        failed = b.icmp_unsigned("!=", b.load(field("failed")), I32(0))
        leave(b)
        b.ret(failed)
        b.position_at_end(stop)
        b.call(self.deadlock_fn, [b.bitcast(ctx, CHARP)])
        leave(b)
        b.ret(ll.Constant(I1, 1))
        return fn
