"""Small word puzzles: anagram pairs, the words a set of tiles spells, and letter pair scores."""
from itertools import combinations, permutations

WORDS = ["listen", "silent", "enlist", "google", "tinsel", "banana", "inlets", "act", "cat", "tac"]


def main():
    groups = {}
    for w in WORDS:
        groups.setdefault("".join(sorted(w)), []).append(w)
    for key, members in sorted(groups.items()):
        if len(members) > 1:
            print(key, members)
    tiles = "tca"
    spelled = sorted(set("".join(p) for p in permutations(tiles, 3)) & set(WORDS))
    print(spelled)
    pairs = [(a, b) for a, b in combinations(WORDS[:4], 2) if sorted(a) == sorted(b)]
    print(pairs)
    scores = {w: sum(ord(c) - 96 for c in w) for w in WORDS}
    best = max(scores, key=scores.get)
    print(best, scores[best])
    print([w for w in WORDS if w.startswith(("s", "t")) or w.endswith(("le", "na"))])


if __name__ == "__main__":
    main()
