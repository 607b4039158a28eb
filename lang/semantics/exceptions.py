"""Exception classes pyx knows, with Python's hierarchy, for `raise` and `except` matching."""
from __future__ import annotations

PARENT = {
    # KeyboardInterrupt (Ctrl-C, polled at loop back-edges) is no Exception, as in Python:
    # `except Exception:` lets it through; a bare `except:` or `except BaseException:` catches it.
    "BaseException": None, "KeyboardInterrupt": "BaseException",
    # sys.exit() (stdlib/sys.px): no Exception either. `_SystemExitCode` is sys.exit(3), told
    # apart from sys.exit("3") by the program's entry (stdlib/runtime_exit.px `uncaught`).
    "SystemExit": "BaseException", "_SystemExitCode": "SystemExit",
    "Exception": "BaseException", "Error": "Exception",
    "ArithmeticError": "Exception", "ZeroDivisionError": "ArithmeticError", "OverflowError": "ArithmeticError",
    "LookupError": "Exception", "IndexError": "LookupError", "KeyError": "LookupError",
    "AttributeError": "Exception",  # an attribute of None (semantics/classes.py)
    "NameError": "Exception",  # a module-level variable read before the script assigns it (semantics/globals.py)
    "EOFError": "Exception",  # input() at the end of standard input
    "ValueError": "Exception", "TypeError": "Exception", "AssertionError": "Exception",
    # bytes.decode / str.encode (stdlib/pybytes.px)
    "UnicodeError": "ValueError", "UnicodeDecodeError": "UnicodeError", "UnicodeEncodeError": "UnicodeError",
    "BufferError": "Exception",  # `ba += ba` (stdlib/pybytes.px bytearray)
    "StopIteration": "Exception",  # next() of a generator with no item left (semantics/generators.py)
    "MemoryError": "Exception", "RuntimeError": "Exception", "NotImplementedError": "RuntimeError",
    "RecursionError": "RuntimeError",  # recursion deeper than the thread's stack allows
    # print() to a closed pipe or a full disk
    "OSError": "Exception", "ConnectionError": "OSError", "BrokenPipeError": "ConnectionError",
    # open() (stdlib/io.px): CPython's classes for the C library's error numbers
    "FileNotFoundError": "OSError", "PermissionError": "OSError", "IsADirectoryError": "OSError",
    "NotADirectoryError": "OSError", "FileExistsError": "OSError",
}


# What pyx raises where it cannot go on as CPython would (semantics/float_sums.py: a float sum of no
# items, where CPython's result is the int 0). No `except` catches it, a bare one neither (ir/lower.py):
# a handler would run where CPython runs none. Not in PARENT, so no class covers it; a space in the
# name, so no program's class is it; the traceback's last line reads "pyx stops: <why>".
UNCATCHABLE = "pyx stops"
# How the standard library's pyx source raises it (`raise _PyxStops("why")`): a name only stdlib files
# may give `raise` (semantics/raising.py), as CPython's ints are bigger than pyx's (stdlib/pyint.px).
UNCATCHABLE_IN_STDLIB = "_PyxStops"


def known_names(user: dict | None = None) -> str:
    """The classes a program can name, for E0137 (`_SystemExitCode` is sys.exit's own)."""
    return ", ".join(sorted(n for n in {**PARENT, **(user or {})} if not n.startswith("_")))


def covered(name: str, user: dict | None = None) -> set[str]:
    """The classes an `except name:` catches: name itself and every descendant (user: the
    module's own exception classes, name -> base)."""
    hierarchy = {**PARENT, **user} if user else PARENT
    out = {name}
    changed = True
    while changed:
        changed = False
        for cls, parent in hierarchy.items():
            if parent in out and cls not in out:
                out.add(cls)
                changed = True
    return out
