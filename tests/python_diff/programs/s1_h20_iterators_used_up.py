def main():
    xs = [1, 2, 3]
    m = map(lambda v: v * 2, xs)
    print(list(m))
    print(list(m))
    f = filter(lambda v: v > 1, xs)
    print(sum(f), sum(f))
    e = enumerate(xs)
    print(list(e), list(e))
    z = zip(xs, xs)
    print(list(z), list(z))
    r = reversed(xs)
    print(list(r), list(r))
    m2 = map(lambda v: v + 1, xs)
    for a in m2:
        print(a)
        break
    print(list(m2))

if __name__ == "__main__":
    main()
