"""The CPU thread pool's side in each module: the loop entry generated code calls, and the
entries the loader calls by name. The pool itself (its workers, how a loop's pieces are claimed,
started once, sized by PYX_NUM_THREADS or the usable cores, capped by `pyx.set_num_threads`,
joined at shutdown) is pyx source, stdlib/runtime_pool.px, linked in as a runtime unit
(runtime_source.py); what stays generated here is what pyx cannot name: the module's exception
state, and its pool's state as a global laid out with the target's platform facts.

One pool per process: every module with a parallel loop carries the pool's code, and runs its
loops on its own copy only until a loader hands it the process's pool (`__pyx_pool_adopt`):
`runtime/pool.py` makes the first shared library `pyx.import_module` loads the provider and
gives its pool to every module loaded after it, so two modules' `prange` loops plus the caller
share one set of threads instead of each starting one per core. `pyx.set_num_threads(n)` caps
the threads a loop uses (`__pyx_pool_set_limit`), below the pool's size.

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

from . import runtime_source
from .exc_layout import exc_layout
from .platform_facts import NoPlatformFacts
from .runtime_lib import CHARP, I1, I32, I64, VOID

# bool piece(args, lo, hi, piece index): run iterations [lo, hi) of the loop; true if one raised.
PIECE = ll.FunctionType(I1, [CHARP, I64, I64, I64])
# int32 core(piece, args, count, chunks): 1 if the pool ran the loop, 0 if the caller must run it
# serially (the pool busy, no workers, a forked child, one piece). What one module's loop calls of
# another module's pool: it never touches exception state (see the module docstring).
CORE = ll.FunctionType(I32, [PIECE.as_pointer(), CHARP, I64, I64])
THREADS = ll.FunctionType(I64, [])
# A parallel loop's record, on its caller's stack: the real piece and its arguments, the earliest
# piece that raised and that piece's exception.
RECORD = ll.LiteralStructType([PIECE.as_pointer(), CHARP, I64, exc_layout().type])
R_PIECE, R_ARGS, R_BEST, R_ERROR = range(4)
NONE_RAISED = 2 ** 63 - 1  # `best` while no piece has raised
# The pool's state (stdlib/runtime_pool.px says what each word holds): STATE_WORDS 64-bit words,
# the first two the target's facts, and three SYNC_BYTES areas for pthread objects, 16-aligned.
STATE_WORDS = 48
FACT_WORDS = ("cpu_set_bytes", "sc_nprocessors_onln")
SYNC_BYTES = 64


class ThreadPool:
    def __init__(self, rt):
        self.rt = rt
        facts = rt.facts
        if max(facts.pthread_mutex_bytes, facts.pthread_cond_bytes) > SYNC_BYTES or facts.pthread_t_bytes != 8 \
                or facts.size_t_bytes != 8:  # runtime_pool.px's layout of the state and of a worker's record
            raise NoPlatformFacts(facts.key)
        state = ll.ArrayType(I64, STATE_WORDS)
        init = [I64(getattr(facts, name)) for name in FACT_WORDS] + [I64(0)] * (STATE_WORDS - len(FACT_WORDS))
        self.state = self._global("__pyx_pool_state", state, ll.Constant(state, init), align=64)
        # This module's side of a loop, wherever its pool is: the pool it was handed (null: its
        # own), and the lock its pieces take to record an exception (a zeroed mutex is glibc's
        # PTHREAD_MUTEX_INITIALIZER: it works before, and without, this module's pool starting).
        self.provider_run = self._global("__pyx_pool_provider_run", CORE.as_pointer(),
                                         ll.Constant(CORE.as_pointer(), None))
        self.provider_threads = self._global("__pyx_pool_provider_threads", THREADS.as_pointer(),
                                             ll.Constant(THREADS.as_pointer(), None))
        sync = ll.ArrayType(ll.IntType(8), SYNC_BYTES)
        self.error_lock = self._global("__pyx_pool_error_lock", sync, ll.Constant(sync, None), align=16)
        libc = rt.libc
        self.lock = libc("pthread_mutex_lock")
        self.unlock = libc("pthread_mutex_unlock")
        self.memcpy = libc("memcpy")
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

    def _pool(self, b):
        return b.bitcast(self.state, I64.as_pointer())

    def _pyx(self, name: str) -> ll.Function:
        """The pool's function `name` of stdlib/runtime_pool.px (linked in by the pass `llvm`)."""
        return runtime_source.declare(self.rt.module, name)

    @staticmethod
    def _ptr(b, var):
        return b.bitcast(var, CHARP)

    @staticmethod
    def _load(b, var, ty_bytes=8):
        return b.load_atomic(var, "acquire", ty_bytes)

    @staticmethod
    def _store(b, value, var, ty_bytes=8):
        b.store_atomic(value, var, "release", ty_bytes)

    def _copy_state(self, b, dest, src):
        """The exception of state `src` into state `dest`: from `kind` to the end (stdlib/runtime_exc.px).
        The fields before it are the thread's: its messages stay in its list, its stack limit and
        recursion guards its own."""
        rt = self.rt
        b.call(self.memcpy, [b.bitcast(rt.exc_at(b, dest, "kind"), CHARP), b.bitcast(rt.exc_at(b, src, "kind"), CHARP),
                             rt.exc.size().sub(rt.exc.offset("kind"))])

    def _is_interrupt(self, b, kind):
        """Whether the exception class `kind` (a C string) is KeyboardInterrupt."""
        strcmp = self.rt.libc("strcmp")
        return b.icmp_signed("==", b.call(strcmp, [kind, self.rt.cstr(b, "KeyboardInterrupt")]), I32(0))

    @staticmethod
    def _bounds(b, count, chunks, c):
        """Piece c of `chunks` nearly equal pieces of [0, count): [c*q + min(c, r), ... + q + (c < r)),
        as runtime_pool.px's `_run_pieces` cuts them."""
        q, r = b.udiv(count, chunks), b.urem(count, chunks)
        before = b.icmp_unsigned("<", c, r)
        lo = b.add(b.mul(c, q), b.select(before, c, r))
        hi = b.add(b.add(lo, q), b.zext(before, I64))
        return lo, hi

    @staticmethod
    def _record_field(b, record, index):
        return b.gep(record, [I32(0), I32(index)], inbounds=True)

    # ---- pieces ----
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
            with b.if_then(self._is_interrupt(b, b.load(rt.exc_at(b, state, "kind")))):
                b.store_atomic(I32(1), b.load(rt.interrupt_flag), "monotonic", 4)
            b.store(ll.Constant(CHARP, None), rt.exc_at(b, state, "kind"))
            b.store(I32(0), rt.exc_at(b, state, "depth"))
        b.ret(raised)
        return fn

    # ---- the entries the loader and other modules call, each a call of the pyx pool ----
    def _define_core(self):
        """`int32 __pyx_pool_core(piece, args, count, chunks)`: run the loop on this pool's threads
        and the caller's; 0 (nothing run) where the caller must run it serially. The division is
        here because pyx's `//` checks for zero, and a pyx helper that may raise has no C signature."""
        fn, b = self._exported("__pyx_pool_core", I32, [PIECE.as_pointer(), CHARP, I64, I64])
        piece, args, count, chunks = fn.args
        some = b.select(b.icmp_signed(">", chunks, I64(0)), chunks, I64(1))
        b.ret(b.call(self._pyx("pool_core"), [self._pool(b), b.bitcast(piece, CHARP), args, chunks,
                                              b.udiv(count, some), b.urem(count, some)]))
        return fn

    def _define_own_threads(self):
        """`int64 __pyx_pool_own_threads()`: threads a loop on this module's pool uses (starts it)."""
        fn, b = self._exported("__pyx_pool_own_threads", I64, [])
        b.ret(b.call(self._pyx("pool_threads"), [self._pool(b)]))
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
        b.call(self._pyx("pool_set_limit"), [self._pool(b), fn.args[0]])
        b.ret_void()

    def _define_shutdown(self):
        """`void __pyx_pool_shutdown()`: stop and join the workers, before the JIT frees this code."""
        _, b = self._exported("__pyx_pool_shutdown", VOID, [])
        b.call(self._pyx("pool_shutdown"), [self._pool(b)])
        b.ret_void()

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
            with b.if_then(self._is_interrupt(b, b.load(rt.exc_at(b, error, "kind")))):
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
