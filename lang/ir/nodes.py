"""pyx IR: typed, explicit, no sugar left.

A function is a list of basic blocks. Source variables live in `Var` slots
(`load`/`store`; LLVM's mem2reg turns them into SSA). Temporaries are SSA values:
defined once, used only where their definition dominates the use (the verifier checks). Python's semantics are
already spelled out here: a floor division is a zero check, a division and a fix-up.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..node_methods import NodeBase
from ..source import Span
from ..types import Type


@dataclass(eq=False, repr=False)
class Var(NodeBase):
    name: str
    type: Type
    id: int
    by_ref: bool = False  # a parameter that is the address of the caller's variable (`mut`)
    # A module-level variable: its slot is the module's global of this name, not the function's frame.
    global_symbol: str | None = None

    def __str__(self) -> str:
        return f"@{self.global_symbol}" if self.global_symbol else f"${self.name}.{self.id}"


@dataclass(eq=False, repr=False)
class Value(NodeBase):
    type: Type


@dataclass(eq=False, repr=False)
class Temp(Value):
    id: int

    def __str__(self) -> str:
        return f"%{self.id}"


@dataclass(eq=False, repr=False)
class Ref(Value):
    """The address of a variable, passed to a `mut` parameter."""

    var: Var

    def __str__(self) -> str:
        return f"&{self.var}"


@dataclass(eq=False, repr=False)
class Undef(Value):
    """A value whose contents do not matter yet (the start of a vector built lane by lane)."""

    def __str__(self) -> str:
        return f"undef:{self.type}"


@dataclass(eq=False, repr=False)
class Const(Value):
    value: Any

    def __str__(self) -> str:
        if isinstance(self.value, str):
            return repr(self.value)
        return f"{self.value!r}:{self.type}"


@dataclass(eq=False, repr=False)
class Instr(NodeBase):
    span: Span | None


@dataclass(eq=False, repr=False)
class BinOp(Instr):
    """Raw machine arithmetic: operands and result share one type; sdiv/srem need guards."""

    result: Temp
    op: str  # add sub mul sdiv udiv srem urem fadd fsub fmul fdiv frem and or xor shl ashr lshr
    a: Value
    b: Value


@dataclass(eq=False, repr=False)
class Cmp(Instr):
    result: Temp  # Bool
    pred: str  # eq ne slt sle sgt sge ult ule ugt uge | oeq une olt ole ogt oge uno
    a: Value
    b: Value


@dataclass(eq=False, repr=False)
class Cast(Instr):
    result: Temp
    kind: str  # sext zext trunc sitofp uitofp fptosi fptoui fpext fptrunc
    a: Value


@dataclass(eq=False, repr=False)
class Select(Instr):
    result: Temp
    cond: Value
    a: Value
    b: Value


@dataclass(eq=False, repr=False)
class Extract(Instr):
    """Field `index` of a struct value."""

    result: Temp
    agg: Value
    index: int


@dataclass(eq=False, repr=False)
class Insert(Instr):
    """A copy of a struct value with field `index` replaced: structs are values."""

    result: Temp
    agg: Value
    index: int
    value: Value


@dataclass(eq=False, repr=False)
class Splat(Instr):
    result: Temp
    value: Value


@dataclass(eq=False, repr=False)
class ExtractLane(Instr):
    result: Temp
    vector: Value
    index: Value


@dataclass(eq=False, repr=False)
class InsertLane(Instr):
    result: Temp
    vector: Value
    index: Value
    value: Value


@dataclass(eq=False, repr=False)
class Shuffle(Instr):
    result: Temp
    vector: Value
    lanes: list[int]


@dataclass(eq=False, repr=False)
class Reduce(Instr):
    """Combine all lanes: add mul min max (by element type) and or."""

    result: Temp
    kind: str
    vector: Value


@dataclass(eq=False, repr=False)
class PtrOffset(Instr):
    result: Temp
    ptr: Value
    index: Value


@dataclass(eq=False, repr=False)
class PtrLoad(Instr):
    """ptr[index]; a SIMD result loads that many consecutive elements."""

    result: Temp
    ptr: Value
    index: Value


@dataclass(eq=False, repr=False)
class PtrStore(Instr):
    ptr: Value
    index: Value
    value: Value


@dataclass(eq=False, repr=False)
class Alloc(Instr):
    result: Temp  # Ptr[T]
    count: Value
    align: int = 0  # the byte boundary it starts on (`alloc(n, alignment=64)`); 0: malloc's own


@dataclass(eq=False, repr=False)
class Free(Instr):
    ptr: Value


@dataclass(eq=False, repr=False)
class Call(Instr):
    """If the callee raises and `handler` is set, control goes there instead of leaving the function."""

    result: Temp | None
    callee: str
    args: list[Value]
    handler: Block | None = None


@dataclass(eq=False, repr=False)
class Launch(Instr):
    """Run kernel `callee` over grid x block threads; like a call, it raises if a thread raised."""

    callee: str
    args: list[Value]
    grid: list[Value]
    block: list[Value]
    shared_bytes: Value
    stream: Value  # a CUstream handle; no effect on the CPU, where every launch is synchronous anyway
    handler: Block | None = None


@dataclass(eq=False, repr=False)
class ParallelFor(Instr):
    """Run `callee(lo, hi, piece, *args)` for `chunks` nearly equal pieces [lo, hi) of [0, count) on
    the thread pool. Like a call it raises when an iteration raised: the earliest piece's exception."""

    callee: str
    count: Value
    chunks: Value
    args: list[Value]
    handler: Block | None = None


@dataclass(eq=False, repr=False)
class Intrinsic(Instr):
    """An operation of the table in ops.py (floor, pow, print_*, gpu.barrier, ...): what it takes,
    gives and does, and how each target lowers it, are that table's entry for `name`.
    `attrs` holds its compile-time operands (an index's axis, a shared array's site and size),
    typed as the entry declares."""

    result: Temp | None
    name: str
    args: list[Value]
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass(eq=False, repr=False)
class Load(Instr):
    result: Temp
    var: Var


@dataclass(eq=False, repr=False)
class Store(Instr):
    var: Var
    value: Value


@dataclass(eq=False, repr=False)
class AddressOf(Instr):
    """The address of a variable as a `Ptr` value: what a closure keeps of a variable it shares
    with the function that made it (semantics/closures.py)."""

    result: Temp
    var: Var


@dataclass(eq=False, repr=False)
class BindRef(Instr):
    """From here on, the by-reference variable `var` (no storage of its own) is the memory at
    `ptr`: a closure's variable shared with the function that made it. At the start of `entry`."""

    var: Var
    ptr: Value


@dataclass(eq=False, repr=False)
class FnAddr(Instr):
    """The address (a Ptr[UInt8]) of the entry through which a function value calls `callee`
    (a thunk: semantics/function_values.py); codegen adapts it to the one indirect convention."""

    result: Temp
    callee: str
    direct: bool = False  # the function itself, as a C function pointer (semantics/c_functions.py)


@dataclass(eq=False, repr=False)
class CallFn(Instr):
    """An indirect call through a function value `fn` (its code and environment); it may raise,
    like any call whose callee is not known."""

    result: Temp | None
    fn: Value
    args: list[Value]
    handler: Block | None = None


# ---- terminators ----
@dataclass(eq=False, repr=False)
class Terminator(NodeBase):
    span: Span | None


@dataclass(eq=False, repr=False)
class Jump(Terminator):
    target: Block


@dataclass(eq=False, repr=False)
class Branch(Terminator):
    cond: Value
    then: Block
    orelse: Block


@dataclass(eq=False, repr=False)
class Ret(Terminator):
    value: Value | None


@dataclass(eq=False, repr=False)
class Raise(Terminator):
    """Leave the function with a Python exception of this class and message."""

    exc: str
    message: str
    handler: Block | None = None  # inside a try: go to its except dispatch


@dataclass(eq=False, repr=False)
class Reraise(Terminator):
    """Pass the pending exception on: to `handler`, or out of the function."""

    handler: Block | None = None


@dataclass(eq=False, repr=False)
class Unreachable(Terminator):
    pass


@dataclass(eq=False, repr=False)
class Block(NodeBase):
    label: str
    instrs: list[Instr] = field(default_factory=list)
    term: Terminator | None = None

    def __repr__(self) -> str:
        # Blocks point at each other (jumps, handlers): the default repr would walk the whole
        # graph, and a failing test printing one could take minutes and gigabytes.
        return f"Block({self.label})"

    def successors(self) -> list[Block]:
        out = [i.handler for i in self.instrs
               if isinstance(i, (Call, CallFn, Launch, ParallelFor)) and i.handler is not None]
        if isinstance(self.term, Jump):
            out.append(self.term.target)
        elif isinstance(self.term, Branch):
            out += [self.term.then, self.term.orelse]
        elif isinstance(self.term, (Raise, Reraise)) and self.term.handler is not None:
            out.append(self.term.handler)
        return out


@dataclass(eq=False, repr=False)
class Function(NodeBase):
    symbol: str  # the linker name
    name: str  # the source name, for tracebacks
    file: str
    params: list[Var]
    return_type: Type
    span: Span | None
    vars: list[Var] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    raises: bool = False  # filled by passes.infer_raises
    exported: bool = True
    inline: str | None = None  # "always" | "never" (from @always_inline / @noinline)
    kernel: bool = False  # a @kernel: a GPU entry point
    fastmath: bool = False  # @fastmath: float operations may be reassociated and follow IEEE
    noalias: bool = False  # @noalias: the programmer promises its Ptr arguments do not overlap
    frameless: bool = False  # adds no traceback frame of its own (recursion.guard_recursion's entries)
    # A recursion body's stack-limit parameter (recursion.guard_recursion): codegen passes it in the
    # register the calling convention keeps through the whole recursion.
    recursion_limit: Var | None = None


@dataclass(eq=False, repr=False)
class Module(NodeBase):
    name: str
    file: str
    functions: list[Function] = field(default_factory=list)
    main: str | None = None

    def function(self, symbol: str) -> Function | None:
        for f in self.functions:
            if f.symbol == symbol:
                return f
        return None
