# Numba twin of benchmarks/corpus/sieve.py: the sieve on a NumPy boolean array.
import numpy as np
from numba import njit


@njit(cache=True)
def primes_up_to(n):
    is_prime = np.ones(n + 1, dtype=np.bool_)
    is_prime[0] = False
    is_prime[1] = False
    i = 2
    while i * i <= n:
        if is_prime[i]:
            for j in range(i * i, n + 1, i):
                is_prime[j] = False
        i += 1
    return np.nonzero(is_prime)[0]


N = 10000  # benchmark size: 5000000


def main():
    ps = primes_up_to(N)
    print(len(ps), ps[:10].tolist(), ps[-3:].tolist())
    print(int(ps.sum()))


if __name__ == "__main__":
    main()
