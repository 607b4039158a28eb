"""Compile a .px module into what Python loads: object code plus a description of its
exported functions (types, defaults, docs), everything the bridge needs without the compiler."""
from __future__ import annotations

from . import interop, kernel_instances, pipeline
from . import types as T
from .interop import describe_type
from .options import CompileOptions
from .source import SourceFile

FORMAT = 1


def build_module(source: SourceFile, options: CompileOptions = CompileOptions()) -> tuple[dict, bytes]:
    """Returns (metadata, object code) for the host: the cache stores exactly this pair."""
    from .codegen.exports import EXPORT_PREFIX

    comp = compile_for_python(source, options)
    from .ir.passes import launching_functions

    launching = launching_functions(comp.ir)
    functions = []
    for inst in interop.exported_functions(comp.program):
        decl = inst.decl
        params = []
        for p, t in zip(decl.params, inst.param_types):
            entry = {"name": p.name, "type": describe_type(t)}
            if p.default is not None:
                entry["default"] = literal_value(p.default)
            params.append(entry)
        shown = ", ".join(f"{p['name']}: {p['type']['name']}" + (f" = {p['default']!r}" if "default" in p else "")
                          for p in params)
        ret = f" -> {inst.return_type}" if inst.return_type != T.NONE else ""
        from .codegen.pyentry import PYENTRY_PREFIX

        # --memcheck calls take the checked path, which registers the arrays they pass.
        fast = PYENTRY_PREFIX + decl.name if inst.symbol in comp.python_entries and not options.memcheck else None
        functions.append({
            "name": decl.name, "symbol": EXPORT_PREFIX + decl.name, "params": params, "pyentry": fast,
            "returns": describe_type(inst.return_type),
            "signature": f"{decl.kind} {decl.name}({shown}){' raises' if decl.raises else ''}{ret}",
            "doc": docstring(decl), "line": decl.span.line, "launches": inst.symbol in launching,
        })
    from .codegen.abi import LAUNCH_PREFIX, kernel_entry

    kernels = []
    for inst in interop.exported_kernels(comp.program):
        kernels.append({"name": inst.decl.name, "symbol": LAUNCH_PREFIX + inst.decl.name,
                        "entry": kernel_entry(inst.symbol),
                        "params": [{"name": p.name, "type": describe_type(t)}
                                   for p, t in zip(inst.decl.params, inst.param_types)],
                        "signature": f"@kernel {inst.decl.name}(" + ", ".join(
                            f"{p.name}: {t}" for p, t in zip(inst.decl.params, inst.param_types)) + ")",
                        "doc": docstring(inst.decl)})
    # Functions Python calls through a dispatcher (generic ones, container arguments), and those
    # it cannot call with the reason (runtime/dispatch.py, dispatch_build.py).
    from .dispatch_build import python_callables

    dispatch, unexported = python_callables(comp.program, comp.ast, interop.exported_functions(comp.program))
    from .class_exports import describe

    classes = describe(comp.program, comp.ast, interop.exported_functions(comp.program))  # objects Python can hold
    prints = "print_" in comp.llvm_ir
    tm = pipeline.target_of(options).target_machine(opt=options.opt_level)
    obj = tm.emit_object(comp.llvm_module)
    meta = {"format": FORMAT, "module": comp.ast.name, "source": source.name, "functions": functions,
            "kernels": kernels, "dispatch": dispatch, "unexported": unexported, "classes": classes,
            "kernel_families": kernel_instances.families(comp.ast),  # kernels with compile-time parameters
            "prints": prints, "timings": comp.timings, "dependencies": comp.program.dependencies,
            "memcheck": options.memcheck,
            # The C-API functions the code calls: loading checks that this Python exports each
            # (bridge.check_python_api), so a missing one is an ImportError, not a call to address 0.
            "python_api": sorted({f.name for f in comp.llvm_module.functions
                                  if f.is_declaration and f.name.startswith(("Py", "_Py"))})}
    return meta, obj


def compile_for_python(source: SourceFile, options: CompileOptions, stage=None):
    """The module compiled with its classes' accessors (class_exports.py); compiled again
    without them if they are what fails to check (its classes then stay in pyx)."""
    from . import class_exports
    from .diagnostics import CompileError

    stage = stage or (lambda src, opts, passes: pipeline.optimize(src, opts, entry=False, exports=True,
                                                                   passes=passes))
    try:
        return stage(source, options, class_exports.passes())
    except CompileError as exc:
        if not class_exports.failed_in_accessors(exc):
            raise
    return stage(source, options, None)


def literal_value(node):
    """A parameter's default written as a literal (`3`, `-1.5`, `"a"`, `True`): its value; None
    for any other expression."""
    from .syntax import ast

    if isinstance(node, (ast.IntLit, ast.FloatLit, ast.BoolLit, ast.StrLit)):
        return node.value
    if isinstance(node, ast.Unary) and node.op == "-" and isinstance(node.operand, (ast.IntLit, ast.FloatLit)):
        return -node.operand.value
    return None


def docstring(decl) -> str:
    """The docstring of a function's declaration; "" where it has none."""
    from .syntax import ast

    if decl.body and isinstance(decl.body[0], ast.ExprStmt) and isinstance(decl.body[0].expr, ast.StrLit):
        return decl.body[0].expr.value
    return ""
