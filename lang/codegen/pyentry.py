"""CPython entry points: each exported function whose arguments and result are scalars
also gets `PyObject *__pyx_py.f(self, args, nargs, kwnames)` (METH_FASTCALL | METH_KEYWORDS),
which converts its arguments with the C API, releases the GIL around the call and
converts the result back: a call costs about what a C extension's does.

Anything off the fast path (keywords, defaults, a value of another type, an int out
of range) is handed to the checked Python path (`self[0]`), so every error message is
the same as before. A pyx exception is raised by calling `self[1]`, which builds the
Python exception from the pending pyx one. `self` is the tuple
(fallback, raiser, None, True, False): the objects this code needs, without reaching
for interpreter data symbols.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .. import types as T
from ..ir import nodes as ir
from .halfconv import double_to_half
from .runtime_lib import F32, I1, I64

PYENTRY_PREFIX = "__pyx_py."
PTR = ll.IntType(8).as_pointer()
F64 = ll.DoubleType()


def eligible(f: ir.Function) -> bool:
    def scalar(t):
        return isinstance(t, T.ScalarType) and not (t.is_float and t.bits == 16)
    return all(scalar(p.type) and not p.by_ref for p in f.params) and (
        scalar(f.return_type) or f.return_type == T.NONE)


def define_python_entry(module: ll.Module, f: ir.Function, fn: ll.Function, llvm_type, libc) -> str:
    name = PYENTRY_PREFIX + f.name
    entry = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR.as_pointer(), I64, PTR]), name)
    self_obj, args, nargsf, kwnames = entry.args
    b = ll.IRBuilder(entry.append_basic_block("entry"))

    def api(fname, ret, params):
        return libc(fname, ret, params)

    get_item = api("PyTuple_GetItem", PTR, [PTR, I64])
    fallback_bb = entry.append_basic_block("fallback")
    nargs = b.and_(nargsf, I64((1 << 63) - 1))  # PY_VECTORCALL_ARGUMENTS_OFFSET is the top bit
    simple = b.and_(b.icmp_unsigned("==", kwnames, ll.Constant(PTR, None)),
                    b.icmp_signed("==", nargs, I64(len(f.params))))
    convert_bb = entry.append_basic_block("convert")
    b.cbranch(simple, convert_bb, fallback_bb)
    b.position_at_end(convert_bb)
    err_occurred = api("PyErr_Occurred", PTR, [])
    err_clear = api("PyErr_Clear", ll.VoidType(), [])
    values = []
    for i, p in enumerate(f.params):
        obj = b.load(b.gep(args, [I64(i)]))
        t = p.type
        if t.is_bool:
            true_obj, false_obj = b.call(get_item, [self_obj, I64(3)]), b.call(get_item, [self_obj, I64(4)])
            is_true = b.icmp_unsigned("==", obj, true_obj)
            ok = b.or_(is_true, b.icmp_unsigned("==", obj, false_obj))
            values.append(is_true)
        elif t.is_float:
            d = b.call(api("PyFloat_AsDouble", F64, [PTR]), [obj])
            failed = b.and_(b.fcmp_ordered("==", d, ll.Constant(F64, -1.0)),
                            b.icmp_unsigned("!=", b.call(err_occurred, []), ll.Constant(PTR, None)))
            ok = b.not_(failed)
            values.append(d if t.bits == 64 else double_to_half(b, d) if t.bits == 16 else b.fptrunc(d, F32))
        else:
            convert = "PyLong_AsLongLong" if t.is_signed else "PyLong_AsUnsignedLongLong"
            v = b.call(api(convert, I64, [PTR]), [obj])
            failed = b.and_(b.icmp_unsigned("==", v, I64(-1)),
                            b.icmp_unsigned("!=", b.call(err_occurred, []), ll.Constant(PTR, None)))
            ok = b.not_(failed)
            if t.bits < 64:  # out of range for the narrow type: the Python path explains it
                fits = b.icmp_signed(">=", v, I64(t.min)) if t.is_signed else ll.Constant(I1, 1)
                fits = b.and_(fits, b.icmp_signed("<=", v, I64(t.max)) if t.is_signed
                              else b.icmp_unsigned("<=", v, I64(t.max)))
                ok = b.and_(ok, fits)
                v = b.trunc(v, llvm_type(t))
            values.append(v)
        next_bb = entry.append_basic_block(f"arg{i}")
        bad_bb = entry.append_basic_block(f"bad{i}")
        b.cbranch(ok, next_bb, bad_bb)
        b.position_at_end(bad_bb)
        b.call(err_clear, [])
        b.branch(fallback_bb)
        b.position_at_end(next_bb)
    save = b.call(api("PyEval_SaveThread", PTR, []), [])
    has_result = f.return_type != T.NONE
    if f.raises:
        slot = None
        if has_result:
            with b.goto_entry_block():
                slot = b.alloca(llvm_type(f.return_type))
        failed = b.call(fn, ([slot] if slot is not None else []) + values)
        b.call(api("PyEval_RestoreThread", ll.VoidType(), [PTR]), [save])
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
    fallback = b.call(get_item, [self_obj, I64(0)])
    vectorcall = api("PyObject_Vectorcall", PTR, [PTR, PTR.as_pointer(), I64, PTR])
    b.ret(b.call(vectorcall, [fallback, args, nargsf, kwnames]))
    return name
