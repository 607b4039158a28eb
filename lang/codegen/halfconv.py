"""Float64 -> Float16 and Float32/Float64 <-> BFloat16 without a runtime library.

On x86 without AVX512-FP16 LLVM lowers `fptrunc double to half` to a call of `__truncdfhf2`, which
lives in compiler-rt/libgcc and which the JIT cannot resolve (the program would jump to null).
Rounding to Float32 first and then to Float16 rounds twice and can be off by one ulp at a tie, so
the first step rounds to odd instead: truncate towards zero, and set the last bit when anything
was dropped. Float32 keeps 13 more bits than Float16, so round-to-odd followed by round-to-nearest
gives the correctly rounded result (Boldo and Melquiond, "When double rounding is odd").
"""
from __future__ import annotations

from llvmlite import ir as ll


def double_to_half(b: ll.IRBuilder, value: ll.Value) -> ll.Value:
    """fptrunc of a double (or a vector of doubles) to half, correctly rounded to nearest even."""
    return b.fptrunc(_double_to_float_odd(b, value), _like(value, ll.HalfType()))


def _like(value: ll.Value, scalar: ll.Type) -> ll.Type:
    return ll.VectorType(scalar, value.type.count) if isinstance(value.type, ll.VectorType) else scalar


def _splat(value: ll.Value, scalar: ll.Type, v) -> ll.Constant:
    ty = _like(value, scalar)
    return ll.Constant(ty, [ll.Constant(scalar, v)] * ty.count) if isinstance(ty, ll.VectorType) else ll.Constant(ty, v)


def _double_to_float_odd(b: ll.IRBuilder, value: ll.Value) -> ll.Value:
    """A double (or vector) rounded to float by round-to-odd: exact enough for a second rounding."""
    f32, i32 = _like(value, ll.FloatType()), _like(value, ll.IntType(32))
    nearest = b.fptrunc(value, f32)
    back = b.fpext(nearest, value.type)
    inexact = b.fcmp_unordered("une", back, value)
    # Rounding to nearest went away from zero: step one float back towards zero (the bit pattern
    # of a float's magnitude is monotonic, so that is the integer minus one).
    zero = _splat(value, ll.DoubleType(), 0.0)
    away = b.select(b.fcmp_ordered("<", value, zero), b.fcmp_ordered("<", back, value),
                    b.fcmp_ordered(">", back, value))
    bits = b.bitcast(nearest, i32)
    one = _splat(value, ll.IntType(32), 1)
    toward_zero = b.select(away, b.sub(bits, one), bits)
    odd = b.select(inexact, b.or_(toward_zero, one), toward_zero)
    return b.bitcast(odd, f32)


def to_bfloat16(b: ll.IRBuilder, value: ll.Value) -> ll.Value:
    """fptrunc of a float or double (or vector) to BFloat16's 16 bits, rounded to nearest even.
    A double goes to float by round-to-odd first: float keeps 16 more bits than BFloat16."""
    element = value.type.element if isinstance(value.type, ll.VectorType) else value.type
    if isinstance(element, ll.DoubleType):
        value = _double_to_float_odd(b, value)
    i32 = ll.IntType(32)
    bits = b.bitcast(value, _like(value, i32))
    high = b.lshr(bits, _splat(value, i32, 16))
    # Adding 0x7FFF, plus one when the kept part is odd, carries into the kept part exactly when
    # the dropped half is above the midpoint, or at it with an odd kept part: ties to even.
    odd = b.and_(high, _splat(value, i32, 1))
    rounded = b.lshr(b.add(b.add(bits, _splat(value, i32, 0x7FFF)), odd), _splat(value, i32, 16))
    quiet_nan = b.or_(high, _splat(value, i32, 0x40))  # rounding a NaN's payload could make it infinity
    is_nan = b.fcmp_unordered("uno", value, value)
    return b.trunc(b.select(is_nan, quiet_nan, rounded), _like(value, ll.IntType(16)))


def from_bfloat16(b: ll.IRBuilder, bits: ll.Value) -> ll.Value:
    """BFloat16's 16 bits (or a vector of them) as the float they are the top half of: exact."""
    i32 = ll.IntType(32)
    wide = b.shl(b.zext(bits, _like(bits, i32)), _splat(bits, i32, 16))
    return b.bitcast(wide, _like(bits, ll.FloatType()))
