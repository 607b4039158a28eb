def gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def factorize(n: int) -> list[int]:
    out = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


def main():
    print(gcd(1071, 462), gcd(17, 5), 1071 * 462 // gcd(1071, 462))
    for n in [360, 97, 1001, 2 ** 20, 600851475143]:
        print(n, factorize(n))
    print(divmod(-7, 2), -7 // 2, -7 % 2, 7 % -3)
    print(pow(3, 200, 1000007), 2 ** 70)


if __name__ == "__main__":
    main()
