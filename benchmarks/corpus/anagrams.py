WORDS = ["listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog"]


def main():
    groups: dict[str, list[str]] = {}
    for w in WORDS:
        key = "".join(sorted(w))
        if key not in groups:
            groups[key] = []
        groups[key].append(w)
    for key in sorted(groups):
        print(key, groups[key])
    print(len([g for g in groups.values() if len(g) > 1]))


if __name__ == "__main__":
    main()
