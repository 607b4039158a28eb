"""Float64 -> Float16 without a runtime library.

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
    vector = isinstance(value.type, ll.VectorType)
    width = value.type.count if vector else None

    def ty(scalar: ll.Type) -> ll.Type:
        return ll.VectorType(scalar, width) if vector else scalar

    def const(scalar: ll.Type, v) -> ll.Constant:
        return ll.Constant(ty(scalar), [v] * width if vector else v)

    f32, i32 = ty(ll.FloatType()), ty(ll.IntType(32))
    nearest = b.fptrunc(value, f32)
    back = b.fpext(nearest, value.type)
    inexact = b.fcmp_unordered("une", back, value)
    # Rounding to nearest went away from zero: step one float back towards zero (the bit pattern
    # of a float's magnitude is monotonic, so that is the integer minus one).
    zero = const(value.type.element if vector else value.type, 0.0)
    away = b.select(b.fcmp_ordered("<", value, zero), b.fcmp_ordered("<", back, value),
                    b.fcmp_ordered(">", back, value))
    bits = b.bitcast(nearest, i32)
    toward_zero = b.select(away, b.sub(bits, const(ll.IntType(32), 1)), bits)
    odd = b.select(inexact, b.or_(toward_zero, const(ll.IntType(32), 1)), toward_zero)
    return b.fptrunc(b.bitcast(odd, f32), ty(ll.HalfType()))
