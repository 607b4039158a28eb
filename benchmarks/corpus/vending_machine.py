from dataclasses import dataclass
from enum import Enum, auto


class State(Enum):
    IDLE = auto()
    COLLECTING = auto()
    DISPENSING = auto()
    OUT_OF_ORDER = auto()


class Event(Enum):
    COIN = "coin"
    SELECT = "select"
    CANCEL = "cancel"
    SERVICE = "service"


@dataclass
class Product:
    name: str
    price: int
    count: int


COINS = [200, 100, 50, 20, 10, 5]


def make_change(amount: int, bank: dict[int, int]) -> list[int] | None:
    out: list[int] = []
    for coin in COINS:
        while amount >= coin and bank.get(coin, 0) > 0:
            amount -= coin
            bank[coin] -= 1
            out.append(coin)
    if amount != 0:
        for c in out:
            bank[c] += 1
        return None
    return out


class Machine:
    def __init__(self):
        self.state = State.IDLE
        self.credit = 0
        self.products = {"A1": Product("cola", 120, 2), "A2": Product("chips", 85, 1),
                         "B1": Product("candy", 65, 0)}
        self.bank = {200: 1, 100: 2, 50: 2, 20: 3, 10: 2, 5: 4}
        self.sales: list[str] = []

    def handle(self, event: Event, arg: str = "") -> str:
        before = self.state
        msg = self.step(event, arg)
        return f"{before.name:<12} --{event.value:>7}({arg})--> {self.state.name:<12} {msg}"

    def step(self, event: Event, arg: str) -> str:
        if self.state == State.OUT_OF_ORDER:
            if event == Event.SERVICE:
                self.state = State.IDLE
                return "repaired"
            return "ignored"
        if event == Event.SERVICE:
            self.state = State.OUT_OF_ORDER
            return "service mode"
        if event == Event.COIN:
            value = int(arg)
            if value not in COINS:
                return f"rejected coin {value}"
            self.credit += value
            self.bank[value] = self.bank.get(value, 0) + 1
            self.state = State.COLLECTING
            return f"credit {self.credit}"
        if event == Event.CANCEL:
            refund = make_change(self.credit, self.bank)
            self.credit = 0
            self.state = State.IDLE
            return f"refund {refund}"
        product = self.products.get(arg)
        if product is None:
            return f"no slot {arg}"
        if product.count == 0:
            return f"{product.name} sold out"
        if self.credit < product.price:
            return f"need {product.price - self.credit} more"
        change = make_change(self.credit - product.price, self.bank)
        if change is None:
            return "exact change only"
        self.state = State.DISPENSING
        product.count -= 1
        self.credit = 0
        self.sales.append(product.name)
        self.state = State.IDLE
        return f"{product.name} + change {change} (sum {sum(change)})"


def main():
    m = Machine()
    script = [(Event.SELECT, "A1"), (Event.COIN, "100"), (Event.SELECT, "A1"), (Event.COIN, "50"),
              (Event.SELECT, "A1"), (Event.COIN, "3"), (Event.COIN, "200"), (Event.SELECT, "B1"),
              (Event.SELECT, "C9"), (Event.SELECT, "A2"), (Event.COIN, "100"), (Event.SERVICE, ""),
              (Event.COIN, "10"), (Event.SERVICE, ""), (Event.COIN, "200"), (Event.SELECT, "A2"),
              (Event.COIN, "100"), (Event.CANCEL, ""), (Event.COIN, "200"), (Event.SELECT, "A1")]
    for event, arg in script:
        print(m.handle(event, arg))
    print("sales:", m.sales, "credit:", m.credit)
    print("bank:", {k: v for k, v in sorted(m.bank.items()) if v})
    print("stock:", {slot: p.count for slot, p in m.products.items()})
    print([s.name for s in State], len(Event), State(2), Event("cancel"), repr(Event.COIN))
    seen = {State.IDLE: 0}
    for s in [State.IDLE, State.COLLECTING, State.IDLE]:
        seen[s] = seen.get(s, 0) + 1
    print(seen)
    print(Product("tea", 90, 3), Product("tea", 90, 3) == Product("tea", 90, 3))
    try:
        State(9)
    except ValueError as e:
        print("error:", e)


if __name__ == "__main__":
    main()
