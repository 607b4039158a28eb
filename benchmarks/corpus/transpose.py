def transpose(m: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*m)]


def main():
    m = [[1, 2, 3], [4, 5, 6]]
    t = transpose(m)
    print(t)
    for i, row in enumerate(t):
        print(i, sum(row), row[::-1])
    pairs = list(zip([1, 2, 3], "abc"))
    print(pairs, dict(pairs))


if __name__ == "__main__":
    main()
