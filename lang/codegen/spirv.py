"""The SPIR-V device target (`--target=opencl`, `pyx build --emit=spirv`): what differs from NVPTX.

The device lowering is NVPTX's (`gpu_ops.py`, `warp_ops.py`, `llvm_gen.py`); where the two
targets' instructions differ, `gpu_ops` sends the operation here when `cg.mg.target.name` is
`"opencl"`. LLVM's SPIR-V backend (llvmlite's `spirv64` target) then makes the binary that any
OpenCL 2.1+ runtime loads (runtime/opencl.py). What its backend needs (FACTS.md, "SPIR-V and
OpenCL"):

- kernels in the `spir_kernel` calling convention, their pointer parameters in address space 1
  (global), where every pyx pointer that names no space lives on this target
  (`Target.llvm_address_space`, target.py says why); the entry calls the kernel's body, which is
  internal (PoCL gave wrong, changing results while it stayed external);
- OpenCL's work-item functions by their mangled names (`_Z12get_local_idj`, ...) and
  `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)`, declared `convergent`;
- warp operations as SPIR-V 1.3 sub-group instructions (`__spirv_GroupNonUniformShuffle`,
  `__spirv_GroupNonUniformBallot`), in kernels that ask for sub-groups of 32 lanes (a warp:
  `intel_reqd_sub_group_size`, SPIR-V's `SubgroupSize` execution mode);
- no vector wider than 16 lanes (LLVM aborts the process on one: spirv_vectors.py splits them
  after optimization), and no `extern __local` array (OpenCL has none: dynamic shared memory is a
  kernel argument there).

A warp operation has pyx's semantics, the same as the CPU target's: a shuffle whose source lane
does not exist (outside 0..31, or past the last thread of the block) gives the lane its own
value; the composite operations run `warp_ops.RECIPES`, the one definition every target follows.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .. import types as T
from .runtime_lib import I32, I64

WARP = 32
LANE_OPS = ("gpu.shuffle_", "gpu.warp_", "gpu.ballot", "gpu.lane_id")  # ops.py's names of the warp operations
SUBGROUP_SCOPE = 3  # SPIR-V's Scope: Subgroup
MEM_FENCES = 3  # CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE

WORK_ITEM = {"thread_idx": "_Z12get_local_idj", "block_idx": "_Z12get_group_idj",
             "block_dim": "_Z14get_local_sizej", "grid_dim": "_Z14get_num_groupsj"}
AXES = {"x": 0, "y": 1, "z": 2}
# Itanium mangling of the parameter types (OpenCL's builtins are C++-mangled overloads).
_MANGLED_INT = {1: "b", 8: "c", 16: "s", 32: "i", 64: "l"}


def is_opencl(cg) -> bool:
    return cg.mg.target.name == "opencl"


def _mangle(t: ll.Type) -> str:
    if isinstance(t, ll.FloatType):
        return "f"
    if isinstance(t, ll.DoubleType):
        return "d"
    if isinstance(t, ll.HalfType):
        return "Dh"
    return _MANGLED_INT[t.width]


def _builtin(cg, name: str, ret: ll.Type, args: list, convergent: bool = False) -> ll.Function:
    fn = cg.mg.rt.libc(name, ret, args)
    if convergent and "convergent" not in fn.attributes:
        fn.attributes.add("convergent")  # no pass may move it across control flow
    return fn


def _work_item(cg, name: str, axis: int):
    return cg.b.call(_builtin(cg, name, I64, [I32]), [I32(axis)])


def index(cg, kind: str, axis: str):
    """thread_idx, block_idx, block_dim, grid_dim or global_idx along `axis` (OpenCL's size_t: an i64)."""
    b = cg.b
    if kind == "global_idx":
        return b.add(b.mul(index(cg, "block_idx", axis), index(cg, "block_dim", axis)),
                     index(cg, "thread_idx", axis))
    return _work_item(cg, WORK_ITEM[kind], AXES[axis])


def barrier(cg):
    cg.b.call(_builtin(cg, "_Z7barrierj", ll.VoidType(), [I32], convergent=True), [I32(MEM_FENCES)])
    return None


def _lane32(cg):
    return cg.b.call(_builtin(cg, "_Z22get_sub_group_local_idv", I32, []), [])


def _lanes_here(cg):
    """How many lanes this sub-group has: 32, fewer in a block's last, partial warp."""
    return cg.b.call(_builtin(cg, "_Z18get_sub_group_sizev", I32, []), [])


def shared_array(cg, i):
    """A `__local` array: a module global in space 3, as on NVPTX, named `<kernel>.<name>` when a
    kernel declares it, as clang names an OpenCL C kernel's `__local` variables (Oclgrind gives a
    work-group only the local variables named after its kernel)."""
    from .llvm_gen import shared_site

    site, count = shared_site(i), i.attrs["count"]
    g = cg.mg.shared_globals.get(site)
    if g is None:
        elem = cg.mg.llvm_type(i.result.type.pointee)
        name = f"__pyx_shared_{site}"
        if cg.f.kernel:
            name = f"{cg.mg.symbol(cg.f.symbol + '.kernel')}.shared_{i.attrs['site']}"
        g = ll.GlobalVariable(cg.mg.module, ll.ArrayType(elem, count), name=name, addrspace=3)
        g.linkage = "internal"
        g.initializer = ll.Constant(ll.ArrayType(elem, count), ll.Undefined)
        g.align = 16
        cg.mg.shared_globals[site] = g
    return cg.b.gep(g, [I32(0), I32(0)], inbounds=True)


def lane_id(cg):
    return cg.b.zext(_lane32(cg), I64)


def _shuffle(cg, value, source32):
    """Every lane reads `value` of lane `source32` of its sub-group (which must exist)."""
    name = f"_Z30__spirv_GroupNonUniformShufflei{_mangle(value.type)}j"
    fn = _builtin(cg, name, value.type, [I32, value.type, I32], convergent=True)
    return cg.b.call(fn, [I32(SUBGROUP_SCOPE), value, source32])


def ballot(cg, predicate):
    fn = _builtin(cg, "_Z29__spirv_GroupNonUniformBallotib", ll.VectorType(I32, 4), [I32, ll.IntType(1)],
                  convergent=True)
    votes = cg.b.call(fn, [I32(SUBGROUP_SCOPE), predicate])
    return cg.b.extract_element(votes, I32(0))  # lanes 0..31: the sub-group is 32 wide


class SpirvLanes:
    """`warp_ops`'s lanes on SPIR-V: this lane's value, exchanged with sub-group shuffles."""

    def __init__(self, cg, t):
        self.cg, self.b, self.t = cg, cg.b, t
        self.lane = _lane32(cg)
        self.count = _lanes_here(cg)

    def _read(self, v, source, exists):
        return _shuffle(self.cg, v, self.b.select(exists, source, self.lane)), exists

    def xor(self, v, offset):
        source = self.b.xor(self.lane, I32(offset))
        return self._read(v, source, self.b.icmp_unsigned("<", source, self.count))

    def up(self, v, offset):
        return self._read(v, self.b.sub(self.lane, I32(offset)), self.b.icmp_unsigned(">=", self.lane, I32(offset)))

    def first(self, v):
        return _shuffle(self.cg, v, I32(0))

    def select(self, cond, x, y):
        return self.b.select(cond, x, y)


def warp(cg, i, name: str, args):
    """The shuffles (pyx's semantics: a lane with no source keeps its value), ballot, and the
    composite operations by `warp_ops`' recipes."""
    from . import warp_ops

    b = cg.b
    if name == "ballot":
        return ballot(cg, args[0])
    t = i.args[0].type
    if name in warp_ops.RECIPES:
        return warp_ops.RECIPES[name](SpirvLanes(cg, t), args[0], name)
    lane, count = b.zext(_lane32(cg), I64), b.zext(_lanes_here(cg), I64)
    source = warp_ops.SOURCES[name](b, lane, args[1])  # the definition's source lane
    exists = b.icmp_unsigned("<", source, count)  # at most 32 lanes; a negative source is huge unsigned
    return _shuffle(cg, args[0], b.trunc(b.select(exists, source, lane), I32))


# Float atomics the SPIR-V target writes as a compare-and-swap loop on the value's bits: core
# SPIR-V, where OpAtomicFAddEXT/FMaxEXT need extensions many OpenCL runtimes lack (Oclgrind and
# PoCL among them).
FLOAT_ATOMICS = ("atomic_add", "atomic_max", "atomic_min")


def float_atomic(cg, name: str, args):
    """`old = *p; *p = old op value` atomically; returns `old`, as `atomicrmw` does."""
    b, ptr, value = cg.b, args[0], args[1]
    ty = value.type
    bits = ll.IntType(32 if isinstance(ty, ll.FloatType) else 64 if isinstance(ty, ll.DoubleType) else 16)
    word = b.bitcast(ptr, bits.as_pointer(ptr.type.addrspace))
    # An atomic read (a plain load would race with the others' swaps; LLVM 22's SPIR-V backend
    # makes a plain OpLoad of a `load atomic`, so: an atomic `or` with 0).
    first = b.atomic_rmw("or", word, ll.Constant(bits, 0), "monotonic")
    before = b.block
    loop, done = cg.fn.append_basic_block("float_atomic"), cg.fn.append_basic_block("float_atomic_done")
    b.branch(loop)
    b.position_at_end(loop)
    seen = b.phi(bits)
    seen.add_incoming(first, before)
    old = b.bitcast(seen, ty)
    if name == "atomic_add":
        new = b.fadd(old, value)
    else:
        op = "llvm.maxnum" if name == "atomic_max" else "llvm.minnum"
        new = b.call(cg.mg.intrinsic(op, [ty], ll.FunctionType(ty, [ty, ty])), [old, value])
    pair = b.cmpxchg(word, seen, b.bitcast(new, bits), "monotonic", "monotonic")
    current, swapped = b.extract_value(pair, 0), b.extract_value(pair, 1)
    seen.add_incoming(current, b.block)
    b.cbranch(swapped, done, loop)
    b.position_at_end(done)
    return old


def math_name(op: str, ty: ll.Type, arity: int) -> str:
    """OpenCL's math builtin `op` for `ty` (`_Z4tanhf`, `_Z5atan2ff`)."""
    return f"_Z{len(op)}{op}" + _mangle(ty) * arity


def uses_warp(mg, symbol: str) -> bool:
    """Whether a kernel, or anything it calls, exchanges values between lanes (then its
    sub-groups must be 32 lanes wide, a warp)."""
    from ..ir import nodes as ir

    seen, stack = set(), [symbol]
    while stack:
        f = mg.ir_functions[stack.pop()]
        if f.symbol in seen:
            continue
        seen.add(f.symbol)
        for block in f.blocks:
            for i in block.instrs:
                if isinstance(i, ir.Intrinsic) and i.name.startswith(LANE_OPS):
                    return True
                if isinstance(i, ir.Call):
                    stack.append(i.callee)
    return False


def define_kernel_entries(mg) -> None:
    """Each kernel's `spir_kernel` entry: its parameters (pointers in global memory) passed to its body."""
    for f in mg.ir_module.functions:
        if not f.kernel:
            continue
        inner = mg.functions[f.symbol]
        inner.linkage = "internal"
        for p in f.params:
            buffer = isinstance(p.type, T.PtrType) and p.type.address_space in (0, 1)
            if not buffer and _holds_pointer(p.type):  # OpenCL passes buffers, not structs of pointers
                from .llvm_gen import UnsupportedOnTarget

                raise UnsupportedOnTarget(f"a kernel parameter of type `{p.type}`", f.span)
        params = [mg.llvm_type(p.type) for p in f.params]
        entry = ll.Function(mg.module, ll.FunctionType(ll.VoidType(), params), mg.symbol(f.symbol + ".kernel"))
        entry.calling_convention = "spir_kernel"
        b = ll.IRBuilder(entry.append_basic_block("entry"))
        args = list(entry.args)
        if f.raises:  # the exception goes to the status record the host reads (kernel_raised.py)
            from .kernel_raised import note_raise

            slot = [b.alloca(mg.llvm_type(f.return_type))] if f.return_type != T.NONE else []
            note_raise(mg, b, b.call(inner, slot + args))
        else:
            b.call(inner, args)
        b.ret_void()
        if uses_warp(mg, f.symbol):
            entry.set_metadata("intel_reqd_sub_group_size", mg.module.add_metadata([I32(WARP)]))
    from .kernel_raised import attach_raise_notes

    attach_raise_notes(mg)  # a raising work-item writes the status record as it raises


def _holds_pointer(t) -> bool:
    if isinstance(t, T.PtrType):
        return True
    if isinstance(t, T.StructType):
        return any(_holds_pointer(ft) for _, ft in t.fields)
    return False


def emit_spirv(module, opt: int = 3) -> bytes:
    """The SPIR-V binary of an optimized device module (pipeline.optimize with target `opencl`),
    emitted in a process of its own (spirv_emit.py says why)."""
    import subprocess
    import sys

    # At least 1, as for every device module (Target.opt_level): the backend's -O0 instruction
    # selection indexes structs with `OpConstantNull`, which spirv-val rejects.
    opt = max(opt, 1)
    done = subprocess.run([sys.executable, "-m", "pyx.codegen.spirv_emit", str(opt)], input=str(module).encode(),
                          capture_output=True)
    if done.returncode != 0 or not done.stdout:
        detail = done.stderr.decode(errors="replace").strip().splitlines()
        raise SpirvEmitError("LLVM's SPIR-V backend failed: " + (detail[-1] if detail else f"status {done.returncode}"))
    return done.stdout


class SpirvEmitError(RuntimeError):
    """LLVM could not make SPIR-V of a module that it accepted: a compiler bug, reported as one."""
