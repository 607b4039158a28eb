"""The GPU operations of ir/ops.py (lowerings `gpu_*`), for each target: NVPTX special
registers and instructions, or the CPU runtime's thread state (codegen/gpu_cpu.py). Each function
takes the FunctionCodegen `cg` and returns the operation's value (None for the barrier)."""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import I32, I64

SLOTS = {"thread_idx": 0, "block_idx": 3, "block_dim": 6, "grid_dim": 9}
SREG = {"thread_idx": "tid", "block_idx": "ctaid", "block_dim": "ntid", "grid_dim": "nctaid"}
AXES = {"x": 0, "y": 1, "z": 2}
ATOMIC_OPS = {"atomic_add": ("add", "fadd"), "atomic_max": ("max", "fmax"), "atomic_min": ("min", "fmin"),
              "atomic_exch": ("xchg", "xchg")}


def _device(cg) -> bool:
    return not cg.mg.target.host


def index(cg, kind: str, axis: str):
    """thread_idx, block_idx, block_dim, grid_dim or global_idx along `axis`."""
    if kind == "global_idx":
        b, device = cg.b, _device(cg)
        block = _index(cg, "block_idx", axis, device)
        return b.add(b.mul(block, _index(cg, "block_dim", axis, device)), _index(cg, "thread_idx", axis, device))
    return _index(cg, kind, axis, _device(cg))


def barrier(cg):
    if _device(cg):
        cg.b.call(cg.mg.rt.libc("llvm.nvvm.barrier0", ll.VoidType(), []), [])
    else:
        cg.b.call(cg.mg.gpu_cpu.barrier_fn, [])
    return None


def lane_id(cg):
    b = cg.b
    if _device(cg):
        return b.sext(b.call(cg.mg.rt.libc("llvm.nvvm.read.ptx.sreg.laneid", I32, []), []), I64)
    rt = cg.mg.gpu_cpu
    linear = b.add(b.mul(b.add(b.mul(rt.index(b, 2), rt.index(b, 7)), rt.index(b, 1)), rt.index(b, 6)),
                   rt.index(b, 0))
    return b.urem(linear, I64(32))


def warp(cg, i, name: str, args):
    """shuffle_down/up/xor/idx, warp_sum, ballot."""
    return _warp_device(cg, i, name, args) if _device(cg) else _warp_cpu(cg, i, name, args)


def atomic(cg, i, name: str, args):
    return _atomic(cg, i, name, args, _device(cg))


def shared_array(cg, i):
    return _shared(cg, i, _device(cg))


def dynamic_shared(cg, i):
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
    """Lanes publish their value in their slot, wait for the warp, read, and wait again (so nobody
    overwrites a slot before every lane has read it)."""
    b, rt = cg.b, cg.mg.gpu_cpu
    ctx = b.call(rt.ctx_fn, [])
    slots, cur, n = (b.load(rt.field(b, name, ctx)) for name in ("slots", "cur", "nthreads"))
    lane = b.urem(cur, I64(32))
    base = b.sub(cur, lane)
    t = i.args[0].type
    value = args[0]
    b.store(b.zext(value, I64) if name == "ballot" else _to_bits(b, value, t), b.gep(slots, [cur]))
    b.call(rt.warp_sync_fn, [])
    if name in ("warp_sum", "ballot"):
        acc = b.alloca(I64 if name == "ballot" or not t.is_float else ll.DoubleType())
        result_t = None if name == "ballot" else t
        b.store(ll.Constant(acc.type.pointee, 0), acc)
        end = b.select(b.icmp_signed("<", b.add(base, I64(32)), n), b.add(base, I64(32)), n)
        head, body, after = (cg.fn.append_basic_block(x) for x in ("lanes", "lane", "lanes_done"))
        k = b.alloca(I64)
        b.store(base, k)
        b.branch(head)
        b.position_at_end(head)
        j = b.load(k)
        b.cbranch(b.icmp_signed("<", j, end), body, after)
        b.position_at_end(body)
        bits = b.load(b.gep(slots, [j]))
        if name == "ballot":
            bit = b.shl(b.zext(b.icmp_unsigned("!=", bits, I64(0)), I64), b.sub(j, base))
            b.store(b.or_(b.load(acc), bit), acc)
        elif t.is_float:
            b.store(b.fadd(b.load(acc), b.fpext(_from_bits(b, bits, t), ll.DoubleType())
                           if t.bits == 32 else _from_bits(b, bits, t)), acc)
        else:
            b.store(b.add(b.load(acc), bits), acc)
        b.store(b.add(j, I64(1)), k)
        b.branch(head)
        b.position_at_end(after)
        total = b.load(acc)
        b.call(rt.warp_sync_fn, [])
        if name == "ballot":
            return b.trunc(total, I32)
        if t.is_float:
            return b.fptrunc(total, _float_type(t)) if t.bits == 32 else total
        return _from_bits(b, total, result_t)
    other = args[1]
    source = {"shuffle_down": lambda: b.add(lane, other), "shuffle_up": lambda: b.sub(lane, other),
              "shuffle_xor": lambda: b.xor(lane, other), "shuffle_idx": lambda: b.urem(other, I64(32))}[name]()
    exists = b.and_(b.and_(b.icmp_signed(">=", source, I64(0)), b.icmp_signed("<", source, I64(32))),
                    b.icmp_signed("<", b.add(base, source), n))
    where = b.select(exists, b.add(base, source), cur)  # no such lane: a lane keeps its own value
    bits = b.load(b.gep(slots, [where]))
    b.call(rt.warp_sync_fn, [])
    return _from_bits(b, bits, t)


def _float_type(t):
    from .llvm_gen import llvm_type

    return llvm_type(t)


def _shfl(cg, kind: str, value32, other32):
    """One 32-bit `shfl.sync` over the whole warp."""
    b = cg.b
    is_float = value32.type == ll.FloatType()
    suffix = "f32" if is_float else "i32"
    fn = cg.mg.rt.libc(f"llvm.nvvm.shfl.sync.{kind}.{suffix}", value32.type, [I32, value32.type, I32, I32])
    clamp = I32(0) if kind == "up" else I32(0x1F)
    return b.call(fn, [ll.Constant(I32, -1), value32, other32, clamp])  # all 32 lanes take part


def _shuffle_any(cg, kind: str, value, t, other32):
    """64-bit values travel as two 32-bit halves."""
    b = cg.b
    if t.bits == 32:
        return _shfl(cg, kind, value, other32)
    bits = b.bitcast(value, I64) if t.is_float else value
    lo = _shfl(cg, kind, b.trunc(bits, I32), other32)
    hi = _shfl(cg, kind, b.trunc(b.lshr(bits, I64(32)), I32), other32)
    joined = b.or_(b.zext(lo, I64), b.shl(b.zext(hi, I64), I64(32)))
    return b.bitcast(joined, ll.DoubleType()) if t.is_float else joined


def _warp_device(cg, i, name, args):
    b = cg.b
    if name == "ballot":
        fn = cg.mg.rt.libc("llvm.nvvm.vote.ballot.sync", I32, [I32, ll.IntType(1)])
        return b.call(fn, [ll.Constant(I32, -1), args[0]])
    t = i.args[0].type
    if name == "warp_sum":
        total = args[0]
        for offset in (16, 8, 4, 2, 1):
            other = _shuffle_any(cg, "bfly", total, t, I32(offset))
            total = b.fadd(total, other) if t.is_float else b.add(total, other)
        return total
    kind = {"shuffle_down": "down", "shuffle_up": "up", "shuffle_xor": "bfly", "shuffle_idx": "idx"}[name]
    return _shuffle_any(cg, kind, args[0], t, b.trunc(args[1], I32))


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
