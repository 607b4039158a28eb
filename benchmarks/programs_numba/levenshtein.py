# Numba twin of benchmarks/corpus/levenshtein.py: the strings go to compiled code as arrays of
# code points.
import numpy as np
from numba import njit


@njit(cache=True)
def distance_codes(a, b):
    prev = np.arange(len(b) + 1)
    cur = np.empty(len(b) + 1, dtype=np.int64)
    for i in range(1, len(a) + 1):
        cur[0] = i
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        prev, cur = cur, prev
    return prev[len(b)]


def distance(a, b):
    codes = lambda s: np.array([ord(c) for c in s], dtype=np.int64)  # noqa: E731
    return int(distance_codes(codes(a), codes(b)))


N = 1  # benchmark size: 250


def main():
    words = ["kitten", "sitting", "saturday", "sunday", "flaw", "lawn", "", "abc"]
    for i in range(len(words) - 1):
        print(repr(words[i]), repr(words[i + 1]), distance(words[i], words[i + 1]))
    a, b = "kitten" * N, "sitting" * N
    print(len(a), len(b), distance(a, b))


if __name__ == "__main__":
    main()
