def quicksort(xs: list[int]) -> list[int]:
    if len(xs) <= 1:
        return xs
    pivot = xs[len(xs) // 2]
    left = [x for x in xs if x < pivot]
    mid = [x for x in xs if x == pivot]
    right = [x for x in xs if x > pivot]
    return quicksort(left) + mid + quicksort(right)


def merge_sort(xs: list[int]) -> list[int]:
    if len(xs) <= 1:
        return xs
    half = len(xs) // 2
    a = merge_sort(xs[:half])
    b = merge_sort(xs[half:])
    out = []
    i = 0
    j = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return out


N = 200  # benchmark size: 300000


def main():
    seed = 7
    data = []
    for _ in range(N):
        seed = (seed * 1103515245 + 12345) % 2147483648
        data.append(seed % 1000)
    q = quicksort(data)
    m = merge_sort(data)
    print(q[:10], q == m, q == sorted(data))


if __name__ == "__main__":
    main()
