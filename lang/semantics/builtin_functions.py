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
"""
from __future__ import annotations

from ..syntax import ast

MARKER = "builtin_function"

# role -> what the compiler does with a call of the function that declares it.
ROLES: dict[str, str] = {
    "map": "Python's map(f, it): an iterable whose items exist already (a range, a str, a tuple, a set, a "
           "dict) is listed first; a generator or an iterator is E0343 (semantics/calls.py `_map_iterable`)",
    "filter": "Python's filter(f, it): its iterable as map's",
    "open": "Python's open(path, mode) for text: a literal binary mode (`\"rb\"`) is E0341",
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


def is_builtin_function(decl: ast.FnDef, *roles: str) -> bool:
    """Whether `decl` is the stdlib function that plays one of `roles` (each one of ROLES)."""
    assert all(r in ROLES for r in roles), roles  # a misspelt role would silently be false everywhere
    return role(decl) in roles
