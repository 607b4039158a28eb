"""GPU kernels on the CPU, with the GPU's semantics.

A launch runs the blocks one after another. The threads of a block are cooperative
contexts (ucontext), each with its own stack, resumed round-robin by a scheduler:
`barrier()` switches back to it, so every thread reaches the barrier before any
passes it. Shared memory is one zeroed buffer per block. Threads never run at the same
time, so atomics are plain read-modify-writes. A thread that raises marks the launch
failed, and the launch raises that exception where it was started.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import CHARP, I1, I8, I32, I64, VOID

UCONTEXT_BYTES = 1024  # sizeof(ucontext_t) is 968 on x86-64 glibc; rounded up
UC_LINK, UC_STACK_SP, UC_STACK_SIZE = 8, 16, 32  # offsets in glibc's ucontext_t (x86-64, aarch64)
STACK_BYTES = 256 * 1024
THUNK = ll.FunctionType(I1, [CHARP])  # bool thunk(args): unpack and call the kernel; true if it raised


RUNNABLE, AT_BARRIER, AT_WARP, DONE = 0, 1, 2, 3  # a thread's state, one byte each


class CpuGpuRuntime:
    def __init__(self, rt):
        self.rt = rt
        self.idx = rt._global("__pyx_gpu_idx", ll.ArrayType(I64, 12), ll.Constant(ll.ArrayType(I64, 12), None))
        self.shared = rt._global("__pyx_gpu_shared", CHARP, ll.Constant(CHARP, None))
        self.sched = rt._global("__pyx_gpu_sched", ll.ArrayType(I8, UCONTEXT_BYTES),
                                ll.Constant(ll.ArrayType(I8, UCONTEXT_BYTES), None))
        self.ctxs = rt._global("__pyx_gpu_ctxs", CHARP, ll.Constant(CHARP, None))
        self.state = rt._global("__pyx_gpu_state", CHARP, ll.Constant(CHARP, None))
        self.slots = rt._global("__pyx_gpu_slots", I64.as_pointer(), ll.Constant(I64.as_pointer(), None))
        self.nthreads = rt._global("__pyx_gpu_nthreads", I64, I64(0))
        self.cur = rt._global("__pyx_gpu_cur", I64, I64(0))
        self.thunk = rt._global("__pyx_gpu_thunk", THUNK.as_pointer(), ll.Constant(THUNK.as_pointer(), None))
        self.args = rt._global("__pyx_gpu_args", CHARP, ll.Constant(CHARP, None))
        self.failed = rt._global("__pyx_gpu_failed", I32, I32(0))
        self.swap = rt.libc("swapcontext", I32, [CHARP, CHARP])
        self._entry = self._define_thread_entry()
        self.barrier_fn = self._define_wait("__pyx_gpu_barrier", AT_BARRIER)
        self.warp_sync_fn = self._define_wait("__pyx_gpu_warp_sync", AT_WARP)
        self.launch_fn = self._define_launch()

    def index(self, b: ll.IRBuilder, slot: int) -> ll.Value:
        return b.load(b.gep(self.idx, [I32(0), I32(slot)], inbounds=True))

    def _define_thread_entry(self):
        fn, b = self.rt._function("__pyx_gpu_thread", VOID, [])
        t = b.load(self.cur)
        failed = b.call(b.load(self.thunk), [b.load(self.args)])
        with b.if_then(failed):
            b.store(I32(1), self.failed)
        b.store(I8(DONE), b.gep(b.load(self.state), [t]))
        b.ret_void()  # uc_link takes the thread back to the scheduler
        return fn

    def _define_wait(self, name: str, state: int):
        """Mark this thread waiting (at a barrier, or at a warp operation) and switch to the scheduler;
        it resumes once every live thread of the block (or lane of the warp) waits there too."""
        fn, b = self.rt._function(name, VOID, [])
        t = b.load(self.cur)
        b.store(I8(state), b.gep(b.load(self.state), [t]))
        me = b.gep(b.load(self.ctxs), [b.mul(t, I64(UCONTEXT_BYTES))])
        b.call(self.swap, [me, b.gep(self.sched, [I32(0), I32(0)])])
        b.ret_void()
        return fn

    def _define_launch(self):
        rt = self.rt
        params = [THUNK.as_pointer(), CHARP] + [I64] * 7
        fn, b = rt._function("__pyx_gpu_launch", I32, params)
        thunk, args, gx, gy, gz, bx, by, bz, shared_bytes = fn.args
        malloc, free = rt.libc("malloc", CHARP, [I64]), rt.libc("free", VOID, [CHARP])
        memset = rt.libc("memset", CHARP, [CHARP, I32, I64])
        getcontext = rt.libc("getcontext", I32, [CHARP])
        makecontext = rt.libc("makecontext", VOID, [CHARP, ll.FunctionType(VOID, []).as_pointer(), I32],
                              var_arg=True)
        b.store(thunk, self.thunk)
        b.store(args, self.args)
        b.store(I32(0), self.failed)
        n = b.mul(b.mul(bx, by), bz)
        b.store(n, self.nthreads)
        ctxs = b.call(malloc, [b.mul(n, I64(UCONTEXT_BYTES))])
        stacks = b.call(malloc, [b.mul(n, I64(STACK_BYTES))])
        state = b.call(malloc, [n])
        slots = b.call(malloc, [b.mul(n, I64(8))])
        shared = b.call(malloc, [b.add(shared_bytes, I64(16))])
        b.store(ctxs, self.ctxs)
        b.store(state, self.state)
        b.store(b.bitcast(slots, I64.as_pointer()), self.slots)
        b.store(shared, self.shared)
        for slot, value in zip(range(6, 12), (bx, by, bz, gx, gy, gz)):
            b.store(value, b.gep(self.idx, [I32(0), I32(slot)], inbounds=True))
        sched = b.gep(self.sched, [I32(0), I32(0)])
        stop = fn.append_basic_block("stop")  # a deadlock: leave the launch, reporting it

        def counted_loop(b, start, count, body, stride=1):
            """for i in range(start, count, stride): body(b, i), with the builder left after the loop."""
            var = b.alloca(I64)
            b.store(start if isinstance(start, ll.Value) else I64(start), var)
            head, step, after = (fn.append_basic_block(x) for x in ("loop", "step", "after"))
            b.branch(head)
            b.position_at_end(head)
            i = b.load(var)
            b.cbranch(b.icmp_signed("<", i, count), step, after)
            b.position_at_end(step)
            body(b, i)
            b.store(b.add(b.load(var), I64(stride)), var)
            b.branch(head)
            b.position_at_end(after)

        def state_of(b, t):
            return b.gep(state, [t])

        def one_block(b, block_linear):
            b.store(b.urem(block_linear, gx), b.gep(self.idx, [I32(0), I32(3)], inbounds=True))
            b.store(b.urem(b.udiv(block_linear, gx), gy), b.gep(self.idx, [I32(0), I32(4)], inbounds=True))
            b.store(b.udiv(block_linear, b.mul(gx, gy)), b.gep(self.idx, [I32(0), I32(5)], inbounds=True))
            b.call(memset, [shared, I32(0), b.add(shared_bytes, I64(16))])
            b.call(memset, [state, I32(RUNNABLE), n])

            def prepare(b, t):
                ctx = b.gep(ctxs, [b.mul(t, I64(UCONTEXT_BYTES))])
                b.call(getcontext, [ctx])
                b.store(sched, b.bitcast(b.gep(ctx, [I64(UC_LINK)]), CHARP.as_pointer()))
                b.store(b.gep(stacks, [b.mul(t, I64(STACK_BYTES))]), b.bitcast(b.gep(ctx, [I64(UC_STACK_SP)]),
                                                                             CHARP.as_pointer()))
                b.store(I64(STACK_BYTES), b.bitcast(b.gep(ctx, [I64(UC_STACK_SIZE)]), I64.as_pointer()))
                b.call(makecontext, [ctx, self._entry, I32(0)])

            counted_loop(b, 0, n, prepare)
            rounds, finished = fn.append_basic_block("round"), fn.append_basic_block("finished")
            b.branch(rounds)
            b.position_at_end(rounds)

            def resume(b, t):
                go, skip = fn.append_basic_block("resume"), fn.append_basic_block("skip")
                b.cbranch(b.icmp_unsigned("==", b.load(state_of(b, t)), I8(RUNNABLE)), go, skip)
                b.position_at_end(go)
                b.store(t, self.cur)
                b.store(b.urem(t, bx), b.gep(self.idx, [I32(0), I32(0)], inbounds=True))
                b.store(b.urem(b.udiv(t, bx), by), b.gep(self.idx, [I32(0), I32(1)], inbounds=True))
                b.store(b.udiv(t, b.mul(bx, by)), b.gep(self.idx, [I32(0), I32(2)], inbounds=True))
                b.call(self.swap, [sched, b.gep(ctxs, [b.mul(t, I64(UCONTEXT_BYTES))])])
                b.branch(skip)
                b.position_at_end(skip)

            # Run every runnable thread until it waits or ends; then release whoever may go on.
            counted_loop(b, 0, n, resume)
            released = b.alloca(I1)
            b.store(ll.Constant(I1, 0), released)
            live = b.alloca(I64)
            b.store(I64(0), live)
            at_barrier = b.alloca(I64)
            b.store(I64(0), at_barrier)

            def census(b, t):
                st = b.load(state_of(b, t))
                b.store(b.add(b.load(live), b.zext(b.icmp_unsigned("!=", st, I8(DONE)), I64)), live)
                b.store(b.add(b.load(at_barrier), b.zext(b.icmp_unsigned("==", st, I8(AT_BARRIER)), I64)),
                        at_barrier)

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
            everyone = b.and_(b.icmp_signed(">", b.load(live), I64(0)),
                              b.icmp_unsigned("==", b.load(at_barrier), b.load(live)))
            with b.if_then(b.and_(everyone, b.not_(b.load(released)))):
                def release_all(b, t):
                    st = state_of(b, t)
                    with b.if_then(b.icmp_unsigned("==", b.load(st), I8(AT_BARRIER))):
                        b.store(I8(RUNNABLE), st)
                counted_loop(b, 0, n, release_all)
                b.store(ll.Constant(I1, 1), released)
            more, check = fn.append_basic_block("more"), fn.append_basic_block("check")
            b.cbranch(b.load(released), rounds, check)
            b.position_at_end(check)
            # Nobody released: either all ended, or threads wait at different places (a deadlock).
            b.cbranch(b.icmp_signed("==", b.load(live), I64(0)), finished, stop)
            b.position_at_end(more)
            b.unreachable()
            b.position_at_end(finished)

        counted_loop(b, 0, b.mul(b.mul(gx, gy), gz), one_block)
        for p in (ctxs, stacks, state, slots, shared):
            b.call(free, [p])
        b.ret(b.load(self.failed))
        b.position_at_end(stop)
        b.call(rt.raise_, [rt.cstr(b, "RuntimeError"),
                           rt.cstr(b, "deadlock: the threads of a block wait at different barriers or warp operations"),
                           rt.cstr(b, "launch"), rt.cstr(b, "<gpu>"), I32(-1)])
        for p in (ctxs, stacks, state, slots, shared):
            b.call(free, [p])
        b.ret(I32(1))
        return fn
