"""The standard library's structs that the compiler gives a meaning of its own, found by marker.

The compiler treats some stdlib structs specially: `[]` builds a List, `isinstance(x, dict)` is true
of a Dict, iterating a Dict while it grows raises, a `deque()` is typed by its first use, and so
on. It does not find those structs by their name or by the file they are in: each one says which
it is with a marker on its declaration, as Mojo's stdlib marks its list-literal type:

    @builtin_type("List")
    struct List[T: AnyType]:

`ROLES` is the whole vocabulary, each role with what the compiler does with it; each role is
declared by one struct, but for "Tuple" (a struct per length). The marker is
honoured in the standard library only: a program's struct may be called `List`, and it is then
an ordinary struct (a marker in a program's file is E0189). Renaming or moving the stdlib's
struct keeps it recognised as long as the marker goes with it.

`is_builtin(t, "List")` asks the question; `builtin_role(t)` gives the role of a type, if any.
The role is read from the declaration once, when its module is collected (semantics/module.py),
and kept on its StructSymbol, so the question is one attribute read.
"""
from __future__ import annotations

from ..syntax import ast

MARKER = "builtin_type"

# role -> what the compiler does with the struct that declares it.
ROLES: dict[str, str] = {
    "String": "Python's str: string literals, f-strings, `str()` and `print` make and read it",
    "List": "Python's list: `[...]`, list comprehensions, `list[T]`; element loops, sharing and "
            "unpacking rules",
    "Dict": "Python's dict: `{k: v}`, dict comprehensions, `dict[K, V]`; the size-change check of a loop",
    "Set": "Python's set: `{a, b}`, `set()`, `set[T]`",
    "Bytes": "Python's bytes: `b\"...\"` literals, `bytes(...)`, `s.encode()`; named `bytes` by `type(x).__name__`",
    "ByteArray": "Python's bytearray: shared by the names bound to it, as a list is (semantics/sharing.py); "
                 "its encodings and argument types checked as bytes' are (semantics/bytes_checks.py)",
    "Tuple": "Python's tuple: `(a, b)`, `tuple[A, B]`; one struct per length (Tuple1 ... Tuple8), each "
             "instance named as its items' types",
    "Optional": "`T | None`, `Optional[T]`: narrowing by `is not None`, None assigned or compared",
    "Slice": "what `xs[a:b]` passes to `__getitem__`",
    "PythonObject": "a Python object held by pyx: what a number converts to where one is declared",
    "deque": "collections.deque: `deque()` typed by its first use",
    "Counter": "collections.Counter: `Counter()` typed by its first use",
    "defaultdict": "collections.defaultdict: `defaultdict(f)` typed by its first use",
    "OrderedDict": "collections.OrderedDict: `OrderedDict()` typed by its first use, as `{}` is",
    "DictKeysView": "`d.keys()`: a view of a Dict, which a loop over it guards",
    "DictValuesView": "`d.values()`: a view of a Dict",
    "DictItems": "`d.items()`: a view of a Dict",
    "MapIterator": "`map(f, xs)`: an iterator, used up by one walk",
    "FilterIterator": "`filter(f, xs)`: an iterator, used up by one walk",
    "Enumerate": "`enumerate(xs)`: an iterator, used up by one walk",
    "Zip2": "`zip(a, b)`: an iterator, used up by one walk",
    "Zip3": "`zip(a, b, c)`: an iterator, used up by one walk",
    "ReversedList": "`reversed(xs)`: an iterator, used up by one walk",
    "ZipRows": "`zip(*rows)`: an iterator, used up by one walk (semantics/zip_rows.py)",
    "Number": "Python's `int | float`: an int or a float as the run decides (semantics/numbers.py)",
    "VarTuple": "`tuple[T, ...]`, what `zip(*rows)` makes: a tuple whose length only the run knows",
    "ExceptionValue": "an exception object kept as a value (`list[Exception]`): its class's name and message "
                      "(semantics/exception_values.py)",
}


def declared_role(decl: ast.StructDef | ast.FnDef, marker_name: str = MARKER,
                  roles: dict[str, str] = ROLES) -> str | None:
    """The role a stdlib struct's `@builtin_type("ROLE")` names (or a function's
    `@builtin_function("ROLE")`, given that marker and its roles: builtin_functions.py); None where
    it has no marker. A marker that names no role is a stdlib bug, raised as such (every compile
    would be wrong)."""
    marker = next((d for d in decl.decorators if d.name == marker_name), None)
    if marker is None:
        return None
    role = marker.args[0].value if len(marker.args) == 1 and isinstance(marker.args[0], ast.StrLit) else None
    if role not in roles:
        raise AssertionError(f"{decl.span.file.name}:{decl.span.line}: @{marker_name}({role!r}) names no role "
                             f"(one of {', '.join(roles)})")
    return role


def builtin_role(t) -> str | None:
    """The role the stdlib struct behind type t declares, or None (a user's struct, a scalar, ...)."""
    symbol = getattr(t, "symbol", None)
    return getattr(symbol, "role", None) if symbol is not None else None


def is_builtin(t, role: str) -> bool:
    """Whether t is the stdlib struct that plays `role` (one of ROLES): `is_builtin(t, "List")` is
    true of `List[Int]` and false of a program's own `struct List`."""
    assert role in ROLES, role  # a misspelt role would silently be false everywhere
    return builtin_role(t) == role
