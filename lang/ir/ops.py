"""The operations an `ir.Intrinsic` names: ONE table of what each takes, gives and does.

An `Intrinsic` is `name(args)` plus typed compile-time attributes (`gpu.thread_idx[axis=x]`,
`gpu.shared_array[site=.., owner=.., count=..]`, `extern[symbol=..]`): nothing is packed into the
name. Every stage reads this table instead of testing names:

- the lowering builds instructions through `make` (an unknown name or a missing attribute fails
  there, at the line that made it);
- the verifier (verify.py) checks operand count and types, the result and the attributes against
  the entry;
- the code generator dispatches on `lowering` (one handler per family, `op_<lowering>` in
  codegen/llvm_gen.py; `variant` is the handler's data) and refuses an operation whose `targets`
  lack its target with `UnsupportedOnTarget(feature)`;
- passes ask `synchronizes` (the GPU-on-CPU scheduler), `writes` (--memcheck), `float_math`
  (BFloat16 legalisation) and `prints` (the Python entry points), never a list of names.

Type rules are small named predicates over the operand types (`Rule`), so that a failure can say
what was expected.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import types as T
from ..source import Span
from ..types import ScalarType, Type
from . import nodes as ir

HOST, DEVICE = "host", "device"  # a CPU target (libc, the process), a GPU target (NVPTX)
BOTH = frozenset({HOST, DEVICE})
HOST_ONLY = frozenset({HOST})


@dataclass(frozen=True)
class Rule:
    """A constraint on one type: `test(t, operand_types)` (the operands, for rules like "same as the first")."""

    what: str
    test: Callable[[Type, list[Type]], bool]

    def __call__(self, t: Type, operands: list[Type]) -> bool:
        try:
            return self.test(t, operands)
        except (AttributeError, IndexError, TypeError):
            return False  # a rule about operand 0 when there is none, or of the wrong kind


def _exactly(t: Type) -> Rule:
    return Rule(str(t), lambda u, ops: u == t)


ANY = Rule("any type", lambda t, ops: True)
def _floats(t: Type, operands: list[Type]) -> bool:
    elem = T.elem_type(t)
    return isinstance(elem, ScalarType) and elem.is_float


FLOATS = Rule("a float or a SIMD of floats", _floats)
WORD = Rule("a 32- or 64-bit number", lambda t, ops: isinstance(t, ScalarType) and t.is_numeric
            and t.bits in (32, 64))
PTR = Rule("a Ptr", lambda t, ops: isinstance(t, T.PtrType))
SHARED_PTR = Rule("a Ptr into shared memory (address space 3)",
                  lambda t, ops: isinstance(t, T.PtrType) and t.address_space == 3)
SAME = Rule("the first operand's type", lambda t, ops: t == ops[0])
MASK = Rule("Bool (lane by lane for a SIMD) of the first operand", lambda t, ops: t == T.mask_of(ops[0]))
POINTEE = Rule("the type the first operand points to",
               lambda t, ops: isinstance(ops[0], T.PtrType) and t == ops[0].pointee)
INT, BOOL, STR, EXC = (_exactly(t) for t in (T.INT, T.BOOL, T.STRING_LITERAL, T.EXCEPTION))


_Class = type  # (in Attr, `type` names its field)


@dataclass(frozen=True)
class Attr:
    """A compile-time operand: a typed field of the instruction, not text in its name."""

    name: str
    type: type
    choices: tuple[str, ...] = ()
    element: _Class | None = None  # a tuple attribute: the type of each element

    def accepts(self, value: Any) -> bool:
        ok = type(value) is self.type and (not self.choices or value in self.choices)
        return ok and (self.element is None or all(type(e) is self.element for e in value))

    def describe(self) -> str:
        """What a value of this attribute must be, for the verifier's message."""
        what = f"{self.type.__name__} of {self.element.__name__}" if self.element else self.type.__name__
        return what + (f" one of {list(self.choices)}" if self.choices else "")


@dataclass(frozen=True)
class OpSpec:
    name: str
    operands: tuple[Rule, ...] = ()
    variadic: Rule | None = None  # further operands, each following this rule (any number)
    result: Rule | None = None  # None: the operation gives no value
    result_optional: bool = False  # extern: a C function may return void
    attrs: tuple[Attr, ...] = ()
    reads: bool = False  # reads memory through its first operand
    writes: bool = False  # writes memory through its first operand
    side_effects: bool = False  # output, the exception state, the stack: never removable
    synchronizes: bool = False  # waits for the other threads of its block or warp (convergent)
    float_math: bool = False  # computes on float operands (BFloat16 ones are widened first)
    prints: bool = False  # writes to stdout
    targets: frozenset[str] = BOTH
    feature: str = ""  # what the user wrote, for "not supported on this target"
    lowering: str = ""  # the code generator's handler family
    variant: str = ""  # the handler's data: the libm function, the index register, the print routine

    def describe(self) -> str:
        parts = [r.what for r in self.operands] + ([f"*{self.variadic.what}"] if self.variadic else [])
        return f"{self.name}({', '.join(parts)})"


SPECS: dict[str, OpSpec] = {}


def _add(name: str, **kw: Any) -> None:
    assert name not in SPECS, name
    kw.setdefault("feature", name)
    kw.setdefault("lowering", name)
    SPECS[name] = OpSpec(name, **kw)


# ---- float arithmetic LLVM has as intrinsics (and fneg) ----
_add("fneg", operands=(FLOATS,), result=SAME, float_math=True)
for _name, _arity in (("fabs", 1), ("floor", 1), ("copysign", 2), ("pow", 2), ("fma", 3)):
    _add(_name, operands=(FLOATS,) + (SAME,) * (_arity - 1), result=SAME, float_math=True, lowering="llvm_math",
         variant=_name)

# ---- the `math` module, one entry per function ----
from ..semantics.mathlib import BINARY, PREDICATES, UNARY  # noqa: E402

for _fn in sorted(UNARY | BINARY):
    _add(f"math.{_fn}", operands=(FLOATS,) + ((SAME,) if _fn in BINARY else ()),
         result=MASK if _fn in PREDICATES else SAME, float_math=True, lowering="math_function", variant=_fn,
         feature=f"math.{_fn}")

# ---- GPU: indices, barrier, warp operations, atomics, shared memory ----
AXIS = Attr("axis", str, ("x", "y", "z"))
for _kind in ("thread_idx", "block_idx", "block_dim", "grid_dim", "global_idx"):
    _add(f"gpu.{_kind}", result=INT, attrs=(AXIS,), lowering="gpu_index", variant=_kind, feature=_kind)
_add("gpu.lane_id", result=INT, lowering="gpu_lane_id", feature="lane_id")
_add("gpu.barrier", side_effects=True, synchronizes=True, lowering="gpu_barrier", feature="barrier")
for _kind in ("shuffle_down", "shuffle_up", "shuffle_xor", "shuffle_idx"):
    _add(f"gpu.{_kind}", operands=(WORD, INT), result=SAME, synchronizes=True, lowering="gpu_warp", variant=_kind,
         feature=_kind)
for _kind in ("warp_sum", "warp_max", "warp_min", "warp_prefix_sum", "warp_broadcast"):  # codegen/warp_ops.py
    _add(f"gpu.{_kind}", operands=(WORD,), result=SAME, synchronizes=True, lowering="gpu_warp", variant=_kind,
         feature=_kind)
_add("gpu.ballot", operands=(BOOL,), result=_exactly(T.UINT32), synchronizes=True, lowering="gpu_warp",
     variant="ballot", feature="ballot")
for _kind in ("atomic_add", "atomic_max", "atomic_min", "atomic_exch"):
    _add(f"gpu.{_kind}", operands=(PTR, POINTEE), result=POINTEE, reads=True, writes=True, side_effects=True,
         lowering="gpu_atomic", variant=_kind, feature=_kind)
_add("gpu.atomic_cas", operands=(PTR, POINTEE, POINTEE), result=POINTEE, reads=True, writes=True,
     side_effects=True, lowering="gpu_atomic", variant="atomic_cas", feature="atomic_cas")
# One array per declaration (`site`, its source offset) and per function instance (`owner`, the
# symbol: a generic `shared_array[T, N]` is a different size for each T and N).
_add("gpu.shared_array", result=SHARED_PTR, attrs=(Attr("site", int), Attr("owner", str), Attr("count", int)),
     lowering="gpu_shared_array", feature="shared_array")
_add("gpu.dynamic_shared", result=SHARED_PTR, lowering="gpu_dynamic_shared", feature="dynamic_shared")
# A kernel's threads as loops over the block on the CPU (ir/gpu_regions.py, codegen/gpu_cpu.py): the
# block's thread count; enter thread t (its indices; where it resumes, -1 if it may not run);
# thread t waits at barrier `point` / has ended; the per-thread array (MAX_THREADS elements) that
# keeps one variable across barriers.
_add("gpu.region_threads", result=INT, lowering="gpu_region", variant="threads", targets=HOST_ONLY)
_add("gpu.region_enter", operands=(INT,), result=INT, side_effects=True, lowering="gpu_region", variant="enter",
     targets=HOST_ONLY)
_add("gpu.region_wait", operands=(INT,), attrs=(Attr("point", int),), side_effects=True, lowering="gpu_region",
     variant="wait", targets=HOST_ONLY)
_add("gpu.region_done", operands=(INT,), side_effects=True, lowering="gpu_region", variant="done",
     targets=HOST_ONLY)
_add("gpu.region_spill", result=PTR, attrs=(Attr("slot", int),), lowering="gpu_region", variant="spill",
     targets=HOST_ONLY)
# The companion's thread loops, by their latches (blocks of the function, each ending in a loop's back
# edge: verify.py checks), are parallel loops (codegen/thread_loops.py).
_add("gpu.region_parallel", attrs=(Attr("latches", tuple, element=ir.Block),), side_effects=True, lowering="gpu_region",
     variant="parallel", targets=HOST_ONLY)

# ---- --memcheck: (pointer, index, element count, is a store) -> the access failed ----
_add("memcheck", operands=(PTR, INT, INT, BOOL), result=BOOL, side_effects=True, targets=HOST_ONLY,
     feature="--memcheck")

# ---- --racecheck (ir/racecheck.py): a shared-memory access (pointer, index, element count, is a
# store) -> it raced with another thread's; this thread passes a barrier ----
_add("racecheck", operands=(PTR, INT, INT, BOOL), result=BOOL, side_effects=True, targets=HOST_ONLY,
     variant="access", feature="--racecheck")
_add("racecheck.barrier", side_effects=True, targets=HOST_ONLY, lowering="racecheck", variant="barrier",
     feature="--racecheck")

# ---- `p.prefetch(i)`: fetch the cache line of an address that will be read soon (a hint: it
# changes no value; kept like a side effect so that nothing moves or removes it; nothing on a GPU) ----
_add("prefetch", operands=(PTR,), side_effects=True)

# ---- the exception state and run-time messages ----
_add("exc_matches", variadic=STR, result=BOOL)
# the exception being handled is the one pyx stops at (semantics/exceptions.py UNCATCHABLE), which a
# bare `except:` lets pass; none arises in device code
_add("exc_stopping", result=BOOL)
_add("exc_value", result=EXC)
_add("exc_restore", operands=(EXC,), side_effects=True)
_add("exc_message", operands=(EXC,), result=STR)
_add("exc_kind", operands=(EXC,), result=STR)  # `type(e).__name__`
# how its arguments show in `repr` (stdlib/runtime_exc.px `shown`); set after a raise_text (`raise v`)
_add("exc_shown", operands=(EXC,), result=INT)
_add("exc_set_shown", operands=(INT,), side_effects=True)
_add("exc_is", operands=(EXC,), variadic=STR, result=BOOL)  # `isinstance(e, C)`: its class is one of these
# the object of an exception class with data (lang/syntax/exception_data.py): a Ptr[Int] to it
_add("exc_payload", operands=(EXC,), result=PTR)
_add("exc_set_payload", operands=(PTR,), side_effects=True, attrs=(Attr("drop", str),))  # drop: its `__del__`
_add("raise_text", operands=(STR, PTR, INT), side_effects=True)
_add("texts_mark", result=PTR)
_add("texts_release", operands=(PTR,), side_effects=True)

# ---- a C function by name (`extern[symbol]`) ----
_add("extern", variadic=ANY, result=ANY, result_optional=True, side_effects=True, attrs=(Attr("symbol", str),),
     targets=HOST_ONLY, feature="external_call")

# ---- C-facing host code (semantics/c_functions.py): a call through a C function pointer (its first
# operand), and atomics on memory with C11's orderings (the attribute: `ordering` as LLVM names it) ----
_add("extern_ptr", operands=(PTR,), variadic=ANY, result=ANY, result_optional=True, side_effects=True,
     targets=HOST_ONLY, feature="external_call through a pointer")
ORDERING = Attr("ordering", str, ("monotonic", "acquire", "release", "acq_rel", "seq_cst"))
_add("atomic_load", operands=(PTR,), result=POINTEE, attrs=(ORDERING,), reads=True, side_effects=True,
     targets=HOST_ONLY, lowering="host_atomic", variant="load", feature="atomic_load")
_add("atomic_store", operands=(PTR, POINTEE), attrs=(ORDERING,), writes=True, side_effects=True,
     targets=HOST_ONLY, lowering="host_atomic", variant="store", feature="atomic_store")
for _kind, _op in (("fetch_add", "add"), ("fetch_sub", "sub"), ("exchange", "xchg")):
    _add(f"atomic_{_kind}", operands=(PTR, POINTEE), result=POINTEE, attrs=(ORDERING,), reads=True, writes=True,
         side_effects=True, targets=HOST_ONLY, lowering="host_atomic", variant=_op, feature=f"atomic_{_kind}")
_add("atomic_compare_exchange", operands=(PTR, POINTEE, POINTEE), result=BOOL, attrs=(ORDERING,), reads=True,
     writes=True, side_effects=True, targets=HOST_ONLY, lowering="host_atomic", variant="cmpxchg",
     feature="atomic_compare_exchange")

# ---- the recursion guard (ir/recursion.py); the guard is an opaque pointer into the entry's frame,
# the limit (the lowest stack address the recursion may reach) a UInt64 the bodies pass on, a site
# the number of a recursive call (where the traceback says the recursion ran out) ----
_add("recursion_guard", result=PTR, side_effects=True, targets=HOST_ONLY)
_add("recursion_enter", operands=(PTR,), result=BOOL, side_effects=True, targets=HOST_ONLY)
_add("recursion_limit", operands=(PTR,), result=_exactly(T.UINT64), targets=HOST_ONLY)
_add("recursion_leave", operands=(PTR,), side_effects=True, targets=HOST_ONLY)
_add("recursion_raise", operands=(PTR,), side_effects=True, targets=HOST_ONLY)
_add("recursion_site", result=_exactly(T.INT32), targets=HOST_ONLY)
_add("recursion_check", operands=(_exactly(T.UINT64), _exactly(T.INT32)), side_effects=True, targets=HOST_ONLY)

# ---- the process: stdout and Ctrl-C ----
_add("stdout_failed", result=BOOL, side_effects=True, feature="print")  # on a GPU: codegen/device_print.py
# a String about to be printed (its data, size, length): whether it raised (a lone surrogate, which CPython
# cannot write to a UTF-8 stdout)
_add("text_unencodable", operands=(PTR, INT, INT), result=BOOL, side_effects=True, targets=HOST_ONLY, feature="print")
_add("interrupt_poll", result=BOOL, side_effects=True, targets=HOST_ONLY)
I64 = Rule("a signed 64-bit integer", lambda t, ops: isinstance(t, ScalarType) and t.is_int and t.is_signed
           and t.bits == 64)
U64 = Rule("an unsigned 64-bit integer", lambda t, ops: isinstance(t, ScalarType) and t.is_int and not t.is_signed
           and t.bits == 64)
_PRINTS = {"print_str": (STR,), "print_exception": (EXC,), "print_bool": (BOOL,), "print_i64": (I64,),
           "print_u64": (U64,), "print_f64": (_exactly(T.FLOAT64),),
           "print_f32": (_exactly(T.FLOAT32),), "print_f16": (_exactly(T.FLOAT16),),
           "print_bf16": (_exactly(T.BFLOAT16),), "print_bytes": (PTR, INT)}
for _name, _operands in _PRINTS.items():
    # On a GPU (codegen/device_print.py): integers, booleans and strings through vprintf; a float
    # is refused there with its own message.
    _add(_name, operands=_operands, side_effects=True, prints=True, feature="print",
         targets=HOST_ONLY if _name in ("print_exception", "print_bytes") else BOTH,
         lowering="print_exception" if _name == "print_exception" else "print", variant=_name)


def spec_of(instr: ir.Intrinsic) -> OpSpec | None:
    """The entry for an `ir.Intrinsic`; None for an unknown operation (the verifier reports it)."""
    return SPECS.get(instr.name)


def make(span: Span | None, result: ir.Temp | None, name: str, args: list[ir.Value], **attrs: Any) -> ir.Intrinsic:
    """An `ir.Intrinsic`, checked against its entry as it is built: an unknown name or a wrong set of
    attributes is a bug in the code that builds it, caught there rather than in codegen."""
    spec = SPECS[name]
    if {a.name for a in spec.attrs} != set(attrs):
        raise AssertionError(f"{name} takes attributes {[a.name for a in spec.attrs]}, given {sorted(attrs)}")
    return ir.Intrinsic(span, result, name, args, {a.name: attrs[a.name] for a in spec.attrs})


def _flag(instr: ir.Instr, flag: str) -> bool:
    spec = SPECS.get(instr.name) if isinstance(instr, ir.Intrinsic) else None
    return spec is not None and getattr(spec, flag)


def synchronizes(instr: ir.Instr) -> bool:
    """Whether a thread must wait here for the others of its block or warp."""
    return _flag(instr, "synchronizes")


def writes_memory(instr: ir.Instr) -> bool:
    return _flag(instr, "writes")


def computes_on_floats(instr: ir.Instr) -> bool:
    return _flag(instr, "float_math")


def prints(instr: ir.Instr) -> bool:
    return _flag(instr, "prints")
