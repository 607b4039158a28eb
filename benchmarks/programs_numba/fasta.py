# Numba twin of benchmarks/corpus/fasta.py: the random sequences are generated in compiled code as
# byte arrays (the generator's state is a one-element array, shared by both calls); Python prints
# them 60 to a line.
import numpy as np
from numba import njit

N = 1000  # benchmark size: 250000
IM = 139968
IA = 3877
IC = 29573

ALU = (
    "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGG"
    "GAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGA"
    "CCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAAT"
)


@njit(cache=True)
def random_bytes(codes, probs, n, state):
    out = np.empty(n, dtype=np.uint8)
    for k in range(n):
        state[0] = (state[0] * IA + IC) % IM
        r = 1.0 * state[0] / IM
        for i in range(len(probs)):
            if r < probs[i]:
                out[k] = codes[i]
                break
    return out


def repeat_fasta(header, src, n):
    print(header)
    width = 60
    pos = 0
    length = len(src)
    s = src + src[:width]
    while n > 0:
        line = min(width, n)
        print(s[pos:pos + line])
        pos += line
        if pos > length:
            pos -= length
        n -= line


def random_fasta(header, table, n, state):
    print(header)
    probs = np.cumsum([p for _, p in table])
    codes = np.array([ord(c) for c, _ in table], dtype=np.uint8)
    text = random_bytes(codes, probs, n, state).tobytes().decode()
    for start in range(0, n, 60):
        print(text[start:start + 60])


def main():
    n = N
    state = np.array([42], dtype=np.int64)
    iub = [("a", 0.27), ("c", 0.12), ("g", 0.12), ("t", 0.27), ("B", 0.02), ("D", 0.02),
           ("H", 0.02), ("K", 0.02), ("M", 0.02), ("N", 0.02), ("R", 0.02), ("S", 0.02),
           ("V", 0.02), ("W", 0.02), ("Y", 0.02)]
    homo = [("a", 0.3029549426680), ("c", 0.1979883004921), ("g", 0.1975473066391), ("t", 0.3015094502008)]
    repeat_fasta(">ONE Homo sapiens alu", ALU, n * 2)
    random_fasta(">TWO IUB ambiguity codes", iub, n * 3, state)
    random_fasta(">THREE Homo sapiens frequency", homo, n * 5, state)


if __name__ == "__main__":
    main()
