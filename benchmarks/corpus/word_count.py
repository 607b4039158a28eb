TEXT = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity,
it was the season of Light, it was the season of Darkness"""
N = 1  # benchmark size: 20000


def main():
    counts: dict[str, int] = {}
    text = "\n".join([TEXT] * N)
    for line in text.splitlines():
        for word in line.split():
            w = word.strip(",.").lower()
            counts[w] = counts.get(w, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    for word, n in top:
        print(f"{word:>8} {n}")
    print(len(counts), max(counts, key=counts.get))


if __name__ == "__main__":
    main()
