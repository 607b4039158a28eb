"""A shopping cart with an enum of categories, discounts as classes, and receipts."""
from enum import Enum


class Category(Enum):
    FOOD = "food"
    BOOKS = "books"
    TOOLS = "tools"


class OutOfStock(Exception):
    def __init__(self, item: str, wanted: int, have: int) -> None:
        super().__init__(f"{item}: wanted {wanted}, only {have} left")
        self.item = item


class Product:
    def __init__(self, name: str, price: float, category: Category, stock: int) -> None:
        self.name = name
        self.price = price
        self.category = category
        self.stock = stock

    def __repr__(self) -> str:
        return f"Product({self.name!r}, {self.price:.2f})"


class Discount:
    def apply(self, lines: list[tuple[Product, int]]) -> float:
        return 0.0

    def describe(self) -> str:
        return "no discount"


class CategoryDiscount(Discount):
    def __init__(self, category: Category, percent: int) -> None:
        self.category = category
        self.percent = percent

    def apply(self, lines: list[tuple[Product, int]]) -> float:
        return sum(p.price * q for p, q in lines if p.category is self.category) * self.percent / 100

    def describe(self) -> str:
        return f"{self.percent}% off {self.category.value}"


class BulkDiscount(Discount):
    def __init__(self, min_items: int, amount: float) -> None:
        self.min_items = min_items
        self.amount = amount

    def apply(self, lines: list[tuple[Product, int]]) -> float:
        return self.amount if sum(q for _, q in lines) >= self.min_items else 0.0

    def describe(self) -> str:
        return f"{self.amount:.2f} off {self.min_items}+ items"


class Cart:
    def __init__(self) -> None:
        self.lines: dict[str, tuple[Product, int]] = {}

    def add(self, product: Product, qty: int = 1) -> None:
        have = self.lines[product.name][1] if product.name in self.lines else 0
        if have + qty > product.stock:
            raise OutOfStock(product.name, have + qty, product.stock)
        self.lines[product.name] = (product, have + qty)

    def receipt(self, discounts: list[Discount]) -> None:
        items = sorted(self.lines.values(), key=lambda pq: (pq[0].category.value, pq[0].name))
        subtotal = 0.0
        for product, qty in items:
            cost = product.price * qty
            subtotal += cost
            print(f"  {product.name:<14}{qty:>3} x {product.price:>6.2f} = {cost:>8.2f}  [{product.category.name}]")
        print(f"  {'subtotal':<27}{subtotal:>8.2f}")
        total = subtotal
        for d in discounts:
            off = d.apply(items)
            if off:
                print(f"  {d.describe():<27}{-off:>8.2f}")
                total -= off
        print(f"  {'TOTAL':<27}{round(total, 2):>8.2f}")


def main() -> None:
    catalog = [
        Product("apples", 0.45, Category.FOOD, 40),
        Product("bread", 2.3, Category.FOOD, 5),
        Product("novel", 12.99, Category.BOOKS, 3),
        Product("atlas", 24.5, Category.BOOKS, 1),
        Product("hammer", 15.0, Category.TOOLS, 2),
    ]
    by_name = {p.name: p for p in catalog}
    cart = Cart()
    orders = [("apples", 12), ("bread", 2), ("novel", 2), ("atlas", 2), ("hammer", 1), ("novel", 1), ("bread", 4)]
    for name, qty in orders:
        try:
            cart.add(by_name[name], qty)
        except OutOfStock as e:
            print("refused:", e, "| item", e.item)
    cart.receipt([CategoryDiscount(Category.BOOKS, 10), BulkDiscount(15, 5.0), Discount()])
    print(sorted(catalog, key=lambda p: p.price)[:2])
    print([c.name for c in Category], Category("books"), Category.TOOLS == Category.TOOLS)


if __name__ == "__main__":
    main()
