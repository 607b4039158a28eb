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


class CpuGpuRuntime:
    def __init__(self, rt):
        self.rt = rt
        self.idx = rt._global("__pyx_gpu_idx", ll.ArrayType(I64, 12), ll.Constant(ll.ArrayType(I64, 12), None))
        self.shared = rt._global("__pyx_gpu_shared", CHARP, ll.Constant(CHARP, None))
        self.sched = rt._global("__pyx_gpu_sched", ll.ArrayType(I8, UCONTEXT_BYTES),
                                ll.Constant(ll.ArrayType(I8, UCONTEXT_BYTES), None))
        self.ctxs = rt._global("__pyx_gpu_ctxs", CHARP, ll.Constant(CHARP, None))
        self.done = rt._global("__pyx_gpu_done", CHARP, ll.Constant(CHARP, None))
        self.cur = rt._global("__pyx_gpu_cur", I64, I64(0))
        self.thunk = rt._global("__pyx_gpu_thunk", THUNK.as_pointer(), ll.Constant(THUNK.as_pointer(), None))
        self.args = rt._global("__pyx_gpu_args", CHARP, ll.Constant(CHARP, None))
        self.failed = rt._global("__pyx_gpu_failed", I32, I32(0))
        self.swap = rt.libc("swapcontext", I32, [CHARP, CHARP])
        self._entry = self._define_thread_entry()
        self.barrier_fn = self._define_barrier()
        self.launch_fn = self._define_launch()

    def index(self, b: ll.IRBuilder, slot: int) -> ll.Value:
        return b.load(b.gep(self.idx, [I32(0), I32(slot)], inbounds=True))

    def _define_thread_entry(self):
        fn, b = self.rt._function("__pyx_gpu_thread", VOID, [])
        t = b.load(self.cur)
        failed = b.call(b.load(self.thunk), [b.load(self.args)])
        with b.if_then(failed):
            b.store(I32(1), self.failed)
        b.store(I8(1), b.gep(b.load(self.done), [t]))
        b.ret_void()  # uc_link takes the thread back to the scheduler
        return fn

    def _define_barrier(self):
        fn, b = self.rt._function("__pyx_gpu_barrier", VOID, [])
        me = b.gep(b.load(self.ctxs), [b.mul(b.load(self.cur), I64(UCONTEXT_BYTES))])
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
        ctxs = b.call(malloc, [b.mul(n, I64(UCONTEXT_BYTES))])
        stacks = b.call(malloc, [b.mul(n, I64(STACK_BYTES))])
        done = b.call(malloc, [n])
        shared = b.call(malloc, [b.add(shared_bytes, I64(16))])
        b.store(ctxs, self.ctxs)
        b.store(done, self.done)
        b.store(shared, self.shared)
        for slot, value in zip(range(6, 12), (bx, by, bz, gx, gy, gz)):
            b.store(value, b.gep(self.idx, [I32(0), I32(slot)], inbounds=True))
        sched = b.gep(self.sched, [I32(0), I32(0)])

        def counted_loop(b, count, body):
            """for i in range(count): body(b, i), with the builder left after the loop."""
            var = b.alloca(I64)
            b.store(I64(0), var)
            head, step, after = (fn.append_basic_block(x) for x in ("loop", "step", "after"))
            b.branch(head)
            b.position_at_end(head)
            i = b.load(var)
            b.cbranch(b.icmp_signed("<", i, count), step, after)
            b.position_at_end(step)
            body(b, i)
            b.store(b.add(b.load(var), I64(1)), var)
            b.branch(head)
            b.position_at_end(after)

        def one_block(b, block_linear):
            b.store(b.urem(block_linear, gx), b.gep(self.idx, [I32(0), I32(3)], inbounds=True))
            b.store(b.urem(b.udiv(block_linear, gx), gy), b.gep(self.idx, [I32(0), I32(4)], inbounds=True))
            b.store(b.udiv(block_linear, b.mul(gx, gy)), b.gep(self.idx, [I32(0), I32(5)], inbounds=True))
            b.call(memset, [shared, I32(0), b.add(shared_bytes, I64(16))])
            b.call(memset, [done, I32(0), n])

            def prepare(b, t):
                ctx = b.gep(ctxs, [b.mul(t, I64(UCONTEXT_BYTES))])
                b.call(getcontext, [ctx])
                b.store(sched, b.bitcast(b.gep(ctx, [I64(UC_LINK)]), CHARP.as_pointer()))
                b.store(b.gep(stacks, [b.mul(t, I64(STACK_BYTES))]), b.bitcast(b.gep(ctx, [I64(UC_STACK_SP)]),
                                                                             CHARP.as_pointer()))
                b.store(I64(STACK_BYTES), b.bitcast(b.gep(ctx, [I64(UC_STACK_SIZE)]), I64.as_pointer()))
                b.call(makecontext, [ctx, self._entry, I32(0)])

            counted_loop(b, n, prepare)
            alive = b.alloca(I1)
            rounds, finished = fn.append_basic_block("round"), fn.append_basic_block("finished")
            b.branch(rounds)
            b.position_at_end(rounds)
            b.store(ll.Constant(I1, 0), alive)

            def resume(b, t):
                flag = b.gep(done, [t])
                go, skip = fn.append_basic_block("resume"), fn.append_basic_block("skip")
                b.cbranch(b.icmp_unsigned("==", b.load(flag), I8(0)), go, skip)
                b.position_at_end(go)
                b.store(t, self.cur)
                b.store(b.urem(t, bx), b.gep(self.idx, [I32(0), I32(0)], inbounds=True))
                b.store(b.urem(b.udiv(t, bx), by), b.gep(self.idx, [I32(0), I32(1)], inbounds=True))
                b.store(b.udiv(t, b.mul(bx, by)), b.gep(self.idx, [I32(0), I32(2)], inbounds=True))
                b.call(self.swap, [sched, b.gep(ctxs, [b.mul(t, I64(UCONTEXT_BYTES))])])
                with b.if_then(b.icmp_unsigned("==", b.load(flag), I8(0))):
                    b.store(ll.Constant(I1, 1), alive)
                b.branch(skip)
                b.position_at_end(skip)

            counted_loop(b, n, resume)
            b.cbranch(b.load(alive), rounds, finished)
            b.position_at_end(finished)

        counted_loop(b, b.mul(b.mul(gx, gy), gz), one_block)
        for p in (ctxs, stacks, done, shared):
            b.call(free, [p])
        b.ret(b.load(self.failed))
        return fn
