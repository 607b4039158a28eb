"""The standard library's functions that the compiler gives a meaning of its own, found by marker.

A few stdlib functions stand for a Python builtin whose calls the checker treats specially:
`map(f, range(4))` lists the range first (the stdlib's `map` reads a List), `open(p, "rb")` is
refused at compile time (the stdlib's `open` reads text). The compiler does not find those
functions by their name or by the file they are in: each says which it is with a marker on its
declaration, as the stdlib's structs do with `@builtin_type` (builtin_types.py):

    @builtin_function("map")
    fn map[F: AnyType, T: AnyType](f: F, xs: List[T]) -> MapIterator[F, T]:

`ROLES` is the whole vocabulary, each role with what the compiler does with it; each role is
declared by one function. The marker is honoured in the standard library only: in a program's
file it is an unknown decorator (E0134, semantics/module.py). Renaming or moving the stdlib's
function keeps its meaning as long as the marker goes with it.

A stdlib module that stands for a Python module whose functions' calls the checker rewrites by
their Python names (`permutations(xs, 2)`, `accumulate(xs, initial=0)`: semantics/everyday.py,
itertools_calls.py) says which module it is with one declaration, read by `python_module`:

    comptime _PYTHON_MODULE = "itertools"
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..syntax import ast

if TYPE_CHECKING:
    from .scope import ModuleSymbols

MARKER = "builtin_function"

# role -> what the compiler does with a call of the function that declares it.
ROLES: dict[str, str] = {
    "map": "Python's map(f, it): an iterable whose items exist already (a range, a str, a tuple, a set, a "
           "dict) is listed first; a generator or an iterator is E0343 (semantics/calls.py `_map_iterable`)",
    "filter": "Python's filter(f, it): its iterable as map's",
    "open": "Python's open(path, mode) for text: a literal binary mode (`\"rb\"`) is E0341",
    "format": "Python's format(value, spec), what `f\"{x:spec}\"` calls: a constant spec is checked against the "
              "value's type (E0172, semantics/calls.py); `f\"{sum(xs):.2f}\"` sums floats (semantics/float_sums.py)",
    "format_at_run_time": "format(value, spec) of a spec built at run time (`f\"{x:{w}}\"`, syntax/nested_spec.py): "
                          "a value no spec fits is E0172 (semantics/calls.py)",
    "repr": "Python's repr(x): `repr(None)` is \"None\" (semantics/expressions.py); in its body `String(x)` of an "
            "object is Python's repr(x) (semantics/classes.py `in_repr`)",
    "append_repr": "a String's `_append_repr(x)`, how a List or a Dict shows its items: its body as repr's",
    "enumerate": "Python's enumerate(it, start): a str literal is walked as a String (semantics/tuples.py), a "
                 "`for` over it holds its argument, a generator's items are counted in its loop "
                 "(semantics/generators.py `enumerated`)",
    "zip": "Python's zip(a, b): three iterables call the same module's `zip3` (semantics/tuples.py), a `for` over "
           "it holds its arguments, `for a, b in zip(gen, xs)` walks the generator's loop "
           "(semantics/generators.py `zipped`), a program's own `zip` keeps `zip(*rows)` its own (zip_rows.py)",
    "pow": "Python's pow(base, exp, mod); two arguments are `base ** exp` (semantics/expressions.py)",
    "divmod": "Python's divmod(a, b): an int constant beside a float is a float, as Python divides "
              "(semantics/tuples.py)",
}


def role(decl: ast.FnDef) -> str | None:
    """The role a stdlib function's `@builtin_function("ROLE")` names; None for any other function
    (a program's, whose marker is reported as an unknown decorator). A stdlib marker that names no
    role is a stdlib bug, raised as such (every compile would be wrong)."""
    if not any(d.name == MARKER for d in decl.decorators):
        return None
    from .builtin_types import declared_role
    from .imports import is_stdlib_file

    return declared_role(decl, MARKER, ROLES) if is_stdlib_file(decl.span.file.name) else None


def is_builtin_function(decl: ast.FnDef | None, *roles: str) -> bool:
    """Whether `decl` is the stdlib function that plays one of `roles` (each one of ROLES); False
    for None (no such function)."""
    assert all(r in ROLES for r in roles), roles  # a misspelt role would silently be false everywhere
    return decl is not None and bool(decl.decorators) and role(decl) in roles


MODULE_MARKER = "_PYTHON_MODULE"

# Python module -> what the compiler does with the calls of the functions of the stdlib module
# that declares `comptime _PYTHON_MODULE = "NAME"`.
MODULES: dict[str, str] = {
    "itertools": "calls of its functions by itertools' names are rewritten as Python's would run "
                 "(semantics/everyday.py `in_itertools`, semantics/itertools_calls.py)",
}


def python_module(home: ModuleSymbols) -> str | None:
    """The Python module the stdlib module `home` declares it is (`comptime _PYTHON_MODULE =
    "itertools"`); None for any other module (a program's declaration is an ordinary constant).
    A declaration that names no module of MODULES is a stdlib bug, raised as such."""
    symbol = home.comptimes.get(MODULE_MARKER)
    if symbol is None:
        return None
    from .imports import is_stdlib_file

    decl = symbol.decl
    if not is_stdlib_file(decl.span.file.name):
        return None
    name = decl.value.value if isinstance(decl.value, ast.StrLit) else None
    if name not in MODULES:
        raise AssertionError(f"{decl.span.file.name}:{decl.span.line}: {MODULE_MARKER} = {name!r} names no "
                             f"module (one of {', '.join(MODULES)})")
    return name
