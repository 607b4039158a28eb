"""Scale recipes with fractions, convert units, and format quantities several ways."""
from fractions import Fraction
from functools import reduce
import itertools
import math

UNITS: dict[str, tuple[str, Fraction]] = {
    "tsp": ("ml", Fraction(5)),
    "tbsp": ("ml", Fraction(15)),
    "cup": ("ml", Fraction(240)),
    "oz": ("g", Fraction(2835, 100)),
    "lb": ("g", Fraction(45359, 100)),
}


class Ingredient:
    def __init__(self, name: str, amount: Fraction, unit: str) -> None:
        self.name = name
        self.amount = amount
        self.unit = unit

    def scaled(self, factor: Fraction) -> "Ingredient":
        return Ingredient(self.name, self.amount * factor, self.unit)

    def metric(self) -> str:
        if self.unit not in UNITS:
            return f"{float(self.amount):g} {self.unit}"
        base, ratio = UNITS[self.unit]
        return f"{float(self.amount * ratio):.1f} {base}"

    def __str__(self) -> str:
        whole, rest = divmod(self.amount.numerator, self.amount.denominator)
        if rest == 0:
            text = str(whole)
        elif whole == 0:
            text = f"{rest}/{self.amount.denominator}"
        else:
            text = f"{whole} {rest}/{self.amount.denominator}"
        return f"{text} {self.unit} {self.name}"

    def __lt__(self, other: "Ingredient") -> bool:
        return self.name < other.name


def parse(text: str) -> list[Ingredient]:
    out: list[Ingredient] = []
    for line in text.strip().splitlines():
        qty, unit, *name = line.split()
        out.append(Ingredient(" ".join(name), Fraction(qty), unit))
    return out


PANCAKES = """
3/2 cup flour
7/2 tsp baking-powder
1/4 tsp salt
1 tbsp sugar
5/4 cup milk
1 whole egg
3 tbsp butter
"""


def main() -> None:
    recipe = parse(PANCAKES)
    for factor in (Fraction(1), Fraction(2, 3), Fraction(5, 2)):
        print(f"--- x{factor} ---")
        for ing in sorted(ing.scaled(factor) for ing in recipe):
            print(f"  {str(ing):<28} = {ing.metric()}")
    denominators = [ing.amount.denominator for ing in recipe]
    print("common denominator:", reduce(math.lcm, denominators))
    print("total fraction:", sum((ing.amount for ing in recipe), Fraction(0)))
    pairs = list(itertools.combinations([i.name for i in recipe[:4]], 2))
    print(len(pairs), pairs[:3])
    for key, group in itertools.groupby(sorted(recipe, key=lambda i: i.unit), key=lambda i: i.unit):
        print(f"{key:>6}: {[g.name for g in group]}")
    print(f"{1234567.891:,.2f} {0.000123:e} {255:#x} {42:+d} {3.0:g} {1e16:g} {0.1 + 0.2!r}")
    print(Fraction(7, 4) ** 2, Fraction(1, 3) + Fraction(1, 6), round(Fraction(7, 2)), Fraction("0.75"))


if __name__ == "__main__":
    main()
