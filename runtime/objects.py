"""Objects of pyx classes, held by Python.

An object of a pyx class lives in pyx's memory, reference counted (docs/semantics.md,
"Classes"). A function exported to Python that returns one hands over one reference; Python
keeps it in a wrapper, an instance of a Python class made for the pyx class (`m.Point`), and
gives it back exactly once, when the wrapper is collected (`__del__` calls the class's release
function). Each module keeps one wrapper per live object (`_Classes.live`, by address), so a
function returning an object Python already holds returns that same wrapper (its extra reference
given back at once): `m.same(p) is p`, as in Python.

Everything else goes through the module's generated accessors (lang/class_exports.py): an
attribute read or write calls `__pyx_get_C__x` / `__pyx_set_C__x`, `repr`/`str` call the
class's own `__repr__`/`__str__`, and `m.Point(...)` its `__init__`. An object passed to a pyx
function is lent for the call, as the wrapper holds its reference. Such objects are shared
references into one process's memory, so they do not pickle (a TypeError says so).
"""
from __future__ import annotations

import ctypes
import weakref
from typing import Any


class _Handle(ctypes.Structure):
    """How a class's handle sits in memory: the object's address (0 for None)."""

    _fields_ = [("obj", ctypes.c_void_p)]


class _Classes:
    """One module's classes: the wrapper of each live object, by address."""

    def __init__(self, library):
        self.library = library  # kept alive while any wrapper may still give its reference back
        self.live: dict[int, weakref.ref] = {}


class PyxObject:
    """Base of the Python classes made for pyx classes (`m.Point`)."""

    __slots__ = ("__weakref__", "_pyx_address")
    _pyx_classes: _Classes
    _pyx_release: Any = None  # the release entry (ctypes), given one handle
    _pyx_new: Any = None
    _pyx_repr: Any = None
    _pyx_str: Any = None
    _pyx_why_new = ""

    def __new__(cls, *args, **kwargs):
        if cls._pyx_new is None:
            raise TypeError(f"cannot create {cls.__qualname__} objects from Python: {cls._pyx_why_new}")
        return cls._pyx_new(*args, **kwargs)

    def __del__(self):
        address = getattr(self, "_pyx_address", 0)
        if not address:
            return
        self._pyx_address = 0
        live = type(self)._pyx_classes.live
        ref = live.get(address)
        if ref is not None and ref() in (None, self):  # (a newer wrapper of the object stays)
            del live[address]
        type(self)._pyx_release(ctypes.byref(_Handle(address)))

    def __repr__(self) -> str:
        if type(self)._pyx_repr is not None:
            return type(self)._pyx_repr(self)
        return f"<{type(self).__module__}.{type(self).__qualname__} object at {self._pyx_address:#x}>"

    def __str__(self) -> str:
        if type(self)._pyx_str is not None:
            return type(self)._pyx_str(self)
        return repr(self)

    def __reduce__(self):
        raise TypeError(f"cannot pickle '{type(self).__qualname__}' object: it is an object of a pyx class, a "
                        "reference shared with pyx code in this process's memory; pickle its attributes, or "
                        "declare it a `struct` (structs pickle by value)")


def declare(classes: list, structs: dict, library) -> _Classes:
    """Make the Python class of each crossing class (registered in `structs` under its name,
    as `(handle ctypes type, Python class)`, beside the struct classes)."""
    shared = _Classes(library)
    for info in classes:
        pyclass = type(info["name"], (PyxObject,), {"__slots__": (), "_pyx_classes": shared,
                                                    "__module__": "pyx"})
        structs[info["name"]] = (_Handle, pyclass)
    return shared


def attach(classes: list, structs: dict, accessors: dict) -> None:
    """Give each class its release entry, constructor, repr/str and one property per attribute,
    each calling the accessor the module exports for it (a PyxFunction)."""
    for info in classes:
        pyclass = structs[info["name"]][1]
        pyclass._pyx_release = accessors[info["release"]]._cfunc
        pyclass._pyx_repr = accessors.get(info["repr"]) if info.get("repr") else None
        pyclass._pyx_str = accessors.get(info["str"]) if info.get("str") else None
        if info.get("new"):
            new = accessors[info["new"]]
            pyclass._pyx_new = staticmethod(_renamed(new, f"{info['name']}()"))
            pyclass.__doc__ = f"{info['name']}{new.__signature__}: an object of the pyx class {info['name']}"
        else:
            pyclass._pyx_why_new = "its __init__ takes parameters without annotations, or `mut`/`var` ones " \
                                   "(call a pyx function that returns one)"
        for field in info["fields"]:
            setattr(pyclass, field["name"], _attribute(info["name"], field, accessors))


def _renamed(fn, shown: str, name: str = ""):
    """fn, with its error messages naming what Python wrote (`Point()`, not the accessor)."""
    name = name or fn.__name__ + "()"

    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, OverflowError, ValueError) as exc:
            text = str(exc)
            if name in text:
                raise type(exc)(text.replace(name, shown)) from None
            raise
    return call


def _attribute(cls: str, field: dict, accessors: dict) -> property:
    name = field["name"]
    get = accessors.get(field["get"]) if field.get("get") else None
    put = accessors.get(field["set"]) if field.get("set") else None
    why = field.get("why", "")

    def read(self):
        if get is None:
            raise AttributeError(f"'{cls}' object attribute '{name}' cannot be read from Python: {why}")
        return get(self)

    def write(self, value):
        if put is None:
            raise AttributeError(f"'{cls}' object attribute '{name}' cannot be set from Python: {why}")
        _renamed(put, f"{cls}.{name}", f"{put.__name__}() argument 'v'")(self, value)

    return property(read, write, doc=f"{name}: {field['type']}")


def to_c(pyclass, value, func: str, param: str, keep: list):
    """The handle of `value` (None: the null handle), lent for the call: the wrapper, kept alive
    in `keep`, holds the reference."""
    if value is None:
        handle = _Handle(0)
    elif type(value) is pyclass:
        handle = _Handle(value._pyx_address)
        keep.append(value)
    else:
        raise TypeError(f"{func}() argument '{param}' must be a {pyclass.__qualname__} object (of this module), "
                        f"not {type(value).__name__}")
    keep.append(handle)
    return ctypes.pointer(handle)


def from_c(pyclass, raw: _Handle):
    """The wrapper of a returned object, which holds the reference the function handed over
    (given back at once when Python already holds the object: the same wrapper is returned)."""
    address = raw.obj
    if not address:
        return None
    live = pyclass._pyx_classes.live
    ref = live.get(address)
    found = ref() if ref is not None else None
    if found is not None and found._pyx_address == address:
        pyclass._pyx_release(ctypes.byref(_Handle(address)))
        return found
    obj = object.__new__(pyclass)
    obj._pyx_address = address
    live[address] = weakref.ref(obj)
    return obj
