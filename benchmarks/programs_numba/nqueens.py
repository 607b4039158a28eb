# Numba twin of benchmarks/corpus/nqueens.py: Numba compiles no closures over `nonlocal` state, so
# the columns and diagonals in use are boolean arrays passed down the recursion. No cache=True: a
# recursive function loaded from Numba's cache crashes (numba/numba#6061; here a segfault on 2 of
# 3 warm runs), so both functions compile on every run.
import numpy as np
from numba import njit


@njit
def place(row, n, cols, diag1, diag2):
    if row == n:
        return 1
    count = 0
    for c in range(n):
        if cols[c] or diag1[row + c] or diag2[row - c + n]:
            continue
        cols[c] = True
        diag1[row + c] = True
        diag2[row - c + n] = True
        count += place(row + 1, n, cols, diag1, diag2)
        cols[c] = False
        diag1[row + c] = False
        diag2[row - c + n] = False
    return count


@njit
def solve(n):
    return place(0, n, np.zeros(n, dtype=np.bool_), np.zeros(2 * n, dtype=np.bool_),
                 np.zeros(2 * n + 1, dtype=np.bool_))


N = 8  # benchmark size: 10


def main():
    for n in range(1, N + 1):
        print(n, solve(n))


if __name__ == "__main__":
    main()
