# Numba twin of benchmarks/corpus/fannkuch.py: the same permutation walk on NumPy arrays.
import numpy as np
from numba import njit


@njit(cache=True)
def fannkuch(n):
    perm1 = np.arange(n)
    perm = np.empty(n, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    max_flips = 0
    checksum = 0
    r = n
    perm_count = 0
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        perm[:] = perm1
        flips = 0
        k = perm[0]
        while k != 0:
            i, j = 0, k
            while i < j:
                perm[i], perm[j] = perm[j], perm[i]
                i += 1
                j -= 1
            flips += 1
            k = perm[0]
        if flips > max_flips:
            max_flips = flips
        checksum += flips if perm_count % 2 == 0 else -flips
        while True:
            if r == n:
                return checksum, max_flips
            p0 = perm1[0]
            for i in range(r):
                perm1[i] = perm1[i + 1]
            perm1[r] = p0
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        perm_count += 1


N = 7  # benchmark size: 9


def main():
    n = N
    checksum, flips = fannkuch(n)
    print(checksum)
    print(f"Pfannkuchen({n}) = {flips}")


if __name__ == "__main__":
    main()
