"""Exception classes pyx knows, with Python's hierarchy, for `raise` and `except` matching."""
from __future__ import annotations

PARENT = {
    # KeyboardInterrupt (Ctrl-C, polled at loop back-edges) is no Exception, as in Python:
    # `except Exception:` lets it through; a bare `except:` or `except BaseException:` catches it.
    "BaseException": None, "KeyboardInterrupt": "BaseException",
    "Exception": "BaseException", "Error": "Exception",
    "ArithmeticError": "Exception", "ZeroDivisionError": "ArithmeticError", "OverflowError": "ArithmeticError",
    "LookupError": "Exception", "IndexError": "LookupError", "KeyError": "LookupError",
    "ValueError": "Exception", "TypeError": "Exception", "AssertionError": "Exception",
    "MemoryError": "Exception", "RuntimeError": "Exception", "NotImplementedError": "RuntimeError",
    "RecursionError": "RuntimeError",  # recursion deeper than the thread's stack allows
    # print() to a closed pipe or a full disk
    "OSError": "Exception", "ConnectionError": "OSError", "BrokenPipeError": "ConnectionError",
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
