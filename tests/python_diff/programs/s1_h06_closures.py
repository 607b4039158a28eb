def outer():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    inc()
    inc()
    return count

def make(n: int):
    def f(x: int) -> int:
        return x * n
    return f

def main():
    print(outer())
    g = make(3)
    print(g(4))
    fs = [lambda x, i=i: x + i for i in range(3)]
    print([f(10) for f in fs])

if __name__ == "__main__":
    main()
