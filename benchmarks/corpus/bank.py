class Account:
    def __init__(self, owner: str, balance: float):
        self.owner = owner
        self.balance = balance
        self.history: list[float] = []

    def deposit(self, amount: float):
        self.balance += amount
        self.history.append(amount)

    def withdraw(self, amount: float) -> bool:
        if amount > self.balance:
            return False
        self.balance -= amount
        self.history.append(-amount)
        return True

    def __str__(self) -> str:
        return f"{self.owner}: {self.balance:.2f} ({len(self.history)} ops)"


def find(accounts: list[Account], name: str) -> Account | None:
    for a in accounts:
        if a.owner == name:
            return a
    return None


def main():
    accounts = [Account("ana", 100.0), Account("bo", 50.0), Account("cara", 0.0)]
    find(accounts, "ana").deposit(25.5)
    alias = find(accounts, "cara")
    if alias is not None:
        alias.deposit(10.0)
        print(alias.withdraw(20.0))
    for a in accounts:
        print(a)
    print(find(accounts, "dan") is None)


if __name__ == "__main__":
    main()
