"""The itertools functions that take any iterable lazily, a generator included: `islice`,
`takewhile`, `dropwhile` (stdlib/itertools.px). They are written as Python generators whose body
walks the argument with `for`, so a generator passed to them is expanded into that loop as it is
in a user's generator (semantics/generators.py), and an endless one is read only as far as
CPython's iterator reads it. The other standard library functions step through an iterator
object (`__has_next__`/`__next__`), which a generator is not: passing one to them stays E0274."""
from __future__ import annotations

from ..syntax import ast

# Each is a plain function returning its `_` generator of the same module (a generator of another
# module cannot be expanded where it is called); `islice` checks its arguments first, as CPython
# raises at the call.
GENERATOR_TAKING = frozenset({"islice", "_islice", "takewhile", "_takewhile", "dropwhile", "_dropwhile",
                              *(f"_starmap{n}{part}" for n in range(1, 5) for part in ("", "_items"))})


def takes_generators(decl: ast.FnDef) -> bool:
    """Whether the standard library function `decl` walks its iterable arguments with `for`, so a
    generator may be passed to it."""
    return decl.name in GENERATOR_TAKING and decl.span.file.name.endswith("itertools.px")
