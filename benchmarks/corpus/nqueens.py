def solve(n: int) -> int:
    count = 0
    cols: set[int] = set()
    diag1: set[int] = set()
    diag2: set[int] = set()

    def place(row: int):
        nonlocal count
        if row == n:
            count += 1
            return
        for c in range(n):
            if c in cols or row + c in diag1 or row - c in diag2:
                continue
            cols.add(c)
            diag1.add(row + c)
            diag2.add(row - c)
            place(row + 1)
            cols.remove(c)
            diag1.remove(row + c)
            diag2.remove(row - c)

    place(0)
    return count


N = 8  # benchmark size: 10


def main():
    for n in range(1, N + 1):
        print(n, solve(n))


if __name__ == "__main__":
    main()
