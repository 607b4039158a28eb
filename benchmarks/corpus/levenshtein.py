def distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        prev = cur
    return prev[len(b)]


N = 1  # benchmark size: 250


def main():
    words = ["kitten", "sitting", "saturday", "sunday", "flaw", "lawn", "", "abc"]
    for i in range(len(words) - 1):
        print(repr(words[i]), repr(words[i + 1]), distance(words[i], words[i + 1]))
    a, b = "kitten" * N, "sitting" * N
    print(len(a), len(b), distance(a, b))


if __name__ == "__main__":
    main()
