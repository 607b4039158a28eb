"""The GPU operations of ir/ops.py (lowerings `gpu_*`), for each target: NVPTX special
registers and instructions, or the CPU runtime's thread state (codegen/gpu_cpu.py). Each function
takes the FunctionCodegen `cg` and returns the operation's value (None for the barrier)."""
from __future__ import annotations

from llvmlite import ir as ll

from . import spirv
from .runtime_lib import I32, I64
from .warp_ops import SOURCES

SLOTS = {"thread_idx": 0, "block_idx": 3, "block_dim": 6, "grid_dim": 9}
SREG = {"thread_idx": "tid", "block_idx": "ctaid", "block_dim": "ntid", "grid_dim": "nctaid"}
AXES = {"x": 0, "y": 1, "z": 2}
ATOMIC_OPS = {"atomic_add": ("add", "fadd"), "atomic_max": ("max", "fmax"), "atomic_min": ("min", "fmin"),
              "atomic_exch": ("xchg", "xchg")}


def _device(cg) -> bool:
    return not cg.mg.target.host


def index(cg, kind: str, axis: str):
    """thread_idx, block_idx, block_dim, grid_dim or global_idx along `axis`."""
    if spirv.is_opencl(cg):
        return spirv.index(cg, kind, axis)
    if kind == "global_idx":
        b, device = cg.b, _device(cg)
        block = _index(cg, "block_idx", axis, device)
        return b.add(b.mul(block, _index(cg, "block_dim", axis, device)), _index(cg, "thread_idx", axis, device))
    return _index(cg, kind, axis, _device(cg))


def barrier(cg, i=None):
    if spirv.is_opencl(cg):
        return spirv.barrier(cg)
    if _device(cg):
        cg.b.call(cg.mg.rt.libc("llvm.nvvm.barrier0", ll.VoidType(), []), [])
    else:
        cg.b.call(cg.mg.gpu_cpu.barrier_fn, [cg.mg.gpu_cpu.site(cg.b, "barrier()", i.span if i is not None else None)])
    return None


def lane_id(cg):
    b = cg.b
    if spirv.is_opencl(cg):
        return spirv.lane_id(cg)
    if _device(cg):
        return b.sext(b.call(cg.mg.rt.libc("llvm.nvvm.read.ptx.sreg.laneid", I32, []), []), I64)
    rt = cg.mg.gpu_cpu
    linear = b.add(b.mul(b.add(b.mul(rt.index(b, 2), rt.index(b, 7)), rt.index(b, 1)), rt.index(b, 6)),
                   rt.index(b, 0))
    return b.urem(linear, I64(32))


def warp(cg, i, name: str, args):
    """Every warp operation follows its one definition in warp_ops.py: on a GPU as shfl.sync/vote.sync
    code there, on the CPU the composite ones there too and the shuffles below."""
    from . import warp_ops

    if spirv.is_opencl(cg):  # SPIR-V's sub-group instructions, the same recipes
        return spirv.warp(cg, i, name, args)
    if _device(cg):
        return warp_ops.device(cg, i, name, args)
    return warp_ops.cpu(cg, i, name, args) if name in warp_ops.COMPOSITE else _warp_cpu(cg, i, name, args)


def atomic(cg, i, name: str, args):
    if spirv.is_opencl(cg) and i.result.type.is_float and name in spirv.FLOAT_ATOMICS:
        return spirv.float_atomic(cg, name, args)  # a compare-and-swap loop (spirv.py says why)
    return _atomic(cg, i, name, args, _device(cg))


def shared_array(cg, i):
    if spirv.is_opencl(cg):
        return spirv.shared_array(cg, i)
    return _shared(cg, i, _device(cg))


def dynamic_shared(cg, i):
    if spirv.is_opencl(cg):  # OpenCL has no `extern __local` array
        from .llvm_gen import UnsupportedOnTarget

        raise UnsupportedOnTarget("dynamic_shared", i.span)
    return _dynamic_shared(cg, i, _device(cg))


FULL_MASK = 0xFFFFFFFF


def _to_bits(b, value, t):
    """A 32- or 64-bit value as an i64, for the CPU exchange slots."""
    if t.is_float:
        value = b.bitcast(value, ll.IntType(t.bits))
    return b.zext(value, I64) if t.bits < 64 else value


def _from_bits(b, bits, t):
    from .llvm_gen import llvm_type

    raw = b.trunc(bits, ll.IntType(t.bits)) if t.bits < 64 else bits
    return b.bitcast(raw, llvm_type(t)) if t.is_float else raw


def _warp_cpu(cg, i, name, args):
    """The shuffles: lanes publish their value in their slot, wait for the warp, read, and wait again (so nobody
    overwrites a slot before every lane has read it)."""
    b, rt = cg.b, cg.mg.gpu_cpu
    ctx = b.call(rt.ctx_fn, [])
    slots, cur, n = (b.load(rt.field(b, name, ctx)) for name in ("slots", "cur", "nthreads"))
    lane = b.urem(cur, I64(32))
    base = b.sub(cur, lane)
    t = i.args[0].type
    value = args[0]
    site = rt.site(b, f"{name}()", i.span)
    b.store(_to_bits(b, value, t), b.gep(slots, [cur]))
    b.call(rt.warp_sync_fn, [site])
    other = args[1]
    source = SOURCES[name](b, lane, other)  # the definition's source lane (warp_ops.py)
    exists = b.and_(b.and_(b.icmp_signed(">=", source, I64(0)), b.icmp_signed("<", source, I64(32))),
                    b.icmp_signed("<", b.add(base, source), n))
    where = b.select(exists, b.add(base, source), cur)  # no such lane: a lane keeps its own value
    bits = b.load(b.gep(slots, [where]))
    b.call(rt.warp_sync_fn, [site])
    return _from_bits(b, bits, t)


def _index(cg, kind: str, axis: str, device: bool):
    b = cg.b
    if device:
        fn = cg.mg.rt.libc(f"llvm.nvvm.read.ptx.sreg.{SREG[kind]}.{axis}", I32, [])
        return b.zext(b.call(fn, []), I64)
    return cg.mg.gpu_cpu.index(b, SLOTS[kind] + AXES[axis])


def _shared(cg, i, device: bool):
    from .llvm_gen import shared_site

    site, count = shared_site(i), i.attrs["count"]
    elem = cg.mg.llvm_type(i.result.type.pointee)
    if device:
        g = cg.mg.shared_globals.get(site)
        if g is None:
            g = ll.GlobalVariable(cg.mg.module, ll.ArrayType(elem, count), name=f"__pyx_shared_{site}",
                                  addrspace=3)
            g.linkage = "internal"
            g.initializer = ll.Constant(ll.ArrayType(elem, count), ll.Undefined)
            g.align = 16
            cg.mg.shared_globals[site] = g
        return cg.b.gep(g, [I32(0), I32(0)], inbounds=True)
    base = cg.b.load(cg.mg.gpu_cpu.field(cg.b, "shared"))
    at = cg.b.gep(base, [I64(cg.mg.shared_offsets[site])])
    return cg.b.bitcast(at, elem.as_pointer())


def _dynamic_shared(cg, i, device: bool):
    """The launch's `shared_bytes`: after the static shared arrays on the CPU; on the GPU the
    `extern .shared` array the driver sizes at launch."""
    elem = cg.mg.llvm_type(i.result.type.pointee)
    b = cg.b
    if device:
        g = cg.mg.module.globals.get("__pyx_dynamic_shared")
        if g is None:
            g = ll.GlobalVariable(cg.mg.module, ll.ArrayType(ll.IntType(8), 0), name="__pyx_dynamic_shared",
                                  addrspace=3)
            g.linkage = "external"
            g.align = 16
        return b.bitcast(b.gep(g, [I32(0), I32(0)]), elem.as_pointer(3))
    base = b.load(cg.mg.gpu_cpu.field(b, "shared"))
    return b.bitcast(b.gep(base, [I64(cg.mg.static_shared_bytes)]), elem.as_pointer())


def _atomic(cg, i, name: str, args, device: bool):
    b = cg.b
    elem_type = i.result.type
    ptr, value = args[0], args[1]
    if name == "atomic_cas":
        pair = b.cmpxchg(ptr, value, args[2], "monotonic", "monotonic")
        return b.extract_value(pair, 0)
    int_op, float_op = ATOMIC_OPS[name]
    op = float_op if elem_type.is_float else int_op
    if op in ("max", "min") and not elem_type.is_signed:
        op = "u" + op
    # On the CPU too: blocks on different cores run at the same time.
    return b.atomic_rmw(op, ptr, value, "monotonic")
