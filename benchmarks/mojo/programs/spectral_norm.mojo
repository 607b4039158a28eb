# Mojo twin of benchmarks/corpus/spectral_norm.py; `spectral_norm [N]` (N: the program's size).
from std.sys import argv
from std.math import sqrt


def eval_a(i: Int, j: Int) -> Float64:
    return 1.0 / Float64((i + j) * (i + j + 1) // 2 + i + 1)


def eval_a_times_u(u: List[Float64]) -> List[Float64]:
    var n = len(u)
    var out = List[Float64](capacity=n)
    for i in range(n):
        var s = 0.0
        for j in range(n):
            s += eval_a(i, j) * u[j]
        out.append(s)
    return out^


def eval_at_times_u(u: List[Float64]) -> List[Float64]:
    var n = len(u)
    var out = List[Float64](capacity=n)
    for i in range(n):
        var s = 0.0
        for j in range(n):
            s += eval_a(j, i) * u[j]
        out.append(s)
    return out^


def eval_ata_times_u(u: List[Float64]) -> List[Float64]:
    return eval_at_times_u(eval_a_times_u(u))


def fixed(x: Float64, digits: Int) -> String:
    """`"%.{digits}f" % x` for 0 <= x * 10**digits < 2**52, rounded as Python rounds it: to the nearest
    of the exact binary value, ties to even (Mojo's String has no printf-style format). x * scale
    is p + e exactly (e from an FMA), and p's fraction decides unless it is one half."""
    var scale = Float64(10**digits)
    var p = x * scale
    var e = x.fma(scale, -p)
    var whole = Int(p)  # p >= 0: the floor
    var half = p - Float64(whole)  # exact
    if half > 0.5 or (half == 0.5 and (e > 0.0 or (e == 0.0 and whole % 2 == 1))):
        whole += 1
    var frac = String(whole % 10**digits)
    while frac.byte_length() < digits:
        frac = "0" + frac
    return String(whole // 10**digits) + "." + frac


def main() raises:
    var n = 100
    if len(argv()) > 1:
        n = atol(argv()[1])
    var u = List[Float64](length=n, fill=1.0)
    var v = u.copy()
    for _ in range(10):
        v = eval_ata_times_u(u)
        u = eval_ata_times_u(v)
    var vbv = 0.0
    var vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    print(fixed(sqrt(vbv / vv), 9))
