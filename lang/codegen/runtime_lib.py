"""Support code every pyx module carries, generated as LLVM IR so no C toolchain is needed.

- the exception state: the class and message of the pending exception, and a
  traceback of (function, file, line) frames pushed while it propagates, laid out as
  stdlib/runtime_exc.px declares it (exc_layout.py; every field found by its name, `exc_at`);
- Python-compatible printing (host only): ints, bools, strings, and floats in
  Python's shortest round-trip `repr` (pyx code, stdlib/float_repr.px, run in the "C" locale by
  stdlib/runtime_float.px and runtime_locale.px, linked in by runtime_source.py; ints, bools and
  text are pyx code too, stdlib/runtime_print.px, only declared here);
- the modules' sides of the pyx runtime's Ctrl-C handler (stdlib/runtime_signal.px), "C"
  locale (runtime_locale.px), stack limit (runtime_stack.px) and print errors
  (runtime_output.px): the state each finds through an accessor, filled with platform facts;
- the program's entry, whose ending (the uncaught exception's report, SystemExit's status, the
  flush at exit) is pyx code, stdlib/runtime_exit.px, called with what pyx cannot name: the
  thread's exception state, C's `stdout` and EPIPE.

The C library's layouts and numbers come from the target's PlatformFacts (platform_facts.py),
and the C functions called are declared from c_library.PROTOTYPES (`libc(name)`).
"""
from __future__ import annotations

import functools
import re

from llvmlite import ir as ll

from ..stdlib_dir import STDLIB
from .abi import ARGC_GLOBAL, ARGV_GLOBAL
from .c_library import PROTOTYPES
from .exc_layout import exc_layout
from .platform_facts import PlatformFacts

I1, I8, I32, I64 = ll.IntType(1), ll.IntType(8), ll.IntType(32), ll.IntType(64)
F16, F32, F64 = ll.HalfType(), ll.FloatType(), ll.DoubleType()
CHARP = I8.as_pointer()
VOID = ll.VoidType()


def _string_constant(name: str) -> int:
    """A byte count that stdlib/string.px declares (`comptime NAME = N`): the String code that
    gives the number formatters their buffers and the formatters themselves read this one number."""
    text = (STDLIB / "string.px").read_text(encoding="utf-8")
    found = re.search(rf"^comptime {name} = (\d+)\s*$", text, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"stdlib/string.px no longer declares `comptime {name} = <number>`")
    return int(found.group(1))


FLOAT_TEXT = _string_constant("_FLOAT_TEXT")  # bytes a formatted float may take, its NUL included
INT_TEXT = _string_constant("_INT_TEXT")  # bytes a formatted 64-bit integer may take, its NUL included
# Runtime helpers pyx source may call through `external_call["__pyx_NAME", ...]`.
SOURCE_HELPERS = {"format_i64", "format_u64", "format_f64", "format_f32", "format_f16", "format_bf16", "format_fixed",
                  "print_bytes", "strtod", "argc", "argv"}
# The program's arguments (stdlib/sys.px `argv`): ARGC_GLOBAL and ARGV_GLOBAL (abi.py), a count and a
# C array of C strings, stored by an executable's `main` or, for `pyx run`, by the driver (cli.py).
# The C library's layouts and numbers (sizeof(struct sigaction), EPIPE, LC_ALL_MASK, ...) are
# the target's PlatformFacts (platform_facts.py), `self.facts` here.
RUNTIME_MODULE = "__pyx_runtime"  # the module the pyx runtime's units are compiled in (runtime_source.py)


@functools.cache
def _slots(file: str) -> dict[str, int]:
    """The numbers a stdlib file declares (`comptime NAME = N`)."""
    text = (STDLIB / file).read_text(encoding="utf-8")
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^comptime (\w+) = (\d+)", text, re.MULTILINE)}


def _state_words(file: str, extra: int, values: dict) -> ll.Constant:
    """The initial state a pyx runtime file reads through its module's accessor: an array of 64-bit
    words, each of `values` (a number or a constant) in the slot the file names for it
    (`comptime _NAME = slot`), the others 0; its STATE_WORDS slots, then `extra` more."""
    slots = _slots(file)
    words = [I64(0)] * (slots["STATE_WORDS"] + extra)
    for name, value in values.items():
        words[slots[name]] = value if isinstance(value, ll.Constant) else I64(value)
    return ll.Constant(ll.ArrayType(I64, len(words)), words)


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
    def __init__(self, module: ll.Module, host: bool, facts: PlatformFacts | None = None):
        self.module = module
        self.host = host
        if host and facts is None:
            raise ValueError("a host module's runtime needs the target's PlatformFacts")
        self._facts = facts  # None on a GPU, whose code calls no C library
        self.strings: dict[str, ll.GlobalVariable] = {}
        self._functions: dict[str, ll.Function] = {}
        self.interrupt_flag = None
        # The exception state's layout (stdlib/runtime_exc.px), whose fields `exc_at` finds by name.
        self.exc = exc_layout()
        self._define_exception_state()
        # Every host module can install the SIGINT handler: whichever a loader loads first does. Not
        # the pyx runtime's own module, whose handler must find the state of the module it is linked into.
        if host and module.name != RUNTIME_MODULE:
            self.sigint_install()

    @property
    def facts(self) -> PlatformFacts:
        """The target's C library layouts and numbers (a host module's: a GPU calls no C library)."""
        if self._facts is None:
            raise ValueError("a GPU module has no C library, and no platform facts")
        return self._facts

    # ---- helpers ----
    def cstr(self, builder: ll.IRBuilder, text: str) -> ll.Value:
        return builder.gep(self._string(text), [I32(0), I32(0)], inbounds=True)

    def cstr_constant(self, text: str) -> ll.Constant:
        """`cstr` as a constant, for the initializer of a table."""
        return self._string(text).gep([I32(0), I32(0)])

    def _string(self, text: str) -> ll.GlobalVariable:
        g = self.strings.get(text)
        if g is None:
            data = bytearray(text.encode("utf-8")) + b"\0"
            g = ll.GlobalVariable(self.module, ll.ArrayType(I8, len(data)), name=f".str.{len(self.strings)}")
            g.linkage = "private"
            g.global_constant = True
            g.unnamed_addr = True
            g.initializer = ll.Constant(ll.ArrayType(I8, len(data)), data)
            self.strings[text] = g
        return g

    def libc(self, name: str, ret=None, args=None, var_arg=False) -> ll.Function:
        """A C function of the process, declared in this module: a C library function by its name
        alone, with the signature c_library.PROTOTYPES declares for it; anything else (an LLVM
        intrinsic, a libm function at some type, Python's C API) with the signature given."""
        fn = self.module.globals.get(name)
        if fn is None:
            known = PROTOTYPES.get(name)
            if known is not None:
                fty = known.function_type
                if ret is not None and str(ll.FunctionType(ret, args, var_arg=var_arg)) != str(fty):
                    raise TypeError(f"{name} is declared `{known.c}` (c_library.py), not {ret} {args}")
            else:
                fty = ll.FunctionType(ret, args, var_arg=var_arg)
            fn = ll.Function(self.module, fty, name)
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
        layout = self.exc.type
        self.main_state = self._global("__pyx_exc_main", layout, ll.Constant(layout, None))
        state, b = self._function("__pyx_exc_state", layout.as_pointer(), [])
        if self.host:
            self.exc_key = self._global("__pyx_exc_key", I32, I32(0))
            self.exc_key_made = self._global("__pyx_exc_key_made", I32, I32(0))
            once = self._global("__pyx_exc_once", I32, I32(0))  # PTHREAD_ONCE_INIT
            make, mb = self._function("__pyx_exc_make_key", VOID, [])
            free = self.libc("free")
            made = mb.call(self.libc("pthread_key_create"), [self.exc_key, free])
            mb.store(mb.zext(mb.icmp_signed("==", made, I32(0)), I32), self.exc_key_made)
            mb.ret_void()
            b.call(self.libc("pthread_once"), [once, make])
            shared, keyed, fresh = (state.append_basic_block(x) for x in ("shared", "keyed", "fresh"))
            b.cbranch(b.icmp_signed("!=", b.load(self.exc_key_made), I32(0)), keyed, shared)
            b = ll.IRBuilder(keyed)
            key = b.load(self.exc_key)
            mine = b.call(self.libc("pthread_getspecific"), [key])
            found = state.append_basic_block("found")
            b.cbranch(b.icmp_unsigned("!=", mine, ll.Constant(CHARP, None)), found, fresh)
            b = ll.IRBuilder(found)
            b.ret(b.bitcast(mine, layout.as_pointer()))
            b = ll.IRBuilder(fresh)
            block = b.call(self.libc("calloc"), [I64(1), self.exc.size()])
            allocated = state.append_basic_block("allocated")
            b.cbranch(b.icmp_unsigned("!=", block, ll.Constant(CHARP, None)), allocated, shared)
            b = ll.IRBuilder(allocated)
            b.call(self.libc("pthread_setspecific"), [key, block])
            b.ret(b.bitcast(block, layout.as_pointer()))
            b = ll.IRBuilder(shared)
            self._define_exc_shutdown()
        b.ret(self.main_state)
        self.state_fn = state

        push, b = self._function("__pyx_tb_push", VOID, [CHARP, CHARP, I32])
        push.attributes.add("noinline")
        push.attributes.add("cold")
        func, file, line = push.args
        st = b.call(state, [])
        depth_at = self.exc_at(b, st, "depth")
        depth = b.load(depth_at)
        with b.if_then(b.icmp_unsigned("<", depth, I32(self.exc.frames))):
            for field, value in (("functions", func), ("files", file), ("lines", line)):
                b.store(value, self.exc_at(b, st, field, depth))
        b.store(b.add(depth, I32(1)), depth_at)
        b.ret_void()
        self.tb_push = push

        raise_, b = self._function("__pyx_raise", VOID, [CHARP, CHARP, CHARP, CHARP, I32])
        raise_.attributes.add("noinline")
        raise_.attributes.add("cold")
        etype, emsg, func, file, line = raise_.args
        st = b.call(state, [])
        b.store(etype, self.exc_at(b, st, "kind"))
        b.store(emsg, self.exc_at(b, st, "message"))
        if self.host:  # (its arguments: none for an empty message, else one str; raise_text's have one)
            b.store(b.zext(b.icmp_unsigned("!=", b.load(emsg), I8(0)), I32), self.exc_at(b, st, "shown"))
        b.store(I32(0), self.exc_at(b, st, "depth"))
        with b.if_then(b.icmp_signed(">=", line, I32(0))):
            b.call(push, [func, file, line])
        b.ret_void()
        self.raise_ = raise_

        raise_text, b = self._function("__pyx_raise_text", VOID, [CHARP, CHARP, I64, CHARP, CHARP, I32])
        raise_text.attributes.add("noinline")
        raise_text.attributes.add("cold")
        etype, data, size, func, file, line = raise_text.args
        st = b.call(state, [])
        block = b.call(self.libc("malloc"), [b.add(size, I64(9))])
        text = b.gep(block, [I64(8)])
        b.call(self.libc("memcpy"), [text, data, size])
        b.store(I8(0), b.gep(text, [size]))
        b.store(b.load(self.exc_at(b, st, "texts")), b.bitcast(block, CHARP.as_pointer()))
        b.store(block, self.exc_at(b, st, "texts"))
        b.call(raise_, [etype, text, func, file, line])
        if self.host:
            b.store(I32(1), self.exc_at(b, st, "shown"))
        b.ret_void()
        self.raise_text = raise_text

        release, b = self._function("__pyx_texts_release", VOID, [CHARP])
        mark = release.args[0]
        head_at = self.exc_at(b, b.call(state, []), "texts")
        loop, step, done = (release.append_basic_block(x) for x in ("loop", "step", "done"))
        b.branch(loop)
        b = ll.IRBuilder(loop)
        head = b.load(head_at)
        b.cbranch(b.and_(b.icmp_unsigned("!=", head, mark), b.icmp_unsigned("!=", head, ll.Constant(CHARP, None))),
                  step, done)
        b = ll.IRBuilder(step)
        following = b.load(b.bitcast(head, CHARP.as_pointer()))
        if self.host:  # a block whose link has its low bit set holds an object: its drop, then it
            link = b.ptrtoint(following, I64)
            following = b.inttoptr(b.and_(link, I64(-2)), CHARP)
            b.store(following, head_at)
            with b.if_then(b.trunc(link, I1)):
                words = b.bitcast(head, CHARP.as_pointer())
                drop = b.bitcast(b.load(b.gep(words, [I32(1)])), ll.FunctionType(VOID, [CHARP]).as_pointer())
                b.call(drop, [b.load(b.gep(words, [I32(2)]))])
        else:
            b.store(following, head_at)
        b.call(self.libc("free"), [head])
        b.branch(loop)
        ll.IRBuilder(done).ret_void()
        self.texts_release = release

    def exc_keep(self) -> ll.Function:
        """`void __pyx_exc_keep(payload, drop)` (host; defined on first use): the raised exception's
        object (an exception class with data, lang/syntax/exception_data.py), the state's `payload`;
        the exception's reference to it is given back with the messages made at run time
        (`__pyx_texts_release`: a `try` completing, Python's copy made), as a block of that list
        whose link has its low bit set: the link, `drop` (`void drop(payload)`: the object's
        handle's `__del__`), the payload."""
        if "__pyx_exc_keep" in self._functions:
            return self._functions["__pyx_exc_keep"]
        keep, b = self._function("__pyx_exc_keep", VOID, [CHARP, CHARP])
        keep.attributes.add("noinline")
        keep.attributes.add("cold")
        payload, drop = keep.args
        st = b.call(self.state_fn, [])
        b.store(payload, self.exc_at(b, st, "payload"))
        texts_at = self.exc_at(b, st, "texts")
        block = b.bitcast(b.call(self.libc("malloc"), [I64(24)]), CHARP.as_pointer())
        link = b.or_(b.ptrtoint(b.load(texts_at), I64), I64(1))
        b.store(b.inttoptr(link, CHARP), block)
        b.store(drop, b.gep(block, [I32(1)]))
        b.store(payload, b.gep(block, [I32(2)]))
        b.store(b.bitcast(block, CHARP), texts_at)
        b.ret_void()
        return keep

    def _define_exc_shutdown(self) -> None:
        """`void __pyx_exc_shutdown()`: give the key back before the JIT frees this module."""
        fn = ll.Function(self.module, ll.FunctionType(VOID, []), "__pyx_exc_shutdown")
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        with b.if_then(b.icmp_signed("!=", b.load(self.exc_key_made), I32(0))):
            b.call(self.libc("pthread_key_delete"), [b.load(self.exc_key)])
            b.store(I32(0), self.exc_key_made)
        b.ret_void()

    def state(self, b: ll.IRBuilder) -> ll.Value:
        """This thread's exception state."""
        return b.call(self.state_fn, [])

    def exc_at(self, b: ll.IRBuilder, state: ll.Value, name: str, k: ll.Value | None = None) -> ll.Value:
        """The address of field `name` of the exception state `state` (frame `k`'s, for the frames'
        `functions`, `files` and `lines`), by its name in stdlib/runtime_exc.px."""
        return self.exc.at(b, state, name, k)

    def exc_field(self, b: ll.IRBuilder, name: str) -> ll.Value:
        """The address of field `name` of this thread's exception state."""
        return self.exc_at(b, self.state(b), name)

    # ---- printing (host) ----
    def print_fn(self, name: str) -> ll.Function:
        symbol = "__pyx_" + name
        if symbol in self._functions:
            return self._functions[symbol]
        return getattr(self, "_define_" + name)()

    def _printf(self, b: ll.IRBuilder, fmt: str, *args) -> None:
        printf = self.libc("printf")
        b.call(printf, [self.cstr(b, fmt), *args])

    # `print` of an int, a Bool and text: pyx code (stdlib/runtime_print.px), linked in by the
    # pass `llvm` (runtime_source.py); a module only declares what it prints with.
    def _define_print_str(self):
        return self._pyx_written("print_str")

    def _define_print_i64(self):
        return self._pyx_written("print_i64")

    def _define_print_u64(self):
        return self._pyx_written("print_u64")

    def _define_print_bool(self):
        return self._pyx_written("print_bool")

    def _pyx_written(self, name: str) -> ll.Function:
        """The runtime helper `name` whose body is pyx source (runtime_source.SOURCE_HELPERS),
        declared in this module."""
        from .runtime_source import declare

        fn = self._functions["__pyx_" + name] = declare(self.module, name)
        return fn

    def helper(self, symbol: str) -> ll.Function | None:
        """A runtime helper that pyx source reaches with `external_call` (the stdlib's String
        formats numbers and prints its bytes with these); None for any other symbol."""
        name = symbol.removeprefix("__pyx_")
        if name == "autotune_step":  # an `@autotune` dispatcher's question to the loader
            from .autotune_hook import define_step

            return define_step(self.module)
        return self.print_fn(name) if name in SOURCE_HELPERS else None

    def argument_globals(self) -> tuple[ll.GlobalVariable, ll.GlobalVariable]:
        """`__pyx_argc_value` (i64, 0 until set) and `__pyx_argv_value` (char **, null)."""
        found = self.module.globals.get(ARGC_GLOBAL)
        if found is not None:
            return found, self.module.globals[ARGV_GLOBAL]
        count = ll.GlobalVariable(self.module, I64, ARGC_GLOBAL)
        count.initializer = I64(0)
        vector = ll.GlobalVariable(self.module, CHARP.as_pointer(), ARGV_GLOBAL)
        vector.initializer = ll.Constant(CHARP.as_pointer(), None)
        return count, vector

    def _define_argc(self):
        """`Int __pyx_argc()`: how many arguments the program has, its name first."""
        fn, b = self._function("__pyx_argc", I64, [])
        b.ret(b.load(self.argument_globals()[0]))
        return fn

    def _define_argv(self):
        """`char *__pyx_argv(Int i)`: argument i (0 <= i < __pyx_argc())."""
        fn, b = self._function("__pyx_argv", CHARP, [I64])
        b.ret(b.load(b.gep(b.load(self.argument_globals()[1]), [fn.args[0]])))
        return fn

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
        """`i64 __pyx_format_i64(i64 x, char out[INT_TEXT])` (and u64): the decimal text, its length returned."""
        fn, b = self._function("__pyx_format_" + suffix, I64, [I64, CHARP])
        snprintf = self.libc("snprintf")
        b.ret(b.sext(b.call(snprintf, [fn.args[1], I64(INT_TEXT), self.cstr(b, fmt), fn.args[0]]), I64))
        return fn

    # Numbers in the "C" locale: pyx code (stdlib/runtime_locale.px, runtime_float.px), which
    # finds the module's cached "C" locale object through `__pyx_locale_state()`.
    def _define_format_fixed(self):
        """`i64 __pyx_format_fixed(double x, i64 precision, i64 code, char *out)`: printf's `%.*f`
        (or e, g, F, E, G: `code` is the letter) into out, its length returned."""
        return self._in_c_locale("format_fixed")

    def _define_strtod(self):
        """`double __pyx_strtod(char *text, char **end)`: C's strtod in the "C" locale, as Python's
        float() reads: `2.5` and never a locale's `2,5`."""
        return self._in_c_locale("strtod")

    def _in_c_locale(self, name: str) -> ll.Function:
        """The pyx-written helper `name`, which runs in the "C" locale, and the module's side of
        it: the state `__pyx_locale_state()` gives it (LC_ALL_MASK, the target's; the "C" locale
        object, null until made), external until linked (runtime_source.MODULE_SIDE)."""
        if "__pyx_locale_state" not in self.module.globals:
            words = _state_words("runtime_locale.px", 0, {"_LC_ALL_MASK": self.facts.lc_all_mask})
            state = self._global("__pyx_locale_state.words", words.type, words)
            accessor = ll.Function(self.module, ll.FunctionType(I64.as_pointer(), []), "__pyx_locale_state")
            b = ll.IRBuilder(accessor.append_basic_block("entry"))
            b.ret(b.gep(state, [I32(0), I32(0)], inbounds=True))
        return self._pyx_written(name)

    def _define_print_bytes(self):
        """`void __pyx_print_bytes(char *text, i64 size)`: UTF-8 that may hold NUL bytes."""
        fn, b = self._function("__pyx_print_bytes", VOID, [CHARP, I64])
        text, size = fn.args
        # One fwrite, not a putchar per byte: a List or Dict prints as the one String its __str__
        # builds, so this writes megabytes where a container is large.
        fwrite = self.libc("fwrite")
        b.call(fwrite, [text, I64(1), size, self._stdout(b)])
        b.ret_void()
        return fn

    def _define_format_f64(self):
        return self._float_repr("format_f64")

    def _define_format_f32(self):
        return self._float_repr("format_f32")

    def _define_format_f16(self):
        return self._float_repr("format_f16")

    def _define_format_bf16(self):
        return self._float_repr("format_bf16")

    def _float_repr(self, name: str) -> ll.Function:
        """`i64 __pyx_format_f64(double x, char out[FLOAT_TEXT])` (and f32, f16, bf16): Python's
        float repr, its length returned: pyx code (stdlib/float_repr.px, run in the "C" locale by
        stdlib/runtime_float.px)."""
        return self._in_c_locale(name)

    # ---- Ctrl-C (host) ----
    def _interrupt_globals(self) -> None:
        """`__pyx_interrupt_flag`: where this module's code looks for a pending Ctrl-C, [0] the
        flag and [1] "standalone" (see the handler). It points at this module's own pair until a
        loader points it at the process's (runtime/interrupt.py), so that one SIGINT handler
        reaches every module loaded into a Python process."""
        if self.interrupt_flag is not None:
            return
        pair = ll.ArrayType(I32, 2)
        own = self._global("__pyx_interrupt_own", pair, ll.Constant(pair, None))
        flag = ll.GlobalVariable(self.module, I32.as_pointer(), "__pyx_interrupt_flag")
        flag.initializer = own.gep([I32(0), I32(0)])
        self.interrupt_flag = flag

    def clear_interrupt(self, b: ll.IRBuilder) -> None:
        """At an entry from outside: a SIGINT that came before this call is not this call's."""
        if not self.host:
            return
        self._interrupt_globals()
        b.store_atomic(I32(0), b.load(self.interrupt_flag), "monotonic", 4)

    def interrupt_poll(self, b: ll.IRBuilder, func, file, line) -> ll.Value:
        """At a loop back-edge: one load of the flag (its pointer is loop-invariant); when a
        SIGINT has set it, raise KeyboardInterrupt at this frame. True if it did."""
        self._interrupt_globals()
        pending = b.icmp_signed("!=", b.load_atomic(b.load(self.interrupt_flag), "monotonic", 4), I32(0))
        here, cold, after = b.block, b.function.append_basic_block("interrupt"), \
            b.function.append_basic_block("polled")
        b.cbranch(pending, cold, after).set_weights([1, 1 << 20])
        b.position_at_end(cold)
        b.call(self.interrupt_raise(), [func, file, line])
        b.branch(after)
        b.position_at_end(after)
        raised = b.phi(I1)
        raised.add_incoming(ll.Constant(I1, 0), here)
        raised.add_incoming(ll.Constant(I1, 1), cold)
        return raised

    def interrupt_raise(self) -> ll.Function:
        """`void __pyx_interrupt_raise(func, file, line)`: take the pending Ctrl-C (one SIGINT,
        one KeyboardInterrupt, as in Python) and raise KeyboardInterrupt."""
        if "__pyx_interrupt_raise" in self._functions:
            return self._functions["__pyx_interrupt_raise"]
        self._interrupt_globals()
        fn, b = self._function("__pyx_interrupt_raise", VOID, [CHARP, CHARP, I32])
        for attribute in ("noinline", "cold"):
            fn.attributes.add(attribute)
        b.store_atomic(I32(0), b.load(self.interrupt_flag), "monotonic", 4)
        b.call(self.raise_, [self.cstr(b, "KeyboardInterrupt"), self.cstr(b, ""), *fn.args])
        b.ret_void()
        return fn

    def sigint_install(self) -> ll.Function:
        """`int __pyx_sigint_install()`, the loader's way in (runtime/interrupt.py): the handler, its
        installation and the state it reads are pyx code (stdlib/runtime_signal.px `install`). Here
        only the module's side of it: the state that code finds through `__pyx_sigint_state()`,
        the target's platform facts first."""
        if "__pyx_sigint_install" in self._functions:
            return self._functions["__pyx_sigint_install"]
        self._interrupt_globals()
        facts = self.facts
        flag = self.module.get_global("__pyx_interrupt_flag")  # (made by _interrupt_globals)
        # Each in the slot runtime_signal.px names; "not installed yet" and the previous sigaction: zeros.
        words = _state_words("runtime_signal.px", -(-facts.sigaction_bytes // 8), {
            "_SIGINT": facts.sigint, "_SIGPIPE": facts.sigpipe, "_SIG_DFL": facts.sig_dfl, "_SIG_IGN": facts.sig_ign,
            "_SA_FLAGS": facts.sa_flags_offset, "_SA_SIGINFO": facts.sa_siginfo, "_SA_ONSTACK": facts.sa_onstack,
            "_SA_RESTART": facts.sa_restart, "_ACTION_BYTES": facts.sigaction_bytes, "_FLAG": flag.ptrtoint(I64)})
        state = self._global("__pyx_sigint_state.words", words.type, words)
        accessor = ll.Function(self.module, ll.FunctionType(I64.as_pointer(), []), "__pyx_sigint_state")
        b = ll.IRBuilder(accessor.append_basic_block("entry"))  # external until linked (runtime_source.MODULE_SIDE)
        b.ret(b.gep(state, [I32(0), I32(0)], inbounds=True))
        install = ll.Function(self.module, ll.FunctionType(I32, []), "__pyx_sigint_install")
        self._functions["__pyx_sigint_install"] = install
        b = ll.IRBuilder(install.append_basic_block("entry"))
        b.ret(b.call(self._pyx_written("install_sigint"), []))
        return install

    # ---- the stack (host) ----
    def recursion_begin(self, guard_type: ll.Type) -> ll.Function:
        """`void __pyx_recursion_begin(guard)`, at the start of a recursive function's entry: put
        the thread's stack limit in the guard and make the guard the thread's innermost (the one
        a body that finds the stack full longjmps to), remembering the one it hides. A thread
        without an ExcState of its own (no pthread key left: every such thread shares one) gets
        the limit 0, which no check fails, and registers nothing: a guard in the shared state
        could be another thread's. Such a thread's deep recursion overflows the stack as C's does."""
        if "__pyx_recursion_begin" in self._functions:
            return self._functions["__pyx_recursion_begin"]
        # The lowest address the stack of a thread with its own state may reach: pyx code
        # (stdlib/runtime_stack.px), which finds it once per thread and keeps it in the state.
        limit_of = self._pyx_written("stack_limit")
        fn, b = self._function("__pyx_recursion_begin", VOID, [CHARP])
        guard = b.bitcast(fn.args[0], guard_type.as_pointer())
        st = self.state(b)
        innermost = self.exc_at(b, st, "guards")
        # The guard's fields from the second on: limit, function, file, line, previous, state.
        b.store(b.load(innermost), b.gep(guard, [I32(0), I32(5)]))
        mine, shared = fn.append_basic_block("own"), fn.append_basic_block("shared")
        b.cbranch(b.icmp_unsigned("!=", b.ptrtoint(st, I64), b.ptrtoint(self.main_state, I64)), mine, shared)
        b = ll.IRBuilder(mine)
        limit = b.call(limit_of, [self.exc_at(b, st, "stack"), I64(self.facts.pthread_attr_bytes)])
        b.store(limit, b.gep(guard, [I32(0), I32(1)]))
        b.store(b.bitcast(st, CHARP), b.gep(guard, [I32(0), I32(6)]))
        b.store(fn.args[0], innermost)
        b.ret_void()
        b = ll.IRBuilder(shared)
        b.store(I64(0), b.gep(guard, [I32(0), I32(1)]))
        b.store(ll.Constant(CHARP, None), b.gep(guard, [I32(0), I32(6)]))
        b.ret_void()
        return fn

    # ---- output errors (host) ----
    def _stdout(self, b: ll.IRBuilder) -> ll.Value:
        """C's `stdout` (a FILE *)."""
        name = self.facts.stdout_symbol
        g = self.module.globals.get(name)
        if g is None:
            g = ll.GlobalVariable(self.module, CHARP, name)  # defined by the C library
        return b.load(g)

    def stdout_check(self) -> ll.Function:
        """`bool __pyx_stdout_check(func, file, line)`, after each print: false while stdout is
        fine; when a write failed, raise what Python's print raises (BrokenPipeError, OSError) at
        this frame and return true. Pyx code (stdlib/runtime_output.px), given what it cannot name:
        C's `stdout`, where errno lives, EPIPE, and how to raise."""
        if "__pyx_stdout_check" in self._functions:
            return self._functions["__pyx_stdout_check"]
        fn, b = self._function("__pyx_stdout_check", I1, [CHARP, CHARP, I32])
        errno_at = self.libc(self.facts.errno_location, I32.as_pointer(), [])
        b.ret(b.call(self._pyx_written("check_stdout"),
                     [self._stdout(b), b.bitcast(errno_at, CHARP), I32(self.facts.epipe),
                      b.bitcast(self.raise_text, CHARP), self.cstr(b, "BrokenPipeError"), self.cstr(b, "OSError"),
                      *fn.args]))
        for attribute in ("noinline", "cold"):
            fn.attributes.add(attribute)
        return fn

    def text_check(self) -> ll.Function:
        """`bool __pyx_text_check(data, size, func, file, line)`, before a String that is not all
        ASCII is printed: false where its bytes can be written; for a lone surrogate, raise
        CPython's UnicodeEncodeError at this frame and return true (stdlib/runtime_output.px)."""
        if "__pyx_text_check" in self._functions:
            return self._functions["__pyx_text_check"]
        fn, b = self._function("__pyx_text_check", I1, [CHARP, I64, CHARP, CHARP, I32])
        data, size, *frame = fn.args
        b.ret(b.call(self._pyx_written("check_text"),
                     [data, size, b.bitcast(self.raise_text, CHARP), self.cstr(b, "UnicodeEncodeError"), *frame]))
        fn.attributes.add("noinline")
        return fn

    def _flush_at_exit(self, b: ll.IRBuilder, status) -> ll.Value:
        """Flush stdout as Python does when it exits: if that fails (a pipe closed early), say
        what CPython says and make the status 120, CPython's. Pyx code (stdlib/runtime_exit.px),
        given what it cannot name itself: C's `stdout` and EPIPE, the target's platform facts."""
        return b.call(self._pyx_written("flush_at_exit"), [status, self._stdout(b), I32(self.facts.epipe)])

    # ---- the program's entry (host) ----
    def define_entry(self, name: str, main: ll.Function, main_raises: bool) -> ll.Function:
        """`int entry(void)`: run main, print an uncaught exception like Python, flush, exit status:
        0, 1 after an uncaught exception, 130 after an uncaught KeyboardInterrupt (the caller then
        ends the process by SIGINT, as CPython does), 120 when stdout could not be flushed."""
        fn = ll.Function(self.module, ll.FunctionType(I32, []), name)
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        fflush = self.libc("fflush")
        self.clear_interrupt(b)  # a Ctrl-C from before the program started is not its own
        # No reset of the exception state: a raise sets every field the report reads.
        if not main_raises:
            b.call(main, [])
            b.ret(self._flush_at_exit(b, I32(0)))
            return fn
        failed = b.call(main, [])
        ok_bb, err_bb = fn.append_basic_block("ok"), fn.append_basic_block("uncaught")
        b.cbranch(failed, err_bb, ok_bb)
        b.position_at_end(ok_bb)
        b.ret(self._flush_at_exit(b, I32(0)))
        b.position_at_end(err_bb)
        b.call(fflush, [ll.Constant(CHARP, None)])
        # What CPython writes for it and the exit status: pyx code (stdlib/runtime_exit.px),
        # given this thread's exception state (laid out as stdlib/runtime_exc.px declares it).
        status = b.call(self._pyx_written("uncaught"), [b.bitcast(self.state(b), self.exc.struct.as_pointer())])
        b.ret(self._flush_at_exit(b, status))
        return fn

    def define_c_main(self, entry: ll.Function) -> None:
        """An executable's `main`, set up as CPython sets up a script: SIGPIPE ignored (a write to a
        closed pipe is BrokenPipeError, not death by signal), SIGINT raising KeyboardInterrupt, and
        an uncaught KeyboardInterrupt ending the process by SIGINT (status 130 in a shell)."""
        fn = ll.Function(self.module, ll.FunctionType(I32, [I32, CHARP.as_pointer()]), "main")
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        self.sigint_install()  # (the state stdlib/runtime_signal.px reads)
        b.call(self._pyx_written("start_program"), [])
        if ARGC_GLOBAL in self.module.globals:  # the program reads sys.argv
            count, vector = self.argument_globals()
            b.store(b.sext(fn.args[0], I64), count)
            b.store(fn.args[1], vector)
        b.ret(b.call(self._pyx_written("end_program"), [b.call(entry, [])]))
