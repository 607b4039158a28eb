"""Module-level symbols and the block scopes of one function body."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..syntax import ast
from ..types import StructType
from .typed import LocalVar, TConst


@dataclass(eq=False)
class ComptimeSymbol:
    decl: ast.Comptime
    value: TConst | None = None
    evaluating: bool = False
    failed: bool = False  # reported once; later uses stay quiet


@dataclass(eq=False)
class StructSymbol:
    decl: ast.StructDef
    type: StructType
    methods: dict[str, ast.FnDef] = field(default_factory=dict)
    state: str = "new"  # "new" -> "resolving" -> "done": fields are resolved once, cycles caught
    instances: dict = field(default_factory=dict)  # compile-time arguments -> StructType (generic structs)
    states: dict = field(default_factory=dict)  # the same resolution state, per instance
    home: object = field(default=None, repr=False)  # the ModuleSymbols it was declared in
    owning: dict = field(default_factory=dict, repr=False)  # instance type -> has a destructor (ownership.py)
    role: str | None = None  # what a stdlib struct's `@builtin_type("List")` says it is (builtin_types.py)

    @property
    def generic(self) -> bool:
        return bool(self.decl.ct_params)


@dataclass
class ModuleSymbols:
    name: str
    functions: dict[str, ast.FnDef] = field(default_factory=dict)
    comptimes: dict[str, ComptimeSymbol] = field(default_factory=dict)
    structs: dict[str, StructSymbol] = field(default_factory=dict)
    traits: dict[str, ast.TraitDef] = field(default_factory=dict)
    vector_bits: int = 128  # the target's natural vector register width, for simd_width_of
    modules: dict[str, str] = field(default_factory=dict)  # `import math as m`: m -> math
    imported: dict[str, tuple[str, str]] = field(default_factory=dict)  # `from math import sqrt`
    # `import geometry [as g]` of a .px module: the dotted name it is used by -> that module
    px_modules: dict[str, ModuleSymbols] = field(default_factory=dict, repr=False)
    # Names whose import failed (already reported): their uses are not reported again.
    unresolved: set[str] = field(default_factory=set)
    # An imported trait's own module, where the names in its declaration (its parents, the types
    # in its methods) resolve; a trait declared here is absent.
    trait_homes: dict[str, ModuleSymbols] = field(default_factory=dict, repr=False)
    # Set by the instantiator: compile-time constants by name, looked up in this module.
    lookup_constant: object = field(default=None, repr=False)
    # Its module-level variables (semantics/globals.py), as its script declares them.
    globals: dict[str, LocalVar] = field(default_factory=dict, repr=False)
    # The types of the functions, lambdas and closures used as values here, by name (closures.py).
    function_types: dict = field(default_factory=dict, repr=False)
    # Its exception classes (`class E(ValueError): pass`), name -> base, beside exceptions.PARENT.
    exceptions: dict[str, str] = field(default_factory=dict, repr=False)
    # The types found for the program's attributes typed by the checker, one object for all the
    # modules of a check (semantics/attribute_types.py: AttributeTypes); None outside such a check.
    attribute_types: object = field(default=None, repr=False)


class BlockScopes:
    """`var` binds in the innermost block; a plain first assignment binds function-wide."""

    def __init__(self) -> None:
        self.blocks: list[dict[str, LocalVar | TConst]] = [{}]
        # Told of each variable bound in the outermost block (a script's become module-level: globals.py).
        self.on_outermost: Callable[[LocalVar], None] | None = None
        # Where a plain first assignment binds: the function's block, or a comprehension's own
        # (its loop variables do not leak, as in Python 3: semantics/comprehensions.py).
        self.function_block = 0

    def push(self) -> None:
        self.blocks.append({})

    def pop(self) -> None:
        self.blocks.pop()

    def lookup(self, name: str) -> LocalVar | TConst | None:
        for block in reversed(self.blocks):
            if name in block:
                return block[name]
        return None

    def declare(self, name: str, item, function_wide: bool = False) -> None:
        index = self.function_block if function_wide else len(self.blocks) - 1
        self.blocks[index][name] = item
        if self.on_outermost is not None and index == 0 and isinstance(item, LocalVar):
            self.on_outermost(item)

    def in_current_block(self, name: str) -> bool:
        return name in self.blocks[-1]

    def all_names(self) -> list[str]:
        return [n for block in self.blocks for n in block]
