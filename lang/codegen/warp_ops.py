"""One definition of each composite warp operation, executed as written by every target.

`warp_sum`, `warp_max`, `warp_min`, `warp_prefix_sum`, `warp_broadcast` and `ballot` are each
written once below (`RECIPES`) as a sequence of lane exchanges and element-type operations: a
reduction is the butterfly over lane offsets 16, 8, 4, 2, 1 (`v = v op partner(v)`), a prefix sum
the Hillis-Steele scan over offsets 1, 2, 4, 8, 16. A recipe runs on a `Lanes`, which says what an
exchange is:

- `DeviceLanes` (NVPTX): the value is this lane's register, an exchange is `shfl.sync`, and the
  recipe becomes the instructions every lane executes;
- `CpuLanes` (the CPU target): the value is the whole warp as one `<32 x T>` vector, read from the
  lanes' published slots, an exchange is a `shufflevector`, and the recipe computes every lane's
  result at once; this thread then takes its own lane's element.

Both execute the same operations, in the element type, in the same order, so the CPU target gives
the GPU's result bit for bit (a Float32 `warp_sum` is not a sum in double on one side and a
butterfly in float on the other). A lane that does not exist (the last warp of a block whose size is
not a multiple of 32) takes no part: whoever would read it keeps its own value, on both targets; on
the GPU the exchanges name only the existing lanes in their member mask.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import I32, I64

WARP = 32
BUTTERFLY = (16, 8, 4, 2, 1)  # xor offsets of a reduction, in order
SCAN = (1, 2, 4, 8, 16)  # shuffle_up offsets of the inclusive prefix sum, in order
COMPOSITE = ("warp_sum", "warp_max", "warp_min", "warp_prefix_sum", "warp_broadcast", "ballot")


# ---- how two values combine (the same instructions on scalars and on vectors) ----

def _add(b, t, x, y):
    return b.fadd(x, y) if t.is_float else b.add(x, y)


def _pick(op):
    def combine(b, t, x, y):
        if t.is_float:
            keep_x = b.fcmp_ordered(op, x, y)
        else:
            keep_x = b.icmp_signed(op, x, y) if t.is_signed else b.icmp_unsigned(op, x, y)
        return b.select(keep_x, x, y)
    return combine


COMBINE = {"warp_sum": _add, "warp_max": _pick(">"), "warp_min": _pick("<"), "warp_prefix_sum": _add}


# ---- the recipes: the one definition of each operation ----

def _reduce(lanes, v, name):
    combine = COMBINE[name]
    for offset in BUTTERFLY:
        other, exists = lanes.xor(v, offset)
        v = lanes.select(exists, combine(lanes.b, lanes.t, v, other), v)
    return v


def _prefix_sum(lanes, v, name):
    combine = COMBINE[name]
    for offset in SCAN:
        lower, exists = lanes.up(v, offset)
        v = lanes.select(exists, combine(lanes.b, lanes.t, lower, v), v)
    return v


def _broadcast(lanes, v, name):
    return lanes.first(v)


RECIPES = {"warp_sum": _reduce, "warp_max": _reduce, "warp_min": _reduce, "warp_prefix_sum": _prefix_sum,
           "warp_broadcast": _broadcast}


# ---- the CPU target: the whole warp as a vector ----

class CpuLanes:
    def __init__(self, b, t, count):
        self.b, self.t = b, t
        self.count = count  # how many lanes of this warp exist (an i64)
        self.vt = ll.VectorType(I64, WARP)

    def _exists(self, sources):
        """Which lanes' source lane exists, for constant source lanes."""
        b = self.b
        count = b.trunc(self.count, I32)
        splat = b.insert_element(ll.Constant(ll.VectorType(I32, WARP), ll.Undefined), count, I32(0))
        splat = b.shuffle_vector(splat, splat, ll.Constant(ll.VectorType(I32, WARP), [0] * WARP))
        return b.icmp_unsigned("<", ll.Constant(ll.VectorType(I32, WARP), sources), splat)

    def _permute(self, v, sources):
        return self.b.shuffle_vector(v, v, ll.Constant(ll.VectorType(I32, WARP), sources))

    def xor(self, v, offset):
        sources = [j ^ offset for j in range(WARP)]
        return self._permute(v, sources), self._exists(sources)

    def up(self, v, offset):
        # A lower lane exists whenever this one does.
        sources = [max(j - offset, 0) for j in range(WARP)]
        return self._permute(v, sources), ll.Constant(ll.VectorType(ll.IntType(1), WARP),
                                                      [j >= offset for j in range(WARP)])

    def first(self, v):
        return self._permute(v, [0] * WARP)

    def select(self, cond, x, y):
        return self.b.select(cond, x, y)


def _element(t):
    from .llvm_gen import llvm_type

    return llvm_type(t)


def cpu(cg, i, name: str, args):
    """The operation on the CPU target: each lane publishes its value in its slot and waits for the
    warp; every lane then runs the recipe on the whole warp and keeps its own element, and waits
    again (so nobody overwrites a slot before every lane has read it)."""
    b, rt = cg.b, cg.mg.gpu_cpu
    ctx = b.call(rt.ctx_fn, [])
    slots, cur, n = (b.load(rt.field(b, field, ctx)) for field in ("slots", "cur", "nthreads"))
    lane = b.urem(cur, I64(WARP))
    base = b.sub(cur, lane)
    t = i.args[0].type
    value = args[0]
    if name == "ballot":
        bits = b.zext(value, I64)
    else:
        bits = b.bitcast(value, ll.IntType(t.bits)) if t.is_float else value
        bits = b.zext(bits, I64) if t.bits < 64 else bits
    site = rt.site(b, f"{name}()", i.span)
    b.store(bits, b.gep(slots, [cur]))
    b.call(rt.warp_sync_fn, [site])
    left = b.sub(n, base)
    count = b.select(b.icmp_signed("<", left, I64(WARP)), left, I64(WARP))
    with b.goto_entry_block():
        buffer = b.alloca(ll.VectorType(I64, WARP))
    # The lanes that exist, then zeros (which no existing lane reads).
    b.store(ll.Constant(ll.VectorType(I64, WARP), None), buffer)
    b.call(cg.mg.rt.libc("memcpy"), [b.bitcast(buffer, ll.IntType(8).as_pointer()),
                                     b.bitcast(b.gep(slots, [base]), ll.IntType(8).as_pointer()),
                                     b.mul(count, I64(8))])
    warp = b.load(buffer)
    lanes = CpuLanes(b, t, count)
    if name == "ballot":
        votes = b.icmp_unsigned("!=", warp, ll.Constant(ll.VectorType(I64, WARP), None))
        votes = b.and_(votes, lanes._exists(list(range(WARP))))
        result = b.bitcast(votes, I32)
    else:
        if t.bits < 64:
            warp = b.trunc(warp, ll.VectorType(ll.IntType(t.bits), WARP))
        if t.is_float:
            warp = b.bitcast(warp, ll.VectorType(_element(t), WARP))
        result = b.extract_element(RECIPES[name](lanes, warp, name), b.trunc(lane, I32))
    b.call(rt.warp_sync_fn, [site])
    return result


# ---- NVPTX: this lane's register, exchanged with shfl.sync ----

class DeviceLanes:
    def __init__(self, cg, t):
        self.cg, self.b, self.t = cg, cg.b, t
        b, libc = self.b, cg.mg.rt.libc

        def sreg(name):
            return b.call(libc(f"llvm.nvvm.read.ptx.sreg.{name}", I32, []), [])

        self.lane = sreg("laneid")
        tid = [sreg(f"tid.{a}") for a in "xyz"]
        ntid = [sreg(f"ntid.{a}") for a in "xyz"]
        linear = b.add(b.mul(b.add(b.mul(tid[2], ntid[1]), tid[1]), ntid[0]), tid[0])
        threads = b.mul(b.mul(ntid[0], ntid[1]), ntid[2])
        left = b.sub(threads, b.sub(linear, self.lane))
        self.count = b.select(b.icmp_unsigned("<", left, I32(WARP)), left, I32(WARP))
        # The member mask: the lanes of this warp that exist (all 32 but in a block's last, partial warp).
        partial = b.sub(b.shl(I32(1), b.select(b.icmp_unsigned("<", self.count, I32(WARP)), self.count, I32(0))),
                        I32(1))
        self.mask = b.select(b.icmp_unsigned("<", self.count, I32(WARP)), partial, I32(-1))
        # Whether all 32 lanes of this warp exist: the same in every lane of the warp, so a branch on it
        # never splits the warp (every block of a multiple of 32 threads takes the fast side).
        self.full = b.icmp_unsigned("==", self.count, I32(WARP))
        self.whole = False  # True in the lanes of whole_warp()

    def shfl(self, kind: str, value, operand):
        """One `shfl.sync` of any 32- or 64-bit value (64-bit ones as two halves)."""
        b, t = self.b, self.t
        clamp = I32(0) if kind == "up" else I32(0x1F)

        def one(v32):
            suffix = "f32" if v32.type == ll.FloatType() else "i32"
            fn = self.cg.mg.rt.libc(f"llvm.nvvm.shfl.sync.{kind}.{suffix}", v32.type, [I32, v32.type, I32, I32])
            return b.call(fn, [self.mask, v32, operand, clamp])

        if t.bits == 32:
            return one(value)
        bits = b.bitcast(value, I64) if t.is_float else value
        lo = one(b.trunc(bits, I32))
        hi = one(b.trunc(b.lshr(bits, I64(32)), I32))
        joined = b.or_(b.zext(lo, I64), b.shl(b.zext(hi, I64), I64(32)))
        return b.bitcast(joined, ll.DoubleType()) if t.is_float else joined

    def whole_warp(self):
        """These lanes where the whole warp exists (`self.full`): every exchange's member mask is the
        constant 0xffffffff and every source lane of a constant offset below 32 exists, so an exchange
        is one `shfl.sync` (no `WARPSYNC` of a computed mask, no select)."""
        whole = object.__new__(DeviceLanes)
        whole.cg, whole.b, whole.t, whole.lane = self.cg, self.b, self.t, self.lane
        whole.count, whole.mask, whole.full, whole.whole = I32(WARP), I32(-1), ll.Constant(ll.IntType(1), 1), True
        return whole

    def xor(self, v, offset):
        if self.whole:  # lane ^ offset < 32 for every lane
            return self.shfl("bfly", v, I32(offset)), ll.Constant(ll.IntType(1), 1)
        return self.shfl("bfly", v, I32(offset)), self.b.icmp_unsigned("<", self.b.xor(self.lane, I32(offset)),
                                                                       self.count)

    def up(self, v, offset):
        return self.shfl("up", v, I32(offset)), self.b.icmp_unsigned(">=", self.lane, I32(offset))

    def first(self, v):
        return self.shfl("idx", v, I32(0))

    def select(self, cond, x, y):
        return self.b.select(cond, x, y)


# The shuffles' source lane, by definition, from this lane and the operand (both i64): a source
# outside 0..31, or a lane of the warp that does not exist, gives the lane its own value.
SOURCES = {"shuffle_down": lambda b, lane, k: b.add(lane, k), "shuffle_up": lambda b, lane, k: b.sub(lane, k),
           "shuffle_xor": lambda b, lane, k: b.xor(lane, k), "shuffle_idx": lambda b, lane, k: b.urem(k, I64(WARP))}


def _shuffle(lanes, name: str, args):
    # Read the source lane by index: `shfl.sync.down` and friends would use the operand's low 5
    # bits only (shuffle_down(v, 33) would read lane + 1) and read lanes outside the member mask.
    b = lanes.b
    if name == "shuffle_xor" and lanes.whole:
        # In a whole warp, lane ^ k exists exactly when k < 32 (unsigned; lane < 32), and then it is
        # the lane `shfl.sync.bfly` reads with k's low 5 bits: one butterfly, as nvcc's __shfl_xor_sync.
        k = args[1]
        value = lanes.shfl("bfly", args[0], b.trunc(b.and_(k, I64(WARP - 1)), I32))
        return b.select(b.icmp_unsigned("<", k, I64(WARP)), value, args[0])
    source = SOURCES[name](b, b.zext(lanes.lane, I64), args[1])
    exists = b.icmp_unsigned("<", source, b.zext(lanes.count, I64))  # a negative source is huge unsigned
    value = lanes.shfl("idx", args[0], b.trunc(b.and_(source, I64(WARP - 1)), I32))
    return b.select(exists, value, args[0])


def _whole_or_partial(lanes, run):
    """`run(lanes)` twice, on the whole-warp lanes where all 32 lanes exist and on the general ones
    otherwise (a block's last, partial warp), joined by a phi. The branch is uniform in a warp."""
    b = lanes.b
    with b.if_else(lanes.full, likely=True) as (whole, partial):
        with whole:
            fast = run(lanes.whole_warp())
            fast_end = b.block
        with partial:
            slow = run(lanes)
            slow_end = b.block
    joined = b.phi(fast.type)
    joined.add_incoming(fast, fast_end)
    joined.add_incoming(slow, slow_end)
    return joined


def device(cg, i, name: str, args):
    t = i.args[0].type
    lanes = DeviceLanes(cg, t)
    if name in SOURCES:
        return _whole_or_partial(lanes, lambda ls: _shuffle(ls, name, args))
    if name == "ballot":
        fn = cg.mg.rt.libc("llvm.nvvm.vote.ballot.sync", I32, [I32, ll.IntType(1)])
        return cg.b.call(fn, [lanes.mask, args[0]])
    return _whole_or_partial(lanes, lambda ls: RECIPES[name](ls, args[0], name))
