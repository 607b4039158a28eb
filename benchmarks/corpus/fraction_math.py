from math import gcd


class Frac:
    def __init__(self, num: int, den: int = 1):
        if den == 0:
            raise ZeroDivisionError("denominator is zero")
        if den < 0:
            num, den = -num, -den
        g = gcd(num, den)
        self.num = num // g
        self.den = den // g

    def __add__(self, other: "Frac") -> "Frac":
        return Frac(self.num * other.den + other.num * self.den, self.den * other.den)

    def __sub__(self, other: "Frac") -> "Frac":
        return Frac(self.num * other.den - other.num * self.den, self.den * other.den)

    def __mul__(self, other: "Frac") -> "Frac":
        return Frac(self.num * other.num, self.den * other.den)

    def __truediv__(self, other: "Frac") -> "Frac":
        return Frac(self.num * other.den, self.den * other.num)

    def __neg__(self) -> "Frac":
        return Frac(-self.num, self.den)

    def __eq__(self, other: "Frac") -> bool:
        return self.num == other.num and self.den == other.den

    def __lt__(self, other: "Frac") -> bool:
        return self.num * other.den < other.num * self.den

    def __hash__(self) -> int:
        return hash((self.num, self.den))

    def __float__(self) -> float:
        return self.num / self.den

    def __repr__(self) -> str:
        return f"Frac({self.num}, {self.den})"

    def __str__(self) -> str:
        return str(self.num) if self.den == 1 else f"{self.num}/{self.den}"


def harmonic(n: int) -> Frac:
    total = Frac(0)
    for k in range(1, n + 1):
        total = total + Frac(1, k)
    return total


def egyptian(f: Frac) -> list[Frac]:
    parts = []
    while f.num != 0:
        d = -(-f.den // f.num)
        unit = Frac(1, d)
        parts.append(unit)
        f = f - unit
    return parts


def continued(f: Frac) -> list[int]:
    terms = []
    num, den = f.num, f.den
    while den:
        q = num // den
        terms.append(q)
        num, den = den, num - q * den
    return terms


def convergents(terms: list[int]) -> list[Frac]:
    out = []
    h0, h1, k0, k1 = 0, 1, 1, 0
    for a in terms:
        h0, h1 = h1, a * h1 + h0
        k0, k1 = k1, a * k1 + k0
        out.append(Frac(h1, k1))
    return out


def main():
    a, b = Frac(1, 2), Frac(-3, 4)
    print(a, b, a + b, a - b, a * b, a / b, -b)
    print(repr(a + b), float(a / b), a < b, b < a, a == Frac(2, 4))
    for n in [1, 2, 5, 10, 20]:
        h = harmonic(n)
        print(f"H({n}) = {h} ~ {float(h):.6f}")
    for f in [Frac(4, 13), Frac(5, 6), Frac(7, 15), Frac(99, 100)]:
        parts = egyptian(f)
        print(f, "=", " + ".join(str(p) for p in parts), "check", sum(parts, Frac(0)) == f)
    pi_ish = Frac(355, 113)
    terms = continued(pi_ish)
    print("355/113 ->", terms, [str(c) for c in convergents(terms)])
    sqrt2 = convergents([1] + [2] * 10)
    for c in sqrt2[-3:]:
        print(c, f"{float(c):.12f}", float(c * c) - 2)
    fracs = [Frac(n, d) for d in range(1, 7) for n in range(0, d + 1)]
    distinct = sorted(set(fracs))
    print(len(fracs), "fractions,", len(distinct), "distinct")
    print(" ".join(str(f) for f in distinct))
    print(max(fracs), min(fracs, key=lambda f: abs(float(f) - 0.3)))
    try:
        print(Frac(1, 2) / Frac(0, 5))
    except ZeroDivisionError as e:
        print("error:", e)
    counts: dict[Frac, int] = {}
    for f in fracs:
        counts[f] = counts.get(f, 0) + 1
    print([f"{k}:{v}" for k, v in counts.items() if v > 1])


if __name__ == "__main__":
    main()
