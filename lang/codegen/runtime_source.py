"""The part of the runtime written in pyx: compiled by pyx once, kept as LLVM IR, linked into
each module that uses it.

Runtime helpers the language can express live in the standard library as ordinary pyx code
(`stdlib/float_repr.px`: Python's float repr; `stdlib/runtime_print.px`: `print` of ints, Bools and
text; `stdlib/runtime_exit.px`: the report of an uncaught exception, SystemExit's status and the
flush at exit; the C functions float repr calls are declared once in `stdlib/libc.px`).
`SOURCE_HELPERS` maps each helper to its pyx function and to the C signature the generated
runtime calls it with. A module that needs one only declares it (`__pyx_rt.float_repr.repr_f64`,
`declare`); the pass `llvm` links the runtime's LLVM IR in (`link_runtime`, as libdevice is
linked into PTX) and makes what it brought internal, so LLVM inlines it (`INLINED`) or drops it
like the module's own code.

The runtime's LLVM IR is made, unit by unit, by compiling a small program that calls each of the
unit's helpers (`UNITS`) through the ordinary pipeline and generating code for its functions (`runtime_functions`,
`runtime_llvm_ir`); it is kept in memory and on disk, sealed like every cache entry and keyed by
the compiler's fingerprint and the target, so a process pays for it only when the compiler or
the stdlib changed.

The thread pool (`stdlib/runtime_pool.px`) is written with host atomics and C function pointers
(semantics/c_functions.py), and takes its state from the generated side (codegen/parallel.py);
so is the GPU-on-CPU scheduler (`stdlib/runtime_gpu.px`, given its context by codegen/gpu_cpu.py).
What stays generated (runtime_lib.py, parallel.py, gpu_cpu.py, ...) is what pyx cannot say:
the exception state behind a pthread key (one per module, so not in this one shared copy),
setjmp/longjmp, ucontext switching, signal handlers, the locale switch (whose constants are
platform facts), C's globals (`stdout`, `errno`). docs/compiler.md "Where the runtime lives" has
the table.
"""
from __future__ import annotations

import functools
import hashlib
import threading
from pathlib import Path

from llvmlite import ir as ll

from ..ir import nodes as ir
from .exc_layout import exc_layout
from .runtime_lib import CHARP, F16, F32, F64, I1, I32, I64, RUNTIME_MODULE, VOID

PREFIX = "__pyx_rt."  # the runtime's functions in a module: `__pyx_rt.float_repr.repr_f64`
KIND = "pyxrt 1"  # what the cache entry's keyed checksum binds: LLVM IR text of the pyx runtime

# runtime helper (its `__pyx_` symbol without the prefix) -> (the pyx function that is its body,
# the LLVM result and parameter types the generated runtime calls it with)
SOURCE_HELPERS: dict[str, tuple[str, ll.Type, tuple[ll.Type, ...]]] = {
    # float repr in the "C" locale (stdlib/runtime_float.px, around stdlib/float_repr.px)
    "format_f64": ("runtime_float.format_f64", I64, (F64, CHARP)),
    "format_f32": ("runtime_float.format_f32", I64, (F32, CHARP)),
    "format_f16": ("runtime_float.format_f16", I64, (F16, CHARP)),
    "format_bf16": ("runtime_float.format_bf16", I64, (ll.IntType(16), CHARP)),  # a BFloat16 as its bits
    # C's strtod and printf's %.*f (e, g, ...) in the "C" locale (stdlib/runtime_locale.px)
    "strtod": ("runtime_locale.strtod", F64, (CHARP, CHARP.as_pointer())),
    "format_fixed": ("runtime_locale.format_fixed", I64, (F64, I64, I64, CHARP)),
    # the thread's stack limit for recursive code (stdlib/runtime_stack.px): its word of the
    # exception state, sizeof(pthread_attr_t) -> the lowest address a recursion may reach
    "stack_limit": ("runtime_stack.stack_limit", I64, (I64.as_pointer(), I64)),
    # A Python call's arguments (stdlib/runtime_python.px), for the CPython entry points (pyentry.py):
    # the object, what it must fit or be, where the value goes -> whether it converted
    "py_int": ("runtime_python.to_int", I1, (CHARP, I64, I64, I64.as_pointer())),
    "py_uint": ("runtime_python.to_uint", I1, (CHARP, I64, I64.as_pointer())),
    "py_double": ("runtime_python.to_double", I1, (CHARP, CHARP, I64, F64.as_pointer())),
    "py_view": ("runtime_python.to_view", I1, (CHARP, I64.as_pointer(), I32, CHARP.as_pointer(), I64, I64, I64)),
    # after a print (stdlib/runtime_output.px): C's stdout, __errno_location, EPIPE, __pyx_raise_text,
    # "BrokenPipeError", "OSError", the frame (function, file, line) -> whether it raised
    "check_stdout": ("runtime_output.stdout_check", I1, (CHARP, CHARP, I32, CHARP, CHARP, CHARP, CHARP, CHARP, I32)),
    # before a String is printed: its bytes and their count, __pyx_raise_text, "UnicodeEncodeError",
    # the frame -> whether it raised (a lone surrogate)
    "check_text": ("runtime_output.text_check", I1, (CHARP, I64, CHARP, CHARP, CHARP, CHARP, I32)),
    "print_i64": ("runtime_print.print_i64", VOID, (I64,)),
    "print_u64": ("runtime_print.print_u64", VOID, (I64,)),
    "print_bool": ("runtime_print.print_bool", VOID, (I1,)),
    "print_str": ("runtime_print.print_str", VOID, (CHARP,)),
    # the thread's exception state (a Ptr[ExcState], stdlib/runtime_exc.px) -> exit status
    "uncaught": ("runtime_exit.uncaught", I32, (exc_layout().struct.as_pointer(),)),
    "flush_at_exit": ("runtime_exit.flush_at_exit", I32, (I32, CHARP, I32)),  # status, C's stdout, EPIPE -> status
    # Ctrl-C (stdlib/runtime_signal.px), each finding the module's state through `__pyx_sigint_state()`.
    # (A name here is never that of a function the generated runtime defines, `__pyx_sigint_install`
    # or `__pyx_stdout_check`: RuntimeLib keeps both by their `__pyx_` names.)
    "install_sigint": ("runtime_signal.install", I32, ()),  # -> 1 when installed, 0 when SIGINT is ignored
    "start_program": ("runtime_signal.start_program", VOID, ()),  # an executable's main, first
    "end_program": ("runtime_signal.end_program", I32, (I32,)),  # status -> status (130 ends by SIGINT)
    # The thread pool (stdlib/runtime_pool.px), each with the pool's state (codegen/parallel.py) first:
    # piece, its arguments, pieces, count // pieces, count % pieces -> whether the pool ran the loop
    "pool_core": ("runtime_pool.core", I32, (I64.as_pointer(), CHARP, CHARP, I64, I64, I64)),
    "pool_threads": ("runtime_pool.threads", I64, (I64.as_pointer(),)),
    "pool_set_limit": ("runtime_pool.set_limit", VOID, (I64.as_pointer(), I64)),
    "pool_shutdown": ("runtime_pool.shutdown", VOID, (I64.as_pointer(),)),
    # The GPU-on-CPU scheduler (stdlib/runtime_gpu.px), each with this OS thread's context first
    # (codegen/gpu_cpu.py): the launch's parameters, blocks [lo, hi) -> 0, 1 (raised) or 2 (deadlock)
    "gpu_direct_blocks": ("runtime_gpu.direct_blocks", I64, (I64.as_pointer(), I64.as_pointer(), I64, I64)),
    "gpu_coroutine_blocks": ("runtime_gpu.coroutine_blocks", I64, (I64.as_pointer(), I64.as_pointer(), I64, I64)),
    "gpu_region_blocks": ("runtime_gpu.region_blocks", I64, (I64.as_pointer(), I64.as_pointer(), I64, I64)),
    "gpu_frames": ("runtime_gpu.frames", CHARP, (I64.as_pointer(), I64)),  # bytes -> the aligned buffer
}

# The runtime's units, each a program that calls its helpers, so the ordinary instantiation
# compiles them (and what they call) and nothing else of the standard library. Each unit is
# compiled and cached on its own, and a module links only the units whose helpers it declares: a
# program that prints an int pays for `core` alone (about 60 ms with an empty cache), not for
# float repr, whose `_FLOAT_TEXT` loads the stdlib's String (about 0.9 s of parsing).
UNITS: dict[str, str] = {
    "float_repr": """\
from runtime_float import format_f64, format_f32, format_f16, format_bf16


fn __pyx_runtime_roots(x: Float64, out: Ptr[UInt8]):
    _ = format_f64(x, out)
    _ = format_f32(Float32(x), out)
    _ = format_f16(Float16(x), out)
    _ = format_bf16(BFloat16(x), out)
""",
    "core": """\
from runtime_print import print_i64, print_u64, print_bool, print_str
from runtime_exit import uncaught, flush_at_exit
from runtime_signal import install, start_program, end_program
from runtime_locale import strtod, format_fixed
from runtime_stack import stack_limit
from runtime_output import stdout_check, text_check
from runtime_exc import ExcState


fn __pyx_runtime_roots(x: Int, out: Ptr[UInt8], texts: Ptr[Ptr[UInt8]], state: Ptr[ExcState], words: Ptr[Int]):
    print_i64(x)
    print_u64(UInt64(x))
    print_bool(x > 0)
    print_str(out)
    _ = uncaught(state)
    _ = flush_at_exit(Int32(x), out, Int32(x))
    _ = install()
    start_program()
    _ = end_program(Int32(x))
    _ = strtod(out, texts)
    _ = format_fixed(Float64(x), x, x, out)
    _ = stack_limit(words, x)
    _ = stdout_check(out, out, Int32(x), out, out, out, out, out, Int32(x))
    _ = text_check(out, x, out, out, out, out, Int32(x))
""",
    "python": """\
from runtime_python import to_int, to_uint, to_double, to_view


fn __pyx_runtime_roots(p: Ptr[UInt8], x: Int, words: Ptr[Int], unsigned: Ptr[UInt64], real: Ptr[Float64],
                       texts: Ptr[Ptr[UInt8]]):
    _ = to_int(p, x, x, words)
    _ = to_uint(p, UInt64(x), unsigned)
    _ = to_double(p, p, x, real)
    _ = to_view(p, words, Int32(x), texts, x, x, x)
""",
    "pool": """\
from runtime_pool import core, threads, set_limit, shutdown


fn __pyx_runtime_roots(pool: Ptr[Int], p: Ptr[UInt8], x: Int):
    _ = core(pool, p, p, x, x, x)
    _ = threads(pool)
    set_limit(pool, x)
    shutdown(pool)
""",
    "gpu": """\
from runtime_gpu import direct_blocks, coroutine_blocks, region_blocks, frames


fn __pyx_runtime_roots(ctx: Ptr[Int], x: Int):
    _ = direct_blocks(ctx, ctx, x, x)
    _ = coroutine_blocks(ctx, ctx, x, x)
    _ = region_blocks(ctx, ctx, x, x)
    _ = frames(ctx, x)
""",
}
UNIT_OF_MODULE = {"float_repr": "float_repr", "runtime_print": "core", "runtime_exit": "core", "runtime_signal": "core",
                  "runtime_pool": "pool", "runtime_float": "float_repr", "runtime_locale": "core",
                  "runtime_stack": "core", "runtime_output": "core", "runtime_exc": "core", "runtime_python": "python",
                  "runtime_gpu": "gpu"}
# What a module defines for the runtime's code to call (`external_call["__pyx_sigint_state", ...]`
# in stdlib/runtime_signal.px): external until the runtime is linked in, so that the runtime's
# declaration links to it, and internal after, as the rest of the module's support code is.
MODULE_SIDE = ("__pyx_sigint_state", "__pyx_locale_state")
ROOTS_FILE = "<pyx runtime>.px"
# Helpers the module's optimizer may inline and fold like its own code: a line or two each, so
# inlining costs nothing, and a print of a constant then becomes what C's printf of a literal
# becomes (`print("a")`'s separator is `putchar(' ')`, as it was when they were generated here).
INLINED = frozenset(PREFIX + SOURCE_HELPERS[name][0] for name in ("print_i64", "print_u64", "print_bool", "print_str",
                                                                   # (a Python call's conversions: its every argument's)
                                                                   "py_int", "py_uint", "py_double", "py_view"))
# Code whose speed is the code generator's: `optnone` also gives a function LLVM's -O0 instruction
# selection and register allocation, and the thread pool's spin loops then polled slower and spun
# longer (a 1024^3 matmul of 33 back-to-back loops took 13 ms of CPU against 10.5 for the pool when
# it was generated). It is small: the module's optimizer takes it again at little cost.
REOPTIMIZED = (PREFIX + "runtime_pool.", PREFIX + "runtime_gpu.")  # (the GPU blocks' loops: the same)

_lock = threading.Lock()


def declare(module: ll.Module, name: str) -> ll.Function:
    """The runtime helper `name` in `module`: a declaration, defined when the runtime is linked in."""
    symbol, result, params = SOURCE_HELPERS[name]
    found = module.globals.get(PREFIX + symbol)
    return found if found is not None else ll.Function(module, ll.FunctionType(result, params), PREFIX + symbol)


def unit_of(symbol: str) -> str:
    """The unit whose program compiles the runtime function `symbol` (`float_repr.repr_f64`, with
    or without PREFIX): the one of its pyx module."""
    return UNIT_OF_MODULE[symbol.removeprefix(PREFIX).split(".", 1)[0]]


def uses_runtime(module) -> bool:
    """Whether a parsed module (llvmlite.binding) declares a function of the pyx runtime."""
    return any(f.is_declaration and f.name.startswith(PREFIX) for f in module.functions)


def link_runtime(module, target, tm) -> None:
    """Link the pyx runtime into a parsed module, keeping only what it uses: the helpers the module
    declares and what they call, all internal once linked."""
    import llvmlite.binding as llvm

    wanted = {f.name for f in module.functions if f.is_declaration and f.name.startswith(PREFIX)}
    ours = {f.name for f in module.functions if not f.is_declaration}
    for unit in sorted({unit_of(name) for name in wanted}):
        lib = llvm.parse_assembly(runtime_llvm_ir(target, unit))
        lib.triple = module.triple
        lib.data_layout = module.data_layout
        _keep_only(lib, wanted, tm)
        module.link_in(lib)
    for name in MODULE_SIDE:
        try:
            module.get_function(name).linkage = "internal"
        except NameError:
            pass  # (a module compiled without it)
    for f in module.functions:
        if not f.is_declaration and f.name not in ours:
            f.linkage = "internal"
            if f.name in INLINED:
                continue
            if f.name.startswith(REOPTIMIZED):
                f.add_function_attribute("noinline")  # (kept apart, as it was made: its loops stay its own)
                continue
            # Optimized when it was made (runtime_llvm_ir): the module's optimizer leaves it as it is.
            f.add_function_attribute("noinline")
            f.add_function_attribute("optnone")


def _keep_only(lib, names: set[str], tm) -> None:
    """Make every definition of `lib` but `names` internal and drop those nothing uses, so the
    optimizer of the module it is linked into sees no dead code."""
    import llvmlite.binding as llvm

    for value in [*lib.functions, *lib.global_variables]:
        if not value.is_declaration and value.name not in names:
            value.linkage = "internal"
    pm = llvm.create_new_module_pass_manager()
    pm.add_global_dead_code_eliminate_pass()
    pm.add_strip_dead_prototype_pass()
    pm.run(lib, llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=0)))


@functools.cache
def runtime_llvm_ir(target, unit: str) -> str:
    """The LLVM IR of the pyx runtime's `unit` for `target`, from the cache on disk when an entry
    matches."""
    path, key = _entry(target, unit)
    if path is not None:
        from ..runtime import cache

        payload = cache.unseal(cache.read_trusted(path), KIND, key, path)
        if payload is not None:
            return payload.decode()
    text = _generate(target, unit)
    if path is not None:
        from ..runtime import cache

        try:
            cache.write_atomic(path, cache.seal(KIND, key, text.encode()))
        except (OSError, ValueError):
            pass  # an unwritable cache only costs speed
    return text


def _entry(target, unit: str) -> tuple[Path | None, str]:
    """Where the unit is kept, and its key. In the user cache directory (cache.compiler_dir): it
    depends on the compiler alone, so a program's first compile into an empty PYX_CACHE_DIR does
    not make it again. Whether the IR verifier ran when it was made is part of the key (the tests
    run it: a unit made without it must not spare them checking it)."""
    from ..options import CompileOptions
    from ..passmanager import PassManager
    from ..runtime.cache import compiler_dir, compiler_fingerprint
    from ..semantics.imports import STDLIB

    verified = PassManager().verifying(CompileOptions())  # (as runtime_functions compiles it)
    key = hashlib.sha256(
        f"{compiler_fingerprint()}\0{target.cache_key}\0{KIND}\0{unit}\0{verified}".encode()).hexdigest()
    try:
        return compiler_dir(STDLIB / "float_repr.px") / f"pyx_runtime.{unit}.{key[:20]}.pyxrt", key
    except OSError:
        return None, key


def _generate(target, unit: str) -> str:
    """The functions of the runtime's `unit` as LLVM IR for `target`: external, under their PREFIX
    names."""
    import llvmlite.binding as llvm

    from .llvm_gen import ModuleCodegen
    from .target import init_llvm

    module = ir.Module(RUNTIME_MODULE, ROOTS_FILE)
    module.functions = list(runtime_functions(unit).values())
    init_llvm()
    lib = llvm.parse_assembly(str(ModuleCodegen(module, target).generate()))
    # Without the support code a ModuleCodegen gives every module (each module has its own), and
    # optimized once here, so a module that links it in optimizes little more than its own code.
    tm = target.target_machine(opt=3)
    _keep_only(lib, {PREFIX + symbol for symbol, _, _ in SOURCE_HELPERS.values() if unit_of(symbol) == unit}, tm)
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(lib, pb)
    return str(lib)


@functools.cache
def runtime_functions(unit: str | None = None) -> dict[str, ir.Function]:
    """The functions of the runtime's `unit` (of every unit when None) by symbol, without the roots
    function, compiled once per process. Its loops poll no Ctrl-C flag (each runs a few dozen
    iterations at most), so no helper can raise: a helper keeps the plain C signature the
    generated runtime calls it with."""
    if unit is None:
        return {symbol: f for name in UNITS for symbol, f in runtime_functions(name).items()}
    from ..ir.interrupts import strip_interrupt_polls
    from ..options import CompileOptions
    from ..passmanager import Pass, PassManager
    from ..pipeline import lower
    from ..source import SourceFile

    with _lock:
        passes = PassManager().with_pass(
            Pass("strip_runtime_polls", "the pyx runtime only: remove the Ctrl-C polls of its short loops",
                 strip_interrupt_polls, "ir", "ir"), after="remove_unreachable_blocks")
        comp = lower(SourceFile(ROOTS_FILE, UNITS[unit]), CompileOptions(), passes)
    assert isinstance(comp.ir, ir.Module)
    functions = {f.symbol: f for f in comp.ir.functions if not f.symbol.endswith("__pyx_runtime_roots")}
    # Renamed into the runtime's own namespace: a program's own module called `float_repr` (or its
    # own use of stdlib/float_repr.px) keeps its functions apart.
    for f in functions.values():
        f.symbol = PREFIX + f.symbol
        f.exported = True  # external in the runtime's module, so a module's declarations link to them
        for block in f.blocks:
            for instr in block.instrs:
                if isinstance(instr, (ir.Call, ir.FnAddr)) and instr.callee in functions:  # (FnAddr: runtime_pool)
                    instr.callee = PREFIX + instr.callee
    renamed = {f.symbol: f for f in functions.values()}
    for name, (symbol, _result, _params) in SOURCE_HELPERS.items():
        if unit_of(symbol) != unit:
            continue
        f = renamed[PREFIX + symbol]
        if f.raises:  # the generated callers have no exception path for it
            raise RuntimeError(f"the runtime helper {name} ({symbol}) may raise")
    return renamed
