"""The compiler, stage by stage. Read this file first: it is the table of contents.

    source --syntax--> AST --monomorphize (+ semantics)--> typed instances
           --ir--> pyx IR (+ passes, verified) --codegen--> LLVM IR --llvm--> machine code
"""
from __future__ import annotations

import contextvars
import os
import sys
import threading
import time
from dataclasses import dataclass, field

from .diagnostics import CompileError, DiagnosticBag, InternalCompilerError, error
from .options import CompileOptions
from .source import SourceFile

# The passes after parsing recurse over the tree, whose depth syntax.validate bounds
# (MAX_NESTING levels, up to ~10 Python frames each). That needs more frames than Python's
# default limit of 1000 and more C stack than a default thread has, and importing or using pyx
# must not change the host's recursion limit for good. So each stage runs on a thread of its own
# with a large stack, and the limit is raised only while such a thread runs, then put back.
STAGE_STACK_BYTES = 512 << 20  # address space reserved, not memory used: pages are touched as needed
STAGE_RECURSION_LIMIT = 30_000
_deep = threading.local()
_limit_lock = threading.Lock()
_stack_lock = threading.Lock()
_limit_users = 0
_limit_saved = 0


def _raise_limit() -> None:
    global _limit_users, _limit_saved
    with _limit_lock:
        if _limit_users == 0:
            _limit_saved = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_limit_saved, STAGE_RECURSION_LIMIT))
        _limit_users += 1


def _restore_limit() -> None:
    global _limit_users
    with _limit_lock:
        _limit_users -= 1
        if _limit_users == 0:  # the last deep thread out puts back what the first one found
            sys.setrecursionlimit(_limit_saved)


def run_deep(fn, *args):
    """`fn(*args)` on a thread with a large stack and room for deep recursion, as if called here:
    its result is returned and its exception raised in the caller. Nested calls run inline."""
    if getattr(_deep, "active", False):
        return fn(*args)
    box: dict = {}
    context = contextvars.copy_context()

    def body():
        _deep.active = True
        _raise_limit()
        try:
            box["result"] = context.run(fn, *args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, which raises it
            box["error"] = exc
        finally:
            _restore_limit()

    worker = threading.Thread(target=body, name="pyx-compile", daemon=True)
    with _stack_lock:  # threading.stack_size is process-wide: set it for this one thread only
        previous = threading.stack_size()
        try:
            threading.stack_size(STAGE_STACK_BYTES)
            worker.start()
        except (RuntimeError, ValueError, MemoryError):
            worker = None  # no thread to be had (a tight address-space limit): run here instead
        finally:
            threading.stack_size(previous)
    if worker is None:
        return fn(*args)
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


@dataclass
class Compilation:
    source: SourceFile
    options: CompileOptions
    timings: dict[str, float] = field(default_factory=dict)
    ast: object = None
    program: object = None
    ir: object = None
    llvm_ir: str | None = None
    llvm_module: object = None
    target_machine: object = None
    python_entries: list = field(default_factory=list)


def _stage(comp: Compilation, name: str, fn, *args):
    from .semantics.rules import PROGRESS
    from .codegen.llvm_gen import UnsupportedOnTarget
    from .codegen.libdevice import LibdeviceNotFound

    start = time.perf_counter()
    PROGRESS.span = None
    try:
        return run_deep(fn, *args)
    except CompileError:
        raise
    except LibdeviceNotFound as exc:
        raise CompileError([error("E0904", None, detail=str(exc))]) from None
    except UnsupportedOnTarget as exc:
        span = exc.span or PROGRESS.span
        raise CompileError([error("E0226", span, func=exc.what, target=comp.options.target)]) from None
    except Exception as exc:  # noqa: BLE001 - anything else is our bug, reported as such
        raise InternalCompilerError(name, PROGRESS.span, exc) from exc
    finally:
        comp.timings[name] = comp.timings.get(name, 0.0) + time.perf_counter() - start


def parse(source: SourceFile, options: CompileOptions = CompileOptions(),
          diags: DiagnosticBag | None = None) -> Compilation:
    from . import syntax

    comp = Compilation(source, options)
    comp.ast = _stage(comp, "parse", syntax.parse, source, diags)
    return comp


def check(source: SourceFile, options: CompileOptions = CompileOptions()) -> Compilation:
    from .monomorphize import instantiate_program

    diags = DiagnosticBag()
    comp = parse(source, options, diags)
    comp.program = _stage(comp, "check", instantiate_program, comp.ast, diags, target_of(options).vector_bits)
    diags.raise_if_errors()
    return comp


def lower(source: SourceFile, options: CompileOptions = CompileOptions()) -> Compilation:
    from . import ir

    comp = check(source, options)
    verify = options.verify_ir or os.environ.get("PYX_VERIFY") == "1"

    def run_passes():
        module = ir.lower_program(comp.program, bounds_check=options.bounds_check)
        if verify:
            ir.verify_module(module, "lower")
        passes = list(ir.PASSES)
        if options.target == "cuda":
            from .ir.interrupts import strip_interrupt_polls
            from .ir.passes import device_functions

            passes[0:0] = [device_functions, strip_interrupt_polls]
        elif options.memcheck:
            from .ir.memcheck import insert_memory_checks

            passes.insert(0, insert_memory_checks)  # before infer_raises: a checked access may raise
        if options.target != "cuda":
            from .ir.passes import infer_raises
            from .ir.recursion import guard_recursion

            # Before infer_raises: a recursive function's entry may raise RecursionError.
            passes.insert(passes.index(infer_raises), guard_recursion)
        for p in passes:
            module = p(module)
            if verify:
                ir.verify_module(module, p.__name__)
        return module

    comp.ir = _stage(comp, "lower", run_passes)
    return comp


def target_of(options: CompileOptions):
    from .codegen.target import cuda_target, host_target

    return cuda_target(options.gpu_arch) if options.target == "cuda" else host_target()


def exported_functions(comp: Compilation) -> list:
    """The instances Python can call: every top-level, non-generic function (not methods) of the module
    itself (not of the modules it imports), except
    those with `mut` parameters, which need a variable to write to that Python cannot lend."""
    return [i for i in comp.program.instances if i.owner is None and not i.decl.is_generic
            and i.module == comp.program.module
            and not any(p.convention == "mut" for p in i.decl.params) and not i.is_kernel and i.gpu_use is None
            and all(_crosses_to_python(t) or is_buffer_of_scalars(t)
                    or ((is_string(t) or is_python_object(t)) and p.convention is None)
                    for p, t in zip(i.decl.params, i.param_types))
            and ((_crosses_to_python(i.return_type) and not is_span_of_scalars(i.return_type))
                 or is_list_of_scalars(i.return_type) or is_string(i.return_type)
                 or is_python_object(i.return_type) or is_buffer_of_scalars(i.return_type))]
# A Span result is not exported: it would outlive the memory it shows. A Buffer result is, as a
# view of the array argument it shows (the bridge checks that it does).


def is_list_of_scalars(t) -> bool:
    """The standard library's `List[T]` of numbers or Bools: Python receives it as a NumPy array."""
    return _stdlib_container(t, "List", 3)


def is_span_of_scalars(t) -> bool:
    """The standard library's `Span[T]` of numbers or Bools: Python passes a 1-D NumPy array."""
    return _stdlib_container(t, "Span", 2)


def is_string(t) -> bool:
    """The standard library's String: a Python str in, a str out (its bytes copied each way)."""
    from .semantics.imports import is_string as stdlib_string

    return stdlib_string(t)


def is_python_object(t) -> bool:
    """The standard library's PythonObject: the object itself crosses, lent in, handed back out."""
    from .semantics.imports import is_stdlib_struct

    return is_stdlib_struct(t, "PythonObject")


def is_buffer_of_scalars(t) -> bool:
    """The standard library's `Buffer[T, rank]` of numbers or Bools: Python passes an array of
    that many dimensions, with any strides."""
    return _stdlib_container(t, "Buffer", 3)


def _stdlib_container(t, base: str, fields: int) -> bool:
    from . import types as T
    from .semantics.imports import is_stdlib_struct

    return (is_stdlib_struct(t, base) and len(t.fields) == fields
            and isinstance(t.fields[0][1], T.PtrType) and isinstance(t.fields[0][1].pointee, T.ScalarType))


def _crosses_to_python(t, inside_struct: bool = False) -> bool:
    """Whether a value of type t can be laid out the same by ctypes: structs holding vectors cannot
    (LLVM aligns a vector to its size, ctypes an array to its element)."""
    from . import types as T

    if isinstance(t, T.SIMDType):
        return not inside_struct
    if isinstance(t, T.StructType):
        from .semantics.ownership import owning

        # Python would get a copy and no destructor: values that own something stay in pyx for now.
        return not owning(t) and all(_crosses_to_python(ft, True) for _, ft in t.fields)
    return isinstance(t, (T.ScalarType, T.PtrType)) or t == T.NONE


def exported_kernels(comp: Compilation) -> list:
    """The kernels Python can launch: `m.k[grid, block](args)`."""
    return [i for i in comp.program.instances if i.is_kernel and not i.decl.is_generic
            and i.module == comp.program.module
            and all(_crosses_to_python(t) for t in i.param_types)]


def codegen(source: SourceFile, options: CompileOptions = CompileOptions(), entry: bool = True,
            c_main: bool = False, exports: bool = False) -> Compilation:
    from .codegen.llvm_gen import generate

    comp = lower(source, options)
    target = target_of(options)
    symbols = [i.symbol for i in exported_functions(comp)] if exports and target.host else []
    kernels = [i.symbol for i in exported_kernels(comp)] if exports and target.host else []
    fast = []
    if symbols:
        from .codegen.pyentry import eligible
        from .ir import nodes as irn

        uses_print = any(isinstance(i, irn.Intrinsic) and i.name.startswith("print")
                         for f in comp.ir.functions for b in f.blocks for i in b.instrs)
        # Printing needs Python's stdout flushed around the call, which the ctypes path does.
        fast = [] if uses_print else [s for s in symbols if eligible(comp.ir.function(s))]
    comp.python_entries = fast
    def generate_text(*args) -> str:
        # Printing the module is part of the stage: it recurses as deep as the program's types nest.
        return str(generate(*args))

    comp.llvm_ir = _stage(comp, "codegen", generate_text, comp.ir, target, entry and target.host,
                          c_main and target.host, None, symbols, fast, kernels)
    return comp


def optimize(source: SourceFile, options: CompileOptions = CompileOptions(), entry: bool = True,
             c_main: bool = False, exports: bool = False) -> Compilation:
    from .codegen.optimize import parse_and_optimize

    comp = codegen(source, options, entry, c_main, exports)
    target = target_of(options)
    comp.llvm_module, comp.target_machine = _stage(comp, "llvm", parse_and_optimize, comp.llvm_ir, target,
                                                   options.opt_level)
    return comp
