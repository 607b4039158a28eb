"""Converting numbers between bases: parsing with int(s, base), printing with hex/bin/oct and format."""


def to_base(n, base):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    out = []
    negative = n < 0
    n = abs(n)
    while n:
        n, r = divmod(n, base)
        out.append(digits[r])
    return ("-" if negative else "") + "".join(reversed(out))


def main():
    for text, base in [("ff", 16), ("777", 8), ("101010", 2), ("zz", 36), ("0x1f", 16), ("-42", 10)]:
        value = int(text, base)
        print(f"{text!r:>10} in base {base:2} = {value:5} = {hex(value)} {oct(value)} {bin(value)}")
    for n in [0, 5, 255, 1024, -7]:
        print(n, to_base(n, 2), to_base(n, 7), format(n, "08b"), format(n, "x"), "%o" % n)
    print(int("  12  "), int("0b1101", 0), int("0o17", 0), int("1_000_000"))
    try:
        int("12z", 10)
    except ValueError as err:
        print("ValueError:", err)


if __name__ == "__main__":
    main()
