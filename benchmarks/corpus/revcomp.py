COMPLEMENT = {"A": "T", "C": "G", "G": "C", "T": "A", "N": "N"}


def reverse_complement(seq: str) -> str:
    out = []
    for i in range(len(seq) - 1, -1, -1):
        out.append(COMPLEMENT[seq[i]])
    return "".join(out)


N = 13  # benchmark size: 200000


def main():
    seq = "ACGTTGCAAN" * N
    rc = reverse_complement(seq)
    for i in range(0, len(rc), 60):
        print(rc[i:i + 60])


if __name__ == "__main__":
    main()
