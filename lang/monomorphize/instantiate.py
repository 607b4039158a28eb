"""The worklist that turns declarations into monomorphic instances.

A `fn` (or a fully annotated `def`) is one instance. A `def` with unannotated
parameters gets one instance per distinct argument-type tuple at its call sites.
Instances are checked from a worklist, not by recursion over the call graph; the one
exception is a `def` whose return type must be inferred before its caller can go on,
and that nesting is bounded.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..diagnostics import DiagnosticBag
from ..source import Span
from ..syntax import ast
from .. import types as T
from ..types import ERROR, Type
from ..semantics.check import FunctionChecker
from ..semantics.module import collect, resolve_fields, resolve_type
from ..semantics.scope import ComptimeSymbol, ModuleSymbols
from ..semantics.typed import FunctionInstance, TConst

MAX_INSTANCES_PER_DEF = 256
MAX_INFERENCE_DEPTH = 48


@dataclass
class Program:
    module: str
    instances: list[FunctionInstance] = field(default_factory=list)
    main: FunctionInstance | None = None


def ct_env(decl: ast.FnDef, ct_args: tuple) -> dict:
    return {p.name: v for p, v in zip(decl.ct_params, ct_args)}


def mangle(module: str, decl: ast.FnDef, param_types: tuple[Type, ...], owner: Type | None = None,
           ct_args: tuple = ()) -> str:
    from ..semantics.comptime import show

    name = f"{module}.{owner.name}.{decl.name}" if owner is not None else f"{module}.{decl.name}"
    if decl.ct_params:
        return f"{name}[{', '.join(show(v) for v in ct_args)}]"
    if decl.is_generic:
        shown = param_types[1:] if decl.self_convention is not None else param_types
        return f"{name}[{','.join(t.name for t in shown)}]"
    return name


class Instantiator:
    def __init__(self, symbols: ModuleSymbols, diags: DiagnosticBag):
        self.symbols = symbols
        self.diags = diags
        self.instances: dict[tuple[str, tuple[Type, ...]], FunctionInstance] = {}
        self.per_def: dict[str, int] = {}
        self.worklist: deque[FunctionInstance] = deque()
        self.depth = 0

    def resolve_type(self, expr: ast.Expr | None, env: dict | None = None) -> Type:
        return resolve_type(expr, self.diags, self.symbols, env, self.lookup_constant)

    def lookup_constant(self, name: str, span: Span):
        sym = self.symbols.comptimes.get(name)
        if sym is None:
            return None
        value = self.comptime_value(sym)
        return value.value if value is not None else ERROR

    def instantiate(self, decl: ast.FnDef, param_types: tuple[Type, ...], span: Span | None,
                    owner: Type | None = None, ct_args: tuple = ()) -> FunctionInstance | None:
        key = (owner.name if owner is not None else "", decl.name, param_types, ct_args)
        instance = self.instances.get(key)
        if instance is None:
            count = self.per_def.get(decl.name, 0) + 1
            self.per_def[decl.name] = count
            if count > MAX_INSTANCES_PER_DEF:
                if count == MAX_INSTANCES_PER_DEF + 1:
                    self.diags.error("E0222", span or decl.name_span, func=decl.name, limit=MAX_INSTANCES_PER_DEF)
                return None
            instance = FunctionInstance(decl, self.symbols.name, param_types,
                                        mangle(self.symbols.name, decl, param_types, owner, ct_args), owner=owner,
                                        ct_args=ct_args)
            if decl.self_convention == "out":
                instance.return_type = owner  # a constructor returns the value it built
            elif decl.returns is not None:
                env = {**getattr(owner, "ct_env", {}), **ct_env(decl, ct_args)}
                instance.return_type = self.resolve_type(decl.returns, env)
            elif decl.kind == "fn":
                instance.return_type = T.NONE
            self.instances[key] = instance
            self.worklist.append(instance)
        if instance.return_type is None and not instance.checked and not instance.in_progress:
            # The caller needs this `def`'s inferred return type now.
            if self.depth >= MAX_INFERENCE_DEPTH:
                self.diags.error("E0221", span or decl.name_span, func=decl.name)
                return None
            self.check(instance)
        return instance

    def check(self, instance: FunctionInstance) -> None:
        if instance.checked or instance.in_progress:
            return
        instance.in_progress = True
        self.depth += 1
        try:
            FunctionChecker(self.symbols, instance, self.diags, self.instantiate, self.resolve_type,
                            self.comptime_value).check()
        finally:
            self.depth -= 1
            instance.in_progress = False
            instance.checked = True

    def comptime_value(self, sym: ComptimeSymbol) -> TConst | None:
        if sym.value is not None or sym.failed:
            return sym.value
        decl = sym.decl
        if sym.evaluating:
            self.diags.error("E0219", decl.name_span, detail=f"`{decl.name}` depends on itself")
            return None
        sym.evaluating = True
        try:
            scratch = FunctionInstance(
                ast.FnDef(decl.span, "fn", decl.name, decl.name_span, (), (), False, None, ()),
                self.symbols.name, (), "<comptime>")
            checker = FunctionChecker(self.symbols, scratch, self.diags, self.instantiate, self.resolve_type,
                                      self.comptime_value)
            value = checker.expr(decl.value)
            if decl.annotation is not None:
                value = checker.coerce(value, self.resolve_type(decl.annotation))
            if value.type == ERROR:
                sym.failed = True
                return None
            if not isinstance(value, TConst):
                self.diags.error("E0219", decl.value.span, detail="it is not a constant expression")
                sym.failed = True
                return None
            sym.value = value
            return value
        finally:
            sym.evaluating = False

    def check_host_code(self) -> None:
        """GPU intrinsics are for device code: host code (main and what it calls) must not reach one."""
        from ..diagnostics import Note

        main = self.instances.get(("", "main", (), ()))
        if main is None:
            return
        seen, stack = {id(main)}, [(main, None)]
        while stack:
            inst, via = stack.pop()
            if inst.gpu_use is not None:
                what = inst.gpu_use.file.text[inst.gpu_use.start:inst.gpu_use.end].split("(")[0]
                notes = (Note("called from the host here", via),) if via is not None else ()
                self.diags.error("E0147", inst.gpu_use, notes, name=what, func=inst.name)
                continue
            for callee, span in inst.callees:
                if id(callee) not in seen:
                    seen.add(id(callee))
                    stack.append((callee, span))

    def run(self, roots: list[ast.FnDef]) -> Program:
        program = Program(self.symbols.name)
        for decl in roots:
            types = tuple(self.resolve_type(p.annotation) for p in decl.params)
            self.instantiate(decl, types, None)
        for sym in self.symbols.structs.values():
            resolve_fields(sym, self.symbols, self.diags, self.lookup_constant)
            if sym.generic or sym.state != "done":
                continue
            for method in sym.methods.values():
                # Concrete methods are checked even when unused, so their errors show up.
                if not method.is_generic:
                    types = tuple(sym.type if i == 0 and method.self_convention is not None
                                  else self.resolve_type(p.annotation) for i, p in enumerate(method.params))
                    self.instantiate(method, types, None, sym.type)
        for sym in self.symbols.comptimes.values():
            self.comptime_value(sym)
        while self.worklist:
            self.check(self.worklist.popleft())
        program.instances = [i for i in self.instances.values() if i.checked]
        self.check_host_code()
        main = self.symbols.functions.get("main")
        if main is not None and not main.is_generic:
            program.main = self.instances.get(("", "main", tuple(self.resolve_type(p.annotation) for p in main.params),
                                               ()))
            if main.params or (program.main and program.main.return_type not in (T.NONE, ERROR)):
                self.diags.error("E0110", main.name_span)
        return program


def instantiate_program(module: ast.Module, diags: DiagnosticBag, vector_bits: int = 128) -> Program:
    symbols = collect(module, diags)
    symbols.vector_bits = vector_bits
    roots = [d for d in symbols.functions.values() if not d.is_generic]
    return Instantiator(symbols, diags).run(roots)
