def make_sequence(n: int) -> str:
    seed = 42
    letters = "ACGT"
    out = []
    for _ in range(n):
        seed = (seed * 3877 + 29573) % 139968
        out.append(letters[seed * 4 // 139968])
    return "".join(out)


def frequencies(seq: str, k: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for i in range(len(seq) - k + 1):
        frag = seq[i:i + k]
        counts[frag] = counts.get(frag, 0) + 1
    return counts


N = 5000  # benchmark size: 1000000


def main():
    seq = make_sequence(N)
    for k in (1, 2):
        freqs = frequencies(seq, k)
        total = sum(freqs.values())
        for frag, count in sorted(freqs.items(), key=lambda kv: (-kv[1], kv[0])):
            print("%s %.3f" % (frag, 100.0 * count / total))
        print()
    for frag in ("GGT", "GGTA", "GGTATT"):
        counts = frequencies(seq, len(frag))
        print("%d\t%s" % (counts.get(frag, 0), frag))


if __name__ == "__main__":
    main()
