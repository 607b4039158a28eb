def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


def take(n: int, gen) -> list[int]:
    out = []
    for x in gen:
        if len(out) == n:
            break
        out.append(x)
    return out


def evens(limit: int):
    for i in range(limit):
        if i % 2 == 0:
            yield i


def main():
    print(take(10, fib()))
    print(list(evens(10)), sum(evens(100)))


if __name__ == "__main__":
    main()
