# Numba twin of benchmarks/corpus/knucleotide.py: the sequence is made in compiled code as base
# codes 0-3 (A, C, G, T), and each k-mer is counted at its base-4 number in an array of 4**k
# counts; Python turns the counts back into fragments to sort and print them.
import numpy as np
from numba import njit

LETTERS = "ACGT"


@njit(cache=True)
def make_codes(n):
    seed = 42
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        seed = (seed * 3877 + 29573) % 139968
        out[i] = seed * 4 // 139968
    return out


@njit(cache=True)
def kmer_counts(codes, k):
    counts = np.zeros(4 ** k, dtype=np.int64)
    for i in range(len(codes) - k + 1):
        key = 0
        for j in range(k):
            key = key * 4 + codes[i + j]
        counts[key] += 1
    return counts


def fragment(key, k):
    out = []
    for _ in range(k):
        out.append(LETTERS[key % 4])
        key //= 4
    return "".join(reversed(out))


def frequencies(codes, k):
    counts = kmer_counts(codes, k)
    return {fragment(key, k): int(counts[key]) for key in np.nonzero(counts)[0]}


N = 5000  # benchmark size: 1000000


def main():
    codes = make_codes(N)
    for k in (1, 2):
        freqs = frequencies(codes, k)
        total = sum(freqs.values())
        for frag, count in sorted(freqs.items(), key=lambda kv: (-kv[1], kv[0])):
            print("%s %.3f" % (frag, 100.0 * count / total))  # noqa: UP031 - the line of the Python program
        print()
    for frag in ("GGT", "GGTA", "GGTATT"):
        counts = frequencies(codes, len(frag))
        print("%d\t%s" % (counts.get(frag, 0), frag))  # noqa: UP031 - the line of the Python program


if __name__ == "__main__":
    main()
