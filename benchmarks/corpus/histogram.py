"""Word and letter histograms of a paragraph, drawn with bars."""
from collections import Counter

TEXT = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity,
it was the season of Light, it was the season of Darkness"""


def words(text):
    out = []
    for raw in text.split():
        w = raw.strip(".,;:!?").lower()
        if w:
            out.append(w)
    return out


def main():
    counts = Counter(words(TEXT))
    width = max(len(w) for w in counts)
    for word, n in counts.most_common(6):
        print(f"{word:<{width}} | {'#' * n} {n}")
    letters = Counter(c for c in TEXT.lower() if c.isalpha())
    top = sorted(letters.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    total = sum(letters.values())
    for letter, n in top:
        print("%s %5.1f%% %s" % (letter, 100.0 * n / total, "*" * (n // 4)))


if __name__ == "__main__":
    main()
