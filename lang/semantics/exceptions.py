"""Exception classes pyx knows, with Python's hierarchy, for `raise` and `except` matching."""
from __future__ import annotations

PARENT = {
    "Exception": None, "Error": "Exception",
    "ArithmeticError": "Exception", "ZeroDivisionError": "ArithmeticError", "OverflowError": "ArithmeticError",
    "LookupError": "Exception", "IndexError": "LookupError", "KeyError": "LookupError",
    "ValueError": "Exception", "TypeError": "Exception", "AssertionError": "Exception",
    "MemoryError": "Exception", "RuntimeError": "Exception", "NotImplementedError": "RuntimeError",
}


def covered(name: str) -> set[str]:
    """The classes an `except name:` catches: name itself and every descendant."""
    out = {name}
    changed = True
    while changed:
        changed = False
        for cls, parent in PARENT.items():
            if parent in out and cls not in out:
                out.add(cls)
                changed = True
    return out
