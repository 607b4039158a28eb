"""`__pyx_autotune_step`, the one question an `@autotune` dispatcher asks (syntax/autotune.py).

`Int __pyx_autotune_step(char *descriptor, Int bucket, Int ran)`: `ran` is the candidate the
dispatcher has just run (-1 before the first); the answer is a candidate to run and time next
(>= 0), or `-1 - c` to run candidate `c` as the call's own run and stop. The loader answers it
(runtime/autotune.py: the schedule, the timer, the choice and the cache are Python), through a
function pointer it stores in `__pyx_autotune_hook`, an exported global null until then. A module
nobody attached a tuner to (an executable, `--emit=exe`) answers -1: the first candidate, the
hand-picked default, without timing anything.

A final answer is remembered here too, so that later calls do not pay a call into Python (about
3 us each): a table of 64 slots, each the descriptor's address and one word holding the bucket,
the candidate and a valid bit, indexed by a hash of both. Slots are read and written with
relaxed atomics and without a lock: two threads filling one slot at once may leave a slot whose
two words come from different answers, and a reader may then take another dispatcher's
candidate number. That costs speed only: every answer the dispatcher gets runs one of its own
candidates (its last branch is an `else`), and every candidate computes the same result. The
table is exported: a loader attaching a new tuner clears it (the same shared library loaded
again in one process keeps its globals).
"""
from __future__ import annotations

from llvmlite import ir as ll

HOOK_GLOBAL = "__pyx_autotune_hook"
STEP = "__pyx_autotune_step"
MEMO = "__pyx_autotune_memo"
SLOTS = 64
BUCKET_BITS = 54  # syntax/autotune.MAX_SIZE_ARGUMENTS (9) times 6 bits

I64 = ll.IntType(64)
CHARP = ll.IntType(8).as_pointer()
STEP_TYPE = ll.FunctionType(I64, [CHARP, I64, I64])
SLOT = ll.LiteralStructType([I64, I64])  # the descriptor's address; bucket << 7 | candidate << 1 | 1


def define_step(module: ll.Module) -> ll.Function:
    """The step function and the hook it calls through, defined in `module` once."""
    found = module.globals.get(STEP)
    if isinstance(found, ll.Function) and not found.is_declaration:
        return found
    hook = module.globals.get(HOOK_GLOBAL)
    if hook is None:
        hook = ll.GlobalVariable(module, STEP_TYPE.as_pointer(), HOOK_GLOBAL)
        hook.initializer = ll.Constant(STEP_TYPE.as_pointer(), None)  # external: the loader finds and sets it
    memo = ll.GlobalVariable(module, ll.ArrayType(SLOT, SLOTS), MEMO)
    memo.initializer = ll.Constant(ll.ArrayType(SLOT, SLOTS), None)
    fn = found if isinstance(found, ll.Function) else ll.Function(module, STEP_TYPE, STEP)
    fn.linkage = "internal"
    descriptor, bucket, ran = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    address = b.ptrtoint(descriptor, I64)
    mixed = b.xor(b.lshr(address, I64(4)), b.mul(bucket, I64(0x9E3779B97F4A7C15)))
    slot = b.and_(b.lshr(mixed, I64(58)), I64(SLOTS - 1))
    key_at = b.gep(memo, [ll.Constant(ll.IntType(32), 0), slot, ll.Constant(ll.IntType(32), 0)])
    word_at = b.gep(memo, [ll.Constant(ll.IntType(32), 0), slot, ll.Constant(ll.IntType(32), 1)])
    memoizable = b.icmp_unsigned("<", bucket, I64(1 << BUCKET_BITS))  # (a negative bucket is not)
    first = b.and_(b.icmp_signed("<", ran, I64(0)), memoizable)
    with b.if_then(first):
        key = b.load_atomic(key_at, "monotonic", 8)
        word = b.load_atomic(word_at, "monotonic", 8)
        wanted = b.or_(b.shl(bucket, I64(7)), I64(1))
        hit = b.and_(b.icmp_unsigned("==", key, address),
                     b.icmp_unsigned("==", b.and_(word, I64(~0x7E)), wanted))
        with b.if_then(hit):
            b.ret(b.sub(I64(-1), b.and_(b.lshr(word, I64(1)), I64(63))))
    target = b.load(hook)
    missing = b.icmp_unsigned("==", target, ll.Constant(STEP_TYPE.as_pointer(), None))
    with b.if_then(missing, likely=False):
        b.ret(I64(-1))  # no tuner: candidate 0 (declaration order's first), untimed
    answer = b.call(target, [descriptor, bucket, ran])
    chosen = b.sub(I64(-1), answer)
    final = b.and_(b.icmp_signed("<", answer, I64(0)), b.icmp_unsigned("<", chosen, I64(64)))
    with b.if_then(b.and_(final, memoizable)):
        b.store_atomic(b.or_(b.shl(bucket, I64(7)), b.or_(b.shl(chosen, I64(1)), I64(1))), word_at, "monotonic", 8)
        b.store_atomic(address, key_at, "monotonic", 8)
    b.ret(answer)
    return fn
