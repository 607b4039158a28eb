def bisect_left(xs: list[int], x: int) -> int:
    lo = 0
    hi = len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def main():
    xs = [i * 3 for i in range(50)]
    for x in [-1, 0, 1, 3, 75, 147, 148, 1000]:
        i = bisect_left(xs, x)
        found = i < len(xs) and xs[i] == x
        print(x, i, found)


if __name__ == "__main__":
    main()
