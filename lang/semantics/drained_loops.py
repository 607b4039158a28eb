"""`for x in f()`: a loop over a list that only the loop holds takes its elements out; and
`f().lower()`: a method of a String that only the call holds changes it in place.

A call's result is a new value that nothing else can reach (pyx's calls return values, not
references), so the loop may own it: `List._drain` hands the list's memory to a `ListDrain`
(stdlib/collections.px) whose `__next__` moves each element out, where `__iter__`'s
`ListIterator` copies each one and the list then destroys the originals. For a list of Strings
(`for word in line.split()`) that is one allocation, copy and free fewer per element. What the
loop sees is the same: each element once, in order; a `break` leaves the rest to be destroyed
with the iterator, as the list would have been.

The same holds for a String a call just made (`word.strip(",.").lower()`): nothing else can see
it, so `lower` and `upper` may rewrite its own bytes (String's `_lower_owned`, `_upper_owned`,
which take `var self`) instead of copying them into a new String.
"""
from __future__ import annotations

from .builtin_types import is_builtin
from .typed import TCall, TExpr

DRAIN = "_drain"


def iterator_method(source: TExpr, methods) -> str:
    """The method that makes the loop's iterator of `source`: `_drain` for a List that a call just
    made, `__iter__` for anything else (a variable's list is still used after the loop)."""
    if isinstance(source, TCall) and is_builtin(source.type, "List") and DRAIN in methods:
        return DRAIN
    return "__iter__"


OWNED_VARIANTS = {"lower": "_lower_owned", "upper": "_upper_owned"}


def owned_variant(decl, receiver, methods):
    """The method to call for `receiver.name()`: String's in-place variant when the receiver is a
    String that a call just made (this module's docstring), else `decl` itself."""
    variant = OWNED_VARIANTS.get(decl.name)
    if variant is None or not isinstance(receiver, TCall) or variant not in methods:
        return decl
    from .imports import is_string

    return methods[variant] if is_string(receiver.type) else decl
