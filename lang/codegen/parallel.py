"""The CPU thread pool behind `for i in prange(n)`, generated as LLVM IR like the rest of the runtime.

One pool per process: `PYX_NUM_THREADS` threads in all (by default the cores this process may
run on), the calling thread plus workers started once, on first use, and kept for the life of
the process. Every module with a parallel loop carries the pool's code, and runs its loops on
its own copy only until a loader hands it the process's pool (`__pyx_pool_adopt`):
`runtime/pool.py` makes the first shared library `pyx.import_module` loads the provider and
gives its pool to every module loaded after it, so two modules' `prange` loops plus the caller
share one set of threads instead of each starting one per core. `pyx.set_num_threads(n)` caps
the threads a loop uses (`__pyx_pool_set_limit`), below the pool's size.

A loop is cut into `chunks` contiguous pieces (the lowering chooses how many, independent of the
thread count, so reductions combine the same partial results on every machine); every thread
claims the next piece with an atomic increment until none are left, so uneven iterations
balance themselves.

Exceptions: each thread has its own exception state (runtime_lib's `__pyx_exc_state`), and
each module its own (a thread-local of that module). So the pool's core, which may be another
module's code, only runs pieces and stops claiming when one reports that it raised; the piece
it runs is the loop's module's `__pyx_pool_recording_piece`, which runs the real piece and, when
it raised, moves the exception out of the running thread's state (of the loop's module) into the
loop's record. Pieces already claimed finish. Of the pieces that raised, the one earliest in the
loop wins and its exception is moved to the caller: as pieces are claimed in order and each runs
in order, that is the exception a serial loop would have raised first.

A loop that starts while the pool is busy (a `prange` inside a `prange`, two threads calling
into modules at once, or another module's loop running) runs serially on its own thread.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import CHARP, DEPTH, EXC_STATE, I1, I32, I64, TEXTS, TYPE, VOID, counted_loop

# bool piece(args, lo, hi, piece index): run iterations [lo, hi) of the loop; true if one raised.
PIECE = ll.FunctionType(I1, [CHARP, I64, I64, I64])
# int32 core(piece, args, count, chunks): 1 if the pool ran the loop, 0 if the caller must run it
# serially (the pool busy, no workers, a forked child, one piece). What one module's loop calls of
# another module's pool: it never touches exception state (see the module docstring).
CORE = ll.FunctionType(I32, [PIECE.as_pointer(), CHARP, I64, I64])
THREADS = ll.FunctionType(I64, [])
# A parallel loop's record, on its caller's stack: the real piece and its arguments, the earliest
# piece that raised and that piece's exception.
RECORD = ll.LiteralStructType([PIECE.as_pointer(), CHARP, I64, EXC_STATE])
R_PIECE, R_ARGS, R_BEST, R_ERROR = range(4)
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
        self.sync = sync = ll.ArrayType(ll.IntType(8),
                                        -(-max(facts.pthread_mutex_bytes, facts.pthread_cond_bytes) // 16) * 16)
        g = self._global
        # The pool's own state: used only where this module's pool is the one that runs.
        self.once = g("__pyx_pool_once", I32, I32(0))  # PTHREAD_ONCE_INIT
        self.mutex, self.work_cv, self.done_cv = (g(f"__pyx_pool_{n}", sync, ll.Constant(sync, None), align=16)
                                                  for n in ("mutex", "work", "done"))
        self.busy = g("__pyx_pool_busy", I32, I32(0))
        self.generation = g("__pyx_pool_generation", I64, I64(0))
        self.remaining = g("__pyx_pool_remaining", I64, I64(0))
        self.active = g("__pyx_pool_active", I64, I64(0))  # the workers that take part in this loop
        self.limit = g("__pyx_pool_limit", I64, I64(0))  # set_num_threads; 0: every thread
        self.piece = g("__pyx_pool_piece", PIECE.as_pointer(), ll.Constant(PIECE.as_pointer(), None))
        self.args = g("__pyx_pool_args", CHARP, ll.Constant(CHARP, None))
        self.count = g("__pyx_pool_count", I64, I64(0))
        self.chunks = g("__pyx_pool_chunks", I64, I64(0))
        self.next = g("__pyx_pool_next", I64, I64(0))
        self.stop = g("__pyx_pool_stop", I32, I32(0))
        self.quit = g("__pyx_pool_quit", I32, I32(0))
        self.workers = g("__pyx_pool_workers", I64, I64(0))
        self.pid = g("__pyx_pool_pid", I32, I32(0))  # the process that started the workers
        self.tids = g("__pyx_pool_tids", I64.as_pointer(), ll.Constant(I64.as_pointer(), None))
        # This module's side of a loop, wherever its pool is: the pool it was handed (null: its
        # own), and the lock its pieces take to record an exception (a zeroed mutex is glibc's
        # PTHREAD_MUTEX_INITIALIZER: it works before, and without, this module's pool starting).
        self.provider_run = g("__pyx_pool_provider_run", CORE.as_pointer(), ll.Constant(CORE.as_pointer(), None))
        self.provider_threads = g("__pyx_pool_provider_threads", THREADS.as_pointer(),
                                  ll.Constant(THREADS.as_pointer(), None))
        self.error_lock = g("__pyx_pool_error_lock", sync, ll.Constant(sync, None), align=16)
        libc = rt.libc
        self.lock = libc("pthread_mutex_lock")
        self.unlock = libc("pthread_mutex_unlock")
        self.wait = libc("pthread_cond_wait")
        self.broadcast = libc("pthread_cond_broadcast")
        self.memcpy = libc("memcpy")
        self.run_pieces = self._define_run_pieces()
        self.worker = self._define_worker()
        self.start = self._define_start()
        self.core = self._define_core()
        self.own_threads = self._define_own_threads()
        self.recording_piece = self._define_recording_piece()
        self.parallel_for = self._define_parallel_for()
        self._define_thread_count()
        self._define_adopt()
        self._define_set_limit()
        self._define_shutdown()

    def _global(self, name, ty, init, align=None):
        var = self.rt._global(name, ty, init)
        if align:
            var.align = align
        return var

    def _exported(self, name, ret, params) -> tuple[ll.Function, ll.IRBuilder]:
        """A function the loader calls by name (external linkage, unlike the rest of the runtime)."""
        fn = ll.Function(self.rt.module, ll.FunctionType(ret, params), name)
        return fn, ll.IRBuilder(fn.append_basic_block("entry"))

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

    @staticmethod
    def _record_field(b, record, index):
        return b.gep(record, [I32(0), I32(index)], inbounds=True)

    # ---- pieces ----
    def _define_run_pieces(self):
        """Claim and run pieces until none are left or one has raised (the pool's side: the
        piece itself records what it raised)."""
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
        self._store(b, I32(1), self.stop, 4)
        b.branch(done)
        ll.IRBuilder(done).ret_void()
        return fn

    def _define_recording_piece(self):
        """`bool __pyx_pool_recording_piece(record, lo, hi, c)`: run piece c of the loop whose
        record this is; if it raised, keep its exception in the record when it is the earliest
        so far, and leave this thread's state clean for the next piece. Runs on whichever thread
        claimed the piece, so `state` is that thread's (of this module)."""
        rt = self.rt
        fn, b = rt._function("__pyx_pool_recording_piece", I1, [CHARP, I64, I64, I64])
        raw, lo, hi, c = fn.args
        record = b.bitcast(raw, RECORD.as_pointer())
        piece = b.load(self._record_field(b, record, R_PIECE))
        args = b.load(self._record_field(b, record, R_ARGS))
        raised = b.call(piece, [args, lo, hi, c])
        with b.if_then(raised):
            state = rt.state(b)
            best = self._record_field(b, record, R_BEST)
            b.call(self.lock, [self._ptr(b, self.error_lock)])
            with b.if_then(b.icmp_unsigned("<", c, self._load(b, best))):
                self._copy_state(b, self._record_field(b, record, R_ERROR), state)
                self._store(b, c, best)
            b.call(self.unlock, [self._ptr(b, self.error_lock)])
            # A Ctrl-C is taken by the piece that raised KeyboardInterrupt for it: set it again, so the
            # other threads stop in their pieces too (parallel_for takes it when the loop is over).
            with b.if_then(self._is_interrupt(b, b.load(rt.field(b, state, TYPE)))):
                b.store_atomic(I32(1), b.load(rt.interrupt_flag), "monotonic", 4)
            b.store(ll.Constant(CHARP, None), rt.field(b, state, TYPE))
            b.store(I32(0), rt.field(b, state, DEPTH))
        b.ret(raised)
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
        """A worker's loop; its argument is its number (0, 1, ...): workers numbered at or past
        the loop's `active` sit that loop out (set_num_threads)."""
        fn, b = self.rt._function("__pyx_pool_worker", CHARP, [CHARP])
        number = b.ptrtoint(fn.args[0], I64)
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
        leave, stay, take_part = (fn.append_basic_block(x) for x in ("leave", "stay", "take.part"))
        b.cbranch(b.icmp_unsigned("!=", self._load(b, self.quit, 4), I32(0)), leave, stay)
        ll.IRBuilder(leave).ret(ll.Constant(CHARP, None))
        b = ll.IRBuilder(stay)
        b.cbranch(b.icmp_signed("<", number, self._load(b, self.active)), take_part, idle)
        b = ll.IRBuilder(take_part)
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

    def _active_workers(self, b):
        """The workers a loop started now uses: all of them, or `limit - 1` (the caller is one)."""
        workers, limit = self._load(b, self.workers), self._load(b, self.limit)
        capped = b.select(b.icmp_signed("<", b.sub(limit, I64(1)), workers), b.sub(limit, I64(1)), workers)
        return b.select(b.icmp_signed(">", limit, I64(0)), capped, workers)

    def _define_own_threads(self):
        """`int64 __pyx_pool_own_threads()`: threads a loop on this module's pool uses (starts it)."""
        fn, b = self._exported("__pyx_pool_own_threads", I64, [])
        b.call(self.rt.libc("pthread_once"), [self.once, self.start])
        b.ret(b.add(self._active_workers(b), I64(1)))
        return fn

    def _define_thread_count(self):
        """`int64 __pyx_pool_threads()`: threads a parallel loop of this module uses (starts the pool)."""
        _, b = self._exported("__pyx_pool_threads", I64, [])
        provider = b.load(self.provider_threads)
        with b.if_then(b.icmp_unsigned("!=", provider, ll.Constant(THREADS.as_pointer(), None))):
            b.ret(b.call(provider, []))
        b.ret(b.call(self.own_threads, []))

    def _define_adopt(self):
        """`void __pyx_pool_adopt(core, threads)`: run this module's loops on another module's pool
        (the loader calls it before any of this module's code runs; runtime/pool.py)."""
        fn, b = self._exported("__pyx_pool_adopt", VOID, [CORE.as_pointer(), THREADS.as_pointer()])
        self._store(b, fn.args[0], self.provider_run)
        self._store(b, fn.args[1], self.provider_threads)
        b.ret_void()

    def _define_set_limit(self):
        """`void __pyx_pool_set_limit(n)`: loops on this pool use at most n threads (0: all)."""
        fn, b = self._exported("__pyx_pool_set_limit", VOID, [I64])
        self._store(b, fn.args[0], self.limit)
        b.ret_void()

    def _define_shutdown(self):
        """`void __pyx_pool_shutdown()`: stop and join the workers, before the JIT frees this code."""
        rt = self.rt
        _, b = self._exported("__pyx_pool_shutdown", VOID, [])
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
                                                     b.inttoptr(k, CHARP)]), I32(0))
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

    # ---- the pool's core: what a module hands to the others ----
    def _define_core(self):
        """`int32 __pyx_pool_core(piece, args, count, chunks)`: run the loop on this pool's threads
        and the caller's; 0 (nothing run) where the caller must run it serially."""
        rt = self.rt
        fn, b = self._exported("__pyx_pool_core", I32, [PIECE.as_pointer(), CHARP, I64, I64])
        piece, args, count, chunks = fn.args
        spins = b.alloca(I64)
        parallel, claimed, serial = (fn.append_basic_block(x) for x in ("parallel", "claimed", "serial"))
        b.call(rt.libc("pthread_once"), [self.once, self.start])
        # fork() copies only the calling thread: a child has no workers, so it runs serially.
        # (An atfork handler would outlive a JIT module's code; a pid check cannot.)
        forked = b.icmp_signed("!=", b.call(rt.libc("getpid"), []), b.load(self.pid))
        alone = b.or_(b.or_(b.icmp_signed("<=", self._active_workers(b), I64(0)), forked),
                      b.icmp_signed("<=", chunks, I64(1)))
        b.cbranch(alone, serial, parallel)
        ll.IRBuilder(serial).ret(I32(0))

        b = ll.IRBuilder(parallel)
        won = b.extract_value(b.cmpxchg(self.busy, I32(0), I32(1), "acquire", "monotonic"), 1)
        b.cbranch(won, claimed, serial)

        b = ll.IRBuilder(claimed)
        active = self._active_workers(b)
        for var, value in ((self.piece, piece), (self.args, args), (self.count, count), (self.chunks, chunks),
                           (self.next, I64(0)), (self.active, active), (self.remaining, active)):
            self._store(b, value, var)
        self._store(b, I32(0), self.stop, 4)
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
        self._store(b, I32(0), self.busy, 4)
        b.ret(I32(1))
        return fn

    # ---- the entry generated code calls ----
    def _define_parallel_for(self):
        """`int32 __pyx_parallel_for(piece, args, count, chunks)`: 1 if an iteration raised."""
        rt = self.rt
        fn, b = rt._function("__pyx_parallel_for", I32, [PIECE.as_pointer(), CHARP, I64, I64])
        piece, args, count, chunks = fn.args
        k = b.alloca(I64)
        record = b.alloca(RECORD)
        ran, serial, serial_body, serial_next, raised, finished = (
            fn.append_basic_block(x) for x in ("ran", "serial", "serial.piece", "serial.next", "raised", "finished"))
        b.store(piece, self._record_field(b, record, R_PIECE))
        b.store(args, self._record_field(b, record, R_ARGS))
        b.store(I64(NONE_RAISED), self._record_field(b, record, R_BEST))
        provider = self._load(b, self.provider_run)
        core = b.select(b.icmp_unsigned("!=", provider, ll.Constant(CORE.as_pointer(), None)), provider, self.core)
        went = b.call(core, [self.recording_piece, b.bitcast(record, CHARP), count, chunks])
        b.cbranch(b.icmp_unsigned("!=", went, I32(0)), ran, serial)

        b = ll.IRBuilder(ran)
        error = self._record_field(b, record, R_ERROR)
        failed = b.icmp_unsigned("!=", b.load(self._record_field(b, record, R_BEST)), I64(NONE_RAISED))
        with b.if_then(failed):
            self._copy_state(b, rt.state(b), error)
            with b.if_then(self._is_interrupt(b, b.load(rt.field(b, error, TYPE)))):
                b.store_atomic(I32(0), b.load(rt.interrupt_flag), "monotonic", 4)  # taken: see recording_piece
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
