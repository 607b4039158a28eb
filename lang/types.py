"""The types every stage shares: scalars, literals, strings, void.

One object per type (interned), so `is` and `==` agree and types can key dicts.
"""
from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Type:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ScalarType(Type):
    kind: str  # "int" | "uint" | "float" | "bool"
    bits: int

    @property
    def is_int(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def is_signed(self) -> bool:
        return self.kind == "int"

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    @property
    def is_numeric(self) -> bool:
        return self.kind in ("int", "uint", "float")

    @property
    def min(self) -> int:
        return -(1 << (self.bits - 1)) if self.is_signed else 0

    @property
    def max(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.is_signed else (1 << self.bits) - 1


@dataclass(frozen=True)
class LiteralType(Type):
    """An untyped constant (`3`, `2.5`, `comptime N = 8`): takes the type its context needs."""

    kind: str  # "int" | "float"


@dataclass(frozen=True)
class OtherType(Type):
    pass


@dataclass(frozen=True)
class SIMDType(Type):
    """`SIMD[dtype, width]`: `width` lanes of a scalar type, one LLVM vector."""

    elem: ScalarType
    width: int


@dataclass(frozen=True)
class PtrType(Type):
    """`Ptr[T]`: an unchecked pointer to values of T, in an address space (0 generic, 3 GPU shared)."""

    pointee: Type
    address_space: int = 0


def ptr(pointee: Type, address_space: int = 0) -> PtrType:
    name = f"Ptr[{pointee}]" if not address_space else f"Ptr[{pointee}, {address_space}]"
    return PtrType(name, pointee, address_space)


@dataclass(frozen=True)
class DTypeValue:
    """A `DType` member (`DType.float32`): a compile-time value naming a scalar type."""

    name: str
    scalar: ScalarType

    def __str__(self) -> str:
        return f"DType.{self.name}"


@dataclass(frozen=True, eq=False)
class StructType(Type):
    """A nominal value type. Its fields are filled in by the checker once resolved.

    Its identity is its declaration (the `struct`/`class` its symbol was made from, the same object
    for every module that imports it) and its compile-time arguments (`ct_env`), as mypy's
    `Instance(info, args)`: two structs called `Point` in two modules are two types, and `List[T]`
    of two generics' stand-ins for T are two types, whatever their names read. `name` and `module`
    are for display (`qualified_name` when two names read the same) and symbols only."""

    module: str
    fields: list[tuple[str, Type]] = field(default_factory=list, compare=False, hash=False, repr=False)
    base: str = field(default="", compare=False, hash=False)  # the struct's own name (`Pair` of `Pair[Int]`)
    # Its compile-time parameters' values, by name.
    ct_env: dict[str, object] = field(default_factory=dict, compare=False, hash=False, repr=False)
    # The StructSymbol it comes from: its methods, whichever module (or alias) it is used through.
    symbol: object = field(default=None, compare=False, hash=False, repr=False)

    def field_index(self, name: str) -> int | None:
        for i, (n, _) in enumerate(self.fields):
            if n == name:
                return i
        return None

    def declaration(self) -> object:
        """What this type is an instance of: its symbol's declaration; a type made without a symbol
        (none is, in the compiler) falls back to its module and name."""
        decl = getattr(self.symbol, "decl", None)
        return decl if decl is not None else (self.module, self.name)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return False
        assert isinstance(other, StructType)
        mine, theirs = self.declaration(), other.declaration()
        if mine is not theirs and not (isinstance(mine, tuple) and mine == theirs):
            return False
        return self.ct_env == other.ct_env

    def __hash__(self) -> int:
        decl = self.declaration()
        return hash(decl) if isinstance(decl, tuple) else id(decl)

    @property
    def qualified_name(self) -> str:
        """The name with the modules of the structs it is made of (`a.Point`, `List[b.Point]`):
        what a message shows where two different types would read the same."""
        args = list(self.ct_env.values())
        if self.name.startswith("<"):  # a function's or generator's type: its name says where it is
            return self.name
        if not args or "[" not in self.name:
            return f"{self.module}.{self.name}" if self.module and not args else self.name
        return f"{self.name[:self.name.index('[')]}[{', '.join(qualified_name(a) for a in args)}]"


def mentions(t: Type, found: Callable[[Type], bool]) -> bool:
    """Whether `found` holds for t or any type among its compile-time arguments, at any depth
    (`List[Point]`, `Tuple[Int, ERROR]`)."""
    if found(t):
        return True
    env = t.ct_env if isinstance(t, StructType) else {}
    return any(isinstance(a, Type) and mentions(a, found) for a in env.values())


@dataclass(frozen=True, eq=False)
class TupleType(StructType):
    """Python's tuple, `Tuple[Int, String]`: a value holding its items by value, one field each
    (`_0`, `_1`, ...). It is an instance of the standard library's struct for its length
    (stdlib/tuple.px), so its methods are that struct's; the name, and so its identity, is
    made of its items' types."""

    @property
    def items(self) -> list[Type]:
        return [t for t in self.ct_env.values() if isinstance(t, Type)]


@dataclass(frozen=True)
class FunctionType(StructType):
    """A function used as a value: one type per function, lambda and nested `def` (per instance
    of the function it is nested in), so a call through it is a direct call and a function taking
    it is compiled once per function passed (semantics/closures.py). Its fields are what a closure
    captured: values, or the addresses of variables it shares with the function that made it."""

    # It holds addresses of `frame`'s variables (an instance's symbol): it must not outlive that call.
    frame: str = field(default="", compare=False, hash=False)


@dataclass(frozen=True, eq=False)
class TypeParamType(StructType):
    """A type parameter inside its generic body while that body is checked before any
    instantiation: a type with exactly what its trait bound requires, and nothing else. Each
    stand-in is its own declaration, so one generic's `T` is never another's."""

    bound: str = field(default="", compare=False)


def type_param_owners(value: object) -> set[str]:
    """The generics whose stand-ins (TypeParamType) a type or compile-time value is or contains."""
    if isinstance(value, TypeParamType):
        return {value.module}
    if isinstance(value, PtrType):
        return type_param_owners(value.pointee)
    if isinstance(value, StructType):
        return set().union(*(type_param_owners(v) for v in value.ct_env.values()))
    return set()


def mentions_type_param(value: object) -> bool:
    return bool(type_param_owners(value))


def qualified_name(value: object) -> str:
    """A type or compile-time value as a message names it where plain names would be ambiguous."""
    if isinstance(value, StructType):
        return value.qualified_name
    if isinstance(value, PtrType):
        inner = qualified_name(value.pointee)
        return f"Ptr[{inner}]" if not value.address_space else f"Ptr[{inner}, {value.address_space}]"
    return str(value)


BOOL = ScalarType("Bool", "bool", 1)
INT8 = ScalarType("Int8", "int", 8)
INT16 = ScalarType("Int16", "int", 16)
INT32 = ScalarType("Int32", "int", 32)
INT64 = ScalarType("Int64", "int", 64)
INT = ScalarType("Int", "int", 64)
UINT8 = ScalarType("UInt8", "uint", 8)
UINT16 = ScalarType("UInt16", "uint", 16)
UINT32 = ScalarType("UInt32", "uint", 32)
UINT64 = ScalarType("UInt64", "uint", 64)
FLOAT16 = ScalarType("Float16", "float", 16)
# Float32's range with 8 significant bits. Stored as its 16 bits: arithmetic happens in Float32
# (ir.bfloat16 rewrites it so before code generation).
BFLOAT16 = ScalarType("BFloat16", "float", 16)
FLOAT32 = ScalarType("Float32", "float", 32)
FLOAT64 = ScalarType("Float64", "float", 64)

INT_LITERAL = LiteralType("IntLiteral", "int")
FLOAT_LITERAL = LiteralType("FloatLiteral", "float")
STRING_LITERAL = OtherType("StringLiteral")
EXCEPTION = OtherType("Exception")  # the value bound by `except ... as e`: its class and message
NONE = OtherType("None")
# The type of an expression that already produced an error: accepted everywhere,
# so one mistake gives one diagnostic.
ERROR = OtherType("<error>")

SCALARS = {t.name: t for t in (BOOL, INT, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64,
                               FLOAT16, BFLOAT16, FLOAT32, FLOAT64)}
# Python's spellings, so annotated Python code is pyx code.
TYPE_NAMES: dict[str, Type] = {**SCALARS, "int": INT, "float": FLOAT64, "bool": BOOL,
                               "str": STRING_LITERAL, "StringLiteral": STRING_LITERAL, "None": NONE}


def default_type(t: Type) -> Type:
    """What an untyped constant becomes when nothing asks for a type."""
    if t == INT_LITERAL:
        return INT
    if t == FLOAT_LITERAL:
        return FLOAT64
    return t


DTYPE = OtherType("DType")
DTYPES = {name: DTypeValue(name, t) for name, t in (
    ("bool", BOOL), ("int8", INT8), ("int16", INT16), ("int32", INT32), ("int64", INT64), ("index", INT),
    ("uint8", UINT8), ("uint16", UINT16), ("uint32", UINT32), ("uint64", UINT64),
    ("float16", FLOAT16), ("bfloat16", BFLOAT16), ("float32", FLOAT32), ("float64", FLOAT64))}
MAX_SIMD_WIDTH = 1024


def dtype_of(t: ScalarType) -> DTypeValue:
    for d in DTYPES.values():
        if d.scalar == t:
            return d
    raise KeyError(t)


def simd(elem: ScalarType, width: int) -> SIMDType:
    return SIMDType(f"SIMD[{dtype_of(elem)}, {width}]", elem, width)


def elem_type(t: Type) -> Type:
    """The scalar a SIMD type is made of; a scalar is its own element."""
    return t.elem if isinstance(t, SIMDType) else t


def mask_of(t: Type) -> Type:
    """What comparing two values of type t gives: Bool, lane by lane for a SIMD."""
    return simd(BOOL, t.width) if isinstance(t, SIMDType) else BOOL


def bfloat16_round(value: float) -> float:
    """The BFloat16 nearest to value (ties to even), as a float; beyond the range, infinity."""
    if value != value or value in (math.inf, -math.inf) or value == 0.0:
        return value
    # Spacing of BFloat16s near value: 8 significant bits, and no finer than the subnormals' 2**-133.
    exponent = max(math.frexp(value)[1], -125)
    step = math.ldexp(1.0, exponent - 8)
    rounded = math.copysign(round(abs(value) / step) * step, value)  # exact: scaling by powers of two
    return rounded if abs(rounded) < 2.0 ** 128 else math.copysign(math.inf, value)


def bfloat16_bits(value: float) -> int:
    """The 16 bits of the BFloat16 nearest to value: the top half of that Float32's bits."""
    if value != value:
        return 0x7FC0
    return int(struct.unpack("<I", struct.pack("<f", bfloat16_round(value)))[0]) >> 16


def bfloat16_from_bits(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0])
