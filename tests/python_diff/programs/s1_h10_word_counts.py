def main():
    d = {}
    for w in "the cat and the hat and the bat".split():
        d[w] = d.get(w, 0) + 1
    print(d)
    print(sorted(d.items(), key=lambda kv: (-kv[1], kv[0])))
    inv = {v: k for k, v in d.items()}
    print(inv)
    print(d.pop("cat"), "cat" in d, len(d))
    d2 = d.copy()
    d2["new"] = 1
    print(d, d2)
    print(list(zip(d.keys(), d.values())))

if __name__ == "__main__":
    main()
