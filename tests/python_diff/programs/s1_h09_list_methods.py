def main():
    xs = [5, 3, 8, 1]
    xs.sort(reverse=True)
    print(xs, sorted(xs, key=lambda v: -v), max(xs), min(xs, key=lambda v: abs(v - 4)))
    xs.insert(1, 9)
    xs.remove(8)
    p1 = xs.pop()
    p2 = xs.pop(0)
    print(xs, p1, p2, xs.index(3), xs.count(3))
    print(list(reversed(xs)), xs[::-1], xs * 2, xs + [0], 3 in xs, [x for x in xs if x > 2])
    del xs[0]
    print(xs, sum(xs), any(x > 4 for x in xs), all(xs))
    ys = list(range(10))
    ys[2:5] = [0]
    print(ys, ys[1:8:3])

if __name__ == "__main__":
    main()
