def main():
    groups = {"a": [1, 2], "b": [3]}
    groups["a"].append(9)
    groups.setdefault("c", []).append(4)
    for k in sorted(groups):
        print(k, groups[k], len(groups[k]))
    lst = [{"x": 1}, {"x": 2}]
    lst[0]["x"] += 10
    print(lst)

if __name__ == "__main__":
    main()
