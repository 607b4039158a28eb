"""The pass manager: every step of a compile is a named pass, run from one place.

A `Pass` has a name (what `--time`, `--print-before/--print-after` and internal errors call it), a
one-line description (`pyx passes` prints them), where its function lives (imported only when it
runs, so listing passes or loading cached code imports no compiler stage), what it reads and
what it gives (the kinds of value a dump prints), and for IR passes when it applies.

`PassManager.run` is the one place a pass runs: it times it into `Compilation.timings`, prints
the dumps asked for, runs it on a thread with a deep stack (`deep.run_deep`), and turns an
exception that escapes it into an `InternalCompilerError` naming the pass. `run_ir` runs the IR
passes that apply to the compile's options, in registry order, each followed by the pass
`verify` when verification is on. Nothing here is process-wide: a manager is an ordinary object
(`PassManager()` holds the standard passes; `with_pass` gives one with an extra pass, the hook
tests use), and each compile carries its own.
"""
from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO


def _always(options) -> bool:
    return True


@dataclass(frozen=True)
class Pass:
    name: str
    description: str
    # "module:function", relative to this package (".ir.passes:infer_raises"), or the function itself.
    function: str | Callable
    takes: str  # what it reads, its first argument: "source" | "ast" | "program" | "ir" | "llvm" | "module"
    gives: str  # what it returns, of the same kinds
    applies: Callable = _always  # (CompileOptions) -> bool: an IR pass runs only for the compiles it fits

    def resolve(self) -> Callable:
        if callable(self.function):
            return self.function
        module, _, name = self.function.partition(":")
        return getattr(importlib.import_module(module, __package__), name)

    @property
    def where(self) -> str:
        if callable(self.function):
            return f"{self.function.__module__}:{self.function.__qualname__}"
        module, _, name = self.function.partition(":")
        return f"{__package__}{module}:{name}" if module.startswith(".") else self.function


DEVICE_TARGETS = ("cuda", "opencl")  # code for a GPU (PTX, SPIR-V): kernels and what they call only


def _cuda(options) -> bool:
    return options.target in DEVICE_TARGETS


def _host(options) -> bool:
    return options.target not in DEVICE_TARGETS


def _regions(options) -> bool:
    return _host(options) and options.gpu_regions


def _memcheck(options) -> bool:
    return options.memcheck and options.target not in DEVICE_TARGETS


def _racecheck(options) -> bool:
    return options.racecheck and options.target not in DEVICE_TARGETS


# The stages before and after the IR passes, in the order pipeline.py runs them.
FRONT = (
    Pass("parse", "source text -> AST (Lark LALR parser, indentation, syntax checks)",
         ".syntax:parse", "source", "ast"),
    Pass("check", "AST -> typed function instances (name resolution, types, monomorphization)",
         ".monomorphize:instantiate_program", "ast", "program"),
    Pass("lower", "typed instances -> pyx IR (ownership, cleanups, exception edges)",
         ".ir:lower_program", "program", "ir"),
)

# IR -> IR, in the order they run; `applies` leaves out those a compile does not need.
IR_PASSES = (
    Pass("device_functions", "GPU only: keep the kernels and what they call",
         ".ir.passes:device_functions", "ir", "ir", _cuda),
    Pass("strip_interrupt_polls", "GPU only: remove the Ctrl-C polls (a GPU thread cannot be interrupted)",
         ".ir.interrupts:strip_interrupt_polls", "ir", "ir", _cuda),
    # Before infer_raises: a checked access may raise.
    Pass("insert_memory_checks", "--memcheck: check every memory access of GPU code run on the CPU",
         ".ir.memcheck:insert_memory_checks", "ir", "ir", _memcheck),
    # Before infer_raises (a checked access may raise) and before gpu_regions (which copies kernels).
    Pass("insert_race_checks", "--racecheck: report shared-memory races of GPU code run on the CPU",
         ".ir.racecheck:insert_race_checks", "ir", "ir", _racecheck),
    Pass("strip_callback_polls", "CPU only: no Ctrl-C polls in the loops of functions given to C (ir/c_callbacks.py)",
         ".ir.c_callbacks:strip_callback_polls", "ir", "ir", _host),
    Pass("remove_unreachable_blocks", "drop the blocks no path from the entry reaches",
         ".ir.passes:remove_unreachable_blocks", "ir", "ir"),
    # Before infer_raises: a recursive function's entry may raise RecursionError.
    Pass("guard_recursion", "CPU only: recursive functions check their depth (RecursionError)",
         ".ir.recursion:guard_recursion", "ir", "ir", _host),
    Pass("infer_raises", "mark the functions an exception can leave (a fixpoint over the call graph)",
         ".ir.passes:infer_raises", "ir", "ir"),
    Pass("drop_dead_handlers", "forget the handlers of calls that cannot raise, and their blocks",
         ".ir.passes:drop_dead_handlers", "ir", "ir"),
    Pass("legalize_bfloat16", "BFloat16 arithmetic done in Float32 (bits moved, two casts)",
         ".ir.bfloat16:legalize_bfloat16", "ir", "ir"),
    # Last: it copies kernels as the passes above left them.
    Pass("gpu_regions", "CPU only: kernels with barriers also as loops over the block's threads (no coroutines)",
         ".ir.passes:split_kernels", "ir", "ir", _regions),
)

VERIFY = Pass("verify", "check the IR invariants (after lowering and after each IR pass, when on)",
              ".ir.verify:verify_pass", "ir", "ir")

BACK = (
    Pass("codegen", "pyx IR -> LLVM IR text for the target (host or NVPTX)",
         ".codegen.llvm_gen:generate_text", "ir", "llvm"),
    Pass("llvm", "LLVM IR text -> parsed, verified, optimized LLVM module (LLVM's pass pipeline)",
         ".codegen.optimize:optimized_module", "llvm", "module"),
)


def _printer(kind: str) -> Callable[[Any], str] | None:
    """How a dump shows a value of this kind; None for the typed instances, which have no text form."""
    if kind == "source":
        return lambda source: source.text
    if kind == "ast":
        from .syntax.printer import format_ast

        return format_ast
    if kind == "ir":
        from .ir import print_module

        return print_module
    if kind in ("llvm", "module"):
        return str
    return None


class UnknownPass(ValueError):
    """A pass name no pass has (`--print-after=NAME`): the message lists the names there are."""


@dataclass
class PassManager:
    passes: tuple[Pass, ...] = FRONT + IR_PASSES + (VERIFY,) + BACK
    print_before: frozenset[str] = frozenset()
    print_after: frozenset[str] = frozenset()
    out: TextIO | None = None  # where dumps go (default: stderr)
    verify: bool | None = None  # None: when CompileOptions.verify_ir or PYX_VERIFY=1
    _by_name: dict[str, Pass] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._by_name = {p.name: p for p in self.passes}
        if len(self._by_name) != len(self.passes):
            raise ValueError("two passes have one name")
        self.print_before = frozenset(self.print_before)
        self.print_after = frozenset(self.print_after)
        for name in self.print_before | self.print_after:
            self.get(name)

    def names(self) -> list[str]:
        return [p.name for p in self.passes]

    def get(self, name: str) -> Pass:
        found = self._by_name.get(name)
        if found is None:
            raise UnknownPass(f"unknown pass `{name}`; the passes are: {', '.join(self.names())}")
        return found

    def with_pass(self, extra: Pass, after: str) -> PassManager:
        """A copy with `extra` inserted after the pass named `after` (an IR pass after an IR pass
        runs with the IR passes, verified after it like them)."""
        self.get(after)  # an unknown name raises UnknownPass
        at = self.names().index(after) + 1
        return PassManager(self.passes[:at] + (extra,) + self.passes[at:], self.print_before, self.print_after,
                           self.out, self.verify)

    def ir_passes(self, options) -> list[Pass]:
        """The IR passes this compile runs, in order."""
        return [p for p in self.passes if p.takes == p.gives == "ir" and p is not VERIFY and p.applies(options)]

    def verifying(self, options) -> bool:
        if self.verify is not None:
            return self.verify
        return options.verify_ir or os.environ.get("PYX_VERIFY") == "1"

    def run(self, comp, name: str, *args):
        """Run the pass `name` on `args` (the first is its input) for the compilation `comp`."""
        from .deep import compiling, run_deep

        p = self.get(name)
        with compiling():  # its modules are imported as the passes run: with the collector tuned (deep.py)
            function = p.resolve()
        if name in self.print_before:
            self._dump(p, "before", p.takes, args[0])
        start = time.perf_counter()
        try:
            result = run_deep(_guarded, p, comp, function, args)
        finally:
            comp.timings[name] = comp.timings.get(name, 0.0) + time.perf_counter() - start
        if name in self.print_after:
            self._dump(p, "after", p.gives, result)
        return result

    def run_ir(self, comp, module):
        """The IR passes that apply to `comp.options`, each followed by `verify` when it is on."""
        from .deep import run_deep

        return run_deep(self._run_ir, comp, module)  # one big-stack thread for them all

    def _run_ir(self, comp, module):
        verify = self.verifying(comp.options)
        if verify:
            self.run(comp, "verify", module, "lower")
        for p in self.ir_passes(comp.options):
            module = self.run(comp, p.name, module)
            if verify:
                self.run(comp, "verify", module, p.name)
        return module

    def _dump(self, p: Pass, when: str, kind: str, value) -> None:
        printer = _printer(kind)
        out = self.out or sys.stderr
        if printer is None:
            print(f"; *** {when} pass {p.name}: its {'input' if when == 'before' else 'output'} ({kind}) "
                  "has no text form ***", file=out)
            return
        text = printer(value)
        print(f"; *** {kind} {when} pass {p.name} ***", file=out)
        out.write(text if text.endswith("\n") else text + "\n")
        out.flush()


def _guarded(p: Pass, comp, function, args):
    """Run one pass; an exception that is not the user's mistake becomes an internal error in it."""
    from .diagnostics import CompileError, InternalCompilerError, statement_of

    try:
        result = function(*args)
    except (CompileError, InternalCompilerError):
        raise
    except Exception as exc:
        mistake = _users_mistake(exc, comp)
        if mistake is not None:
            raise mistake from None
        raise InternalCompilerError(p.name, statement_of(exc), exc) from exc  # our bug, reported as such
    return result


def _users_mistake(exc: Exception, comp):
    """The diagnostic for an exception from code generation that the user can fix, or None. The
    code generator is imported here, not before the pass: only it raises these, and importing it
    inside the first pass's timer made `--time` charge its import to `parse`."""
    from .codegen.libdevice import LibdeviceNotFound
    from .codegen.llvm_gen import ExceptionTypeInDeviceCode, UnsupportedOnTarget
    from .codegen.platform_facts import NoPlatformFacts, known_targets
    from .diagnostics import CompileError, error, statement_of

    if isinstance(exc, LibdeviceNotFound):
        return CompileError([error("E0904", None, detail=str(exc))])
    if isinstance(exc, NoPlatformFacts):
        return CompileError([error("E0906", None, triple=exc.triple, known=known_targets())])
    if isinstance(exc, ExceptionTypeInDeviceCode):
        return CompileError([error("E0913", exc.span or statement_of(exc), what=exc.what,
                                   target=comp.options.target)])
    if isinstance(exc, UnsupportedOnTarget):
        span = exc.span or statement_of(exc)
        return CompileError([error("E0226", span, func=exc.what, target=comp.options.target)])
    return None


def describe(manager: PassManager | None = None) -> str:
    """`pyx passes`: each pass by name, in order, with what it does and where it lives."""
    manager = manager or PassManager()
    width = max(len(n) for n in manager.names())
    lines = []
    for p in manager.passes:
        lines.append(f"{p.name:<{width}}  {p.description}")
        lines.append(f"{'':<{width}}  {p.takes} -> {p.gives}; {p.where}")
    return "\n".join(lines) + "\n"
