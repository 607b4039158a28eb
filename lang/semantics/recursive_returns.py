"""The result type of a recursive `def` written without `-> T`, from its other `return`s.

Python users do not annotate: `def fact(n): if n > 1: return n * fact(n - 1)` then `return 1`.
A `def`'s result type is fixed by its first `return` (semantics/check.py `stmt_Return`); here
the first one needs the type it is fixing. So a call of a `def` still being checked whose type
no `return` has fixed yet is *pending*: its value is unknown for this pass (ERROR, quietly), a
`return` of a value made from it fixes nothing, and the first `return` that does not use it
(`return 1`) gives the type (the *seed*). The `def` is then checked again from the start with
that type, and so is every function checked inside its first pass (`atom` calling back into
`expr` in a recursive-descent parser: mutual recursion), as their bodies saw the unknown value.
The seeds are kept (per instance), so each such `def` is checked twice, not once per caller.

When no `return` gives a type without the recursive call (`def f(n): return f(n - 1)`), the
call is E0221: the user writes the type.
"""
from __future__ import annotations

import threading

from .. import types as T
from .python_float import keeps_int
from .typed import FunctionInstance

# Instances (by id) with a pending call in the check under way: while any is, a `return` of an
# unknown (ERROR) value does not fix a result type, and a call of a `def` whose type is still
# unknown is quiet too (its body saw the pending value: it is checked again). One set per thread,
# not per process: a compile's stages run on a thread of their own (deep.run_deep), and two
# compiles at once (`pyx lsp` analysing two documents) must not see each other's pending calls.
_state = threading.local()


def _awaiting() -> set[int]:
    awaiting = getattr(_state, "awaiting", None)
    if awaiting is None:
        awaiting = _state.awaiting = set()
    return awaiting


def inferred(instance: FunctionInstance) -> bool:
    decl = instance.decl
    return (decl.kind == "def" and decl.returns is None and decl.self_convention != "out") or keeps_int(instance)


def pending(instance: FunctionInstance, span) -> bool:
    """A call (at `span`) of `instance` whose result type is not known: True, recorded, where
    it is a `def` being checked that will learn its type from another `return`."""
    if instance.in_progress and inferred(instance):
        instance.recursive_calls.append(span)
        _awaiting().add(id(instance))
        return True
    return bool(_awaiting()) and inferred(instance)


def unknown(t: T.Type | None) -> bool:
    """A value whose type came from a pending call: it fixes no `def`'s result type."""
    return bool(_awaiting()) and t is not None and _mentions_error(t)


def _mentions_error(t) -> bool:
    return T.mentions(t, lambda a: a == T.ERROR)  # List[ERROR], Tuple[Int, ERROR]


def finished(instance: FunctionInstance) -> None:
    _awaiting().discard(id(instance))


def seed(instance: FunctionInstance) -> T.Type | None:
    """After a first pass with pending calls: the type its other `return`s gave, or None (E0221)."""
    t = instance.return_type
    if t is None or _mentions_error(t):
        return None
    return t
