"""What a declaration's syntax says (does it yield, which parameters it returns or stores), kept for
the whole process, per declaration.

The checker asks at every call, so each answer is worked out once. Declarations are frozen trees
compared by value, so the key is the object's id; but an id names an object only while it lives,
and a process compiles many programs (an editor's analyses, a test run), whose trees are freed and
whose addresses Python gives to new ones. So each entry holds a weak reference to its declaration
and answers only for that object; and it keeps no tree alive.
"""
from __future__ import annotations

import weakref
from typing import Generic, TypeVar

V = TypeVar("V")


class PerDeclaration(Generic[V]):
    _PRUNE_AT = 50_000  # entries; past it, those of declarations gone are dropped

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref[object], V]] = {}

    def get(self, decl: object) -> V | None:
        found = self._entries.get(id(decl))
        if found is not None and found[0]() is decl:
            return found[1]
        return None

    def put(self, decl: object, value: V) -> V:
        if len(self._entries) > self._PRUNE_AT:
            for key in [k for k, (ref, _) in self._entries.items() if ref() is None]:
                del self._entries[key]
        self._entries[id(decl)] = (weakref.ref(decl), value)
        return value
