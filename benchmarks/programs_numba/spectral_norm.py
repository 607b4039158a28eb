# Numba twin of benchmarks/corpus/spectral_norm.py: the same sums in the same order, on NumPy arrays.
import math

import numpy as np
from numba import njit


@njit(cache=True)
def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


@njit(cache=True)
def eval_a_times_u(u):
    n = len(u)
    out = np.empty(n)
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(i, j) * u[j]
        out[i] = s
    return out


@njit(cache=True)
def eval_at_times_u(u):
    n = len(u)
    out = np.empty(n)
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(j, i) * u[j]
        out[i] = s
    return out


@njit(cache=True)
def eval_ata_times_u(u):
    return eval_at_times_u(eval_a_times_u(u))


N = 100  # benchmark size: 500


def main():
    n = N
    u = np.ones(n)
    v = u
    for _ in range(10):
        v = eval_ata_times_u(u)
        u = eval_ata_times_u(v)
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    print("%0.9f" % math.sqrt(vbv / vv))  # noqa: UP031 - the line of the Python program it twins


if __name__ == "__main__":
    main()
