"""What crosses between pyx and Python, and as what: the export/ABI policy.

`build.py` (what `pyx.import_module` compiles) and `pipeline.codegen` ask this module which
functions and kernels Python can call, and how each parameter and result type crosses
(`describe_type`, the metadata the bridge in `runtime/bridge.py` reads without the compiler).
How the calls are generated is `codegen/exports.py` (ctypes entry points) and
`codegen/pyentry.py` (CPython fast entries); the symbol names are `codegen/abi.py`.

Containers are recognised by a marker their declaration carries, not by their fields: a
standard-library struct says how Python sees it with `@python_layout("KIND")`:

    "list"    List[T]:   data: Ptr[T], size: Int, capacity: Int  -> a NumPy array (a copy)
    "span"    Span[T]:   data: Ptr[T], size: Int                 <- a 1-D array, lent
    "buffer"  Buffer[T, rank]: data: Ptr[T], shape, strides       <- an array of `rank` dimensions
    "str"     String:    UTF-8 bytes, size, capacity, length     <-> a Python str (copied)
    "object"  PythonObject: a PyObject* it holds a reference to   <-> the object itself

The marker is honoured in the standard library only (elsewhere it is an unknown decorator:
the bridge reads these layouts field by field, and a user's struct does not promise them).
`python_layout` checks that the fields are the ones the kind promises, so a stdlib change that
breaks the layout fails every compile that passes such a value, as an internal error.
"""
from __future__ import annotations

from . import types as T

MARKER = "python_layout"

# The fields (name, what kind of type) each layout promises, in order.
LAYOUTS: dict[str, tuple[tuple[str, str], ...]] = {
    "list": (("data", "ptr"), ("size", "int"), ("capacity", "int")),
    "span": (("data", "ptr"), ("size", "int")),
    "buffer": (("data", "ptr"), ("shape", "simd"), ("strides", "simd")),
    "str": (("data", "ptr"), ("size", "int"), ("capacity", "int"), ("length", "int")),
    "object": (("ptr", "ptr"),),
}


class LayoutMismatch(AssertionError):
    """A stdlib struct marked with a layout whose fields are not that layout's (a pyx bug)."""


def python_layout(t) -> str | None:
    """The layout kind `t`'s declaration is marked with (`@python_layout("list")`), if it is a
    standard-library struct that has one; None for anything else."""
    if not isinstance(t, T.StructType) or t.symbol is None:
        return None
    decl = getattr(t.symbol, "decl", None)
    marker = next((d for d in getattr(decl, "decorators", ()) if d.name == MARKER), None)
    if marker is None:
        return None
    from .semantics.imports import is_stdlib_file

    if not is_stdlib_file(decl.span.file.name):
        return None  # the checker reports it as an unknown decorator
    kind = marker.args[0].value if marker.args and hasattr(marker.args[0], "value") else None
    if kind not in LAYOUTS:
        raise LayoutMismatch(f"{t.base}: @{MARKER}({kind!r}) names no layout (one of {', '.join(LAYOUTS)})")
    expected = LAYOUTS[kind]
    kinds = {"ptr": T.PtrType, "simd": T.SIMDType}
    if len(t.fields) != len(expected) or any(
            name != want or not (isinstance(ft, kinds[shape]) if shape in kinds else ft == T.INT)
            for (name, ft), (want, shape) in zip(t.fields, expected, strict=True)):
        raise LayoutMismatch(f"{t.base}: fields {[n for n, _ in t.fields]} are not the `{kind}` layout "
                             f"{[n for n, _ in expected]}")
    return kind


def element_type(t) -> T.Type:
    """The element type of a list, span or buffer layout: what its data pointer points at."""
    return t.fields[0][1].pointee


def _of_scalars(t, kind: str) -> bool:
    return python_layout(t) == kind and isinstance(element_type(t), T.ScalarType)


def is_list_of_scalars(t) -> bool:
    """The standard library's `List[T]` of numbers or Bools: Python receives it as a NumPy array."""
    return _of_scalars(t, "list")


def is_span_of_scalars(t) -> bool:
    """The standard library's `Span[T]` of numbers or Bools: Python passes a 1-D NumPy array."""
    return _of_scalars(t, "span")


def is_buffer_of_scalars(t) -> bool:
    """The standard library's `Buffer[T, rank]` of numbers or Bools: Python passes an array of
    that many dimensions, with any strides."""
    return _of_scalars(t, "buffer")


def is_string(t) -> bool:
    """The standard library's String: a Python str in, a str out (its bytes copied each way)."""
    return python_layout(t) == "str"


def is_python_object(t) -> bool:
    """The standard library's PythonObject: the object itself crosses, lent in, handed back out."""
    return python_layout(t) == "object"


def crosses_as_value(t, inside_struct: bool = False) -> bool:
    """Whether a value of type t can be laid out the same by ctypes: structs holding vectors cannot
    (LLVM aligns a vector to its size, ctypes an array to its element)."""
    if isinstance(t, T.SIMDType):
        return not inside_struct
    if isinstance(t, T.StructType):
        from .semantics.ownership import owning

        # Python would get a copy and no destructor: values that own something stay in pyx for now.
        return not owning(t) and all(crosses_as_value(ft, True) for _, ft in t.fields)
    return isinstance(t, (T.ScalarType, T.PtrType)) or t == T.NONE


def exported_functions(program) -> list:
    """The instances Python can call: every top-level, non-generic function (not methods) of the module
    itself (not of the modules it imports), except
    those with `mut` parameters, which need a variable to write to that Python cannot lend.
    An object of one of the module's classes crosses by reference when the class's accessors were
    compiled with the module (`class_exports.py`); only its release function takes one as `var`
    (Python's reference, given back)."""
    from .class_exports import RELEASE, crossing_classes

    classes = crossing_classes(program)

    def shared(t) -> bool:
        return bool(classes) and isinstance(t, T.StructType) and t.module == program.module and _class_of(t) in classes

    return [i for i in program.instances if i.owner is None and not i.decl.is_generic
            and i.module == program.module
            and not any(p.convention == "mut" for p in i.decl.params) and not i.is_kernel and i.gpu_use is None
            and all(crosses_as_value(t) or is_buffer_of_scalars(t)
                    or ((is_string(t) or is_python_object(t)) and p.convention is None)
                    or (shared(t) and (p.convention is None or i.decl.name.startswith(RELEASE)))
                    for p, t in zip(i.decl.params, i.param_types, strict=False))
            and ((crosses_as_value(i.return_type) and not is_span_of_scalars(i.return_type))
                 or is_list_of_scalars(i.return_type) or is_string(i.return_type) or shared(i.return_type)
                 or is_python_object(i.return_type) or is_buffer_of_scalars(i.return_type))]


def _class_of(t) -> str | None:
    """The class whose handle t is, if it is one."""
    from .semantics.classes import class_name, is_class

    return class_name(t) if is_class(t) else None


def is_object(t) -> bool:
    """A class's handle: Python holds its object through a wrapper (runtime/objects.py)."""
    return _class_of(t) is not None
# A Span result is not exported: it would outlive the memory it shows. A Buffer result is, as a
# view of the array argument it shows (the bridge checks that it does).


def exported_kernels(program) -> list:
    """The kernels Python can launch: `m.k[grid, block](args)`."""
    return [i for i in program.instances if i.is_kernel and not i.decl.is_generic
            and i.module == program.module
            and all(crosses_as_value(t) for t in i.param_types)]


def python_entries(module, symbols: list[str]) -> list[str]:
    """Which exported functions also get a CPython fast entry (`codegen/pyentry.py`): those it can
    convert, in a module that never prints (printing needs Python's stdout flushed around the
    call, which the ctypes path does)."""
    if not symbols:
        return []
    from .codegen.pyentry import eligible
    from .ir import ops

    if any(ops.prints(i) for f in module.functions for b in f.blocks for i in b.instrs):
        return []
    return [s for s in symbols if eligible(module.function(s))]


def describe_type(t: T.Type) -> dict:
    """How a parameter or result type crosses, as the bridge reads it from the module's metadata."""
    if isinstance(t, T.ScalarType):
        return {"kind": "scalar", "name": t.name, "class": t.kind, "bits": t.bits}
    if isinstance(t, T.SIMDType):
        return {"kind": "simd", "elem": describe_type(t.elem), "width": t.width, "name": t.name}
    if isinstance(t, T.PtrType):
        return {"kind": "ptr", "pointee": describe_type(t.pointee), "name": t.name}
    if is_list_of_scalars(t):  # Python makes an array of it
        return {"kind": "list", "name": t.name, "elem": describe_type(element_type(t))}
    if is_span_of_scalars(t):  # what a 1-D array passed from Python becomes
        return {"kind": "span", "name": t.name, "pointee": describe_type(element_type(t))}
    if is_python_object(t):  # a PyObject*
        return {"kind": "pyobject", "name": "PythonObject"}
    if is_string(t):  # UTF-8 bytes
        return {"kind": "string", "name": "String"}
    if is_buffer_of_scalars(t):  # an array of `rank` dimensions, by address
        return {"kind": "buffer", "name": t.name, "pointee": describe_type(element_type(t)),
                "rank": t.ct_env["rank"], "lanes": t.fields[1][1].width}
    if is_object(t):  # by reference: a wrapper holding one count of the object (runtime/objects.py)
        return {"kind": "class", "name": _class_of(t)}
    if isinstance(t, T.StructType):
        return {"kind": "struct", "name": t.name, "fields": [[n, describe_type(ft)] for n, ft in t.fields]}
    if t == T.NONE:
        return {"kind": "none", "name": "None"}
    return {"kind": "other", "name": t.name}
