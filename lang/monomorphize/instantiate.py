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

from .. import cancel
from .. import types as T
from ..diagnostics import DiagnosticBag
from ..semantics import recursive_returns
from ..semantics.check import FunctionChecker
from ..semantics.empty_literals import Retry
from ..semantics.generators import is_generator
from ..semantics.globals import SCRIPT
from ..semantics.gpu import check_shared_memory
from ..semantics.imports import ModuleLoader, is_stdlib_file
from ..semantics.module import resolve_fields, resolve_type
from ..semantics.python_float import keeps_int, kept_parameters
from ..semantics.scope import ComptimeSymbol, ModuleSymbols
from ..semantics.typed import FunctionInstance, TConst
from ..source import Span
from ..syntax import ast
from ..types import ERROR, Type

MAX_INSTANCES_PER_DEF = 256
MAX_INFERENCE_DEPTH = 48
# A program's instances in all: each declaration may have MAX_INSTANCES_PER_DEF, but many
# generic declarations instantiating each other could still ask for millions.
MAX_INSTANCES = 8192


def _returns_nothing(decl: ast.FnDef) -> bool:
    """Whether no `return` of `decl` gives a value and it has no `yield` (nested functions and
    lambdas are their own)."""
    stack: list = list(decl.body)
    while stack:
        node = stack.pop()
        if (isinstance(node, ast.Return) and node.value is not None) or isinstance(node, ast.Yield):
            return False
        if isinstance(node, (ast.FnDef, ast.Lambda, ast.StructDef)):
            continue
        stack.extend(ast.children(node))
    return True


@dataclass
class Program:
    module: str
    instances: list[FunctionInstance] = field(default_factory=list)
    main: FunctionInstance | None = None
    # The imported modules' scripts, run before `main` in the order CPython would run them (globals.py).
    imported_scripts: list[FunctionInstance] = field(default_factory=list)
    dependencies: list[tuple[str, str]] = field(default_factory=list)  # imported files: (path, sha256)
    walked: list[str] = field(default_factory=list)  # the files whose names the check walked (ModuleLoader.walked)


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


def at_user_call(diag, instance: FunctionInstance):
    """An error inside the standard library, made by a use of it with types it does not suit
    (`List[Rect]() == ...` with no `Rect.__eq__`), is reported at the user's line that made that
    use, with the library's line as a note. Errors already at a user's line stay as they are."""
    from dataclasses import replace

    from ..diagnostics import Note

    if diag.span is None or not is_stdlib_file(diag.span.file.name):
        return diag
    inst, user_call = instance, None
    while inst is not None and inst.called_at is not None and is_stdlib_file(inst.decl.span.file.name):
        user_call, inst = inst.called_at
    if user_call is None or is_stdlib_file(user_call.file.name):
        return diag
    owner = f"{instance.owner}." if instance.owner is not None else ""
    note = Note(f"where it fails: in the standard library's `{owner}{instance.name}`", diag.span)
    return replace(diag, span=user_call, notes=(note, *diag.notes))


def method_env(decl: ast.FnDef, owner: Type | None, ct_args: tuple) -> dict:
    """The names a signature sees: its struct's parameters and `Self`, then its own parameters."""
    return {**getattr(owner, "ct_env", {}), **({"Self": owner} if owner is not None else {}), **ct_env(decl, ct_args)}


class Instantiator:
    def __init__(self, symbols: ModuleSymbols, diags: DiagnosticBag, loader: ModuleLoader):
        self.symbols = symbols  # the main module
        self.whole_stdlib = False  # check every concrete stdlib function too (the stdlib's own test)
        self.diags = diags
        self.loader = loader
        self.modules = loader.modules
        for module in self.modules:
            module.lookup_constant = self._constant_lookup(module)
        self.instances: dict[tuple[str, tuple[Type, ...]], FunctionInstance] = {}
        # Symbols given so far, each with how many instances asked for it: a symbol is made of
        # names, which two different types can share (`Point` of two modules), so a second
        # instance reading the same gets `#2` (the order instances are made in is fixed).
        self.symbols_given: dict[str, int] = {}
        self.per_def: dict[int, int] = {}  # instances made of each declaration (by id)
        self.too_many_instances = False
        self.worklist: deque[FunctionInstance] = deque()
        self.depth = 0
        # Recursive `def`s without `-> T` (semantics/recursive_returns.py): each check under way or
        # done inside the outermost one, with its fields as they were when it started (so a `def`
        # that learned its type can check again what its first pass saw), and the types learned.
        self.check_log: list[tuple[FunctionInstance, dict]] = []
        self.recursive_seeds: dict[int, Type] = {}
        from .generic_check import GenericBodies

        self.generic_bodies = GenericBodies(self)

    def home(self, node: ast.Node) -> ModuleSymbols:
        """The module a declaration was written in: its names are the ones its body sees."""
        return self.loader.home(node, self.symbols)

    def resolve_type(self, expr: ast.Expr | None, env: dict | None = None, module: ModuleSymbols | None = None) -> Type:
        module = module or self.symbols
        return resolve_type(expr, self.diags, module, env, module.lookup_constant)

    def resolver(self, module: ModuleSymbols):
        """Type resolution for one checker: in its own module, or in the module that declares `decl`
        (a callee's parameter types are written there)."""
        return lambda expr, env=None, decl=None: self.resolve_type(expr, env,
                                                                   self.home(decl) if decl is not None else module)

    def declared_return_type(self, decl: ast.FnDef, owner: Type | None, env: dict, home: ModuleSymbols) -> Type | None:
        """What a call returns, from the signature; None for a `def` whose body must say."""
        if decl.self_convention == "out":
            return owner  # a constructor returns the value it built
        if decl.returns is not None:
            from ..semantics.pycollections import returned_defaultdict

            # (`-> dict[K, V]` returning its `d: dict[K, V] = defaultdict(f)`: that defaultdict)
            return self.resolve_type(returned_defaultdict(decl) or decl.returns, env, home)
        # A `def` with no `return value` (nor `yield`) returns None: known before its body is
        # checked, so a recursive one (`def walk(node): ... walk(node.left)`) needs no annotation.
        return T.NONE if decl.kind == "fn" or _returns_nothing(decl) else None

    def _constant_lookup(self, module: ModuleSymbols):
        def lookup_constant(name: str, span: Span):
            sym = module.comptimes.get(name)
            if sym is None:
                return None
            value = self.comptime_value(sym)
            return value.value if value is not None else ERROR
        return lookup_constant

    def instantiate(self, decl: ast.FnDef, param_types: tuple[Type, ...], span: Span | None,
                    owner: Type | None = None, ct_args: tuple = ()) -> FunctionInstance | None:
        home = self.home(decl)
        key = (home.name, owner if owner is not None else "", decl.name, param_types, ct_args)
        instance = self.instances.get(key)
        if instance is None:
            # Counted per declaration (not per name: every struct's `__init__` is called `__init__`).
            count = self.per_def.get(id(decl), 0) + 1
            self.per_def[id(decl)] = count
            if count > MAX_INSTANCES_PER_DEF:
                if count == MAX_INSTANCES_PER_DEF + 1:
                    self.diags.error("E0222", span or decl.name_span, func=decl.name, limit=MAX_INSTANCES_PER_DEF)
                return None
            if len(self.instances) >= MAX_INSTANCES:
                if not self.too_many_instances:  # reported once, where the first one was refused
                    self.too_many_instances = True
                    self.diags.error("E0227", span or decl.name_span, limit=MAX_INSTANCES)
                return None
            instance = FunctionInstance(decl, home.name, param_types,
                                        self.unique_symbol(mangle(home.name, decl, param_types, owner, ct_args)),
                                        owner=owner, ct_args=ct_args)
            instance.return_type = None if keeps_int(instance) else \
                self.declared_return_type(decl, owner, method_env(decl, owner, ct_args), home)
            self.instances[key] = instance
            self.worklist.append(instance)
        inferred = recursive_returns.inferred(instance)
        if (instance.return_type is None or inferred) and not instance.checked and not instance.in_progress:
            # The caller needs this `def`'s inferred return type now. (One that returns nothing
            # is known to return None, but is still checked here, at its first call: a script's
            # names it reads, and the empty literals it types, are judged at that point.)
            if self.depth >= MAX_INFERENCE_DEPTH:
                self.diags.error("E0221", span or decl.name_span, func=decl.name)
                return None
            if instance.called_at is None and span is not None and kept_parameters(instance):
                instance.called_at = (span, None)  # (the call python_float.int_parameters_note shows)
            self.check(instance)
        return instance

    def _learned_result(self, instance: FunctionInstance, fresh: dict, log_mark: int, mark: int) -> bool:
        """After a pass of a recursive `def` that called itself before its type was known: True when
        another `return` gave the type, and every check made during the pass is undone, to be made
        again with it (semantics/recursive_returns.py); else its first such call is E0221."""
        found = recursive_returns.seed(instance)
        if found is None:
            self.diags.error("E0221", instance.recursive_calls[0], func=instance.decl.name)
            instance.return_type = ERROR  # reported once, not again at each caller
            for other, _ in self.check_log[log_mark + 1:]:
                if other.return_type is None:  # (`pong`, waiting for this `ping`'s type)
                    other.return_type = ERROR
            return False
        self.recursive_seeds[id(instance)] = found
        undone = self.check_log[log_mark + 1:]
        del self.check_log[log_mark + 1:]
        spans = [instance.decl.span] + [other.decl.span for other, _ in undone]
        self.diags.drop_since(mark, lambda s: any(s.file is d.file and d.start <= s.start <= d.end for d in spans))
        for other, its_fresh in undone:
            for name, value in _fields_of_dict(its_fresh).items():
                setattr(other, name, value)
            other.in_progress = other.checked = False
            self.worklist.append(other)  # checked again where the new pass calls it, else from here
        for name, value in _fields_of_dict(fresh).items():
            setattr(instance, name, value)
        instance.return_type = found
        return True

    def unique_symbol(self, symbol: str) -> str:
        count = self.symbols_given.get(symbol, 0) + 1
        self.symbols_given[symbol] = count
        return symbol if count == 1 else f"{symbol}#{count}"

    def check(self, instance: FunctionInstance) -> None:
        if instance.checked or instance.in_progress:
            return
        if id(instance.decl) in self.generic_bodies.failed:
            # Its errors were reported once, at the generic's source: no copy per instance.
            instance.checked = True
            instance.return_type = instance.return_type or ERROR
            return
        instance.in_progress = True
        self.depth += 1
        before = len(self.diags.items)
        abandoned = False
        try:
            home = self.home(instance.decl)
            if instance.return_type is None and id(instance) in self.recursive_seeds:
                instance.return_type = self.recursive_seeds[id(instance)]
            fresh = _fields_of(instance)
            known_globals = dict(home.globals)
            mark = len(self.diags.items)
            log_mark = len(self.check_log)
            self.check_log.append((instance, fresh))
            while True:
                try:
                    FunctionChecker(home, instance, self.diags, self.instantiate, self.resolver(home),
                                    self.comptime_value, self.home).check()
                    if instance.recursive_calls and self._learned_result(instance, fresh, log_mark, mark):
                        home.globals.clear()
                        home.globals.update(known_globals)
                        continue
                    break
                except Retry as retry:
                    # An empty literal's type is known now: check again from the start with it
                    # (semantics/empty_literals.py). What this function's own lines reported so far
                    # may have come from the pending variable: forgotten, and reported again if it holds.
                    decl_span = instance.decl.span
                    self.diags.drop_since(mark, lambda s, d=decl_span: s.file is d.file and d.start <= s.start <= d.end)
                    if retry.owner is not None and retry.owner is not instance:
                        # Another function's literal (the script's): this check is abandoned, to be
                        # done again when that function's check, restarted, reaches it.
                        for name, value in _fields_of_dict(fresh).items():
                            setattr(instance, name, value)
                        home.globals.clear()
                        home.globals.update(known_globals)
                        abandoned = True
                        raise
                    hints, retries = instance.empty_hints, instance.retries + 1
                    for name, value in _fields_of_dict(fresh).items():
                        setattr(instance, name, value)
                    instance.empty_hints, instance.retries = hints, retries
                    home.globals.clear()
                    home.globals.update(known_globals)
        finally:
            self.depth -= 1
            recursive_returns.finished(instance)
            if self.depth == 0:
                self.check_log.clear()
            instance.in_progress = False
            instance.checked = not abandoned
            if abandoned:
                self.worklist.append(instance)  # checked again once its owner's check is done
        if len(self.diags.items) > before and is_stdlib_file(instance.decl.span.file.name):
            # Moved ones are re-added through the bag, which keeps one of each: two failing lines of
            # one library function are one error at the user's call.
            found = self.diags.items[before:]
            del self.diags.items[before:]
            for d in found:
                moved = at_user_call(d, instance)
                if moved is d:
                    self.diags.items.append(d)  # already at the user's line (and counted by the bag)
                else:
                    self.diags.add(moved)

    def comptime_value(self, sym: ComptimeSymbol) -> TConst | None:
        if sym.value is not None or sym.failed:
            return sym.value
        decl = sym.decl
        if sym.evaluating:
            self.diags.error("E0219", decl.name_span, detail=f"`{decl.name}` depends on itself")
            return None
        sym.evaluating = True
        try:
            home = self.home(decl)
            scratch = FunctionInstance(
                ast.FnDef(decl.span, "fn", decl.name, decl.name_span, (), (), False, None, ()),
                home.name, (), "<comptime>")
            checker = FunctionChecker(home, scratch, self.diags, self.instantiate, self.resolver(home),
                                      self.comptime_value, self.home)
            value = checker.exprs.expr(decl.value)
            if decl.annotation is not None:
                value = checker.exprs.coerce(value, self.resolve_type(decl.annotation, None, home))
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

        main = self.instances.get((self.symbols.name, "", "main", (), ()))
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

    def run(self) -> Program:
        """Every module's concrete functions, struct methods and constants are checked, used or not,
        so their errors show up; generic ones as their uses instantiate them. The standard library
        is the exception: only what a program uses of it is compiled (a module using a List must
        not pay for all of String)."""
        program = Program(self.symbols.name)
        program.dependencies = self.loader.dependencies
        program.walked = self.loader.walked
        for module in self.modules:
            if not self._is_stdlib(module):
                for sym in self._own(module, module.structs):
                    resolve_fields(sym, module, self.diags, module.lookup_constant)
        # Scripts first, in import order: their variables' types are what every other function sees
        # (semantics/globals.py).
        scripts = {}
        # The main module's last, as CPython runs it after its imports: its script may read an
        # imported module's variables (`sys.argv`: semantics/structs.py `_foreign_variable`).
        for module in sorted(self.modules, key=lambda m: m is self.symbols):
            script = module.functions.get(SCRIPT)
            if script is not None and self.home(script) is module:
                scripts[module.name] = self.instantiate(script, (), None)
        for module in self.modules:
            if not self._is_stdlib(module):
                self.generic_bodies.check_module(module)
        for module in self.modules:
            lazy = self._is_stdlib(module) and not self.whole_stdlib
            for decl in self._own(module, module.functions):
                if not decl.is_generic and not lazy and not is_generator(decl):  # (run where iterated)
                    self.instantiate(decl, tuple(self.resolve_type(p.annotation, None, module) for p in decl.params),
                                     None)
            for sym in self._own(module, module.structs):
                resolve_fields(sym, module, self.diags, module.lookup_constant)
                if sym.generic or sym.state != "done" or lazy:
                    continue
                for method in sym.methods.values():
                    if not method.is_generic and not is_generator(method):
                        types = tuple(sym.type if i == 0 and method.self_convention is not None
                                      else self.resolve_type(p.annotation, {"Self": sym.type}, module)
                                      for i, p in enumerate(method.params))
                        self.instantiate(method, types, None, sym.type)
            for sym in self._own(module, module.comptimes):
                self.comptime_value(sym)
        while self.worklist:
            cancel.check()  # an editor's analysis of text that has changed since stops here
            self.check(self.worklist.popleft())
        program.instances = [i for i in self.instances.values() if i.checked]
        self.check_host_code()
        check_shared_memory(program.instances, self.diags)
        main = self.symbols.functions.get("main")
        program.imported_scripts = [found for m in self.loader.import_order(self.symbols)
                                    if m is not self.symbols and (found := scripts.get(m.name)) is not None]
        if scripts.get(self.symbols.name) is not None:
            program.main = scripts[self.symbols.name]  # the script is the program; it calls `main` if it wants it
        elif main is not None and not main.is_generic:
            program.main = self.instances.get((self.symbols.name, "", "main",
                                               tuple(self.resolve_type(p.annotation) for p in main.params), ()))
            if program.main and program.main.return_type is None:  # its body always raises: it returns nothing
                program.main.return_type = T.NONE
            if main.params or (program.main and program.main.return_type not in (T.NONE, ERROR)):
                self.diags.error("E0110", main.name_span)
        return program


    def _is_stdlib(self, module: ModuleSymbols) -> bool:
        own = self._own(module, module.functions) + [sym.decl for sym in self._own(module, module.structs)]
        return bool(own) and is_stdlib_file(own[0].span.file.name)

    def _own(self, module: ModuleSymbols, table: dict) -> list:
        """The entries of a module's table it declared itself (not those it imported)."""
        return [item for item in table.values() if self.home(getattr(item, "decl", item)) is module]


def _fields_of(instance) -> dict:
    """A copy of an instance's fields, its lists and dicts copied too (what a check fills in)."""
    from dataclasses import fields

    return _fields_of_dict({f.name: getattr(instance, f.name) for f in fields(instance)})


def _fields_of_dict(values: dict) -> dict:
    return {k: (type(v)(v) if isinstance(v, (list, dict, set)) else v) for k, v in values.items()}


def instantiate_program(module: ast.Module, diags: DiagnosticBag, vector_bits: int = 128) -> Program:
    from ..semantics.attribute_types import check_with_attribute_types
    from ..semantics.comptime import work_budget

    def run_once(attribute_types) -> Program:
        with work_budget():  # one budget of compile-time work for the whole program
            loader = ModuleLoader(diags, attribute_types)
            attribute_types.loader = loader
            symbols = loader.collect_program(module)
            for each in loader.modules:
                each.vector_bits = vector_bits
            return Instantiator(symbols, diags, loader).run()

    # Checked again from the start each time an attribute's type is found (semantics/attribute_types.py).
    return check_with_attribute_types(module, diags, run_once)
