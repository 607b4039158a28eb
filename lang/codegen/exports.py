"""C-ABI entry points for calling compiled functions from Python (ctypes).

Each exported function `f` gets `int32 __pyx_export.f(args..., out*)`: 0 when it
returned (the result stored through `out`), 1 when it raised (the exception state is
then read with the accessors below). Scalars travel by value (Bool as one byte);
SIMD values and structs by pointer, since C has no portable way to pass them.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .. import types as T
from ..ir import nodes as ir
from .abi import EXPORT_PREFIX, LAUNCH_PREFIX
from .runtime_lib import CHARP, I1, I8, I32, RuntimeLib


def by_pointer(t: T.Type) -> bool:
    return isinstance(t, (T.SIMDType, T.StructType))


I16 = ll.IntType(16)


def storage_type(t: T.Type, llvm_type) -> ll.Type:
    """How a value sits in memory Python reads: bool lanes one byte each (LLVM packs <N x i1>)."""
    if isinstance(t, T.SIMDType) and t.elem.is_bool:
        return ll.VectorType(I8, t.width)
    return llvm_type(t)


def abi_type(t: T.Type, llvm_type) -> ll.Type:
    if t == T.BOOL:
        return I8
    if t == T.FLOAT16:
        return I16  # C passes _Float16 in SSE registers, ctypes a 16-bit int: cross as raw bits
    if by_pointer(t):
        return storage_type(t, llvm_type).as_pointer()
    return llvm_type(t)


def to_abi(b: ll.IRBuilder, t: T.Type, value, llvm_type):
    if t == T.BOOL:
        return b.zext(value, I8)
    if t == T.FLOAT16:
        return b.bitcast(value, I16)
    if isinstance(t, T.SIMDType) and t.elem.is_bool:
        return b.zext(value, storage_type(t, llvm_type))
    return value


def from_abi(b: ll.IRBuilder, t: T.Type, arg, llvm_type):
    if t == T.BOOL:
        return b.trunc(arg, I1)
    if t == T.FLOAT16:
        return b.bitcast(arg, llvm_type(t))
    if by_pointer(t):
        value = b.load(arg, align=1)
        if isinstance(t, T.SIMDType) and t.elem.is_bool:
            value = b.trunc(value, llvm_type(t))
        return value
    return arg


def define_export(module: ll.Module, f: ir.Function, fn: ll.Function, llvm_type) -> None:
    params = [abi_type(p.type, llvm_type) for p in f.params]
    has_result = f.return_type != T.NONE
    if has_result:
        params.append(abi_type(f.return_type, llvm_type).as_pointer() if not by_pointer(f.return_type)
                      else storage_type(f.return_type, llvm_type).as_pointer())
    wrapper = ll.Function(module, ll.FunctionType(I32, params), EXPORT_PREFIX + f.name)
    b = ll.IRBuilder(wrapper.append_basic_block("entry"))
    args = [from_abi(b, p.type, arg, llvm_type) for p, arg in zip(f.params, wrapper.args)]
    out = wrapper.args[-1] if has_result else None
    if f.raises:
        slot = b.alloca(llvm_type(f.return_type)) if has_result else None
        failed = b.call(fn, ([slot] if slot is not None else []) + args)
        with b.if_then(failed, likely=False):
            b.ret(I32(1))
        result = b.load(slot) if slot is not None else None
    else:
        result = b.call(fn, args) if has_result else (b.call(fn, args), None)[1]
    if has_result:
        b.store(to_abi(b, f.return_type, result, llvm_type), out, align=1 if by_pointer(f.return_type) else None)
    b.ret(I32(0))


def define_release(rt: RuntimeLib) -> None:
    """`void __pyx_release(i8*)`: Python gives back the memory of a List it received as an array."""
    from .abi import RELEASE_SYMBOL
    from .device_hooks import free

    fn = ll.Function(rt.module, ll.FunctionType(ll.VoidType(), [CHARP]), RELEASE_SYMBOL)
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    free(b, rt.module, rt.libc, fn.args[0])
    b.ret_void()


def define_exception_accessors(rt: RuntimeLib) -> None:
    """`__pyx_exc_get(type**, msg**) -> frames kept` (the depth, at most the state's FRAMES),
    `__pyx_exc_frame(k, func**, file**) -> line`, `__pyx_exc_clear()`."""
    module = rt.module
    get = ll.Function(module, ll.FunctionType(I32, [CHARP.as_pointer(), CHARP.as_pointer()]), "__pyx_exc_get")
    b = ll.IRBuilder(get.append_basic_block("entry"))
    st = rt.state(b)
    b.store(b.load(rt.exc_at(b, st, "kind")), get.args[0])
    b.store(b.load(rt.exc_at(b, st, "message")), get.args[1])
    depth = b.load(rt.exc_at(b, st, "depth"))
    b.ret(b.select(b.icmp_unsigned("<", depth, I32(rt.exc.frames)), depth, I32(rt.exc.frames)))

    frame = ll.Function(module, ll.FunctionType(I32, [I32, CHARP.as_pointer(), CHARP.as_pointer()]),
                        "__pyx_exc_frame")
    b = ll.IRBuilder(frame.append_basic_block("entry"))
    k = frame.args[0]
    st = rt.state(b)
    b.store(b.load(rt.exc_at(b, st, "functions", k)), frame.args[1])
    b.store(b.load(rt.exc_at(b, st, "files", k)), frame.args[2])
    b.ret(b.load(rt.exc_at(b, st, "lines", k)))

    clear = ll.Function(module, ll.FunctionType(ll.VoidType(), []), "__pyx_exc_clear")
    b = ll.IRBuilder(clear.append_basic_block("entry"))
    st = rt.state(b)
    b.store(ll.Constant(CHARP, None), rt.exc_at(b, st, "kind"))
    b.store(I32(0), rt.exc_at(b, st, "depth"))
    b.call(rt.texts_release, [ll.Constant(CHARP, None)])  # Python has its copy of the message now
    b.ret_void()


def define_kernel_launcher(mg, f: ir.Function, llvm_type) -> None:
    """`int32 __pyx_launch.k(args..., gx, gy, gz, bx, by, bz, shared_bytes)`: a launch from Python
    (on the CPU, as `launch` runs there); 1 when a thread raised."""
    i64 = ll.IntType(64)
    params = [abi_type(p.type, llvm_type) for p in f.params] + [i64] * 7
    launcher = ll.Function(mg.module, ll.FunctionType(I32, params), LAUNCH_PREFIX + f.name)
    b = ll.IRBuilder(launcher.append_basic_block("entry"))
    pack = ll.LiteralStructType([llvm_type(p.type) for p in f.params])
    packed = b.alloca(pack)
    for k, (p, arg) in enumerate(zip(f.params, launcher.args)):
        b.store(from_abi(b, p.type, arg, llvm_type), b.gep(packed, [I32(0), I32(k)]))
    dims = list(launcher.args[len(f.params):len(f.params) + 6])
    shared = b.add(launcher.args[-1], ll.Constant(i64, mg.static_shared_bytes))
    runs, mode = mg.cpu_kernel(f.symbol)
    direct = ll.Constant(i64, mode)
    status = b.call(mg.gpu_cpu.launch_fn, [mg.kernel_thunk(runs), b.bitcast(packed, CHARP), *dims, shared, direct,
                                           mg.rt.cstr(b, f.name)])
    b.ret(status)
