"""The compiler, stage by stage. Read this file first: it is the table of contents.

    source --parse--> AST --check--> typed instances --lower--> pyx IR
           --IR passes (each verified when verification is on)--> pyx IR
           --codegen--> LLVM IR text --llvm--> optimized LLVM module --> object code / JIT

Each step is a named pass of the `PassManager` (`passmanager.py`: the registry, timing, dumps,
internal errors); `pyx passes` lists them. Which functions cross to Python, and as what, is the
interop layer's policy (`interop.py`). Every function here takes the pass manager to use
(default: the standard passes); the state of a compile lives in its `Compilation`, none in module
globals, so compiles in several threads at once do not meet (the one process-wide effect left is
the recursion limit `deep.run_deep` raises while a compile runs).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import DiagnosticBag
from .options import CompileOptions
from .passmanager import PassManager
from .source import SourceFile


@dataclass
class Compilation:
    source: SourceFile
    options: CompileOptions
    passes: PassManager = field(default_factory=PassManager)  # which passes run, and their dumps
    timings: dict[str, float] = field(default_factory=dict)  # by pass name, in the order they ran
    ast: object = None
    program: object = None
    ir: object = None
    llvm_ir: str | None = None
    llvm_module: object = None
    target_machine: object = None
    python_entries: list = field(default_factory=list)


def parse(source: SourceFile, options: CompileOptions = CompileOptions(),
          diags: DiagnosticBag | None = None, passes: PassManager | None = None) -> Compilation:
    comp = Compilation(source, options, passes or PassManager())
    # (--debug-leaks instruments the main module only: syntax/leak_report.py)
    comp.ast = comp.passes.run(comp, "parse", source, diags, options.debug_leaks)
    return comp


def check(source: SourceFile, options: CompileOptions = CompileOptions(),
          passes: PassManager | None = None) -> Compilation:
    diags = DiagnosticBag()
    comp = parse(source, options, diags, passes)
    comp.program = comp.passes.run(comp, "check", comp.ast, diags, target_of(options).vector_bits)
    diags.raise_if_errors()
    return comp


def lower(source: SourceFile, options: CompileOptions = CompileOptions(),
          passes: PassManager | None = None) -> Compilation:
    comp = check(source, options, passes)
    module = comp.passes.run(comp, "lower", comp.program, options.bounds_check)
    comp.ir = comp.passes.run_ir(comp, module)  # each verified after it when verification is on
    return comp


def target_of(options: CompileOptions):
    from .codegen.target import cuda_target, host_target, opencl_target

    if options.target == "opencl":
        return opencl_target()
    return cuda_target(options.gpu_arch) if options.target == "cuda" else host_target()


def codegen(source: SourceFile, options: CompileOptions = CompileOptions(), entry: bool = True,
            c_main: bool = False, exports: bool = False, passes: PassManager | None = None) -> Compilation:
    from . import interop

    comp = lower(source, options, passes)
    target = target_of(options)
    exporting = exports and target.host  # which functions cross to Python is the interop layer's policy
    symbols = [i.symbol for i in interop.exported_functions(comp.program)] if exporting else []
    kernels = [i.symbol for i in interop.exported_kernels(comp.program)] if exporting else []
    comp.python_entries = interop.python_entries(comp.ir, symbols)
    comp.llvm_ir = comp.passes.run(comp, "codegen", comp.ir, target, entry and target.host, c_main and target.host,
                                   None, symbols, comp.python_entries, kernels)
    return comp


def optimize(source: SourceFile, options: CompileOptions = CompileOptions(), entry: bool = True,
             c_main: bool = False, exports: bool = False, passes: PassManager | None = None) -> Compilation:
    comp = codegen(source, options, entry, c_main, exports, passes)
    comp.target_machine = target_of(options).target_machine(opt=options.opt_level)
    comp.llvm_module = comp.passes.run(comp, "llvm", comp.llvm_ir, target_of(options), options.opt_level,
                                       comp.target_machine)
    return comp
