"""The CPU thread pool behind `for i in prange(n)`, generated as LLVM IR like the rest of the runtime.

A module that has a parallel loop carries one pool: `PYX_NUM_THREADS` threads in all (by
default the cores this process may run on), the calling thread plus workers started once, on
first use, and kept for the life of the process. A loop is cut into `chunks` contiguous pieces
(the lowering chooses how many, independent of the thread count, so reductions combine the
same partial results on every machine); every thread claims the next piece with an atomic
increment until none are left, so uneven iterations balance themselves.

Exceptions: each thread has its own exception state (runtime_lib's `__pyx_exc_state`). When
a piece raises, no further pieces are claimed; pieces already claimed finish. Of the pieces
that raised, the one earliest in the loop wins and its exception is moved to the caller: as
pieces are claimed in order and each runs in order, that is the exception a serial loop
would have raised first.

A loop that starts while the pool is busy (a `prange` inside a `prange`, or two threads
calling into the module at once) runs serially on its own thread.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import CHARP, DEPTH, EXC_STATE, I1, I32, I64, TEXTS, TYPE, VOID, counted_loop

# bool piece(args, lo, hi, piece index): run iterations [lo, hi) of the loop; true if one raised.
PIECE = ll.FunctionType(I1, [CHARP, I64, I64, I64])
MAX_THREADS = 1024
# The sizes of pthread_mutex_t, pthread_cond_t and cpu_set_t and the value of _SC_NPROCESSORS_ONLN
# are the target's PlatformFacts (platform_facts.py). A zeroed mutex, condition variable or
# pthread_once_t is glibc's PTHREAD_*_INITIALIZER.
NONE_RAISED = 2 ** 63 - 1  # `best` while no piece has raised
SPIN = 200000  # polls of a shared flag (a fraction of a millisecond) before a thread blocks, as OpenMP does


class ThreadPool:
    def __init__(self, rt):
        self.rt = rt
        facts = rt.facts
        sync = ll.ArrayType(ll.IntType(8), -(-max(facts.pthread_mutex_bytes, facts.pthread_cond_bytes) // 16) * 16)
        g = self._global
        self.once = g("__pyx_pool_once", I32, I32(0))  # PTHREAD_ONCE_INIT
        self.mutex, self.work_cv, self.done_cv = (g(f"__pyx_pool_{n}", sync, ll.Constant(sync, None), align=16)
                                                  for n in ("mutex", "work", "done"))
        self.busy = g("__pyx_pool_busy", I32, I32(0))
        self.generation = g("__pyx_pool_generation", I64, I64(0))
        self.remaining = g("__pyx_pool_remaining", I64, I64(0))
        self.piece = g("__pyx_pool_piece", PIECE.as_pointer(), ll.Constant(PIECE.as_pointer(), None))
        self.args = g("__pyx_pool_args", CHARP, ll.Constant(CHARP, None))
        self.count = g("__pyx_pool_count", I64, I64(0))
        self.chunks = g("__pyx_pool_chunks", I64, I64(0))
        self.next = g("__pyx_pool_next", I64, I64(0))
        self.stop = g("__pyx_pool_stop", I32, I32(0))
        self.best = g("__pyx_pool_best", I64, I64(0))  # the earliest piece that raised
        self.error = g("__pyx_pool_error", EXC_STATE, ll.Constant(EXC_STATE, None))
        self.quit = g("__pyx_pool_quit", I32, I32(0))
        self.workers = g("__pyx_pool_workers", I64, I64(0))
        self.pid = g("__pyx_pool_pid", I32, I32(0))  # the process that started the workers
        self.tids = g("__pyx_pool_tids", I64.as_pointer(), ll.Constant(I64.as_pointer(), None))
        libc = rt.libc
        self.lock = libc("pthread_mutex_lock")
        self.unlock = libc("pthread_mutex_unlock")
        self.wait = libc("pthread_cond_wait")
        self.broadcast = libc("pthread_cond_broadcast")
        self.memcpy = libc("memcpy")
        self.run_pieces = self._define_run_pieces()
        self.worker = self._define_worker()
        self.start = self._define_start()
        self.parallel_for = self._define_parallel_for()
        self._define_thread_count()
        self._define_shutdown()

    def _global(self, name, ty, init, align=None):
        var = self.rt._global(name, ty, init)
        if align:
            var.align = align
        return var

    @staticmethod
    def _ptr(b, var):
        return b.bitcast(var, CHARP)

    @staticmethod
    def _load(b, var, ty_bytes=8):
        return b.load_atomic(var, "acquire", ty_bytes)

    @staticmethod
    def _store(b, value, var, ty_bytes=8):
        b.store_atomic(value, var, "release", ty_bytes)

    def _state_bytes(self, b):
        # Up to TEXTS: the receiving thread keeps its own list (a worker's messages stay in its list).
        end = b.gep(ll.Constant(EXC_STATE.as_pointer(), None), [I32(0), I32(TEXTS)])
        return b.ptrtoint(end, I64)

    def _copy_state(self, b, dest, src):
        b.call(self.memcpy, [b.bitcast(dest, CHARP), b.bitcast(src, CHARP), self._state_bytes(b)])

    def _is_interrupt(self, b, kind):
        """Whether the exception class `kind` (a C string) is KeyboardInterrupt."""
        strcmp = self.rt.libc("strcmp")
        return b.icmp_signed("==", b.call(strcmp, [kind, self.rt.cstr(b, "KeyboardInterrupt")]), I32(0))

    @staticmethod
    def _bounds(b, count, chunks, c):
        """Piece c of `chunks` nearly equal pieces of [0, count): [c*q + min(c, r), ... + q + (c < r))."""
        q, r = b.udiv(count, chunks), b.urem(count, chunks)
        before = b.icmp_unsigned("<", c, r)
        lo = b.add(b.mul(c, q), b.select(before, c, r))
        hi = b.add(b.add(lo, q), b.zext(before, I64))
        return lo, hi

    # ---- pieces ----
    def _define_run_pieces(self):
        """Claim and run pieces until none are left or one has raised."""
        fn, b = self.rt._function("__pyx_pool_run", VOID, [PIECE.as_pointer(), CHARP, I64, I64])
        piece, args, count, chunks = fn.args
        claim, run, failed, done = (fn.append_basic_block(x) for x in ("claim", "run", "failed", "done"))
        b.branch(claim)
        b = ll.IRBuilder(claim)
        stopped = b.icmp_unsigned("!=", self._load(b, self.stop, 4), I32(0))
        c = b.atomic_rmw("add", self.next, I64(1), "monotonic")
        b.cbranch(b.or_(stopped, b.icmp_unsigned(">=", c, chunks)), done, run)
        b = ll.IRBuilder(run)
        lo, hi = self._bounds(b, count, chunks, c)
        b.cbranch(b.call(piece, [args, lo, hi, c]), failed, claim)
        b = ll.IRBuilder(failed)
        state = self.rt.state(b)
        b.call(self.lock, [self._ptr(b, self.mutex)])
        with b.if_then(b.icmp_unsigned("<", c, self._load(b, self.best))):
            self._copy_state(b, self.error, state)
            self._store(b, c, self.best)
        b.call(self.unlock, [self._ptr(b, self.mutex)])
        # A Ctrl-C is taken by the piece that raised KeyboardInterrupt for it: set it again, so the
        # other threads stop in their pieces too (parallel_for takes it when the loop is over).
        with b.if_then(self._is_interrupt(b, b.load(self.rt.field(b, state, TYPE)))):
            b.store_atomic(I32(1), b.load(self.rt.interrupt_flag), "monotonic", 4)
        b.store(ll.Constant(CHARP, None), self.rt.field(b, state, TYPE))
        b.store(I32(0), self.rt.field(b, state, DEPTH))
        self._store(b, I32(1), self.stop, 4)
        b.branch(done)
        ll.IRBuilder(done).ret_void()
        return fn

    # ---- workers ----
    def _spin_until(self, fn, b, count, ready, done_block, then_block):
        """Poll `ready(b)` up to SPIN times (`count`: an entry-block slot), then go to `then_block`:
        back-to-back loops (a matmul's K panels) find the workers awake instead of paying a futex
        wake-up each."""
        b.store(I64(0), count)
        poll, again = fn.append_basic_block("spin"), fn.append_basic_block("spin.again")
        b.branch(poll)
        b = ll.IRBuilder(poll)
        b.cbranch(ready(b), done_block, again)
        b = ll.IRBuilder(again)
        k = b.add(b.load(count), I64(1))
        b.store(k, count)
        b.cbranch(b.icmp_signed("<", k, I64(SPIN)), poll, then_block)

    def _define_worker(self):
        fn, b = self.rt._function("__pyx_pool_worker", CHARP, [CHARP])
        seen, spins = b.alloca(I64), b.alloca(I64)
        b.store(I64(0), seen)
        idle, sleep, wait, work = (fn.append_basic_block(x) for x in ("idle", "sleep", "wait", "work"))
        b.branch(idle)
        # Atomic loads throughout: the waits are opaque calls, and a plain load of an internal
        # global could be hoisted out of these loops.
        self._spin_until(fn, ll.IRBuilder(idle), spins,
                         lambda b: b.icmp_unsigned("!=", self._load(b, self.generation), b.load(seen)), work, sleep)
        b = ll.IRBuilder(sleep)
        b.call(self.lock, [self._ptr(b, self.mutex)])
        b.branch(wait)
        b = ll.IRBuilder(wait)
        asleep = b.icmp_unsigned("==", self._load(b, self.generation), b.load(seen))
        with b.if_then(asleep):
            b.call(self.wait, [self._ptr(b, self.work_cv), self._ptr(b, self.mutex)])
        woke = fn.append_basic_block("woke")
        b.cbranch(asleep, wait, woke)
        b = ll.IRBuilder(woke)
        b.call(self.unlock, [self._ptr(b, self.mutex)])
        b.branch(work)

        b = ll.IRBuilder(work)
        b.store(self._load(b, self.generation), seen)
        leave, stay = fn.append_basic_block("leave"), fn.append_basic_block("stay")
        b.cbranch(b.icmp_unsigned("!=", self._load(b, self.quit, 4), I32(0)), leave, stay)
        ll.IRBuilder(leave).ret(ll.Constant(CHARP, None))
        b = ll.IRBuilder(stay)
        piece, args = self._load(b, self.piece), self._load(b, self.args)
        count, chunks = self._load(b, self.count), self._load(b, self.chunks)
        b.call(self.run_pieces, [piece, args, count, chunks])
        left = b.sub(b.atomic_rmw("sub", self.remaining, I64(1), "acq_rel"), I64(1))
        # The last one wakes the caller; under the mutex, so a caller about to wait cannot miss it.
        with b.if_then(b.icmp_unsigned("==", left, I64(0))):
            b.call(self.lock, [self._ptr(b, self.mutex)])
            b.call(self.broadcast, [self._ptr(b, self.done_cv)])
            b.call(self.unlock, [self._ptr(b, self.mutex)])
        b.branch(idle)
        return fn

    def _define_thread_count(self):
        """`int64 __pyx_pool_threads()`: threads a parallel loop of this module uses (starts the pool)."""
        fn = ll.Function(self.rt.module, ll.FunctionType(I64, []), "__pyx_pool_threads")
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        b.call(self.rt.libc("pthread_once"),
               [self.once, self.start])
        b.ret(b.add(self._load(b, self.workers), I64(1)))

    def _define_shutdown(self):
        """`void __pyx_pool_shutdown()`: stop and join the workers, before the JIT frees this code."""
        rt = self.rt
        fn = ll.Function(rt.module, ll.FunctionType(VOID, []), "__pyx_pool_shutdown")
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        workers = self._load(b, self.workers)
        with b.if_then(b.icmp_signed(">", workers, I64(0))):
            b.call(self.lock, [self._ptr(b, self.mutex)])
            self._store(b, I32(1), self.quit, 4)
            self._store(b, b.add(self._load(b, self.generation), I64(1)), self.generation)
            b.call(self.broadcast, [self._ptr(b, self.work_cv)])
            b.call(self.unlock, [self._ptr(b, self.mutex)])
            join = rt.libc("pthread_join")
            counted_loop(b, 0, workers, lambda b, k: b.call(
                join, [b.load(b.gep(b.load(self.tids), [k])), ll.Constant(CHARP.as_pointer(), None)]))
            self._store(b, I64(0), self.workers)
        b.ret_void()

    def _define_start(self):
        """Once per process: size the pool (PYX_NUM_THREADS, else the usable cores) and start it."""
        rt = self.rt
        fn, b = rt._function("__pyx_pool_start", VOID, [])
        for cv in (self.work_cv, self.done_cv):
            b.call(rt.libc("pthread_cond_init"), [self._ptr(b, cv), ll.Constant(CHARP, None)])
        b.call(rt.libc("pthread_mutex_init"), [self._ptr(b, self.mutex), ll.Constant(CHARP, None)])
        threads = b.alloca(I64)
        b.store(I64(0), threads)
        env = b.call(rt.libc("getenv"), [rt.cstr(b, "PYX_NUM_THREADS")])
        with b.if_then(b.icmp_unsigned("!=", env, ll.Constant(CHARP, None))):
            b.store(b.call(rt.libc("strtol"),
                           [env, ll.Constant(CHARP.as_pointer(), None), I32(10)]), threads)
        with b.if_then(b.icmp_signed("<", b.load(threads), I64(1))):
            words = rt.facts.cpu_set_bytes // 8  # a cpu_set_t
            mask = b.alloca(ll.ArrayType(I64, words))
            got = b.call(rt.libc("sched_getaffinity"),
                         [I32(0), I64(8 * words), b.bitcast(mask, CHARP)])
            with b.if_else(b.icmp_signed("==", got, I32(0))) as (ok, fallback):
                with ok:
                    popcount = rt.module.globals.get("llvm.ctpop.i64") or ll.Function(
                        rt.module, ll.FunctionType(I64, [I64]), "llvm.ctpop.i64")
                    total = I64(0)
                    for k in range(words):
                        word = b.load(b.gep(mask, [I32(0), I32(k)]))
                        total = b.add(total, b.call(popcount, [word]))
                    b.store(total, threads)
                with fallback:
                    b.store(b.call(rt.libc("sysconf"), [I32(rt.facts.sc_nprocessors_onln)]), threads)
        n = b.load(threads)
        n = b.select(b.icmp_signed("<", n, I64(1)), I64(1), n)
        n = b.select(b.icmp_signed(">", n, I64(MAX_THREADS)), I64(MAX_THREADS), n)
        workers = b.sub(n, I64(1))
        calloc = rt.libc("calloc")
        b.store(b.bitcast(b.call(calloc, [workers, I64(8)]), I64.as_pointer()), self.tids)
        create = rt.libc("pthread_create")
        started = b.alloca(I64)
        b.store(I64(0), started)
        head, body, spawned, done = (fn.append_basic_block(x) for x in ("spawn", "spawn.one", "spawn.ok",
                                                                          "spawned"))
        b.branch(head)
        b = ll.IRBuilder(head)
        k = b.load(started)
        b.cbranch(b.icmp_signed("<", k, workers), body, done)
        b = ll.IRBuilder(body)
        slot = b.gep(b.load(self.tids), [k])
        failed = b.icmp_signed("!=", b.call(create, [slot, ll.Constant(CHARP, None), self.worker,
                                                     ll.Constant(CHARP, None)]), I32(0))
        b.cbranch(failed, done, spawned)  # out of threads: run with the ones that started
        b = ll.IRBuilder(spawned)
        b.store(b.add(k, I64(1)), started)
        b.branch(head)
        b = ll.IRBuilder(done)
        running = b.load(started)
        self._store(b, running, self.workers)
        b.store(b.call(rt.libc("getpid"), []), self.pid)
        b.ret_void()
        return fn

    # ---- the entry generated code calls ----
    def _define_parallel_for(self):
        """`int32 __pyx_parallel_for(piece, args, count, chunks)`: 1 if an iteration raised."""
        rt = self.rt
        fn, b = rt._function("__pyx_parallel_for", I32, [PIECE.as_pointer(), CHARP, I64, I64])
        piece, args, count, chunks = fn.args
        spins, k = b.alloca(I64), b.alloca(I64)
        parallel, claimed, serial, serial_body, serial_next, raised, finished = (
            fn.append_basic_block(x) for x in ("parallel", "claimed", "serial", "serial.piece", "serial.next",
                                               "raised", "finished"))
        b.call(rt.libc("pthread_once"),
               [self.once, self.start])
        # fork() copies only the calling thread: a child has no workers, so it runs serially.
        # (An atfork handler would outlive a JIT module's code; a pid check cannot.)
        forked = b.icmp_signed("!=", b.call(rt.libc("getpid"), []), b.load(self.pid))
        alone = b.or_(b.or_(b.icmp_signed("<=", self._load(b, self.workers), I64(0)), forked),
                      b.icmp_signed("<=", chunks, I64(1)))
        b.cbranch(alone, serial, parallel)

        b = ll.IRBuilder(parallel)
        won = b.extract_value(b.cmpxchg(self.busy, I32(0), I32(1), "acquire", "monotonic"), 1)
        b.cbranch(won, claimed, serial)

        b = ll.IRBuilder(claimed)
        for var, value in ((self.piece, piece), (self.args, args), (self.count, count), (self.chunks, chunks),
                           (self.next, I64(0)), (self.best, I64(NONE_RAISED))):
            self._store(b, value, var)
        self._store(b, I32(0), self.stop, 4)
        self._store(b, self._load(b, self.workers), self.remaining)
        # Spinning workers start on the new generation; sleeping ones are woken under the mutex.
        self._store(b, b.add(self._load(b, self.generation), I64(1)), self.generation)
        b.call(self.lock, [self._ptr(b, self.mutex)])
        b.call(self.broadcast, [self._ptr(b, self.work_cv)])
        b.call(self.unlock, [self._ptr(b, self.mutex)])
        b.call(self.run_pieces, [piece, args, count, chunks])
        spin_done, block, wait, waited = (fn.append_basic_block(x) for x in ("spun", "block", "wait", "waited"))
        self._spin_until(fn, b, spins, lambda b: b.icmp_unsigned("==", self._load(b, self.remaining), I64(0)),
                         spin_done, block)
        b = ll.IRBuilder(block)
        b.call(self.lock, [self._ptr(b, self.mutex)])
        b.branch(wait)
        b = ll.IRBuilder(wait)
        busy = b.icmp_unsigned("!=", self._load(b, self.remaining), I64(0))
        with b.if_then(busy):
            b.call(self.wait, [self._ptr(b, self.done_cv), self._ptr(b, self.mutex)])
        b.cbranch(busy, wait, waited)
        b = ll.IRBuilder(waited)
        b.call(self.unlock, [self._ptr(b, self.mutex)])
        b.branch(spin_done)
        b = ll.IRBuilder(spin_done)
        failed = b.icmp_unsigned("!=", self._load(b, self.best), I64(NONE_RAISED))
        with b.if_then(failed):
            self._copy_state(b, rt.state(b), self.error)
            with b.if_then(self._is_interrupt(b, b.load(rt.field(b, self.error, TYPE)))):
                b.store_atomic(I32(0), b.load(rt.interrupt_flag), "monotonic", 4)  # taken: see run_pieces
        self._store(b, I32(0), self.busy, 4)
        b.ret(b.zext(failed, I32))

        # Serially, on this thread: its own exception state is already the right one.
        b = ll.IRBuilder(serial)
        b.store(I64(0), k)
        b.branch(serial_next)
        b = ll.IRBuilder(serial_next)
        c = b.load(k)
        b.cbranch(b.icmp_signed("<", c, chunks), serial_body, finished)
        b = ll.IRBuilder(serial_body)
        lo, hi = self._bounds(b, count, chunks, c)
        b.store(b.add(c, I64(1)), k)
        b.cbranch(b.call(piece, [args, lo, hi, c]), raised, serial_next)
        ll.IRBuilder(raised).ret(I32(1))
        ll.IRBuilder(finished).ret(I32(0))
        return fn
