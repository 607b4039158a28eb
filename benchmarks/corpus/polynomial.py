"""Integer polynomials as a class with operators: arithmetic, evaluation, derivatives, division, Newton."""
from __future__ import annotations


class Poly:
    def __init__(self, coeffs: list[int]):
        # coeffs[i] is the coefficient of x**i; trailing zeros are dropped
        c = list(coeffs)
        while c and c[-1] == 0:
            c.pop()
        self.coeffs = c

    @property
    def degree(self) -> int:
        return len(self.coeffs) - 1

    def __add__(self, other: Poly) -> Poly:
        n = max(len(self.coeffs), len(other.coeffs))
        a = self.coeffs + [0] * (n - len(self.coeffs))
        b = other.coeffs + [0] * (n - len(other.coeffs))
        return Poly([x + y for x, y in zip(a, b)])

    def __neg__(self) -> Poly:
        return Poly([-c for c in self.coeffs])

    def __sub__(self, other: Poly) -> Poly:
        return self + (-other)

    def __mul__(self, other: Poly) -> Poly:
        if not self.coeffs or not other.coeffs:
            return Poly([])
        out = [0] * (len(self.coeffs) + len(other.coeffs) - 1)
        for i, a in enumerate(self.coeffs):
            for j, b in enumerate(other.coeffs):
                out[i + j] += a * b
        return Poly(out)

    def __pow__(self, n: int) -> Poly:
        return Poly([1]) if n == 0 else self * self ** (n - 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Poly) and self.coeffs == other.coeffs

    def __call__(self, x: float) -> float:
        acc = 0.0
        for c in reversed(self.coeffs):
            acc = acc * x + c
        return acc

    def derivative(self) -> Poly:
        return Poly([i * c for i, c in enumerate(self.coeffs)][1:])

    def divmod(self, divisor: Poly) -> tuple[Poly, Poly]:
        if divisor.coeffs[-1] not in (1, -1):
            raise ValueError("divisor must be monic")
        rem = list(self.coeffs)
        quot = [0] * max(len(rem) - len(divisor.coeffs) + 1, 0)
        for i in range(len(quot) - 1, -1, -1):
            factor = rem[i + divisor.degree] // divisor.coeffs[-1]
            quot[i] = factor
            for j, d in enumerate(divisor.coeffs):
                rem[i + j] -= factor * d
        return Poly(quot), Poly(rem)

    def __repr__(self) -> str:
        if not self.coeffs:
            return "0"
        terms = []
        for i in range(len(self.coeffs) - 1, -1, -1):
            c = self.coeffs[i]
            if c == 0:
                continue
            sign = "-" if c < 0 else "+"
            body = "" if abs(c) == 1 and i > 0 else str(abs(c))
            if i >= 1:
                body += "x" if i == 1 else f"x^{i}"
            terms.append((sign, body))
        text = ("-" if terms[0][0] == "-" else "") + terms[0][1]
        for sign, body in terms[1:]:
            text += f" {sign} {body}"
        return text


def newton(p: Poly, x: float, steps: int = 30) -> float:
    d = p.derivative()
    for _ in range(steps):
        slope = d(x)
        if slope == 0:
            break
        x -= p(x) / slope
    return x


def main() -> None:
    x = Poly([0, 1])
    one = Poly([1])
    p = (x - one) * (x + Poly([2])) * (x - Poly([3]))
    q = x ** 2 + one
    print("p =", p, "| q =", q)
    print("p + q =", p + q, "| p - p =", p - p, "| degree", (p - p).degree)
    print("p * q =", p * q)
    print("(x+1)^5 =", (x + one) ** 5)
    print("p' =", p.derivative(), "| p'' =", p.derivative().derivative())
    print("p(0..4):", [p(v) for v in range(5)])
    quot, rem = (p * q + Poly([4, 1])).divmod(q)
    print("divmod by q:", quot, "rem", rem, "| equal p:", quot == p)
    roots = sorted({round(newton(p, guess), 9) for guess in (-5.0, 0.5, 2.5, 10.0)})
    print("roots:", roots)
    print(f"sqrt(2) ~ {newton(x ** 2 - Poly([2]), 1.0):.12f}")
    try:
        p.divmod(Poly([1, 2]))
    except ValueError as e:
        print("ValueError:", e)
    table = {str(k): (x + Poly([k])) ** 2 for k in range(-2, 3)}
    print("; ".join(f"(x{int(k):+d})^2 = {v}" for k, v in table.items()))


if __name__ == "__main__":
    main()
