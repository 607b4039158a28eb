"""Support code every pyx module carries, generated as LLVM IR so no C toolchain is needed.

- the exception state: the class and message of the pending exception, and a
  traceback of (function, file, line) frames pushed while it propagates;
- Python-compatible printing (host only): ints, bools, strings, and floats in
  Python's shortest round-trip `repr`.
"""
from __future__ import annotations

from llvmlite import ir as ll

I1, I8, I32, I64 = ll.IntType(1), ll.IntType(8), ll.IntType(32), ll.IntType(64)
F16, F32, F64 = ll.HalfType(), ll.FloatType(), ll.DoubleType()
CHARP = I8.as_pointer()
VOID = ll.VoidType()
MAX_FRAMES = 64
FLOAT_TEXT = 40  # bytes a formatted float may take, its NUL included
# Runtime helpers pyx source may call through `external_call["__pyx_NAME", ...]`.
SOURCE_HELPERS = {"format_i64", "format_u64", "format_f64", "format_f32", "format_f16", "format_bf16", "format_fixed",
                  "print_bytes"}
# The pending exception of one thread: class, message, and the traceback frames pushed while
# it propagates (function, file, line), innermost first.
# TEXTS heads this thread's list of messages made at run time (`raise ValueError("bad " + s)`):
# each block is the next block's address, then the NUL-terminated text. A `try` frees the ones
# made inside it when it completes; it is last, so copying a state up to it leaves it behind.
EXC_STATE = ll.LiteralStructType([CHARP, CHARP, I32, ll.ArrayType(CHARP, MAX_FRAMES),
                                  ll.ArrayType(CHARP, MAX_FRAMES), ll.ArrayType(I32, MAX_FRAMES), CHARP])
TYPE, MSG, DEPTH, FUNCS, FILES, LINES, TEXTS = range(7)


def counted_loop(b: ll.IRBuilder, start, count, body, stride: int = 1) -> None:
    """for i in range(start, count, stride): body(b, i) in IR (i64), the builder left after the loop.
    The counter's slot is an alloca in the entry block, so loops inside loops do not grow the stack."""
    fn, here = b.function, b.block
    entry = fn.entry_basic_block
    if entry.is_terminated and entry is not here:
        b.position_before(entry.terminator)
    else:
        b.position_at_end(entry)
    var = b.alloca(I64)
    b.position_at_end(here)
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


class RuntimeLib:
    def __init__(self, module: ll.Module, host: bool):
        self.module = module
        self.host = host
        self.strings: dict[str, ll.GlobalVariable] = {}
        self._functions: dict[str, ll.Function] = {}
        self._define_exception_state()

    # ---- helpers ----
    def cstr(self, builder: ll.IRBuilder, text: str) -> ll.Value:
        g = self.strings.get(text)
        if g is None:
            data = bytearray(text.encode("utf-8")) + b"\0"
            g = ll.GlobalVariable(self.module, ll.ArrayType(I8, len(data)), name=f".str.{len(self.strings)}")
            g.linkage = "private"
            g.global_constant = True
            g.unnamed_addr = True
            g.initializer = ll.Constant(ll.ArrayType(I8, len(data)), data)
            self.strings[text] = g
        return builder.gep(g, [I32(0), I32(0)], inbounds=True)

    def libc(self, name: str, ret, args, var_arg=False) -> ll.Function:
        fn = self.module.globals.get(name)
        if fn is None:
            fn = ll.Function(self.module, ll.FunctionType(ret, args, var_arg=var_arg), name)
        return fn

    def _global(self, name: str, ty, init) -> ll.GlobalVariable:
        g = ll.GlobalVariable(self.module, ty, name=name)
        g.linkage = "internal"
        g.initializer = init
        return g

    def _function(self, name: str, ret, args) -> tuple[ll.Function, ll.IRBuilder]:
        fn = ll.Function(self.module, ll.FunctionType(ret, args), name)
        fn.linkage = "internal"
        builder = ll.IRBuilder(fn.append_basic_block("entry"))
        self._functions[name] = fn
        return fn, builder

    # ---- exceptions ----
    def _define_exception_state(self) -> None:
        """One `ExcState` per thread that runs pyx code: the program's thread, pool workers, and
        Python threads calling in at the same time (calls release the GIL). MCJIT cannot relocate
        thread-local globals, so each thread's state hangs off a pthread key, created on first
        use; only raising and handling paths ask for it. Without a key (none left, or the GPU)
        every thread shares one global state."""
        self.main_state = self._global("__pyx_exc_main", EXC_STATE, ll.Constant(EXC_STATE, None))
        state, b = self._function("__pyx_exc_state", EXC_STATE.as_pointer(), [])
        if self.host:
            self.exc_key = self._global("__pyx_exc_key", I32, I32(0))
            self.exc_key_made = self._global("__pyx_exc_key_made", I32, I32(0))
            once = self._global("__pyx_exc_once", I32, I32(0))  # PTHREAD_ONCE_INIT
            make, mb = self._function("__pyx_exc_make_key", VOID, [])
            free = self.libc("free", VOID, [CHARP])
            made = mb.call(self.libc("pthread_key_create", I32, [I32.as_pointer(), free.type]), [self.exc_key, free])
            mb.store(mb.zext(mb.icmp_signed("==", made, I32(0)), I32), self.exc_key_made)
            mb.ret_void()
            b.call(self.libc("pthread_once", I32, [I32.as_pointer(), make.type]), [once, make])
            shared, keyed, fresh = (state.append_basic_block(x) for x in ("shared", "keyed", "fresh"))
            b.cbranch(b.icmp_signed("!=", b.load(self.exc_key_made), I32(0)), keyed, shared)
            b = ll.IRBuilder(keyed)
            key = b.load(self.exc_key)
            mine = b.call(self.libc("pthread_getspecific", CHARP, [I32]), [key])
            found = state.append_basic_block("found")
            b.cbranch(b.icmp_unsigned("!=", mine, ll.Constant(CHARP, None)), found, fresh)
            b = ll.IRBuilder(found)
            b.ret(b.bitcast(mine, EXC_STATE.as_pointer()))
            b = ll.IRBuilder(fresh)
            size = b.ptrtoint(b.gep(ll.Constant(EXC_STATE.as_pointer(), None), [I32(1)]), I64)
            block = b.call(self.libc("calloc", CHARP, [I64, I64]), [I64(1), size])
            allocated = state.append_basic_block("allocated")
            b.cbranch(b.icmp_unsigned("!=", block, ll.Constant(CHARP, None)), allocated, shared)
            b = ll.IRBuilder(allocated)
            b.call(self.libc("pthread_setspecific", I32, [I32, CHARP]), [key, block])
            b.ret(b.bitcast(block, EXC_STATE.as_pointer()))
            b = ll.IRBuilder(shared)
            self._define_exc_shutdown()
        b.ret(self.main_state)
        self.state_fn = state

        push, b = self._function("__pyx_tb_push", VOID, [CHARP, CHARP, I32])
        push.attributes.add("noinline")
        push.attributes.add("cold")
        func, file, line = push.args
        st = b.call(state, [])
        depth_at = self.field(b, st, DEPTH)
        depth = b.load(depth_at)
        with b.if_then(b.icmp_unsigned("<", depth, I32(MAX_FRAMES))):
            for field, value in ((FUNCS, func), (FILES, file), (LINES, line)):
                b.store(value, b.gep(st, [I32(0), I32(field), depth], inbounds=True))
        b.store(b.add(depth, I32(1)), depth_at)
        b.ret_void()
        self.tb_push = push

        raise_, b = self._function("__pyx_raise", VOID, [CHARP, CHARP, CHARP, CHARP, I32])
        raise_.attributes.add("noinline")
        raise_.attributes.add("cold")
        etype, emsg, func, file, line = raise_.args
        st = b.call(state, [])
        b.store(etype, self.field(b, st, TYPE))
        b.store(emsg, self.field(b, st, MSG))
        b.store(I32(0), self.field(b, st, DEPTH))
        with b.if_then(b.icmp_signed(">=", line, I32(0))):
            b.call(push, [func, file, line])
        b.ret_void()
        self.raise_ = raise_

        raise_text, b = self._function("__pyx_raise_text", VOID, [CHARP, CHARP, I64, CHARP, CHARP, I32])
        raise_text.attributes.add("noinline")
        raise_text.attributes.add("cold")
        etype, data, size, func, file, line = raise_text.args
        st = b.call(state, [])
        block = b.call(self.libc("malloc", CHARP, [I64]), [b.add(size, I64(9))])
        text = b.gep(block, [I64(8)])
        b.call(self.libc("memcpy", CHARP, [CHARP, CHARP, I64]), [text, data, size])
        b.store(I8(0), b.gep(text, [size]))
        b.store(b.load(self.field(b, st, TEXTS)), b.bitcast(block, CHARP.as_pointer()))
        b.store(block, self.field(b, st, TEXTS))
        b.call(raise_, [etype, text, func, file, line])
        b.ret_void()
        self.raise_text = raise_text

        release, b = self._function("__pyx_texts_release", VOID, [CHARP])
        mark = release.args[0]
        head_at = self.field(b, b.call(state, []), TEXTS)
        loop, step, done = (release.append_basic_block(x) for x in ("loop", "step", "done"))
        b.branch(loop)
        b = ll.IRBuilder(loop)
        head = b.load(head_at)
        b.cbranch(b.and_(b.icmp_unsigned("!=", head, mark), b.icmp_unsigned("!=", head, ll.Constant(CHARP, None))),
                  step, done)
        b = ll.IRBuilder(step)
        b.store(b.load(b.bitcast(head, CHARP.as_pointer())), head_at)
        b.call(self.libc("free", VOID, [CHARP]), [head])
        b.branch(loop)
        ll.IRBuilder(done).ret_void()
        self.texts_release = release

    def _define_exc_shutdown(self) -> None:
        """`void __pyx_exc_shutdown()`: give the key back before the JIT frees this module."""
        fn = ll.Function(self.module, ll.FunctionType(VOID, []), "__pyx_exc_shutdown")
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        with b.if_then(b.icmp_signed("!=", b.load(self.exc_key_made), I32(0))):
            b.call(self.libc("pthread_key_delete", I32, [I32]), [b.load(self.exc_key)])
            b.store(I32(0), self.exc_key_made)
        b.ret_void()

    def state(self, b: ll.IRBuilder) -> ll.Value:
        """This thread's exception state."""
        return b.call(self.state_fn, [])

    @staticmethod
    def field(b: ll.IRBuilder, state: ll.Value, index: int) -> ll.Value:
        return b.gep(state, [I32(0), I32(index)], inbounds=True)

    def exc_field(self, b: ll.IRBuilder, index: int) -> ll.Value:
        return self.field(b, self.state(b), index)

    def frame_field(self, b: ll.IRBuilder, state: ll.Value, index: int, k: ll.Value) -> ll.Value:
        return b.gep(state, [I32(0), I32(index), k], inbounds=True)

    # ---- printing (host) ----
    def print_fn(self, name: str) -> ll.Function:
        symbol = "__pyx_" + name
        if symbol in self._functions:
            return self._functions[symbol]
        return getattr(self, "_define_" + name)()

    def _printf(self, b: ll.IRBuilder, fmt: str, *args) -> None:
        printf = self.libc("printf", I32, [CHARP], var_arg=True)
        b.call(printf, [self.cstr(b, fmt), *args])

    def _define_print_str(self):
        fn, b = self._function("__pyx_print_str", VOID, [CHARP])
        self._printf(b, "%s", fn.args[0])
        b.ret_void()
        return fn

    def _define_print_i64(self):
        fn, b = self._function("__pyx_print_i64", VOID, [I64])
        self._printf(b, "%lld", fn.args[0])
        b.ret_void()
        return fn

    def _define_print_u64(self):
        fn, b = self._function("__pyx_print_u64", VOID, [I64])
        self._printf(b, "%llu", fn.args[0])
        b.ret_void()
        return fn

    def _define_print_bool(self):
        fn, b = self._function("__pyx_print_bool", VOID, [I1])
        text = b.select(fn.args[0], self.cstr(b, "True"), self.cstr(b, "False"))
        self._printf(b, "%s", text)
        b.ret_void()
        return fn

    def helper(self, symbol: str) -> ll.Function | None:
        """A runtime helper that pyx source reaches with `external_call` (the stdlib's String
        formats numbers and prints its bytes with these); None for any other symbol."""
        name = symbol.removeprefix("__pyx_")
        return self.print_fn(name) if name in SOURCE_HELPERS else None

    def _define_print_f64(self):
        return self._define_print_float("f64", F64)

    def _define_print_f32(self):
        return self._define_print_float("f32", F32)

    def _define_print_f16(self):
        return self._define_print_float("f16", F16)

    def _define_print_bf16(self):
        return self._define_print_float("bf16", ll.IntType(16))

    def _define_print_float(self, suffix: str, fty):
        fn, b = self._function("__pyx_print_" + suffix, VOID, [fty])
        buf = b.alloca(ll.ArrayType(I8, FLOAT_TEXT))
        text = b.gep(buf, [I32(0), I32(0)], inbounds=True)
        b.call(self.print_fn("format_" + suffix), [fn.args[0], text])
        self._printf(b, "%s", text)
        b.ret_void()
        return fn

    def _define_format_i64(self):
        return self._define_format_int("i64", "%lld")

    def _define_format_u64(self):
        return self._define_format_int("u64", "%llu")

    def _define_format_int(self, suffix: str, fmt: str):
        """`i64 __pyx_format_i64(i64 x, char out[24])` (and u64): the decimal text, its length returned."""
        fn, b = self._function("__pyx_format_" + suffix, I64, [I64, CHARP])
        snprintf = self.libc("snprintf", I32, [CHARP, I64, CHARP], var_arg=True)
        b.ret(b.sext(b.call(snprintf, [fn.args[1], I64(24), self.cstr(b, fmt), fn.args[0]]), I64))
        return fn

    def _define_format_fixed(self):
        """`i64 __pyx_format_fixed(double x, i64 precision, i64 code, char *out)`: printf's `%.*f`
        (or e, g, F, E, G: `code` is the letter) into out, its length returned."""
        fn, b = self._function("__pyx_format_fixed", I64, [F64, I64, I64, CHARP])
        x, precision, code, out = fn.args
        snprintf = self.libc("snprintf", I32, [CHARP, I64, CHARP], var_arg=True)
        fmt = b.alloca(ll.ArrayType(I8, 5))
        for k, ch in enumerate(b"%.*"):
            b.store(I8(ch), b.gep(fmt, [I32(0), I32(k)]))
        b.store(b.trunc(code, I8), b.gep(fmt, [I32(0), I32(3)]))
        b.store(I8(0), b.gep(fmt, [I32(0), I32(4)]))
        size = b.add(precision, I64(320))
        written = b.call(snprintf, [out, size, b.gep(fmt, [I32(0), I32(0)]), b.trunc(precision, I32), x])
        b.ret(b.sext(written, I64))
        return fn

    def _define_print_bytes(self):
        """`void __pyx_print_bytes(char *text, i64 size)`: UTF-8 that may hold NUL bytes."""
        fn, b = self._function("__pyx_print_bytes", VOID, [CHARP, I64])
        putchar = self.libc("putchar", I32, [I32])
        text, size = fn.args
        counted_loop(b, I64(0), size, lambda b, i: b.call(putchar, [b.zext(b.load(b.gep(text, [i])), I32)]))
        b.ret_void()
        return fn

    def _define_print_repr(self):
        """`void __pyx_print_repr(char *text, i64 size)`: a str as Python's repr shows it inside a
        list or dict: in single quotes (double ones if it holds a single quote and no double
        quote), with backslash, that quote, \\t \\n \\r and other control bytes escaped."""
        fn, b = self._function("__pyx_print_repr", VOID, [CHARP, I64])
        text, size = fn.args
        putchar = self.libc("putchar", I32, [I32])
        memchr = self.libc("memchr", CHARP, [CHARP, I32, I64])
        null = ll.Constant(CHARP, None)
        single = b.icmp_unsigned("!=", b.call(memchr, [text, I32(ord("'")), size]), null)
        double = b.icmp_unsigned("!=", b.call(memchr, [text, I32(ord('"')), size]), null)
        quote = b.select(b.and_(single, b.not_(double)), I32(ord('"')), I32(ord("'")))
        b.call(putchar, [quote])

        def body(b, i):
            c = b.zext(b.load(b.gep(text, [i])), I32)
            escape = I32(0)
            for byte, letter in ((ord("\\"), ord("\\")), (9, ord("t")), (10, ord("n")), (13, ord("r"))):
                escape = b.select(b.icmp_unsigned("==", c, I32(byte)), I32(letter), escape)
            escape = b.select(b.icmp_unsigned("==", c, quote), quote, escape)
            escaped, other, hexed, plain, done = (fn.append_basic_block(n) for n in (
                "escaped", "other", "hex", "plain", "next"))
            b.cbranch(b.icmp_unsigned("!=", escape, I32(0)), escaped, other)
            b.position_at_end(escaped)
            b.call(putchar, [I32(ord("\\"))])
            b.call(putchar, [escape])
            b.branch(done)
            b.position_at_end(other)
            control = b.or_(b.icmp_unsigned("<", c, I32(32)), b.icmp_unsigned("==", c, I32(127)))
            b.cbranch(control, hexed, plain)
            b.position_at_end(hexed)
            self._printf(b, "\\x%02x", c)
            b.branch(done)
            b.position_at_end(plain)
            b.call(putchar, [c])
            b.branch(done)
            b.position_at_end(done)

        counted_loop(b, I64(0), size, body)
        b.call(putchar, [quote])
        b.ret_void()
        return fn

    def _define_format_f64(self):
        return self._define_format_float("__pyx_format_f64", F64, 17)

    def _define_format_f32(self):
        return self._define_format_float("__pyx_format_f32", F32, 9)

    def _define_format_f16(self):
        return self._define_format_float("__pyx_format_f16", F16, 5)

    def _define_format_bf16(self):
        return self._define_format_float("__pyx_format_bf16", F32, 4, bfloat16=True)

    def _define_format_float(self, name: str, fty, max_digits: int, bfloat16: bool = False):
        """`i64 format(float x, char out[FLOAT_TEXT])`: Python's float repr, its length returned:
        the fewest significant digits that read back to the same value, fixed notation for
        exponents in [-4, 16), scientific otherwise, and `.0` on integers. A BFloat16 comes as its
        16 bits and is compared as the Float32 it is exactly."""
        from .halfconv import from_bfloat16, to_bfloat16

        fn, b = self._function(name, I64, [ll.IntType(16) if bfloat16 else fty, CHARP])
        x, out = fn.args
        if bfloat16:
            x = from_bfloat16(b, x)
        snprintf = self.libc("snprintf", I32, [CHARP, I64, CHARP], var_arg=True)
        strtod = self.libc("strtod", F64, [CHARP, CHARP.as_pointer()])
        strtof = self.libc("strtof", F32, [CHARP, CHARP.as_pointer()])
        strchr = self.libc("strchr", CHARP, [CHARP, I32])
        atoi = self.libc("atoi", I32, [CHARP])
        xd = x if fty == F64 else b.fpext(x, F64)

        def read_back():
            """The text in buf, parsed back to fty. A Float16 goes through double: a decimal of at most
            5 digits is never within double rounding error of a Float16 midpoint, so this rounds once."""
            from .halfconv import double_to_half

            null = ll.Constant(CHARP.as_pointer(), None)
            if bfloat16:
                return from_bfloat16(b, to_bfloat16(b, b.call(strtod, [bufp, null])))
            if fty == F32:
                return b.call(strtof, [bufp, null])
            value = b.call(strtod, [bufp, null])
            return value if fty == F64 else double_to_half(b, value)

        special = fn.append_basic_block("special")
        finite = fn.append_basic_block("finite")
        is_nan = b.fcmp_unordered("uno", x, x)
        is_inf = b.fcmp_ordered("==", b.call(self.module.declare_intrinsic("llvm.fabs", [fty]), [x]),
                                ll.Constant(fty, float("inf")))
        b.cbranch(b.or_(is_nan, is_inf), special, finite)

        b.position_at_end(special)
        neg = b.fcmp_ordered("<", x, ll.Constant(fty, 0.0))
        text = b.select(is_nan, self.cstr(b, "nan"), b.select(neg, self.cstr(b, "-inf"), self.cstr(b, "inf")))
        b.ret(b.sext(b.call(snprintf, [out, I64(FLOAT_TEXT), self.cstr(b, "%s"), text]), I64))

        b.position_at_end(finite)
        buf = b.alloca(ll.ArrayType(I8, 40))
        p = b.alloca(I32)
        bufp = b.gep(buf, [I32(0), I32(0)], inbounds=True)
        b.store(I32(1), p)
        loop, found = fn.append_basic_block("digits"), fn.append_basic_block("found")
        b.branch(loop)
        b.position_at_end(loop)
        digits = b.load(p)
        b.call(snprintf, [bufp, I64(40), self.cstr(b, "%.*e"), b.sub(digits, I32(1)), xd])
        back = read_back()
        exact = b.fcmp_ordered("==", back, x)
        enough = b.icmp_signed(">=", digits, I32(max_digits))
        b.store(b.add(digits, I32(1)), p)
        neighbour = fn.append_basic_block("neighbour")
        b.cbranch(b.or_(exact, enough), found, neighbour)

        # The correctly rounded decimal did not read back. Next to a power of two the interval
        # of decimals that do is lopsided, so the neighbouring decimal on x's side may: try it.
        b.position_at_end(neighbour)
        xabs = b.call(self.module.declare_intrinsic("llvm.fabs", [fty]), [x])
        back_abs = b.call(self.module.declare_intrinsic("llvm.fabs", [back.type]), [back])
        up = b.fcmp_ordered("<", back_abs, xabs)
        bumped = b.call(self._bump_digits(), [bufp, up])
        retry = fn.append_basic_block("retry")
        b.cbranch(bumped, retry, loop)
        b.position_at_end(retry)
        again = read_back()
        b.cbranch(b.fcmp_ordered("==", again, x), found, loop)

        b.position_at_end(found)
        exponent = b.call(atoi, [b.gep(b.call(strchr, [bufp, I32(ord("e"))]), [I32(1)])])
        fixed = b.and_(b.icmp_signed(">=", exponent, I32(-4)), b.icmp_signed("<", exponent, I32(16)))
        fixed_bb, sci_bb = fn.append_basic_block("fixed"), fn.append_basic_block("scientific")
        b.cbranch(fixed, fixed_bb, sci_bb)

        b.position_at_end(sci_bb)
        b.ret(b.sext(b.call(snprintf, [out, I64(FLOAT_TEXT), self.cstr(b, "%s"), bufp]), I64))

        b.position_at_end(fixed_bb)
        decimals = b.sub(b.sub(digits, I32(1)), exponent)
        decimals = b.select(b.icmp_signed("<", decimals, I32(0)), I32(0), decimals)
        # Lay out the digits found, not x: a neighbour's digits differ from x rounded afresh.
        shown = b.call(strtod, [bufp, ll.Constant(CHARP.as_pointer(), None)])
        b.call(snprintf, [bufp, I64(40), self.cstr(b, "%.*f"), decimals, shown])
        suffix = b.select(b.icmp_signed("==", decimals, I32(0)), self.cstr(b, ".0"), self.cstr(b, ""))
        b.ret(b.sext(b.call(snprintf, [out, I64(FLOAT_TEXT), self.cstr(b, "%s%s"), bufp, suffix]), I64))
        return fn

    def _bump_digits(self) -> ll.Function:
        """`bool bump(char *buf, bool up)`: add or subtract one unit in the last mantissa digit of a
        `%e` string in place, with carry; false (and nothing meaningful) if the digit count would change."""
        if "__pyx_bump_digits" in self._functions:
            return self._functions["__pyx_bump_digits"]
        fn, b = self._function("__pyx_bump_digits", I1, [CHARP, I1])
        buf, up = fn.args
        strchr = self.libc("strchr", CHARP, [CHARP, I32])
        start = b.select(b.icmp_unsigned("==", b.load(buf), I8(ord("-"))), I64(1), I64(0))
        e_at = b.ptrtoint(b.call(strchr, [buf, I32(ord("e"))]), I64)
        index = b.alloca(I64)
        b.store(b.sub(b.sub(e_at, b.ptrtoint(buf, I64)), I64(1)), index)
        loop, digit, carry, finish, fail = (fn.append_basic_block(n) for n in ("loop", "digit", "carry", "finish",
                                                                               "fail"))
        b.branch(loop)
        b.position_at_end(loop)
        i = b.load(index)
        b.cbranch(b.icmp_signed("<", i, start), fail, digit)
        b.position_at_end(digit)
        at = b.gep(buf, [i])
        c = b.load(at)
        is_dot = b.icmp_unsigned("==", c, I8(ord(".")))
        edge = b.select(up, I8(ord("9")), I8(ord("0")))
        wraps = b.icmp_unsigned("==", c, edge)
        step = b.select(up, I8(1), I8(-1 & 0xFF))
        b.store(b.sub(i, I64(1)), index)
        b.cbranch(b.or_(is_dot, wraps), carry, finish)
        b.position_at_end(carry)
        # '.' is skipped; a wrapping digit becomes 0 (or 9) and the carry moves left.
        wrapped = b.select(up, I8(ord("0")), I8(ord("9")))
        b.store(b.select(is_dot, c, wrapped), at)
        b.branch(loop)
        b.position_at_end(finish)
        new = b.add(c, step)
        b.store(new, at)
        # A leading digit that became 0 would change the number of significant digits.
        b.ret(b.not_(b.and_(b.icmp_unsigned("==", i, start), b.icmp_unsigned("==", new, I8(ord("0"))))))
        b.position_at_end(fail)
        b.ret(ll.Constant(I1, 0))
        return fn

    # ---- the program's entry (host) ----
    def define_entry(self, name: str, main: ll.Function, main_raises: bool) -> ll.Function:
        """`int entry(void)`: run main, print an uncaught exception like Python, flush, exit status."""
        fn = ll.Function(self.module, ll.FunctionType(I32, []), name)
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        fflush = self.libc("fflush", I32, [CHARP])
        # No reset of the exception state: a raise sets every field the report reads.
        if not main_raises:
            b.call(main, [])
            b.call(fflush, [ll.Constant(CHARP, None)])
            b.ret(I32(0))
            return fn
        failed = b.call(main, [])
        ok_bb, err_bb = fn.append_basic_block("ok"), fn.append_basic_block("uncaught")
        b.cbranch(failed, err_bb, ok_bb)
        b.position_at_end(ok_bb)
        b.call(fflush, [ll.Constant(CHARP, None)])
        b.ret(I32(0))
        b.position_at_end(err_bb)
        b.call(fflush, [ll.Constant(CHARP, None)])
        self._report(b)
        b.ret(I32(1))
        return fn

    def _report(self, b: ll.IRBuilder) -> None:
        fn = b.function
        dprintf = self.libc("dprintf", I32, [I32, CHARP], var_arg=True)
        b.call(dprintf, [I32(2), self.cstr(b, "Traceback (most recent call last):\n")])
        st = self.state(b)
        depth = b.load(self.field(b, st, DEPTH))
        depth = b.select(b.icmp_unsigned(">", depth, I32(MAX_FRAMES)), I32(MAX_FRAMES), depth)
        i = b.alloca(I32)
        b.store(depth, i)
        loop, body, done = (fn.append_basic_block(n) for n in ("frames", "frame", "message"))
        b.branch(loop)
        b.position_at_end(loop)
        cur = b.load(i)
        b.cbranch(b.icmp_signed(">", cur, I32(0)), body, done)
        b.position_at_end(body)
        k = b.sub(cur, I32(1))
        b.store(k, i)
        func = b.load(self.frame_field(b, st, FUNCS, k))
        file = b.load(self.frame_field(b, st, FILES, k))
        line = b.load(self.frame_field(b, st, LINES, k))
        b.call(dprintf, [I32(2), self.cstr(b, '  File "%s", line %d, in %s\n'), file, line, func])
        b.branch(loop)
        b.position_at_end(done)
        msg = b.load(self.field(b, st, MSG))
        empty = b.icmp_unsigned("==", b.load(msg), I8(0))
        sep = b.select(empty, self.cstr(b, ""), self.cstr(b, ": "))
        b.call(dprintf, [I32(2), self.cstr(b, "%s%s%s\n"), b.load(self.field(b, st, TYPE)), sep, msg])

    def define_c_main(self, entry: ll.Function) -> None:
        fn = ll.Function(self.module, ll.FunctionType(I32, [I32, CHARP.as_pointer()]), "main")
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        b.ret(b.call(entry, []))
