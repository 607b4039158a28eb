"""Word frequencies of a generated text: split, lower-case, count in a dict, report. The same
file runs under CPython (`python wordfreq.py`) and pyx (`pyx run wordfreq.py`)."""

def make_text(n: int) -> str:
    """n words chosen by a linear congruential generator, with punctuation now and then."""
    words = ["the", "quick", "Brown", "fox", "jumps", "over", "lazy", "dog", "and", "runs", "far", "away"]
    parts: list[str] = []
    state = 12345
    for i in range(n):
        state = (state * 1103515245 + 12345) % 2147483648
        word = words[state % 12]
        if state % 7 == 0:
            word = word + ","
        parts.append(word)
    return " ".join(parts)


def count_words(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for raw in text.split():
        word = raw.strip().replace(",", "").lower()
        counts[word] = counts.get(word, 0) + 1
    return counts


def main():
    text = make_text(200000)
    counts = count_words(text)
    print(len(text), len(counts))
    print(counts)
    longest = ""
    for word in counts.keys():
        if len(word) > len(longest) or (len(word) == len(longest) and word < longest):
            longest = word
    print(longest, counts[longest])


if __name__ == "__main__":
    main()
