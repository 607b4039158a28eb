"""CPython entry points: each exported function whose arguments are scalars or `Ptr[T]`
and whose result is a scalar also gets `PyObject *__pyx_py.f(self, args, nargs, kwnames)`
(METH_FASTCALL | METH_KEYWORDS), which converts its arguments with the C API, releases
the GIL around the call and converts the result back: a call costs about what a C
extension's does. Each argument's conversion is pyx code, stdlib/runtime_python.px (`to_int`,
`to_uint`, `to_double`, `to_view`: declared here, linked in and inlined as the runtime's `python`
unit); what is generated per signature is the sequence of those calls, the branch to the
checked path when one fails, a Span's or Buffer's value from the Py_buffer (pyx's layout of
them), the GIL's release around the call and the result's conversion.

A `Ptr[T]` argument is any writable C-contiguous buffer of at least one
dimension (a NumPy array, a memoryview) whose format is T's, held with `PyObject_GetBuffer`
for the call. A `Span[T]` argument is such a buffer of one dimension, passed as its address and
length; a `Buffer[T, rank]` argument any writable buffer of `rank` dimensions and any strides
(whole elements), passed as its address, shape and strides in elements: the same values the
checked path builds with ctypes, at the cost of a `Ptr` (3.7 and 4.8 µs became about 0.1).

Anything off the fast path (keywords, defaults, a value of another type, an int out
of range) is handed to the checked Python path (`self[0]`), so every error message is
the same as before. A pyx exception is raised by calling `self[1]`, which builds the
Python exception from the pending pyx one. `self` is the tuple
(fallback, raiser, None, True, False, real number types): the objects this code needs,
without reaching for interpreter data symbols.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .. import types as T
from ..ir import nodes as ir
from .halfconv import double_to_half
from .runtime_lib import F32, I64

PYENTRY_PREFIX = "__pyx_py."
REAL_TYPES = 4  # self[5]: the types a float parameter takes here (float, int, NumPy's floating, integer)
PTR = ll.IntType(8).as_pointer()
F64 = ll.DoubleType()


# Py_buffer (stable since Python 3.11): buf, obj, len, itemsize, readonly, ndim, format, shape,
# strides, suboffsets, internal.
PY_BUFFER = ll.LiteralStructType([PTR, PTR, I64, I64, ll.IntType(32), ll.IntType(32), PTR, PTR, PTR, PTR, PTR])
# PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE: pyx may write through any Ptr, so a
# read-only buffer (bytes, a read-only NumPy array) takes the checked path, which refuses it.
PYBUF_C_CONTIGUOUS_FORMAT = 0x0038 | 0x0004 | 0x0001
# PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE: a Buffer takes any strides (no suboffsets).
PYBUF_STRIDED_FORMAT = 0x0018 | 0x0004 | 0x0001
# struct-module format characters of each element type, as NumPy and memoryview give them.
_FORMATS = {("int", 8): "b", ("int", 16): "h", ("int", 32): "i", ("int", 64): "lq",
            ("uint", 8): "B", ("uint", 16): "H", ("uint", 32): "I", ("uint", 64): "LQ",
            ("float", 16): "e", ("float", 32): "f", ("float", 64): "d", ("bool", 1): "?"}


def buffer_formats(t: T.ScalarType) -> list[str]:
    kind = "bool" if t.is_bool else "float" if t.is_float else "int" if t.is_signed else "uint"
    return [prefix + c for c in _FORMATS[(kind, t.bits)] for prefix in ("", "<", "=", "@")]


def _fast_pointer(t) -> bool:
    # BFloat16 has no buffer-protocol format of its own (Float16's "e" would pass for it).
    return isinstance(t, T.PtrType) and t.address_space == 0 and isinstance(t.pointee, T.ScalarType) \
        and t.pointee != T.BFLOAT16


def _view_kind(t) -> str | None:
    """How an array argument of type t arrives here: "ptr" (its address), "span" (address and
    length) or "buffer" (address, shape, strides); None for anything else."""
    if _fast_pointer(t):
        return "ptr"
    from ..interop import element_type, is_buffer_of_scalars, is_span_of_scalars

    for kind, test in (("span", is_span_of_scalars), ("buffer", is_buffer_of_scalars)):
        if test(t):
            return kind if element_type(t) != T.BFLOAT16 else None
    return None


def eligible(f: ir.Function) -> bool:
    def scalar(t):
        return isinstance(t, T.ScalarType) and not (t.is_float and t.bits == 16)
    return all((scalar(p.type) or _view_kind(p.type) is not None) and not p.by_ref for p in f.params) and (
        scalar(f.return_type) or f.return_type == T.NONE)


def _view_value(b: ll.IRBuilder, view, t, kind: str, data, llvm_type):
    """The Span or Buffer value of a Py_buffer: its address, then its length (a Span), or its
    shape and strides in elements, one vector lane per dimension (a Buffer)."""
    struct = llvm_type(t)
    value = ll.Constant(struct, None)
    value = b.insert_value(value, b.bitcast(data, struct.elements[0]), 0)
    shape = b.bitcast(b.load(b.gep(view, [ll.IntType(32)(0), ll.IntType(32)(7)])), I64.as_pointer())
    if kind == "span":
        return b.insert_value(value, b.load(shape), 1)
    rank, itemsize = t.ct_env["rank"], max(1, t.fields[0][1].pointee.bits // 8)
    strides = b.bitcast(b.load(b.gep(view, [ll.IntType(32)(0), ll.IntType(32)(8)])), I64.as_pointer())
    dims, steps = ll.Constant(struct.elements[1], None), ll.Constant(struct.elements[2], None)
    for d in range(rank):
        dims = b.insert_element(dims, b.load(b.gep(shape, [I64(d)])), ll.IntType(32)(d))
        steps = b.insert_element(steps, b.sdiv(b.load(b.gep(strides, [I64(d)])), I64(itemsize)), ll.IntType(32)(d))
    return b.insert_value(b.insert_value(value, dims, 1), steps, 2)


def _formats_table(module: ll.Module, t: T.ScalarType) -> ll.GlobalVariable:
    """The struct-module formats of element type t (buffer_formats), as a constant array of C
    strings: one per element type in a module."""
    name = f"{PYENTRY_PREFIX}formats.{t}"
    found = module.globals.get(name)
    if found is not None:
        return found
    texts = []
    for k, text in enumerate(buffer_formats(t)):
        data = bytearray(text.encode()) + b"\0"
        g = ll.GlobalVariable(module, ll.ArrayType(ll.IntType(8), len(data)), name=f"{name}.{k}")
        g.linkage, g.global_constant = "private", True
        g.initializer = ll.Constant(ll.ArrayType(ll.IntType(8), len(data)), data)
        texts.append(g.bitcast(PTR))
    table = ll.GlobalVariable(module, ll.ArrayType(PTR, len(texts)), name=name)
    table.linkage, table.global_constant = "private", True
    table.initializer = ll.Constant(ll.ArrayType(PTR, len(texts)), texts)
    return table


def define_python_entry(module: ll.Module, f: ir.Function, fn: ll.Function, llvm_type, libc) -> str:
    name = PYENTRY_PREFIX + f.name
    entry = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR.as_pointer(), I64, PTR]), name)
    self_obj, args, nargsf, kwnames = entry.args
    b = ll.IRBuilder(entry.append_basic_block("entry"))

    def api(fname, ret, params):
        return libc(fname, ret, params)

    get_item = api("PyTuple_GetItem", PTR, [PTR, I64])
    views = []
    for p in f.params:
        if _view_kind(p.type) is not None:
            view = b.alloca(PY_BUFFER)
            b.store(ll.Constant(PY_BUFFER, None), view)  # obj == NULL: nothing to release
            views.append(view)
    fallback_bb = entry.append_basic_block("fallback")
    nargs = b.and_(nargsf, I64((1 << 63) - 1))  # PY_VECTORCALL_ARGUMENTS_OFFSET is the top bit
    simple = b.and_(b.icmp_unsigned("==", kwnames, ll.Constant(PTR, None)),
                    b.icmp_signed("==", nargs, I64(len(f.params))))
    convert_bb = entry.append_basic_block("convert")
    b.cbranch(simple, convert_bb, fallback_bb)
    b.position_at_end(convert_bb)
    release = api("PyBuffer_Release", ll.VoidType(), [PY_BUFFER.as_pointer()])

    def helper(name):  # an argument's conversion: pyx code (stdlib/runtime_python.px), inlined here
        from .runtime_source import declare

        return declare(module, name)

    def scratch(ty):
        with b.goto_entry_block():
            return b.alloca(ty)

    def release_views(b):
        for view in views:
            b.call(release, [view])

    values = []
    view_of = iter(views)
    for i, p in enumerate(f.params):
        obj = b.load(b.gep(args, [I64(i)]))
        t = p.type
        kind = _view_kind(t)
        if kind is not None:
            # Held for the call if it is a buffer of T: runtime_python.to_view (pyx).
            view = next(view_of)
            pointee = t.pointee if kind == "ptr" else t.fields[0][1].pointee
            flags = PYBUF_STRIDED_FORMAT if kind == "buffer" else PYBUF_C_CONTIGUOUS_FORMAT
            rank = 0 if kind == "ptr" else 1 if kind == "span" else t.ct_env["rank"]
            itemsize = max(1, pointee.bits // 8) if kind == "buffer" else 0
            formats = _formats_table(module, pointee)
            ok = b.call(helper("py_view"), [obj, b.bitcast(view, I64.as_pointer()), ll.IntType(32)(flags),
                                             b.bitcast(formats, PTR.as_pointer()), I64(len(formats.type.pointee)),
                                             I64(rank), I64(itemsize)])
            cont_bb = entry.append_basic_block(f"checked{i}")
            b.cbranch(ok, cont_bb, fallback_bb)  # not a buffer of T: the Python path says what is wrong
            b.position_at_end(cont_bb)
            data = b.load(b.gep(view, [ll.IntType(32)(0), ll.IntType(32)(0)]))
            if kind == "ptr":
                values.append(b.bitcast(data, llvm_type(t)))
            else:
                values.append(_view_value(b, view, t, kind, data, llvm_type))
            continue
        if t.is_bool:
            true_obj, false_obj = b.call(get_item, [self_obj, I64(3)]), b.call(get_item, [self_obj, I64(4)])
            is_true = b.icmp_unsigned("==", obj, true_obj)
            ok = b.or_(is_true, b.icmp_unsigned("==", obj, false_obj))
            values.append(is_true)
        elif t.is_float:  # a float, an int or a NumPy real number (self[5]): runtime_python.to_double
            d = scratch(F64)
            ok = b.call(helper("py_double"), [obj, b.call(get_item, [self_obj, I64(5)]), I64(REAL_TYPES), d])
            d = b.load(d)
            values.append(d if t.bits == 64 else double_to_half(b, d) if t.bits == 16 else b.fptrunc(d, F32))
        else:  # an int that fits t (else the Python path explains it): runtime_python.to_int, to_uint
            v = scratch(I64)
            if t.is_signed:
                ok = b.call(helper("py_int"), [obj, I64(t.min), I64(t.max), v])
            else:
                ok = b.call(helper("py_uint"), [obj, I64(t.max), v])
            v = b.load(v)
            values.append(b.trunc(v, llvm_type(t)) if t.bits < 64 else v)
        next_bb = entry.append_basic_block(f"arg{i}")
        b.cbranch(ok, next_bb, fallback_bb)
        b.position_at_end(next_bb)
    flag = module.globals.get("__pyx_interrupt_flag")  # a Ctrl-C from before this call is not its own
    if flag is not None:
        b.store_atomic(ll.IntType(32)(0), b.load(flag), "monotonic", 4)
    save = b.call(api("PyEval_SaveThread", PTR, []), [])
    has_result = f.return_type != T.NONE
    if f.raises:
        slot = None
        if has_result:
            with b.goto_entry_block():
                slot = b.alloca(llvm_type(f.return_type))
        failed = b.call(fn, ([slot] if slot is not None else []) + values)
        b.call(api("PyEval_RestoreThread", ll.VoidType(), [PTR]), [save])
        release_views(b)
        raise_bb, ok_bb = entry.append_basic_block("raise"), entry.append_basic_block("returned")
        b.cbranch(failed, raise_bb, ok_bb)
        b.position_at_end(raise_bb)
        raiser = b.call(get_item, [self_obj, I64(1)])
        b.ret(b.call(api("PyObject_CallNoArgs", PTR, [PTR]), [raiser]))  # NULL, with the exception set
        b.position_at_end(ok_bb)
        result = b.load(slot) if slot is not None else None
    else:
        result = b.call(fn, values) if has_result else None
        if not has_result:
            b.call(fn, values)
        b.call(api("PyEval_RestoreThread", ll.VoidType(), [PTR]), [save])
        release_views(b)
    t = f.return_type
    incref = api("Py_IncRef", ll.VoidType(), [PTR])
    if t == T.NONE or t.is_bool:
        which = I64(2) if t == T.NONE else b.select(result, I64(3), I64(4))
        obj = b.call(get_item, [self_obj, which])
        b.call(incref, [obj])
        b.ret(obj)
    elif t.is_float:
        b.ret(b.call(api("PyFloat_FromDouble", PTR, [F64]), [result if t.bits == 64 else b.fpext(result, F64)]))
    elif t.is_signed:
        b.ret(b.call(api("PyLong_FromLongLong", PTR, [I64]), [b.sext(result, I64) if t.bits < 64 else result]))
    else:
        b.ret(b.call(api("PyLong_FromUnsignedLongLong", PTR, [I64]), [b.zext(result, I64) if t.bits < 64 else result]))
    b.position_at_end(fallback_bb)
    release_views(b)
    fallback = b.call(get_item, [self_obj, I64(0)])
    vectorcall = api("PyObject_Vectorcall", PTR, [PTR, PTR.as_pointer(), I64, PTR])
    b.ret(b.call(vectorcall, [fallback, args, nargsf, kwnames]))
    return name
