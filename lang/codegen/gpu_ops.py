"""The GPU intrinsics, for each target: NVPTX special registers and instructions, or the
CPU runtime's thread state (codegen/gpu_cpu.py)."""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import I32, I64

SLOTS = {"thread_idx": 0, "block_idx": 3, "block_dim": 6, "grid_dim": 9}
SREG = {"thread_idx": "tid", "block_idx": "ctaid", "block_dim": "ntid", "grid_dim": "nctaid"}
AXES = {"x": 0, "y": 1, "z": 2}
ATOMIC_OPS = {"atomic_add": ("add", "fadd"), "atomic_max": ("max", "fmax"), "atomic_min": ("min", "fmin"),
              "atomic_exch": ("xchg", "xchg")}


def gpu_intrinsic(cg, i, args):
    """Code for intrinsic `i` in FunctionCodegen `cg`; returns its value (None for barrier)."""
    name = i.name[4:]
    b = cg.b
    device = not cg.mg.target.host
    if name.startswith("shared_array."):
        return _shared(cg, i, name, device)
    if "." in name:
        kind, axis = name.split(".")
        if kind == "global_idx":
            block = _index(cg, "block_idx", axis, device)
            return b.add(b.mul(block, _index(cg, "block_dim", axis, device)), _index(cg, "thread_idx", axis, device))
        return _index(cg, kind, axis, device)
    if name == "barrier":
        if device:
            fn = cg.mg.rt.libc("llvm.nvvm.barrier0", ll.VoidType(), [])
            b.call(fn, [])
        else:
            b.call(cg.mg.gpu_cpu.barrier_fn, [])
        return None
    if name == "lane_id":
        if device:
            return b.sext(b.call(cg.mg.rt.libc("llvm.nvvm.read.ptx.sreg.laneid", I32, []), []), I64)
        rt = cg.mg.gpu_cpu
        linear = b.add(b.mul(b.add(b.mul(rt.index(b, 2), rt.index(b, 7)), rt.index(b, 1)), rt.index(b, 6)),
                       rt.index(b, 0))
        return b.urem(linear, I64(32))
    return _atomic(cg, i, name, args, device)


def _index(cg, kind: str, axis: str, device: bool):
    b = cg.b
    if device:
        fn = cg.mg.rt.libc(f"llvm.nvvm.read.ptx.sreg.{SREG[kind]}.{axis}", I32, [])
        return b.zext(b.call(fn, []), I64)
    return cg.mg.gpu_cpu.index(b, SLOTS[kind] + AXES[axis])


def _shared(cg, i, name: str, device: bool):
    from .llvm_gen import llvm_type

    _, site, count = name.split(".")
    elem = llvm_type(i.result.type.pointee)
    if device:
        g = cg.mg.shared_globals.get(site)
        if g is None:
            g = ll.GlobalVariable(cg.mg.module, ll.ArrayType(elem, int(count)), name=f"__pyx_shared_{site}",
                                  addrspace=3)
            g.linkage = "internal"
            g.initializer = ll.Constant(ll.ArrayType(elem, int(count)), ll.Undefined)
            g.align = 16
            cg.mg.shared_globals[site] = g
        return cg.b.gep(g, [I32(0), I32(0)], inbounds=True)
    base = cg.b.load(cg.mg.gpu_cpu.shared)
    at = cg.b.gep(base, [I64(cg.mg.shared_offsets[site])])
    return cg.b.bitcast(at, elem.as_pointer())


def _atomic(cg, i, name: str, args, device: bool):
    b = cg.b
    elem_type = i.result.type
    ptr, value = args[0], args[1]
    if name == "atomic_cas":
        if device:
            pair = b.cmpxchg(ptr, value, args[2], "monotonic", "monotonic")
            return b.extract_value(pair, 0)
        old = b.load(ptr)
        b.store(b.select(b.icmp_unsigned("==", old, value), args[2], old), ptr)
        return old
    int_op, float_op = ATOMIC_OPS[name]
    op = float_op if elem_type.is_float else int_op
    if op in ("max", "min") and not elem_type.is_signed:
        op = "u" + op
    if device:
        return b.atomic_rmw(op, ptr, value, "monotonic")
    # CPU threads of a launch never run at the same time: a plain read-modify-write is atomic.
    old = b.load(ptr)
    if op in ("add", "fadd"):
        new = b.fadd(old, value) if elem_type.is_float else b.add(old, value)
    elif op == "xchg":
        new = value
    else:
        bigger = op in ("max", "umax", "fmax")
        if elem_type.is_float:
            take = b.fcmp_ordered(">" if bigger else "<", value, old)
        elif elem_type.is_signed:
            take = b.icmp_signed(">" if bigger else "<", value, old)
        else:
            take = b.icmp_unsigned(">" if bigger else "<", value, old)
        new = b.select(take, value, old)
    b.store(new, ptr)
    return old
