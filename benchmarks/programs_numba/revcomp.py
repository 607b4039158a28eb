# Numba twin of benchmarks/corpus/revcomp.py: the sequence goes to compiled code as bytes, and a
# 256-entry table gives each byte's complement.
import numpy as np
from numba import njit

COMPLEMENT = {"A": "T", "C": "G", "G": "C", "T": "A", "N": "N"}
TABLE = np.zeros(256, dtype=np.uint8)
for base, other in COMPLEMENT.items():
    TABLE[ord(base)] = ord(other)


@njit(cache=True)
def reverse_complement_bytes(seq, table):
    n = len(seq)
    out = np.empty(n, dtype=np.uint8)
    for i in range(n):
        out[i] = table[seq[n - 1 - i]]
    return out


def reverse_complement(seq):
    codes = np.frombuffer(seq.encode("ascii"), dtype=np.uint8)
    return reverse_complement_bytes(codes, TABLE).tobytes().decode("ascii")


N = 13  # benchmark size: 200000


def main():
    seq = "ACGTTGCAAN" * N
    rc = reverse_complement(seq)
    for i in range(0, len(rc), 60):
        print(rc[i:i + 60])


if __name__ == "__main__":
    main()
