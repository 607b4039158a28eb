class LedgerError(Exception):
    pass


class InsufficientFunds(LedgerError):
    def __init__(self, account, needed, available):
        super().__init__(f"{account}: needs {needed}, has {available}")
        self.account = account
        self.needed = needed
        self.available = available


class UnknownAccount(LedgerError):
    pass


class Ledger:
    def __init__(self):
        self.balances = {}
        self.log = []

    def open(self, name, amount=0):
        if name in self.balances:
            raise LedgerError(f"account {name} exists")
        self.balances[name] = amount
        self.log.append(("open", name, amount))

    def _get(self, name):
        if name not in self.balances:
            raise UnknownAccount(name)
        return self.balances[name]

    def transfer(self, src, dst, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        have = self._get(src)
        self._get(dst)
        if have < amount:
            raise InsufficientFunds(src, amount, have)
        self.balances[src] -= amount
        self.balances[dst] += amount
        self.log.append(("transfer", src, amount))


def main():
    ledger = Ledger()
    ledger.open("alice", 100)
    ledger.open("bob", 20)
    ledger.open("carol")
    attempts = [("alice", "bob", 30), ("bob", "carol", 60), ("dave", "bob", 1),
                ("carol", "alice", 0), ("bob", "carol", 50), ("alice", "erin", 5)]
    for src, dst, amount in attempts:
        try:
            ledger.transfer(src, dst, amount)
        except InsufficientFunds as e:
            print("insufficient:", e, "short by", e.needed - e.available)
        except UnknownAccount as e:
            print("unknown account:", e)
        except ValueError as e:
            print("bad amount:", e)
        else:
            print(f"ok {src}->{dst} {amount}")
        finally:
            print("  balances:", ledger.balances)
    try:
        ledger.open("bob")
    except LedgerError as e:
        print(type(e).__name__, e)
    errors = 0
    for i in range(5):
        try:
            if i % 2:
                raise InsufficientFunds("x", i, 0)
            raise UnknownAccount(str(i))
        except LedgerError as e:
            errors += 1
            print(isinstance(e, InsufficientFunds), isinstance(e, UnknownAccount), e)
    print("errors", errors)
    print(len(ledger.log), ledger.log[-1])
    total = sum(ledger.balances.values())
    assert total == 120, "money was created"
    print("total", total)
    try:
        assert total < 0, f"total is {total}"
    except AssertionError as e:
        print("assertion:", e)


main()
