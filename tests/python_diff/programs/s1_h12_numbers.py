def f(n: int) -> int:
    if n <= 1:
        return n
    return f(n - 1) + f(n - 2)

def main():
    print([f(i) for i in range(15)])
    print(10 ** 18, 2 ** 62, -2 ** 3, (-2) ** 3, 7 ** 0)
    print(int("42") + int(" -3 "), int(3.9), int(-3.9), float("1e3"), abs(-5), abs(-2.5))
    print(1 / 3, 10 / 5, 2 ** 0.5, 9 ** 0.5, 2 ** 10, max(1.0, 2.5), min(3, 2))
    print(True + True, 3 * False, 1 == 1.0, hash(1) == hash(1.0), 0.1 + 0.2 == 0.3)

if __name__ == "__main__":
    main()
