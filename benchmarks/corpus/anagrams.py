WORDS = ["listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog"]
N = 1  # benchmark size: 400000


def more_words(n: int) -> list[str]:
    """n pseudo-random words over a few letters, so that many are anagrams of each other."""
    letters = "aeilnst"
    seed = 12345
    out = []
    for _ in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        w = ""
        for _ in range(3 + seed % 4):
            seed = (seed * 1103515245 + 12345) % 2147483648
            w += letters[seed % 7]
        out.append(w)
    return out


def main():
    groups: dict[str, list[str]] = {}
    for w in WORDS + more_words(N):
        key = "".join(sorted(w))
        if key not in groups:
            groups[key] = []
        groups[key].append(w)
    for key in sorted(groups)[:12]:
        print(key, groups[key][:6], len(groups[key]))
    print(len(groups), len([g for g in groups.values() if len(g) > 1]))


if __name__ == "__main__":
    main()
