"""The runtime of `--memcheck` (see ir/memcheck.py): which arrays are alive, and the check.

The live arrays are a table of [lo, hi) address ranges behind a mutex: `Ptr.alloc` adds
one and `free` removes it; Python adds the arrays it passes for the length of a call
(`__pyx_memcheck_register`/`__pyx_memcheck_unregister` are exported for it). An access
through a global pointer must fall inside the range its pointer points into; an access
through a shared-memory pointer, inside the block's shared memory. A miss raises
`IndexError` with the index, the array's length and, in a kernel, the block and thread.
This is a debugging mode: every checked access takes the mutex.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .abi import MEMCHECK_REGISTER, MEMCHECK_UNREGISTER
from .runtime_lib import CHARP, I1, I32, I64, VOID, counted_loop

SLOTS = 65536  # live arrays at once; 1 MiB of zeroed memory, only in --memcheck programs
RANGE = ll.LiteralStructType([I64, I64])
MESSAGE_BYTES = 320


class MemcheckRuntime:
    def __init__(self, rt, gpu_cpu):
        self.rt, self.gpu = rt, gpu_cpu
        self.table = rt._global("__pyx_memcheck_table", ll.ArrayType(RANGE, SLOTS),
                                ll.Constant(ll.ArrayType(RANGE, SLOTS), None))
        self.count = rt._global("__pyx_memcheck_count", I64, I64(0))
        # A pthread_mutex_t (its size a PlatformFact); all zeros is glibc's PTHREAD_MUTEX_INITIALIZER.
        mutex_type = ll.ArrayType(ll.IntType(8), -(-rt.facts.pthread_mutex_bytes // 16) * 16)
        self.mutex = rt._global("__pyx_memcheck_mutex", mutex_type, ll.Constant(mutex_type, None))
        self.mutex.align = 16
        self.register = self._define_register()
        self.unregister = self._define_unregister()
        self.check = self._define_check()

    def _locked(self, b: ll.IRBuilder, body) -> None:
        lock = self.rt.libc("pthread_mutex_lock")
        unlock = self.rt.libc("pthread_mutex_unlock")
        mutex = b.bitcast(self.mutex, CHARP)
        b.call(lock, [mutex])
        body()
        b.call(unlock, [mutex])

    def _slot(self, b: ll.IRBuilder, k, field: int):
        return b.gep(self.table, [I32(0), k, I32(field)], inbounds=True)

    def _exported(self, name: str, args) -> tuple[ll.Function, ll.IRBuilder]:
        fn = ll.Function(self.rt.module, ll.FunctionType(VOID, args), name)  # external: Python calls it
        return fn, ll.IRBuilder(fn.append_basic_block("entry"))

    def _define_register(self) -> ll.Function:
        """`void __pyx_memcheck_register(i8* p, i64 nbytes)`: [p, p + nbytes) is a live array."""
        fn, b = self._exported(MEMCHECK_REGISTER, [CHARP, I64])
        lo = b.ptrtoint(fn.args[0], I64)

        def add():
            n = b.load(self.count)
            with b.if_then(b.icmp_unsigned("<", n, I64(SLOTS))):
                b.store(lo, self._slot(b, n, 0))
                b.store(b.add(lo, fn.args[1]), self._slot(b, n, 1))
                b.store(b.add(n, I64(1)), self.count)

        self._locked(b, add)
        b.ret_void()
        return fn

    def _define_unregister(self) -> ll.Function:
        """`void __pyx_memcheck_unregister(i8* p)`: the array at p is gone (the last one moves into its slot)."""
        fn, b = self._exported(MEMCHECK_UNREGISTER, [CHARP])
        lo = b.ptrtoint(fn.args[0], I64)
        at = b.alloca(I64)

        def remove():
            b.store(I64(-1), at)
            n = b.load(self.count)

            def match(_, k):
                with b.if_then(b.icmp_unsigned("==", b.load(self._slot(b, k, 0)), lo)):
                    b.store(k, at)

            counted_loop(b, I64(0), n, match)
            k = b.load(at)
            with b.if_then(b.icmp_signed(">=", k, I64(0))):
                last = b.sub(n, I64(1))
                for field in (0, 1):
                    b.store(b.load(self._slot(b, last, field)), self._slot(b, k, field))
                b.store(last, self.count)

        self._locked(b, remove)
        b.ret_void()
        return fn

    def _find(self, b: ll.IRBuilder, address) -> tuple:
        """(found, lo, hi) of the live array `address` points into (an empty array: at its start)."""
        found, lo, hi = b.alloca(I1), b.alloca(I64), b.alloca(I64)
        b.store(ll.Constant(I1, 0), found)

        def scan():
            def visit(_, k):
                a, z = b.load(self._slot(b, k, 0)), b.load(self._slot(b, k, 1))
                inside = b.and_(b.icmp_unsigned("<=", a, address), b.icmp_unsigned("<", address, z))
                with b.if_then(b.or_(inside, b.icmp_unsigned("==", a, address))):
                    b.store(ll.Constant(I1, 1), found)
                    b.store(a, lo)
                    b.store(z, hi)

            counted_loop(b, I64(0), b.load(self.count), visit)

        self._locked(b, scan)
        return b.load(found), b.load(lo), b.load(hi)

    def _define_check(self) -> ll.Function:
        """`bool __pyx_memcheck(addr, index, elem_bytes, lanes, is_store, address_space, type, func, file, line)`:
        false when elements [index, index + lanes) from addr are inside their array; otherwise
        IndexError is raised (with a frame for the access) and the result is true."""
        rt = self.rt
        fn, b = rt._function("__pyx_memcheck", I1, [I64, I64, I64, I64, I32, I32, CHARP, CHARP, CHARP, I32])
        fn.attributes.add("noinline")
        address, index, elem, lanes, store, space, type_name, func, file, line = fn.args
        found, lo, hi = b.alloca(I1), b.alloca(I64), b.alloca(I64)
        ctx = b.call(self.gpu.ctx_fn, [])
        in_kernel = b.icmp_unsigned("!=", ctx, ll.Constant(ctx.type, None))
        with b.if_else(b.icmp_signed("==", space, I32(3))) as (shared, global_):
            with shared:
                with b.if_then(b.not_(in_kernel)):
                    b.ret(ll.Constant(I1, 0))  # a device function called from the host: nothing to check
                base = b.ptrtoint(b.load(self.gpu.field(b, "shared", ctx)), I64)
                b.store(ll.Constant(I1, 1), found)
                b.store(base, lo)
                b.store(b.add(base, b.load(self.gpu.field(b, "shared_size", ctx))), hi)
            with global_:
                f, a, z = self._find(b, address)
                b.store(f, found)
                b.store(a, lo)
                b.store(z, hi)
        found, lo, hi = b.load(found), b.load(lo), b.load(hi)
        start = b.add(address, b.mul(index, elem))
        end = b.add(start, b.mul(lanes, elem))
        inside = b.and_(b.icmp_unsigned("<=", lo, start), b.icmp_unsigned("<=", end, hi))
        inside = b.and_(inside, b.and_(found, b.icmp_unsigned("<=", start, end)))
        with b.if_then(inside, likely=True):
            b.ret(ll.Constant(I1, 0))
        snprintf = rt.libc("snprintf")
        strlen = rt.libc("strlen")
        text = b.call(rt.libc("malloc"), [I64(MESSAGE_BYTES)])  # kept by the exception

        def write(fmt: str, *args) -> None:
            used = b.call(strlen, [text])
            b.call(snprintf, [b.gep(text, [used]), b.sub(I64(MESSAGE_BYTES), used), rt.cstr(b, fmt), *args])

        b.store(ll.Constant(ll.IntType(8), 0), text)
        with b.if_else(found) as (known, unknown):
            with known, b.if_else(b.icmp_signed("==", space, I32(3))) as (shared, global_):
                with shared:
                    write("index %lld is out of bounds of the block's shared memory (%lld bytes from this "
                          "pointer)", index, b.sub(hi, address))
                with global_:
                    total = b.udiv(b.sub(hi, lo), elem)
                    with b.if_else(b.icmp_unsigned("==", address, lo)) as (at_start, inside_array):
                        with at_start:
                            write("index %lld is out of bounds for an array of %lld %s", index, total, type_name)
                        with inside_array:
                            write("index %lld is out of bounds for a pointer %lld elements into an array of "
                                  "%lld %s", index, b.udiv(b.sub(address, lo), elem), total, type_name)
            with unknown:
                write("index %lld through a pointer that is not into any live array", index)
        with b.if_then(b.icmp_unsigned(">", lanes, I64(1))):
            verb = b.select(b.icmp_signed("!=", store, I32(0)), rt.cstr(b, "store"), rt.cstr(b, "load"))
            write(" (a %s of %lld lanes)", verb, lanes)
        with b.if_then(in_kernel):
            ids = [b.load(b.gep(self.gpu.field(b, "idx", ctx), [I32(0), I32(k)], inbounds=True))
                   for k in (3, 4, 5, 0, 1, 2)]
            write(", in block (%lld, %lld, %lld), thread (%lld, %lld, %lld)", *ids)
        b.call(rt.raise_, [rt.cstr(b, "IndexError"), text, func, file, line])
        b.ret(ll.Constant(I1, 1))
        return fn
