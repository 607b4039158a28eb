from collections import Counter, defaultdict

TEXT = """the cat sat on the mat . the dog sat on the log . the cat saw the dog .
the dog saw the cat on the mat . a cat and a dog sat on a log by the mat .
the end of the story is not the end of the cat ."""


class Lcg:
    def __init__(self, seed: int):
        self.state = seed

    def next(self) -> int:
        self.state = (self.state * 1103515245 + 12345) % 2147483648
        return self.state

    def below(self, n: int) -> int:
        return (self.next() >> 16) % n


def bigrams(words: list[str]) -> dict[str, Counter[str]]:
    model: dict[str, Counter[str]] = defaultdict(Counter)
    for a, b in zip(words, words[1:]):
        model[a][b] += 1
    return model


def choose(options: Counter[str], rng: Lcg) -> str:
    total = sum(options.values())
    pick = rng.below(total)
    for word in sorted(options):
        pick -= options[word]
        if pick < 0:
            return word
    return ""


def generate(model: dict[str, Counter[str]], start: str, length: int, rng: Lcg) -> list[str]:
    out = [start]
    word = start
    for _ in range(length):
        options = model.get(word)
        if not options:
            break
        word = choose(options, rng)
        out.append(word)
    return out


def main():
    words = TEXT.split()
    print(len(words), "words,", len(set(words)), "distinct")
    freq = Counter(words)
    for word, n in freq.most_common(6):
        print(f"{word!r:>8} {n:2d} {'#' * n}")
    model = bigrams(words)
    for word in sorted(model)[:8]:
        nexts = model[word]
        total = sum(nexts.values())
        probs = ", ".join(f"{w}={c / total:.2f}" for w, c in sorted(nexts.items()))
        print(f"{word:>6} -> {probs}")
    rng = Lcg(42)
    for start in ["the", "a", "dog"]:
        sentence = generate(model, start, 12, rng)
        print(" ".join(sentence))
    print("state", rng.state)
    counts: Counter[str] = Counter()
    rng2 = Lcg(7)
    for _ in range(500):
        counts[choose(model["the"], rng2)] += 1
    print(sorted(counts.items()))
    deadends = [w for w in set(words) if w not in model]
    print("dead ends:", sorted(deadends))
    pairs = Counter(zip(words, words[1:]))
    print(pairs.most_common(3))
    lengths = Counter(len(w) for w in words)
    print(dict(sorted(lengths.items())))


if __name__ == "__main__":
    main()
