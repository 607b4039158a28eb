from dataclasses import dataclass, field


@dataclass
class Item:
    name: str
    category: str
    price: float
    qty: int = 0
    tags: list[str] = field(default_factory=list)

    def value(self) -> float:
        return self.price * self.qty


@dataclass(order=True)
class Version:
    major: int
    minor: int


class Inventory:
    def __init__(self):
        self.items: dict[str, Item] = {}

    def add(self, item: Item):
        if item.name in self.items:
            self.items[item.name].qty += item.qty
        else:
            self.items[item.name] = item

    def remove(self, name: str, qty: int):
        item = self.items.get(name)
        if item is None:
            raise KeyError(name)
        if item.qty < qty:
            raise ValueError(f"only {item.qty} {name} left")
        item.qty -= qty

    def total(self) -> float:
        return sum(i.value() for i in self.items.values())

    def by_category(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for item in self.items.values():
            out.setdefault(item.category, []).append(item.name)
        return out


def main():
    inv = Inventory()
    inv.add(Item("apple", "fruit", 0.5, 100, ["red"]))
    inv.add(Item("banana", "fruit", 0.25, 150))
    inv.add(Item("hammer", "tools", 12.99, 5, ["steel", "heavy"]))
    inv.add(Item("nails", "tools", 0.02, 1000))
    inv.add(Item("apple", "fruit", 0.5, 20))
    inv.add(Item("milk", "dairy", 1.19, 12))
    print(inv.items["apple"])
    print(Item("x", "y", 1.0))
    for name in ["apple", "hammer", "pear"]:
        try:
            inv.remove(name, 10)
            print("removed 10", name)
        except KeyError as e:
            print("no such item:", e)
        except ValueError as e:
            print("error:", e)
    try:
        inv.remove("hammer", 10)
    except ValueError as e:
        print("error:", e)
    items = list(inv.items.values())
    for it in sorted(items, key=lambda i: i.value(), reverse=True):
        print(f"{it.name:<8}{it.qty:>6}{it.value():>10.2f}")
    for it in sorted(items, key=lambda i: (i.category, -i.price)):
        print(it.category, it.name, it.price)
    cheapest = min(items, key=lambda i: i.price)
    dearest = max(items, key=lambda i: i.price)
    print("cheapest", cheapest.name, "dearest", dearest.name)
    print(f"total {inv.total():.2f}")
    cats = inv.by_category()
    for c in sorted(cats):
        print(c, ", ".join(sorted(cats[c])))
    print(Item("a", "b", 1.0, 2) == Item("a", "b", 1.0, 2))
    vs = [Version(1, 10), Version(1, 2), Version(0, 99)]
    print(sorted(vs))
    print(Version(1, 2) < Version(1, 10), max(vs))
    tagged = [i.name for i in items if i.tags]
    print(tagged, [len(i.tags) for i in items])


if __name__ == "__main__":
    main()
