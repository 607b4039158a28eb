# Numba twin of benchmarks/corpus/matmul_lists.py: the same triple loop on NumPy arrays, and the
# same row-by-row sum.
import numpy as np
from numba import njit


@njit(cache=True)
def matmul(a, b):
    n, k = a.shape
    m = b.shape[1]
    c = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for p in range(k):
                s += a[i, p] * b[p, j]
            c[i, j] = s
    return c


@njit(cache=True)
def total(c):
    t = 0.0
    for i in range(c.shape[0]):
        s = 0.0
        for j in range(c.shape[1]):
            s += c[i, j]
        t += s
    return t


N = 40  # benchmark size: 250


def main():
    n = N
    a = np.array([[float(i * n + j) / n for j in range(n)] for i in range(n)])
    b = np.array([[float(i - j) for j in range(n)] for i in range(n)])
    c = matmul(a, b)
    print(float(c[0, 0]), float(c[n - 1, n - 1]), total(c))


if __name__ == "__main__":
    main()
