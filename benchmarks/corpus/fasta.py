N = 1000  # benchmark size: 250000
IM = 139968
IA = 3877
IC = 29573

ALU = (
    "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGG"
    "GAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGA"
    "CCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAAT"
)


class Random:
    def __init__(self, seed: int):
        self.last = seed

    def next(self, maximum: float) -> float:
        self.last = (self.last * IA + IC) % IM
        return maximum * self.last / IM


def repeat_fasta(header: str, src: str, n: int):
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


def random_fasta(header: str, table: list[tuple[str, float]], n: int, rng: Random):
    print(header)
    probs = []
    acc = 0.0
    for _, p in table:
        acc += p
        probs.append(acc)
    width = 60
    while n > 0:
        line = min(width, n)
        chars = []
        for _ in range(line):
            r = rng.next(1.0)
            for i in range(len(probs)):
                if r < probs[i]:
                    chars.append(table[i][0])
                    break
        print("".join(chars))
        n -= line


def main():
    n = N
    rng = Random(42)
    iub = [("a", 0.27), ("c", 0.12), ("g", 0.12), ("t", 0.27), ("B", 0.02), ("D", 0.02),
           ("H", 0.02), ("K", 0.02), ("M", 0.02), ("N", 0.02), ("R", 0.02), ("S", 0.02),
           ("V", 0.02), ("W", 0.02), ("Y", 0.02)]
    homo = [("a", 0.3029549426680), ("c", 0.1979883004921), ("g", 0.1975473066391), ("t", 0.3015094502008)]
    repeat_fasta(">ONE Homo sapiens alu", ALU, n * 2)
    random_fasta(">TWO IUB ambiguity codes", iub, n * 3, rng)
    random_fasta(">THREE Homo sapiens frequency", homo, n * 5, rng)


if __name__ == "__main__":
    main()
