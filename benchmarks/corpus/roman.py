VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n: int) -> str:
    out = ""
    for value, sym in VALUES:
        while n >= value:
            out += sym
            n -= value
    return out


def from_roman(s: str) -> int:
    table = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i in range(len(s)):
        v = table[s[i]]
        if i + 1 < len(s) and table[s[i + 1]] > v:
            total -= v
        else:
            total += v
    return total


def main():
    for n in [1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999]:
        r = to_roman(n)
        print(n, r, from_roman(r))


if __name__ == "__main__":
    main()
