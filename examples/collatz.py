# The Python twin of collatz.px: the same program over dict and list.


def chain_length(start, known):
    path = []
    n = start
    while n != 1 and n not in known:
        path.append(n)
        n = n // 2 if n % 2 == 0 else 3 * n + 1
    length = 1 if n == 1 else known[n]
    while len(path) > 0:
        length += 1
        known[path.pop()] = length
    return length


def main():
    known = {}
    records = []
    best = 0
    for start in range(1, 100000):
        length = chain_length(start, known)
        if length > best:
            best = length
            records.append(start)
    print("longest chain below 100000 starts at", records[-1], "with", best, "numbers")
    print("record holders:", len(records), "first ones:", records[0], records[1], records[2], records[3])
    print("lengths known:", len(known))


if __name__ == "__main__":
    main()
