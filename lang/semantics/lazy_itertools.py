"""The itertools functions that take any iterable lazily, a generator included: `islice`,
`takewhile`, `dropwhile` (stdlib/itertools.px). They are written as Python generators whose body
walks the argument with `for`, so a generator passed to them is expanded into that loop as it is
in a user's generator (semantics/generators.py), and an endless one is read only as far as
CPython's iterator reads it. The other standard library functions step through an iterator
object (`__has_next__`/`__next__`), which a generator is not: passing one to them stays E0274."""
from __future__ import annotations

from ..syntax import ast

MARKER = "takes_generators"  # the stdlib's marker on each such function (stdlib/itertools.px)


def takes_generators(decl: ast.FnDef) -> bool:
    """Whether the standard library function `decl` walks its iterable arguments with `for`, so a
    generator may be passed to it: it says so with `@takes_generators`. Each is a plain function
    returning its `_` generator of the same module, marked too (a generator of another module
    cannot be expanded where it is called); `islice` checks its arguments first, as CPython raises
    at the call. (The caller asks only of stdlib functions: elsewhere the marker is E0134.)"""
    return any(d.name == MARKER for d in decl.decorators)
