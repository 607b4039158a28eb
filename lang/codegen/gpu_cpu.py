"""GPU kernels on the CPU, with the GPU's semantics: the generated half of the runtime; the
scheduler itself is pyx, stdlib/runtime_gpu.px (a runtime unit, runtime_source.py).

A launch spreads its blocks over the thread pool (parallel.py): each pool thread runs a
range of blocks, one after another. A kernel whose only synchronization is `barrier()` in its
own body runs each block as loops over its threads (its `$regions` companion, ir/gpu_regions.py;
`region_blocks`). Otherwise the threads of a block are cooperative contexts (made by
makecontext, switched with _setjmp/longjmp), each with its own stack, resumed round-robin by a
scheduler on one OS thread: `barrier()` switches back to it, so every thread reaches the barrier
before any passes it. Both follow the same census after each round (runtime_gpu.px's `_settle`).
Shared memory is one zeroed buffer per block. Blocks on different cores run at the same
time, so atomics are real atomic instructions. The scheduler's state lives in a context
per OS thread, found through a pthread key (MCJIT cannot relocate thread-local globals).
A thread that raises marks its block failed; the pool then stops handing out blocks, and
the launch raises the exception of the earliest range of blocks that failed.

Generated here, because pyx cannot say it: the context's lookup (`__pyx_gpu_ctx`, free of side
effects, so a kernel looks it up once), the coroutines' entry (`__pyx_gpu_thread`), the waits
and `__pyx_gpu_round` (_setjmp returns twice and must be called in the frame a longjmp returns
to), `__pyx_gpu_prepare` (makecontext is variadic; ucontext_t's offsets are platform facts), the
pool's pieces (they make the context, with the facts and these functions' addresses in it, and
raise the deadlock report into the module's exception state) and `__pyx_gpu_launch`; and what a
kernel's own code does with the context (gpu_ops.py, warp_ops.py, the `gpu.region_*` operations
of its thread loops below).
"""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import CHARP, I1, I8, I32, I64, VOID, counted_loop

# The platform facts the scheduler needs (ucontext_t's size and alignment, the offsets of uc_link,
# uc_stack.ss_sp and uc_stack.ss_size, jmp_buf's size) are the target's PlatformFacts
# (platform_facts.py): aarch64's ucontext_t is 4560 bytes, aligned to 16. The generated piece hands
# the pyx side the two sizes it needs in the context's words.
STACK_BYTES = 256 * 1024  # stdlib/runtime_gpu.px's _STACK_BYTES
THUNK = ll.FunctionType(I1, [CHARP])  # bool thunk(args): unpack and call the kernel; true if it raised


RUNNABLE, AT_BARRIER, AT_WARP, DONE = 0, 1, 2, 3  # a thread's state, one byte each
DEADLOCK = 2  # what a piece of stdlib/runtime_gpu.px returns for a deadlock (0: ran, 1: a thread raised)
REPORT_BYTES = 1024  # the deadlock report's buffer
# How a launch runs a block (`__pyx_gpu_launch`'s `mode`): one coroutine per thread; each thread as
# a plain call (a kernel that never synchronizes); the kernel's `$regions` companion, which loops
# over the block's threads itself (ir/gpu_regions.py).
COROUTINES, DIRECT, REGIONS = 0, 1, 2
# The pyx function (stdlib/runtime_gpu.px, through runtime_source.SOURCE_HELPERS) of each mode.
MODE_HELPERS = {COROUTINES: "gpu_coroutine_blocks", DIRECT: "gpu_direct_blocks", REGIONS: "gpu_region_blocks"}


# The scheduler's state, one per OS thread running blocks: 64-bit words, the first 12 the thread's
# and block's indices and the block's and grid's sizes (`idx`), then FIELDS in order, word 12 on.
# stdlib/runtime_gpu.px, which runs the blocks, names the same words (its comptime `_SHARED` ...;
# tests/codegen/test_runtime_gpu.py checks they agree); its comments say what each holds.
# The generated code reads `shared`, `shared_size`, `slots`, `cur`, `nthreads`, `kernel`, `idx`
# (a kernel's indices, its shared memory, the warp operations, --memcheck and --racecheck), writes
# `state`, `sites` (the waits), `resume` (a `$regions` companion) and `failed` (a thread that
# raised), and switches with `sched_jb` and `jbs` (_setjmp/longjmp: no signal mask saved, unlike
# swapcontext's system call) and `ctxs`, `started`, `uc_bytes`, `jb_stride`.
FIELDS = ("idx", "shared", "sched", "ctxs", "state", "slots", "nthreads", "cur", "thunk", "args", "failed",
          "shared_size", "sites", "kernel", "resume", "frames", "frames_size", "sched_jb", "jbs", "started",
          "stacks", "uc_bytes", "jb_stride", "prepare", "round", "block_hook", "report")
_FIELD_TYPES = {"idx": ll.ArrayType(I64, 12), "slots": I64.as_pointer(), "sites": CHARP.as_pointer(),
                "resume": I64.as_pointer(), "nthreads": I64, "cur": I64, "failed": I64, "shared_size": I64,
                "frames_size": I64, "uc_bytes": I64, "jb_stride": I64}


def field_word(name: str) -> int:
    """The word of the context where field `name` lies (stdlib/runtime_gpu.px's index for it)."""
    return 0 if name == "idx" else 11 + FIELDS.index(name)


def gpu_ctx_type() -> ll.LiteralStructType:
    """The context as an LLVM struct: every field a word (a pointer or an i64), as pyx reads it."""
    return ll.LiteralStructType([_FIELD_TYPES.get(name, CHARP) for name in FIELDS])


# A launch's parameters, as the pool hands them to each range of blocks: thunk, args, grid, block,
# shared bytes, the kernel's name (words, as stdlib/runtime_gpu.px reads them).
LAUNCH = ll.LiteralStructType([THUNK.as_pointer(), CHARP] + [I64] * 7 + [CHARP])
MAX_PIECES = 256


class CpuGpuRuntime:
    """What stays generated of the GPU-on-CPU runtime (the rest is stdlib/runtime_gpu.px): the
    context lookup, the coroutines' entry and their switches (_setjmp must be called in the frame
    a longjmp returns to), making a coroutine's context (makecontext is variadic, and the offsets
    in a ucontext_t are platform facts), the launch and the pool's pieces, which make each OS
    thread's context, call the pyx side and raise its deadlock report."""

    def __init__(self, rt, pool):
        self.rt = rt
        self.pool = pool
        facts = rt.facts
        self.ctx_type = gpu_ctx_type()
        # sizeof(ucontext_t) in units of its alignment, so consecutive ones stay aligned
        self.uc_bytes = -(-facts.ucontext_bytes // facts.ucontext_align) * facts.ucontext_align
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
        self.jb_stride = -(-facts.jmp_buf_bytes // 16) * 16
        self.setjmp = rt.libc("_setjmp")
        self.setjmp.attributes.add("returns_twice")
        self.longjmp = rt.libc("longjmp")
        self.longjmp.attributes.add("noreturn")
        self._entry = self._define_thread_entry()
        self.barrier_fn = self._define_wait("__pyx_gpu_barrier", AT_BARRIER)
        self.warp_sync_fn = self._define_wait("__pyx_gpu_warp_sync", AT_WARP)
        self.prepare_fn = self._define_prepare()
        self.round_fn = self._define_round()
        self.pieces = {mode: self._define_piece(f"__pyx_gpu_{helper.removeprefix('gpu_')}", helper)
                       for mode, helper in MODE_HELPERS.items()}
        self.launch_fn = self._define_launch()

    def field(self, b: ll.IRBuilder, name: str, ctx=None) -> ll.Value:
        """The address of field `name` of this OS thread's context (or of `ctx`)."""
        ctx = ctx if ctx is not None else b.call(self.ctx_fn, [])
        return b.gep(ctx, [I32(0), I32(FIELDS.index(name))], inbounds=True)

    def index(self, b: ll.IRBuilder, slot: int) -> ll.Value:
        return b.load(b.gep(self.field(b, "idx"), [I32(0), I32(slot)], inbounds=True))

    def _define_thread_entry(self):
        """makecontext's entry of a coroutine: run the kernel's thread, mark it done and jump back
        into the scheduler for good (its context's uc_link is never taken)."""
        fn, b = self.rt._function("__pyx_gpu_thread", VOID, [])
        ctx = b.call(self.ctx_fn, [])
        t = b.load(self.field(b, "cur", ctx))
        thunk = b.bitcast(b.load(self.field(b, "thunk", ctx)), THUNK.as_pointer())
        failed = b.call(thunk, [b.load(self.field(b, "args", ctx))])
        with b.if_then(failed):
            b.store(I64(1), self.field(b, "failed", ctx))
        b.store(I8(DONE), b.gep(b.load(self.field(b, "state", ctx)), [t]))
        self.to_scheduler(b, ctx)
        return fn

    def to_scheduler(self, b: ll.IRBuilder, ctx) -> None:
        """Jump back into the scheduler, where it last resumed a thread (`__pyx_gpu_round`)."""
        b.call(self.longjmp, [b.load(self.field(b, "sched_jb", ctx)), I32(1)])
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

    def _define_prepare(self):
        """`void __pyx_gpu_prepare(ucontext, stack, link)`: a coroutine's context, entering
        `__pyx_gpu_thread` on `stack` (STACK_BYTES) when first switched to."""
        rt = self.rt
        fn, b = rt._function("__pyx_gpu_prepare", VOID, [CHARP, CHARP, CHARP])
        uc, stack, link = fn.args
        b.call(rt.libc("getcontext"), [uc])
        b.store(link, b.bitcast(b.gep(uc, [I64(self.uc_link)]), CHARP.as_pointer()))
        b.store(stack, b.bitcast(b.gep(uc, [I64(self.uc_stack_sp)]), CHARP.as_pointer()))
        b.store(I64(STACK_BYTES), b.bitcast(b.gep(uc, [I64(self.uc_stack_size)]), I64.as_pointer()))
        b.call(rt.libc("makecontext"), [uc, self._entry, I32(0)])
        b.ret_void()
        return fn

    def _define_round(self):
        """`void __pyx_gpu_round(ctx)`: one round of the coroutines: resume every runnable thread, in
        order, until it waits (a longjmp back here, _setjmp giving 1) or ends. Its first run is the
        context `__pyx_gpu_prepare` made; later ones go on where it waited. Once a thread has raised,
        the others stay where they are: its exception is the block's. The loop is here, not in
        runtime_gpu.px around a switch of one thread: a longjmp that lands in a callee then returns
        from it, and that return is mispredicted (the CPU's return stack holds the coroutine's
        calls): 5% more CPU time for a kernel that syncs its warps six times."""
        rt = self.rt
        fn, b = rt._function("__pyx_gpu_round", VOID, [CHARP])
        ctx = b.bitcast(fn.args[0], self.ctx_type.as_pointer())

        def field(name):
            return self.field(b, name, ctx)

        n, state, started = b.load(field("nthreads")), b.load(field("state")), b.load(field("started"))
        idx = field("idx")
        bx, by = (b.load(b.gep(idx, [I32(0), I32(k)], inbounds=True)) for k in (6, 7))

        def resume(b, t):
            runnable = b.icmp_unsigned("==", b.load(b.gep(state, [t])), I8(RUNNABLE))
            with b.if_then(b.and_(runnable, b.icmp_unsigned("==", b.load(field("failed")), I64(0)))):
                b.store(t, field("cur"))
                b.store(b.urem(t, bx), b.gep(idx, [I32(0), I32(0)], inbounds=True))
                b.store(b.urem(b.udiv(t, bx), by), b.gep(idx, [I32(0), I32(1)], inbounds=True))
                b.store(b.udiv(t, b.mul(bx, by)), b.gep(idx, [I32(0), I32(2)], inbounds=True))
                back = b.icmp_signed("!=", b.call(self.setjmp, [b.load(field("sched_jb"))]), I32(0))
                with b.if_then(b.not_(back)):
                    first = b.gep(started, [t])
                    with b.if_else(b.icmp_unsigned("==", b.load(first), I8(0))) as (enter, again):
                        with enter:
                            b.store(I8(1), first)
                            b.call(rt.libc("setcontext", I32, [CHARP]),
                                   [b.gep(b.load(field("ctxs")), [b.mul(t, I64(self.uc_bytes))])])
                        with again:
                            b.call(self.longjmp, [b.gep(b.load(field("jbs")), [b.mul(t, I64(self.jb_stride))]),
                                                  I32(1)])
                    b.unreachable()

        counted_loop(b, 0, n, resume)
        b.ret_void()
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
        piece = b.select(b.icmp_signed("==", mode, I64(DIRECT)), self.pieces[DIRECT],
                         b.select(b.icmp_signed("==", mode, I64(REGIONS)), self.pieces[REGIONS],
                                  self.pieces[COROUTINES]))
        b.ret(b.call(self.pool.parallel_for, [piece, b.bitcast(launch, CHARP), blocks, pieces]))
        return fn

    def _define_piece(self, name: str, helper: str):
        """`bool piece(launch, lo, hi, c)`, what the pool runs: blocks [lo, hi) of a launch on this
        OS thread, by the pyx function `helper`, with a fresh context of its own installed (and the
        previous one put back after); true if a thread raised, or if the blocks deadlocked (raised
        here, with the report the pyx side wrote)."""
        from .parallel import PIECE
        from .racecheck import BLOCK_HOOK
        from .runtime_source import declare

        rt = self.rt
        fn = ll.Function(rt.module, PIECE, name)
        fn.linkage = "internal"
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        packed, lo, hi, _ = fn.args
        launch = b.bitcast(packed, LAUNCH.as_pointer())
        # Not through __pyx_gpu_ctx: that one is declared free of side effects, and LLVM could
        # then move this read past the setspecific below.
        b.call(rt.libc("pthread_once"), [self.once, self.make_key])
        previous = b.call(rt.libc("pthread_getspecific"), [b.load(self.key)])
        size = b.ptrtoint(b.gep(ll.Constant(self.ctx_type.as_pointer(), None), [I32(1)]), I64)
        ctx_raw = b.call(rt.libc("calloc"), [I64(1), size])
        ctx = b.bitcast(ctx_raw, self.ctx_type.as_pointer())
        report = b.alloca(ll.ArrayType(I8, REPORT_BYTES))
        b.store(b.gep(report, [I32(0), I32(0)]), self.field(b, "report", ctx))
        b.store(I64(self.uc_bytes), self.field(b, "uc_bytes", ctx))
        b.store(I64(self.jb_stride), self.field(b, "jb_stride", ctx))
        b.store(b.bitcast(self.prepare_fn, CHARP), self.field(b, "prepare", ctx))
        b.store(b.bitcast(self.round_fn, CHARP), self.field(b, "round", ctx))
        # --racecheck forgets the accesses of the block before when a block begins (racecheck.py
        # declares its hook before this runtime is made).
        hook = rt.module.globals.get(BLOCK_HOOK)
        if hook is not None:
            b.store(b.bitcast(hook, CHARP), self.field(b, "block_hook", ctx))
        # Block lo's index: the pyx side steps it from block to block (it divides nothing).
        gx, gy = (b.load(b.gep(launch, [I32(0), I32(k)])) for k in (2, 3))
        idx = self.field(b, "idx", ctx)
        for k, value in zip((3, 4, 5), (b.urem(lo, gx), b.urem(b.udiv(lo, gx), gy), b.udiv(lo, b.mul(gx, gy)))):
            b.store(value, b.gep(idx, [I32(0), I32(k)], inbounds=True))
        b.call(rt.libc("pthread_setspecific"), [b.load(self.key), ctx_raw])
        words = I64.as_pointer()
        code = b.call(declare(rt.module, helper), [b.bitcast(ctx, words), b.bitcast(launch, words), lo, hi])
        b.call(rt.libc("pthread_setspecific"), [b.load(self.key), previous])
        b.call(rt.libc("free"), [ctx_raw])
        with b.if_then(b.icmp_unsigned("==", code, I64(DEADLOCK)), likely=False):
            text = b.gep(report, [I32(0), I32(0)])
            b.call(rt.raise_text, [rt.cstr(b, "RuntimeError"), text, b.call(rt.libc("strlen"), [text]),
                                   rt.cstr(b, "launch"), rt.cstr(b, "<gpu>"), I32(-1)])
        b.ret(b.icmp_unsigned("!=", code, I64(0)))
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
            b.store(I64(i.attrs["point"]), b.gep(b.load(self.field(b, "resume", ctx)), [t]))
            return None
        if variant == "done":
            b.store(I8(DONE), b.gep(b.load(self.field(b, "state", ctx)), [args[0]]))
            return None
        if variant == "spill":
            return self._spill_array(cg, i)
        if variant == "parallel":
            from .thread_loops import mark_parallel

            mark_parallel(cg, i.attrs["latches"])
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
            from .runtime_source import declare

            ctx = cg.b.bitcast(cg.b.call(self.ctx_fn, []), I64.as_pointer())
            base = cg.b.call(declare(cg.mg.module, "gpu_frames"), [ctx, I64(total)])
            layout = cg._region_frames = (offsets, base)
        offsets, base = layout
        at = cg.b.gep(base, [I64(offsets[i.attrs["slot"]])])
        return cg.b.bitcast(at, cg.mg.llvm_type(i.result.type))
