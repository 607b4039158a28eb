def bump(d: dict[str, list[int]], k: str):
    if k not in d:
        d[k] = []
    d[k].append(len(d[k]))

def main():
    d: dict[str, list[int]] = {}
    for k in "abacab":
        bump(d, k)
    print(d)
    grid = [[0] * 3 for _ in range(2)]
    grid[1][2] = 5
    for row in grid:
        print(row, sum(row))
    t = (1, [2, 3])
    print(t, len(t))

if __name__ == "__main__":
    main()
