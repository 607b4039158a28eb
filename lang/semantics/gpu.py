"""Checking of GPU code: the thread-index intrinsics, barrier, shared memory, atomics, and `launch`.

The intrinsics may appear in any function (a device function called from a kernel uses
them too); what is checked is that host code never reaches one (see the instantiation
stage) and that a kernel is only ever started with `launch`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..gpu_limits import MAX_STATIC_SHARED_BYTES
from ..source import Span
from ..syntax import ast
from ..types import ERROR, ScalarType
from .typed import TCall, TConst, TExpr, TGpu, TLaunch

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder

INDEX_NAMES = {"thread_idx", "block_idx", "block_dim", "grid_dim", "global_idx"}
ATOMICS = {"atomic_add": 2, "atomic_max": 2, "atomic_min": 2, "atomic_exch": 2, "atomic_cas": 3}
SHUFFLES = {"shuffle_down", "shuffle_up", "shuffle_xor", "shuffle_idx"}
WARP_REDUCTIONS = {"warp_sum", "warp_max", "warp_min", "warp_prefix_sum", "warp_broadcast"}
GPU_NAMES = INDEX_NAMES | set(ATOMICS) | SHUFFLES | WARP_REDUCTIONS | {"barrier", "shared_array", "lane_id",
                                                                      "WARP_SIZE", "ballot", "dynamic_shared"}
WARP_SIZE = 32
SHARED_ALIGN = 16  # every shared array starts 16-aligned (the NVPTX globals and the CPU layout)


class GPUChecker:
    """GPU intrinsics, shared arrays and `launch`.
    Reached as `chk.gpu` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg

    def gpu_used(self, span: Span) -> None:
        if self.chk.fn.gpu_use is None:
            self.chk.fn.gpu_use = span

    def gpu_index(self, e: ast.Attribute) -> TExpr:
        name = e.value.id
        if e.attr not in ("x", "y", "z"):
            self.msg.error("E0223", e.span, name=name, attr=e.attr)
            return TConst(e.span, ERROR, None)
        self.gpu_used(e.span)
        return TGpu(e.span, T.INT, f"{name}.{e.attr}")

    def gpu_call(self, name: str, e: ast.Call) -> TExpr:
        args = [self.exprs.expr(a) for a in e.args]
        for kw in e.keywords:
            self.msg.error("E0207", kw.span, func=name, name=kw.name)
        if any(a.type == ERROR for a in args):
            return TConst(e.span, ERROR, None)
        self.gpu_used(e.span)
        if name in ("barrier", "lane_id"):
            if args:
                self.msg.error("E0204", e.span, func=name, expected=0, s="s", found=len(args))
                return TConst(e.span, ERROR, None)
            return TGpu(e.span, T.NONE if name == "barrier" else T.INT, name)
        if name == "shared_array":
            self.msg.error("E0151", e.span)
            return TConst(e.span, ERROR, None)
        if name in SHUFFLES or name in WARP_REDUCTIONS or name == "ballot":
            return self.warp_op(name, args, e)
        expected = ATOMICS[name]
        if len(args) != expected:
            self.msg.error("E0204", e.span, func=name, expected=expected, s="s", found=len(args))
            return TConst(e.span, ERROR, None)
        pointer = args[0]
        if not isinstance(pointer.type, T.PtrType) or not isinstance(pointer.type.pointee, ScalarType) \
                or pointer.type.pointee.is_bool or pointer.type.pointee.bits not in (32, 64):
            self.msg.error("E0201", pointer.span, expected="a Ptr to a 32- or 64-bit number", found=pointer.type)
            return TConst(e.span, ERROR, None)
        elem = pointer.type.pointee
        if name == "atomic_cas" and elem.is_float:
            self.msg.error("E0201", pointer.span, expected="a Ptr to an integer", found=pointer.type)
            return TConst(e.span, ERROR, None)
        values = [self.exprs.coerce(a, elem) for a in args[1:]]
        if any(v.type == ERROR for v in values):
            return TConst(e.span, ERROR, None)
        return TGpu(e.span, elem, name, [pointer] + values)

    def dynamic_shared(self, func: ast.Subscript, e: ast.Call) -> TExpr:
        """`dynamic_shared[T]()`: the block's shared memory reserved by `shared_bytes=` at launch."""
        from .comptime import CtError

        try:
            values = [self.chk.calls.ct_value(i) for i in func.items if isinstance(i, ast.Expr)]
        except CtError:
            values = []
        if len(values) != 1 or not isinstance(values[0], T.Type) or e.args:
            self.msg.error("E0151", e.span)
            return TConst(e.span, ERROR, None)
        self.gpu_used(e.span)
        return TGpu(e.span, T.ptr(values[0], 3), "dynamic_shared")

    def warp_op(self, name: str, args: list[TExpr], e: ast.Call) -> TExpr:
        """Warp operations: every live lane of the warp must reach them (as on the GPU)."""
        expected = 2 if name in SHUFFLES else 1
        if len(args) != expected:
            self.msg.error("E0204", e.span, func=name, expected=expected, s="s" if expected > 1 else "",
                             found=len(args))
            return TConst(e.span, ERROR, None)
        if name == "ballot":
            predicate = self.exprs.truth(args[0], args[0].span)
            return TGpu(e.span, T.UINT32, "ballot", [predicate])
        value = self.exprs.value(args[0])
        vt = value.type
        if not (isinstance(vt, ScalarType) and vt.is_numeric and vt.bits in (32, 64)):
            self.msg.error("E0201", value.span, expected="a 32- or 64-bit number", found=vt)
            return TConst(e.span, ERROR, None)
        rest = [self.chk.pointers.index_value(a) for a in args[1:]]
        if any(r.type == ERROR for r in rest):
            return TConst(e.span, ERROR, None)
        return TGpu(e.span, vt, name, [value] + rest)

    def shared_array(self, func: ast.Subscript, e: ast.Call) -> TExpr:
        from .comptime import CtError

        try:
            values = [self.chk.calls.ct_value(i) for i in func.items if isinstance(i, ast.Expr)]
        except CtError:
            values = []
        if len(values) != 2 or not isinstance(values[0], T.Type) or isinstance(values[1], bool) \
                or not isinstance(values[1], int) or values[1] <= 0 or e.args:
            self.msg.error("E0151", e.span)
            return TConst(e.span, ERROR, None)
        self.gpu_used(e.span)
        elem, count = values
        self.chk.fn.shared_arrays.append((e.span, elem, count))  # for check_shared_memory
        # One block of shared memory per declaration, the same for every thread of a block.
        return TGpu(e.span, T.ptr(elem, 3), "shared_array", site=e.span.start, count=count)

    def launch(self, s: ast.Launch):
        if self.chk.fn.is_kernel:
            self.msg.error("E0152", s.span, func=self.chk.fn.name)
            return None
        kernel, ct_items = s.kernel, None
        if isinstance(kernel, ast.Subscript) and isinstance(kernel.value, ast.Name):
            # `launch scale[4][grid=..., block=...](...)`: an instance of a kernel with parameters
            kernel, ct_items = kernel.value, kernel.items
        decl = self.chk.module.functions.get(kernel.id) if isinstance(kernel, ast.Name) else None
        if decl is None or not any(d.name == "kernel" for d in decl.decorators):
            name = s.kernel.span.file.text[s.kernel.span.start:s.kernel.span.end]
            self.msg.error("E0149", s.kernel.span, name=name)
            return None
        config = {"grid": None, "block": None, "shared_bytes": None, "stream": None}
        for item in s.config:
            if not isinstance(item, ast.Keyword) or item.name not in config:
                self.msg.error("E0207", item.span, func="launch",
                                 name=getattr(item, "name", "a positional argument"))
                return None
            config[item.name] = item.value
        for required in ("grid", "block"):
            if config[required] is None:
                self.msg.error("E0204", s.span, func="launch", expected="grid= and block=", s="",
                                 found="only " + ", ".join(k for k, v in config.items() if v is not None) or "none")
                return None
        grid = self.launch_dims("grid", config["grid"])
        block = self.launch_dims("block", config["block"])
        shared = TConst(s.span, T.INT, 0)
        if config["shared_bytes"] is not None:
            shared = self.chk.pointers.index_value(self.exprs.expr(config["shared_bytes"]))
        # A CUDA stream handle (a `CUstream` as an integer; 0 is the default stream). Every launch
        # waits for its kernel, so on the CPU, where there are no streams, it changes nothing.
        stream = TConst(s.span, T.INT, 0)
        if config["stream"] is not None:
            stream = self.chk.pointers.index_value(self.exprs.expr(config["stream"]))
        call = self.chk.calls.user_call(decl, ast.Call(s.span, s.kernel, s.args, s.keywords), ct_items=ct_items,
                                        launching=True)
        if isinstance(call, TCall) and self.chk.fn.callees and self.chk.fn.callees[-1][0] is call.callee:
            self.chk.fn.callees.pop()  # a launch runs the kernel on the device, not as a host call
        if grid is None or block is None or call.type == ERROR or shared.type == ERROR or stream.type == ERROR:
            return None
        return TLaunch(s.span, call, grid, block, shared, stream)

    def launch_dims(self, name: str, node: ast.Expr) -> list[TExpr] | None:
        items = node.elts if isinstance(node, ast.TupleExpr) else (node,)
        if not 1 <= len(items) <= 3:
            self.msg.error("E0150", node.span, name=name)
            return None
        dims = []
        for item in items:
            value = self.exprs.expr(item)
            if value.type == ERROR:
                return None
            if not (value.type == T.INT_LITERAL or (isinstance(value.type, ScalarType) and value.type.is_int)):
                self.msg.error("E0150", item.span, name=name)
                return None
            dims.append(self.chk.pointers.index_value(value))
        while len(dims) < 3:
            dims.append(TConst(node.span, T.INT, 1))
        return dims


def byte_layout(t: T.Type) -> tuple[int, int]:
    """(size, alignment) in bytes of a value of `t` in memory, as LLVM lays it out (C's rules
    for structs; a SIMD vector aligned to its size rounded up to a power of two)."""
    if isinstance(t, ScalarType):
        size = max(1, t.bits // 8)
        return size, size
    if isinstance(t, T.SIMDType):
        lane, _ = byte_layout(t.elem)
        align = 1 << max(0, (lane * t.width - 1).bit_length())
        return align, align
    if isinstance(t, T.StructType) and t.fields:
        size, align = 0, 1
        for _, field in t.fields:
            fsize, falign = byte_layout(field)
            size = (size + falign - 1) // falign * falign + fsize
            align = max(align, falign)
        return (size + align - 1) // align * align, align
    return 8, 8  # a pointer, a reference to a class instance, an empty struct (at most)


def static_shared_bytes(kernel) -> tuple[int, list]:
    """The static shared memory one block of `kernel` (a FunctionInstance) uses: its own
    `shared_array`s and those of every function it calls, each instance's once, laid out as the
    CPU emulation does; and the arrays as (span, element type, count, bytes)."""
    seen, stack, arrays, total = {id(kernel)}, [kernel], [], 0
    while stack:
        inst = stack.pop()
        for span, elem, count in inst.shared_arrays:
            size = count * byte_layout(elem)[0]
            # Each padded to the alignment: the sum then exceeds the limit (a multiple of 16)
            # exactly when every order ptxas may lay them out in does.
            total += (size + SHARED_ALIGN - 1) // SHARED_ALIGN * SHARED_ALIGN
            arrays.append((span, elem, count, size))
        for callee, _ in inst.callees:
            if id(callee) not in seen:
                seen.add(id(callee))
                stack.append(callee)
    return total, arrays


def check_shared_memory(instances, diags) -> None:
    """E0180 for each kernel whose blocks would need more static shared memory than a GPU gives
    (a kernel over the limit cannot launch there; on the CPU a huge one crashed the process)."""
    from ..diagnostics import Note

    for inst in instances:
        if not inst.is_kernel or inst.is_abstract:
            continue
        total, arrays = static_shared_bytes(inst)
        if total <= MAX_STATIC_SHARED_BYTES:
            continue
        arrays.sort(key=lambda a: -a[3])
        notes = tuple(Note(f"`shared_array[{elem}, {count}]` takes {size} bytes", span)
                      for span, elem, count, size in arrays[:8])
        diags.error("E0180", inst.decl.name_span, notes, func=inst.name, used=total,
                    limit=MAX_STATIC_SHARED_BYTES)
