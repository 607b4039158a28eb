def divmods():
    for a in [7, -7]:
        for b in [2, -2, 3, -3]:
            print(a, b, a // b, a % b, divmod(a, b), int(a / b))


def main():
    divmods()
    print(-7 // 2.0, -7 % 2.5, 7.5 // -2, divmod(-7.5, 2))
    print(round(0.5), round(1.5), round(-0.5), round(-1.5), round(2.5, 0), round(0.125, 2), round(-17, -1))
    print(int("42"), int("-17"), int("  8 "), int("0x1f", 16), int("777", 8), int("1010", 2), int("z", 36))
    print(int(3.99), int(-3.99), int(True), float("1.5e3"), float("-inf"), float("  2.5 "))
    for s in ["12", "1.5", "abc", "", " 7"]:
        try:
            print(s, "->", int(s))
        except ValueError as e:
            print("ValueError:", e)
    big = 2 ** 62
    print(big, big - 1 + big, -(2 ** 63), 9223372036854775807)
    print(10 ** 18, 3 ** 39, 12345678901 * 700000000)
    print(abs(-5), abs(-2.5), pow(2, 10), pow(3, 4, 5), pow(2, -1), 2 ** -2)
    print(7 / 2, 8 / 2, -1 / 3, 1e300 * 10, -1e300 * 10)
    print(hex(255), hex(-255), oct(8), bin(5), bin(-5), bin(0))
    print(0.1 + 0.2 == 0.3, abs(0.1 + 0.2 - 0.3) < 1e-9, 1 == 1.0, 5 // 0.3)
    print(max(3, 7, -2), min([4, 2, 8]), sum([1.5, 2.5]), sum(range(101)))
    print(True + True, 3 * False, -True)
    print(int(2.5e10), float(2 ** 53), float(2 ** 53 + 1))
    print(1 << 40, 1024 >> 3, -16 >> 2, 5 & 3, 5 | 3, 5 ^ 3, ~5)
    for x in [0, 1, -1, 255, 1000000]:
        print(x.bit_length(), end=" ")
    print()
    print((17).to_bytes(2, "big") if False else "skip", (-3) ** 3, (-2) ** 2, -2 ** 2)
    try:
        print(1 // 0)
    except ZeroDivisionError as e:
        print("ZeroDivisionError:", e)
    try:
        print(5 % 0)
    except ZeroDivisionError as e:
        print("ZeroDivisionError:", e)
    try:
        print(1.0 / 0)
    except ZeroDivisionError as e:
        print("ZeroDivisionError:", e)
    print(float("nan") == float("nan"), float("inf") > 10 ** 18, str(float("nan")))
    print(1e16, 1e-4, 0.0001, 123456789012345678.0, 1.0e-10, -0.0, 2.0 ** 0.5)
    print(3 == 3.0, hash(3) == hash(3.0), isinstance(3, int), isinstance(3.0, float))


main()
