"""The methods `dataclass` would write for each class of the compiler's node families, written once.

The syntax tree (`@syntax_node`), the typed tree and the IR (`@dataclass(eq=False, repr=False)`)
declare their ~160 classes so, and their root classes derive from `NodeBase` (and the syntax
tree's takes `fields_eq`/`fields_hash`) instead: `dataclass` writes and compiles each method anew
for every class it decorates, which was a third of the compiler's import time (the start of every
cold run). They behave as the generated ones: the same repr text (`Name(span=..., id='x')`),
equality and hash over the fields declared `compare`.
"""
from __future__ import annotations

import reprlib
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar, dataclass_transform

N = TypeVar("N")

# Per class, the names of its fields `==` and `hash` compare (dataclass's `compare=True` ones).
_COMPARED: dict[type, tuple[str, ...]] = {}


@reprlib.recursive_repr()  # an IR block's jump names blocks that jump back to it: '...', as dataclass prints
def fields_repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{type(self).__qualname__}({shown})"


def _compared(node: Any) -> tuple:
    cls = type(node)
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(f.name for f in fields(cls) if f.compare)
    return tuple(getattr(node, name) for name in names)


def fields_eq(self: Any, other: object) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _compared(self) == _compared(other)


def fields_hash(self: Any) -> int:
    return hash(_compared(self))


class NodeBase:
    """The root of each node family: `fields_repr` as its repr, and a class without a docstring is
    documented by its name (`dataclass` would compute `inspect.signature(cls)` for it instead, ~60 us a
    class at every start, for a text nothing reads)."""

    __slots__ = ()
    __repr__ = fields_repr

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__doc__ is None:
            cls.__doc__ = cls.__name__


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def syntax_node(cls: type[N]) -> type[N]:
    """A syntax tree class: `@dataclass(frozen=True)` as mypy sees it (it reports an assignment to a
    field of a node made: subtrees are shared between trees, `dataclasses.replace` makes a changed
    copy), a plain dataclass at run time, with `==`, hash and repr from `Node`. A frozen dataclass
    compiles a `__setattr__` and a `__delattr__` for each class (the 64 node classes: ~10 ms of
    every cold start) and its `__init__` sets each field through `object.__setattr__`."""
    return dataclass(eq=False, repr=False)(cls)
