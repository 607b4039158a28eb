"""Calling compiled pyx functions from Python.

A PyxFunction checks and converts its arguments from the exported signature
(ints range-checked, floats, bools, NumPy arrays passed as Ptr[T] without copying),
calls the C-ABI entry point through ctypes (which releases the GIL for the call),
and converts the result back. A pyx exception becomes the matching Python exception,
with the .px traceback attached.
"""
from __future__ import annotations

import builtins
import ctypes
import inspect
import operator
import re
import sys
import types
import weakref
from typing import Any

from ..gpu_limits import MAX_BLOCK_THREADS, MAX_GRID, MAX_STATIC_SHARED_BYTES
from . import interrupt, objects, stdout_route

_SCALARS = {
    ("int", 8): ctypes.c_int8, ("int", 16): ctypes.c_int16, ("int", 32): ctypes.c_int32, ("int", 64): ctypes.c_int64,
    ("uint", 8): ctypes.c_uint8, ("uint", 16): ctypes.c_uint16, ("uint", 32): ctypes.c_uint32,
    ("uint", 64): ctypes.c_uint64, ("float", 32): ctypes.c_float, ("float", 64): ctypes.c_double,
    ("bool", 1): ctypes.c_uint8, ("float", 16): ctypes.c_uint16,
}
_NUMPY_DTYPES = {"Int": "int64", "Int8": "int8", "Int16": "int16", "Int32": "int32", "Int64": "int64",
                 "UInt8": "uint8", "UInt16": "uint16", "UInt32": "uint32", "UInt64": "uint64",
                 "Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64",
                 "Bool": "bool"}
EXCEPTIONS = {"ZeroDivisionError", "ValueError", "IndexError", "OverflowError", "AssertionError", "MemoryError",
               "KeyError", "TypeError", "RuntimeError", "RecursionError", "KeyboardInterrupt", "OSError",
               "ConnectionError", "BrokenPipeError", "NameError", "EOFError", "AttributeError", "LookupError",
               "ArithmeticError", "NotImplementedError"}


class ProgramStopped(BaseException):
    """pyx stopped where it cannot go on as CPython would (a float sum of no items, whose CPython
    result is the int 0): the exception named "pyx stops" (semantics/exceptions.py UNCATCHABLE).
    No Exception, as no pyx handler catches it either: Python's `except Exception` must not take it
    for an error the program handles. `pyx.ProgramStopped`."""


_ERRNO_MESSAGE = re.compile(r"\[Errno (\d+)\] (.*)", re.S)


class PyxStruct:
    """Base of the Python classes made for pyx structs returned to Python."""

    _fields: tuple[str, ...] = ()

    def __init__(self, *values, **named):
        values = list(values) + [named.pop(f) for f in self._fields[len(values):] if f in named]
        if named or len(values) != len(self._fields):
            raise TypeError(f"{type(self).__name__}() takes the fields {', '.join(self._fields)}")
        for name, value in zip(self._fields, values, strict=True):
            setattr(self, name, value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __iter__(self):
        return iter(tuple(getattr(self, f) for f in self._fields))

    def __reduce__(self):
        """Pickled by reference to its module (rebuilt in another process from the disk cache)."""
        origin = getattr(type(self), "_origin", None)
        if origin is None:
            return object.__reduce__(self)
        from .dispatch import origin_args, struct_by_reference

        return struct_by_reference, (origin_args(origin), type(self).__name__,
                                     tuple(getattr(self, f) for f in self._fields))


class Converter:
    """One parameter or result type: its ctypes type and the conversions to and from Python."""

    def __init__(self, desc: dict, structs: dict):
        self.desc = desc
        self.kind = desc["kind"]
        self.name = desc["name"]
        self.ctype: Any = None  # a ctypes type; structs, vectors and buffers get one made at run time
        if self.kind == "scalar":
            self.ctype = _SCALARS[(desc["class"], desc["bits"])]
        elif self.kind == "ptr":
            self.ctype = ctypes.c_void_p
            self.dtype = _NUMPY_DTYPES.get(desc["pointee"]["name"])
        elif self.kind == "simd":
            self.elem = Converter(desc["elem"], structs)
            self.ctype = self.elem.ctype * desc["width"]
        elif self.kind == "span":  # the stdlib's Span[T] of scalars: a 1-D array, by address
            self.ctype = _SpanValue
            self.dtype = _NUMPY_DTYPES.get(desc["pointee"]["name"])
        elif self.kind == "buffer":  # the stdlib's Buffer[T, rank] of scalars: an array with its strides
            self.ctype = _buffer_value(desc["lanes"])
            self.dtype = _NUMPY_DTYPES.get(desc["pointee"]["name"])
        elif self.kind == "pyobject":  # the stdlib's PythonObject: one PyObject* field
            self.ctype = ctypes.c_void_p
        elif self.kind == "string":  # the stdlib's String: a str, its UTF-8 bytes copied
            self.ctype = _StringValue
            self.release = None  # set by the function, for a String result
        elif self.kind == "list":  # the stdlib's List[T] of scalars, returned: a NumPy array
            self.elem = Converter(desc["elem"], structs)
            self.dtype = _NUMPY_DTYPES.get(desc["elem"]["name"])
            self.ctype = _ListValue
            self.release = None  # set by the function: gives the memory back to the module
        elif self.kind == "class":  # an object of a pyx class: its handle, held by a wrapper (objects.py)
            if self.name not in structs:
                raise TypeError(f"pyx class {self.name} cannot cross here")
            self.ctype, self.pyclass = structs[self.name]
        elif self.kind == "struct":
            self.fields = [(n, Converter(d, structs)) for n, d in desc["fields"]]
            if self.name not in structs:
                ctype = type(self.name, (ctypes.Structure,), {"_fields_": [(n, c.ctype) for n, c in self.fields]})
                pyclass = type(self.name, (PyxStruct,), {"_fields": tuple(n for n, _ in self.fields),
                                                        "__module__": "pyx"})
                structs[self.name] = (ctype, pyclass)
            self.ctype, self.pyclass = structs[self.name]
        else:
            self.ctype = None

    @property
    def by_pointer(self) -> bool:
        return self.kind in ("simd", "struct", "list", "span", "buffer", "string", "pyobject", "class")

    def to_c(self, value, func: str, param: str, keep: list):
        kind = self.kind
        if kind == "scalar":
            return self._scalar(value, func, param)
        if kind == "ptr":
            return self._pointer(value, func, param, keep)
        if kind == "span":
            address = self._pointer(value, func, param, keep)
            array = keep[-1]
            if array.ndim != 1:
                raise TypeError(f"{func}() argument '{param}' must be {self.name}: expected a 1-dimensional array, "
                                f"got {array.ndim} dimensions")
            span = _SpanValue(address, array.size)
            keep.append(span)
            return ctypes.pointer(span)
        if kind == "pyobject":  # lent for the call: the function borrows it (its copies add references)
            keep.append(value)
            slot = ctypes.c_void_p(id(value))
            keep.append(slot)
            return ctypes.pointer(slot)
        if kind == "string":
            if not isinstance(value, str):
                raise TypeError(f"{func}() argument '{param}' must be String (a str), not {_what(value)}")
            data = value.encode("utf-8", "surrogatepass")
            text = _StringValue(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p), len(data), len(data), len(value))
            keep += [data, text]  # lent for the call: the function borrows it and copies what it keeps
            return ctypes.pointer(text)
        if kind == "buffer":
            view = self._buffer(value, func, param, keep)
            keep.append(view)
            return ctypes.pointer(view)
        if kind == "class":
            return objects.to_c(self.pyclass, value, func, param, keep)
        if kind in ("simd", "struct"):
            value = self.to_value(value, func, param, keep)
            keep.append(value)
            return ctypes.pointer(value)
        raise TypeError(f"{func}() argument '{param}': pyx type {self.name} cannot be passed from Python")

    def to_value(self, value, func: str, param: str, keep: list):
        """The ctypes value itself (not a pointer to it): how a field sits inside a struct."""
        kind = self.kind
        if kind == "simd":
            try:
                items = list(value)
            except TypeError:
                items = None
            if items is None or len(items) != self.desc["width"]:
                raise TypeError(f"{func}() argument '{param}' must be {self.name} "
                                f"(a sequence of {self.desc['width']} numbers), not {_what(value)}")
            return self.ctype(*[self.elem._scalar(v, func, param) for v in items])
        if kind == "struct":
            if isinstance(value, PyxStruct) and type(value).__name__ == self.name:
                items = [getattr(value, n) for n, _ in self.fields]
            elif isinstance(value, tuple) and len(value) == len(self.fields):
                items = list(value)
            else:
                raise TypeError(f"{func}() argument '{param}' must be {self.name}, not {_what(value)}")
            return self.ctype(*[c.to_value(v, func, f"{param}.{n}", keep)
                                for (n, c), v in zip(self.fields, items, strict=True)])
        return self.to_c(value, func, param, keep)

    def _scalar(self, value, func: str, param: str):
        cls, bits = self.desc["class"], self.desc["bits"]
        if cls == "bool":
            if type(value).__name__ not in ("bool", "bool_"):
                raise TypeError(f"{func}() argument '{param}' must be Bool (a bool), not {_what(value)}")
            return 1 if value else 0
        if cls == "float":
            # An array has __float__ too (NumPy converts one of size 1, and says "only
            # 0-dimensional arrays ..." for others, naming no parameter): only numbers are floats.
            # A NumPy complex has __float__ too, and drops the imaginary part (Python's float() refuses).
            if isinstance(value, (str, bytes, complex)) or not hasattr(value, "__float__") \
                    or getattr(value, "ndim", 0) != 0 or getattr(getattr(value, "dtype", None), "kind", "") == "c":
                raise TypeError(f"{func}() argument '{param}' must be {self.name} (a float), not {_what(value)}")
            try:
                number = float(value)
                if self.name == "BFloat16":
                    from ..types import bfloat16_bits

                    return bfloat16_bits(number)
                if bits == 16:
                    import struct as _struct

                    return int.from_bytes(_struct.pack("<e", number), "little")
                return number
            except (TypeError, ValueError, OverflowError) as exc:  # float(10**400), Float16 of 1e6
                raise type(exc)(f"{func}() argument '{param}' must be {self.name}: {exc}") from None
        try:
            number = operator.index(value)
        except TypeError:
            raise TypeError(f"{func}() argument '{param}' must be {self.name} (an int), not {_what(value)}") from None
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if cls == "int" else (0, (1 << bits) - 1)
        if not low <= number <= high:
            raise OverflowError(f"{func}() argument '{param}': {number} does not fit in {self.name} "
                                f"[{low}, {high}]")
        return number

    def _buffer(self, value, func: str, param: str, keep: list):
        """A view of the array as it is: its shape, and its strides in elements (NumPy's are in bytes)."""
        array = self._array_of_dtype(value, func, param)
        rank = self.desc["rank"]
        if array.ndim != rank:
            raise TypeError(f"{func}() argument '{param}' must be {self.name}: expected a {rank}-dimensional array, "
                            f"got {array.ndim} dimension{'s' if array.ndim != 1 else ''}")
        itemsize = array.itemsize
        if any(s % itemsize for s in array.strides):
            raise TypeError(f"{func}() argument '{param}' must be {self.name}: the array's strides {array.strides} "
                            f"are not whole elements of {itemsize} bytes")
        keep.append(array)
        view = self.ctype()
        view.data = array.ctypes.data
        for d in range(rank):
            view.shape[d] = array.shape[d]
            view.strides[d] = array.strides[d] // itemsize
        return view

    def view_of(self, raw, keep: list, func: str):
        """A Buffer result as a NumPy view of the argument array whose memory it shows (no copy;
        that array is kept alive by it). A Buffer of any other memory has no owner Python knows."""
        import numpy as np

        rank, itemsize = self.desc["rank"], np.dtype(self.dtype).itemsize
        shape = tuple(raw.shape[d] for d in range(rank))
        strides = tuple(raw.strides[d] * itemsize for d in range(rank))
        low = high = raw.data or 0
        if all(n > 0 for n in shape):
            low += sum(min(0, (n - 1) * s) for n, s in zip(shape, strides, strict=True))
            high += sum(max(0, (n - 1) * s) for n, s in zip(shape, strides, strict=True)) + itemsize
        for array in keep:
            if not isinstance(array, np.ndarray) or array.dtype != np.dtype(self.dtype):
                continue
            start, end = _byte_bounds(array)
            if start <= low and high <= end:
                return np.asarray(_ArrayView(raw.data, shape, strides, array))
        raise RuntimeError(f"{func}() returned a {self.name} that views none of the arrays passed to it, so "
                           "Python cannot know who owns its memory; return a List for new data")

    def _array_of_dtype(self, value, func: str, param: str):
        """The NumPy array a Ptr, Span or Buffer parameter shows: one the function may write.

        Not None (no null pointer from Python: pyx code indexes what it is given), not a scalar
        or 0-dimensional array (a NumPy number is one through the buffer protocol, and a function
        reading `n` elements from it reads past it), and not read-only: pyx has no read-only
        Ptr, Span or Buffer, so any of them may be written through, and writing into `bytes` or
        an `np.frombuffer` view changed immutable Python objects (interned constants included)."""
        array = _as_array(value) if value is not None else None
        if array is None:
            raise TypeError(f"{func}() argument '{param}' must be {self.name} (a NumPy array or buffer of "
                            f"{self.dtype}), not {_what(value)}")
        if array.ndim == 0:
            raise TypeError(f"{func}() argument '{param}' must be {self.name}: expected an array, got a "
                            f"0-dimensional {_what(value)}")
        if self.dtype is None or (array.dtype is not self._np_dtype and str(array.dtype) != self.dtype):
            raise TypeError(f"{func}() argument '{param}' must be {self.name}: expected an array of {self.dtype}, "
                            f"got {array.dtype}")
        if not array.flags.writeable:
            raise TypeError(f"{func}() argument '{param}' must be {self.name}: the {_what(value)} is read-only and "
                            f"pyx may write through a {self.kind.capitalize()} (pass a writable copy, e.g. "
                            "numpy.array(x))")
        return array

    @property
    def _np_dtype(self):
        """NumPy's dtype object for self.dtype: an array of it is one by identity (str() of a dtype
        costs microseconds, most of a Span argument's conversion). None where NumPy has none."""
        found = self.__dict__.get("_np_dtype_cache", False)
        if found is False:
            try:
                import numpy

                found = numpy.dtype(self.dtype)
            except (ImportError, TypeError):
                found = None
            self.__dict__["_np_dtype_cache"] = found
        return found

    def _pointer(self, value, func: str, param: str, keep: list):
        array = self._array_of_dtype(value, func, param)
        if not array.flags.c_contiguous:
            raise TypeError(f"{func}() argument '{param}' must be {self.name}: the array is not contiguous "
                            "(pass numpy.ascontiguousarray(...))")
        keep.append(array)
        return array.ctypes.data

    def from_c(self, raw):
        kind = self.kind
        if kind == "scalar":
            if self.desc["class"] == "bool":
                return bool(raw)
            if self.name == "BFloat16":
                from ..types import bfloat16_from_bits

                return bfloat16_from_bits(int(raw))
            if self.desc["class"] == "float" and self.desc["bits"] == 16:
                import struct as _struct

                return _struct.unpack("<e", int(raw).to_bytes(2, "little"))[0]
            return raw
        if kind == "simd":
            return tuple(self.elem.from_c(v) for v in raw)
        if kind == "struct":
            return self.pyclass(*[c.from_c(getattr(raw, n)) for n, c in self.fields])
        if kind == "class":
            return objects.from_c(self.pyclass, raw)
        if kind == "ptr":
            return raw  # an address: unsafe by nature
        if kind == "list":
            return self._array(raw)
        if kind == "pyobject":  # the function hands over its reference: take it, then drop it
            if not raw:
                return None
            obj = ctypes.cast(raw, ctypes.py_object).value
            ctypes.pythonapi.Py_DecRef(ctypes.c_void_p(raw))
            return obj
        if kind == "string":
            if not raw.data:
                return ""
            try:
                return ctypes.string_at(raw.data, raw.size).decode("utf-8", "surrogatepass")
            finally:
                if raw.capacity > 0:  # capacity 0: shared bytes the String does not own (stdlib/string.px)
                    self.release(raw.data)
        return None

    def _array(self, raw):
        """The list's elements as a NumPy array over its own memory (no copy), which the module
        gets back when the array and every view of it are gone."""
        import numpy as np

        data, size = raw.data, raw.size
        if not data or size == 0:
            if data:
                self.release(data)
            return np.empty(0, self.dtype)
        itemsize = np.dtype(self.dtype).itemsize
        array = np.frombuffer((ctypes.c_ubyte * (size * itemsize)).from_address(data), self.dtype, size)
        weakref.finalize(array, self.release, data)
        return array


class _SpanValue(ctypes.Structure):
    """How a Span[T] sits in memory (stdlib/collections.px)."""

    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_int64)]


def _byte_bounds(array) -> tuple[int, int]:
    """The first and one-past-last byte addresses an array's elements occupy (any strides)."""
    low = high = array.ctypes.data
    if array.size:
        low += sum(min(0, (n - 1) * s) for n, s in zip(array.shape, array.strides, strict=True))
        high += sum(max(0, (n - 1) * s) for n, s in zip(array.shape, array.strides, strict=True)) + array.itemsize
    return low, high


class _ArrayView:
    """What NumPy needs to view memory an argument array owns (and to keep that array alive)."""

    def __init__(self, address: int, shape: tuple, strides: tuple, owner):
        self.owner = owner
        self.__array_interface__ = {"version": 3, "shape": shape, "strides": strides, "typestr": owner.dtype.str,
                                    "data": (address, not owner.flags.writeable)}


_BUFFER_TYPES: dict[int, type[ctypes.Structure]] = {}


def _buffer_value(lanes: int) -> type[ctypes.Structure]:
    """How a Buffer[T, rank] sits in memory (stdlib/buffer.px): a pointer, then shape and strides as
    vectors of `lanes` Ints, each aligned to its own size as LLVM lays vectors out."""
    if lanes not in _BUFFER_TYPES:
        vector = lanes * 8
        fields: list[tuple[str, Any]] = [("data", ctypes.c_void_p)]
        if vector > 8:
            fields.append(("_padding", ctypes.c_ubyte * (vector - 8)))
        fields += [("shape", ctypes.c_int64 * lanes), ("strides", ctypes.c_int64 * lanes)]
        _BUFFER_TYPES[lanes] = type(f"Buffer{lanes}", (ctypes.Structure,), {"_fields_": fields})
    return _BUFFER_TYPES[lanes]


class _ListValue(ctypes.Structure):
    """How a List[T] sits in memory (stdlib/collections.px): its fields, in order."""

    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_int64), ("capacity", ctypes.c_int64)]


class _StringValue(ctypes.Structure):
    """How a String sits in memory (stdlib/string.px): its UTF-8 bytes, their count, its capacity,
    and its length in code points (a surrogate passed through counts one, as in Python)."""

    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_int64), ("capacity", ctypes.c_int64),
                ("length", ctypes.c_int64)]


def _fast(conv: Converter, func: str, param: str):
    """A converter for one parameter; plain Python ints and floats skip the general checks."""
    general = conv.to_c
    if conv.kind == "scalar" and conv.desc["class"] in ("int", "uint"):
        bits, signed = conv.desc["bits"], conv.desc["class"] == "int"
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)

        def convert(value, keep):
            if type(value) is int and low <= value <= high:
                return value
            return general(value, func, param, keep)
        return convert
    if conv.kind == "scalar" and conv.desc["class"] == "float" and conv.desc["bits"] != 16:
        def convert(value, keep):
            if type(value) is float:
                return value
            return general(value, func, param, keep)
        return convert
    return lambda value, keep: general(value, func, param, keep)


def _as_array(value):
    np = sys.modules.get("numpy")
    if np is None:
        try:
            import numpy as np
        except ImportError:
            return None
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "__dlpack__"):
        try:
            return np.from_dlpack(value)
        except (TypeError, RuntimeError, BufferError, ValueError, AttributeError):
            pass
    try:
        return np.asarray(memoryview(value))
    except TypeError:
        return None


def _what(value) -> str:
    return type(value).__name__


class LiveArrays:
    """In a --memcheck module, the arrays a call passes are live arrays for its checks while it runs."""

    def __init__(self, jit):
        from ..codegen.abi import MEMCHECK_REGISTER, MEMCHECK_UNREGISTER

        self._register = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64)(jit.address(MEMCHECK_REGISTER))
        self._unregister = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(jit.address(MEMCHECK_UNREGISTER))

    def enter(self, keep: list) -> list:
        arrays = [a for a in keep if hasattr(a, "__array_interface__") and a.nbytes is not None]
        for a in arrays:
            self._register(a.ctypes.data, a.nbytes)
        return arrays

    def leave(self, arrays: list) -> None:
        for a in arrays:
            self._unregister(a.ctypes.data)


class PyxFunction:
    def __init__(self, meta: dict, address: int, library, structs: dict, module_meta: dict, live=None):
        self.__name__ = self.__qualname__ = meta["name"]
        self._live = live
        self._meta = meta
        self._library = library
        self._prints = module_meta.get("prints", False)
        self._params = [(p["name"], Converter(p["type"], structs)) for p in meta["params"]]
        self._result = Converter(meta["returns"], structs)
        if self._result.kind in ("list", "string"):
            self._result.release = library.release
        argtypes = [ctypes.POINTER(c.ctype) if c.by_pointer else c.ctype for _, c in self._params]
        if self._result.kind != "none":
            argtypes.append(ctypes.POINTER(self._result.ctype))
        # A call that passes or returns an object of a class keeps the GIL: the object's count is
        # not atomic, and another Python thread may be copying or releasing the same object.
        shares = any(c.kind == "class" for _, c in self._params) or self._result.kind == "class"
        self._cfunc = (ctypes.PYFUNCTYPE if shares else ctypes.CFUNCTYPE)(ctypes.c_int32, *argtypes)(address)
        parameters = [inspect.Parameter(p["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        **({"default": p["default"]} if "default" in p else {}))
                      for p in meta["params"]]
        self.__signature__ = inspect.Signature(parameters)
        self._arity = len(self._params)
        self._converters = [_fast(conv, self.__name__, name) for name, conv in self._params]
        self._out_type = self._result.ctype if self._result.kind != "none" else None
        self._from_c = self._result.from_c
        doc = meta["signature"]
        self.__doc__ = doc + ("\n\n" + meta["doc"] if meta.get("doc") else "")
        self.__module__ = module_meta.get("module", __name__)

    def __repr__(self) -> str:
        return f"<pyx function {self._meta['signature']}>"

    _origin: dict | None = None  # the module it belongs to (set by make_module): how it pickles

    def __reduce__(self):
        """By reference: its module's name, file and options, and its own name; unpickling imports
        that module in the other process (from the disk cache) and takes the function from it."""
        if self._origin is None:
            raise TypeError(f"cannot pickle pyx function {self.__name__}: it belongs to no imported module")
        from .dispatch import attribute_of_module, origin_args

        return attribute_of_module, (origin_args(self._origin), self.__name__)

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != self._arity:  # the general path: keywords and defaults
            try:
                bound = self.__signature__.bind(*args, **kwargs)
            except TypeError as exc:
                raise TypeError(f"{self.__name__}(): {exc}") from None
            bound.apply_defaults()
            args = [bound.arguments[name] for name, _ in self._params]
        keep: list = []
        c_args = [convert(value, keep) for convert, value in zip(self._converters, args, strict=True)]
        out = None
        if self._out_type is not None:
            out = self._out_type()
            c_args.append(ctypes.byref(out))
        route = None
        if self._prints:
            sys.stdout.flush()
            route = stdout_route.begin()  # where sys.stdout is not descriptor 1 (a notebook)
        _FLAG[0] = 0  # a Ctrl-C from before this call is not this call's
        try:
            if self._live is None:
                status = self._cfunc(*c_args)
            else:
                arrays = self._live.enter(keep)
                try:
                    status = self._cfunc(*c_args)
                finally:
                    self._live.leave(arrays)
        finally:
            if self._prints:
                self._library.flush()
                if route is not None:
                    stdout_route.end(route)
        if status != 0:
            raise self._library.exception()
        if self._result.kind == "buffer":
            return self._result.view_of(out, keep, self.__name__)
        return self._from_c(out.value if hasattr(out, "value") else out) if out is not None else None


class CpuLaunched:
    """A kernel launched from Python on the CPU target (`PyxKernel`, runtime/kernel_family.py's
    instances): `k(...)` is refused, `k[grid, block]` (or with shared_bytes) checks the configuration
    (no stream: that is the cuda target's) and gives the launch, which takes `_arity` arguments and
    runs `_run(args, grid, block, shared)`."""

    __name__: str
    _arity: int

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__} is a kernel: launch it with {self.__name__}[grid, block](...)")

    def __getitem__(self, config):
        grid, block, shared, stream = launch_config(self.__name__, config)
        if stream is not None:
            raise TypeError(f"{self.__name__}[...]: streams need the cuda target (this module runs on the CPU)")

        def launch(*args):
            if len(args) != self._arity:
                raise TypeError(f"{self.__name__}() takes {self._arity} arguments, {len(args)} given")
            self._run(args, grid, block, shared)

        return launch

    def _run(self, args: tuple, grid: tuple, block: tuple, shared: int) -> None:
        raise NotImplementedError


class PyxKernel(CpuLaunched):
    """`m.k[grid, block](args)` or `m.k[grid, block, shared_bytes](args)`: a launch from Python.

    On the CPU target the launch runs here with the GPU's semantics (see the language
    reference); arrays are passed by address, so the kernel writes into them directly.
    """

    def __init__(self, meta: dict, address: int, library, structs: dict, live=None):
        self.__name__ = meta["name"]
        self._meta = meta
        self._live = live
        self._library = library
        self._params = [(p["name"], Converter(p["type"], structs)) for p in meta["params"]]
        self._arity = len(self._params)
        argtypes = [ctypes.POINTER(c.ctype) if c.by_pointer else c.ctype for _, c in self._params]
        self._cfunc = ctypes.CFUNCTYPE(ctypes.c_int32, *argtypes, *([ctypes.c_int64] * 7))(address)
        self.__doc__ = meta["signature"] + ("\n\n" + meta["doc"] if meta.get("doc") else "")

    def __repr__(self) -> str:
        return f"<pyx kernel {self._meta['signature']}>"

    def _run(self, args: tuple, grid: tuple, block: tuple, shared: int) -> None:
        keep: list = []
        c_args = [conv.to_c(v, self.__name__, name, keep) for (name, conv), v in zip(self._params, args, strict=True)]
        arrays = self._live.enter(keep) if self._live is not None else []
        try:
            _FLAG[0] = 0  # a Ctrl-C from before this launch is not its own
            status = self._cfunc(*c_args, *grid, *block, shared)
        finally:
            if arrays:
                self._live.leave(arrays)
        if status != 0:
            raise self._library.exception()




def launch_config(kernel: str, config) -> tuple:
    """`k[grid, block]`, `k[grid, block, shared_bytes]` or `k[grid, block, shared_bytes, stream]`:
    (grid, block, shared_bytes, stream or None), checked."""
    config = config if isinstance(config, tuple) else (config,)
    if not 2 <= len(config) <= 4:
        raise TypeError(f"{kernel}[...] takes grid, block, and optionally shared_bytes and stream")
    grid, block = _dims(kernel, "grid", config[0]), _dims(kernel, "block", config[1])
    # The GPU's limits, as the `launch` statement checks them: beyond them the CPU emulation
    # was handed sizes that do not fit its Int64s (or a per-block allocation it cannot make).
    if any(g > most for g, most in zip(grid, MAX_GRID, strict=True)):
        raise ValueError(f"{kernel}[...]: a grid has at most {MAX_GRID} blocks in each dimension, not {grid}")
    if block[0] * block[1] * block[2] > MAX_BLOCK_THREADS:
        raise ValueError(f"{kernel}[...]: a block has at most {MAX_BLOCK_THREADS} threads, not {block}")
    shared = config[2] if len(config) > 2 else 0
    if type(shared) is not int or shared < 0:
        raise TypeError(f"{kernel}[...]: shared_bytes must be a non-negative int, not {shared!r}")
    if shared > MAX_STATIC_SHARED_BYTES:
        raise ValueError(f"{kernel}[...]: shared_bytes must be at most {MAX_STATIC_SHARED_BYTES} (48 KiB a block, "
                         f"its shared arrays included), not {shared}")
    return grid, block, shared, config[3] if len(config) > 3 else None


def _dims(kernel: str, what: str, value) -> tuple[int, int, int]:
    items = value if isinstance(value, tuple) else (value,)
    if not 1 <= len(items) <= 3 or any(type(v) is not int or v < 1 for v in items):
        raise TypeError(f"{kernel}[...]: {what} must be a positive int or a tuple of 1 to 3 of them, not {value!r}")
    return tuple(items) + (1,) * (3 - len(items))


class NativeLibrary:
    """The loaded object code of one module and its exception accessors."""

    def __init__(self, jit):
        self.jit = jit
        interrupt.attach(jit)  # Ctrl-C stops a call with KeyboardInterrupt
        char_pp = ctypes.POINTER(ctypes.c_char_p)
        self._get = ctypes.CFUNCTYPE(ctypes.c_int32, char_pp, char_pp)(jit.address("__pyx_exc_get"))
        self._frame = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, char_pp, char_pp)(
            jit.address("__pyx_exc_frame"))
        clear = jit.address("__pyx_exc_clear")
        self._clear = ctypes.CFUNCTYPE(None)(clear) if clear else (lambda: None)
        self._libc = ctypes.CDLL(None)
        from ..codegen.abi import RELEASE_SYMBOL

        address = jit.address(RELEASE_SYMBOL)
        self.release = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address) if address else None

    def flush(self) -> None:
        self._libc.fflush(None)

    def exception(self) -> BaseException:
        kind, msg = ctypes.c_char_p(), ctypes.c_char_p()
        kept = self._get(ctypes.byref(kind), ctypes.byref(msg))  # the frames the state has
        name = (kind.value or b"RuntimeError").decode()
        message = (msg.value or b"").decode("utf-8", "replace")
        frames = []
        for k in range(kept):
            func, file = ctypes.c_char_p(), ctypes.c_char_p()
            line = self._frame(k, ctypes.byref(func), ctypes.byref(file))
            frames.append(((file.value or b"?").decode(), line, (func.value or b"?").decode()))
        self._clear()  # copied: the module frees messages it made at run time
        cls = getattr(builtins, name) if name in EXCEPTIONS else RuntimeError
        errno = _ERRNO_MESSAGE.fullmatch(message) if issubclass(cls, OSError) else None
        if errno is not None:  # OSError(32, "Broken pipe"): its errno set, printed as "[Errno 32] Broken pipe"
            exc = cls(int(errno.group(1)), errno.group(2))
        elif name == "_SystemExitCode":  # sys.exit(3) in pyx (stdlib/sys.px): Python's SystemExit(3)
            exc = SystemExit(int(message))
        elif name == "SystemExit":  # sys.exit("text"), sys.exit()
            exc = SystemExit(message) if message else SystemExit()
        elif name == "pyx stops":  # semantics/exceptions.py UNCATCHABLE
            exc = ProgramStopped(message)
        else:
            exc = cls(message) if message else cls()
        if isinstance(exc, KeyboardInterrupt):
            exc = interrupted_by_ctrl_c(exc)
        return with_px_traceback(exc, frames)


_FLAG = interrupt.FLAG
_check_signals = ctypes.pythonapi.PyErr_CheckSignals
_check_signals.restype, _check_signals.argtypes = ctypes.c_int, []


def interrupted_by_ctrl_c(exc: KeyboardInterrupt) -> BaseException:
    """The exception a call that Ctrl-C stopped raises. The SIGINT that stopped it also reached
    Python's own handler (pyx's handler passes it on), whose KeyboardInterrupt is still pending:
    run it now, so that it is this exception rather than a second one raised later, inside
    whatever `except KeyboardInterrupt:` the caller has. A handler the program installed with
    signal.signal() runs too; if it raises, that is what the call raises."""
    try:
        _check_signals()
    except KeyboardInterrupt:
        pass  # Python's default handler: the same exception as ours
    return exc


def with_px_traceback(exc: BaseException, frames: list) -> BaseException:
    """Attach the .px frames: a note listing them, and a real traceback entry for the innermost
    (so the traceback and debuggers show the .px line, with its source)."""
    lines = ["pyx traceback (most recent call last):"]
    lines += [f'  File "{file}", line {line}, in {func}' for file, line, func in reversed(frames)]
    exc.add_note("\n".join(lines)) if hasattr(exc, "add_note") else None
    if frames:
        file, line, func = frames[0]
        try:
            code = compile("\n" * max(0, line - 1) + "raise __pyx_exception__", file, "exec")
            code = code.replace(co_name=func)
            exec(code, {"__pyx_exception__": exc})
        except BaseException as raised:  # noqa: BLE001 - this is the exception we built, with its frame
            if raised is exc:
                tb = raised.__traceback__
                return exc.with_traceback(tb.tb_next if tb is not None else None)
    return exc


class _MethodDef(ctypes.Structure):
    _fields_ = [("ml_name", ctypes.c_char_p), ("ml_meth", ctypes.c_void_p), ("ml_flags", ctypes.c_int),
                ("ml_doc", ctypes.c_char_p)]


_METH_FASTCALL_KEYWORDS = 0x0080 | 0x0002
_new_cfunction = ctypes.pythonapi.PyCFunction_NewEx
_new_cfunction.restype = ctypes.py_object
_new_cfunction.argtypes = [ctypes.POINTER(_MethodDef), ctypes.py_object, ctypes.py_object]


def fast_function(fn: PyxFunction, address: int, library: NativeLibrary, keep: list):
    """A builtin-function object over the compiled CPython entry point; `fn` handles everything
    off its fast path. The text signature lets inspect.signature and help() work."""
    params = ", ".join(f"{p['name']}={p['default']!r}" if "default" in p else p["name"] for p in fn._meta["params"])
    doc = f"{fn.__name__}({params})\n--\n\n{fn.__doc__}".encode()
    name = fn.__name__.encode()

    def raise_pending():
        raise library.exception()

    definition = _MethodDef(name, address, _METH_FASTCALL_KEYWORDS, doc)
    keep.extend([definition, name, doc])
    # The sixth: what the entry converts to a float itself; anything else (a NumPy complex or
    # array, which also have __float__) goes to the checked path, which names the parameter.
    numpy = sys.modules.get("numpy")
    floats = (float, int) + ((numpy.floating, numpy.integer) if numpy is not None else (float, int))  # REAL_TYPES
    state = _EntryState((fn, raise_pending, None, True, False, floats))
    state.origin = fn._origin
    return _new_cfunction(ctypes.byref(definition), state, None)


class _EntryState(tuple):
    """What a fast entry reads (its `self`, a tuple). It stands for the function's module when the
    built-in function over it is pickled, which CPython does as `getattr(self, name)`: unpickled,
    it is the module (imported in the other process), and so the function is the module's."""

    origin: dict | None = None

    def __reduce__(self):
        if self.origin is None:
            raise TypeError(f"cannot pickle pyx function {self[0].__name__}: it belongs to no imported module")
        from .dispatch import module_by_reference, origin_args

        return module_by_reference, origin_args(self.origin)


def name_structs(structs: dict, origin: dict) -> None:
    """Struct classes carry their module's name (`__module__`, `__qualname__`) and how to rebuild
    their instances in another process (PyxStruct.__reduce__)."""
    for struct_name, (_, pyclass) in structs.items():
        if getattr(pyclass, "_origin", None) is None:
            pyclass.__module__, pyclass.__qualname__, pyclass._origin = origin["name"], struct_name, origin


def check_python_api(name: str, symbols) -> None:
    """ImportError naming the first C-API function the module calls that this Python does not
    export (PyObject_Vectorcall before 3.11): linked anyway, the call would jump to address 0."""
    for symbol in symbols:
        try:
            getattr(ctypes.pythonapi, symbol)
        except AttributeError:
            raise ImportError(f"pyx module {name!r} needs the C-API function {symbol}, which this Python "
                              f"({sys.version.split()[0]}) does not export; pyx needs Python 3.11 or newer",
                              name=name) from None


_ACCESSOR = "__pyx_"  # (lang/class_exports.py's accessors: what the module's classes call)


def make_module(name: str, meta: dict, jit, file: str) -> types.ModuleType:
    check_python_api(name, meta.get("python_api", ()))  # before any of its code can run
    module = types.ModuleType(name, f"pyx module compiled from {file}")
    module.__file__ = file
    library = NativeLibrary(jit)
    structs: dict = {}
    keep: list = []  # method definitions must outlive the function objects that point into them
    live = LiveArrays(jit) if meta.get("memcheck") else None
    classes = objects.declare(meta.get("classes", ()), structs, library)  # before the functions that take them
    accessors: dict = {}  # their accessors: exported functions the module does not show
    origin = {"name": name, "file": file, "target": "auto", "memcheck": bool(meta.get("memcheck")),
              "scripted": any(f["name"] == "<module>" for f in meta["functions"])}
    for fmeta in meta["functions"]:
        fn = PyxFunction(fmeta, jit.address(fmeta["symbol"]), library, structs, meta, live)
        fn._origin = origin
        if fmeta.get("pyentry"):
            fn = fast_function(fn, jit.address(fmeta["pyentry"]), library, keep)
        if fmeta["name"].startswith(_ACCESSOR):
            accessors[fmeta["name"]] = fn
            continue
        setattr(module, fmeta["name"], fn)
    objects.attach(meta.get("classes", ()), structs, accessors)
    module.__dict__["__pyx_objects__"] = classes
    module.__dict__["__pyx_keep__"] = keep
    for kmeta in meta.get("kernels", []):
        setattr(module, kmeta["name"], PyxKernel(kmeta, jit.address(kmeta["symbol"]), library, structs, live))
    if meta.get("kernel_families"):  # kernels with compile-time parameters: m.k[4][grid, block](...)
        from .kernel_family import PyxKernelFamily

        for fam in meta["kernel_families"]:
            setattr(module, fam["name"], PyxKernelFamily(fam, origin, structs, module))
    name_structs(structs, origin)
    for struct_name, (_, pyclass) in structs.items():
        setattr(module, struct_name, pyclass)
    if meta.get("dispatch") or meta.get("unexported"):  # imported only where needed: a warm import stays light
        from .dispatch import PyxDispatcher, unexported_getattr

        for dmeta in meta.get("dispatch", ()):  # generic functions, containers: compiled per signature on call
            setattr(module, dmeta["name"], PyxDispatcher(dmeta, origin, structs))
        if meta.get("unexported"):
            module.__dict__["__getattr__"] = unexported_getattr(name, meta["unexported"])
    module.__dict__["__pyx__"] = {"library": library, "meta": meta, "origin": origin}
    return module
