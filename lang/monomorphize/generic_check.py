"""Generic bodies checked against their trait bounds before any instantiation.

`fn grow[T: Shape](s: T)` is checked once with T standing for "some type conforming to Shape": a
TypeParamType whose methods are exactly those Shape (and the traits it refines) requires. Using
anything else on T is an error in the generic's own source, whether or not some type passed later
would have it, and a generic nobody calls is checked too. Calls the body makes with T in their
types are typed from the callee's signature without compiling it (its own check covers its body).

A generic whose body fails this check is not checked again per instantiation: its errors are
reported once, at its source, never at a mangled instance.

Type parameters bounded only by marker traits (`AnyType`, `Copyable`, ...) promise nothing, so a
function with one is a template, as in C++: checked per instantiation. So is one with value
parameters (`n: Int`), whose body may depend on the value.
"""
from __future__ import annotations

from dataclasses import replace

from .. import types as T
from ..diagnostics import Note
from ..semantics.check import FunctionChecker
from ..semantics.module import MARKER_TRAITS, struct_instance, trait_ancestry
from ..semantics.scope import ModuleSymbols, StructSymbol
from ..semantics.typed import FunctionInstance
from ..syntax import ast
from .instantiate import method_env


def checkable(ct_params: tuple, module: ModuleSymbols) -> bool:
    """Every compile-time parameter is a type bounded by a (known) trait of the program's own."""
    return bool(ct_params) and all(isinstance(p.annotation, ast.Name) and p.annotation.id not in MARKER_TRAITS
                                   and p.annotation.id in module.traits for p in ct_params)


def type_param(p: ast.CtParam, owner: str, module: ModuleSymbols) -> T.TypeParamType:
    """The stand-in for `p` (`T: Shape`) inside its generic's body."""
    bound = p.annotation
    methods: dict[str, ast.FnDef] = {}
    for _, (trait, _) in sorted(trait_ancestry(bound.id, module).items()):
        for method in trait.methods:
            methods.setdefault(method.name, method)
    decl = ast.StructDef(p.span, p.name, p.span, (), (bound,), (), tuple(methods.values()))
    sym = StructSymbol(decl, None, methods=methods, state="done", home=module)
    sym.type = T.TypeParamType(p.name, f"<{owner}>", base=p.name, symbol=sym, bound=bound.id)
    return sym.type


class GenericBodies:
    """Checks the generic functions of one program's modules; remembers which ones failed."""

    def __init__(self, instantiator):
        self.inst = instantiator
        self.failed: set[int] = set()  # id() of generic declarations whose body has errors
        self.signatures: dict[tuple, FunctionInstance] = {}

    def check_module(self, module: ModuleSymbols) -> None:
        for decl in self.inst._own(module, module.functions):
            if checkable(decl.ct_params, module) and decl.variadic is None:
                self.check(decl, module, None)
        for sym in self.inst._own(module, module.structs):
            if not sym.generic and sym.state != "done":
                continue
            owner = sym.type
            if sym.generic:
                if not checkable(sym.decl.ct_params, module):
                    continue
                # `Box[T]` with T the stand-in of its bound: each method is checked against it.
                args = tuple(type_param(p, sym.decl.name, module) for p in sym.decl.ct_params)
                owner = struct_instance(sym, args, sym.decl.name_span, module, self.inst.diags,
                                        module.lookup_constant)
                if owner == T.ERROR:
                    continue
            for method in sym.methods.values():
                if method.variadic is None and (checkable(method.ct_params, module)
                                                or (sym.generic and not method.is_generic)):
                    self.check(method, module, owner)

    def check(self, decl: ast.FnDef, module: ModuleSymbols, owner: T.Type | None) -> None:
        name = f"{owner.base or owner.name}.{decl.name}" if owner is not None else decl.name
        params = {p.name: type_param(p, name, module) for p in decl.ct_params}
        inherited = {k: v for k, v in getattr(owner, "ct_env", {}).items() if isinstance(v, T.TypeParamType)}
        env = method_env(decl, owner, tuple(params.values()))
        param_types = tuple(owner if i == 0 and decl.self_convention is not None and owner is not None
                            else self.inst.resolve_type(p.annotation, env, module) for i, p in enumerate(decl.params))
        instance = FunctionInstance(decl, module.name, param_types, f"{module.name}.{name}[generic]", owner=owner,
                                    ct_args=tuple(params.values()))
        instance.return_type = self.inst.declared_return_type(decl, owner, env, module)
        diags = self.inst.diags
        before = len(diags.items)
        FunctionChecker(module, instance, diags, self.signature_of, self.inst.resolver(module),
                        self.inst.comptime_value, self.inst.home).check()
        found = diags.items[before:]
        if any(d.severity == "error" for d in found):
            self.failed.add(id(decl))
            diags.items[before:] = [_with_bound_note(d, {**inherited, **params}) for d in found]

    def signature_of(self, decl: ast.FnDef, param_types: tuple, span, owner=None, ct_args: tuple = ()):
        """What the generic body's checker calls to instantiate a callee: a callee whose types mention
        a type parameter is typed from its signature only; any other is instantiated as usual."""
        if not any(T.mentions_type_param(v) for v in (*param_types, owner, *ct_args)):
            return self.inst.instantiate(decl, param_types, span, owner, ct_args)
        key = (id(decl), param_types, owner, ct_args)
        instance = self.signatures.get(key)
        if instance is not None:
            return instance
        home = self.inst.home(decl)
        instance = FunctionInstance(decl, home.name, param_types, f"{home.name}.{decl.name}[generic]", owner=owner,
                                    ct_args=ct_args, checked=True)
        instance.return_type = self.inst.declared_return_type(decl, owner, method_env(decl, owner, ct_args), home)
        if instance.return_type is None:
            # A `def` that returns what its body computes: check that body with these types to know.
            instance.checked = False
            self.signatures[key] = instance
            instance.in_progress = True
            FunctionChecker(home, instance, self.inst.diags, self.signature_of, self.inst.resolver(home),
                            self.inst.comptime_value, self.inst.home).check()
            instance.in_progress, instance.checked = False, True
            if instance.return_type is None:
                instance.return_type = T.ERROR
        self.signatures[key] = instance
        return instance


def _with_bound_note(diag, params: dict):
    """An error that names a type parameter says what the parameter is known to have."""
    for name, t in params.items():
        if f"`{name}`" in diag.message:
            note = Note(f"`{name}` stands for any type conforming to `{t.bound}`: only what `{t.bound}` "
                        f"requires can be used on it", t.symbol.decl.traits[0].span)
            return replace(diag, notes=(*diag.notes, note))
    return diag
