class OrderError(Exception):
    pass


class ValidationError(OrderError):
    pass


class StockError(OrderError):
    pass


class PaymentError(Exception):
    pass


STOCK = {"widget": 10, "gadget": 2, "doohickey": 0}
PRICES = {"widget": 2.5, "gadget": 19.99, "doohickey": 7.0}
log: list[str] = []


def validate(item: str, qty: int):
    if qty <= 0:
        raise ValidationError(f"bad quantity {qty} for {item}")
    if item not in PRICES:
        raise ValidationError("unknown item " + repr(item))


def reserve(item: str, qty: int):
    have = STOCK[item]
    if have < qty:
        raise StockError(f"{item}: wanted {qty}, have {have}")
    STOCK[item] = have - qty


def charge(customer: str, amount: float, balances: dict[str, float]) -> float:
    if customer not in balances:
        raise KeyError(customer)
    if balances[customer] < amount:
        raise PaymentError(f"{customer} cannot pay {amount:.2f}")
    balances[customer] -= amount
    return balances[customer]


def place(customer: str, item: str, qty: int, balances: dict[str, float]) -> str:
    log.append(f"begin {customer}/{item}")
    reserved = False
    try:
        validate(item, qty)
        reserve(item, qty)
        reserved = True
        left = charge(customer, PRICES[item] * qty, balances)
    except PaymentError:
        if reserved:
            STOCK[item] += qty
            log.append(f"released {qty} {item}")
        raise
    else:
        log.append(f"charged {customer}")
        return f"ok, {customer} has {left:.2f} left"
    finally:
        log.append(f"end {customer}/{item}")


def safe_divide(a: int, b: int) -> float:
    try:
        return a / b
    except ZeroDivisionError as e:
        print("  caught:", e)
        return float("inf")
    finally:
        print(f"  divide {a}/{b} done")


def main():
    balances = {"ann": 50.0, "bob": 5.0}
    orders = [("ann", "widget", 4), ("bob", "gadget", 1), ("ann", "gadget", 3), ("bob", "thing", 1),
              ("cy", "widget", 1), ("ann", "widget", -2), ("ann", "doohickey", 1), ("ann", "gadget", 2)]
    for customer, item, qty in orders:
        try:
            print(place(customer, item, qty, balances))
        except ValidationError as e:
            print("invalid:", e)
        except OrderError as e:
            print(type(e).__name__, "->", e)
        except PaymentError as e:
            print("payment failed:", e, "| stock now", STOCK[item])
        except KeyError as e:
            print("no account for", e)
    print(STOCK)
    print({k: round(v, 2) for k, v in balances.items()})
    for line in log:
        print(" ", line)
    print(len(log), "log lines;", sum(1 for l in log if l.startswith("end")), "ends")
    print(safe_divide(7, 2))
    print(safe_divide(1, 0))
    errors: list[Exception] = [ValidationError("v"), StockError("s"), PaymentError("p")]
    for err in errors:
        print(type(err).__name__, isinstance(err, OrderError), isinstance(err, Exception), str(err))
    try:
        try:
            raise StockError("inner")
        finally:
            print("inner finally")
    except OrderError as e:
        print("outer got", repr(e))
    count = 0
    for attempt in range(5):
        try:
            if attempt < 3:
                raise ValueError(f"attempt {attempt}")
            count += 10
            break
        except ValueError as e:
            count += 1
            print("retry after", e)
        finally:
            count += 100
    print("count", count)


if __name__ == "__main__":
    main()
