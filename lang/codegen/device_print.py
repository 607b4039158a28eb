"""`print` in GPU code on the cuda target: one `vprintf` (CUDA's device printf) per print statement.

The lowering (ir/lower.py) makes a print statement a run of `print_*` operations, one per value and
separator, then `stdout_failed`. On the device the run is gathered into one format string and one
argument buffer and written by a single `vprintf` call at `stdout_failed` (which is then false: a
GPU's printf reports nothing), so a thread's line is never interleaved with another thread's.
Integers, booleans and strings print as on the CPU target. Floats are refused (E0226): C's `%g`
and `%f` are not Python's shortest round-trip digits, and the CPU target prints those.
"""
from __future__ import annotations

from llvmlite import ir as ll

from ..ir import nodes as ir
from .runtime_lib import CHARP, I1, I32

FORMATS = {"print_i64": "%lld", "print_u64": "%llu", "print_bool": "%s", "print_str": "%s"}


def _pending(cg) -> list:
    return cg.__dict__.setdefault("_device_prints", [])


def add(cg, i: ir.Intrinsic, spec, args) -> None:
    """One `print_*` operation: its text joins the statement's format string."""
    from .llvm_gen import UnsupportedOnTarget

    if cg.mg.target.name != "cuda":
        raise UnsupportedOnTarget(spec.feature, i.span)
    if spec.variant not in FORMATS:
        raise UnsupportedOnTarget(f"printing a {i.args[0].type} in GPU code", i.span)
    pending = _pending(cg)
    if pending and pending[0][2] is not cg.b.block:  # a statement's operations are one straight run
        raise UnsupportedOnTarget(spec.feature, i.span)
    b = cg.b
    value = i.args[0]
    if spec.variant == "print_str" and isinstance(value, ir.Const) and isinstance(value.value, str):
        pending.append((value.value.replace("%", "%%"), None, b.block))
    elif spec.variant == "print_bool":
        text = b.select(args[0], cg.mg.rt.cstr(b, "True"), cg.mg.rt.cstr(b, "False"))
        pending.append(("%s", text, b.block))
    else:
        pending.append((FORMATS[spec.variant], args[0], b.block))


def flush(cg) -> ll.Value:
    """`stdout_failed` on the device: write the statement's line with one vprintf; never failed."""
    pending = cg.__dict__.pop("_device_prints", [])
    if pending:
        b, rt = cg.b, cg.mg.rt
        values = [v for _, v, _ in pending if v is not None]
        buffer = ll.Constant(CHARP, None)
        if values:
            # vprintf reads its arguments from a buffer, each at its natural alignment.
            pack = ll.LiteralStructType([v.type for v in values])
            with b.goto_entry_block():
                slot = b.alloca(pack)
            for k, v in enumerate(values):
                b.store(v, b.gep(slot, [I32(0), I32(k)]))
            buffer = b.bitcast(slot, CHARP)
        vprintf = rt.libc("vprintf", I32, [CHARP, CHARP])
        b.call(vprintf, [rt.cstr(b, "".join(text for text, _, _ in pending)), buffer])
    return ll.Constant(I1, 0)
