"""The typed tree the checker produces: every expression knows its type, every name its variable."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..node_methods import NodeBase
from ..source import Span
from ..syntax import ast
from ..types import Type, mentions_type_param


@dataclass(eq=False, repr=False)
class LocalVar(NodeBase):
    name: str
    type: Type
    span: Span
    is_param: bool = False
    mutable: bool = True
    id: int = 0
    by_ref: bool = False  # a `mut` argument: reads and writes go to the caller's variable
    owned: bool = True  # the function owns its value (False: a borrowed or `mut` argument, a method's `self`)
    # A module-level variable (semantics/globals.py): its storage is the module's, one for every function.
    global_symbol: str | None = None
    # A float in Python's sense (annotated `float`, or typed by a float value): an int constant bound
    # to it would stay an int in CPython (semantics/python_float.py).
    python_float: bool = False
    # A module-level variable bound to an empty literal nothing in the script types yet: (the
    # literal, the script's FunctionInstance), so a function using it can (empty_literals.py).
    pending_origin: tuple | None = None

    def __repr__(self) -> str:
        return f"{self.name}#{self.id}: {self.type}"


@dataclass(eq=False, repr=False)
class Reference(NodeBase):
    """A name in the source and what the checker resolved it to (for editors: hover, go to definition)."""

    span: Span
    kind: str  # "local" | "param" | "function" | "comptime"
    name: str
    type: Type | None
    target_span: Span | None
    detail: str = ""


@dataclass(eq=False, repr=False)
class FunctionInstance(NodeBase):
    """One monomorphic copy of a `fn`/`def`: its parameter types are fixed."""

    decl: ast.FnDef
    module: str
    param_types: tuple[Type, ...]
    symbol: str
    return_type: Type | None = None  # None while a `def`'s return type is still being inferred
    params: list[LocalVar] = field(default_factory=list)
    locals: list[LocalVar] = field(default_factory=list)
    body: list[TStmt] = field(default_factory=list)
    checked: bool = False
    in_progress: bool = False
    references: list[Reference] = field(default_factory=list)
    owner: Type | None = None  # the struct, for a method
    ct_args: tuple = ()  # compile-time parameter values, in declaration order
    gpu_use: Span | None = None  # where it first uses a GPU-only intrinsic
    callees: list = field(default_factory=list)  # instances it calls (not launches)
    shared_arrays: list = field(default_factory=list)  # (span, element type, count) of each `shared_array`
    drops: dict = field(default_factory=dict)  # struct type with a destructor it holds -> its __del__ instance
    called_at: tuple | None = None  # (span, calling instance) of the call that first needed it
    # `xs = []` with no annotation: the type each such literal (by id of its node) turned out to have,
    # and how many times the check started again to use them (semantics/empty_literals.py).
    empty_hints: dict = field(default_factory=dict)
    retries: int = 0
    raises_text: bool = False  # it raises with a message made at run time
    # Calls of itself (a `def` with no `-> T`) made before a `return` fixed its result type
    # (semantics/recursive_returns.py).
    recursive_calls: list = field(default_factory=list)

    @property
    def is_abstract(self) -> bool:
        """Checked before instantiation, with stand-ins for its type parameters (generic_check.py)."""
        return any(mentions_type_param(v) for v in (*self.ct_args, self.owner))

    @property
    def is_kernel(self) -> bool:
        return any(d.name == "kernel" for d in self.decl.decorators)

    @property
    def name(self) -> str:
        return self.decl.name


# ---- expressions ----
@dataclass(eq=False, repr=False)
class TExpr(NodeBase):
    span: Span
    type: Type


@dataclass(eq=False, repr=False)
class TConst(TExpr):
    value: Any


@dataclass(eq=False, repr=False)
class TLocal(TExpr):
    var: LocalVar


@dataclass(eq=False, repr=False)
class TUnary(TExpr):
    op: str  # "-", "~", "not"
    operand: TExpr


@dataclass(eq=False, repr=False)
class TBinary(TExpr):
    """Both operands have `operand_type`; `type` is the result (differs only for int `/`)."""

    op: str
    left: TExpr
    right: TExpr
    ints: bool = False  # `/` of two ints (Python's message for a zero divisor differs)


@dataclass(eq=False, repr=False)
class TCompare(TExpr):
    """`operands[i] ops[i] operands[i+1]`, each link compared at `link_types[i]`."""

    operands: list[TExpr]
    ops: list[str]
    link_types: list[Type]


@dataclass(eq=False, repr=False)
class TBoolOp(TExpr):
    op: str  # "and" | "or": Python's, returning an operand
    values: list[TExpr]


@dataclass(eq=False, repr=False)
class TIfExp(TExpr):
    test: TExpr
    body: TExpr
    orelse: TExpr


@dataclass(eq=False, repr=False)
class TCall(TExpr):
    callee: FunctionInstance
    args: list[TExpr]


@dataclass(eq=False, repr=False)
class TDictLit(TExpr):
    """`{k: v, ...}`: a new Dict (its type), built by its `__init__` and `__setitem__`."""

    init: TCall
    setitem: FunctionInstance
    keys: list[TExpr]
    values: list[TExpr]


@dataclass(eq=False, repr=False)
class TListLit(TExpr):
    """`[a, b, c]`: a new List (its type) holding the elements."""

    elts: list[TExpr]


@dataclass(eq=False, repr=False)
class TCopy(TExpr):
    """A copy of a struct whose fields with destructors are copied by the given expressions
    (which read the same place again); the other fields are copied bit for bit."""

    value: TExpr
    fields: dict  # field index -> TExpr making that field's copy


@dataclass(eq=False, repr=False)
class TMove(TExpr):
    """`x^` (or `return x`): the variable's value, which the variable gives up."""

    var: LocalVar


@dataclass(eq=False, repr=False)
class TField(TExpr):
    base: TExpr
    index: int


@dataclass(eq=False, repr=False)
class FieldTarget(NodeBase):
    """`v.a.b = x`: store into field path [a, b] of variable v."""

    var: LocalVar
    path: list[int]
    type: Type


@dataclass(eq=False, repr=False)
class TSplat(TExpr):
    """A scalar copied into every lane."""

    value: TExpr


@dataclass(eq=False, repr=False)
class TVector(TExpr):
    """A SIMD value from one scalar per lane."""

    elements: list[TExpr]


@dataclass(eq=False, repr=False)
class TLane(TExpr):
    vector: TExpr
    index: TExpr


@dataclass(eq=False, repr=False)
class TSIMDOp(TExpr):
    """reduce_add/mul/min/max, fma, select, shuffle (with `lanes`)."""

    op: str
    args: list[TExpr]
    lanes: list[int] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class LaneTarget(NodeBase):
    """`v[i] = x` on a SIMD variable."""

    var: LocalVar
    index: TExpr
    type: Type


@dataclass(eq=False, repr=False)
class TPtrOp(TExpr):
    """alloc(count[, alignment: a TConst]) | free(p) | offset(p, n) | load(p, i) | store(p, i, v) | bitcast(p)
    | prefetch(p, i)."""

    op: str
    args: list[TExpr]


@dataclass(eq=False, repr=False)
class TMath(TExpr):
    """A `math` function; `checked` raises Python's domain and range errors (scalars only)."""

    op: str
    args: list[TExpr]
    checked: bool


@dataclass(eq=False, repr=False)
class TGpu(TExpr):
    """A GPU intrinsic: thread_idx.x, barrier(), shared_array, atomics, lane_id."""

    op: str
    args: list[TExpr] = field(default_factory=list)
    site: int = 0  # shared_array: which declaration (each has its own memory)
    count: int = 0  # shared_array: number of elements


@dataclass(eq=False, repr=False)
class TRef(TExpr):
    """The caller's variable itself, passed to a `mut` parameter."""

    var: LocalVar


@dataclass(eq=False, repr=False)
class TFieldRef(TExpr):
    """A field of a variable passed to a `mut` parameter (a method's `mut self`, say): the call
    gets a copy of it to change, and the copy is stored back into the field afterwards,
    also when the call raises."""

    target: FieldTarget


@dataclass(eq=False, repr=False)
class TLend(TExpr):
    """An element of a container changed in place (`xs[i].append(v)`, `g[i][j] = v`,
    `bs[i].vx = v`): `ptr` is the container's `__refitem__` (the element's address, checked), the
    element's bits are lent to `slot` for `inner` (an expression) or `body` (statements), and
    stored back afterwards, also when they raise, as a field lent to a `mut` argument is."""

    slot: LocalVar
    ptr: TExpr
    inner: TExpr | None = None
    body: list = field(default_factory=list)


@dataclass(eq=False, repr=False)
class TConvert(TExpr):
    """A numeric conversion; `checked` raises on NaN, infinity and out-of-range (Python's int())."""

    value: TExpr
    checked: bool = False


@dataclass(eq=False, repr=False)
class TStmtExpr(TExpr):
    """Statements, then a value: a comprehension, or a builtin consuming a generator expression,
    as the loop the checker made of it (semantics/comprehensions.py). `result` reads the variable
    the loop filled (a TMove where the value has a destructor)."""

    body: list[TStmt]
    result: TExpr
    # A conditional expression of a type with a destructor (expressions.py `owning_branches`):
    # the two values it chooses between, whose sharing sharing.py follows as it follows a TIfExp's.
    branches: tuple = ()


@dataclass(eq=False, repr=False)
class TClosure(TExpr):
    """A function as a value (its type a FunctionType): what it captured, one value per field
    (semantics/closures.py); nothing for a function that captures nothing."""

    values: list[TExpr]


@dataclass(eq=False, repr=False)
class TAddress(TExpr):
    """The address of a variable (a Ptr), kept by a closure that shares the variable."""

    var: LocalVar


@dataclass(eq=False, repr=False)
class TBuiltin(TExpr):
    name: str  # "abs" | "min" | "max" | "truth"
    args: list[TExpr]


# ---- statements ----
@dataclass(eq=False, repr=False)
class TStmt(NodeBase):
    span: Span


@dataclass(eq=False, repr=False)
class TBindRef(TStmt):
    """A closure's variable shared with the function that made it: `var` (by reference) refers to
    the address `ptr` holds from here on (semantics/closures.py)."""

    var: LocalVar
    ptr: TExpr


@dataclass(eq=False, repr=False)
class TAssign(TStmt):
    targets: list[LocalVar | FieldTarget | LaneTarget]
    values: list[TExpr]  # all evaluated before any target is stored: `a, b = b, a`


@dataclass(eq=False, repr=False)
class TExprStmt(TStmt):
    expr: TExpr


@dataclass(eq=False, repr=False)
class TIf(TStmt):
    test: TExpr
    body: list[TStmt]
    orelse: list[TStmt]


@dataclass(eq=False, repr=False)
class TWhile(TStmt):
    test: TExpr
    body: list[TStmt]


@dataclass(eq=False, repr=False)
class TForRange(TStmt):
    var: LocalVar
    start: TExpr
    stop: TExpr
    step: TExpr
    body: list[TStmt]
    parallel: bool = False  # `prange`: iterations spread over the thread pool
    captures: list[LocalVar] = field(default_factory=list)  # outer variables the body reads
    reductions: list[tuple[LocalVar, str]] = field(default_factory=list)  # (variable, op)


@dataclass(eq=False, repr=False)
class TBreak(TStmt):
    pass


@dataclass(eq=False, repr=False)
class TContinue(TStmt):
    pass


@dataclass(eq=False, repr=False)
class TReturn(TStmt):
    value: TExpr | None


@dataclass(eq=False, repr=False)
class TAssert(TStmt):
    test: TExpr
    message: str | None
    text: TExpr | None = None  # a message made at run time (a String), evaluated only on failure


@dataclass(eq=False, repr=False)
class TPrint(TStmt):
    args: list[TExpr]
    sep: str
    end: str


@dataclass(eq=False, repr=False)
class TBlock(TStmt):
    """Statements the checker made from one source statement (`p[i] += v` reads i once)."""

    body: list[TStmt]


@dataclass(eq=False, repr=False)
class TRaise(TStmt):
    exc: str | None  # None: re-raise what is being handled
    message: str
    value: TExpr | None = None  # `raise e` of a caught exception
    text: TExpr | None = None  # a message made at run time: a String
    payload: TExpr | None = None  # the object of an exception class with data: a Ptr[Int] to it
    drop: str = ""  # with a payload: its handle's `__del__` (symbol), given the exception's reference back
    kind: TExpr | None = None  # with a text: its class's name made at run time (`raise err`: exception_values.py)
    shown: TExpr | None = None  # with a text: how its arguments show, where not one str (runtime_exc.px `shown`)


@dataclass(eq=False, repr=False)
class THandler(NodeBase):
    classes: set[str] | None  # None catches everything
    var: LocalVar | None
    body: list[TStmt]
    span: Span | None = None  # `except ZeroDivisionError` (where E0913 points on a GPU target)


@dataclass(eq=False, repr=False)
class TTry(TStmt):
    body: list[TStmt]
    handlers: list[THandler]
    orelse: list[TStmt]
    finalbody: list[TStmt]


@dataclass(eq=False, repr=False)
class TLaunch(TStmt):
    call: TCall  # the kernel and its checked arguments
    grid: list[TExpr]  # x, y, z
    block: list[TExpr]
    shared_bytes: TExpr
    stream: TExpr
